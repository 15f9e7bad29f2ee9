#include "replay.h"

#include <spdlog/spdlog.h>

#include <charconv>

#include "board.h"
#include "fair_play.h"
#include "game_room.h"
#include "json.h"
#include "json_writer.h"
#include "log_text.h"
#include "stored_walk.h"
#include "token.h"
#include "view.h"
#include "view_delta.h"
#include "view_text.h"

namespace viktory::server {
namespace {

using nlohmann::json;

std::optional<int> query_int(const std::map<std::string, std::string>& query, const char* key) {
  auto it = query.find(key);
  if (it == query.end()) return std::nullopt;
  int v = 0;
  auto [ptr, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), v);
  if (ec != std::errc() || ptr != it->second.data() + it->second.size()) return -1;
  return v;
}

// The small parts of a replay page as the server dumps every tree (invalid UTF-8 replaced).
std::string dumped(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace

Replays::Replays(std::string db_path, Metrics& metrics, ReplayLimits limits)
    : db_path_(std::move(db_path)),
      metrics_(metrics),
      limits_(limits),
      buckets_(limits.requests_per_minute / 60.0, limits.requests_per_minute) {}

// Written as text (protocol/json_writer.h): the views and deltas by the one view writer
// (protocol/view_text.h), spliced in without a tree; the small parts (board, actions, events,
// log lines) as their trees' dumps. The keys of every object in byte order, so the bytes are
// those of the page as one nlohmann tree (tests/server/replay_text_test.cpp).
std::string Replays::build_page(Store& store, const GameRecord& record, int viewer, int from,
                                int to) {
  StoredWalk walk(store, record, from);
  const GameState& state = walk.state();

  GameView before = view_for(state, viewer);
  // The view after action `from`, where the steps begin; its key comes after "steps".
  const std::string first_view = protocol::view_json_text(before);
  std::string out;
  protocol::JsonWriter w(out);
  w.begin_object();
  // Every page carries the static board (its hexes' coordinates, labels, perimeter), which the
  // views and deltas leave out: a page can be shown on its own.
  w.key("board");
  w.raw(dumped(protocol::board_to_json(before)));
  w.key("from");
  w.value(from);
  w.key("game_id");
  w.value(record.id);
  w.key("last_seq");
  w.value(record.seq);
  w.key("steps");
  w.begin_array();
  while (walk.seq() < to) {
    const json action_json = protocol::action_to_json(walk.next_action());
    std::vector<Event> events;
    walk.step(&events);
    const int seq = walk.seq();
    const std::vector<Event> mine = filter_events_for(state, events, viewer);
    json log = json::array();
    append_log_json(log, seq, state, mine, viewer);
    GameView after = view_for(state, viewer);
    json events_json = json::array();
    for (const Event& e : mine) events_json.push_back(protocol::event_to_json(e));
    w.begin_object();
    w.key("action");
    w.raw(dumped(action_json));
    w.key("delta");
    w.value_appended_by([&](std::string& text) {
      protocol::append_view_delta_json(text, protocol::diff_views(before, after), after);
    });
    w.key("events");
    w.raw(dumped(events_json));
    w.key("log");
    w.raw(dumped(log));
    w.key("seq");
    w.value(seq);
    w.end_object();
    before = std::move(after);
  }
  w.end_array();
  w.key("to");
  w.value(to);
  w.key("view");
  w.raw(first_view);
  w.key("viewer");
  if (viewer >= 0) {
    w.value(viewer);
  } else {
    w.null();
  }
  w.end_object();
  return out;
}

Replays::Page Replays::cached(const std::string& key) {
  auto it = index_.find(key);
  if (it == index_.end()) return nullptr;
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->second;
}

void Replays::forget_all() {
  std::lock_guard lock(cache_mutex_);
  lru_.clear();
  index_.clear();
  cached_bytes_ = 0;
}

void Replays::remember(const std::string& key, Page page) {
  if (index_.count(key) || page->size() > limits_.cache_bytes) return;
  cached_bytes_ += page->size();
  lru_.emplace_front(key, std::move(page));
  index_[key] = lru_.begin();
  while (cached_bytes_ > limits_.cache_bytes && !lru_.empty()) {
    cached_bytes_ -= lru_.back().second->size();
    index_.erase(lru_.back().first);
    lru_.pop_back();
  }
}

std::optional<ApiResponse> Replays::look_up(std::int64_t game_id, std::string_view authorization,
                                            std::optional<GameRecord>& record,
                                            std::int64_t& player_id) {
  std::lock_guard lookup(lookup_mutex_);
  {
    try {
      if (!lookup_) lookup_.emplace(db_path_, Store::ReadOnly{});
      record = lookup_->game(game_id);
      constexpr std::string_view kBearer = "Bearer ";
      if (authorization.substr(0, kBearer.size()) == kBearer) {
        const std::string token(authorization.substr(kBearer.size()));
        if (looks_like_hex_secret(token, 64)) {
          if (auto player = lookup_->player_by_token_hash(token_hash(token)))
            player_id = player->id;
        }
      }
    } catch (const DamagedGame& e) {
      spdlog::error("game_damaged game={} reason=\"{}\"", game_id, e.what());
      return api_error(503, "game_damaged", "this game's stored data is damaged");
    } catch (const std::exception& e) {
      spdlog::error("replay_failed game={} error=\"{}\"", game_id, e.what());
      lookup_.reset();  // a fresh connection next time
      return api_error(500, "internal", "the server could not build this replay");
    }
  }
  return std::nullopt;
}

std::optional<ApiResponse> Replays::take_request(std::string_view address) {
  std::lock_guard lock(cache_mutex_);
  if (buckets_.take(address)) return std::nullopt;
  metrics_.count_error("rate_limited");
  return api_error(429, "rate_limited", "too many replay requests from this address");
}

std::optional<ApiResponse> Replays::find_finished(
    std::int64_t game_id, std::string_view authorization, const std::string& invite,
    const std::string& not_finished, std::optional<GameRecord>& record, std::int64_t& player_id) {
  if (auto error = look_up(game_id, authorization, record, player_id)) return error;
  // A private game without its invite answers exactly like a game that does not exist.
  if (!record || record->status == GameStatus::kCancelled ||
      !GameRoom::may_view(*record, player_id, invite)) {
    return api_error(404, "not_found", "no such game");
  }
  if (record->status != GameStatus::kFinished) {
    return api_error(409, "not_finished", not_finished);
  }
  return std::nullopt;
}

ApiResponse Replays::cached_or_built(const std::string& key, std::int64_t game_id, const char* what,
                                     const std::function<std::string(Store&)>& build) {
  {
    std::lock_guard lock(cache_mutex_);
    if (Page page = cached(key)) {
      ++metrics_.replay_cache_hits;
      return ApiResponse{200, *page};
    }
  }
  std::unique_lock building(build_mutex_, std::try_to_lock);
  if (!building.owns_lock()) {
    metrics_.count_error("busy");
    ApiResponse busy = api_error(503, "busy", "another replay page is being built; try again");
    busy.retry_after_seconds = 1;
    return busy;
  }
  try {
    if (!builder_) builder_.emplace(db_path_, Store::ReadOnly{});
    Page page;
    try {
      page = std::make_shared<const std::string>(build(*builder_));
    } catch (const DamagedGame& e) {
      spdlog::error("game_damaged game={} reason=\"{}\"", game_id, e.what());
      return api_error(503, "game_damaged", "this game's stored data is damaged");
    } catch (const std::invalid_argument& e) {
      return api_error(404, "no_record", e.what());  // a guided game's (fair_play.h)
    }
    {
      std::lock_guard lock(cache_mutex_);
      remember(key, page);
    }
    return ApiResponse{200, *page};
  } catch (const std::exception& e) {
    spdlog::error("{}_failed game={} error=\"{}\"", what, game_id, e.what());
    builder_.reset();  // a fresh connection next time
    return api_error(500, "internal", std::string("the server could not build this ") + what);
  }
}

ApiResponse Replays::handle(std::int64_t game_id, const std::map<std::string, std::string>& query,
                            std::string_view authorization, std::string_view address) {
  if (auto refused = take_request(address)) return *refused;
  const std::optional<int> seat_wanted = query_int(query, "seat");
  const std::optional<int> from_wanted = query_int(query, "from");
  const std::optional<int> to_wanted = query_int(query, "to");
  const std::string invite = query.count("invite") ? query.at("invite") : std::string();

  std::optional<GameRecord> record;
  std::int64_t player_id = 0;
  if (auto error = find_finished(game_id, authorization, invite,
                                 "replays exist only for finished games", record, player_id)) {
    return *error;
  }
  int viewer = kSpectator;
  if (seat_wanted) {
    // A seat's own view only for the player holding it; everyone else sees the spectator's.
    for (const SeatRecord& seat : record->seats) {
      if (seat.player_id == player_id && seat.seat == *seat_wanted) viewer = seat.seat;
    }
  }
  const int last = record->seq;
  const int from = from_wanted.value_or(0);
  int to = to_wanted.value_or(std::min(last, from + limits_.page_steps));
  if (from < 0 || from > last || to < from || to > last) {
    return api_error(400, "bad_range", "from and to must satisfy 0 <= from <= to <= last_seq");
  }
  to = std::min(to, from + limits_.page_steps);

  const std::string key = std::to_string(game_id) + "/" + std::to_string(viewer) + "/" +
                          std::to_string(from) + "/" + std::to_string(to);
  return cached_or_built(key, game_id, "replay", [&](Store& store) {
    if (on_build_for_tests) on_build_for_tests();
    std::string page = build_page(store, *record, viewer, from, to);
    ++metrics_.replay_pages_built;
    return page;
  });
}

ApiResponse Replays::handle_record(std::int64_t game_id,
                                   const std::map<std::string, std::string>& query,
                                   std::string_view authorization, std::string_view address) {
  if (auto refused = take_request(address)) return *refused;
  const std::string invite = query.count("invite") ? query.at("invite") : std::string();
  std::optional<GameRecord> record;
  std::int64_t player_id = 0;
  // The record holds every tile and the secret: nobody gets it before the end.
  if (auto error =
          find_finished(game_id, authorization, invite,
                        "a game's record is available once the game is over", record, player_id)) {
    return *error;
  }
  return cached_or_built("record/" + std::to_string(game_id), game_id, "record", [&](Store& store) {
    return protocol::record_to_json(export_game_record(store, *record))
        .dump(2, ' ', false, json::error_handler_t::replace);
  });
}

}  // namespace viktory::server
