// Terrain Leveling [15.1]: no terrain modifiers for movement, line of sight or defence.
#include <gtest/gtest.h>

#include "fixture.h"

namespace viktory {
namespace {

using testing::Position;
using testing::rolls;

using U = UnitType;

Options leveling() {
  Options o;
  o.terrain_leveling = true;
  return o;
}

// Plains; player 0's Capital D3, player 1's G6. Player 0 also has a Mountain City B3 (its
// Artillery is used for bombarding), player 1 a Grassland City H4.
Position field(Options options) {
  Position p(2, 0, options);
  p.fill(Terrain::kPlains);
  p.capital(0, p.at("D3")).capital(1, p.at("G6"));
  p.terrain(p.at("B3"), Terrain::kMountain).city(0, p.at("B3"));
  p.terrain(p.at("H4"), Terrain::kGrassland).city(1, p.at("H4"));
  return p;
}

TEST(TerrainLeveling, R15_1_ForestAndMountainDoNotStopMovement) {
  for (bool level : {false, true}) {
    Position p = field(level ? leveling() : Options{});
    p.terrain(p.at("E5"), Terrain::kForest).terrain(p.at("E6"), Terrain::kMountain);
    const int inf = p.unit(0, U::kInfantry, p.at("E4"));
    p.start_turn(0, Phase::kMovement);
    p.apply_ok(act::move(0, inf, p.at("E5")));
    EXPECT_EQ(p.u(inf).move_done, !level) << level;  // [9.12] stops it only without [15.1]
    if (level) {
      p.apply_ok(act::move(0, inf, p.at("E6")));
      EXPECT_EQ(p.u(inf).hex, p.at("E6"));
    }
  }
}

TEST(TerrainLeveling, R15_1_ForestAndMountainDoNotBlockTheLineOfFire) {
  for (bool level : {false, true}) {
    Position p = field(level ? leveling() : Options{});
    p.terrain(p.at("E5"), Terrain::kMountain);
    const int art = p.unit(0, U::kArtillery, p.at("E4"));
    p.unit(1, U::kInfantry, p.at("E6"));
    p.start_turn(0, Phase::kMovement);
    p.dice({6});
    EXPECT_EQ(p.apply_error(act::bombard(0, art, p.at("E6"))), level ? "accepted" : "blocked");
  }
}

TEST(TerrainLeveling, R15_1_TownsStillBlockTheLineOfFire) {
  // A Town or City is a piece, not terrain (docs/rules-notes.md).
  Position p = field(leveling());
  p.town(0, p.at("E5"));
  const int art = p.unit(0, U::kArtillery, p.at("E4"));
  p.unit(1, U::kInfantry, p.at("E6"));
  p.start_turn(0, Phase::kMovement);
  EXPECT_EQ(p.apply_error(act::bombard(0, art, p.at("E6"))), "blocked");
}

// Player 1 defends E5 with one Infantry against player 0's Infantry from E4.
std::size_t defence_dice(Terrain terrain, int town, bool level) {
  Position p = field(level ? leveling() : Options{});
  p.terrain(p.at("E5"), terrain);
  if (town == 1) p.town(1, p.at("E5"));
  if (town == 2) p.city(1, p.at("E5"));
  p.unit(1, U::kInfantry, p.at("E5"));
  const int inf = p.unit(0, U::kInfantry, p.at("E4"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, inf, p.at("E5")));
  p.dice(std::vector<int>(8, 6));
  const auto ev = p.apply_ok(act::start_battle(0, p.at("E5")));
  const auto fired = rolls(ev, RollPurpose::kDefenderFire);
  return fired.empty() ? 0 : fired.front().size();
}

TEST(TerrainLeveling, R15_1_NoDefensiveTerrainDiceFromForestOrMountain) {
  EXPECT_EQ(defence_dice(Terrain::kMountain, 0, false), 3u);
  EXPECT_EQ(defence_dice(Terrain::kMountain, 0, true), 1u);
  EXPECT_EQ(defence_dice(Terrain::kForest, 0, false), 2u);
  EXPECT_EQ(defence_dice(Terrain::kForest, 0, true), 1u);
  // Towns and Cities keep their dice; a Mountain Town counts as a Town.
  EXPECT_EQ(defence_dice(Terrain::kMountain, 1, true), 2u);
  EXPECT_EQ(defence_dice(Terrain::kForest, 2, true), 3u);
  EXPECT_EQ(defence_dice(Terrain::kPlains, 1, true), 2u);
}

}  // namespace
}  // namespace viktory
