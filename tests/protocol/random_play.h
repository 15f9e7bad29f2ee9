// Random legal play for the protocol tests: round-trips must hold for states the engine really
// reaches, not only for new games.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "game.h"

namespace viktory::protocol_testing {

// xorshift64: picks actions, independent of the game's own generator.
class Picker {
 public:
  explicit Picker(std::uint64_t seed)
      : state_(seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL) {}
  std::size_t below(std::size_t n) {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return static_cast<std::size_t>(state_ % n);
  }

 private:
  std::uint64_t state_;
};

// Applies up to `count` random legal actions of whoever must decide (never conceding, and
// ending a phase only one time in eight so that units move and fight). Calls `after` with
// the state after each action. Returns how many actions were applied.
inline int play_random(GameState& state, Picker& picker, int count,
                       const std::function<void(const GameState&, const Action&,
                                                const std::vector<Event>&)>& after = {}) {
  int applied = 0;
  for (; applied < count; ++applied) {
    const int who = decider(state);
    if (who == kNoPlayer) break;
    std::vector<Action> choices;
    std::vector<Action> end_phase;
    for (const Action& a : legal_actions(state, who)) {
      if (a.kind == ActionKind::kConcede) continue;
      (a.kind == ActionKind::kEndPhase ? end_phase : choices).push_back(a);
    }
    if (choices.empty() || (!end_phase.empty() && picker.below(8) == 0)) {
      choices.insert(choices.end(), end_phase.begin(), end_phase.end());
    }
    if (choices.empty()) break;
    const Action action = choices[picker.below(choices.size())];
    std::vector<Event> events;
    if (auto error = apply_in_place(state, action, &events)) {
      ADD_FAILURE() << "a listed legal action was refused: " << error->code;
      break;
    }
    if (after) after(state, action, events);
  }
  return applied;
}

}  // namespace viktory::protocol_testing
