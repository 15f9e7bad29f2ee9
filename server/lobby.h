// The registry of games: creates them, keeps their rooms in memory (open games always, others
// while someone uses them), and tells lobby subscribers about the open public games.
//
// Not thread-safe: the Hub serialises all calls.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <variant>

#include "common.h"
#include "game_room.h"
#include "store.h"

namespace viktory::server {

struct CreateRequest {
  Options options;  // options.players = seats
  bool is_private = false;
  int seat = 0;  // the creator's seat
};

class Lobby {
 public:
  Lobby(Store& store, Metrics& metrics, RoomLimits limits);

  // Creates an open game with the creator seated. Returns the room or why not.
  std::variant<GameRoom*, Failure> create(const PlayerRecord& creator, const CreateRequest& req);
  // The room of a game, loaded from the store on first use; nullptr when there is no such game.
  GameRoom* room(std::int64_t game_id);

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
  std::map<std::int64_t, std::unique_ptr<GameRoom>> rooms_;
  std::set<Subscriber*> subscribers_;
  std::string last_sent_;
};

}  // namespace viktory::server
