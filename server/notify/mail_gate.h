// The e-mail batching rule: at most one mail per player per game per turn, and none while the
// player has the game open (he sees the turn come round anyway). Push and webhooks are not
// limited by it: a push replaces the previous one (Topic, tag) and a group chat wants each turn.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <utility>

namespace viktory::notify {

class TurnMailGate {
 public:
  // True when a mail to `player` about `turn` of `game` may go out now, and records it; false
  // when he is on the game page or was already mailed for this turn (or a later one).
  bool admit(std::int64_t player, std::int64_t game, int turn, bool on_game_page);
  // Drops what is kept for a game (when it ends), so memory follows the running games.
  void forget_game(std::int64_t game);
  std::size_t size() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::pair<std::int64_t, std::int64_t>, int> last_mailed_turn_;  // (game, player)
};

}  // namespace viktory::notify
