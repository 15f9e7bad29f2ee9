// Routes every client request: WebSocket messages (auth, lobby, games, chat) and the JSON API
// of the HTTP side. Owns the per-connection state (who is signed in, rate limit) under a lock
// of its own, and the Lobby lock (which rooms exist: finding a room); each game has a mutex of
// its own (GameRoom::mutex()), so actions of different games run on different threads at the
// same time. A message is parsed with no lock held; database work (sign-in, lists, creating a
// game) runs with none held either. Lock order: the Lobby lock, then a room's, then the
// connections' or the lobby list's; never the other way (docs/server.md).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "catch_up.h"
#include "common.h"
#include "computer_caps.h"
#include "friends.h"
#include "game_analysis.h"
#include "game_clocks.h"
#include "lobby.h"
#include "metrics.h"
#include "presence.h"
#include "rate_limit.h"
#include "replay.h"
#include "running_games.h"
#include "seat_controllers.h"
#include "standing_order_service.h"
#include "store.h"
#include "tutorial.h"

namespace viktory::server {

// A WebSocket connection as the Hub sees it.
class Client : public Subscriber {
 public:
  // Sends the queued messages, then a close frame (policy error) with this reason.
  virtual void close(std::string_view reason) = 0;
  // Stops reading this connection's messages until the returned function is called (once,
  // from any thread): it runs `then` (if any) on the connection's strand and reads on. The
  // connection stays alive until then. Empty when this client cannot wait (its actions are
  // then answered synchronously). Called only from inside Hub::on_message.
  using Resume = std::function<void(std::function<void()> then)>;
  virtual Resume hold_reading() { return {}; }
};

struct HubOptions {
  RoomLimits room;
  LobbyLimits lobby;        // open games, the open list's pages and its subscribers' budget
  int games_to_watch = 50;  // games listed by lobby.running
  // "Your games" (my_games, GET /api/my-games): the open and running games listed, and the
  // finished ones, newest first.
  int my_games_active = 100;
  int my_games_finished = 50;
  ReplayLimits replay;
  std::string public_url;           // for invite links; may be empty
  double messages_per_second = 20;  // token bucket per connection (a message costs 1 or more)
  double message_burst = 40;
  // All connections of one client address share a second bucket for the expensive requests
  // (full states, database lists): this many times the per-connection rate and burst.
  double address_factor = 2;
  int max_auth_failures = 3;
  double signups_per_minute = 30;  // POST /api/session per client address, burst 2x
  int max_watched_games = 16;      // games one connection may watch at once
  // GET /healthz writes to the database at most this often (seconds): while it fails, and
  // while it works.
  int health_retry_seconds = 5;
  int health_probe_seconds = 60;
  Presence* presence = nullptr;  // told of every sign-in and closed connection (presence.h)
  // Several servers on one database (docs/postgresql.md): this process's game leases. A game
  // is served only while its lease is held; a request for one another process serves is
  // refused with game_elsewhere and that server's URL.
  GameLeases* leases = nullptr;
  ComputerOptions computers;  // computer seats' workers and budget (seat_controllers.h)
  Clock* clock = nullptr;     // the clocks' time (game_clock.h); nullptr: the system clock
  // Caps on games with computer seats (computer_caps.h).
  ComputerCapsOptions computer_caps;
  // The guided first game's budget (tutorial.h).
  TutorialLimits tutorial;
  AnalysisLimits analysis;  // the look back after a game (game_analysis.h)
};

// What GET /healthz reports.
struct Health {
  bool ok = true;
  std::string detail;  // why not, for people
};

class Hub {
 public:
  Hub(Store& store, Metrics& metrics, HubOptions options);

  // `address`: the client's address (after a trusted proxy's forwarding headers), which
  // shares one rate limit for expensive requests among all its connections.
  void on_open(Client* client, std::string_view address = "");
  void on_message(Client* client, std::string_view text);
  void on_close(Client* client);

  // Everything under /api. `target` is the request target (path and query); `address` is the
  // client's address (sign-ups and replays are rate limited per address). Replays are built
  // without the lock of the game logic.
  ApiResponse handle_api(std::string_view method, std::string_view target, std::string_view body,
                         std::string_view authorization, std::string_view address = "");

  // The operator's /admin/ requests (hub_admin.cpp), only ever from loopback without a proxy's
  // headers (admin_request_allowed, checked by the HTTP session): POST /admin/chat/hide.
  ApiResponse handle_admin(std::string_view method, std::string_view path, std::string_view body);

  // Whether the database can be written (GET /healthz). Proves it with a real write now and
  // then (at most every few seconds while it fails, every minute while it works).
  Health health();

  Replays& replays() { return replays_; }
  GameAnalyses& analyses() { return analyses_; }
  // Clocks (game_clocks.h): acts on due reminders and deadlines; returns when the next one is
  // due (ms since the epoch, 0: nothing). The sweeper's timer calls it.
  std::int64_t sweep_clocks();
  // With leases, every third of their term: renews this process's leases, lets go of the games
  // another process took (their watchers are told game_elsewhere), and takes over the running
  // games with computer seats whose lease has expired (their server stopped), so that the
  // computers play on, and the open games whose lease has expired or was handed over (their
  // server stopped), so that they are listed again.
  void keep_leases();
  // Several servers (rate_limit.h, ChargeSink): the sign-up budget per client address
  // ("signup") is told to the sink as it is charged, and charged with the others' sign-ups.
  void set_charge_sink(ChargeSink sink) {
    std::lock_guard lock(clients_mutex_);
    charge_sink_ = std::move(sink);
  }
  void charge_remote(const std::string& budget, const std::string& key, double cost) {
    std::lock_guard lock(clients_mutex_);
    if (budget == "signup") signup_buckets_.spend(key, cost);
  }
  // The lobby's list: another server's games come into it (peer_bus.h). Its own lock only.
  Lobby& lobby_list() { return lobby_; }
  // Told when something new becomes due (the sweeper re-arms); nullptr to stop.
  void on_clock_due(std::function<void(std::int64_t)> f);
  // The reminder hook of the clocks; by default `room.on_turn` (the turn notifications).
  void set_clock_reminder(GameClocks::Reminder reminder);
  // Standing orders (standing_order_service.h): those scheduled and not yet due (tests).
  std::size_t standing_orders_scheduled() { return standing_->scheduled(); }
  // Computer decisions applied so far (tests).
  std::int64_t computer_decisions() const { return seats_->decisions(); }
  const SeatControllers& seat_controllers() const { return *seats_; }
  // The computer pool's figures for GET /metrics (viktory_computer_*).
  std::string computer_metrics() const { return seats_->metrics(); }
  // A game's room, loaded if need be (tests: to hold its lock as a busy room does).
  std::shared_ptr<GameRoom> room_for_testing(std::int64_t game_id);

 private:
  struct ClientState {
    std::optional<PlayerRecord> player;
    int auth_failures = 0;
    TokenBucket bucket;
    std::string address;
    std::set<std::int64_t> watched;  // games this connection watches
  };

  // Both run with no lock held, taking each lock for as long as it needs it.
  Outcome dispatch(Client* client, const std::optional<PlayerRecord>& player,
                   const nlohmann::json& msg, const std::string& type);
  Outcome dispatch_game(Client* client, const PlayerRecord& me, const nlohmann::json& msg,
                        const std::string& type, std::int64_t game_id);
  Outcome create_game(Client* client, const PlayerRecord& me, const nlohmann::json& msg);
  // tutorial.start (hub_tutorial.cpp, tutorial.h).
  Outcome start_tutorial(Client* client, const PlayerRecord& me, const nlohmann::json& msg);
  // game.invite_friend (hub_friends.cpp, friends.h): under the room's lock, released before the
  // invitation is written.
  Outcome invite_friend(Client* client, const PlayerRecord& me, const nlohmann::json& msg,
                        GameRoom& room, std::unique_lock<std::mutex>& room_lock);
  // Finds a game's room (loading it if need be); under the Lobby lock (mutex_). Whether the
  // game was cancelled the caller sees under the room's lock.
  Outcome require_room(std::int64_t game_id, std::shared_ptr<GameRoom>& room);
  // Finds a game's room under the Lobby lock, then locks the room without it (looking again
  // if the room was retired meanwhile); a cancelled game is not found.
  Outcome lock_room(std::int64_t game_id, std::shared_ptr<GameRoom>& room,
                    std::unique_lock<std::mutex>& room_lock);
  // game.action: the room is found and locked as for every request about a game (lock_room:
  // the Lobby lock only to find it); the action runs under the room's lock only.
  Outcome act(Client* client, const nlohmann::json& msg);
  // Under the room's lock. `always`: whatever the limit of watched games (a seat).
  Outcome watch(Client* client, GameRoom* room, std::int64_t player_id, bool always = false);
  // An HTTP read of the API costs what its WebSocket twin costs, from the bucket of the client
  // address that its connections share (an empty address, a caller inside the process: free).
  bool charge_address(std::string_view address, double cost);
  bool charge(ClientState& state, double cost);  // under clients_mutex_
  // The same, each under the connections' lock for a few lines.
  bool charge_client(Client* client, double cost);
  std::optional<PlayerRecord> player_of(Client* client);
  Failure storage_failed(std::int64_t game_id, const DbError& error);
  // Under the Lobby lock, once another process holds the game's lease (keep_leases, or an
  // action whose commit found it gone): the room goes, its watchers are told where the game
  // is served now; returns the game_elsewhere failure for the request that found out.
  Failure let_game_go(std::int64_t game_id);
  void send_error(Client* client, const Failure& failure, const nlohmann::json& req);
  Outcome preview_battle(Client* client, const GameRoom& room, std::int64_t player_id,
                         const nlohmann::json& msg);
  Outcome reach(Client* client, const GameRoom& room, std::int64_t player_id,
                const nlohmann::json& msg);
  nlohmann::json my_games(std::int64_t player_id);
  // games.vacation: game.vacation in each of the player's running games with a clock (at most
  // kMaxVacationGames of them, the latest), each under its room's lock in turn; the reply
  // lists per game its end or why it was refused.
  Outcome vacation_everywhere(Client* client, std::int64_t player_id, int days);
  std::optional<PlayerRecord> player_for_bearer(std::string_view authorization);
  // Leaving (hub_leaving.cpp): /api/account/export and /api/account/delete.
  static bool is_leaving_path(std::string_view path);
  ApiResponse handle_leaving_api(std::string_view method, std::string_view path,
                                 std::string_view body, std::string_view authorization,
                                 std::string_view address);
  ApiResponse export_account_api(const PlayerRecord& player);
  ApiResponse delete_account_api(const PlayerRecord& player, std::string_view body);
  std::string invite_url(std::int64_t game_id, const std::string& code) const;
  // A computer seat's decision, from a worker (no lock held): applied like a player's
  // game.action (the Lobby lock to find the room, then the room's alone); stale ones dropped.
  void apply_computer_decision(const ComputerDecision& decision);
  // Applies the standing orders that are due (hub_standing_orders.cpp), one game at a time
  // like a request; part of sweep_clocks().
  void sweep_standing_orders();
  // Fair play's reveal rounds (hub_contributions.cpp): the rounds past their deadline are ended
  // (game_room_reveal.cpp), each under its room's lock; returns the next deadline (0: none).
  std::int64_t sweep_reveal_rounds();
  // game.commit and game.contribute, under the room's lock (released before the lobby is told).
  Outcome contribution_message(Client* client, const PlayerRecord& me, const nlohmann::json& msg,
                               const std::string& type, std::shared_ptr<GameRoom>& room,
                               std::unique_lock<std::mutex>& room_lock);
  // A reveal round about to start through `me` (the last seat, an early start): one of his
  // and his address's budget (ContributionOptions::rounds_per_hour), or rate_limited.
  Outcome charge_round(Client* client, const PlayerRecord& me);
  // The rooms' limits with the Hub's clock for the reveal rounds' deadlines, and the rounds'
  // requests handed to a seat's connections that do not watch the game (ask_elsewhere).
  RoomLimits room_limits(const HubOptions& options);
  void ask_elsewhere(std::int64_t player_id, std::int64_t game_id, const nlohmann::json& request);
  // After a sign-in: what the player's seats owe reveal rounds that began while he had no
  // connection open, asked on this one (his browser answers from any page).
  void ask_pending_rounds(Client* client, std::int64_t player_id);

  // The Lobby lock: which rooms exist (finding a room, loading one, eviction, reloads) and the
  // storage's health below. Never held while waiting for a room's lock or for the writer.
  std::mutex mutex_;
  // The connections' lock: clients_ and the rate limits' buckets. A leaf held for a few lines
  // (also under a room's lock, by watch()).
  std::mutex clients_mutex_;
  Store& store_;
  Metrics& metrics_;
  HubOptions options_;
  ComputerCaps computer_caps_;  // before the Lobby, which checks them
  Lobby lobby_;
  Replays replays_;  // has its own locks and database connection
  // game.since (catch_up.h): its own lock and read-only connection
  CatchUps catch_ups_;
  std::map<Client*, ClientState> clients_;
  AddressBuckets signup_buckets_;  // by client address (shared_budget_key)
  ChargeSink charge_sink_;         // under clients_mutex_
  AddressBuckets address_buckets_;
  AddressBuckets export_buckets_{1.0 / 600, 1};  // by player: one export per 10 minutes
  // Reveal rounds started, by player and by address (charge_round).
  AddressBuckets round_player_buckets_{options_.room.contributions.rounds_per_hour / 3600.0,
                                       1.0 * options_.room.contributions.rounds_per_hour};
  AddressBuckets round_address_buckets_{2 * options_.room.contributions.rounds_per_hour / 3600.0,
                                        2.0 * options_.room.contributions.rounds_per_hour};
  // The database's health: false after a storage failure until a probe write succeeds.
  bool storage_ok_ = true;
  std::string storage_problem_;
  std::chrono::steady_clock::time_point last_probe_;
  SystemClock system_clock_;
  std::unique_ptr<GameClocks> clocks_;
  std::unique_ptr<StandingOrderService> standing_;
  std::unique_ptr<GamesToWatch> games_to_watch_;  // lobby.running (running_games.h)
  Tutorials tutorials_;                           // the guided first game (tutorial.h)
  Friends friends_{store_};                       // follows and invitations (friends.h)
  // The look back after a game, on a worker of its own (game_analysis.h).
  GameAnalyses analyses_{store_, options_.analysis};
  // Last: destroyed first, so its workers stop before what they call into goes away.
  std::unique_ptr<SeatControllers> seats_;
};

}  // namespace viktory::server
