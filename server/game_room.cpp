#include "game_room.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <stdexcept>

#include "json.h"
#include "log_text.h"
#include "token.h"
#include "view.h"

namespace viktory::server {
namespace {

using nlohmann::json;

json player_id_json(std::int64_t id) { return std::to_string(id); }

// Counts Unicode code points of valid UTF-8 (continuation bytes are not counted).
std::size_t code_points(const std::string& s) {
  return static_cast<std::size_t>(std::count_if(
      s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// Control characters other than newline and tab become spaces; surrounding blanks go.
std::string clean_chat_text(const std::string& text) {
  std::string out = text;
  for (char& c : out) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\n' && c != '\t') || u == 0x7f) c = ' ';
  }
  const auto first = out.find_first_not_of(" \n\t");
  if (first == std::string::npos) return "";
  const auto last = out.find_last_not_of(" \n\t");
  return out.substr(first, last - first + 1);
}

json chat_json(std::int64_t game_id, const ChatRecord& c) {
  return json{
      {"type", "chat"}, {"game_id", game_id}, {"from_seat", c.seat ? json(*c.seat) : json(nullptr)},
      {"name", c.name}, {"text", c.text},     {"at", c.at}};
}

json events_json(const std::vector<Event>& events) {
  json out = json::array();
  for (const Event& e : events) out.push_back(protocol::event_to_json(e));
  return out;
}

json result_json(const GameState& s) {
  return json{{"winners", s.winners}, {"ended_by", std::string(to_string(s.ended_by))}};
}

json legal_json(const GameState& s, int viewer) {
  if (viewer < 0 || s.phase == Phase::kGameOver) return json::array();
  return json(protocol::actions_to_json(legal_actions(s, viewer)));
}

}  // namespace

GameRoom::GameRoom(Store& store, Metrics& metrics, GameRecord record, RoomLimits limits)
    : store_(store), metrics_(metrics), limits_(limits), record_(std::move(record)) {
  if (record_.status == GameStatus::kOpen) ++metrics_.games_open;
  if (record_.status == GameStatus::kRunning) ++metrics_.games_running;
}

GameRoom::~GameRoom() {
  if (record_.status == GameStatus::kOpen) --metrics_.games_open;
  if (record_.status == GameStatus::kRunning) --metrics_.games_running;
}

void GameRoom::set_status(GameStatus status) {
  if (record_.status == status) return;
  if (record_.status == GameStatus::kOpen) --metrics_.games_open;
  if (record_.status == GameStatus::kRunning) --metrics_.games_running;
  if (status == GameStatus::kOpen) ++metrics_.games_open;
  if (status == GameStatus::kRunning) ++metrics_.games_running;
  if (status == GameStatus::kFinished) ++metrics_.games_finished;
  record_.status = status;
}

std::unique_ptr<GameRoom> GameRoom::load(Store& store, Metrics& metrics, std::int64_t game_id,
                                         RoomLimits limits) {
  std::optional<GameRecord> record = store.game(game_id);
  if (!record) return nullptr;
  auto room = std::make_unique<GameRoom>(store, metrics, std::move(*record), limits);
  if (room->record_.status != GameStatus::kRunning &&
      room->record_.status != GameStatus::kFinished) {
    return room;
  }
  room->log_ = store.actions(game_id);
  const int count = static_cast<int>(room->log_.size());
  // Start late enough to be fast, early enough to have the events of the recent log lines.
  const int wanted_from = std::max(0, count - limits.log_keep);
  std::optional<std::pair<int, GameState>> snapshot = store.latest_snapshot(game_id, wanted_from);
  GameState state =
      snapshot ? std::move(snapshot->second) : new_game(room->record_.options, room->record_.seed);
  const int from = snapshot ? snapshot->first : 0;
  for (int i = from; i < count; ++i) {
    std::vector<Event> events;
    if (auto error = apply_in_place(state, room->log_[i].action, &events)) {
      // The log holds only actions the engine accepted; this means the engine changed.
      throw std::runtime_error("game " + std::to_string(game_id) + ": stored action " +
                               std::to_string(i + 1) + " no longer applies: " + error->code);
    }
    room->remember(Step{room->log_[i].seq, std::move(events)});
  }
  room->record_.seq = count;
  room->record_.current_seat = decider(state);
  room->state_ = std::move(state);
  return room;
}

std::optional<int> GameRoom::seat_of(std::int64_t player_id) const {
  for (const SeatRecord& s : record_.seats) {
    if (s.player_id == player_id) return s.seat;
  }
  return std::nullopt;
}

bool GameRoom::may_view(std::int64_t player_id, const std::string& invite) const {
  if (!record_.is_private) return true;
  if (seat_of(player_id)) return true;
  return !invite.empty() && invite == record_.invite_code;
}

int GameRoom::viewer_for(std::int64_t player_id) const {
  if (!state_ || player_id == 0) return kSpectator;
  return seat_of(player_id).value_or(kSpectator);
}

// ---------------------------------------------------------------- open games

Outcome GameRoom::join(const PlayerRecord& player, std::optional<int> seat,
                       const std::string& invite) {
  if (record_.status != GameStatus::kOpen) return fail("not_open", "the game is not open");
  if (seat_of(player.id)) return fail("already_seated", "you already hold a seat in this game");
  if (!may_view(player.id, invite)) return fail("forbidden", "this game needs an invite code");
  const int seats = record_.options.players;
  std::vector<bool> taken(static_cast<std::size_t>(seats), false);
  for (const SeatRecord& s : record_.seats) taken[static_cast<std::size_t>(s.seat)] = true;
  if (seat) {
    if (*seat < 0 || *seat >= seats) return fail("bad_seat", "no such seat");
    if (taken[static_cast<std::size_t>(*seat)]) return fail("seat_taken", "that seat is taken");
  } else {
    const auto free = std::find(taken.begin(), taken.end(), false);
    if (free == taken.end()) return fail("seat_taken", "every seat is taken");
    seat = static_cast<int>(free - taken.begin());
  }
  std::vector<SeatRecord> next = record_.seats;
  next.push_back(SeatRecord{*seat, player.id, player.name});
  std::sort(next.begin(), next.end(), [](auto& a, auto& b) { return a.seat < b.seat; });
  {
    Transaction tx(store_.db());
    store_.replace_seats(record_.id, next, now_ms());
    tx.commit();
  }
  record_.seats = std::move(next);
  if (static_cast<int>(record_.seats.size()) == seats) {
    begin_game();
  } else {
    broadcast_seats();
  }
  return std::nullopt;
}

Outcome GameRoom::leave(std::int64_t player_id) {
  if (record_.status != GameStatus::kOpen) return fail("not_open", "the game is not open");
  if (!seat_of(player_id)) return fail("not_seated", "you hold no seat in this game");
  if (player_id == record_.creator.id) {
    store_.cancel_game(record_.id);
    set_status(GameStatus::kCancelled);
    spdlog::info("game_cancelled game={}", record_.id);
    broadcast_seats();
    return std::nullopt;
  }
  std::vector<SeatRecord> next;
  for (const SeatRecord& s : record_.seats) {
    if (s.player_id != player_id) next.push_back(s);
  }
  {
    Transaction tx(store_.db());
    store_.replace_seats(record_.id, next, now_ms());
    tx.commit();
  }
  record_.seats = std::move(next);
  broadcast_seats();
  return std::nullopt;
}

Outcome GameRoom::start(std::int64_t player_id) {
  if (record_.status != GameStatus::kOpen) return fail("not_open", "the game is not open");
  if (player_id != record_.creator.id) return fail("not_creator", "only the creator may start");
  if (record_.seats.size() < 2) return fail("too_few_players", "at least 2 players are needed");
  begin_game();
  return std::nullopt;
}

void GameRoom::begin_game() {
  GameRecord next = record_;
  // Seats shrink to the seated players, renumbered in seat order.
  for (std::size_t i = 0; i < next.seats.size(); ++i) next.seats[i].seat = static_cast<int>(i);
  next.options.players = static_cast<int>(next.seats.size());
  next.seed = new_seed();
  GameState state = new_game(next.options, next.seed);
  next.current_seat = decider(state);
  next.seq = 0;
  store_.start_game(next);
  record_ = std::move(next);
  record_.status = GameStatus::kOpen;  // set_status adjusts the gauges from here
  set_status(GameStatus::kRunning);
  state_ = std::move(state);
  spdlog::info("game_started game={} players={}", record_.id, record_.options.players);
  broadcast_seats();
  broadcast_states();
}

// ---------------------------------------------------------------- subscriptions

void GameRoom::watch(Subscriber* subscriber, std::int64_t player_id) {
  subscribers_[subscriber] = player_id;
  subscriber->deliver(make_message(seats_message()));
  if (state_) send_state(subscriber, player_id);
}

void GameRoom::unwatch(Subscriber* subscriber) { subscribers_.erase(subscriber); }

void GameRoom::broadcast(const Message& message) {
  for (auto& [subscriber, player] : subscribers_) subscriber->deliver(message);
}

void GameRoom::broadcast_seats() { broadcast(make_message(seats_message())); }

void GameRoom::broadcast_states() {
  std::map<int, Message> by_viewer;
  for (auto& [subscriber, player] : subscribers_) {
    const int viewer = viewer_for(player);
    auto it = by_viewer.find(viewer);
    if (it == by_viewer.end()) {
      it = by_viewer.emplace(viewer, make_message(state_message(viewer))).first;
    }
    subscriber->deliver(it->second);
  }
}

void GameRoom::send_state(Subscriber* subscriber, std::int64_t player_id) {
  if (!state_) return;
  subscriber->deliver(make_message(state_message(viewer_for(player_id))));
}

json GameRoom::state_message(int viewer) const {
  json log = json::array();
  for (const Step& step : recent_) {
    for (std::string& line :
         log_lines(*state_, filter_events_for(*state_, step.events, viewer), viewer)) {
      log.push_back(json{{"seq", step.seq}, {"text", std::move(line)}});
    }
  }
  json chat = json::array();
  for (const ChatRecord& c : store_.recent_chat(record_.id, limits_.chat_keep)) {
    chat.push_back(chat_json(record_.id, c));
  }
  json out = common_view_fields(viewer);
  out["type"] = "game.state";
  out["you"] = json{{"seat", viewer >= 0 ? json(viewer) : json(nullptr)}};
  out["log"] = std::move(log);
  out["chat"] = std::move(chat);
  return out;
}

json GameRoom::common_view_fields(int viewer) const {
  return json{{"game_id", record_.id},
              {"seq", record_.seq},
              {"view", protocol::view_to_json(view_for(*state_, viewer))},
              {"legal", legal_json(*state_, viewer)},
              {"can_undo", can_undo(viewer)}};
}

void GameRoom::broadcast_update(const Step& step, std::chrono::steady_clock::time_point received) {
  std::map<int, Message> by_viewer;
  for (auto& [subscriber, player] : subscribers_) {
    const int viewer = viewer_for(player);
    auto it = by_viewer.find(viewer);
    if (it == by_viewer.end()) {
      const std::vector<Event> events = filter_events_for(*state_, step.events, viewer);
      json log = json::array();
      for (std::string& line : log_lines(*state_, events, viewer)) {
        log.push_back(json{{"seq", step.seq}, {"text", std::move(line)}});
      }
      json out = common_view_fields(viewer);
      out["type"] = "game.update";
      out["events"] = events_json(events);
      out["log"] = std::move(log);
      it = by_viewer.emplace(viewer, make_message(out)).first;
    }
    subscriber->deliver(it->second);
  }
  metrics_.observe_action_latency(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - received).count());
}

void GameRoom::remember(Step step) {
  recent_.push_back(std::move(step));
  while (static_cast<int>(recent_.size()) > limits_.log_keep) recent_.pop_front();
}

// ---------------------------------------------------------------- running games

Outcome GameRoom::act(std::int64_t player_id, int client_seq, Action action) {
  const auto received = std::chrono::steady_clock::now();
  if (record_.status == GameStatus::kFinished) return fail("game_over", "the game is over");
  if (record_.status != GameStatus::kRunning || !state_) {
    return fail("not_running", "the game has not started");
  }
  const std::optional<int> seat = seat_of(player_id);
  if (!seat) return fail("not_seated", "you hold no seat in this game");
  action.player = *seat;
  if (action.kind != ActionKind::kConcede) {
    if (client_seq != record_.seq) {
      Failure f = fail("stale", "the game has moved on; your view was out of date");
      f.extra["seq"] = record_.seq;
      return f;
    }
    if (decider(*state_) != *seat) return fail("not_your_turn", "it is not your decision now");
  }
  GameState next = *state_;
  std::vector<Event> events;
  if (auto error = apply_in_place(next, action, &events)) {
    Failure f = fail("illegal_action", error->message);
    f.extra["reason"] = error->code;
    return f;
  }
  ActionRecord record{record_.seq + 1, action, seals_turn(events), state_->turn, now_ms()};
  ActionCommit commit;
  commit.game_id = record_.id;
  commit.record = record;
  commit.current_seat = decider(next);
  if (limits_.snapshot_every > 0 && record.seq % limits_.snapshot_every == 0) {
    commit.snapshot = &next;
  }
  const bool finished = next.phase == Phase::kGameOver;
  if (finished) commit.finished = result_json(next);
  store_.commit_action(commit);  // durable before anyone hears of it

  state_ = std::move(next);
  log_.push_back(record);
  record_.seq = record.seq;
  record_.current_seat = commit.current_seat;
  record_.last_move_at = record.at;
  ++metrics_.actions;
  remember(Step{record.seq, std::move(events)});
  // Actions name only public things (seats, unit ids, hex indexes); never log state or events.
  spdlog::debug("action game={} seq={} seat={} kind={} sealed={}", record_.id, record.seq, *seat,
                to_string(action.kind), record.sealed);
  if (finished) {
    record_.result = commit.finished;
    set_status(GameStatus::kFinished);
    spdlog::info("game_finished game={} seq={} result={}", record_.id, record.seq,
                 commit.finished->dump());
  }
  broadcast_update(recent_.back(), received);
  if (finished) broadcast_seats();
  return std::nullopt;
}

bool GameRoom::can_undo(int seat) const {
  if (record_.status != GameStatus::kRunning || !state_ || log_.empty() || seat < 0) {
    return false;
  }
  const ActionRecord& last = log_.back();
  // Only one's own last action, within one's own Player Turn, while no hidden information
  // came out (seals_turn) and while it is still one's own decision.
  return last.action.player == seat && !last.sealed && last.action.kind != ActionKind::kConcede &&
         last.turn == state_->turn && state_->current == seat && decider(*state_) == seat;
}

Outcome GameRoom::undo(std::int64_t player_id, int client_seq) {
  if (record_.status == GameStatus::kFinished) return fail("game_over", "the game is over");
  if (record_.status != GameStatus::kRunning)
    return fail("not_running", "the game has not started");
  const std::optional<int> seat = seat_of(player_id);
  if (!seat) return fail("not_seated", "you hold no seat in this game");
  if (client_seq != record_.seq) {
    Failure f = fail("stale", "the game has moved on; your view was out of date");
    f.extra["seq"] = record_.seq;
    return f;
  }
  if (!can_undo(*seat)) {
    return fail("cannot_undo",
                "only your own last action of this turn, before anything was "
                "revealed or rolled, can be taken back");
  }
  // Rebuild the state before the last action: deterministic replay from the seed (or the
  // latest snapshot before it) and the action log.
  const int target = record_.seq - 1;
  std::optional<std::pair<int, GameState>> snapshot = store_.latest_snapshot(record_.id, target);
  GameState state =
      snapshot ? std::move(snapshot->second) : new_game(record_.options, record_.seed);
  for (int i = snapshot ? snapshot->first : 0; i < target; ++i) {
    if (auto error = apply_in_place(state, log_[static_cast<std::size_t>(i)].action)) {
      throw std::runtime_error("undo replay failed at action " + std::to_string(i + 1));
    }
  }
  const int current = decider(state);
  store_.remove_last_action(record_.id, record_.seq, current);

  state_ = std::move(state);
  log_.pop_back();
  if (!recent_.empty() && recent_.back().seq == record_.seq) recent_.pop_back();
  record_.seq = target;
  record_.current_seat = current;
  ++metrics_.undos;
  spdlog::debug("undo game={} seq={} seat={}", record_.id, record_.seq, *seat);
  broadcast_states();
  return std::nullopt;
}

Outcome GameRoom::chat(const PlayerRecord& player, const std::string& text) {
  if (record_.status == GameStatus::kCancelled) return fail("not_found", "the game was cancelled");
  const std::string clean = clean_chat_text(text);
  if (clean.empty()) return fail("chat_empty", "the message is empty");
  if (code_points(clean) > static_cast<std::size_t>(limits_.chat_max_chars)) {
    return fail("chat_too_long",
                "at most " + std::to_string(limits_.chat_max_chars) + " characters per message");
  }
  ChatRecord c;
  c.at = now_ms();
  c.player_id = player.id;
  c.seat = seat_of(player.id);
  c.name = player.name;
  c.text = clean;
  store_.add_chat(record_.id, c);
  broadcast(make_message(chat_json(record_.id, c)));
  return std::nullopt;
}

// ---------------------------------------------------------------- summaries

json GameRoom::seats_json(const GameRecord& record) {
  json seats = json::array();
  for (int i = 0; i < record.options.players; ++i) {
    json seat{{"seat", i}, {"color", seat_color(i)}, {"player_id", nullptr}, {"name", nullptr}};
    for (const SeatRecord& s : record.seats) {
      if (s.seat == i) {
        seat["player_id"] = player_id_json(s.player_id);
        seat["name"] = s.name;
      }
    }
    seats.push_back(std::move(seat));
  }
  return seats;
}

json GameRoom::seats_message() const {
  return json{{"type", "game.seats"},
              {"game_id", record_.id},
              {"status", to_string(record_.status)},
              {"creator", player_id_json(record_.creator.id)},
              {"seats", seats_json(record_)},
              {"options", protocol::options_to_json(record_.options)},
              {"private", record_.is_private}};
}

json GameRoom::summary_of(const GameRecord& record) {
  return json{{"game_id", record.id},
              {"status", to_string(record.status)},
              {"private", record.is_private},
              {"options", protocol::options_to_json(record.options)},
              {"seats", seats_json(record)},
              {"creator", json{{"player_id", player_id_json(record.creator.id)},
                               {"name", record.creator.name}}},
              {"created_at", record.created},
              {"last_move_at", record.last_move_at ? json(*record.last_move_at) : json(nullptr)},
              {"current_seat", record.status == GameStatus::kRunning && record.current_seat >= 0
                                   ? json(record.current_seat)
                                   : json(nullptr)},
              {"seq", record.seq},
              {"result", record.result ? *record.result : json(nullptr)}};
}

json GameRoom::replay(Store& store, const GameRecord& record, int viewer) {
  GameState state = new_game(record.options, record.seed);
  json steps = json::array();
  steps.push_back(json{{"seq", 0},
                       {"action", nullptr},
                       {"view", protocol::view_to_json(view_for(state, viewer))},
                       {"events", json::array()},
                       {"log", json::array()}});
  for (const ActionRecord& r : store.actions(record.id)) {
    std::vector<Event> events;
    if (auto error = apply_in_place(state, r.action, &events)) {
      throw std::runtime_error("replay failed at action " + std::to_string(r.seq));
    }
    const std::vector<Event> mine = filter_events_for(state, events, viewer);
    json log = json::array();
    for (std::string& line : log_lines(state, mine, viewer)) {
      log.push_back(json{{"seq", r.seq}, {"text", std::move(line)}});
    }
    steps.push_back(json{{"seq", r.seq},
                         {"action", protocol::action_to_json(r.action)},
                         {"view", protocol::view_to_json(view_for(state, viewer))},
                         {"events", events_json(mine)},
                         {"log", std::move(log)}});
  }
  return json{{"game_id", record.id},
              {"viewer", viewer >= 0 ? json(viewer) : json(nullptr)},
              {"steps", std::move(steps)}};
}

}  // namespace viktory::server
