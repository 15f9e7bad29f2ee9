#include "game_room.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <stdexcept>

#include "account_deletion.h"
#include "chat_comforts.h"
#include "fair_play.h"
#include "json.h"
#include "legal_text.h"
#include "log_text.h"
#include "player_records.h"
#include "token.h"
#include "view.h"
#include "view_delta.h"
#include "view_text.h"

namespace viktory::server {
namespace {

using nlohmann::json;

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

// Players' chat comes from seated players; spectators have a channel of their own, which the
// players never see (a player watching his game under a second name could pass on tips).
// `id` names the line (game.chat_read, chat.hidden); `from_player` lets a watcher mute its
// author (the ids are public: they are in every game's seats).
json chat_json(std::int64_t game_id, const ChatRecord& c) {
  json line{{"type", "chat"},
            {"game_id", game_id},
            {"id", c.id},
            {"from_player", std::to_string(c.player_id)},
            {"channel", c.seat ? "players" : "spectators"},
            {"from_seat", c.seat ? json(*c.seat) : json(nullptr)},
            {"text", c.text},
            {"at", c.at}};
  put_player_name(line, c.name);
  // A former player's line (account_deletion.h): no text either.
  if (is_former_name(c.name)) line["deleted"] = true;
  return line;
}

// A message made of a small JSON object and large parts serialised once and shared:
// {"type":...} + ("view", text) -> {"type":...,"view":text}.
std::string splice(const json& small,
                   std::initializer_list<std::pair<const char*, const std::string*>> parts) {
  std::string out = small.dump(-1, ' ', false, json::error_handler_t::replace);
  out.pop_back();  // the closing brace of a non-empty object
  for (const auto& [key, text] : parts) {
    out += ",\"";
    out += key;
    out += "\":";
    out += *text;
  }
  out += '}';
  return out;
}

bool constant_time_equal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  }
  return diff == 0;
}

json events_json(const std::vector<Event>& events) {
  json out = json::array();
  for (const Event& e : events) out.push_back(protocol::event_to_json(e));
  return out;
}

json result_json(const GameState& s) {
  return json{{"winners", s.winners}, {"ended_by", std::string(to_string(s.ended_by))}};
}

// Written as text directly (protocol/legal_text.h), the bytes of the actions_to_json tree.
std::string legal_text(const GameState& s, int viewer) {
  if (viewer < 0 || s.phase == Phase::kGameOver) return "[]";
  return protocol::actions_json_text(legal_actions(s, viewer));
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
  const std::string where = "game " + std::to_string(game_id) + ": ";
  std::optional<std::pair<int, GameState>> snapshot;
  try {
    room->log_ = store.actions(game_id);
    // A gap (or a count that disagrees with the game row) would replay into a position the
    // players never saw, after which every action fails: refuse to open the game instead.
    for (std::size_t i = 0; i < room->log_.size(); ++i) {
      if (room->log_[i].seq != static_cast<int>(i) + 1) {
        throw DamagedGame(where + "the action log has a gap: action " + std::to_string(i + 1) +
                          " is missing");
      }
    }
    if (static_cast<int>(room->log_.size()) != room->record_.seq) {
      throw DamagedGame(where + "the action log holds " + std::to_string(room->log_.size()) +
                        " actions, the game row says " + std::to_string(room->record_.seq));
    }
    // Start late enough to be fast, early enough to have the events of the recent log lines.
    const int wanted_from = std::max(0, room->record_.seq - limits.log_keep);
    snapshot = store.latest_snapshot(game_id, wanted_from);
  } catch (const nlohmann::json::exception&) {
    // No details: a parser's message may quote a piece of a snapshot, which holds secrets.
    throw DamagedGame(where + "an action or a snapshot cannot be read");
  } catch (const protocol::JsonError&) {
    throw DamagedGame(where + "an action or a snapshot cannot be read");
  }
  const int count = room->record_.seq;
  GameState state =
      snapshot ? std::move(snapshot->second)
               : new_game(room->record_.options, room->record_.seed, room->record_.random_scheme);
  const int from = snapshot ? snapshot->first : 0;
  for (int i = from; i < count; ++i) {
    std::vector<Event> events;
    if (auto error =
            apply_in_place(state, room->log_[static_cast<std::size_t>(i)].action, &events)) {
      // The log holds only actions the engine accepted: the data or the engine changed.
      throw DamagedGame(where + "stored action " + std::to_string(i + 1) +
                        " no longer applies: " + error->code);
    }
    const ActionRecord& stored = room->log_[static_cast<std::size_t>(i)];
    room->remember(Step{stored.seq, std::move(events), stored.source}, state);
  }
  room->record_.current_seat = decider(state);
  if (room->record_.status == GameStatus::kRunning && state.phase == Phase::kGameOver) {
    // The log ends the game but the row says running: a concession that left one player was
    // stored before the engine ended the game on it [5.1]. Settle the row as a commit would.
    const json result = result_json(state);
    const SeatPlaces places = places_at_end(state);
    store.finish_game(game_id, result, places);
    room->record_.rated = counts_for_ratings(room->record_.rated, room->computer_played(), places);
    room->record_.result = result;
    room->record_.status = GameStatus::kFinished;
    spdlog::info("game_finished game={} seq={} on load (its row said running)", game_id, count);
  }
  room->state_ = std::move(state);
  room->rebuild_delayed();
  return room;
}

bool GameRoom::computer_played() const {
  const bool computer_seat = std::any_of(record_.seats.begin(), record_.seats.end(),
                                         [](const SeatRecord& s) { return !s.computer.empty(); });
  return computer_seat || std::any_of(log_.begin(), log_.end(), [](const ActionRecord& a) {
           return a.source == ActionSource::kComputer;
         });
}

std::optional<int> GameRoom::seat_of(std::int64_t player_id) const {
  for (const SeatRecord& s : record_.seats) {
    if (s.player_id == player_id) return s.seat;
  }
  return std::nullopt;
}

bool GameRoom::may_view(const GameRecord& record, std::int64_t player_id,
                        const std::string& invite) {
  if (!record.is_private) return true;
  for (const SeatRecord& s : record.seats) {
    if (player_id != 0 && s.player_id == player_id) return true;
  }
  if (invite.empty() || record.invite_hash.empty()) return false;
  return constant_time_equal(invite_hash(invite), record.invite_hash);
}

bool GameRoom::may_view(std::int64_t player_id, const std::string& invite) const {
  return may_view(record_, player_id, invite);
}

Outcome GameRoom::may_watch(std::int64_t player_id) const {
  if (seat_of(player_id)) return std::nullopt;
  if (record_.status == GameStatus::kRunning && record_.spectators == SpectatorMode::kNone) {
    return fail("no_spectators", "the creator allows no spectators while the game runs");
  }
  return std::nullopt;
}

int GameRoom::viewer_for(std::int64_t player_id) const {
  if (!state_ || player_id == 0) return kSpectator;
  return seat_of(player_id).value_or(kSpectator);
}

bool GameRoom::is_spectator(std::int64_t player_id) const {
  return player_id == 0 || !seat_of(player_id);
}

// ---------------------------------------------------------------- open games

Outcome GameRoom::join(const PlayerRecord& player, std::optional<int> seat,
                       const std::string& invite, const std::string& commitment) {
  // A private game without its invite does not exist for this player: nothing about it (not
  // even whether it is still open) may leak.
  if (!may_view(player.id, invite)) return fail("not_found", "no such game");
  if (record_.status != GameStatus::kOpen) return fail("not_open", "the game is not open");
  if (seat_of(player.id)) return fail("already_seated", "you already hold a seat in this game");
  if (record_.reveal_deadline) {
    return fail("starting", "the game is starting: its seats are final");
  }
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
  SeatRecord mine{*seat, player.id, player.name, ""};
  mine.contribution_commitment = commitment;
  mine.host = is_operator(limits_.contributions, player.name);
  next.push_back(std::move(mine));
  std::sort(next.begin(), next.end(), [](auto& a, auto& b) { return a.seat < b.seat; });
  if (static_cast<int>(next.size()) == seats) {
    // The last seat and the round (or the start) are one transaction: never a full game that
    // is not starting.
    start_when_revealed(std::move(next));
    return std::nullopt;
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
  if (record_.reveal_deadline) {
    reset_round(std::move(next), "a player left");
    return std::nullopt;
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
  if (record_.reveal_deadline) return fail("starting", "the game is starting already");
  if (record_.seats.size() < 2) return fail("too_few_players", "at least 2 players are needed");
  start_when_revealed(record_.seats);
  return std::nullopt;
}

Outcome GameRoom::new_invite(std::int64_t player_id, std::string& code) {
  if (!record_.is_private) return fail("not_private", "only private games have invite codes");
  if (player_id != record_.creator.id) {
    return fail("not_creator", "only the creator may make a new invite");
  }
  const std::string fresh = new_invite_code();
  const std::string hash = invite_hash(fresh);
  store_.set_invite_hash(record_.id, hash);
  record_.invite_hash = hash;
  code = fresh;
  spdlog::info("invite_renewed game={}", record_.id);
  return std::nullopt;
}

void GameRoom::begin_game(std::vector<SeatRecord> seats) {
  GameRecord next = record_;
  next.seats = std::move(seats);
  // Seats shrink to the seated players, renumbered in seat order.
  for (std::size_t i = 0; i < next.seats.size(); ++i) next.seats[i].seat = static_cast<int>(i);
  next.options.players = static_cast<int>(next.seats.size());
  next.reveal_deadline.reset();  // the round (if any) is over: store_.start_game drops it
  // By seat, in seat order: computer seats (and a guided game's) contribute nothing.
  std::vector<std::optional<protocol::fair::Contribution>> contributions;
  for (const SeatRecord& s : next.seats) {
    contributions.push_back(start_position_ ? std::nullopt
                                            : protocol::fair::from_hex<32>(s.contribution));
  }
  next.seed = seed_for_start(store_.db(), record_.id, contributions, next.random_scheme);
  GameState state =
      start_position_ ? *start_position_ : new_game(next.options, next.seed, next.random_scheme);
  next.current_seat = decider(state);
  next.seq = 0;
  // Seats, options, seed, status (and a guided game's position) in one transaction.
  store_.start_game(next, start_position_ ? &state : nullptr);
  start_position_.reset();
  record_ = std::move(next);
  record_.status = GameStatus::kOpen;  // set_status adjusts the gauges from here
  set_status(GameStatus::kRunning);
  state_ = std::move(state);
  cache_.clear();
  rebuild_delayed();
  spdlog::info("game_started game={} players={}", record_.id, record_.options.players);
  if (record_.spectators == SpectatorMode::kNone) {
    const Message refused =
        make_message(json{{"type", "error"},
                          {"code", "no_spectators"},
                          {"game_id", record_.id},
                          {"message", "the creator allows no spectators while the game runs"}});
    for (auto it = subscribers_.begin(); it != subscribers_.end();) {
      if (is_spectator(it->second)) {
        it->first->deliver(make_message(seats_message()));
        it->first->deliver(refused);
        board_.forget(it->first);
        it = subscribers_.erase(it);
      } else {
        ++it;
      }
    }
  }
  broadcast_seats();
  broadcast_states();
  changed();
  // After the observers (a clock has started): the notification can tell its deadline.
  notify_turn(TurnChange::Kind::started);
}

void GameRoom::take_over_seat(int seat, const std::string& level) {
  wait_idle();
  for (SeatRecord& s : record_.seats) {
    if (s.seat == seat) s.computer = level;
  }
  broadcast_seats();
  changed();
}

void GameRoom::cancel_running() {
  if (record_.status != GameStatus::kRunning) return;
  wait_idle();  // an action under way is committed first
  store_.cancel_game(record_.id);
  set_status(GameStatus::kCancelled);
  spdlog::info("game_cancelled game={} (a guided game replaced)", record_.id);
  broadcast_seats();
  changed();  // the seat controllers drop a decision under way
}

void GameRoom::start_if_full() {
  if (record_.status == GameStatus::kOpen && !record_.reveal_deadline &&
      static_cast<int>(record_.seats.size()) == record_.options.players) {
    start_when_revealed(record_.seats);
  }
}

// ---------------------------------------------------------------- subscriptions

void GameRoom::watch(Subscriber* subscriber, std::int64_t player_id) {
  subscribers_[subscriber] = player_id;
  subscriber->deliver(make_message(seats_message()));
  if (state_) send_state(subscriber, player_id);
  // No round request here: a seat's every connection was asked when the round began or when
  // it signed in (Hub::ask_pending_rounds); asking again would make it answer twice.
  if (observer_ != nullptr && player_id != 0) observer_->on_watchers_changed(*this, player_id);
}

void GameRoom::unwatch(Subscriber* subscriber) {
  const auto it = subscribers_.find(subscriber);
  const std::int64_t player_id = it == subscribers_.end() ? 0 : it->second;
  subscribers_.erase(subscriber);
  board_.forget(subscriber);
  if (observer_ != nullptr && player_id != 0) observer_->on_watchers_changed(*this, player_id);
}

bool GameRoom::watched_by(std::int64_t player_id) const {
  for (const auto& [subscriber, player] : subscribers_) {
    if (player == player_id) return true;
  }
  return false;
}

std::map<Subscriber*, std::int64_t> GameRoom::take_subscribers() {
  wait_idle();
  retired_ = true;
  board_.forget_all();
  return std::exchange(subscribers_, {});
}

void GameRoom::broadcast(const Message& message) {
  for (auto& [subscriber, player] : subscribers_) subscriber->deliver(message);
}

void GameRoom::broadcast_seats() { broadcast(make_message(seats_message())); }

void GameRoom::broadcast_states() {
  for (auto& [subscriber, player] : subscribers_) {
    board_.deliver(subscriber, state_for(player), record_.id, *state_);
  }
}

void GameRoom::send_state(Subscriber* subscriber, std::int64_t player_id) {
  if (!state_) return;
  board_.deliver(subscriber, state_for(player_id), record_.id, *state_);
}

Outcome GameRoom::send_board(Subscriber* subscriber) {
  if (!state_) return fail("not_running", "the game has not started");
  if (!subscribers_.count(subscriber)) {
    return fail("not_watching", "watch the game (game.watch) before asking for its board");
  }
  board_.send(subscriber, record_.id, *state_);
  return std::nullopt;
}

GameRoom::ViewerCache& GameRoom::cached(int viewer) {
  const bool spectator = viewer == kSpectator;
  const GameState& s = spectator ? spectator_state() : *state_;
  const int seq = spectator ? spectator_seq() : record_.seq;
  ViewerCache& c = cache_[viewer];
  if (c.seq == seq) return c;
  c = build_cache(s, seq, viewer, !spectator && can_undo(viewer));
  return c;
}

GameRoom::ViewerCache GameRoom::build_cache(const GameState& s, int seq, int viewer,
                                            bool can_undo) {
  ViewerCache c;
  c.seq = seq;
  c.view = std::make_shared<const GameView>(view_for(s, viewer));
  c.legal = legal_text(s, viewer);
  c.can_undo = can_undo;
  ++views_built_;
  return c;
}

const std::string& GameRoom::view_json(ViewerCache& c) {
  if (c.view_json.empty()) {
    c.view_json = protocol::view_json_text(*c.view);  // the one view writer (view_text.h)
  }
  return c.view_json;
}

const std::string& GameRoom::recent_chat_json(bool spectator) {
  ChatCache& c = chat_cache_[spectator ? 1 : 0];
  const bool hear = spectators_hear_players();
  if (c.version == chat_version_ && c.spectators_hear_players == hear) return c.text;
  std::vector<ChatRecord> lines;
  if (!spectator || hear) lines = store_.recent_chat(record_.id, limits_.chat_keep, false);
  if (spectator) {
    for (ChatRecord& line : store_.recent_chat(record_.id, limits_.chat_keep, true)) {
      lines.push_back(std::move(line));
    }
    std::stable_sort(lines.begin(), lines.end(), [](auto& a, auto& b) { return a.at < b.at; });
  }
  json chat = json::array();
  for (const ChatRecord& line : lines) chat.push_back(chat_json(record_.id, line));
  c.version = chat_version_;
  c.spectators_hear_players = hear;
  c.text = chat.dump(-1, ' ', false, json::error_handler_t::replace);
  c.lines = std::move(lines);
  return c.text;
}

bool GameRoom::muted_by(std::int64_t player_id, std::int64_t author) const {
  return limits_.mutes != nullptr && player_id != 0 && author != player_id &&
         limits_.mutes->of(player_id)->count(author) > 0;
}

Message GameRoom::state_for(std::int64_t player_id) {
  const int viewer = viewer_for(player_id);
  Message shared = state_message(viewer);
  if (limits_.mutes == nullptr || player_id == 0) return shared;
  const ChatMutes::Set muted = limits_.mutes->of(player_id);
  if (muted->empty()) return shared;
  const ChatCache& cache = chat_cache_[viewer == kSpectator ? 1 : 0];
  json chat = json::array();
  bool filtered = false;
  for (const ChatRecord& line : cache.lines) {
    if (muted->count(line.player_id)) {
      filtered = true;
    } else {
      chat.push_back(chat_json(record_.id, line));
    }
  }
  if (!filtered) return shared;
  return build_state(viewer, cached(viewer),
                     chat.dump(-1, ' ', false, json::error_handler_t::replace));
}

Message GameRoom::state_message(int viewer) {
  ViewerCache& c = cached(viewer);
  if (c.state && c.state_chat == chat_version_) return c.state;
  c.state = build_state(viewer, c, recent_chat_json(viewer == kSpectator));
  c.state_chat = chat_version_;
  return c.state;
}

Message GameRoom::build_state(int viewer, ViewerCache& c, const std::string& chat) {
  if (c.log.empty()) {
    const GameState& s = viewer == kSpectator ? spectator_state() : *state_;
    json log = json::array();
    for (const Step& step : recent_) {
      if (step.seq > c.seq) break;
      append_log_json(log, step.seq, s,
                      step.fogged.empty() ? filter_events_for(s, step.events, viewer)
                                          : step.fogged[static_cast<std::size_t>(viewer + 1)],
                      viewer, step.source);
    }
    c.log = log.dump(-1, ' ', false, json::error_handler_t::replace);
  }
  json head{{"type", "game.state"},
            {"game_id", record_.id},
            {"seq", c.seq},
            {"you", json{{"seat", viewer >= 0 ? json(viewer) : json(nullptr)}}},
            {"can_undo", c.can_undo}};
  head["commitment"] = commitment_of(record_);  // fair play
  // The board the view goes with (game.board, board_once.h).
  head["board"] = board_.id(record_.id, *state_);
  // The log and the chat change independently: a chat line rebuilds only the chat part.
  return std::make_shared<const std::string>(splice(
      head, {{"view", &view_json(c)}, {"legal", &c.legal}, {"log", &c.log}, {"chat", &chat}}));
}

Message GameRoom::update_message(int viewer, const GameState& after, const Step& step) {
  // What this viewer's subscribers hold: the view of the step before, if it was built.
  std::shared_ptr<const GameView> before;
  if (auto it = cache_.find(viewer); it != cache_.end() && it->second.seq == step.seq - 1) {
    before = it->second.view;
  }
  ViewerCache& c = cached(viewer);
  return update_message_with(viewer, before.get(), c, after, step);
}

Message GameRoom::update_message_with(int viewer, const GameView* before, ViewerCache& c,
                                      const GameState& after, const Step& step) {
  const std::vector<Event> events = filter_events_for(after, step.events, viewer);
  json log = json::array();
  append_log_json(log, step.seq, after, events, viewer, step.source);
  const json head{
      {"type", "game.update"},  {"game_id", record_.id},         {"seq", step.seq},
      {"can_undo", c.can_undo}, {"events", events_json(events)}, {"log", std::move(log)}};
  if (!before) {
    // Nobody of this viewer was told the step before (the cache was cleared, or this viewer
    // had no subscriber): the whole view, which every client takes as it is.
    return std::make_shared<const std::string>(
        splice(head, {{"view", &view_json(c)}, {"legal", &c.legal}}));
  }
  const std::string delta = protocol::view_delta_json_text(*before, *c.view);
  return std::make_shared<const std::string>(
      splice(head, {{"delta", &delta}, {"legal", &c.legal}}));
}

void GameRoom::broadcast_update(const Step& step, std::chrono::steady_clock::time_point received,
                                bool skip_spectators, std::map<int, Message>* prepared) {
  // Viewers prepared before the commit get what was built then; any other (a subscriber who
  // came meanwhile) gets his built now, against what he was sent.
  std::map<int, Message> by_viewer =
      prepared != nullptr ? std::move(*prepared) : std::map<int, Message>{};
  for (auto& [subscriber, player] : subscribers_) {
    const int viewer = viewer_for(player);
    if (viewer == kSpectator && skip_spectators) continue;
    auto it = by_viewer.find(viewer);
    if (it == by_viewer.end()) {
      it = by_viewer.emplace(viewer, update_message(viewer, *state_, step)).first;
    }
    board_.deliver(subscriber, it->second, record_.id, *state_);
  }
  metrics_.observe_action_latency(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - received).count());
}

void GameRoom::remember(Step step, const GameState& after) {
  if (after.options.fog_of_war) {
    for (int viewer = kSpectator; viewer < after.options.players; ++viewer) {
      step.fogged.push_back(filter_events_for(after, step.events, viewer));
    }
  }
  recent_.push_back(std::move(step));
  while (static_cast<int>(recent_.size()) > limits_.log_keep) recent_.pop_front();
}

// ---------------------------------------------------------------- running games

Outcome GameRoom::act(std::int64_t player_id, int client_seq, Action action, CommitPath path,
                      ActionSource source) {
  wait_idle();
  PendingAction pending;
  if (auto refused = prepare_action(player_id, client_seq, std::move(action), pending, source)) {
    return refused;
  }
  // Durable before anyone hears of it.
  if (path == CommitPath::kDirect) {
    store_.commit_action_direct(pending.commit);
  } else {
    store_.commit_action(pending.commit);
  }
  install(pending);
  return std::nullopt;
}

Outcome GameRoom::prepare_action(std::int64_t player_id, int client_seq, Action action,
                                 PendingAction& pending, ActionSource source) {
  pending.received = std::chrono::steady_clock::now();
  if (retired_) return fail("retired", "look the game up again");
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
  pending.seat = *seat;
  pending.next = *state_;
  if (auto error = apply_in_place(pending.next, action, &pending.events)) {
    Failure f = fail("illegal_action", error->message);
    f.extra["reason"] = error->code;
    return f;
  }
  // Under fog of war an action that let anyone look into the fog seals the turn too.
  ActionRecord record{record_.seq + 1, action,   seals_turn(*state_, pending.next, pending.events),
                      state_->turn,    now_ms(), source};
  ActionCommit& commit = pending.commit;
  commit.game_id = record_.id;
  commit.record = record;
  commit.current_seat = decider(pending.next);
  if (limits_.snapshot_every > 0 && record.seq % limits_.snapshot_every == 0) {
    commit.snapshot = &pending.next;
  }
  pending.finished = pending.next.phase == Phase::kGameOver;
  if (pending.finished) {
    commit.finished = result_json(pending.next);
    commit.places = places_at_end(pending.next);  // the records and ratings (player_records.h)
  }
  return std::nullopt;
}

void GameRoom::install(PendingAction& pending) {
  const ActionCommit& commit = pending.commit;
  const ActionRecord& record = commit.record;
  const bool finished = pending.finished;
  const bool decider_changed = commit.current_seat != record_.current_seat;
  const bool delayed_before = spectators_delayed();
  state_ = std::move(pending.next);
  log_.push_back(record);
  record_.seq = record.seq;
  record_.current_seat = commit.current_seat;
  record_.last_move_at = record.at;
  ++metrics_.actions;
  remember(Step{record.seq, std::move(pending.events), record.source}, *state_);
  // The views built before the commit for this seq (prepare_updates) are now the current ones.
  for (auto& [viewer, cache] : pending.caches) cache_[viewer] = std::move(cache);
  // Actions name only public things (seats, unit ids, hex indexes); never log state or events.
  spdlog::debug("action game={} seq={} seat={} kind={} sealed={}", record_.id, record.seq,
                pending.seat, to_string(record.action.kind), record.sealed);
  if (finished) {
    record_.result = commit.finished;
    // As record_game_end decided in the commit (player_records.h), from what the room knows.
    record_.rated = counts_for_ratings(record_.rated, computer_played(), commit.places);
    set_status(GameStatus::kFinished);
    delayed_.reset();
    spdlog::info("game_finished game={} seq={} result={}", record_.id, record.seq,
                 commit.finished->dump());
  }
  broadcast_update(recent_.back(), pending.received, /*skip_spectators=*/delayed_before,
                   &pending.updates);
  if (delayed_before && finished) {
    // The game is over: delayed spectators jump to the end.
    for (auto& [subscriber, player] : subscribers_) {
      if (viewer_for(player) == kSpectator) {
        board_.deliver(subscriber, state_for(player), record_.id, *state_);
      }
    }
  } else {
    advance_delayed();
  }
  if (finished) {
    broadcast_seats();
    // Fair play: the secret is revealed to everyone once the game is over, however it ended.
    if (auto reveal = reveal_message(store_.db(), record_)) broadcast(make_message(*reveal));
  }
  changed();
  // After the observers (the clock is saved for the new decider): the notification, built on
  // another thread from the database, can tell the new deadline.
  if (finished || decider_changed) {
    notify_turn(finished ? TurnChange::Kind::finished : TurnChange::Kind::turn);
  }
}

bool GameRoom::can_undo(int seat) const {
  if (record_.status != GameStatus::kRunning || !state_ || log_.empty() || seat < 0) {
    return false;
  }
  return undo_allowed(*state_, log_.back(), seat);
}

bool GameRoom::undo_allowed(const GameState& s, const ActionRecord& last, int seat) {
  // Only one's own last action, within one's own Player Turn, while no hidden information
  // came out (seals_turn) and while it is still one's own decision.
  return last.action.player == seat && !last.sealed && last.action.kind != ActionKind::kConcede &&
         last.turn == s.turn && s.current == seat && decider(s) == seat;
}

Outcome GameRoom::undo(std::int64_t player_id, int client_seq) {
  wait_idle();
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
  GameState state = snapshot ? std::move(snapshot->second)
                             : new_game(record_.options, record_.seed, record_.random_scheme);
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
  // The same seq will come again with another action: nothing cached for it may survive.
  cache_.clear();
  ++metrics_.undos;
  spdlog::debug("undo game={} seq={} seat={}", record_.id, record_.seq, *seat);
  broadcast_states();
  changed();
  return std::nullopt;
}

Outcome GameRoom::chat(const PlayerRecord& player, const std::string& text) {
  if (record_.status == GameStatus::kCancelled) return fail("not_found", "the game was cancelled");
  if (auto refused = may_watch(player.id)) return refused;
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
  c.id = store_.add_chat(record_.id, c);
  ++chat_version_;
  const Message message = make_message(chat_json(record_.id, c));
  for (auto& [subscriber, watcher] : subscribers_) {
    // Whoever muted the author never gets his lines (filtered here, so he cannot tell).
    if (muted_by(watcher, c.player_id)) continue;
    const bool to_spectator = is_spectator(watcher);
    // Players' lines reach spectators too (unless they watch with a delay); spectators' lines
    // reach spectators only.
    if (c.seat ? (!to_spectator || spectators_hear_players()) : to_spectator) {
      subscriber->deliver(message);
    }
  }
  return std::nullopt;
}

void GameRoom::forget_player(std::int64_t player_id) {
  bool seated = false;
  for (SeatRecord& s : record_.seats) {
    if (s.player_id == player_id) {
      s.name.clear();
      seated = true;
    }
  }
  if (record_.creator.id == player_id) record_.creator.name.clear();
  ++chat_version_;  // his lines, blanked in the store, as anyone reads them next
  cache_.clear();   // full states carry the seats
  if (seated) broadcast_seats();
}

void GameRoom::chat_line_hidden(std::int64_t line_id) {
  ++chat_version_;  // the recent chat is read again, without the line
  broadcast(make_message(json{{"type", "chat.hidden"}, {"game_id", record_.id}, {"id", line_id}}));
}

}  // namespace viktory::server
