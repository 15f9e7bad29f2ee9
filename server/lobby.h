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
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
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
  std::string address;  // the creator's client address (caps on computer games); may be empty
};

class Lobby {
 public:
  Lobby(Store& store, Metrics& metrics, RoomLimits limits);

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

  // The lobby list (the list lock only; callable without the Lobby lock).
  void subscribe(Subscriber* subscriber);  // sends the list now and after each change
  void unsubscribe(Subscriber* subscriber);
  // Records what the list shows of a room (its summary while it is open and public); under
  // the room's lock, after anything that may change an open game (join, leave, start).
  void note(const std::shared_ptr<GameRoom>& room);
  // Call after anything that may change the open list (with no room's lock held); re-sends
  // it when it changed. Notes the listed rooms again first, locking each: only open games are
  // listed, and an open game is never busy with an action or its commit.
  void changed();
  nlohmann::json open_games() const;

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
  nlohmann::json open_games_locked() const;  // under list_mutex_

  std::map<std::int64_t, std::shared_ptr<GameRoom>> rooms_;
  std::map<std::int64_t, std::string> damaged_;
  std::set<std::int64_t> unavailable_;
  // The list lock: a leaf, taken under a room's lock (note) or alone.
  mutable std::mutex list_mutex_;
  std::set<Subscriber*> subscribers_;
  std::string last_sent_;
  struct Listed {
    std::weak_ptr<GameRoom> room;
    nlohmann::json summary;
  };
  std::map<std::int64_t, Listed> listed_;  // the open public games, by id
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
