// GamesByEmail's two house rules (docs/rules-notes.md, "House rules"): Defending Artillery
// Pre-fire [12.3 step 0, 12.31] and Redeployment [13.0-13.5].
#include <gtest/gtest.h>

#include <algorithm>

#include "battle_field.h"
#include "fixture.h"

namespace viktory {
namespace {

using testing::count_of;
using testing::events_of;
using testing::Position;
using testing::rolls;

using U = UnitType;

Options with_prefire(bool on = true) {
  Options o;
  o.defender_prefire = on;
  return o;
}

// The Battle field (battle_field.h) with two defending Artillery Cities.
struct Field : testing::BattleField {
  explicit Field(Options o = with_prefire()) : BattleField(o, Terrain::kPlains, 2) {}
};

std::size_t dice_count(const std::vector<Event>& ev, RollPurpose purpose) {
  const auto r = rolls(ev, purpose);
  return r.empty() ? 0 : r.front().size();
}

// --- Defending Artillery Pre-fire ---

TEST(DefenderPreFire, R12_3_Step0_EachDefendingArtilleryRollsOneDie) {
  for (const bool on : {false, true}) {
    Field f(with_prefire(on));
    f.defender(U::kArtillery);
    f.defender(U::kArtillery);
    f.defender(U::kInfantry);
    const int inf = f.attacker(U::kInfantry, "E4");
    f.advance({inf});
    f.p.dice({6, 6});
    const auto ev = f.p.apply_ok(act::start_battle(0, f.hex));
    EXPECT_EQ(dice_count(ev, RollPurpose::kPreBattleFire), 0u);  // no attacking Artillery
    EXPECT_EQ(dice_count(ev, RollPurpose::kDefenderPreFire), on ? 2u : 0u) << on;
  }
}

TEST(DefenderPreFire, R12_3_Step0_BothRollFirstTheAttackersHitsAreAssignedFirst) {
  Field f;
  const int def_art = f.defender(U::kArtillery);
  const int def_inf = f.defender(U::kInfantry);
  const int art = f.attacker(U::kArtillery, "E4");
  const int inf = f.attacker(U::kInfantry, "D4");
  f.advance({art, inf});
  f.p.dice({1, 1});  // the attacker's die, then the defender's: both '1', the firer picks
  const auto ev = f.p.apply_ok(act::start_battle(0, f.hex));
  // The two rolls come before any hit, the attacker's first.
  const auto rolled = events_of(ev, EventKind::kDiceRolled);
  ASSERT_EQ(rolled.size(), 2u);
  EXPECT_EQ(rolled[0].value, static_cast<int>(RollPurpose::kPreBattleFire));
  EXPECT_EQ(rolled[1].value, static_cast<int>(RollPurpose::kDefenderPreFire));
  EXPECT_EQ(count_of(ev, EventKind::kUnitHit), 0);
  ASSERT_TRUE(f.p.state.battle.has_value());
  EXPECT_EQ(f.p.state.battle->stage, BattleStage::kAssignPreFire);
  EXPECT_EQ(decider(f.p.state), 0);
  // The attacker takes out the defending Artillery: it has already fired back [12.3 step 1].
  f.p.apply_ok(act::choose_casualty(0, def_art));
  EXPECT_EQ(f.p.u(def_art).place, UnitPlace::kReserve);
  EXPECT_EQ(f.p.state.battle->stage, BattleStage::kAssignDefenderPreFire);
  EXPECT_EQ(decider(f.p.state), 1);
  f.p.dice({6, 6});  // the Fire Round: one die each side, both miss
  f.p.apply_ok(act::choose_casualty(1, art));
  EXPECT_EQ(f.p.u(art).place, UnitPlace::kReserve);  // pre-battle losses leave at once
  EXPECT_EQ(f.p.u(inf).hex, f.hex);
  EXPECT_EQ(f.p.u(def_inf).hex, f.hex);
  EXPECT_TRUE(f.p.state.scripted_dice.empty());
}

TEST(DefenderPreFire, R12_31_ExcessPreBattleHitsSuppressTheDefendersDice) {
  Field f;
  f.defender(U::kArtillery);
  f.defender(U::kArtillery);
  const int a1 = f.attacker(U::kArtillery, "E4");
  const int a2 = f.attacker(U::kArtillery, "D4");
  const int inf = f.attacker(U::kInfantry, "D5");
  f.advance({a1, a2, inf});
  // Two hits on two defenders: no excess, both defending Artillery fire back ...
  f.p.dice({2, 2, 6, 6});
  auto ev = f.p.apply_ok(act::start_battle(0, f.hex));
  EXPECT_EQ(dice_count(ev, RollPurpose::kDefenderPreFire), 2u);
  EXPECT_FALSE(f.p.state.battle.has_value());  // all defenders fell outside a Town [12.3 step 0]
  EXPECT_EQ(f.p.u(a1).hex, f.hex);

  // ... one hit too many takes one of their dice.
  Field g;
  g.defender(U::kArtillery);
  const int b1 = g.attacker(U::kArtillery, "E4");
  const int b2 = g.attacker(U::kArtillery, "D4");
  g.advance({b1, b2});
  g.p.dice({3, 3});
  ev = g.p.apply_ok(act::start_battle(0, g.hex));
  EXPECT_EQ(dice_count(ev, RollPurpose::kPreBattleFire), 2u);
  EXPECT_EQ(dice_count(ev, RollPurpose::kDefenderPreFire), 0u);
  EXPECT_TRUE(g.p.state.scripted_dice.empty());
}

TEST(DefenderPreFire, R12_3_Step0_DefendersFallenOutsideATownStillFireBack) {
  Field f;
  f.defender(U::kArtillery);
  const int art = f.attacker(U::kArtillery, "E4");
  const int inf = f.attacker(U::kInfantry, "D4");
  f.advance({art, inf});
  f.p.dice({3, 1});  // the Artillery falls, and its answer hits: the defender picks
  const auto ev = f.p.apply_ok(act::start_battle(0, f.hex));
  ASSERT_TRUE(f.p.state.battle.has_value());
  EXPECT_EQ(f.p.state.battle->stage, BattleStage::kAssignDefenderPreFire);
  EXPECT_EQ(decider(f.p.state), 1);
  const auto end = f.p.apply_ok(act::choose_casualty(1, art));
  EXPECT_EQ(f.p.u(art).place, UnitPlace::kReserve);
  // Then the Battle is over: the attacker won, with no Fire Round.
  EXPECT_FALSE(f.p.state.battle.has_value());
  const auto ended = events_of(end, EventKind::kBattleEnded);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].player, 0);
  EXPECT_EQ(count_of(ev, EventKind::kDiceRolled), 2);
}

TEST(DefenderPreFire, R12_3_Step4_PreFireTakingEveryAttackerEndsTheBattle) {
  Field f;
  f.defender(U::kArtillery);
  f.defender(U::kArtillery);
  const int def_inf = f.defender(U::kInfantry);
  const int inf = f.attacker(U::kInfantry, "E4");
  f.advance({inf});
  f.p.dice({2, 5});
  const auto ev = f.p.apply_ok(act::start_battle(0, f.hex));
  EXPECT_EQ(f.p.u(inf).place, UnitPlace::kReserve);
  EXPECT_FALSE(f.p.state.battle.has_value());
  EXPECT_EQ(dice_count(ev, RollPurpose::kAttackerFire), 0u);
  const auto ended = events_of(ev, EventKind::kBattleEnded);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].player, kNoPlayer);  // the defender held
  EXPECT_EQ(f.p.u(def_inf).hex, f.hex);
}

TEST(DefenderPreFire, R15_4_PreFireIsRolledNotAveraged) {
  Options o = with_prefire();
  o.luck_averaging = true;
  Field f(o);
  f.defender(U::kArtillery);
  f.defender(U::kArtillery);
  f.defender(U::kInfantry);
  f.defender(U::kInfantry);
  f.defender(U::kInfantry);
  const int inf = f.attacker(U::kInfantry, "E4");
  const int inf2 = f.attacker(U::kInfantry, "D4");
  const int inf3 = f.attacker(U::kInfantry, "D5");
  f.advance({inf, inf2, inf3});
  f.p.dice({6, 6});
  const auto ev = f.p.apply_ok(act::start_battle(0, f.hex));
  // Two pre-fire dice are rolled at once (no [15.4] choice for them, as for the attacker's).
  EXPECT_EQ(dice_count(ev, RollPurpose::kDefenderPreFire), 2u);
  EXPECT_EQ(count_of(ev, EventKind::kDiceAveraged), 0);
}

TEST(DefenderPreFire, R11_0_BombardedDefendingArtilleryIsGoneBeforeThePreFire) {
  Field f;
  const int def_art = f.defender(U::kArtillery);
  f.defender(U::kInfantry);
  const int gun = f.attacker(U::kArtillery, "C5");  // two hexes from E5
  const int inf = f.attacker(U::kInfantry, "E4");
  f.p.start_turn(0, Phase::kMovement);
  f.p.dice({1});
  f.p.apply_ok(act::bombard(0, gun, f.hex));
  f.p.apply_ok(act::choose_casualty(0, def_art));
  f.p.apply_ok(act::move(0, inf, f.hex));
  f.p.dice({6, 6});
  const auto ev = f.p.apply_ok(act::start_battle(0, f.hex));
  EXPECT_EQ(dice_count(ev, RollPurpose::kDefenderPreFire), 0u);
  EXPECT_EQ(dice_count(ev, RollPurpose::kAttackerFire), 1u);
}

// --- Redeployment ---

// Player 0 as in reserve_test.cpp's Home: Capital B5, Grassland Town B3, Plains City D2,
// Grassland Cities D7 and H3, Mountain City F2, Forest City E5 next to the water E6.
struct Home {
  Position p;
  explicit Home(bool on = true)
      : p(2, 0, [on] {
          Options o;
          o.redeployment = on;
          return o;
        }()) {
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
  void reserve_phase() {
    p.start_turn(0, Phase::kMovement);
    p.apply_ok(act::end_phase(0));
    ASSERT_EQ(p.state.phase, Phase::kReserve);
  }
  bool offered(int unit, const char* hex) const {
    const auto legal = legal_actions(p.state, 0);
    return std::find(legal.begin(), legal.end(), act::redeploy(0, unit, p.at(hex))) != legal.end();
  }
};

TEST(Redeployment, R13_0_AnIdleUnitIsPlacedLikeAReserveUnit) {
  Home h;
  const int inf = h.p.unit(0, U::kInfantry, h.p.at("C4"));
  h.reserve_phase();
  EXPECT_TRUE(h.offered(inf, "B3"));
  const auto ev = h.p.apply_ok(act::redeploy(0, inf, h.p.at("B3")));
  EXPECT_EQ(h.p.u(inf).hex, h.p.at("B3"));
  const auto moved = events_of(ev, EventKind::kUnitRedeployed);
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0].from_hex, h.p.at("C4"));
  EXPECT_EQ(moved[0].hex, h.p.at("B3"));
  EXPECT_EQ(moved[0].unit_type, U::kInfantry);
}

TEST(Redeployment, OffUnlessChosen) {
  Home h(false);
  const int inf = h.p.unit(0, U::kInfantry, h.p.at("C4"));
  h.reserve_phase();
  EXPECT_FALSE(h.offered(inf, "B3"));
  EXPECT_EQ(h.p.apply_error(act::redeploy(0, inf, h.p.at("B3"))), "house_rule_off");
}

TEST(Redeployment, R13_0_OnlyInTheReservePlacementPhase) {
  Home h;
  const int inf = h.p.unit(0, U::kInfantry, h.p.at("C4"));
  h.p.start_turn(0, Phase::kMovement);
  EXPECT_EQ(h.p.apply_error(act::redeploy(0, inf, h.p.at("B3"))), "wrong_phase");
}

TEST(Redeployment, R13_11_CountsAgainstThePlacementCapacity) {
  Home h;
  const int inf = h.p.unit(0, U::kInfantry, h.p.at("C4"));
  const int cav = h.p.unit(0, U::kCavalry, h.p.at("C5"));
  h.reserve_phase();
  h.p.apply_ok(act::redeploy(0, inf, h.p.at("B3")));
  // The Town's one Infantry this turn is taken: no Reserve Infantry may follow [13.11].
  EXPECT_EQ(h.p.apply_error(act::place_reserve(0, U::kInfantry, h.p.at("B3"))), "full");
  // A Cavalry goes only where a Reserve Cavalry could: a Grassland City [13.12].
  EXPECT_EQ(h.p.apply_error(act::redeploy(0, cav, h.p.at("B3"))), "wrong_terrain");
  EXPECT_EQ(h.p.apply_error(act::redeploy(0, cav, h.p.at("D2"))), "wrong_terrain");
  h.p.apply_ok(act::redeploy(0, cav, h.p.at("D7")));
  EXPECT_EQ(h.p.apply_error(act::place_reserve(0, U::kCavalry, h.p.at("D7"))), "full");
}

TEST(Redeployment, R13_4_AnyNumberIntoTheHeldCapital) {
  Home h;
  const int a = h.p.unit(0, U::kInfantry, h.p.at("C4"));
  const int b = h.p.unit(0, U::kInfantry, h.p.at("C5"));
  const int c = h.p.unit(0, U::kArtillery, h.p.at("E3"));
  h.reserve_phase();
  for (int u : {a, b, c}) h.p.apply_ok(act::redeploy(0, u, h.p.at("B5")));
  EXPECT_EQ(h.p.count_on(h.p.at("B5"), 0, U::kInfantry), 2);
}

TEST(Redeployment, R10_7_UnitsThatMovedFoughtOrWerePlacedStay) {
  Home h;
  const int walker = h.p.unit(0, U::kInfantry, h.p.at("C4"));
  h.p.start_turn(0, Phase::kMovement);
  h.p.apply_ok(act::move(0, walker, h.p.at("C5")));
  h.p.apply_ok(act::end_phase(0));
  EXPECT_EQ(h.p.apply_error(act::redeploy(0, walker, h.p.at("B3"))), "not_idle");
  // A unit placed from the Reserve this turn, and a unit already redeployed, stay too.
  h.p.apply_ok(act::place_reserve(0, U::kInfantry, h.p.at("D2")));
  const int placed = h.p.units_on(h.p.at("D2"), 0).front();
  EXPECT_EQ(h.p.apply_error(act::redeploy(0, placed, h.p.at("B3"))), "not_idle");
}

TEST(Redeployment, EachUnitOncePerTurn) {
  Home h;
  const int inf = h.p.unit(0, U::kInfantry, h.p.at("C4"));
  h.reserve_phase();
  h.p.apply_ok(act::redeploy(0, inf, h.p.at("B5")));
  EXPECT_EQ(h.p.apply_error(act::redeploy(0, inf, h.p.at("B3"))), "not_idle");
  EXPECT_FALSE(h.offered(inf, "B3"));
}

TEST(Redeployment, R13_2_NotNextToAnEnemyUnit) {
  Home h;
  const int inf = h.p.unit(0, U::kInfantry, h.p.at("C4"));
  h.p.unit(1, U::kInfantry, h.p.at("C3"));  // next to the Town B3
  h.reserve_phase();
  EXPECT_EQ(h.p.apply_error(act::redeploy(0, inf, h.p.at("B3"))), "enemy_adjacent");
}

TEST(Redeployment, MayLeaveATownEmpty) {
  Home h;
  const int guard = h.p.unit(0, U::kInfantry, h.p.at("B3"));
  h.reserve_phase();
  h.p.apply_ok(act::redeploy(0, guard, h.p.at("D2")));
  EXPECT_TRUE(h.p.units_on(h.p.at("B3"), 0).empty());
  EXPECT_EQ(h.p.state.hexes[h.p.at("B3")].town_owner, 0);
}

TEST(Redeployment, R9_45_CargoAndLoadedFrigatesStay) {
  Home h;
  const int ship = h.p.unit(0, U::kFrigate, h.p.at("A1"));
  const int cargo = h.p.cargo(0, U::kInfantry, ship);
  h.reserve_phase();
  EXPECT_EQ(h.p.apply_error(act::redeploy(0, cargo, h.p.at("B3"))), "cargo");
  EXPECT_EQ(h.p.apply_error(act::redeploy(0, ship, h.p.at("E6"))), "has_cargo");
}

TEST(Redeployment, R13_3_AnEmptyFrigateUsesAForestCitysFrigateSpot) {
  Home h;
  const int ship = h.p.unit(0, U::kFrigate, h.p.at("A1"));
  h.reserve_phase();
  EXPECT_EQ(h.p.apply_error(act::redeploy(0, ship, h.p.at("C4"))), "not_water");
  h.p.apply_ok(act::redeploy(0, ship, h.p.at("E6")));
  EXPECT_EQ(h.p.u(ship).hex, h.p.at("E6"));
  EXPECT_EQ(h.p.state.hexes[h.p.at("E5")].placed_other, 1);  // the City's one Frigate [13.3]
}

TEST(Redeployment, R12_0_NotOutOfAHexSharedWithAnotherPlayer) {
  Home h;
  const int inf = h.p.unit(0, U::kInfantry, h.p.at("C4"));
  const int enemy = h.p.unit(1, U::kInfantry, h.p.at("H5"));
  h.reserve_phase();
  h.p.state.units[static_cast<std::size_t>(enemy)].hex = h.p.at("C4");  // a Battle left pending
  EXPECT_EQ(h.p.apply_error(act::redeploy(0, inf, h.p.at("B5"))), "in_battle");
}

TEST(Redeployment, R13_0_LegalActionsOfferOnlyAllowedRedeployments) {
  Home h;
  const int inf = h.p.unit(0, U::kInfantry, h.p.at("C4"));
  h.reserve_phase();
  int offered = 0;
  for (const Action& a : legal_actions(h.p.state, 0)) {
    if (a.kind != ActionKind::kRedeploy) continue;
    ++offered;
    EXPECT_EQ(a.unit, inf);
  }
  // The Capital, the Town, and the five Cities (each takes an Infantry).
  EXPECT_EQ(offered, 7);
}

}  // namespace
}  // namespace viktory
