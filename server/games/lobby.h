// The registry of games: creates them, keeps their rooms in memory (open games always, others
// while someone uses them), and tells lobby subscribers about the open public games.
//
// Two locks (docs/server.md, "Threads and ordering"): which rooms exist (create, room,
// shared_room, reload, set_unavailable, evict_idle, rooms) is guarded by the caller, the Hub's
// Lobby lock, held for a lookup; the lobby list (its subscribers and the summaries of the open
// public games) by the Lobby's own list lock, a leaf held for a few lines. The list is kept
// from summaries the rooms' changes record (note(), under the room's lock), so listing the
// lobby locks no room: a room busy with an action or a commit never stalls it. The calls that
// need the Lobby lock lock a room only when it cannot be busy (a fresh one) or try to
// (evict_idle); a caller never holds a room's lock while calling one of them.
//
// The open list is paged and oldest first (a flood of new games changes its last page, not
// its first): a subscriber chooses a page (offset, size) and a speed, is sent it whole once,
// then only what changes (lobby.changes: games gone, games new or changed, the count), built
// by a thread of the Lobby's own from what he was last sent, coalesced and within his byte
// budget (docs/protocol.md, "Lobby"). Open games are capped per player, per client address
// and in all (LobbyLimits); with several servers on one database, the caps per player and in
// all count every server's open games (the database's), the cap per address this server's.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "common.h"
#include "computer_caps.h"
#include "game_room.h"
#include "store.h"

namespace viktory::server {

struct CreateRequest {
  Options options;  // options.players = seats
  bool is_private = false;
  int seat = 0;  // the creator's seat
  SpectatorMode spectators = SpectatorMode::kLive;
  int spectator_delay = 0;  // turns, 1..kMaxSpectatorDelay for SpectatorMode::kDelayed
  // Seats played by computer players (seat -> level, ai::to_string); the game starts when
  // the human seats are taken. Without `creator_plays` every seat must be a computer's and
  // the creator watches.
  std::map<int, std::string> computers;
  bool creator_plays = true;
  nlohmann::json clock;  // clock_options_to_json, or null: no clock (shown in the summaries)
  std::string address;   // the creator's client address, for the cap per address ("": none)
  // Rated (docs/server.md, "Ratings"): absent, rated when no seat is a computer's; refused
  // with computer seats.
  std::optional<bool> rated;
  // The creator's contribution commitment (hex, checked; contributions.h); empty: none yet.
  std::string commitment;
};

// The lobby's limits (flags in config.cpp; docs/server.md, "Limits and robustness").
struct LobbyLimits {
  int open_games_per_player = 5;    // open games a player holds a seat in (created or joined)
  int open_games_per_address = 20;  // open games created from one client address
  int open_games = 1000;            // open games in all (public and private)
  int page_size = 10;               // games on a page of the open list when none is asked
  int max_page_size = 50;
  // What lobby.changes may send one subscriber: this many bytes a minute, at most a quarter of
  // it at once (a page asked for with lobby.subscribe is not counted: that request is).
  int subscriber_bytes_per_minute = 24000;
};

// What a subscriber of the open list sees: its speed ("" for all, "live", "daily",
// "untimed": GameRoom::speed_of), from `offset`, at most `limit` games.
struct LobbyPage {
  std::string speed;
  int offset = 0;
  int limit = 10;
};

// A page asked for (lobby.subscribe, GET /api/games): `speed` "" (all), "live", "daily" or
// "untimed"; `offset` from 0; `limit` 1 to the maximum page size (absent: the limits' page
// size). Refused (bad_page) otherwise.
Outcome make_lobby_page(const LobbyLimits& limits, const std::string& speed,
                        std::optional<std::int64_t> offset, std::optional<std::int64_t> limit,
                        LobbyPage& page);

class Lobby {
 public:
  // `leases`: several servers share the database (docs/postgresql.md); a game is loaded only
  // once this process holds its lease, and handed back when its room is freed.
  Lobby(Store& store, Metrics& metrics, RoomLimits limits, LobbyLimits lobby_limits = {},
        GameLeases* leases = nullptr);
  ~Lobby();
  Lobby(const Lobby&) = delete;
  Lobby& operator=(const Lobby&) = delete;
  const LobbyLimits& lobby_limits() const { return lobby_limits_; }

  // Told of every change of every room from now on (seat controllers, clocks), in order.
  void add_observer(RoomObserver* observer) { observers_.list.push_back(observer); }
  // Caps on games with computer seats, checked by make_game (none by default).
  void set_computer_caps(ComputerCaps* caps) { computer_caps_ = caps; }

  // Creates an open game with the creator seated. Returns the room or why not. A private
  // game's invite code goes to `invite_code` (only its hash is stored). Under the Lobby lock:
  // make_game() then add_game().
  std::variant<GameRoom*, Failure> create(const PlayerRecord& creator, const CreateRequest& req,
                                          std::string* invite_code = nullptr);
  // The two halves of create(): make_game checks the request and writes the game (and its
  // computers) to the store, needing no lock; add_game makes it known (under the Lobby lock)
  // and starts it if every seat is taken (a game of computers).
  std::variant<std::unique_ptr<GameRoom>, Failure> make_game(const PlayerRecord& creator,
                                                             const CreateRequest& req,
                                                             std::string* invite_code = nullptr);
  std::shared_ptr<GameRoom> add_game(std::unique_ptr<GameRoom> made);
  // The room of a game, loaded from the store on first use; nullptr when there is no such game
  // or when its stored data is damaged (then damaged() says why).
  GameRoom* room(std::int64_t game_id);
  // The same, shared: it stays alive while a request uses it, even if the Lobby drops it.
  std::shared_ptr<GameRoom> shared_room(std::int64_t game_id);
  // With leases: the URL of the server that serves this game now (another process holds its
  // live lease), or nothing. Asked after room() found no room.
  std::optional<std::string> elsewhere(std::int64_t game_id);
  // Why a game cannot be opened (its stored data is damaged), or nothing.
  std::optional<std::string> damaged(std::int64_t game_id) const;
  // After a storage failure: forgets the room, loads the game again from the store (the truth
  // now) and gives it the old room's subscribers, each with a fresh full state. Returns the
  // new room, or nullptr when the game can no longer be loaded (its subscribers are dropped).
  GameRoom* reload(std::int64_t game_id, std::map<Subscriber*, std::int64_t>* dropped = nullptr);
  // After a storage failure that left the stored state uncertain: forgets the room (its
  // subscribers go to `dropped`) and refuses the game until set_available().
  void set_unavailable(std::int64_t game_id, std::map<Subscriber*, std::int64_t>* dropped);
  bool unavailable(std::int64_t game_id) const { return unavailable_.count(game_id) != 0; }
  void set_available(std::int64_t game_id) { unavailable_.erase(game_id); }

  // Refused (too_many_open_games) when a seat in one more open game would pass the player's
  // cap. game.join asks before joining (make_game asks for the creator itself).
  Outcome may_take_open_seat(std::int64_t player_id) const;

  // The lobby list (the list lock only; callable without the Lobby lock).
  // Sends the page now (lobby) and then its changes (lobby.changes); subscribing again
  // replaces the page watched.
  void subscribe(Subscriber* subscriber, const LobbyPage& page = {});
  void unsubscribe(Subscriber* subscriber);
  // Records what the list shows of a room (its summary while it is open and public); under
  // the room's lock, after anything that may change an open game (join, leave, start).
  void note(const std::shared_ptr<GameRoom>& room);
  // Call after anything that may change the open list (with no room's lock held): the
  // subscribers are sent what changed on their pages, soon (coalesced, within their budget).
  void changed();
  // A page of the open list: {games, count, offset, limit, speed} (GET /api/games).
  nlohmann::json open_games(const LobbyPage& page) const;
  nlohmann::json open_games() const { return open_games(LobbyPage{"", 0, 1 << 30}); }
  // Several servers on one database (peer_bus.h). The sink is told of every change of what
  // this server lists (a summary's text, or nullptr when a game leaves the list), under the
  // list lock, so it must only note it; set_listing_sink tells it the whole list first.
  void set_listing_sink(std::function<void(std::int64_t, const std::string*)> sink);
  // Another server lists an open public game (its summary), or no longer does (nullptr): the
  // lobby shows it among this server's own (a join is answered game_elsewhere, and the client
  // follows). A game this server lists itself keeps its own entry. Call changed() after.
  void list_remote(const std::string& server, std::int64_t game_id, const nlohmann::json* summary);
  // Another server is gone: its games leave the list (their next server lists them again).
  void drop_remote(const std::string& server);
  // Open games now (public and private), and how many a player holds a seat in.
  int open_count() const;
  int open_seats_of(std::int64_t player_id) const;

  // Drops a subscriber from the lobby and every room (a connection closed). Takes the Lobby
  // lock itself, a moment at a time: the rooms are unwatched without it, so a busy room
  // delays only the closing connection.
  void forget(Subscriber* subscriber, std::mutex& lobby_mutex);
  // Frees rooms that are not open and that nobody watches. A room busy for another thread
  // is in use: it is left for a later call.
  void evict_idle();
  // Every room in memory.
  std::vector<std::shared_ptr<GameRoom>> rooms() const;
  std::size_t rooms_in_memory() const { return rooms_.size(); }

 private:
  Store& store_;
  Metrics& metrics_;
  RoomLimits limits_;
  ComputerCaps* computer_caps_ = nullptr;
  LobbyLimits lobby_limits_;
  GameLeases* leases_ = nullptr;
  // Takes the game's lease (leases_): whether this process serves it now.
  bool take_lease(std::int64_t game_id);

  std::map<std::int64_t, std::shared_ptr<GameRoom>> rooms_;
  std::map<std::int64_t, std::string> damaged_;
  std::set<std::int64_t> unavailable_;
  // The list lock: a leaf, taken under a room's lock (note) or alone.
  mutable std::mutex list_mutex_;
  using Time = std::chrono::steady_clock::time_point;
  struct Subscription {
    LobbyPage page;
    std::vector<std::pair<std::int64_t, std::uint64_t>> sent;  // his page: ids and versions
    std::size_t sent_count = 0;
    double tokens = 0;  // bytes he may be sent now
    Time refilled;
    bool dirty = false;  // something changed since his page was last sent
    Time due;            // when to look at it (coalescing, or waiting for the budget)
  };
  std::map<Subscriber*, Subscription> subscribers_;
  struct Listed {
    std::weak_ptr<GameRoom> room;
    std::string server;  // "" when this server serves it, else the one that does
    nlohmann::json summary;
    std::string text;  // the summary as sent
    std::string speed;
    std::uint64_t version = 0;  // changes with the summary
  };
  std::map<std::int64_t, Listed> listed_;  // the open public games, by id: oldest first
  std::function<void(std::int64_t, const std::string*)> listing_sink_;
  std::uint64_t next_version_ = 1;
  std::map<std::string, int> speed_counts_;  // listed games by speed
  std::uint64_t generation_ = 0;             // changes of listed_
  std::uint64_t marked_generation_ = 0;      // the last one changed() told the subscribers of
  // Every open game (public or private) with its seated players and its creator's address:
  // the caps' counts.
  struct Open {
    std::vector<std::int64_t> players;
    std::string address;
  };
  std::map<std::int64_t, Open> open_;
  std::map<std::int64_t, int> open_seats_;      // player -> open games with his seat
  std::map<std::string, int> open_by_address_;  // creator's address -> open games
  struct Pending {
    std::int64_t player = 0;  // the creator when he plays
    std::string address;
  };
  std::map<std::int64_t, Pending> new_games_;  // made, not yet added: their reservations
  // Creations between their check and add_game (make_game writes meanwhile, with no lock).
  std::map<std::int64_t, int> pending_players_;
  std::map<std::string, int> pending_addresses_;
  int pending_total_ = 0;

  void release_pending(std::int64_t player, const std::string& address);
  // Under list_mutex_.
  void release_pending_locked(std::int64_t player, const std::string& address);
  void count_open(std::int64_t id, const GameRoom* room);  // room: nullptr when gone
  void forget_open(std::int64_t id) { count_open(id, nullptr); }
  void unlist(std::map<std::int64_t, Listed>::iterator it);
  struct Built {
    std::vector<const Listed*> games;
    std::size_t count = 0;
  };
  Built build_page(const LobbyPage& page) const;
  void flush(Subscriber* subscriber, Subscription& sub, Time now);

  // The thread that sends lobby.changes.
  void run_changes();
  std::condition_variable changes_wanted_;
  bool stopping_ = false;
  std::thread changes_thread_;
  struct Observers : RoomObserver {
    std::vector<RoomObserver*> list;
    void on_room_changed(GameRoom& room) override {
      for (RoomObserver* o : list) o->on_room_changed(room);
    }
    void on_watchers_changed(GameRoom& room, std::int64_t player_id) override {
      for (RoomObserver* o : list) o->on_watchers_changed(room, player_id);
    }
  };
  Observers observers_;
};

}  // namespace viktory::server
