// The bank of map tiles the face-down interior is drawn from [3.2].
//
// The boxed game's per-terrain counts are unpublished, so the bank is a documented mix
// (docs/rules-notes.md): fractions per terrain, applied to the number of interior hexes of
// the board. A hex's tile is drawn from what remains of the bank at the moment it is
// revealed; this gives the same odds as a shuffled face-down map, and no unrevealed terrain
// exists anywhere to leak.
#pragma once

#include <array>

#include "types.h"

namespace viktory {

// Tiles by terrain, index 0 = water, then plains, grassland, forest, mountain.
std::array<int, kTerrainKinds> tile_bank_for(TileMix mix, int interior_hexes);
// Percentages of the mix, same order.
std::array<int, kTerrainKinds> tile_mix_percentages(TileMix mix);

inline Terrain terrain_of_bank_slot(int slot) { return static_cast<Terrain>(slot + 1); }
inline int bank_slot_of(Terrain t) { return static_cast<int>(t) - 1; }

}  // namespace viktory
