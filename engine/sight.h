// Fog of war (Options::fog_of_war; docs/rules-notes.md, "Fog of war"): which hexes a viewer
// sees units on, and each player's memory of the enemy units he saw last.
//
// Fog hides units, not the map: terrain knowledge and the Towns and Cities on known hexes are
// as without fog. Only a player's own pieces give him sight (none shared with a Ruler or a
// Vassal [15.6]); players out of the game and spectators see what every player still in the
// game sees, and everything once the game is over.
#pragma once

#include <vector>

#include "state.h"

namespace viktory {

// One flag per hex: the viewer (a player, or kSpectator) sees the units there. All true in
// games without fog of war.
std::vector<bool> sight_of(const GameState& state, int viewer);

// Whether fog of war hides anything from `viewer` now (a fog game under way).
bool fog_applies(const GameState& state, int viewer);

// The state as far as `player` may know its units: other players' units outside his sight
// taken off the map (to stock) and the per-hex facts of unseen hexes cleared as in his view.
// For questions answered by simulating his moves (the server's reach answers): what they find
// then depends on nothing he cannot see. Without fog, the state itself.
GameState seen_world(const GameState& state, int player);

// After every action: each player in the game remembers the other players' units on the hexes
// he sees now (type counts and the turn); entries for hexes he sees without such units go;
// entries for hexes outside his sight stay as they were. Players out of the game forget.
void update_last_seen(GameState& state);

}  // namespace viktory
