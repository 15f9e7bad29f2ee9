// The value a game room hands to the turn notifications after an action (or the start of the
// game) is committed: who must act now, and only facts every seat may know. The room calls the
// hook under its own lock; the hook only queues the value and returns (turn_notifications.h
// does the rest on a thread of its own), so a notification never delays a game.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace viktory::server {

struct TurnChange {
  // reminder: the decider's clock runs out soon (game_clocks.h); `deadline` and `time_left`.
  // invited: a seated player invites a friend (`decider_player`) into the open game
  // (game.invite_friend, friends.h): `inviter` and, for a private game, its `invite` code.
  enum class Kind { turn, started, finished, reminder, invited };
  Kind kind = Kind::turn;
  std::int64_t game_id = 0;
  int seq = 0;
  int turn = 0;   // the engine's Player Turn counter (0 during setup)
  int round = 0;  // 0 during setup, then 1, 2, ...
  int decider_seat = -1;
  std::int64_t decider_player = 0;
  // Whose Player Turn it is: another seat than the decider's when he must decide out of his
  // turn (casualties, a retreat ...).
  int turn_seat = -1;
  struct Seat {
    int seat = 0;
    std::int64_t player_id = 0;
    std::string name;
  };
  std::vector<Seat> seats;
  std::vector<int> winners;            // Kind::finished
  std::int64_t deadline = 0;           // Kind::reminder: ms since the epoch
  std::string time_left;               // Kind::reminder: for people, "6 hours"
  std::int64_t time_left_ms = -1;      // Kind::reminder: the same in ms, for the reader's words
  std::set<std::int64_t> on_the_page;  // players who have the game open right now
  std::string inviter;                 // Kind::invited: the inviting player's name
  std::string invite;                  // Kind::invited: a private game's invite code
};

using TurnHook = std::function<void(TurnChange)>;

}  // namespace viktory::server
