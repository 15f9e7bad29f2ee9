// The search player's decision: a determinized Monte Carlo search over the engine.
//
// Candidates are the actions the heuristic would take under a few different temperaments
// (default, bolder, more careful, no new attacks; for small decisions such as casualties or
// retreats every legal action; in the Building Phase its best few builds). Each candidate is
// tried on the same sampled determinizations (common random numbers: the same hidden terrain
// and dice for every candidate of a sample): the candidate is applied, the seat goes on with
// the temperament that proposed it, every other seat with the default heuristic, until the
// seat's next turn begins; the position is then evaluated (evaluate.h). Sequential halving
// spreads the budget: every round the weaker half of the candidates is dropped.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>

#include "action.h"
#include "determinize.h"
#include "view.h"

namespace viktory::ai {

struct SearchLimits {
  int iterations = 0;                          // rollouts; 0 = none
  std::chrono::steady_clock::duration time{};  // 0 = none
  std::uint64_t seed = 1;
  const std::atomic<bool>* cancel = nullptr;
  int max_rollout_actions = 600;  // a continuation stops here if the seat's turn has not come
  int horizon = 1;                // continuations run until the seat's n-th next turn begins
  double min_gain = 1.0;          // standard errors a challenger must beat the heuristic by
};

struct SearchResult {
  Action action;
  int candidates = 0;
  int rollouts = 0;
  bool overrode = false;  // not the default heuristic's action
};

SearchResult search_decision(const GameView& view, const std::vector<Action>& legal,
                             const PublicHistory& history, const SearchLimits& limits);

}  // namespace viktory::ai
