// The Battle field of the fire tests (luck_test.cpp, house_rules_test.cpp): two players on
// Plains, the Battle hex E5, each side with the Cities that support the units it fights with.
#pragma once

#include <vector>

#include "fixture.h"

namespace viktory::testing {

// Player 0 (attacker): Capital B5, Grassland City B3, Mountain Cities D7 and D2 (up to 2
// Artillery); he attacks from E4/D4/D5. Player 1 (defender): Capital H2, Grassland City H4,
// Mountain City F2 and, with `defender_artillery` 2, F6 too.
struct BattleField {
  Position p;
  int hex = -1;
  BattleField(Options options, Terrain battle_terrain, int defender_artillery) : p(2, 0, options) {
    p.fill(Terrain::kPlains);
    hex = p.at("E5");
    p.terrain(hex, battle_terrain);
    p.capital(0, p.at("B5")).capital(1, p.at("H2"));
    p.terrain(p.at("B3"), Terrain::kGrassland).city(0, p.at("B3"));
    p.terrain(p.at("D7"), Terrain::kMountain).city(0, p.at("D7"));
    p.terrain(p.at("D2"), Terrain::kMountain).city(0, p.at("D2"));
    p.terrain(p.at("H4"), Terrain::kGrassland).city(1, p.at("H4"));
    p.terrain(p.at("F2"), Terrain::kMountain).city(1, p.at("F2"));
    if (defender_artillery > 1) p.terrain(p.at("F6"), Terrain::kMountain).city(1, p.at("F6"));
  }
  int attacker(UnitType t, const char* from) { return p.unit(0, t, p.at(from)); }
  int defender(UnitType t) { return p.unit(1, t, hex); }
  // Player 0's Movement phase: the units move into the Battle hex.
  void advance(const std::vector<int>& units) {
    p.start_turn(0, Phase::kMovement);
    for (int u : units) p.apply_ok(act::move(0, u, hex));
  }
};

}  // namespace viktory::testing
