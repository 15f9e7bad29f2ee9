#include "hub.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <limits>
#include <set>

#include "battle_preview_request.h"
#include "chat_comforts.h"
#include "display_name.h"
#include "game_leases.h"
#include "json.h"
#include "message_fields.h"
#include "peek_req.h"
#include "reach.h"
#include "running_games.h"
#include "token.h"

namespace viktory::server {
namespace {

using nlohmann::json;
using namespace message_fields;

// What a request costs in the rate limit: requests that build a full state or read lists
// from the database cost more than an action or a ping.
double request_cost(const std::string& type) {
  if (type == "game.watch" || type == "game.create" || type == "lobby.running" ||
      type == "game.since" || type == "games.vacation" || type == "tutorial.start") {
    return 5;
  }
  if (type == "game.join" || type == "my_games" || type == "lobby.subscribe" ||
      type == "game.invite" || type == "game.preview_battle" || type == "game.reach" ||
      type == "game.standing_orders" || type == "game.invite_friend") {
    return 3;
  }
  return 1;
}
constexpr double kStaleCost = 5;  // a stale action or undo is answered with a full state

}  // namespace

Hub::Hub(Store& store, Metrics& metrics, HubOptions options)
    : store_(store),
      metrics_(metrics),
      options_(std::move(options)),
      computer_caps_(store, options_.computer_caps),
      lobby_(store, metrics, room_limits(options_), options_.lobby, options_.leases),
      replays_(store.db().path(), metrics, options_.replay),
      catch_ups_(store.db().path(), CatchUpLimits{}),
      signup_buckets_(options_.signups_per_minute / 60.0, 2 * options_.signups_per_minute),
      address_buckets_(options_.address_factor * options_.messages_per_second,
                       options_.address_factor * options_.message_burst),
      last_probe_(std::chrono::steady_clock::now()),
      tutorials_(options_.tutorial) {
  clocks_ = std::make_unique<GameClocks>(
      store_, options_.clock != nullptr ? *options_.clock : system_clock_);
  games_to_watch_ =
      std::make_unique<GamesToWatch>(store_, static_cast<std::size_t>(options_.games_to_watch));
  // A clock's reminder goes out the way turns do: the turn notifications (push, e-mail,
  // webhook, per the player's settings), which only queue it here.
  if (options_.room.on_turn) clocks_->set_reminder(options_.room.on_turn);
  seats_ = std::make_unique<SeatControllers>(
      options_.computers, [this](const ComputerDecision& d) { apply_computer_decision(d); },
      &computer_caps_);
  standing_ = std::make_unique<StandingOrderService>(
      store_, options_.clock != nullptr ? *options_.clock : system_clock_);
  clocks_->set_standing_orders(standing_.get());  // a skipped turn's decisions
  std::lock_guard lock(mutex_);
  lobby_.set_computer_caps(&computer_caps_);
  lobby_.add_observer(seats_.get());
  lobby_.add_observer(clocks_.get());
  lobby_.add_observer(standing_.get());
  // After a restart, computers whose decision it is play on: loading the room schedules it,
  // under today's caps (games beyond them get only spare computer time).
  seats_->set_over_caps(computer_caps_.over_caps());
  for (const std::int64_t game_id : store_.running_games_with_computers()) lobby_.room(game_id);
}

std::int64_t Hub::sweep_clocks() {
  // Like a request: the Lobby lock only to find each room, then that room's lock alone.
  try {
    bool elsewhere_due = false;
    for (const std::int64_t game_id : clocks_->due_games()) {
      std::unique_lock hub_lock(mutex_);
      std::shared_ptr<GameRoom> room =
          lobby_.unavailable(game_id) ? nullptr : lobby_.shared_room(game_id);
      const bool elsewhere = room == nullptr && lobby_.elsewhere(game_id).has_value();
      hub_lock.unlock();
      if (elsewhere) {
        // Another server's game: its clock is that server's (and if that server stopped,
        // this one takes the game over once the lease ends: room() loads it here then).
        // Looked at again a second later, not at once: its due time stays past until then.
        elsewhere_due = true;
        continue;
      }
      if (room == nullptr) {
        clocks_->sweep_game(game_id, nullptr);  // a damaged game: its clock steps on alone
        continue;
      }
      std::lock_guard room_lock(room->mutex());
      clocks_->sweep_game(game_id, room.get());
    }
    sweep_standing_orders();
    std::int64_t due = 0;
    for (const std::int64_t next :
         {clocks_->next_due(), standing_->next_due(), sweep_reveal_rounds()}) {
      if (next != 0 && (due == 0 || next < due)) due = next;
    }
    if (elsewhere_due) {
      Clock& clock = options_.clock != nullptr ? *options_.clock : system_clock_;
      due = std::max(due, clock.now_ms() + 1000);
    }
    return due;
  } catch (const std::exception& e) {
    spdlog::error("clock_sweep_failed error=\"{}\"", e.what());
    return 0;
  }
}

void Hub::on_clock_due(std::function<void(std::int64_t)> f) {
  standing_->set_due_changed(f);
  clocks_->set_due_changed(std::move(f));
}

void Hub::set_clock_reminder(GameClocks::Reminder reminder) {
  clocks_->set_reminder(std::move(reminder));
}

void Hub::apply_computer_decision(const ComputerDecision& decision) {
  // The path of a player's game.action (Hub::act): the Lobby lock only to find the room, the
  // room's lock for the rest; committed by the writer thread, then told.
  std::unique_lock hub_lock(mutex_);
  for (int attempt = 0; attempt < 4; ++attempt) {
    Outcome outcome;
    try {
      if (lobby_.unavailable(decision.game_id)) return;
      std::shared_ptr<GameRoom> room = lobby_.shared_room(decision.game_id);
      if (room == nullptr) return;
      hub_lock.unlock();  // a busy room is waited for without the Lobby lock
      std::unique_lock room_lock(room->mutex());
      // Stale: the game moved on, or the seat changed hands, since the job was made (both
      // set the cancel flag under this lock).
      if (decision.cancel && decision.cancel->load()) return;
      if (room->seq() != decision.seq) return;
      outcome = room->act(decision.player_id, decision.seq, decision.action, CommitPath::kWriter,
                          decision.source);
    } catch (const DbError& e) {
      if (!hub_lock.owns_lock()) hub_lock.lock();
      if (e.storage_failure()) {
        storage_failed(decision.game_id, e);
      } else if (lease_lost(e)) {
        let_game_go(decision.game_id);
      } else {
        spdlog::error("computer_failed game={} error=\"{}\"", decision.game_id, e.what());
      }
      return;
    } catch (const std::exception& e) {
      spdlog::error("computer_failed game={} error=\"{}\"", decision.game_id, e.what());
      return;
    }
    if (!outcome) return;
    if (outcome->code == "retired") {  // the Lobby dropped that room meanwhile: look again
      hub_lock.lock();
      continue;
    }
    spdlog::error("computer_refused game={} seq={} code={}", decision.game_id, decision.seq,
                  outcome->code);
    return;
  }
}

void Hub::on_open(Client* client, std::string_view address) {
  std::lock_guard lock(clients_mutex_);
  ClientState state;
  state.bucket.tokens = options_.message_burst;
  state.bucket.last = std::chrono::steady_clock::now();
  state.address = std::string(address);
  clients_[client] = state;
}

void Hub::on_close(Client* client) {
  std::optional<PlayerRecord> player;
  {
    std::lock_guard lock(clients_mutex_);
    if (auto it = clients_.find(client); it != clients_.end()) player = it->second.player;
    clients_.erase(client);
  }
  // Leaving by a closed connection may be a page reload: his standing orders wait a moment.
  if (player) standing_->connection_closed(player->id);
  lobby_.forget(client, mutex_);
  if (player && options_.presence != nullptr) options_.presence->disconnected(player->id);
  std::lock_guard lock(mutex_);
  lobby_.evict_idle();
}

std::optional<PlayerRecord> Hub::player_of(Client* client) {
  std::lock_guard lock(clients_mutex_);
  auto found = clients_.find(client);
  if (found == clients_.end()) return std::nullopt;
  return found->second.player;
}

bool Hub::charge_client(Client* client, double cost) {
  std::lock_guard lock(clients_mutex_);
  auto found = clients_.find(client);
  return found != clients_.end() && charge(found->second, cost);
}

std::shared_ptr<GameRoom> Hub::room_for_testing(std::int64_t game_id) {
  std::lock_guard lock(mutex_);
  return lobby_.shared_room(game_id);
}

bool Hub::charge(ClientState& state, double cost) {
  if (!state.bucket.take(options_.messages_per_second, options_.message_burst, cost)) return false;
  // The expensive part of a request is also charged to its address, which all connections
  // from there share (so many connections do not buy many full states).
  if (cost > 1 && !address_buckets_.take(state.address, cost)) return false;
  return true;
}

bool Hub::charge_address(std::string_view address, double cost) {
  if (address.empty()) return true;
  std::lock_guard lock(clients_mutex_);
  return address_buckets_.take(address, cost);
}

void Hub::send_error(Client* client, const Failure& failure, const json& req) {
  metrics_.count_error(failure.code);
  json out{{"type", "error"}, {"code", failure.code}, {"message", failure.message}};
  for (auto& [key, value] : failure.extra.items()) out[key] = value;
  if (!req.is_null()) out["req"] = req;
  client->deliver(make_message(out));
}

Failure Hub::storage_failed(std::int64_t game_id, const DbError& error) {
  ++metrics_.storage_failures;
  storage_ok_ = false;
  storage_problem_ = error.what();
  spdlog::error("storage_failure game={} error=\"{}\"", game_id, error.what());
  // SQLite may have written part of the failed transaction to the WAL, and after a crash it
  // could come back. Emptying the WAL (a checkpoint) settles what the database holds; until
  // that works, nobody can know which position will survive, so the game is not shown.
  bool settled = false;
  try {
    settled = store_.checkpoint_truncate();
  } catch (const DbError& e) {
    spdlog::error("storage_failure checkpoint failed: {}", e.what());
  }
  if (game_id == 0) {
    return fail("storage_error", "the server could not save this; nothing was changed");
  }
  std::map<Subscriber*, std::int64_t> dropped;
  if (settled) {
    if (GameRoom* fresh = lobby_.reload(game_id, &dropped)) {
      {
        std::lock_guard room_lock(fresh->mutex());
        fresh->broadcast(make_message(
            json{{"type", "game.notice"},
                 {"game_id", game_id},
                 {"code", "storage_error"},
                 {"message",
                  "The server could not save the last change to this game, so it reloaded the "
                  "game from its database: what you see now is what is stored."}}));
      }
      lobby_.changed();
      return fail("storage_error",
                  "the server could not save this; the game was reloaded from its database");
    }
  } else {
    spdlog::error("storage_failure game={} is unavailable until the database can be written",
                  game_id);
    lobby_.set_unavailable(game_id, &dropped);
  }
  const Message notice = make_message(json{
      {"type", "game.notice"},
      {"game_id", game_id},
      {"code", "game_unavailable"},
      {"message",
       "The server could not save the last change to this game and cannot tell yet what its "
       "storage kept. The game is unavailable until the storage works again; then it continues "
       "from what is stored."}});
  for (auto& [subscriber, player] : dropped) subscriber->deliver(notice);
  lobby_.changed();
  return fail("game_unavailable", "the server's storage failed; this game is unavailable for now");
}

Failure Hub::let_game_go(std::int64_t game_id) {
  std::map<Subscriber*, std::int64_t> dropped;
  // Loading it again finds the lease another process's: no room; the watchers are dropped.
  GameRoom* fresh = lobby_.reload(game_id, &dropped);
  if (fresh != nullptr) {
    // The lease came back meanwhile (the other server's lapsed): the game is served here
    // again, from what is stored; the action that found it gone was not saved.
    return fail("storage_error",
                "the server could not save this; the game was reloaded from its database");
  }
  const std::string server = lobby_.elsewhere(game_id).value_or("");
  spdlog::warn("game_lease_lost game={} server={}", game_id, server);
  const Message notice = make_message(
      json{{"type", "game.notice"},
           {"game_id", game_id},
           {"code", "game_elsewhere"},
           {"server", server},
           {"message", "Another server serves this game now. Open it again to continue there."}});
  for (auto& [subscriber, player] : dropped) subscriber->deliver(notice);
  lobby_.changed();
  Failure f = fail("game_elsewhere", "another server serves this game now: connect there");
  f.extra["server"] = server;
  return f;
}

void Hub::keep_leases() {
  GameLeases* leases = options_.leases;
  if (leases == nullptr) return;
  try {
    for (const std::int64_t game_id : leases->renew(now_ms())) {
      std::lock_guard lock(mutex_);
      let_game_go(game_id);
    }
    // Games with computer seats whose server died (its lease lapsed; one handed over, at 0,
    // was let go on purpose: a room nobody watched, or a server that stopped and whose
    // successor loads them as it starts): nobody else would open them.
    for (const std::int64_t game_id : store_.running_games_with_computers()) {
      const std::optional<Lease> lease = leases->lease(game_id);
      if (!lease || lease->owner == leases->owner() || lease->expires == 0 ||
          lease->expires > now_ms()) {
        continue;
      }
      std::lock_guard lock(mutex_);
      if (lobby_.room(game_id) != nullptr) {
        spdlog::info("game_taken_over game={} from={}", game_id, lease->url);
      }
    }
    // Open games whose server stopped (died, or handed its leases over as it stopped): an
    // open game is listed by the server that holds it, so one must.
    for (const std::int64_t game_id : leases->lapsed_open_games(now_ms())) {
      std::lock_guard lock(mutex_);
      if (lobby_.room(game_id) != nullptr) {
        spdlog::info("game_taken_over game={} open=true", game_id);
        lobby_.changed();
      }
    }
  } catch (const std::exception& e) {
    spdlog::error("lease_renewal_failed error=\"{}\"", e.what());
  }
}

void Hub::on_message(Client* client, std::string_view text) {
  ++metrics_.messages_in;
  // Every message costs a token, charged before it is parsed: a client over its limit costs
  // no parse. The connection's lock is held for a few lines only.
  std::optional<PlayerRecord> player;
  bool within_rate = false;
  {
    std::lock_guard lock(clients_mutex_);
    auto found = clients_.find(client);
    if (found == clients_.end()) return;
    within_rate = charge(found->second, 1);
    player = found->second.player;
  }
  if (!within_rate) {
    // Still no parse: the reply's req is read from a few bytes at the message's ends.
    const std::optional<std::int64_t> req = peek_req(text);
    send_error(client, fail("rate_limited", "too many messages; slow down"),
               req ? json(*req) : json(nullptr));
    return;
  }
  // Parsed and checked with no lock held.
  json msg = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (msg.is_discarded()) {
    send_error(client, fail("bad_json", "the message is not valid JSON"), nullptr);
    return;
  }
  if (!msg.is_object()) {
    send_error(client, fail("bad_message", "a message must be a JSON object"), nullptr);
    return;
  }
  json req = nullptr;
  if (msg.contains("req")) {
    if (!msg["req"].is_number_integer()) {
      send_error(client, fail("bad_message", "field 'req' must be an integer"), nullptr);
      return;
    }
    req = msg["req"];
  }
  if (!msg.contains("type") || !msg["type"].is_string()) {
    send_error(client, fail("bad_message", "field 'type' must be a string"), req);
    return;
  }
  const std::string type = msg["type"].get<std::string>();
  // Expensive requests pay the rest of their cost now.
  if (const double cost = request_cost(type); cost > 1) {
    bool within_cost = false;
    {
      std::lock_guard lock(clients_mutex_);
      auto found = clients_.find(client);
      if (found == clients_.end()) return;
      within_cost = charge(found->second, cost - 1);
    }
    if (!within_cost) {
      send_error(client, fail("rate_limited", "too many expensive requests; slow down"), req);
      return;
    }
  }
  Outcome outcome;
  try {
    if (type == "game.action" && player) {
      outcome = act(client, msg);
    } else if (type == "game.since" && player) {
      // Replayed from the database outside the Hub's and every room's lock (catch_up.h).
      auto reply = catch_ups_.answer(player->id, msg);
      if (auto* failure = std::get_if<Failure>(&reply)) {
        outcome = *failure;
      } else {
        client->deliver(make_message(std::get<json>(reply)));
      }
    } else {
      outcome = dispatch(client, player, msg, type);
    }
  } catch (const BadField& e) {
    outcome = fail("bad_message", e.what());
  } catch (const protocol::JsonError& e) {
    outcome = fail("bad_message", std::string("bad action: ") + e.what());
  } catch (const DbError& e) {
    if (e.storage_failure()) {
      std::lock_guard lock(mutex_);
      outcome = storage_failed(0, e);
    } else {
      spdlog::error("request_failed type={} error={}", type, e.what());
      outcome = fail("internal", "the server could not handle this request");
    }
  } catch (const std::exception& e) {
    // Details go to the log only; they may name internals the client has no business seeing.
    spdlog::error("request_failed type={} error={}", type, e.what());
    outcome = fail("internal", "the server could not handle this request");
  }
  if (outcome && outcome->code.empty()) return;  // answered already (stale: error + state)
  if (outcome) {
    send_error(client, *outcome, req);
    if (outcome->code == "auth_failed") {
      int failures = 0;
      {
        std::lock_guard lock(clients_mutex_);
        if (auto found = clients_.find(client); found != clients_.end()) {
          failures = found->second.auth_failures;
        }
      }
      if (failures >= options_.max_auth_failures) client->close("too many failed sign-ins");
    }
  } else if (!req.is_null()) {
    client->deliver(make_message(json{{"type", "ack"}, {"req", req}}));
  }
}

Outcome Hub::act(Client* client, const json& msg) {
  const std::int64_t game_id = int_field(msg, "game_id");
  const int seq = small_int_field(msg, "seq");
  if (!msg.contains("action") || !msg["action"].is_object()) {
    return fail("bad_message", "field 'action' must be an object");
  }
  json action_json = msg["action"];
  action_json["player"] = 0;  // replaced by the sender's seat; a client never chooses it
  const Action action = protocol::action_from_json(action_json);
  const std::string invite = optional_string(msg, "invite");
  const std::optional<PlayerRecord> player = player_of(client);
  if (!player) return fail("unauthenticated", "send {\"type\":\"auth\"} first");
  const std::int64_t player_id = player->id;
  const json req = msg.value("req", json(nullptr));
  // With group commit, the action does not hold this thread while the writer commits it
  // (GameRoom::act_async): the connection reads nothing more until the completion has
  // answered, so its requests are still answered in order, and it stays alive until then.
  struct HeldReading {
    Client::Resume resume;
    ~HeldReading() {
      if (resume) resume(nullptr);  // answered here: read on
    }
  } held{store_.group_commit_started() ? client->hold_reading() : Client::Resume{}};
  // A room the Lobby dropped meanwhile (evicted, reloaded) is retired: look the game up again.
  for (int attempt = 0;; ++attempt) {
    std::shared_ptr<GameRoom> room;
    Outcome outcome;
    try {
      std::unique_lock<std::mutex> room_lock;
      if (auto f = lock_room(game_id, room, room_lock)) return f;
      if (!room->may_view(player_id, invite)) return fail("not_found", "no such game");
      if (!held.resume) {
        outcome = room->act(player_id, seq, action);
      } else {
        // Runs on the writer thread after the COMMIT (and the fan-out), without any lock.
        auto done = [this, room, client, req, game_id,
                     resume = held.resume](const std::optional<DbError>& error) {
          if (!error) {
            if (!req.is_null()) client->deliver(make_message(json{{"type", "ack"}, {"req", req}}));
            resume(nullptr);
            return;
          }
          // The Hub's lock is not taken on the writer thread: the failure is handled on the
          // connection's strand, like a request (storage_failed settles the WAL, reloads).
          // `room` stays alive meanwhile: the Lobby drops it under its own lock when it
          // reloads the game (as a synchronous action's request holds it).
          resume([this, room, client, req, game_id, e = *error] {
            std::unique_lock lock(mutex_);
            Failure failure;
            if (e.storage_failure()) {
              failure = storage_failed(game_id, e);
            } else if (lease_lost(e)) {
              failure = let_game_go(game_id);
            } else {
              spdlog::error("request_failed type=game.action error={}", e.what());
              failure = fail("internal", "the server could not handle this request");
            }
            send_error(client, failure, req);
          });
        };
        outcome = room->act_async(player_id, seq, action, std::move(done));
        if (!outcome) {
          held.resume = nullptr;  // the completion reads on
          return Failure{};       // answered by the completion
        }
      }
    } catch (const DbError& e) {
      if (lease_lost(e)) {
        std::lock_guard lobby_lock(mutex_);
        return let_game_go(game_id);
      }
      if (!e.storage_failure()) throw;
      // Thrown while loading the room or with the room's lock, which the unwinding released:
      // the Lobby lock is taken for the reload, never with a room's held.
      std::lock_guard lobby_lock(mutex_);
      return storage_failed(game_id, e);
    }
    // Retired while the room waited for a commit in flight (its lock released): look again.
    if (outcome && outcome->code == "retired" && attempt < 3) continue;
    if (outcome && outcome->code == "stale") {
      send_error(client, *outcome, req);
      // The full state that follows costs like a game.watch (its message is cached per seq,
      // so this is about bytes, not work).
      if (charge_client(client, kStaleCost)) {
        std::lock_guard room_lock(room->mutex());
        room->send_state(client, player_id);
      } else {
        send_error(client, fail("rate_limited", "too many stale requests; slow down"), req);
      }
      return Failure{};  // answered already
    }
    return outcome;
  }
}

Outcome Hub::require_room(std::int64_t game_id, std::shared_ptr<GameRoom>& room) {
  if (lobby_.unavailable(game_id)) {
    // Once the WAL can be emptied, what the database holds is settled: the game comes back.
    bool settled = false;
    try {
      settled = store_.checkpoint_truncate();
    } catch (const DbError&) {
    }
    if (!settled) {
      return fail("game_unavailable",
                  "the server's storage failed; this game is unavailable for now");
    }
    lobby_.set_available(game_id);
  }
  room = lobby_.shared_room(game_id);
  if (room == nullptr && lobby_.damaged(game_id)) {
    return fail("game_damaged", "this game's stored data is damaged; it cannot be opened");
  }
  if (room == nullptr) {
    if (std::optional<std::string> server = lobby_.elsewhere(game_id)) {
      Failure f = fail("game_elsewhere", "another server serves this game: connect there");
      f.extra["server"] = *server;
      return f;
    }
    return fail("not_found", "no such game");
  }
  // Whether it was cancelled is for the caller to see under the room's lock: a busy room is
  // never waited for under the Lobby lock.
  return std::nullopt;
}

Outcome Hub::lock_room(std::int64_t game_id, std::shared_ptr<GameRoom>& room,
                       std::unique_lock<std::mutex>& room_lock) {
  // A room the Lobby dropped between the lookup and its lock is retired: look again.
  for (int attempt = 0; attempt < 4; ++attempt) {
    {
      std::lock_guard lobby_lock(mutex_);
      if (auto f = require_room(game_id, room)) return f;
    }
    room_lock = std::unique_lock(room->mutex());
    if (room->retired()) {
      room_lock.unlock();
      continue;
    }
    if (room->status() == GameStatus::kCancelled) return fail("not_found", "no such game");
    return std::nullopt;
  }
  return fail("game_unavailable", "this game is being reloaded; try again");
}

Outcome Hub::watch(Client* client, GameRoom* room, std::int64_t player_id, bool always) {
  {
    std::lock_guard lock(clients_mutex_);
    auto found = clients_.find(client);
    if (found == clients_.end()) return fail("closed", "the connection is closed");
    std::set<std::int64_t>& watched = found->second.watched;
    if (!always && !watched.count(room->id()) &&
        static_cast<int>(watched.size()) >= options_.max_watched_games) {
      return fail("too_many_games", "this connection watches too many games; unwatch some first");
    }
    watched.insert(room->id());
  }
  room->watch(client, player_id);
  seats_->on_watched(*room);  // a paused game of computers plays on
  clocks_->send(room->id(), client);
  return std::nullopt;
}

std::string Hub::invite_url(std::int64_t game_id, const std::string& code) const {
  if (options_.public_url.empty()) return "";
  return options_.public_url + "/#/game/" + std::to_string(game_id) + "?invite=" + code;
}

Outcome Hub::dispatch(Client* client, const std::optional<PlayerRecord>& player, const json& msg,
                      const std::string& type) {
  if (type == "ping") {
    client->deliver(make_message(json{{"type", "pong"}}));
    return std::nullopt;
  }
  if (type == "auth") {
    if (player) return fail("bad_message", "already signed in on this connection");
    const std::string token = string_field(msg, "token");
    // The token is looked up on the Store's reader connection with no lock held; the result
    // is recorded under the connections' lock.
    std::optional<PlayerRecord> found;
    if (looks_like_hex_secret(token, 64)) found = store_.player_by_token_hash(token_hash(token));
    {
      std::lock_guard lock(clients_mutex_);
      auto state = clients_.find(client);
      if (state == clients_.end()) return Failure{};  // closed meanwhile: nobody to answer
      if (!found) {
        ++state->second.auth_failures;
        return fail("auth_failed", "unknown token");
      }
      state->second.player = found;
    }
    if (options_.presence != nullptr) options_.presence->connected(found->id);
    spdlog::debug("signed_in player={}", found->id);
    client->deliver(make_message(json{
        {"type", "welcome"}, {"player_id", std::to_string(found->id)}, {"name", found->name}}));
    ask_pending_rounds(client, found->id);
    return std::nullopt;
  }
  if (!player) return fail("unauthenticated", "send {\"type\":\"auth\"} first");
  const PlayerRecord& me = *player;

  if (type == "lobby.subscribe") {
    // The page of the open list to watch (docs/protocol.md, "Lobby"): every field optional.
    LobbyPage page;
    const auto number = [&](const char* name) -> std::optional<std::int64_t> {
      if (!msg.contains(name) || msg[name].is_null()) return std::nullopt;
      return int_field(msg, name);
    };
    if (auto f = make_lobby_page(options_.lobby, optional_string(msg, "speed"), number("offset"),
                                 number("limit"), page)) {
      return f;
    }
    lobby_.subscribe(client, page);
    return std::nullopt;
  }
  if (type == "lobby.unsubscribe") {
    lobby_.unsubscribe(client);
    return std::nullopt;
  }
  if (type == "my_games") {
    client->deliver(make_message(json{{"type", "my_games"}, {"games", my_games(me.id)}}));
    return std::nullopt;
  }
  if (type == "lobby.running") {  // server/games/running_games.h
    // From a copy read at most once a second, less the viewer's own games.
    client->deliver(std::make_shared<const std::string>(games_to_watch_->message_for(me.id)));
    return std::nullopt;
  }
  if (type == "game.create") return create_game(client, me, msg);
  if (type == "tutorial.start") return start_tutorial(client, me, msg);
  // Vacation in every running game with a clock at once (the account page).
  if (type == "games.vacation") {
    return vacation_everywhere(client, me.id, small_int_field(msg, "days"));
  }

  static const std::set<std::string> kGameTypes = {
      "game.join",       "game.leave",          "game.start",    "game.watch",
      "game.unwatch",    "game.action",         "game.undo",     "chat.send",
      "game.invite",     "game.preview_battle", "game.reach",    "game.skip_turn",
      "game.vote_expel", "game.take_back",      "game.vacation", "game.standing_orders",
      "game.chat_read"};
  // Fair play's reveal round (hub_contributions.cpp).
  const bool round_message = type == "game.commit" || type == "game.contribute";
  // game.board: the static board again (board_once.h); game.invite_friend (hub_friends.cpp).
  if (!kGameTypes.count(type) && type != "game.board" && type != "game.invite_friend" &&
      !round_message) {
    return fail("unknown_type", "unknown message type");
  }
  const std::int64_t game_id = int_field(msg, "game_id");
  try {
    return dispatch_game(client, me, msg, type, game_id);
  } catch (const DbError& e) {
    if (!e.storage_failure()) throw;
    std::lock_guard lobby_lock(mutex_);
    return storage_failed(game_id, e);
  }
}

Outcome Hub::dispatch_game(Client* client, const PlayerRecord& me, const json& msg,
                           const std::string& type, std::int64_t game_id) {
  if (type == "game.unwatch") {
    {
      std::lock_guard lock(clients_mutex_);
      if (auto state = clients_.find(client); state != clients_.end()) {
        state->second.watched.erase(game_id);
      }
    }
    std::shared_ptr<GameRoom> room;
    {
      std::lock_guard lobby_lock(mutex_);
      room = lobby_.shared_room(game_id);
    }
    if (room != nullptr) {
      std::lock_guard room_lock(room->mutex());
      room->unwatch(client);
    }
    std::lock_guard lobby_lock(mutex_);
    lobby_.evict_idle();
    return std::nullopt;
  }
  std::shared_ptr<GameRoom> room;
  // Held for the rest of the request, without the Lobby lock.
  std::unique_lock<std::mutex> room_lock;
  if (auto f = lock_room(game_id, room, room_lock)) return f;
  // A private game is invisible to anyone who holds no seat and brings no invite: every
  // request about it gets the answer a missing game gets.
  if (!room->may_view(me.id, optional_string(msg, "invite"))) {
    return fail("not_found", "no such game");
  }

  if (type == "game.board") return room->send_board(client);  // board_once.h
  if (type == "game.join") {
    // The cap on open games per player (a seat taken already is the room's error to give).
    if (room->status() == GameStatus::kOpen && !room->seat_of(me.id)) {
      if (auto f = lobby_.may_take_open_seat(me.id)) return f;
    }
    const auto commitment = optional_commitment(msg);  // contributions.h
    if (auto* f = std::get_if<Failure>(&commitment)) return *f;
    // The last seat starts the reveal round: a budget per player and address.
    if (room->status() == GameStatus::kOpen && !room->seat_of(me.id) &&
        static_cast<int>(room->record().seats.size()) + 1 == room->record().options.players) {
      if (auto f = charge_round(client, me)) return f;
    }
    if (auto f = room->join(me, optional_small_int(msg, "seat"), optional_string(msg, "invite"),
                            std::get<std::string>(commitment))) {
      return f;
    }
    lobby_.note(room);
    watch(client, room.get(), me.id, /*always=*/true);  // a seat is always watched
    room_lock.unlock();
    lobby_.changed();
    return std::nullopt;
  }
  if (type == "game.leave") {
    if (auto f = room->leave(me.id)) return f;
    lobby_.note(room);
    room_lock.unlock();
    lobby_.changed();
    return std::nullopt;
  }
  if (type == "game.start") {
    if (room->status() == GameStatus::kOpen && me.id == room->record().creator.id &&
        !room->reveal_deadline() && room->record().seats.size() >= 2) {
      if (auto f = charge_round(client, me)) return f;
    }
    if (auto f = room->start(me.id)) return f;
    lobby_.note(room);
    room_lock.unlock();
    lobby_.changed();
    return std::nullopt;
  }
  if (type == "game.commit" || type == "game.contribute") {  // hub_contributions.cpp
    return contribution_message(client, me, msg, type, room, room_lock);
  }
  if (type == "game.invite") {
    std::string code;
    if (auto f = room->new_invite(me.id, code)) return f;
    json reply{{"type", "game.invite"}, {"game_id", room->id()}, {"invite", code}};
    if (auto url = invite_url(room->id(), code); !url.empty()) reply["invite_url"] = url;
    client->deliver(make_message(reply));
    return std::nullopt;
  }
  if (type == "game.invite_friend") return invite_friend(client, me, msg, *room, room_lock);
  if (type == "game.watch") {
    if (auto f = room->may_watch(me.id)) return f;
    return watch(client, room.get(), me.id);
  }
  if (type == "game.action" || type == "game.undo") {
    const int seq = small_int_field(msg, "seq");
    Outcome outcome;
    if (type == "game.action") {
      if (!msg.contains("action") || !msg["action"].is_object()) {
        return fail("bad_message", "field 'action' must be an object");
      }
      json action_json = msg["action"];
      action_json["player"] = 0;  // replaced by the sender's seat; a client never chooses it
      const Action action = protocol::action_from_json(action_json);
      outcome = room->act(me.id, seq, action);
    } else {
      outcome = room->undo(me.id, seq);
    }
    if (outcome && outcome->code == "stale") {
      send_error(client, *outcome, msg.value("req", json(nullptr)));
      // The full state that follows costs like a game.watch (its message is cached per seq,
      // so this is about bytes, not work).
      if (charge_client(client, kStaleCost)) {
        room->send_state(client, me.id);
      } else {
        send_error(client, fail("rate_limited", "too many stale requests; slow down"),
                   msg.value("req", json(nullptr)));
      }
      return Failure{};  // answered already
    }
    return outcome;
  }
  if (type == "chat.send") return room->chat(me, string_field(msg, "text"));
  if (type == "game.chat_read") {
    // A seated player's read mark of the players' chat (chat_comforts.h): one upsert.
    if (!room->seat_of(me.id)) return fail("not_seated", "only a seated player has a read mark");
    const std::int64_t up_to = int_field(msg, "up_to");
    if (up_to <= 0) return fail("bad_message", "field 'up_to' must be a chat line id");
    mark_chat_read(store_, me.id, room->id(), up_to);
    return std::nullopt;
  }
  if (type == "game.preview_battle") return preview_battle(client, *room, me.id, msg);
  if (type == "game.reach") return reach(client, *room, me.id, msg);
  if (type == "game.skip_turn") return clocks_->skip_turn(*room, me.id);
  if (type == "game.vote_expel") {
    return clocks_->vote_expel(*room, me.id, small_int_field(msg, "seat"));
  }
  if (type == "game.take_back") return clocks_->take_back(*room, me.id);
  if (type == "game.standing_orders") return standing_->request(client, *room, me.id, msg);
  if (type == "game.vacation") {
    return clocks_->declare_vacation(*room, me.id, small_int_field(msg, "days"));
  }
  return fail("unknown_type", "unknown message type");
}

// A seated player's preview of a Battle (server/games/battle_preview_request.h): from his own view.
Outcome Hub::preview_battle(Client* client, const GameRoom& room, std::int64_t player_id,
                            const json& msg) {
  if (room.status() != GameStatus::kRunning || room.state() == nullptr) {
    return fail("not_running", "the game is not running");
  }
  const std::optional<int> seat = room.seat_of(player_id);
  if (!seat) return fail("not_seated", "only a seated player can preview his attacks");
  auto reply = battle_preview_reply(*room.state(), *seat, room.id(), msg);
  if (auto* failure = std::get_if<Failure>(&reply)) return *failure;
  client->deliver(make_message(std::get<json>(reply)));
  return std::nullopt;
}

// A seated player's unit's whole reach this turn (server/games/reach.h).
Outcome Hub::reach(Client* client, const GameRoom& room, std::int64_t player_id, const json& msg) {
  if (room.status() != GameStatus::kRunning || room.state() == nullptr) {
    return fail("not_running", "the game is not running");
  }
  const std::optional<int> seat = room.seat_of(player_id);
  if (!seat) return fail("not_seated", "only a seated player moves units");
  auto reply = reach_reply(*room.state(), *seat, room.id(), msg);
  if (auto* failure = std::get_if<Failure>(&reply)) return *failure;
  client->deliver(make_message(std::get<json>(reply)));
  return std::nullopt;
}

}  // namespace viktory::server
