// Random legal play, shared by the property test and the benchmarks.
//
// The player is random but not uniform: a uniformly random player wanders, rarely fights and
// almost never finishes a game, so a property test driven by it would hardly reach combat.
// This one weighs its legal options: it fights the Battles it may start, bombards, builds,
// places its Reserve and moves towards the enemy more often than away from him.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "game.h"

namespace viktory::testing {

// A small deterministic generator for choosing actions (independent of the game's dice).
struct Chooser {
  std::uint64_t state;
  explicit Chooser(std::uint64_t seed) : state(seed * 0x9E3779B97F4A7C15ULL + 1) {}
  std::uint64_t next() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
};

// Picks one of `legal` (the legal actions of the decider, as returned by legal_actions) by
// the weights described above. Concedes only when `concede_one_in` > 0, with that odds, or
// when nothing else is left. `legal` must not be empty.
Action choose_action(const GameState& state, const std::vector<Action>& legal, Chooser& chooser,
                     int concede_one_in = 0);

// Picks a random legal action for whoever must decide (see choose_action).
Action random_action(const GameState& state, Chooser& chooser, int concede_one_in = 0);

struct PlayStats {
  int actions = 0;
  bool finished = false;
};

// Plays until the game ends or `max_actions`; calls `after` after every applied action.
// Throws std::logic_error if the engine refuses an action it listed as legal.
PlayStats play_random_game(GameState& state, Chooser& chooser, int max_actions,
                           const std::function<void(const GameState&, const Action&,
                                                    const std::vector<Event>&)>& after = {});

}  // namespace viktory::testing
