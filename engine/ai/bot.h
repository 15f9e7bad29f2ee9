// Computer players: the library's entry point.
//
//   ai::BotConfig config{ai::Level::kSearch, /*seed=*/7};
//   config.time_budget = std::chrono::milliseconds(300);
//   Action a = ai::choose_action(view_for(state, seat), legal_actions(state, seat), history,
//   config);
//
// A computer player decides from what its seat may know: the seat's view and the events it was
// shown. It never sees a GameState; where it needs one (to simulate with the engine) it builds
// its own from the view, sampling everything hidden (determinize.h). So two games that differ
// only in hidden information (unexplored terrain, the generator) get the same decisions.
//
// choose_action is a pure function of its arguments: no globals, no shared state, safe to call
// from several threads at once (each call uses only its own data). The search stops at its
// iteration budget, its time budget or when `cancel` becomes true, whichever comes first, and
// then returns the best action found so far; with an iteration budget and no time budget the
// result depends only on the arguments (reproducible tournaments).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "action.h"
#include "determinize.h"
#include "view.h"

namespace viktory::ai {

enum class Level : std::uint8_t {
  kRandom,     // a uniformly random legal action (never concedes): the baseline
  kHeuristic,  // hand-tuned scoring of the legal actions, no search: fast
  kSearch,     // determinized search over the engine, with the heuristic for the rest of the play
  // Ends every phase it may end and otherwise takes the first legal action: an opponent whose
  // every move a script can foretell (the guided first game, docs/server.md). Not offered in
  // game.create.
  kPassive,
};

std::string_view to_string(Level level);
std::optional<Level> level_from_string(std::string_view name);

struct BotConfig {
  Level level = Level::kSearch;
  std::uint64_t seed = 1;  // the bot's own randomness (samples, ties); never the game's
  // kSearch only. Simulated continuations (rollouts) per decision; 0 = no limit.
  int iterations = 0;
  // kSearch only. Wall-clock limit per decision; 0 = no limit. With neither limit set the
  // search uses kDefaultIterations.
  std::chrono::milliseconds time_budget{300};
  // Set it to true from another thread to stop a search now (it returns its best so far).
  const std::atomic<bool>* cancel = nullptr;
  // kSearch only, for tuning (docs/ai.md): continuations run until the seat's `horizon`-th
  // next turn begins; the search overrides the heuristic's choice only when the better action
  // wins on the same samples by `min_gain` standard errors.
  int horizon = 1;
  double min_gain = 1.0;
};

constexpr int kDefaultIterations = 96;

// What one decision cost, for tournaments and logs.
struct DecisionInfo {
  int candidates = 0;     // actions the search compared (0: no search was needed)
  int rollouts = 0;       // continuations simulated
  bool overrode = false;  // the search chose another action than the heuristic's
};

// The action seat `view.viewer` takes now. `legal` is legal_actions for that seat (what the
// server computes and sends); the result is always one of its elements. It concedes only when
// conceding is the only legal action. Throws std::invalid_argument when `legal` is empty or the
// view is a spectator's.
Action choose_action(const GameView& view, const std::vector<Action>& legal,
                     const PublicHistory& history, const BotConfig& config,
                     DecisionInfo* info = nullptr);

}  // namespace viktory::ai
