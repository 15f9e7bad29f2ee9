// Pieces of reading a position that the heuristic player's phases share: heuristic.cpp
// (setup, building, Reserve placement, Battle decisions) and movement_planner.cpp (the
// Movement & Combat plan). Internal to the library.
#pragma once

#include <vector>

#include "analysis.h"
#include "heuristic.h"

namespace viktory::ai::heuristic_parts {

constexpr double kConcedeScore = -1e9;

bool holds_capital(const GameState& s, int p);
const HexCell& cell(const GameState& s, int hex);
int reserve_of(const GameState& s, int p, UnitType t);
Force land_only(Force f);
// How much a player cares about his Capital, and an enemy's, under the victory condition.
double capital_stake(const GameState& s);
// Points for taking a Town/City: its victory points and units change hands [10.2, 10.3].
double capture_value(const GameState& s, int hex, int me);
Terrain terrain_at(const GameState& s, int hex);
bool adjacent_known_water(const Analysis& a, int hex, int p);
bool enemy_unit_adjacent(const Analysis& a, int hex, int p);
// Units the Reserve Placement Phase will most likely add to a Town of `p` this turn [13.0].
Force expected_placement(const Analysis& a, int hex, int p);
double defend_threshold(const Analysis& a, const HeuristicParams& params, int hex);

}  // namespace viktory::ai::heuristic_parts
