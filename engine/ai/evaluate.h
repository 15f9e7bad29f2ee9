// The evaluation of a position for one player, for the search: material, economy (victory
// points), the Capital, and what is at risk next turn, weighted by the victory condition in
// force [5.1-5.5]. Positive is good for `me`: his score minus the best other player's.
#pragma once

#include "state.h"

namespace viktory::ai {

// A finished game scores kWin (shared by the winners) or -kWin.
constexpr double kWin = 1000;

double evaluate(const GameState& s, int me);

}  // namespace viktory::ai
