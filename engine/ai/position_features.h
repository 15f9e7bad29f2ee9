// Features of a position for the evaluation (evaluate.h): a player against his strongest rival.
// The evaluation is a logistic model over them, fitted to the outcomes of heuristic games
// (bench/tournament/fit_evaluation.cpp, docs/ai.md).
#pragma once

#include <array>

#include "state.h"

namespace viktory::ai {

enum Feature : int {
  kBias,
  kVictoryPoints,      // mine minus the rival's [5.3]
  kMaterial,           // units on the map and in the Reserve, by value
  kCapitalHeld,        // holding one's own Capital [14.0]: mine minus his
  kCities,             // Cities, mine minus his
  kRoom,               // free sites for new Towns near one's Towns [7.21], mine minus his
  kMyCapitalRisk,      // chance an enemy takes my Capital next turn
  kRivalCapitalRisk,   // chance I (or another) take his
  kMyTownRisk,         // victory points of mine at risk next turn
  kRivalTownRisk,      // his
  kLateVictoryPoints,  // victory point difference times the game's progress
  kMyRaceLead,         // my victory points beyond 14 [5.4]
  kRivalRaceLead,      // his
  kOpponentsLeft,      // in-game opponents beyond the first
  kFeatureCount
};

using Features = std::array<double, kFeatureCount>;

// `me` is the player to judge for (normally the one whose turn begins).
Features features(const GameState& s, int me);

// The strongest other player still in the game (by victory points, then material), or
// kNoPlayer.
int strongest_rival(const GameState& s, int me);

}  // namespace viktory::ai
