// Helpers shared by the libFuzzer harnesses of tests/fuzz (see docs/fuzzing.md).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "game.h"
#include "view.h"

namespace viktory::fuzz {

// A finding that is not a crash by itself (a broken invariant, an exception the contract
// does not allow): print it and abort, so libFuzzer saves the input as a crash.
[[noreturn]] inline void report(std::string_view what) {
  std::fprintf(stderr, "fuzz finding: %.*s\n", static_cast<int>(what.size()), what.data());
  std::abort();
}

inline void require(bool condition, std::string_view what) {
  if (!condition) report(what);
}

inline std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static_assert(kSpectator == -1, "the viewer loops below start at the spectator");

// What the engine must survive for any state it works on: the views of every seat and of a
// spectator, the legal actions of every seat, every legal action of the decider applied (each
// must succeed and keep the invariants), and each seat conceding (allowed at any moment).
// `apply_limit` bounds the legal actions tried per state.
inline void exercise_state(const GameState& state, std::size_t apply_limit) {
  const int players = static_cast<int>(state.players.size());
  for (int viewer = kSpectator; viewer < players; ++viewer) (void)view_for(state, viewer);
  const int who = decider(state);
  for (int p = 0; p < players; ++p) {
    GameState conceded = state;
    if (!apply_in_place(conceded, act::concede(p))) {
      if (auto broken = check_invariants(conceded)) {
        report("conceding broke an invariant: " + *broken);
      }
    }
    const std::vector<Action> legal = legal_actions(state, p);
    if (p != who) continue;
    for (std::size_t i = 0; i < legal.size() && i < apply_limit; ++i) {
      std::vector<Event> events;
      GameState next = state;
      if (auto error = apply_in_place(next, legal[i], &events)) {
        report("a legal action was refused: " + error->code + ": " + error->message);
      }
      if (auto broken = check_invariants(next)) {
        report("a legal action broke an invariant: " + *broken);
      }
      for (int viewer = kSpectator; viewer < players; ++viewer) {
        (void)filter_events_for(next, events, viewer);
      }
    }
  }
}

// States from a deterministic random game (no concessions) with these options: the start
// and then one state per `every` actions, up to `limit` actions or the end of the game.
inline std::vector<GameState> random_game_states(const Options& options, std::uint64_t seed,
                                                 int limit, int every) {
  std::vector<GameState> out;
  GameState state = new_game(options, seed);
  out.push_back(state);
  std::uint64_t chooser = seed;
  for (int step = 1; step <= limit && state.phase != Phase::kGameOver; ++step) {
    const std::vector<Action> legal = legal_actions(state, decider(state));
    if (legal.size() < 2) break;  // only concede left
    const Action& pick = legal[splitmix64(chooser) % (legal.size() - 1)];
    if (apply_in_place(state, pick)) break;
    if (step % every == 0) out.push_back(state);
  }
  out.push_back(state);
  return out;
}

}  // namespace viktory::fuzz
