#include "game_clocks.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <ctime>

#include "bot.h"
#include "catalog.h"
#include "game.h"
#include "log_text.h"
#include "seat_controllers.h"
#include "standing_order_service.h"
#include "view.h"

namespace viktory::server {
namespace {

using nlohmann::json;
using text::operator""_key;

constexpr std::size_t kLogKeep = 50;  // clock lines kept per game
constexpr int kMaxSkipActions = 500;  // a skipped turn ends within this many actions
constexpr const char* kTakeoverLevel = "heuristic";
constexpr std::int64_t kDayMs = 24 * 3600 * 1000;

json message(text::Key key, json params) {
  return json{{"key", std::string(key.name)}, {"params", std::move(params)}};
}

// "Bob (Yellow)": a seat's player as the game page names him everywhere (the name is public in
// game.seats), the colour alone when the seat has no name; a message of the catalogs, so that
// each reader reads the colour in his language (docs/protocol.md, "game.clock").
json who_message(const GameRoom& room, int seat) {
  for (const SeatRecord& s : room.record().seats) {
    if (s.seat == seat && !s.name.empty()) {
      return message("log.clock.named"_key, {{"name", s.name}, {"seat", seat_message(seat)}});
    }
  }
  return seat_message(seat);
}

std::string who(const GameRoom& room, int seat) { return english(who_message(room, seat)); }

// duration_text's words as a message: "2 days", "3 hours", in the reader's language.
json duration_message(std::int64_t ms) {
  constexpr std::int64_t kSecond = 1000, kMinute = 60 * kSecond, kHour = 60 * kMinute;
  if (ms >= kDayMs && ms % kDayMs == 0) {
    return message("log.duration.days"_key, {{"count", ms / kDayMs}});
  }
  if (ms >= kHour) return message("log.duration.hours"_key, {{"count", ms / kHour}});
  if (ms >= kMinute) return message("log.duration.minutes"_key, {{"count", ms / kMinute}});
  return message("log.duration.seconds"_key, {{"count", ms / kSecond}});
}

bool in_game(const GameRoom& room, int seat) {
  const GameState* s = room.state();
  return s != nullptr && seat >= 0 && seat < static_cast<int>(s->players.size()) &&
         s->players[static_cast<std::size_t>(seat)].in_game();
}

}  // namespace

GameClocks::GameClocks(Store& store, Clock& clock) : store_(store), clock_(clock) {}

GameClocks::Entry* GameClocks::entry(std::int64_t game_id) {
  auto it = cache_.find(game_id);
  if (it == cache_.end()) {
    std::optional<Entry> loaded;
    const auto db_lock = store_.db().lock();
    Statement s =
        store_.db().prepare("SELECT options, state, log FROM game_clocks WHERE game_id = ?");
    s.bind(1, game_id);
    if (s.step()) {
      try {
        Entry e;
        e.options = clock_options_from_json(json::parse(s.text(0)));
        const json state = json::parse(s.text(1));
        if (!state.is_null()) e.state = clock_state_from_json(state);
        for (json& line : json::parse(s.text(2))) e.log.push_back(std::move(line));
        loaded = std::move(e);
      } catch (const std::exception& error) {
        spdlog::error("clock_damaged game={} error=\"{}\"", game_id, error.what());
      }
    }
    it = cache_.emplace(game_id, std::move(loaded)).first;
  }
  return it->second ? &*it->second : nullptr;
}

void GameClocks::save(std::int64_t game_id, const Entry& e) {
  {
    const auto db_lock = store_.db().lock();
    store_.db()
        .prepare("UPDATE game_clocks SET state = ?, log = ?, due = ? WHERE game_id = ?")
        .bind(1, clock_state_to_json(e.state).dump())
        .bind(2, json(e.log).dump())
        .bind(3, e.state.next_due())
        .bind(4, game_id)
        .run();
  }
  if (due_changed_ && e.state.next_due() > 0) due_changed_(e.state.next_due());
}

void GameClocks::create(GameRoom& room, const ClockOptions& options) {
  if (!options.enabled()) return;
  std::lock_guard lock(mutex_);
  {
    const auto db_lock = store_.db().lock();
    store_.db()
        .prepare("INSERT INTO game_clocks(game_id, options, state, log, due) VALUES(?, ?, ?, ?, 0)")
        .bind(1, room.id())
        .bind(2, clock_options_to_json(options).dump())
        .bind(3, "null")
        .bind(4, "[]")
        .run();
  }
  cache_.erase(room.id());
  on_room_changed(room);  // a game that started at once (computer seats) starts its clock
}

json GameClocks::clock_json(std::int64_t game_id) {
  std::lock_guard lock(mutex_);
  const Entry* e = entry(game_id);
  if (e == nullptr) return nullptr;
  json seats = json::array();
  for (const SeatClock& c : e->state.seats) {
    seats.push_back(
        json{{"bank_ms", c.bank_ms},
             {"vacation_ms", c.vacation_ms},
             {"skips", c.skips},
             {"expel_votes", c.expel_votes},
             {"expelled", c.expelled},
             {"vacation_until", c.vacation_until > 0 ? json(c.vacation_until) : json(nullptr)}});
  }
  const char* stage = e->state.stage == ClockStage::kOverdue    ? "overdue"
                      : e->state.stage == ClockStage::kIdle     ? "idle"
                      : e->state.stage == ClockStage::kReminded ? "reminded"
                                                                : "running";
  return json{{"options", clock_options_to_json(e->options)},
              {"seat", e->state.seat >= 0 ? json(e->state.seat) : json(nullptr)},
              {"since", e->state.since},
              {"deadline", e->state.deadline > 0 ? json(e->state.deadline) : json(nullptr)},
              {"stage", stage},
              {"may_skip", e->state.stage == ClockStage::kOverdue},
              {"now", clock_.now_ms()},
              {"seats", std::move(seats)},
              {"log", e->log}};
}

void GameClocks::send(std::int64_t game_id, Subscriber* subscriber) {
  json clock = clock_json(game_id);
  if (clock.is_null()) return;
  subscriber->deliver(make_message(
      json{{"type", "game.clock"}, {"game_id", game_id}, {"clock", std::move(clock)}}));
}

void GameClocks::tell(GameRoom& room, const std::string& line) {
  spdlog::info("clock game={} {}", room.id(), line);
  room.broadcast(make_message(json{{"type", "game.clock"},
                                   {"game_id", room.id()},
                                   {"clock", clock_json(room.id())},
                                   {"line", line}}));
}

void GameClocks::on_room_changed(GameRoom& room) {
  std::lock_guard lock(mutex_);
  Entry* e = entry(room.id());
  if (e == nullptr) return;
  const int players = room.record().options.players;
  if (room.status() == GameStatus::kRunning && static_cast<int>(e->state.seats.size()) != players) {
    e->state = new_clock_state(e->options, players);  // the game started (seats renumbered)
  }
  int seat = SeatControllers::seat_to_act(room);
  // A computer has no clock: it decides within its own budget.
  if (seat >= 0 && SeatControllers::computer_level(room, seat)) seat = -1;
  const std::vector<json> lines = end_vacations(room, *e);
  if (!clock_on_change(e->options, e->state, seat, clock_.now_ms()) && lines.empty()) return;
  save(room.id(), *e);
  if (lines.empty()) {
    room.broadcast(make_message(
        json{{"type", "game.clock"}, {"game_id", room.id()}, {"clock", clock_json(room.id())}}));
  }
  for (const json& line : lines) tell(room, english(line));
}

std::vector<std::int64_t> GameClocks::due_games() {
  std::lock_guard lock(mutex_);
  const auto db_lock = store_.db().lock();
  std::vector<std::int64_t> due;
  Statement s = store_.db().prepare(
      "SELECT game_id FROM game_clocks WHERE due > 0 AND due <= ? ORDER BY due");
  s.bind(1, clock_.now_ms());
  while (s.step()) due.push_back(s.int64(0));
  return due;
}

std::int64_t GameClocks::next_due() {
  std::lock_guard lock(mutex_);
  const auto db_lock = store_.db().lock();
  Statement next = store_.db().prepare("SELECT min(due) FROM game_clocks WHERE due > 0");
  if (next.step() && !next.is_null(0)) return next.int64(0);
  return 0;
}

void GameClocks::sweep_game(std::int64_t game_id, GameRoom* room) {
  // A commit in flight ends first: its completion takes this clocks' lock (GameRoom::wait_idle).
  if (room != nullptr) room->wait_idle();
  std::lock_guard lock(mutex_);
  Entry* e = entry(game_id);
  if (e == nullptr) return;
  const std::int64_t now = clock_.now_ms();
  std::vector<json> lines;
  for (ClockDue step = clock_sweep(e->state, now); step != ClockDue::kNothing;
       step = clock_sweep(e->state, now)) {
    const int seat = e->state.seat;
    if (step == ClockDue::kReminder) {
      const std::int64_t left = std::max<std::int64_t>(0, e->state.deadline - now);
      spdlog::info("clock_reminder game={} seat={} deadline={}", game_id, seat, e->state.deadline);
      if (reminder_ && room != nullptr) {
        TurnChange change = room->turn_change(TurnChange::Kind::reminder);
        change.decider_seat = seat;
        change.decider_player = 0;
        for (const TurnChange::Seat& s : change.seats) {
          if (s.seat == seat) change.decider_player = s.player_id;
        }
        change.deadline = e->state.deadline;
        change.time_left = duration_text(left);
        change.time_left_ms = left;
        reminder_(std::move(change));
      }
      lines.push_back(
          message("log.clock.reminder"_key,
                  {{"player", room != nullptr ? who_message(*room, seat) : seat_message(seat)},
                   {"left", duration_message(left)}}));
    } else {
      lines.push_back(
          message("log.clock.overTime"_key,
                  {{"player", room != nullptr ? who_message(*room, seat) : seat_message(seat)}}));
    }
  }
  for (const json& line : lines) {
    add_line(*e, line, room != nullptr ? room->seq() : -1, e->state.seat);
  }
  save(game_id, *e);
  if (room != nullptr) {
    for (const json& line : lines) tell(*room, english(line));
  }
}

Outcome GameClocks::act_for(GameRoom& room, int seat, const Action& action, ActionSource source) {
  for (const SeatRecord& s : room.record().seats) {
    // Committed directly, not through the writer thread: this holds the clocks' lock, which
    // the writer's completions of other games take (docs/server.md, "Threads and ordering").
    if (s.seat == seat) {
      return room.act(s.player_id, room.seq(), action, CommitPath::kDirect, source);
    }
  }
  return fail("bad_seat", "no such seat");
}

Outcome GameClocks::skip_turn(GameRoom& room, std::int64_t player_id) {
  // A commit in flight ends first: its completion takes this clocks' lock (GameRoom::wait_idle).
  room.wait_idle();
  std::lock_guard lock(mutex_);
  Entry* e = entry(room.id());
  if (e == nullptr) return fail("no_clock", "this game has no clock");
  if (room.status() != GameStatus::kRunning) return fail("not_running", "the game is not running");
  const std::optional<int> me = room.seat_of(player_id);
  if (!me || !in_game(room, *me)) return fail("not_seated", "you hold no seat in this game");
  const int late = e->state.seat;
  if (e->state.stage != ClockStage::kOverdue || late < 0) {
    return fail("not_overdue", "nobody is over time");
  }
  if (late == *me) return fail("own_turn", "you cannot skip your own turn: just play");
  // The late seat's turn ends with nothing done: every phase ends at once; a decision the
  // rules need from it (casualties, a retreat, an elimination) is made by his standing orders
  // (standing_order_service.h), and one they do not cover (the Capital) by the heuristic
  // computer player.
  for (int i = 0; i < kMaxSkipActions && SeatControllers::seat_to_act(room) == late; ++i) {
    const GameState& s = *room.state();
    const std::vector<Action> legal = legal_actions(s, late);
    std::optional<Action> pick;
    ActionSource source = ActionSource::kClock;
    if (s.current == late) {
      for (const Action& a : legal) {
        if (a.kind == ActionKind::kEndPhase) pick = a;
      }
    }
    if (!pick && orders_ != nullptr) {
      pick = orders_->action_for(room, late);
      if (pick) source = ActionSource::kStandingOrder;
    }
    if (!pick) {
      ai::BotConfig config;
      config.level = ai::Level::kHeuristic;
      config.seed = static_cast<std::uint64_t>(room.id()) ^ static_cast<std::uint64_t>(room.seq());
      pick = ai::choose_action(view_for(s, late), legal, ai::PublicHistory{}, config);
    }
    if (auto refused = act_for(room, late, *pick, source)) return refused;
  }
  e = entry(room.id());
  SeatClock& c = e->state.seats[static_cast<std::size_t>(late)];
  ++c.skips;
  const json line =
      c.skips >= e->options.skips_before_expel
          ? message("log.clock.skippedVote"_key, {{"player", who_message(room, *me)},
                                                  {"late", who_message(room, late)},
                                                  {"count", c.skips}})
          : message("log.clock.skipped"_key, {{"player", who_message(room, *me)},
                                              {"late", who_message(room, late)},
                                              {"skips", c.skips},
                                              {"limit", e->options.skips_before_expel}});
  add_line(*e, line, room.seq(), late);
  save(room.id(), *e);
  tell(room, english(line));
  return std::nullopt;
}

Outcome GameClocks::vote_expel(GameRoom& room, std::int64_t player_id, int seat) {
  // A commit in flight ends first: its completion takes this clocks' lock (GameRoom::wait_idle).
  room.wait_idle();
  std::lock_guard lock(mutex_);
  Entry* e = entry(room.id());
  if (e == nullptr) return fail("no_clock", "this game has no clock");
  if (room.status() != GameStatus::kRunning) return fail("not_running", "the game is not running");
  const std::optional<int> me = room.seat_of(player_id);
  if (!me || !in_game(room, *me)) return fail("not_seated", "you hold no seat in this game");
  if (seat < 0 || seat >= static_cast<int>(e->state.seats.size()) || !in_game(room, seat)) {
    return fail("bad_seat", "no such player in the game");
  }
  if (seat == *me) return fail("bad_seat", "you cannot vote to expel yourself");
  SeatClock& target = e->state.seats[static_cast<std::size_t>(seat)];
  if (target.expelled || SeatControllers::computer_level(room, seat)) {
    return fail("bad_seat", "that seat is played by the computer");
  }
  if (target.skips < e->options.skips_before_expel) {
    return fail("too_few_skips", "a player may be expelled after " +
                                     std::to_string(e->options.skips_before_expel) +
                                     " skipped turns");
  }
  // A vote counts once: told again, it would repeat the line to everyone for nothing.
  if (std::find(target.expel_votes.begin(), target.expel_votes.end(), *me) !=
      target.expel_votes.end()) {
    return fail("already_voted", "you already voted to expel " + who(room, seat));
  }
  target.expel_votes.push_back(*me);
  std::sort(target.expel_votes.begin(), target.expel_votes.end());
  int voters = 0;  // the other players still in the game
  for (int i = 0; i < static_cast<int>(e->state.seats.size()); ++i) {
    if (i != seat && in_game(room, i)) ++voters;
  }
  int votes = 0;
  for (int v : target.expel_votes) {
    if (in_game(room, v)) ++votes;
  }
  std::vector<json> lines{message("log.clock.vote"_key, {{"player", who_message(room, *me)},
                                                         {"target", who_message(room, seat)},
                                                         {"votes", votes},
                                                         {"voters", voters}})};
  const bool expel = 2 * votes > voters;  // a majority of the other players
  if (expel) {
    target.expelled = true;
    lines.push_back(message(e->options.expel_to == ExpelTo::kComputer
                                ? "log.clock.expelledToComputer"_key
                                : "log.clock.expelledConcedes"_key,
                            {{"player", who_message(room, seat)}}));
  }
  for (const json& line : lines) add_line(*e, line, room.seq(), seat);
  save(room.id(), *e);
  for (const json& line : lines) tell(room, english(line));
  if (!expel) return std::nullopt;
  if (e->options.expel_to == ExpelTo::kComputer) {
    std::int64_t seat_player = 0;
    for (const SeatRecord& s : room.record().seats) {
      if (s.seat == seat) seat_player = s.player_id;
    }
    {
      const auto db_lock = store_.db().lock();
      store_.db()
          .prepare(
              "INSERT OR REPLACE INTO seat_controllers(game_id, player_id, kind, level) "
              "VALUES(?, ?, 'takeover', ?)")
          .bind(1, room.id())
          .bind(2, seat_player)
          .bind(3, kTakeoverLevel)
          .run();
    }
    room.take_over_seat(seat, kTakeoverLevel);
    return std::nullopt;
  }
  Action concede;
  concede.kind = ActionKind::kConcede;
  concede.player = seat;
  return act_for(room, seat, concede);
}

void GameClocks::add_line(Entry& e, const json& line, int seq, int seat) {
  // The English text and the message each reader's language words (docs/protocol.md).
  json entry{{"at", clock_.now_ms()}, {"text", english(line)}, {"msg", line}, {"seat", seat}};
  // Where it goes in the game log: after the line of this seq (the game's, when it was said).
  if (seq >= 0) entry["seq"] = seq;
  e.log.push_back(std::move(entry));
  while (e.log.size() > kLogKeep) e.log.erase(e.log.begin());
}

std::vector<json> GameClocks::end_vacations(GameRoom& room, Entry& e) {
  std::vector<json> lines;
  const std::int64_t now = clock_.now_ms();
  const std::vector<ActionRecord>& log = room.actions();
  for (int seat = 0; seat < static_cast<int>(e.state.seats.size()); ++seat) {
    const SeatClock& c = e.state.seats[static_cast<std::size_t>(seat)];
    if (c.vacation_until == 0) continue;
    // He acted after declaring it (the last action is the one that brought us here).
    const bool acted =
        room.seq() > c.vacation_seq && !log.empty() && log.back().action.player == seat;
    const bool over = c.vacation_until <= now;
    if (!acted && !over) continue;
    clock_end_vacation(e.options, e.state, seat, now);
    const json line = message(acted ? "log.clock.back"_key : "log.clock.vacationOver"_key,
                              {{"player", who_message(room, seat)}});
    add_line(e, line, room.seq(), seat);
    lines.push_back(line);
  }
  return lines;
}

Outcome GameClocks::declare_vacation(GameRoom& room, std::int64_t player_id, int days) {
  // A commit in flight ends first: its completion takes this clocks' lock (GameRoom::wait_idle).
  room.wait_idle();
  std::lock_guard lock(mutex_);
  Entry* e = entry(room.id());
  if (e == nullptr) return fail("no_clock", "this game has no clock");
  if (room.status() != GameStatus::kRunning) return fail("not_running", "the game is not running");
  const std::optional<int> me = room.seat_of(player_id);
  if (!me || !in_game(room, *me)) return fail("not_seated", "you hold no seat in this game");
  if (SeatControllers::computer_level(room, *me)) {
    return fail("bad_seat", "the computer plays your seat: take it back first");
  }
  const std::int64_t now = clock_.now_ms();
  end_vacations(room, *e);  // one that is over may be declared again
  if (auto refused = clock_declare_vacation(e->options, e->state, *me, days, room.seq(), now)) {
    return fail("bad_vacation", *refused);
  }
  const std::int64_t until = e->state.seats[static_cast<std::size_t>(*me)].vacation_until;
  const json line =
      message("log.clock.vacation"_key, {{"player", who_message(room, *me)},
                                         {"duration", duration_message(days * kDayMs)},
                                         {"until", {{"time", until}}}});
  add_line(*e, line, room.seq(), *me);
  save(room.id(), *e);
  tell(room, english(line));
  return std::nullopt;
}

Outcome GameClocks::take_back(GameRoom& room, std::int64_t player_id) {
  // A commit in flight ends first: its completion takes this clocks' lock (GameRoom::wait_idle).
  room.wait_idle();
  std::lock_guard lock(mutex_);
  if (room.status() != GameStatus::kRunning) return fail("not_running", "the game is not running");
  const std::optional<int> seat = room.seat_of(player_id);
  if (!seat || !in_game(room, *seat)) return fail("not_seated", "you hold no seat in this game");
  bool taken_over = false;
  {
    const auto db_lock = store_.db().lock();
    Statement s = store_.db().prepare(
        "SELECT kind FROM seat_controllers WHERE game_id = ? AND player_id = ?");
    s.bind(1, room.id()).bind(2, player_id);
    taken_over = s.step() && s.text(0) == "takeover";
  }
  if (!taken_over) return fail("not_taken_over", "the computer does not play your seat");
  {
    const auto db_lock = store_.db().lock();
    store_.db()
        .prepare("DELETE FROM seat_controllers WHERE game_id = ? AND player_id = ?")
        .bind(1, room.id())
        .bind(2, player_id)
        .run();
  }
  const json line = message("log.clock.takesBack"_key, {{"player", who_message(room, *seat)}});
  if (Entry* e = entry(room.id());
      e != nullptr && *seat < static_cast<int>(e->state.seats.size())) {
    SeatClock& c = e->state.seats[static_cast<std::size_t>(*seat)];
    c.expelled = false;
    c.skips = 0;
    c.expel_votes.clear();
    add_line(*e, line, room.seq(), *seat);
    save(room.id(), *e);
  }
  // The seat controllers cancel a pending decision; the clock starts if it is his to act.
  room.take_over_seat(*seat, "");
  tell(room, english(line));
  return std::nullopt;
}

}  // namespace viktory::server
