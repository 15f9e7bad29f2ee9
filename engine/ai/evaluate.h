// The evaluation of a position for one player, for the search: the estimated chance that he
// wins, from a logistic model over a few features of the position (position_features.h:
// victory points, material, Capitals, Cities, room to expand, what is at risk next turn, ...)
// fitted to the outcomes of heuristic games for each victory condition [5.1-5.5], separately
// for two players and for more (bench/tournament/fit_evaluation.cpp, docs/ai.md). It is meant
// for the moment a player's turn begins, where the search's continuations stop.
#pragma once

#include "state.h"

namespace viktory::ai {

// A finished game: 1 for a winner (1/k when k share the win), 0 for the others. Otherwise the
// model's estimate, strictly between 0 and 1.
double evaluate(const GameState& s, int me);

// The one victory condition a computer player plans for when the players agreed on several
// [5.0]: the one most likely to end the game first, since the first one met ends it (Shorter
// Conquest at the first captured Capital, then the Race's 20 points, then the Doomsday Clock).
// Subjugation [15.66] alone plays like the standard game: its models were not fitted.
VictoryCondition planning_victory(VictorySet victory);

}  // namespace viktory::ai
