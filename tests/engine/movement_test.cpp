// Land and naval movement [9.0-9.32].
#include <gtest/gtest.h>

#include <numeric>

#include "fixture.h"

namespace viktory {
namespace {

using testing::count_of;
using testing::events_of;
using testing::Position;

// Plains everywhere; player 0's Capital at D3, player 1's at G6 with his Infantry on it.
Position plains() {
  Position p(2);
  p.fill(Terrain::kPlains);
  p.capital(0, p.at("D3")).capital(1, p.at("G6"));
  p.unit(1, UnitType::kInfantry, p.at("G6"));
  return p;
}

// Moves `unit` along `path`, one adjacent step per action.
void walk(Position& p, int player, int unit, const std::vector<std::string>& path) {
  for (const auto& label : path) p.apply_ok(act::move(player, unit, p.at(label)));
}

TEST(Movement, R9_11_MovementAllowances) {
  Position p = plains();
  p.terrain(p.at("B3"), Terrain::kMountain).city(0, p.at("B3"));
  p.terrain(p.at("F3"), Terrain::kGrassland).city(0, p.at("F3"));
  p.terrain(p.at("B5"), Terrain::kForest).city(0, p.at("B5"));
  const int inf = p.unit(0, UnitType::kInfantry, p.at("D3"));
  const int art = p.unit(0, UnitType::kArtillery, p.at("B3"));
  const int cav = p.unit(0, UnitType::kCavalry, p.at("F3"));
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("A4"));
  p.start_turn(0, Phase::kMovement);
  EXPECT_EQ(p.u(inf).moves_left, 2);
  EXPECT_EQ(p.u(art).moves_left, 2);
  EXPECT_EQ(p.u(cav).moves_left, 3);
  EXPECT_EQ(p.u(frigate).moves_left, 5);

  walk(p, 0, inf, {"D4", "D5"});
  EXPECT_EQ(p.apply_error(act::move(0, inf, p.at("D6"))), "move_finished");
  walk(p, 0, art, {"C4", "C5"});
  EXPECT_EQ(p.apply_error(act::move(0, art, p.at("C6"))), "move_finished");
  walk(p, 0, cav, {"F4", "F5", "F6"});
  EXPECT_EQ(p.apply_error(act::move(0, cav, p.at("F7"))), "move_finished");
  walk(p, 0, frigate, {"A5", "B6", "C7", "D8", "E9"});
  EXPECT_EQ(p.apply_error(act::move(0, frigate, p.at("F8"))), "move_finished");
  EXPECT_EQ(p.u(frigate).hex, p.at("E9"));
  EXPECT_CONSISTENT(p);
}

TEST(Movement, R9_0_OneStepAtATimeToAdjacentHexes) {
  Position p = plains();
  const int inf = p.unit(0, UnitType::kInfantry, p.at("D3"));
  p.start_turn(0, Phase::kMovement);
  EXPECT_EQ(p.apply_error(act::move(0, inf, p.at("D5"))), "not_adjacent");  // not a road
  EXPECT_EQ(p.apply_error(act::move(1, inf, p.at("D4"))), "not_your_decision");
  const auto ev = p.apply_ok(act::move(0, inf, p.at("D4")));
  const auto moved = events_of(ev, EventKind::kUnitMoved);
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0].from_hex, p.at("D3"));
  EXPECT_EQ(moved[0].hex, p.at("D4"));
  EXPECT_EQ(moved[0].value, 0);
  EXPECT_EQ(p.u(inf).moves_left, 1);
}

TEST(Movement, R9_0_NoMovingOutsideTheMovementPhase) {
  Position p = plains();
  const int inf = p.unit(0, UnitType::kInfantry, p.at("D3"));
  p.start_turn(0, Phase::kBuild);
  EXPECT_EQ(p.apply_error(act::move(0, inf, p.at("D4"))), "wrong_phase");
}

TEST(Movement, R9_0_CannotMoveEnemyUnits) {
  Position p = plains();
  p.unit(0, UnitType::kInfantry, p.at("D3"));
  p.start_turn(0, Phase::kMovement);
  const int enemy = p.units_on(p.at("G6"), 1).front();
  EXPECT_EQ(p.apply_error(act::move(0, enemy, p.at("G5"))), "not_your_unit");
}

TEST(Movement, R9_1_LandUnitsStayOnLand) {
  Position p = plains();
  p.terrain(p.at("D4"), Terrain::kWater);
  const int inf = p.unit(0, UnitType::kInfantry, p.at("D3"));
  p.start_turn(0, Phase::kMovement);
  EXPECT_EQ(p.apply_error(act::move(0, inf, p.at("D4"))), "not_land");
}

TEST(Movement, R9_0_OneUnitFinishesBeforeAnotherMoves) {
  Position p = plains();
  p.town(0, p.at("B3"));
  const int a = p.unit(0, UnitType::kInfantry, p.at("D3"));
  const int b = p.unit(0, UnitType::kInfantry, p.at("B3"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, a, p.at("D4")));
  EXPECT_EQ(p.u(a).moves_left, 1);
  EXPECT_EQ(p.state.active_unit, a);
  p.apply_ok(act::move(0, b, p.at("B4")));
  // Moving B finished A's movement: it may not resume [9.0 Procedure].
  EXPECT_TRUE(p.u(a).move_done);
  EXPECT_EQ(p.apply_error(act::move(0, a, p.at("D5"))), "move_finished");
  p.apply_ok(act::move(0, b, p.at("C5")));  // B itself goes on
}

TEST(Movement, R9_0_EnteringAnEnemyHexEndsMovement) {
  Position p = plains();
  const int inf = p.unit(0, UnitType::kInfantry, p.at("F5"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, inf, p.at("G5")));  // next to the enemy Capital: no effect
  EXPECT_FALSE(p.u(inf).move_done);
  Position q = plains();
  q.terrain(q.at("B3"), Terrain::kGrassland).city(0, q.at("B3"));
  const int cav = q.unit(0, UnitType::kCavalry, q.at("F5"));
  const int enemy = q.units_on(q.at("G6"), 1).front();
  q.state.units[enemy].hex = q.at("F6");  // the enemy Infantry stands outside his Capital
  q.start_turn(0, Phase::kMovement);
  q.apply_ok(act::move(0, cav, q.at("F6")));
  EXPECT_TRUE(q.u(cav).move_done);
  EXPECT_EQ(q.u(cav).moves_left, 0);
  EXPECT_EQ(q.apply_error(act::move(0, cav, q.at("F7"))), "move_finished");
  EXPECT_EQ(pending_battles(q.state), std::vector<int>{q.at("F6")});
  EXPECT_EQ(q.apply_error(act::end_phase(0)), "battle_pending");
}

TEST(Movement, R9_0_EnteringAnEmptyEnemyTownEndsMovement) {
  Position p = plains();
  p.town(1, p.at("E6"));
  const int inf = p.unit(0, UnitType::kInfantry, p.at("E4"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, inf, p.at("E5")));
  p.apply_ok(act::move(0, inf, p.at("E6")));
  EXPECT_TRUE(p.u(inf).move_done);
  EXPECT_EQ(pending_battles(p.state), std::vector<int>{p.at("E6")});
}

TEST(Movement, R9_12_SlowTerrainStopsAUnit) {
  Position p = plains();
  p.terrain(p.at("E5"), Terrain::kForest).terrain(p.at("C6"), Terrain::kMountain);
  p.terrain(p.at("B3"), Terrain::kGrassland).city(0, p.at("B3"));
  const int inf = p.unit(0, UnitType::kInfantry, p.at("E4"));
  const int cav = p.unit(0, UnitType::kCavalry, p.at("C5"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, inf, p.at("E5")));  // Forest
  EXPECT_TRUE(p.u(inf).move_done);
  EXPECT_EQ(p.apply_error(act::move(0, inf, p.at("E6"))), "move_finished");
  p.apply_ok(act::move(0, cav, p.at("C6")));  // Mountain, with two MPs left
  EXPECT_TRUE(p.u(cav).move_done);
  EXPECT_EQ(p.apply_error(act::move(0, cav, p.at("C7"))), "move_finished");
}

TEST(Movement, R9_12_ExceptionA_OwnTownOnSlowTerrain) {
  Position p = plains();
  p.terrain(p.at("F4"), Terrain::kForest).town(0, p.at("F4"));
  // The Town's Infantry waits in the Capital, so no land unit begins the turn in F4.
  p.unit(0, UnitType::kInfantry, p.at("D3"));
  const int mover = p.unit(0, UnitType::kInfantry, p.at("F5"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, mover, p.at("F4")));
  EXPECT_FALSE(p.u(mover).move_done);
  p.apply_ok(act::move(0, mover, p.at("F3")));
  EXPECT_EQ(p.u(mover).hex, p.at("F3"));
}

TEST(Movement, R9_12_ExceptionB_OwnUnitBeganTheTurnThere) {
  Position p = plains();
  p.terrain(p.at("E5"), Terrain::kMountain);
  p.town(0, p.at("B3"));
  const int holder = p.unit(0, UnitType::kInfantry, p.at("E5"));
  const int mover = p.unit(0, UnitType::kInfantry, p.at("E6"));
  p.start_turn(0, Phase::kMovement);
  // Even after the unit that began the turn there has left, the hex stays passable.
  p.apply_ok(act::move(0, holder, p.at("F5")));
  p.apply_ok(act::move(0, mover, p.at("E5")));
  EXPECT_FALSE(p.u(mover).move_done);
  p.apply_ok(act::move(0, mover, p.at("E4")));
  EXPECT_EQ(p.u(mover).hex, p.at("E4"));
}

TEST(Movement, R9_12_UnitArrivedThisTurnGivesNoException) {
  Position p = plains();
  p.terrain(p.at("E5"), Terrain::kMountain);
  p.town(0, p.at("B3"));
  const int first = p.unit(0, UnitType::kInfantry, p.at("E6"));
  const int second = p.unit(0, UnitType::kInfantry, p.at("F5"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, first, p.at("E5")));
  EXPECT_TRUE(p.u(first).move_done);
  p.apply_ok(act::move(0, second, p.at("E5")));
  EXPECT_TRUE(p.u(second).move_done);
  EXPECT_EQ(p.apply_error(act::move(0, second, p.at("E4"))), "move_finished");
}

TEST(Movement, R9_2_EnteringAHexRevealsItsNeighbours) {
  Position p = plains();
  const int inf = p.unit(0, UnitType::kInfantry, p.at("D4"));
  // D5's neighbours that D4 does not touch: D6, C5, E6.
  p.face_down(p.at("D6"), Terrain::kMountain).face_down(p.at("E6"), Terrain::kForest);
  p.state.hexes[p.at("C5")] = HexCell{};  // no tile yet: one is drawn from the bank
  p.start_turn(0, Phase::kMovement);
  const auto bank = p.state.tile_bank;
  const auto ev = p.apply_ok(act::move(0, inf, p.at("D5")));
  EXPECT_EQ(p.state.hexes[p.at("D6")].terrain, Terrain::kMountain);
  EXPECT_EQ(p.state.hexes[p.at("E6")].terrain, Terrain::kForest);
  EXPECT_NE(p.state.hexes[p.at("C5")].terrain, Terrain::kNone);
  for (const char* l : {"D6", "E6", "C5"}) EXPECT_TRUE(p.state.hexes[p.at(l)].revealed) << l;
  EXPECT_EQ(std::accumulate(bank.begin(), bank.end(), 0) - 1,
            std::accumulate(p.state.tile_bank.begin(), p.state.tile_bank.end(), 0));
  const auto reveals = events_of(ev, EventKind::kTileRevealed);
  EXPECT_EQ(reveals.size(), 3u);
  for (const Event& e : reveals) EXPECT_EQ(e.player, 0);
  EXPECT_TRUE(seals_turn(ev));
}

// ----- Road movement [9.13] -----

// Water everywhere but the row D3..D7 and player 1's corner; player 0's Capital at D3.
Position road_strip() {
  Position p(2);
  p.fill(Terrain::kWater);
  for (const char* l : {"D3", "D4", "D5", "D6", "D7", "G6", "G5"}) {
    p.terrain(p.at(l), Terrain::kPlains);
  }
  p.capital(0, p.at("D3")).capital(1, p.at("G6"));
  return p;
}

TEST(Movement, R9_13_RoadsBetweenTownsTwoOrThreeApart) {
  Position p = road_strip();
  p.town(0, p.at("D5")).town(0, p.at("D7"));
  const int inf = p.unit(0, UnitType::kInfantry, p.at("D3"));
  p.unit(1, UnitType::kInfantry, p.at("G6"));
  p.start_turn(0, Phase::kMovement);
  // [9.13 example] City A to City B, then on to City C: one MP each.
  auto ev = p.apply_ok(act::move(0, inf, p.at("D5")));
  ASSERT_EQ(events_of(ev, EventKind::kUnitMoved).size(), 1u);
  EXPECT_EQ(events_of(ev, EventKind::kUnitMoved)[0].value, 1);  // a road move
  EXPECT_EQ(p.u(inf).moves_left, 1);
  p.apply_ok(act::move(0, inf, p.at("D7")));
  EXPECT_EQ(p.u(inf).hex, p.at("D7"));
  EXPECT_EQ(p.u(inf).moves_left, 0);
}

TEST(Movement, R9_13_RoadThreeApartButNotFour) {
  Position p = road_strip();
  p.town(0, p.at("D6"));
  const int inf = p.unit(0, UnitType::kInfantry, p.at("D3"));
  p.unit(0, UnitType::kInfantry, p.at("D6"));
  p.unit(1, UnitType::kInfantry, p.at("G6"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, inf, p.at("D6")));
  EXPECT_EQ(p.u(inf).moves_left, 1);
  Position q = road_strip();
  q.town(0, q.at("D7"));
  const int far = q.unit(0, UnitType::kInfantry, q.at("D3"));
  q.unit(1, UnitType::kInfantry, q.at("G6"));
  q.start_turn(0, Phase::kMovement);
  EXPECT_EQ(q.apply_error(act::move(0, far, q.at("D7"))), "not_adjacent");
}

TEST(Movement, R9_13_RoadBlockedByEnemyUnits) {
  Position p = road_strip();
  p.town(0, p.at("D5"));
  const int inf = p.unit(0, UnitType::kInfantry, p.at("D3"));
  p.unit(0, UnitType::kInfantry, p.at("D5"));
  p.unit(1, UnitType::kInfantry, p.at("D4"));  // on the only land path
  p.start_turn(0, Phase::kMovement);
  EXPECT_EQ(p.apply_error(act::move(0, inf, p.at("D5"))), "not_adjacent");
}

TEST(Movement, R9_13_RoadNeedsLandHexes) {
  Position p = road_strip();
  p.terrain(p.at("D4"), Terrain::kWater);
  p.town(0, p.at("D5"));
  const int inf = p.unit(0, UnitType::kInfantry, p.at("D3"));
  p.unit(1, UnitType::kInfantry, p.at("G6"));
  p.start_turn(0, Phase::kMovement);
  ASSERT_EQ(p.board().distance(p.at("D3"), p.at("D5")), 2);
  EXPECT_EQ(p.apply_error(act::move(0, inf, p.at("D5"))), "not_adjacent");
}

TEST(Movement, R9_13_NewTownIsNoRoadYet) {
  Position p = road_strip();
  const int inf = p.unit(0, UnitType::kInfantry, p.at("D3"));
  p.unit(1, UnitType::kInfantry, p.at("G6"));
  p.start_turn(0, Phase::kBuild);
  p.apply_ok(act::build_town(0, p.at("D5")));
  ASSERT_EQ(p.state.phase, Phase::kMovement);
  EXPECT_EQ(p.apply_error(act::move(0, inf, p.at("D5"))), "not_adjacent");
}

TEST(Movement, R9_13_ConqueredTownIsARoadAtOnce) {
  Position p = road_strip();
  p.town(1, p.at("D5"));
  p.unit(1, UnitType::kInfantry, p.at("G6"));
  p.unit(1, UnitType::kInfantry, p.at("G6"));
  p.town(0, p.at("D7"));
  const int attacker = p.unit(0, UnitType::kInfantry, p.at("D4"));
  const int follower = p.unit(0, UnitType::kInfantry, p.at("D3"));
  p.start_turn(0, Phase::kMovement);
  EXPECT_EQ(p.apply_error(act::move(0, follower, p.at("D5"))), "not_adjacent");  // enemy's
  p.apply_ok(act::move(0, attacker, p.at("D5")));
  p.dice({6});  // the empty Town's one Defensive Terrain die misses [12.3 step 2]
  p.apply_ok(act::start_battle(0, p.at("D5")));
  ASSERT_EQ(p.state.hexes[p.at("D5")].town_owner, 0);
  p.apply_ok(act::move(0, follower, p.at("D5")));
  EXPECT_EQ(p.u(follower).hex, p.at("D5"));
  EXPECT_EQ(p.u(follower).moves_left, 1);
}

// ----- Frigates and ports [9.3, 9.32] -----

// Plains with a west sea (E2-E4) and an east sea (E6-E8) on either side of E5. Player 0: Capital
// C4 with its Infantry on D4, a Town at E5 (a port between the seas), a Forest City at G4 whose
// Frigate lies in E4. Player 1: Capital G6.
Position isthmus(bool port_town = true) {
  Position p(2);
  p.fill(Terrain::kPlains);
  p.terrain({p.at("E2"), p.at("E3"), p.at("E4"), p.at("E6"), p.at("E7"), p.at("E8")},
            Terrain::kWater);
  p.capital(0, p.at("C4")).capital(1, p.at("G6"));
  p.terrain(p.at("G4"), Terrain::kForest).city(0, p.at("G4"));
  if (port_town) p.town(0, p.at("E5"));
  p.unit(1, UnitType::kInfantry, p.at("G6"));
  return p;
}

TEST(Movement, R9_3_FrigatesStayOnWater) {
  Position p = isthmus();
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E4"));
  p.start_turn(0, Phase::kMovement);
  EXPECT_EQ(p.apply_error(act::move(0, frigate, p.at("D4"))), "not_water");
  EXPECT_EQ(p.apply_error(act::move(0, frigate, p.at("E2"))), "not_adjacent");
  p.apply_ok(act::move(0, frigate, p.at("E3")));
}

TEST(Movement, R9_32_PortTransitCostsTwo) {
  Position p = isthmus();
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E4"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, frigate, p.at("E5")));
  EXPECT_EQ(p.u(frigate).hex, p.at("E5"));
  EXPECT_EQ(p.u(frigate).moves_left, 4);
  p.apply_ok(act::move(0, frigate, p.at("E6")));
  EXPECT_EQ(p.u(frigate).moves_left, 3);
  walk(p, 0, frigate, {"E7", "E8"});
  EXPECT_EQ(p.u(frigate).moves_left, 1);
}

TEST(Movement, R9_32_AllAFrigateCanDoInPortIsLeave) {
  Position p = isthmus();
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E4"));
  const int inf = p.unit(0, UnitType::kInfantry, p.at("D4"));
  p.unit(0, UnitType::kInfantry, p.at("E5"));
  p.state.units[p.units_on(p.at("G6"), 1).front()].hex = p.at("F6");  // two hexes from E5
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, frigate, p.at("E5")));
  EXPECT_EQ(p.apply_error(act::move(0, inf, p.at("D5"))), "frigate_in_port");
  EXPECT_EQ(p.apply_error(act::embark(0, inf, frigate)), "in_port");
  EXPECT_EQ(p.apply_error(act::bombard(0, frigate, p.at("F6"))), "in_port");
  EXPECT_EQ(p.apply_error(act::end_phase(0)), "frigate_in_port");
  EXPECT_EQ(p.apply_error(act::move(0, frigate, p.at("D5"))), "must_leave_port");
  p.apply_ok(act::move(0, frigate, p.at("E6")));
  // Out of the port everything is allowed again.
  p.apply_ok(act::move(0, inf, p.at("D5")));
}

TEST(Movement, R9_32_EnteringAPortNeedsTwoMovementPoints) {
  Position p = isthmus();
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E2"));
  p.start_turn(0, Phase::kMovement);
  walk(p, 0, frigate, {"E3", "E2", "E3", "E4"});
  ASSERT_EQ(p.u(frigate).moves_left, 1);
  EXPECT_EQ(p.apply_error(act::move(0, frigate, p.at("E5"))), "port_needs_two");
}

TEST(Movement, R9_32_TownBuiltThisTurnIsNoPort) {
  Position p = isthmus(/*port_town=*/false);
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E4"));
  p.start_turn(0, Phase::kBuild);
  p.apply_ok(act::build_town(0, p.at("E5")));
  EXPECT_EQ(p.apply_error(act::move(0, frigate, p.at("E5"))), "not_water");
}

TEST(Movement, R9_32_EnemyTownIsNoPortUntilConquered) {
  Position p = isthmus(/*port_town=*/false);
  p.town(1, p.at("E5"));
  p.unit(1, UnitType::kInfantry, p.at("G6"));
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E4"));
  const int inf = p.unit(0, UnitType::kInfantry, p.at("D5"));
  p.start_turn(0, Phase::kMovement);
  EXPECT_EQ(p.apply_error(act::move(0, frigate, p.at("E5"))), "not_water");
  p.apply_ok(act::move(0, inf, p.at("E5")));
  p.dice({5});  // the Town's Defensive Terrain die misses
  p.apply_ok(act::start_battle(0, p.at("E5")));
  ASSERT_EQ(p.state.hexes[p.at("E5")].town_owner, 0);
  p.apply_ok(act::move(0, frigate, p.at("E5")));
  p.apply_ok(act::move(0, frigate, p.at("E6")));
  EXPECT_EQ(p.u(frigate).moves_left, 3);
}

}  // namespace
}  // namespace viktory
