// Random legal play, shared by the property test and the benchmarks.
#pragma once

#include <cstdint>
#include <functional>

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

// Picks a random legal action for whoever must decide; never concedes (unless told) and
// ends a phase only now and then, so games go somewhere.
Action random_action(const GameState& state, Chooser& chooser, int concede_one_in = 0);

struct PlayStats {
  int actions = 0;
  bool finished = false;
};

// Plays until the game ends or `max_actions`; calls `after` after every applied action.
PlayStats play_random_game(GameState& state, Chooser& chooser, int max_actions,
                           const std::function<void(const GameState&, const Action&,
                                                    const std::vector<Event>&)>& after = {});

}  // namespace viktory::testing
