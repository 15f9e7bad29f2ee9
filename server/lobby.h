// The registry of games: creates them, keeps their rooms in memory (open games always, others
// while someone uses them), and tells lobby subscribers about the open public games.
//
// Not thread-safe: the Hub's mutex serialises all calls. Every room it touches it locks
// (GameRoom::mutex()), since a room may be acting for another thread meanwhile; so a caller
// never holds a room's lock while calling the Lobby.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "common.h"
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
};

class Lobby {
 public:
  Lobby(Store& store, Metrics& metrics, RoomLimits limits);

  // Told of every change of every room from now on (seat controllers, clocks), in order.
  void add_observer(RoomObserver* observer) { observers_.list.push_back(observer); }

  // Creates an open game with the creator seated. Returns the room or why not. A private
  // game's invite code goes to `invite_code` (only its hash is stored).
  std::variant<GameRoom*, Failure> create(const PlayerRecord& creator, const CreateRequest& req,
                                          std::string* invite_code = nullptr);
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

  void subscribe(Subscriber* subscriber);  // sends the list now and after each change
  void unsubscribe(Subscriber* subscriber);
  // Drops a subscriber from the lobby and every room (a connection closed).
  void forget(Subscriber* subscriber);
  // Call after anything that may change the open list; re-sends it when it changed.
  void changed();
  // Frees rooms that are not open and that nobody watches.
  void evict_idle();

  nlohmann::json open_games() const;
  std::size_t rooms_in_memory() const { return rooms_.size(); }

 private:
  Store& store_;
  Metrics& metrics_;
  RoomLimits limits_;
  std::map<std::int64_t, std::shared_ptr<GameRoom>> rooms_;
  std::map<std::int64_t, std::string> damaged_;
  std::set<std::int64_t> unavailable_;
  std::set<Subscriber*> subscribers_;
  std::string last_sent_;
  struct Observers : RoomObserver {
    std::vector<RoomObserver*> list;
    void on_room_changed(GameRoom& room) override {
      for (RoomObserver* o : list) o->on_room_changed(room);
    }
  };
  Observers observers_;
};

}  // namespace viktory::server
