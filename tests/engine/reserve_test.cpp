// Reserve Placement [13.0-13.5].
#include <gtest/gtest.h>

#include <algorithm>

#include "fixture.h"

namespace viktory {
namespace {

using testing::count_of;
using testing::events_of;
using testing::Position;
using testing::rolls;

using U = UnitType;

// Plains. Player 0: Capital B5 (a Town, by the perimeter water A4, A5, B6), a Grassland Town
// B3, a Plains City D2, Grassland Cities D7 and H3, a Mountain City F2 and a Forest City E5
// next to the water hex E6. His Reserve: 8 Infantry, 2 Cavalry, 1 Artillery, 1 Frigate.
// Player 1: Capital G6, a Forest City (Infantry and Frigate), with nothing on the map yet.
struct Home {
  Position p{2};
  Home() {
    p.fill(Terrain::kPlains);
    p.terrain(p.at("E6"), Terrain::kWater);
    p.capital(0, p.at("B5"));
    p.terrain(p.at("B3"), Terrain::kGrassland).town(0, p.at("B3"));
    p.city(0, p.at("D2"));
    p.terrain(p.at("D7"), Terrain::kGrassland).city(0, p.at("D7"));
    p.terrain(p.at("H3"), Terrain::kGrassland).city(0, p.at("H3"));
    p.terrain(p.at("F2"), Terrain::kMountain).city(0, p.at("F2"));
    p.terrain(p.at("E5"), Terrain::kForest).city(0, p.at("E5"));
    p.terrain(p.at("G6"), Terrain::kForest).capital(1, p.at("G6"), /*is_city=*/true);
  }
  // Player 0's Reserve Placement Phase.
  void reserve_phase() {
    p.start_turn(0, Phase::kMovement);
    p.apply_ok(act::end_phase(0));
    ASSERT_EQ(p.state.phase, Phase::kReserve);
  }
  std::vector<Event> place(U t, const char* hex) {
    return p.apply_ok(act::place_reserve(0, t, p.at(hex)));
  }
  std::string refuse(U t, const char* hex) {
    return p.apply_error(act::place_reserve(0, t, p.at(hex)));
  }
};

TEST(Reserve, R13_11_TownTakesOneInfantry) {
  Home h;
  h.reserve_phase();
  const auto ev = h.place(U::kInfantry, "B3");
  const auto placed = events_of(ev, EventKind::kUnitPlaced);
  ASSERT_EQ(placed.size(), 1u);
  EXPECT_EQ(h.p.u(placed[0].unit).hex, h.p.at("B3"));
  EXPECT_EQ(h.p.u(placed[0].unit).place, UnitPlace::kMap);
  EXPECT_TRUE(h.p.u(placed[0].unit).move_done);
  EXPECT_EQ(h.refuse(U::kInfantry, "B3"), "full");
  EXPECT_EQ(h.p.count_on(h.p.at("B3"), 0, U::kInfantry), 1);
  EXPECT_CONSISTENT(h.p);
}

TEST(Reserve, R13_11_PlainsCityTakesTwoInfantry) {
  Home h;
  h.reserve_phase();
  h.place(U::kInfantry, "D2");
  h.place(U::kInfantry, "D2");
  EXPECT_EQ(h.refuse(U::kInfantry, "D2"), "full");
  EXPECT_EQ(h.p.count_on(h.p.at("D2"), 0, U::kInfantry), 2);
}

TEST(Reserve, R13_11_GrasslandCityTakesInfantryAndCavalry) {
  Home h;
  h.reserve_phase();
  h.place(U::kCavalry, "D7");
  h.place(U::kInfantry, "D7");
  EXPECT_EQ(h.refuse(U::kInfantry, "D7"), "full");
  EXPECT_EQ(h.refuse(U::kCavalry, "D7"), "full");  // the second Cavalry waits
  EXPECT_EQ(h.p.reserve_count(0, U::kCavalry), 1);
}

TEST(Reserve, R13_11_MountainCityTakesInfantryAndArtillery) {
  Home h;
  h.reserve_phase();
  h.place(U::kArtillery, "F2");
  h.place(U::kInfantry, "F2");
  EXPECT_EQ(h.refuse(U::kInfantry, "F2"), "full");
  EXPECT_EQ(h.refuse(U::kArtillery, "F2"), "not_in_reserve");
  EXPECT_EQ(h.p.count_on(h.p.at("F2"), 0, U::kArtillery), 1);
}

TEST(Reserve, R13_12_OnlyCitiesOfTheSameTerrain) {
  Home h;
  h.reserve_phase();
  EXPECT_EQ(h.refuse(U::kCavalry, "F2"), "wrong_terrain");  // a Mountain City
  EXPECT_EQ(h.refuse(U::kCavalry, "B3"), "wrong_terrain");  // a Grassland *Town*
  EXPECT_EQ(h.refuse(U::kArtillery, "D7"), "wrong_terrain");
  EXPECT_EQ(h.refuse(U::kArtillery, "D2"), "wrong_terrain");
  // Any Grassland City will do, one Cavalry each [13.12 example].
  h.place(U::kCavalry, "H3");
  h.place(U::kCavalry, "D7");
  EXPECT_EQ(h.p.reserve_count(0, U::kCavalry), 0);
}

TEST(Reserve, R13_1_OnlyOwnTownsAndCities) {
  Home h;
  h.reserve_phase();
  EXPECT_EQ(h.refuse(U::kInfantry, "C4"), "not_your_town");  // open country
  EXPECT_EQ(h.refuse(U::kInfantry, "G6"), "not_your_town");  // the enemy's Capital
  EXPECT_EQ(h.refuse(U::kFrigate, "D4"), "not_water");
}

TEST(Reserve, R13_3_FrigateNextToItsForestCity) {
  Home h;
  h.p.terrain(h.p.at("E7"), Terrain::kWater);  // water two hexes from E5
  h.reserve_phase();
  EXPECT_EQ(h.refuse(U::kFrigate, "E7"), "bad_frigate_spot");
  const auto ev = h.place(U::kFrigate, "E6");
  EXPECT_EQ(h.p.count_on(h.p.at("E6"), 0, U::kFrigate), 1);
  h.place(U::kInfantry, "E5");  // and its Infantry in the City itself
  EXPECT_EQ(h.refuse(U::kInfantry, "E5"), "full");
}

TEST(Reserve, R13_3_OneFrigatePerForestCityPerTurn) {
  // Two Forest Cities: E5 (water E6 next to it) and C6 (next to the perimeter B6, C7); the
  // Capital E3 has no water next to it.
  Position p(2);
  p.fill(Terrain::kPlains);
  p.terrain(p.at("E6"), Terrain::kWater);
  p.capital(0, p.at("E3")).capital(1, p.at("G6"));
  p.terrain({p.at("E5"), p.at("C6")}, Terrain::kForest).city(0, p.at("E5")).city(0, p.at("C6"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::end_phase(0));
  p.apply_ok(act::place_reserve(0, U::kFrigate, p.at("E6")));
  // E5 has placed its Frigate this turn, and E6 is no water of C6's.
  EXPECT_EQ(p.apply_error(act::place_reserve(0, U::kFrigate, p.at("E6"))), "bad_frigate_spot");
  p.apply_ok(act::place_reserve(0, U::kFrigate, p.at("B6")));
  EXPECT_EQ(p.reserve_count(0, U::kFrigate), 0);
}

TEST(Reserve, R13_3_LandlockedForestCityUsesTheNearestWater) {
  Home h;
  h.p.terrain(h.p.at("E6"), Terrain::kPlains);                 // E5 has no water next to it now
  h.p.terrain({h.p.at("E7"), h.p.at("F6")}, Terrain::kWater);  // two hexes away, both
  ASSERT_EQ(h.p.board().distance(h.p.at("E5"), h.p.at("E7")), 2);
  ASSERT_EQ(h.p.board().distance(h.p.at("E5"), h.p.at("F6")), 2);
  ASSERT_EQ(h.p.board().distance(h.p.at("E5"), h.p.at("D8")), 4);  // the perimeter
  h.reserve_phase();
  EXPECT_EQ(h.refuse(U::kFrigate, "D8"), "bad_frigate_spot");
  // The owner chooses among the equidistant ones.
  EXPECT_EQ(h.refuse(U::kFrigate, "F6"), "accepted");
  h.place(U::kFrigate, "E7");
}

TEST(Reserve, R13_2_NoPlacementNextToAnEnemyUnit) {
  Home h;
  const int enemy = h.p.unit(1, U::kInfantry, h.p.at("C3"));  // next to B3
  h.p.unit(1, U::kFrigate, h.p.at("E6"));                     // next to E5 (naval counts)
  const int own = h.p.unit(0, U::kInfantry, h.p.at("F3"));    // next to F2
  h.reserve_phase();
  EXPECT_EQ(h.refuse(U::kInfantry, "B3"), "enemy_adjacent");
  h.place(U::kInfantry, "D2");  // two hexes from the enemy: fine
  EXPECT_EQ(h.refuse(U::kInfantry, "E5"), "enemy_adjacent");
  EXPECT_EQ(h.refuse(U::kFrigate, "E6"), "bad_frigate_spot");  // E5's Frigate waits too
  h.place(U::kInfantry, "F2");  // not next to any enemy (own units next to it do not count)
  EXPECT_EQ(h.p.board().distance(h.p.u(own).hex, h.p.at("F2")), 1);
  EXPECT_EQ(h.p.board().distance(h.p.u(enemy).hex, h.p.at("B3")), 1);
}

TEST(Reserve, R13_4_CapitalTakesAnyUnitsInAnyNumber) {
  Home h;
  h.p.unit(1, U::kInfantry, h.p.at("C5"));  // next to the Capital: no matter [13.4]
  h.reserve_phase();
  for (int i = 0; i < 3; ++i) h.place(U::kInfantry, "B5");
  h.place(U::kCavalry, "B5");
  h.place(U::kArtillery, "B5");
  EXPECT_EQ(h.p.count_on(h.p.at("B5"), 0, U::kInfantry), 3);
  EXPECT_EQ(h.p.count_on(h.p.at("B5"), 0, U::kCavalry), 1);
  EXPECT_EQ(h.p.count_on(h.p.at("B5"), 0, U::kArtillery), 1);
  // Frigates go to water next to the Capital, whatever its terrain.
  h.place(U::kFrigate, "A5");
  EXPECT_EQ(h.p.count_on(h.p.at("A5"), 0, U::kFrigate), 1);
  EXPECT_CONSISTENT(h.p);
}

TEST(Reserve, R13_4_SeveralFrigatesNextToTheCapital) {
  // Two landlocked Forest Cities (E5, G3) and a Capital B5 by the perimeter water.
  Position p(2);
  p.fill(Terrain::kPlains);
  p.capital(0, p.at("B5")).capital(1, p.at("G6"));
  p.terrain({p.at("E5"), p.at("G3")}, Terrain::kForest).city(0, p.at("E5")).city(0, p.at("G3"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::end_phase(0));
  p.apply_ok(act::place_reserve(0, U::kFrigate, p.at("A5")));
  p.apply_ok(act::place_reserve(0, U::kFrigate, p.at("B6")));
  EXPECT_EQ(p.reserve_count(0, U::kFrigate), 0);
  EXPECT_EQ(p.count_on(p.at("A5"), 0, U::kFrigate) + p.count_on(p.at("B6"), 0, U::kFrigate), 2);
}

TEST(Reserve, R13_5_FrigatePlacedOnAnEnemyFrigateFightsAfterwards) {
  Home h;
  const int enemy = h.p.unit(1, U::kFrigate, h.p.at("A5"));
  h.reserve_phase();
  h.place(U::kFrigate, "A5");                  // next to the Capital [13.4], onto the enemy Frigate
  EXPECT_FALSE(h.p.state.battle.has_value());  // not before everything is placed
  h.place(U::kInfantry, "B3");
  h.p.dice({6, 6, 2, 6});  // round 1: both miss; no retreat, round 2: the attacker hits
  const auto ev = h.p.apply_ok(act::end_phase(0));
  const auto started = events_of(ev, EventKind::kBattleStarted);
  ASSERT_EQ(started.size(), 1u);
  EXPECT_EQ(started[0].hex, h.p.at("A5"));
  EXPECT_EQ(rolls(ev, RollPurpose::kAttackerFire), (std::vector<std::vector<int>>{{6}, {2}}));
  EXPECT_EQ(rolls(ev, RollPurpose::kDefenderFire), (std::vector<std::vector<int>>{{6}, {6}}));
  EXPECT_EQ(h.p.u(enemy).place, UnitPlace::kReserve);
  EXPECT_EQ(count_of(ev, EventKind::kUnitRetreated), 0);
  // Then the turn passes.
  EXPECT_EQ(h.p.state.current, 1);
  EXPECT_EQ(h.p.state.phase, Phase::kBuild);
  EXPECT_CONSISTENT(h.p);
}

// The bug: a Frigate placed on an enemy Frigate fought a second Battle in a hex where one was
// fought that turn. [12.2] allows one Battle per hex per Player Turn and [13.5] places onto an
// enemy Frigate only "if otherwise allowable": the placement is refused (docs/rules-notes.md).
TEST(Reserve, R13_5_R12_2_NoPlacementOntoAnEnemyFrigateWhereABattleWasFought) {
  Home h;
  const int mine = h.p.unit(0, U::kFrigate, h.p.at("A4"));
  const int enemy = h.p.unit(1, U::kFrigate, h.p.at("A5"));
  h.p.start_turn(0, Phase::kMovement);
  h.p.apply_ok(act::move(0, mine, h.p.at("A5")));
  h.p.dice({6, 2});  // the attacker misses, the defender hits: the enemy Frigate holds A5
  h.p.apply_ok(act::start_battle(0, h.p.at("A5")));
  ASSERT_EQ(h.p.u(mine).place, UnitPlace::kReserve);
  ASSERT_EQ(h.p.u(enemy).hex, h.p.at("A5"));
  ASSERT_TRUE(h.p.state.hexes[h.p.at("A5")].battle_this_turn);
  h.p.apply_ok(act::end_phase(0));
  ASSERT_EQ(h.p.state.phase, Phase::kReserve);
  EXPECT_EQ(h.refuse(U::kFrigate, "A5"), "battle_fought");
  const auto legal = legal_actions(h.p.state, 0);
  EXPECT_EQ(
      std::count(legal.begin(), legal.end(), act::place_reserve(0, U::kFrigate, h.p.at("A5"))), 0);
  // Elsewhere next to the Capital it may go, and no second Battle is fought anywhere.
  h.place(U::kFrigate, "B6");
  const auto ev = h.p.apply_ok(act::end_phase(0));
  EXPECT_EQ(count_of(ev, EventKind::kBattleStarted), 0);
  EXPECT_EQ(h.p.u(enemy).hex, h.p.at("A5"));
  EXPECT_EQ(h.p.state.current, 1);
  EXPECT_CONSISTENT(h.p);
}

TEST(Reserve, R13_0_UnitsMayStayInTheReserve) {
  Home h;
  h.reserve_phase();
  h.place(U::kInfantry, "B5");
  const auto ev = h.p.apply_ok(act::end_phase(0));
  EXPECT_EQ(h.p.state.current, 1);
  EXPECT_EQ(h.p.reserve_count(0, U::kInfantry), 7);
  EXPECT_EQ(count_of(ev, EventKind::kTurnStarted), 1);
}

TEST(Reserve, R13_0_EmptyReserveEndsTheTurn) {
  Position p(2);
  p.fill(Terrain::kPlains);
  p.capital(0, p.at("B5")).capital(1, p.at("G6"));
  p.unit(0, U::kInfantry, p.at("B5"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::end_phase(0));
  EXPECT_EQ(p.state.current, 1);
  EXPECT_EQ(p.state.phase, Phase::kBuild);
}

TEST(Reserve, R13_0_OnlyInTheReservePhase) {
  Home h;
  h.p.start_turn(0, Phase::kMovement);
  EXPECT_EQ(h.refuse(U::kInfantry, "B5"), "wrong_phase");
}

TEST(Reserve, R9_2_PlacedUnitsRevealTheirNeighbours) {
  Home h;
  h.p.face_down(h.p.at("C2"), Terrain::kMountain);  // next to D2
  h.reserve_phase();
  const auto ev = h.place(U::kInfantry, "D2");
  EXPECT_TRUE(h.p.state.hexes[h.p.at("C2")].revealed);
  EXPECT_EQ(h.p.state.hexes[h.p.at("C2")].terrain, Terrain::kMountain);
  EXPECT_EQ(count_of(ev, EventKind::kTileRevealed), 1);
}

}  // namespace
}  // namespace viktory
