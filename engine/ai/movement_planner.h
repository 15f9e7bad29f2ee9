// The heuristic player's Movement & Combat Phase [9.0-12.0]: a plan made afresh at every
// decision (Bombards first, then attacks that reach the wanted odds, then Towns that need
// defenders, Frigates ferrying stranded units, then positional moves towards the front or to
// explore early on), turned into scores for the legal actions.
#pragma once

#include <vector>

#include "analysis.h"
#include "heuristic.h"

namespace viktory::ai {

// `legal` scored by the plan (unsorted); only scores of one decision compare.
std::vector<ScoredAction> rank_movement(const Analysis& a, const HeuristicParams& params,
                                        const std::vector<Action>& legal);

}  // namespace viktory::ai
