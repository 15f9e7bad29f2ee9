// Naval transport of land units [9.4x] and Frigates ferrying after attacks [11.3].
#include <gtest/gtest.h>

#include "fixture.h"

namespace viktory {
namespace {

using testing::count_of;
using testing::events_of;
using testing::Position;

// Plains with a small sea E6-E8 (joined to the perimeter at E9). Land around E6: D5, D6, E5,
// F5, F6. Player 0: Capital C3 (a Plains City: two Infantry), a Forest City G3 (Infantry and
// a Frigate), a Town B5 (Infantry), a Mountain City E3 (Infantry and Artillery). Player 1:
// Capital G6 with its Infantry, a Mountain City H4 (Infantry and Artillery).
Position harbour() {
  Position p(2);
  p.fill(Terrain::kPlains);
  p.terrain({p.at("E6"), p.at("E7"), p.at("E8")}, Terrain::kWater);
  p.capital(0, p.at("C3"), /*is_city=*/true);
  p.terrain(p.at("G3"), Terrain::kForest).city(0, p.at("G3"));
  p.town(0, p.at("B5"));
  p.terrain(p.at("E3"), Terrain::kMountain).city(0, p.at("E3"));
  p.capital(1, p.at("G6"));
  p.terrain(p.at("H4"), Terrain::kMountain).city(1, p.at("H4"));
  p.unit(1, UnitType::kInfantry, p.at("G6"));
  return p;
}

TEST(Transport, R9_42_EmbarkingCostsTheFrigateNothing) {
  Position p = harbour();
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E6"));
  const int inf = p.unit(0, UnitType::kInfantry, p.at("D5"));
  p.start_turn(0, Phase::kMovement);
  const auto ev = p.apply_ok(act::embark(0, inf, frigate));
  EXPECT_EQ(p.u(frigate).moves_left, 5);
  EXPECT_EQ(p.u(inf).carrier, frigate);
  EXPECT_EQ(p.u(inf).hex, p.at("E6"));
  EXPECT_TRUE(p.u(inf).transported);
  EXPECT_EQ(p.u(inf).moves_left, 0);  // its whole allowance [9.43]
  ASSERT_EQ(count_of(ev, EventKind::kUnitEmbarked), 1);
  EXPECT_EQ(events_of(ev, EventKind::kUnitEmbarked)[0].other_unit, frigate);
  EXPECT_TRUE(p.units_on(p.at("E6"), 0) == std::vector<int>{frigate});  // cargo is not "on" it
}

TEST(Transport, R9_42_EmbarkOnlyOntoAnAdjacentOwnFrigate) {
  Position p = harbour();
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E7"));
  const int inf = p.unit(0, UnitType::kInfantry, p.at("D5"));
  const int art = p.unit(1, UnitType::kArtillery, p.at("F6"));
  p.start_turn(0, Phase::kMovement);
  EXPECT_EQ(p.apply_error(act::embark(0, inf, frigate)), "not_adjacent");
  EXPECT_EQ(p.apply_error(act::embark(0, inf, inf)), "bad_carrier");
  EXPECT_EQ(p.apply_error(act::embark(0, frigate, frigate)), "not_land_unit");
  EXPECT_EQ(p.apply_error(act::embark(0, art, frigate)), "not_your_unit");
  p.apply_ok(act::move(0, frigate, p.at("E6")));
  p.apply_ok(act::embark(0, inf, frigate));
}

TEST(Transport, R9_42_PickUpsFromSeveralPlaces) {
  Position p = harbour();
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E8"));
  const int first = p.unit(0, UnitType::kInfantry, p.at("D7"));
  const int second = p.unit(0, UnitType::kInfantry, p.at("D5"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::embark(0, first, frigate));  // next to E8
  p.apply_ok(act::move(0, frigate, p.at("E7")));
  p.apply_ok(act::move(0, frigate, p.at("E6")));
  p.apply_ok(act::embark(0, second, frigate));  // next to E6
  EXPECT_EQ(p.u(frigate).moves_left, 3);
  p.apply_ok(act::move(0, frigate, p.at("E7")));
  EXPECT_EQ(p.u(first).hex, p.at("E7"));
  EXPECT_EQ(p.u(second).hex, p.at("E7"));
}

TEST(Transport, R9_44_ArtilleryThatBombardedCannotBeTransported) {
  Position p = harbour();
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E6"));
  const int art = p.unit(0, UnitType::kArtillery, p.at("D6"));
  p.unit(1, UnitType::kInfantry, p.at("C6"));
  p.start_turn(0, Phase::kMovement);
  p.dice({6});
  p.apply_ok(act::bombard(0, art, p.at("C6")));
  EXPECT_EQ(p.apply_error(act::embark(0, art, frigate)), "moved");
}

TEST(Transport, R9_41_ThreeUnitsAtOnce) {
  Position p = harbour();
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E6"));
  std::vector<int> inf;
  for (const char* l : {"D5", "D6", "E5", "F5"})
    inf.push_back(p.unit(0, UnitType::kInfantry, p.at(l)));
  p.start_turn(0, Phase::kMovement);
  for (int i = 0; i < 3; ++i) p.apply_ok(act::embark(0, inf[i], frigate));
  EXPECT_EQ(p.apply_error(act::embark(0, inf[3], frigate)), "frigate_full");
}

TEST(Transport, R9_41_ThreeUnitsPerTurn) {
  Position p = harbour();
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E6"));
  std::vector<int> inf;
  for (const char* l : {"D5", "D6", "E5", "F5"})
    inf.push_back(p.unit(0, UnitType::kInfantry, p.at(l)));
  p.start_turn(0, Phase::kMovement);
  for (int i = 0; i < 3; ++i) p.apply_ok(act::embark(0, inf[i], frigate));
  for (int i = 0; i < 3; ++i) p.apply_ok(act::disembark(0, inf[i], p.at("F6")));
  // Empty again, but it has carried three land units this turn.
  EXPECT_EQ(p.apply_error(act::embark(0, inf[3], frigate)), "frigate_full");
}

TEST(Transport, R9_43_NoLandMoveBeforeTransport) {
  Position p = harbour();
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E6"));
  const int inf = p.unit(0, UnitType::kInfantry, p.at("D4"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, inf, p.at("D5")));
  EXPECT_EQ(p.apply_error(act::embark(0, inf, frigate)), "moved");
}

TEST(Transport, R9_43_NoLandMoveAfterTransport) {
  Position p = harbour();
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E6"));
  const int inf = p.unit(0, UnitType::kInfantry, p.at("D5"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::embark(0, inf, frigate));
  EXPECT_EQ(p.apply_error(act::move(0, inf, p.at("E7"))), "cargo");  // cargo moves with its ship
  p.apply_ok(act::disembark(0, inf, p.at("F5")));
  EXPECT_EQ(p.u(inf).hex, p.at("F5"));
  EXPECT_EQ(p.u(inf).carrier, -1);
  EXPECT_NE(p.apply_error(act::move(0, inf, p.at("F4"))), "accepted");
  EXPECT_EQ(p.apply_error(act::embark(0, inf, frigate)), "moved");
}

TEST(Transport, R9_45_CargoSailsWithItsFrigate) {
  Position p = harbour();
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E6"));
  const int inf = p.unit(0, UnitType::kInfantry, p.at("D5"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::embark(0, inf, frigate));
  p.apply_ok(act::move(0, frigate, p.at("E7")));
  p.apply_ok(act::move(0, frigate, p.at("E8")));
  EXPECT_EQ(p.u(inf).hex, p.at("E8"));
  EXPECT_EQ(p.u(frigate).moves_left, 3);
  EXPECT_CONSISTENT(p);
}

TEST(Transport, R9_46_OneLandingHexPerTurn) {
  Position p = harbour();
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E6"));
  const int a = p.cargo(0, UnitType::kInfantry, frigate);
  const int b = p.cargo(0, UnitType::kInfantry, frigate);
  const int c = p.cargo(0, UnitType::kInfantry, frigate);
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::disembark(0, a, p.at("D6")));
  EXPECT_EQ(p.apply_error(act::disembark(0, b, p.at("F6"))), "one_landing_hex");
  p.apply_ok(act::disembark(0, b, p.at("D6")));
  EXPECT_EQ(p.apply_error(act::disembark(0, c, p.at("E7"))), "bad_landing");  // water
  EXPECT_EQ(p.u(c).carrier, frigate);
}

TEST(Transport, R9_46_LandingEndsTheFrigatesMove) {
  Position p = harbour();
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E6"));
  const int a = p.cargo(0, UnitType::kInfantry, frigate);
  const int b = p.unit(0, UnitType::kInfantry, p.at("F5"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::disembark(0, a, p.at("D6")));
  EXPECT_TRUE(p.u(frigate).move_done);
  EXPECT_EQ(p.apply_error(act::move(0, frigate, p.at("E7"))), "move_finished");
  // [9.47, 11.3] It may still pick up and land units where it stands.
  p.apply_ok(act::embark(0, b, frigate));
  p.apply_ok(act::disembark(0, b, p.at("D6")));
  EXPECT_EQ(p.u(b).hex, p.at("D6"));
}

TEST(Transport, R9_45_CargoStaysAtSeaBetweenTurns) {
  Position p = harbour();
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E6"));
  const int inf = p.unit(0, UnitType::kInfantry, p.at("D5"));
  const int more[] = {p.unit(0, UnitType::kInfantry, p.at("D6")),
                      p.unit(0, UnitType::kInfantry, p.at("E5")),
                      p.unit(0, UnitType::kInfantry, p.at("F5"))};
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::embark(0, inf, frigate));
  p.apply_ok(act::end_phase(0));  // to the Reserve Placement Phase
  if (p.state.phase == Phase::kReserve) p.apply_ok(act::end_phase(0));
  ASSERT_EQ(p.state.current, 1);
  EXPECT_EQ(p.u(inf).carrier, frigate);
  p.start_turn(0, Phase::kMovement);
  EXPECT_EQ(p.u(inf).carrier, frigate);
  EXPECT_EQ(p.u(inf).hex, p.at("E6"));
  // Cargo from last turn counts toward this turn's three [9.41].
  p.apply_ok(act::embark(0, more[0], frigate));
  p.apply_ok(act::embark(0, more[1], frigate));
  p.apply_ok(act::disembark(0, more[0], p.at("F6")));
  EXPECT_EQ(p.apply_error(act::embark(0, more[2], frigate)), "frigate_full");
  p.apply_ok(act::disembark(0, inf, p.at("F6")));
  EXPECT_EQ(p.u(inf).hex, p.at("F6"));
  EXPECT_CONSISTENT(p);
}

TEST(Transport, R9_45_CargoIsLostWithItsFrigate) {
  Position p = harbour();
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E6"));
  const int a = p.cargo(0, UnitType::kInfantry, frigate);
  const int b = p.cargo(0, UnitType::kArtillery, frigate);
  const int art = p.unit(1, UnitType::kArtillery, p.at("F6"));
  p.start_turn(1, Phase::kMovement);
  p.dice({3});
  const auto ev = p.apply_ok(act::bombard(1, art, p.at("E6")));
  for (int id : {frigate, a, b}) {
    EXPECT_EQ(p.u(id).place, UnitPlace::kReserve) << id;
    EXPECT_EQ(p.u(id).carrier, -1);
  }
  EXPECT_EQ(count_of(ev, EventKind::kUnitLost), 3);
  EXPECT_EQ(count_of(ev, EventKind::kUnitHit), 1);  // only the Frigate was hit
  EXPECT_CONSISTENT(p);
}

TEST(Transport, R9_44_TransportedArtilleryMayNotBombard) {
  Position p = harbour();
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E6"));
  const int art = p.unit(0, UnitType::kArtillery, p.at("D6"));
  p.unit(1, UnitType::kInfantry, p.at("F5"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::embark(0, art, frigate));
  EXPECT_EQ(p.apply_error(act::bombard(0, art, p.at("F5"))), "cargo");
  p.apply_ok(act::disembark(0, art, p.at("E5")));
  EXPECT_EQ(p.apply_error(act::bombard(0, art, p.at("F5"))), "transported");
}

TEST(Transport, R9_44_TransportedArtilleryMayBattle) {
  Position p = harbour();
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E6"));
  const int art = p.cargo(0, UnitType::kArtillery, frigate);
  const int enemy = p.unit(1, UnitType::kInfantry, p.at("F5"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::disembark(0, art, p.at("F5")));  // an amphibious landing [9.47]
  EXPECT_EQ(pending_battles(p.state), std::vector<int>{p.at("F5")});
  p.dice({2});  // pre-battle fire: a hit kills the only defender outside a Town
  const auto ev = p.apply_ok(act::start_battle(0, p.at("F5")));
  EXPECT_EQ(testing::rolls(ev, RollPurpose::kPreBattleFire), std::vector<std::vector<int>>{{2}});
  EXPECT_EQ(p.u(enemy).place, UnitPlace::kReserve);
  EXPECT_FALSE(p.state.battle.has_value());
}

TEST(Transport, R9_47_AmphibiousLandingStartsABattleAndRetreatsGoBackAboard) {
  Position p = harbour();
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E6"));
  const int a = p.cargo(0, UnitType::kInfantry, frigate);
  const int b = p.cargo(0, UnitType::kInfantry, frigate);
  const int enemy = p.units_on(p.at("G6"), 1).front();
  p.state.units[enemy].hex = p.at("F6");
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::disembark(0, a, p.at("F6")));
  p.apply_ok(act::disembark(0, b, p.at("F6")));
  EXPECT_EQ(pending_battles(p.state), std::vector<int>{p.at("F6")});
  p.dice({5, 6});  // attacker's one Infantry die misses, so does the defender's
  p.apply_ok(act::start_battle(0, p.at("F6")));
  ASSERT_TRUE(p.state.battle.has_value());
  ASSERT_EQ(p.state.battle->stage, BattleStage::kRetreatOption);
  EXPECT_EQ(decider(p.state), 0);
  EXPECT_EQ(p.apply_error(act::retreat(0, a, p.at("F5"))), "bad_retreat");  // not an entry hex
  p.apply_ok(act::retreat(0, a, p.at("E6")));
  EXPECT_EQ(p.u(a).carrier, frigate);
  EXPECT_EQ(p.apply_error(act::continue_battle(0)), "retreat_started");
  p.apply_ok(act::retreat(0, b, p.at("E6")));
  EXPECT_FALSE(p.state.battle.has_value());
  EXPECT_EQ(p.u(b).carrier, frigate);
  EXPECT_EQ(p.u(enemy).hex, p.at("F6"));
  EXPECT_CONSISTENT(p);
}

TEST(Transport, R9_47_FullLoadMayRetreatBackAboard) {
  // [9.41] three *different* land units a turn (docs/rules-notes.md): the three units a
  // Frigate landed are no new units when they climb back aboard in a retreat [12.3 step 3].
  Position p = harbour();
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E6"));
  const int cargo[] = {p.cargo(0, UnitType::kInfantry, frigate),
                       p.cargo(0, UnitType::kInfantry, frigate),
                       p.cargo(0, UnitType::kArtillery, frigate)};
  const int enemy = p.units_on(p.at("G6"), 1).front();
  p.state.units[enemy].hex = p.at("F6");
  p.start_turn(0, Phase::kMovement);
  for (int id : cargo) p.apply_ok(act::disembark(0, id, p.at("F6")));
  p.dice({5, 5, 6, 6});  // pre-battle, attacker (Infantry, Artillery), defender: all miss
  p.apply_ok(act::start_battle(0, p.at("F6")));
  ASSERT_TRUE(p.state.battle.has_value());
  EXPECT_EQ(p.state.battle->stage, BattleStage::kRetreatOption);
  for (int id : cargo) p.apply_ok(act::retreat(0, id, p.at("E6")));
  for (int id : cargo) EXPECT_EQ(p.u(id).carrier, frigate);
  EXPECT_FALSE(p.state.battle.has_value());
}

TEST(Transport, R9_47_FerryAfterWinningANavalBattle) {
  // [9.47 example] Move into a Naval Battle, win it, then ferry land units from one land hex
  // next to that water hex to another.
  Position p = harbour();
  p.terrain(p.at("D7"), Terrain::kForest).city(1, p.at("D7"));
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E8"));
  const int enemy = p.unit(1, UnitType::kFrigate, p.at("E6"));
  const int inf = p.unit(0, UnitType::kInfantry, p.at("D5"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, frigate, p.at("E7")));
  p.apply_ok(act::move(0, frigate, p.at("E6")));
  p.dice({2, 6});
  p.apply_ok(act::start_battle(0, p.at("E6")));
  ASSERT_EQ(p.u(enemy).place, UnitPlace::kReserve);
  EXPECT_TRUE(p.u(frigate).attacked);
  p.apply_ok(act::embark(0, inf, frigate));
  p.apply_ok(act::disembark(0, inf, p.at("F5")));
  EXPECT_EQ(p.u(inf).hex, p.at("F5"));
  EXPECT_CONSISTENT(p);
}

TEST(Transport, R11_3_FrigateMayFerryAfterBombarding) {
  Position p = harbour();
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E6"));
  const int inf = p.unit(0, UnitType::kInfantry, p.at("D5"));
  p.unit(1, UnitType::kInfantry, p.at("F7"));
  p.start_turn(0, Phase::kMovement);
  p.dice({6});
  p.apply_ok(act::bombard(0, frigate, p.at("F7")));
  EXPECT_TRUE(p.u(frigate).attacked);
  EXPECT_EQ(p.apply_error(act::move(0, frigate, p.at("E7"))), "attacked");
  p.apply_ok(act::embark(0, inf, frigate));
  p.apply_ok(act::disembark(0, inf, p.at("F6")));
  EXPECT_EQ(p.u(inf).hex, p.at("F6"));
}

}  // namespace
}  // namespace viktory
