// Looking back at a finished game: each player's chances of winning at the start of the Player
// Turns, and what the computer would have played where a player's chances fell most
// (docs/ai.md, "Looking back").
//
// Only for a finished game, whose whole history is public: the analysis replays it with the
// engine from its first state and its actions and works on the true states (every tile, as
// they lay). At each sampled turn start it plays `playouts` continuations with the heuristic
// for every seat, each with a generator of its own (seeded from `seed`, the turn and the
// playout; never the game's dice), until the game ends or `playout_rounds` rounds have been
// played; an unfinished continuation is adjudicated by the evaluation (evaluate.h), each
// player still in judged at the start of his next turn (the moment the evaluation was fitted
// for), the estimates scaled to sum to 1. A player's chance is the
// mean over the playouts: the chances of a point sum to 1 (less only if a game ends with no
// winner). Then, for each player, his largest drops between two of his turns: the search
// (search.h) is asked, from his view and his public history, at each of his decisions of the
// turn that began the drop, what it would play, and the first decision where it differs from
// what he played is reported. The same inputs and settings always give the same result.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "action.h"
#include "state.h"

namespace viktory::ai {

struct LookbackSettings {
  std::uint64_t seed = 1;  // the playouts' and the searches' randomness (the server: the game id)
  int playouts = 16;       // continuations per sampled turn start
  // A continuation plays this many rounds (a Player Turn of each player still in); then each
  // player still in is judged by the evaluation at the start of his next turn.
  int playout_rounds = 3;
  // A point at every Player Turn's start when the game has at most this many turns; else at
  // every k-th turn start, k the smallest stride that keeps the points at most this many.
  int max_points = 120;
  int drops_per_player = 3;
  double min_drop = 0.05;      // smaller falls are not reported
  int search_iterations = 48;  // rollouts of each search
  int max_decisions = 6;       // of the player's decisions of the turn, the first n are searched
};

struct LookbackPoint {
  int seq = 0;   // actions played before it (the replay's step of this state)
  int turn = 0;  // GameState::turn
  int current = kNoPlayer;
  bool final = false;           // the end of the game: the result itself
  std::vector<double> chances;  // by seat
};

struct LookbackDrop {
  int player = kNoPlayer;
  int from_point = 0;  // indices into Lookback::points
  int to_point = 0;
  double before = 0;
  double after = 0;
  int turn = 0;  // his turn within [from, to) whose decisions were searched (0: none)
  int decisions_searched = 0;
  bool differs = false;  // the search chose otherwise at decision `seq` (the rest then is set)
  int seq = 0;           // the action's number (1-based); the state before it is step seq - 1
  Action played;
  Action suggested;
};

struct Lookback {
  int stride = 1;  // turns between points (1: every Player Turn)
  std::vector<LookbackPoint> points;
  std::vector<LookbackDrop> drops;  // by player, then largest first
  bool complete = true;             // false when cancelled
};

// `start`: the game's first state (new_game of its options and seed, or a stored position);
// `actions`: every action of the game, in order, up to its end. Throws std::invalid_argument
// when an action does not apply or the game is not over at the end. Stops early (complete =
// false) when `cancel` becomes true.
// Gives a copy of a game's state a generator of its own (and no scripted dice): what a
// playout or a hypothetical action rolls is never the game's own luck.
void use_own_dice(GameState& s, std::uint64_t seed);

Lookback look_back(const GameState& start, const std::vector<Action>& actions,
                   const LookbackSettings& settings, const std::atomic<bool>* cancel = nullptr);

}  // namespace viktory::ai
