// Town/City Relocation [15.5]: instead of building, remove a Town or City (its units are
// eliminated) and rebuild it whole in an adjacent hex in the same Building Phase.
#include <gtest/gtest.h>

#include <algorithm>

#include "fixture.h"

namespace viktory {
namespace {

using testing::count_of;
using testing::events_of;
using testing::Position;

using U = UnitType;

Options relocation() {
  Options o;
  o.town_relocation = true;
  return o;
}

// Plains. Player 0: Capital D3 and a Town E6; player 1: Capital G6. From E6 the Town may go
// to E5, D5, D6, E7 or F5, not to F6 (next to G6).
Position towns(Options options = relocation()) {
  Position p(2, 0, options);
  p.fill(Terrain::kPlains);
  p.capital(0, p.at("D3")).capital(1, p.at("G6"));
  p.town(0, p.at("E6"));
  return p;
}

bool offered(const Position& p, const Action& a) {
  const auto legal = legal_actions(p.state, a.player);
  return std::find(legal.begin(), legal.end(), a) != legal.end();
}

TEST(Relocation, R15_5_RemoveThenRebuildNextDoorInTheSameBuildingPhase) {
  Position p = towns();
  p.start_turn(0);
  ASSERT_EQ(p.state.phase, Phase::kBuild);
  EXPECT_TRUE(offered(p, act::remove_town(0, p.at("E6"))));
  const auto removed = p.apply_ok(act::remove_town(0, p.at("E6")));
  EXPECT_EQ(count_of(removed, EventKind::kTownRemoved), 1);
  EXPECT_EQ(p.state.hexes[p.at("E6")].town_owner, kNoPlayer);
  // Its Infantry is eliminated; both of his Infantry wait in the Reserve, so it cannot matter
  // which one goes back to stock.
  EXPECT_EQ(count_of(removed, EventKind::kUnitEliminated), 1);
  EXPECT_EQ(p.stock_count(0, U::kInfantry), 1);
  ASSERT_TRUE(p.state.relocation.has_value());
  EXPECT_EQ(p.state.phase, Phase::kBuild);
  EXPECT_EQ(decider(p.state), 0);
  // Nothing else until it stands again, and only next to where it stood [15.5, 7.21].
  EXPECT_EQ(p.apply_error(act::build_town(0, p.at("B5"))), "decision_pending");
  EXPECT_EQ(p.apply_error(act::end_phase(0)), "decision_pending");
  EXPECT_EQ(p.apply_error(act::rebuild_town(0, p.at("E4"))), "bad_rebuild_site");  // not adjacent
  EXPECT_EQ(p.apply_error(act::rebuild_town(0, p.at("F6"))), "bad_rebuild_site");  // next to G6
  EXPECT_FALSE(offered(p, act::rebuild_town(0, p.at("F6"))));
  EXPECT_TRUE(offered(p, act::rebuild_town(0, p.at("E5"))));
  const auto rebuilt = p.apply_ok(act::rebuild_town(0, p.at("E5")));
  const auto moved = events_of(rebuilt, EventKind::kTownRelocated);
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0].from_hex, p.at("E6"));
  EXPECT_EQ(moved[0].hex, p.at("E5"));
  EXPECT_EQ(p.state.hexes[p.at("E5")].town_owner, 0);
  EXPECT_TRUE(p.state.hexes[p.at("E5")].built_this_turn);   // not a road or port yet [9.13]
  EXPECT_EQ(count_of(rebuilt, EventKind::kUnitGained), 1);  // its Infantry again [7.4]
  EXPECT_EQ(p.reserve_count(0, U::kInfantry), 2);
  // That was his build for the turn [7.2].
  EXPECT_EQ(p.state.phase, Phase::kMovement);
  EXPECT_FALSE(p.state.relocation.has_value());
  EXPECT_CONSISTENT(p);
}

TEST(Relocation, R15_5_ACityIsRebuiltWholeWithTheUnitsOfItsNewTerrain) {
  Position p = towns();
  p.terrain(p.at("C6"), Terrain::kForest).city(0, p.at("C6"));
  p.terrain(p.at("C5"), Terrain::kMountain);
  p.start_turn(0);
  p.apply_ok(act::remove_town(0, p.at("C6")));
  // Infantry and Frigate go back to stock (the Infantry chosen by the engine: all alike).
  EXPECT_EQ(p.stock_count(0, U::kFrigate), 1);
  EXPECT_EQ(p.stock_count(0, U::kInfantry), 1);
  const auto ev = p.apply_ok(act::rebuild_town(0, p.at("C5")));
  EXPECT_TRUE(p.state.hexes[p.at("C5")].city);
  EXPECT_EQ(events_of(ev, EventKind::kTownRelocated)[0].value, 1);
  EXPECT_EQ(p.reserve_count(0, U::kArtillery), 1);  // a Mountain City [8.2]
  EXPECT_EQ(p.reserve_count(0, U::kFrigate), 0);
  EXPECT_CONSISTENT(p);
}

TEST(Relocation, R15_5_TheUnitsToEliminateAreHisChoice) {
  Position p = towns();
  const int on_map = p.unit(0, U::kInfantry, p.at("B5"));
  p.start_turn(0);
  p.apply_ok(act::remove_town(0, p.at("E6")));
  // One Infantry in the Reserve, one on the map: he picks [10.2].
  ASSERT_TRUE(p.state.elimination.has_value());
  EXPECT_EQ(p.apply_error(act::rebuild_town(0, p.at("E5"))), "decision_pending");
  p.apply_ok(act::eliminate_unit(0, on_map));
  EXPECT_EQ(p.u(on_map).place, UnitPlace::kStock);
  p.apply_ok(act::rebuild_town(0, p.at("D6")));
  EXPECT_CONSISTENT(p);
}

TEST(Relocation, R15_5_TheCapitalMarkerMovesWithItsTown) {
  Position p = towns();
  p.start_turn(0);
  p.apply_ok(act::remove_town(0, p.at("D3")));
  p.apply_ok(act::rebuild_town(0, p.at("D4")));
  EXPECT_EQ(p.state.players[0].capital_hex, p.at("D4"));
  EXPECT_EQ(p.state.hexes[p.at("D4")].capital_of, 0);
  EXPECT_EQ(p.state.hexes[p.at("D3")].capital_of, kNoPlayer);
  EXPECT_EQ(p.state.hexes[p.at("D3")].town_owner, kNoPlayer);
  // Still his Capital next turn: any unit may be placed there [13.4].
  p.apply_ok(act::end_phase(0));
  ASSERT_EQ(p.state.phase, Phase::kReserve);
  p.apply_ok(act::place_reserve(0, U::kInfantry, p.at("D4")));
  p.apply_ok(act::place_reserve(0, U::kInfantry, p.at("D4")));
  EXPECT_CONSISTENT(p);
}

TEST(Relocation, R15_5_HisOnlyTownRelocatedDoesNotEliminateHim) {
  Position p(2, 0, relocation());
  p.fill(Terrain::kPlains);
  p.capital(0, p.at("D3")).capital(1, p.at("G6"));  // his Capital is all he has
  p.start_turn(0);
  p.apply_ok(act::remove_town(0, p.at("D3")));
  EXPECT_FALSE(p.state.players[0].eliminated);  // [8.2 Key Concept] waits for the rebuild
  EXPECT_NE(p.state.phase, Phase::kGameOver);
  p.apply_ok(act::rebuild_town(0, p.at("C3")));
  EXPECT_EQ(p.state.hexes[p.at("C3")].town_owner, 0);
  EXPECT_CONSISTENT(p);
}

TEST(Relocation, R15_5_OnlyWhereItCanBeRebuilt) {
  Position p = towns();
  p.town(0, p.at("B5"));  // by the perimeter: neighbours A4, A5, B6 (water), B4, C5, C6
  p.terrain({p.at("B4"), p.at("C5"), p.at("C6")}, Terrain::kWater);
  p.start_turn(0);
  EXPECT_EQ(p.apply_error(act::remove_town(0, p.at("B5"))), "no_rebuild_site");
  EXPECT_FALSE(offered(p, act::remove_town(0, p.at("B5"))));
  EXPECT_EQ(p.apply_error(act::remove_town(0, p.at("G6"))), "not_your_town");
}

TEST(Relocation, R15_5_NotOnAnotherPlayersUnit) {
  Position p = towns();
  p.unit(1, U::kInfantry, p.at("E7"));
  p.start_turn(0);
  p.apply_ok(act::remove_town(0, p.at("E6")));
  EXPECT_EQ(p.apply_error(act::rebuild_town(0, p.at("E7"))), "bad_rebuild_site");  // [7.22]
}

TEST(Relocation, R15_5_InsteadOfBuildingAndOnlyWithTheRule) {
  Position p = towns();
  p.start_turn(0);
  p.apply_ok(act::build_town(0, p.at("B5")));  // his build for the turn
  EXPECT_EQ(p.apply_error(act::remove_town(0, p.at("E6"))), "wrong_phase");
  Position off = towns(Options{});
  off.start_turn(0);
  EXPECT_EQ(off.apply_error(act::remove_town(0, off.at("E6"))), "not_in_play");
  EXPECT_FALSE(offered(off, act::remove_town(0, off.at("E6"))));
}

}  // namespace
}  // namespace viktory
