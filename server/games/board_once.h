// The static board of a game (protocol/board.h), sent to each connection once: before the first
// view of the game it receives, and again when it asks for it ("game.board",
// docs/protocol.md). Views and deltas leave the board's fields out of their hexes.
//
// Owned by a GameRoom and used under the room's mutex. It remembers which subscribers were sent
// the board; the room forgets a subscriber when it stops watching (also when its connection
// closes, Lobby::forget), so a new connection, even one at a reused address, gets it again.
#pragma once

#include <cstdint>
#include <set>

#include "common.h"
#include "state.h"

namespace viktory::server {

class BoardOnce {
 public:
  // Delivers `view_message` (a game.state or game.update) to `subscriber`, preceded by the
  // board when this subscriber has not been sent it yet.
  void deliver(Subscriber* subscriber, const Message& view_message, std::int64_t game_id,
               const GameState& state);
  // Sends the board now, whether it was sent before or not (the client asked for it).
  void send(Subscriber* subscriber, std::int64_t game_id, const GameState& state);
  void forget(Subscriber* subscriber) { sent_.erase(subscriber); }
  void forget_all() { sent_.clear(); }
  // The board's id (a digest of it), as game.state carries it; "" before the game starts.
  const std::string& id(std::int64_t game_id, const GameState& state);

 private:
  const Message& message(std::int64_t game_id, const GameState& state);

  Message message_;  // game.board, built once: the board never changes during a game
  std::string id_;
  std::set<const Subscriber*> sent_;
};

}  // namespace viktory::server
