#include "game_analysis.h"

#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <nlohmann/json.hpp>

#include "game.h"
#include "game_room.h"
#include "json.h"
#include "log_text.h"
#include "thread_priority.h"
#include "token.h"
#include "view.h"

namespace viktory::server {
namespace {

using nlohmann::json;

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// Chances as the client draws them: three decimals are more than a chart shows.
double rounded(double v) { return std::round(v * 1000) / 1000; }

json settings_json(const ai::LookbackSettings& s) {
  return json{{"playouts", s.playouts},          {"playout_rounds", s.playout_rounds},
              {"max_points", s.max_points},      {"drops_per_player", s.drops_per_player},
              {"min_drop", s.min_drop},          {"search_iterations", s.search_iterations},
              {"max_decisions", s.max_decisions}};
}

// An action and the log lines it gives from `before` (a spectator's, as a replay shows them).
json told(const GameState& before, const Action& action, int seq,
          std::optional<std::uint64_t> own_dice) {
  GameState after = before;
  if (own_dice) ai::use_own_dice(after, *own_dice);
  std::vector<Event> events;
  json log = json::array();
  if (!apply_in_place(after, action, &events)) {
    append_log_json(log, seq, after, filter_events_for(after, events, kSpectator), kSpectator);
  }
  return json{{"action", protocol::action_to_json(action)}, {"log", log}};
}

ApiResponse pending() {
  ApiResponse r{202, json{{"status", "pending"}}.dump()};
  r.retry_after_seconds = 2;
  return r;
}

}  // namespace

GameAnalyses::GameAnalyses(Store& store, AnalysisLimits limits)
    : store_(store),
      limits_(limits),
      db_path_(store.db().path()),
      buckets_(limits.per_address_per_hour / 3600.0, 3) {
  if (limits_.queue > 0 && !db_path_.empty()) worker_ = std::thread([this] { work(); });
}

GameAnalyses::~GameAnalyses() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    queue_.clear();
  }
  cancel_.store(true);
  wake_.notify_all();
  if (worker_.joinable()) worker_.join();
}

std::string GameAnalyses::analyse(Store& store, const GameRecord& record,
                                  const ai::LookbackSettings& base,
                                  const std::atomic<bool>* cancel) {
  ai::LookbackSettings settings = base;
  settings.seed = static_cast<std::uint64_t>(record.id);
  std::vector<Action> actions;
  for (const ActionRecord& a : store.actions(record.id)) {
    if (a.seq != static_cast<int>(actions.size()) + 1) {
      throw DamagedGame("game " + std::to_string(record.id) + ": the action log has a gap");
    }
    actions.push_back(a.action);
  }
  const GameState start = new_game(record.options, record.seed, record.random_scheme);
  const ai::Lookback lb = ai::look_back(start, actions, settings, cancel);
  if (!lb.complete) throw std::runtime_error("the analysis was stopped");

  json points = json::array();
  for (const ai::LookbackPoint& p : lb.points) {
    json chances = json::array();
    for (double c : p.chances) chances.push_back(rounded(c));
    json point{{"seq", p.seq}, {"turn", p.turn}, {"current", p.current}, {"chances", chances}};
    if (p.final) point["final"] = true;
    points.push_back(std::move(point));
  }
  // The states before the decisions the search would have played otherwise, in one walk.
  std::map<int, const ai::LookbackDrop*> by_seq;
  for (const ai::LookbackDrop& d : lb.drops) {
    if (d.differs) by_seq[d.seq] = &d;
  }
  std::map<int, json> decisions;
  GameState s = start;
  for (std::size_t i = 0; i < actions.size() && !by_seq.empty(); ++i) {
    const int seq = static_cast<int>(i + 1);
    if (auto it = by_seq.find(seq); it != by_seq.end()) {
      const ai::LookbackDrop& d = *it->second;
      decisions[seq] = json{
          {"seq", seq},
          {"played", told(s, d.played, seq, std::nullopt)},
          {"computer", told(s, d.suggested, seq, settings.seed ^ static_cast<std::uint64_t>(seq))}};
      by_seq.erase(it);
    }
    apply_in_place(s, actions[i]);
  }
  json drops = json::array();
  for (const ai::LookbackDrop& d : lb.drops) {
    const ai::LookbackPoint& from = lb.points[static_cast<std::size_t>(d.from_point)];
    const ai::LookbackPoint& to = lb.points[static_cast<std::size_t>(d.to_point)];
    json drop{{"player", d.player},
              {"turn", d.turn != 0 ? d.turn : from.turn},
              {"from_seq", from.seq},
              {"to_seq", to.seq},
              {"from_turn", from.turn},
              {"to_turn", to.turn},
              {"before", rounded(d.before)},
              {"after", rounded(d.after)},
              {"searched", d.decisions_searched}};
    drop["decision"] = d.differs ? decisions[d.seq] : json(nullptr);
    drops.push_back(std::move(drop));
  }
  return json{{"status", "done"},
              {"game_id", record.id},
              {"players", record.options.players},
              {"stride", lb.stride},
              {"settings", settings_json(settings)},
              {"points", points},
              {"drops", drops}}
      .dump(-1, ' ', false, json::error_handler_t::replace);
}

ApiResponse GameAnalyses::handle(std::int64_t game_id,
                                 const std::map<std::string, std::string>& query,
                                 std::string_view authorization, std::string_view address) {
  const std::string invite = query.count("invite") ? query.at("invite") : std::string();
  std::optional<GameRecord> record;
  std::optional<std::string> stored;
  std::int64_t player_id = 0;
  bool guided = false;
  std::lock_guard lock(mutex_);  // see mutex_: the lookup and the queueing are one step
  {
    try {
      if (!lookup_) lookup_.emplace(db_path_, Store::ReadOnly{});
      record = lookup_->game(game_id);
      if (auto hash = bearer_token_hash(authorization)) {
        if (auto player = lookup_->player_by_token_hash(*hash)) player_id = player->id;
      }
      if (record && record->status == GameStatus::kFinished) {
        Database& db = lookup_->db();
        const auto db_lock = db.lock();
        Statement s = db.cached("SELECT result FROM game_analyses WHERE game_id = ?");
        s.bind(1, game_id);
        if (s.step()) stored = s.text(0);
        if (!stored) guided = lookup_->latest_snapshot(game_id, 0).has_value();
      }
    } catch (const DamagedGame& e) {
      spdlog::error("game_damaged game={} reason=\"{}\"", game_id, e.what());
      return api_error(503, "game_damaged", "this game's stored data is damaged");
    } catch (const std::exception& e) {
      spdlog::error("analysis_failed game={} error=\"{}\"", game_id, e.what());
      lookup_.reset();
      return api_error(500, "internal", "the server could not read this game");
    }
  }
  // A private game without its invite answers exactly like a game that does not exist.
  if (!record || record->status == GameStatus::kCancelled ||
      !GameRoom::may_view(*record, player_id, invite)) {
    return api_error(404, "not_found", "no such game");
  }
  if (record->status != GameStatus::kFinished) {
    return api_error(409, "game_running", "a game is analysed once it is over");
  }
  if (stored) return ApiResponse{200, *stored};
  if (guided) {
    return api_error(404, "no_analysis",
                     "a guided game starts from a prepared position: it is not analysed");
  }
  if (pending_games_.count(game_id)) return pending();
  if (failed_.count(game_id)) {
    return api_error(503, "game_damaged", "this game could not be analysed");
  }
  if (limits_.queue <= 0 || !worker_.joinable()) {
    return api_error(503, "no_analyses", "this server does not analyse games");
  }
  const std::string who(address);
  if (pending_addresses_.count(who) || (player_id != 0 && pending_players_.count(player_id))) {
    ApiResponse refused =
        api_error(429, "analysis_pending", "one analysis at a time: wait for the one under way");
    refused.retry_after_seconds = 10;
    return refused;
  }
  if (static_cast<int>(pending_games_.size()) >= limits_.queue) {
    ApiResponse busy = api_error(503, "busy", "too many games are being analysed; try later");
    busy.retry_after_seconds = 30;
    return busy;
  }
  if (!buckets_.take(who)) {
    ApiResponse refused =
        api_error(429, "rate_limited", "too many analyses from this address; try in an hour");
    refused.retry_after_seconds = 300;
    return refused;
  }
  pending_games_.insert(game_id);
  pending_addresses_.insert(who);
  if (player_id != 0) pending_players_.insert(player_id);
  queue_.push_back(Job{std::move(*record), who, player_id});
  wake_.notify_one();
  return pending();
}

void GameAnalyses::finish(const Job& job) {
  pending_games_.erase(job.record.id);
  pending_addresses_.erase(job.address);
  if (job.player_id != 0) pending_players_.erase(job.player_id);
}

void GameAnalyses::work() {
  lower_thread_priority(limits_.nice, "the analysis worker");
  std::optional<Store> reader;
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    if (before_compute_for_tests) before_compute_for_tests();
    const std::int64_t id = job.record.id;
    bool finished = false;
    try {
      if (!reader) reader.emplace(db_path_, Store::ReadOnly{});
      const double begin = thread_cpu_seconds();
      const std::string result = analyse(*reader, job.record, limits_.settings, &cancel_);
      const auto cpu_ms = static_cast<std::int64_t>((thread_cpu_seconds() - begin) * 1000);
      {
        std::lock_guard lock(mutex_);  // see mutex_: storing and ending the job are one step
        if (before_store_for_tests) before_store_for_tests();
        Database& db = store_.db();
        Transaction tx(db);
        db.cached(
              "INSERT OR REPLACE INTO game_analyses(game_id, settings, result, cpu_ms, at) "
              "VALUES(?, ?, ?, ?, ?)")
            .bind(1, id)
            .bind(2, settings_json(limits_.settings).dump())
            .bind(3, result)
            .bind(4, cpu_ms)
            .bind(5, now_ms())
            .run();
        tx.commit();
        ++computed_;  // still under mutex_: no request has read the answer yet
        // Logged before any request can read the answer (a log that lags what clients are
        // told misleads whoever reads both, the tests among them).
        spdlog::info("game_analysed game={} cpu_ms={}", id, cpu_ms);
        if (after_store_for_tests) after_store_for_tests();
        finish(job);
        finished = true;
      }
    } catch (const std::exception& e) {
      if (!cancel_.load()) {
        spdlog::error("analysis_failed game={} error=\"{}\"", id, e.what());
        std::lock_guard lock(mutex_);
        failed_.insert(id);
      }
      reader.reset();
      std::lock_guard lock(mutex_);
      if (!finished) finish(job);
    }
  }
}

}  // namespace viktory::server
