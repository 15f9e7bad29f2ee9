// The Building Phase [7.0-7.4, 8.x].
#include <gtest/gtest.h>

#include "fixture.h"

namespace viktory {
namespace {

using testing::count_of;
using testing::events_of;
using testing::Position;

// Plains everywhere; player 0's Capital at D3, player 1's at G6 (five hexes apart), each with
// its Infantry standing on it. From D3: D5 is two hexes away, D6 three, D7 four.
Position two_capitals() {
  Position p(2);
  p.fill(Terrain::kPlains);
  p.capital(0, p.at("D3")).capital(1, p.at("G6"));
  p.unit(0, UnitType::kInfantry, p.at("D3"));
  p.unit(1, UnitType::kInfantry, p.at("G6"));
  return p;
}

TEST(Building, R7_21_TownTwoOrThreeHexesFromOwnTown) {
  for (const char* target : {"D5", "D6"}) {
    Position p = two_capitals();
    p.start_turn(0);
    const int hex = p.at(target);
    ASSERT_TRUE(p.board().distance(hex, p.at("D3")) == 2 ||
                p.board().distance(hex, p.at("D3")) == 3);
    const auto ev = p.apply_ok(act::build_town(0, hex));
    EXPECT_EQ(p.state.hexes[hex].town_owner, 0) << target;
    EXPECT_FALSE(p.state.hexes[hex].city);
    EXPECT_TRUE(p.state.hexes[hex].built_this_turn);
    EXPECT_EQ(count_of(ev, EventKind::kTownBuilt), 1);
    EXPECT_CONSISTENT(p);
  }
}

TEST(Building, R7_21_TownTooFarFromOwnTowns) {
  Position p = two_capitals();
  p.start_turn(0);
  ASSERT_EQ(p.board().distance(p.at("D7"), p.at("D3")), 4);
  EXPECT_EQ(p.apply_error(act::build_town(0, p.at("D7"))), "out_of_range");
  // Two or three hexes from an enemy Town does not count: it must be one of his own.
  ASSERT_EQ(p.board().distance(p.at("D7"), p.at("G6")), 3);
}

TEST(Building, R7_21_DistanceCountsAcrossWater) {
  Position p = two_capitals();
  // D3's whole neighbourhood on the way to D5 and D6 is water; the hexes still count.
  p.terrain({p.at("D4"), p.at("C4"), p.at("E4"), p.at("D5")}, Terrain::kWater);
  p.start_turn(0);
  EXPECT_EQ(p.apply_error(act::build_town(0, p.at("D5"))), "not_land");
  ASSERT_EQ(p.board().distance(p.at("D6"), p.at("D3")), 3);
  p.apply_ok(act::build_town(0, p.at("D6")));
  EXPECT_EQ(p.state.hexes[p.at("D6")].town_owner, 0);
}

TEST(Building, R7_21_OnlyOnExploredHexes) {
  Position p = two_capitals();
  p.face_down(p.at("D5"), Terrain::kGrassland);  // a tile lies there, face down
  p.state.hexes[p.at("D6")] = HexCell{};         // no tile drawn yet
  p.start_turn(0);
  EXPECT_EQ(p.apply_error(act::build_town(0, p.at("D5"))), "unexplored");
  EXPECT_EQ(p.apply_error(act::build_town(0, p.at("D6"))), "unexplored");
}

TEST(Building, R7_21_OnlyOnLand) {
  Position p = two_capitals();
  p.terrain(p.at("D5"), Terrain::kWater);
  p.start_turn(0);
  EXPECT_EQ(p.apply_error(act::build_town(0, p.at("D5"))), "not_land");
}

TEST(Building, R7_21_NeedsAContiguousRevealedPath) {
  // [7.21 example] Another player revealed a hex three hexes away; without a 2-3 hex path of
  // revealed hexes from one of your Towns you may not build there.
  Position p = two_capitals();
  for (int n : p.board().neighbors(p.at("D3"))) p.state.hexes[n] = HexCell{};  // unexplored
  p.start_turn(0);
  ASSERT_TRUE(p.state.hexes[p.at("D6")].revealed);
  EXPECT_EQ(p.apply_error(act::build_town(0, p.at("D6"))), "not_contiguous");
  EXPECT_EQ(p.apply_error(act::build_town(0, p.at("D5"))), "not_contiguous");
  // Reveal one hex next to the Capital: D3-D4-D5-D6 is now a revealed path of three steps.
  p.terrain(p.at("D4"), Terrain::kForest);
  p.apply_ok(act::build_town(0, p.at("D6")));
  EXPECT_EQ(p.state.hexes[p.at("D6")].town_owner, 0);
}

TEST(Building, R7_21_NeverNextToAnyTownOrCity) {
  Position p = two_capitals();
  p.town(1, p.at("E5"));  // an enemy Town two hexes from D3
  p.unit(1, UnitType::kInfantry, p.at("E5"));
  p.start_turn(0);
  ASSERT_EQ(p.board().distance(p.at("D5"), p.at("E5")), 1);
  EXPECT_EQ(p.apply_error(act::build_town(0, p.at("D5"))), "adjacent_town");  // enemy's
  EXPECT_EQ(p.apply_error(act::build_town(0, p.at("D4"))), "adjacent_town");  // own Capital
  EXPECT_EQ(p.apply_error(act::build_town(0, p.at("E5"))), "occupied");
  // C5 is three from D3 and two from E5: fine, Towns need only not be adjacent.
  p.apply_ok(act::build_town(0, p.at("C5")));
}

TEST(Building, R7_22_NoTownOnAnEnemyUnit) {
  Position p = two_capitals();
  p.town(1, p.at("G3"));
  const int enemy = p.unit(1, UnitType::kInfantry, p.at("D5"));
  p.start_turn(0);
  EXPECT_EQ(p.apply_error(act::build_town(0, p.at("D5"))), "enemy_units");
  // Next to an enemy unit is allowed (only a warning in the rules).
  ASSERT_EQ(p.board().distance(p.at("C5"), p.u(enemy).hex), 1);
  p.apply_ok(act::build_town(0, p.at("C5")));
  EXPECT_EQ(p.state.hexes[p.at("C5")].town_owner, 0);
}

TEST(Building, R7_22_OwnUnitsDoNotStopBuilding) {
  Position p = two_capitals();
  p.town(0, p.at("B3"));
  const int mine = p.unit(0, UnitType::kInfantry, p.at("D5"));
  p.start_turn(0);
  p.apply_ok(act::build_town(0, p.at("D5")));
  EXPECT_EQ(p.state.hexes[p.at("D5")].town_owner, 0);
  EXPECT_EQ(p.u(mine).hex, p.at("D5"));
}

TEST(Building, R7_23_UpgradeOwnTownToCity) {
  Position p = two_capitals();
  p.town(0, p.at("D6")).town(1, p.at("G3"));
  p.start_turn(0);
  EXPECT_EQ(p.apply_error(act::upgrade_city(0, p.at("G3"))), "not_your_town");
  EXPECT_EQ(p.apply_error(act::upgrade_city(0, p.at("D5"))), "not_your_town");  // no Town
  const auto ev = p.apply_ok(act::upgrade_city(0, p.at("D6")));
  EXPECT_TRUE(p.state.hexes[p.at("D6")].city);
  EXPECT_EQ(p.state.hexes[p.at("D6")].town_owner, 0);
  EXPECT_EQ(count_of(ev, EventKind::kCityUpgraded), 1);
  EXPECT_CONSISTENT(p);
}

TEST(Building, R7_23_CityCannotBeUpgradedAgain) {
  Position p = two_capitals();
  p.city(0, p.at("D6"));
  p.start_turn(0);
  EXPECT_EQ(p.apply_error(act::upgrade_city(0, p.at("D6"))), "already_city");
}

TEST(Building, R7_3_NewTownRevealsAdjacentHexes) {
  Position p = two_capitals();
  const int site = p.at("D6");
  // Its neighbours away from the Capital lie face down with known tiles.
  const std::vector<std::pair<std::string, Terrain>> hidden{
      {"D7", Terrain::kMountain}, {"C6", Terrain::kWater}, {"E7", Terrain::kForest}};
  for (const auto& [label, t] : hidden) p.face_down(p.at(label), t);
  p.face_down(p.at("E8"), Terrain::kGrassland);  // two hexes away: stays hidden
  p.start_turn(0);
  const auto ev = p.apply_ok(act::build_town(0, site));
  for (const auto& [label, t] : hidden) {
    EXPECT_TRUE(p.state.hexes[p.at(label)].revealed) << label;
    EXPECT_EQ(p.state.hexes[p.at(label)].terrain, t) << label;
  }
  EXPECT_FALSE(p.state.hexes[p.at("E8")].revealed);
  const auto reveals = events_of(ev, EventKind::kTileRevealed);
  EXPECT_EQ(reveals.size(), hidden.size());
  for (const Event& e : reveals) EXPECT_EQ(e.player, 0);
}

TEST(Building, R7_3_NewCityRevealsHexesTwoAway) {
  Position p = two_capitals();
  const int town = p.at("D6");
  p.town(0, town);
  int hidden = 0;
  for (int h : p.board().ring_around(town, 2)) {
    if (p.board().is_perimeter(h) || p.state.hexes[h].town_owner != kNoPlayer) continue;
    p.face_down(h, Terrain::kMountain);
    ++hidden;
  }
  for (int h : p.board().ring_around(town, 3)) {
    if (!p.board().is_perimeter(h) && p.state.hexes[h].town_owner == kNoPlayer) {
      p.face_down(h, Terrain::kForest);
    }
  }
  ASSERT_GT(hidden, 4);
  p.start_turn(0);
  const auto ev = p.apply_ok(act::upgrade_city(0, town));
  for (int h : p.board().ring_around(town, 2)) {
    EXPECT_TRUE(p.state.hexes[h].revealed) << p.label(h);
  }
  for (int h : p.board().ring_around(town, 3)) {
    if (!p.board().is_perimeter(h) && p.state.hexes[h].town_owner == kNoPlayer) {
      EXPECT_FALSE(p.state.hexes[h].revealed) << p.label(h);
    }
  }
  EXPECT_EQ(count_of(ev, EventKind::kTileRevealed), hidden);
}

TEST(Building, R7_4_TownGivesOneInfantry) {
  Position p = two_capitals();
  p.start_turn(0);
  const auto ev = p.apply_ok(act::build_town(0, p.at("D5")));
  const auto gained = events_of(ev, EventKind::kUnitGained);
  ASSERT_EQ(gained.size(), 1u);
  EXPECT_EQ(gained[0].unit_type, UnitType::kInfantry);
  EXPECT_EQ(p.reserve_count(0, UnitType::kInfantry), 1);
  EXPECT_EQ(p.u(gained[0].unit).place, UnitPlace::kReserve);
  EXPECT_CONSISTENT(p);
}

TEST(Building, R7_4_R8_2_CityUnitDependsOnTerrain) {
  const std::vector<std::pair<Terrain, UnitType>> table{{Terrain::kPlains, UnitType::kInfantry},
                                                        {Terrain::kGrassland, UnitType::kCavalry},
                                                        {Terrain::kMountain, UnitType::kArtillery},
                                                        {Terrain::kForest, UnitType::kFrigate}};
  for (const auto& [terrain, unit] : table) {
    Position p = two_capitals();
    p.terrain(p.at("D6"), terrain).terrain(p.at("C6"), Terrain::kWater);
    p.town(0, p.at("D6"));
    p.unit(0, UnitType::kInfantry, p.at("D6"));
    p.start_turn(0);
    const auto ev = p.apply_ok(act::upgrade_city(0, p.at("D6")));
    const auto gained = events_of(ev, EventKind::kUnitGained);
    ASSERT_EQ(gained.size(), 1u) << to_string(terrain);
    EXPECT_EQ(gained[0].unit_type, unit) << to_string(terrain);
    EXPECT_EQ(p.reserve_count(0, unit), 1) << to_string(terrain);
    EXPECT_CONSISTENT(p);
  }
}

TEST(Building, R7_2_OneBuildPerTurn) {
  Position p = two_capitals();
  p.town(0, p.at("B3"));
  p.start_turn(0);
  p.apply_ok(act::build_town(0, p.at("D6")));
  EXPECT_EQ(p.state.phase, Phase::kMovement);
  EXPECT_EQ(p.apply_error(act::build_town(0, p.at("F3"))), "wrong_phase");
  EXPECT_EQ(p.apply_error(act::upgrade_city(0, p.at("B3"))), "wrong_phase");

  Position q = two_capitals();
  q.town(0, q.at("B3"));
  q.start_turn(0);
  q.apply_ok(act::upgrade_city(0, q.at("B3")));
  EXPECT_EQ(q.state.phase, Phase::kMovement);
  EXPECT_EQ(q.apply_error(act::build_town(0, q.at("D6"))), "wrong_phase");
}

TEST(Building, R7_22_MayChooseNotToBuild) {
  Position p = two_capitals();
  p.start_turn(0);
  const std::size_t units = p.state.units.size();
  p.apply_ok(act::end_phase(0));
  EXPECT_EQ(p.state.phase, Phase::kMovement);
  EXPECT_EQ(p.state.units.size(), units);
}

TEST(Building, R7_1_NoBuildingWithoutCapitalAtTurnStart) {
  Position p(2);
  p.fill(Terrain::kPlains);
  // Player 1 holds player 0's Capital D3; player 0 still has a Town at G3.
  p.town(1, p.at("D3")).capital_marker(0, p.at("D3"));
  p.capital(1, p.at("G6"));
  p.town(0, p.at("G3"));
  p.unit(0, UnitType::kInfantry, p.at("G3"));
  const auto ev = p.start_turn(0, Phase::kMovement);
  EXPECT_FALSE(p.state.players[0].held_capital_at_turn_start);
  // The Building Phase was skipped by the engine itself.
  const auto phases = events_of(ev, EventKind::kPhaseChanged);
  ASSERT_GE(phases.size(), 2u);
  EXPECT_EQ(phases[phases.size() - 2].value, static_cast<int>(Phase::kBuild));
  EXPECT_EQ(phases.back().value, static_cast<int>(Phase::kMovement));
  EXPECT_EQ(p.apply_error(act::build_town(0, p.at("G1"))), "wrong_phase");
  // Even if a Building Phase were reached, building is refused for the same reason.
  p.state.phase = Phase::kBuild;
  EXPECT_EQ(p.apply_error(act::build_town(0, p.at("E2"))), "no_capital");
  EXPECT_EQ(p.apply_error(act::upgrade_city(0, p.at("G3"))), "no_capital");
}

}  // namespace
}  // namespace viktory
