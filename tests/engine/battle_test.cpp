// Battle Attacks [12.x]: dice, suppression, naval support, casualties, retreats, resolution,
// and Naval Battles.
#include <gtest/gtest.h>

#include "fixture.h"

namespace viktory {
namespace {

using testing::count_of;
using testing::events_of;
using testing::Position;
using testing::rolls;

using Dice = std::vector<std::vector<int>>;

// Plains; the Battle hex is E5 (its terrain set per test); its neighbours are E4, D4, D5, F4,
// F5 and E6. Player 0 (attacker): Capital B5, Grassland City B3, Mountain Cities D7 and D2:
// 5 Infantry, 1 Cavalry, 2 Artillery. Player 1 (defender): Capital H2, Grassland City H4,
// Mountain City F2, Forest City G6: 4 Infantry, 1 Cavalry, 1 Artillery, 1 Frigate.
struct Field {
  Position p{2};
  int hex = -1;
  explicit Field(Terrain battle_terrain = Terrain::kPlains) {
    p.fill(Terrain::kPlains);
    hex = p.at("E5");
    p.terrain(hex, battle_terrain);
    p.capital(0, p.at("B5")).capital(1, p.at("H2"));
    p.terrain(p.at("B3"), Terrain::kGrassland).city(0, p.at("B3"));
    p.terrain(p.at("D7"), Terrain::kMountain).city(0, p.at("D7"));
    p.terrain(p.at("D2"), Terrain::kMountain).city(0, p.at("D2"));
    p.terrain(p.at("H4"), Terrain::kGrassland).city(1, p.at("H4"));
    p.terrain(p.at("F2"), Terrain::kMountain).city(1, p.at("F2"));
    p.terrain(p.at("G6"), Terrain::kForest).city(1, p.at("G6"));
  }
  // A defending Frigate next to the Battle hex, in E6.
  int support() {
    p.terrain(p.at("E6"), Terrain::kWater);
    return p.unit(1, UnitType::kFrigate, p.at("E6"));
  }
  int attacker(UnitType t, const char* from) { return p.unit(0, t, p.at(from)); }
  int defender(UnitType t) { return p.unit(1, t, hex); }
  // Starts player 0's turn and moves the attackers into the Battle hex.
  void advance(const std::vector<int>& units) {
    p.start_turn(0, Phase::kMovement);
    for (int u : units) p.apply_ok(act::move(0, u, hex));
  }
  std::vector<Event> fight(std::vector<int> dice) {
    p.dice(std::move(dice));
    auto ev = p.apply_ok(act::start_battle(0, hex));
    EXPECT_TRUE(p.state.scripted_dice.empty()) << "fewer dice rolled than scripted";
    return ev;
  }
};

std::size_t dice_count(const std::vector<Event>& ev, RollPurpose purpose) {
  const auto r = rolls(ev, purpose);
  return r.empty() ? 0 : r.front().size();
}

TEST(Battle, R12_3_Step1_AttackerDiceByUnitTypes) {
  struct Case {
    std::vector<UnitType> attackers;
    std::size_t pre_battle;
    std::size_t fire;
  };
  using U = UnitType;
  const std::vector<Case> cases{{{U::kInfantry}, 0, 1},
                                {{U::kCavalry}, 0, 2},
                                {{U::kArtillery}, 1, 1},
                                {{U::kInfantry, U::kInfantry, U::kInfantry}, 0, 1},
                                {{U::kInfantry, U::kCavalry}, 0, 3},
                                {{U::kArtillery, U::kArtillery}, 2, 1},
                                {{U::kInfantry, U::kCavalry, U::kArtillery}, 1, 4}};
  const char* entries[] = {"E4", "D4", "D5", "F4", "F5"};
  for (const Case& c : cases) {
    Field f;
    f.defender(UnitType::kInfantry);
    std::vector<int> units;
    for (std::size_t i = 0; i < c.attackers.size(); ++i) {
      units.push_back(f.attacker(c.attackers[i], entries[i]));
    }
    f.advance(units);
    const auto ev = f.fight(std::vector<int>(c.pre_battle + c.fire + 1, 6));
    EXPECT_EQ(dice_count(ev, RollPurpose::kPreBattleFire), c.pre_battle) << c.attackers.size();
    EXPECT_EQ(dice_count(ev, RollPurpose::kAttackerFire), c.fire) << c.attackers.size();
    EXPECT_EQ(dice_count(ev, RollPurpose::kDefenderFire), 1u);
    // [12.0] every unit of his in the hex takes part.
    for (int u : units) EXPECT_TRUE(f.p.u(u).attacked);
  }
}

TEST(Battle, R12_3_Step2_DefenderDiceByTypesTerrainAndSupport) {
  struct Case {
    const char* name;
    Terrain terrain;
    int town;  // 0 none, 1 Town, 2 City
    std::vector<UnitType> defenders;
    bool support;
    std::size_t dice;
  };
  using U = UnitType;
  using T = Terrain;
  const std::vector<Case> cases{
      {"one Infantry on Plains", T::kPlains, 0, {U::kInfantry}, false, 1},
      {"two Infantry: one type", T::kPlains, 0, {U::kInfantry, U::kInfantry}, false, 1},
      {"three types", T::kPlains, 0, {U::kInfantry, U::kCavalry, U::kArtillery}, false, 3},
      {"Grassland gives nothing", T::kGrassland, 0, {U::kInfantry}, false, 1},
      {"Forest +1", T::kForest, 0, {U::kInfantry}, false, 2},
      {"Mountain +2", T::kMountain, 0, {U::kInfantry}, false, 3},
      {"Town +1", T::kPlains, 1, {U::kInfantry}, false, 2},
      {"City +2", T::kPlains, 2, {U::kInfantry}, false, 3},
      {"Forest Town: +1 only", T::kForest, 1, {U::kInfantry}, false, 2},
      {"Mountain Town: +2 only", T::kMountain, 1, {U::kInfantry}, false, 3},
      {"Forest City: +2 only", T::kForest, 2, {U::kInfantry}, false, 3},
      {"Mountain City: +2 only", T::kMountain, 2, {U::kInfantry}, false, 3},
      {"Naval Support +1", T::kPlains, 0, {U::kInfantry}, true, 2},
      {"the maximum of six", T::kMountain, 2, {U::kInfantry, U::kCavalry, U::kArtillery}, true, 6},
  };
  for (const Case& c : cases) {
    Field f(c.terrain);
    if (c.town == 1) f.p.town(1, f.hex);
    if (c.town == 2) f.p.city(1, f.hex);
    if (c.support) f.support();
    for (UnitType t : c.defenders) f.defender(t);
    const int inf = f.attacker(UnitType::kInfantry, "E4");
    f.advance({inf});
    const auto ev = f.fight(std::vector<int>(1 + c.dice, 6));
    EXPECT_EQ(dice_count(ev, RollPurpose::kDefenderFire), c.dice) << c.name;
    EXPECT_CONSISTENT(f.p);
  }
}

TEST(Battle, R12_3_Step2_NoSupportFromAFrigateTwoHexesAway) {
  Field f;
  f.p.terrain({f.p.at("E6"), f.p.at("E7")}, Terrain::kWater);
  f.p.unit(1, UnitType::kFrigate, f.p.at("E7"));
  f.defender(UnitType::kInfantry);
  const int inf = f.attacker(UnitType::kInfantry, "E4");
  f.advance({inf});
  const auto ev = f.fight({6, 6});
  EXPECT_EQ(dice_count(ev, RollPurpose::kDefenderFire), 1u);
}

TEST(Battle, R12_32_OneFrigateSupportsEveryAdjacentBattle) {
  Field f;
  f.support();  // E6 touches both E5 and F5
  f.defender(UnitType::kInfantry);
  f.p.unit(1, UnitType::kInfantry, f.p.at("F5"));
  const int a = f.attacker(UnitType::kInfantry, "E4");
  const int b = f.attacker(UnitType::kInfantry, "F4");
  f.p.start_turn(0, Phase::kMovement);
  f.p.apply_ok(act::move(0, a, f.hex));
  f.p.apply_ok(act::move(0, b, f.p.at("F5")));
  f.p.dice({6, 6, 6});
  const auto first = f.p.apply_ok(act::start_battle(0, f.hex));
  EXPECT_EQ(dice_count(first, RollPurpose::kDefenderFire), 2u);
  f.p.apply_ok(act::retreat(0, a, f.p.at("E4")));
  f.p.dice({6, 6, 6});
  const auto second = f.p.apply_ok(act::start_battle(0, f.p.at("F5")));
  EXPECT_EQ(dice_count(second, RollPurpose::kDefenderFire), 2u);
  EXPECT_TRUE(f.p.state.scripted_dice.empty());
}

TEST(Battle, R12_33_HexNextToAFrigateAloneIsNoObstacle) {
  Field f;
  f.support();
  const int inf = f.attacker(UnitType::kInfantry, "D4");
  f.p.start_turn(0, Phase::kMovement);
  f.p.apply_ok(act::move(0, inf, f.p.at("D5")));  // next to the enemy Frigate in E6
  EXPECT_FALSE(f.p.u(inf).move_done);
  EXPECT_TRUE(pending_battles(f.p.state).empty());
  f.p.apply_ok(act::move(0, inf, f.p.at("D6")));  // still next to it
  EXPECT_EQ(f.p.u(inf).hex, f.p.at("D6"));
  f.p.apply_ok(act::end_phase(0));
}

TEST(Battle, R12_31_ExcessHitsSuppressDefenderUnitDice) {
  // Defender: Infantry and Cavalry on a Mountain with Naval Support: normally 2 + 2 + 1 dice.
  Field f(Terrain::kMountain);
  f.support();
  f.defender(UnitType::kInfantry);
  f.defender(UnitType::kCavalry);
  const int inf = f.attacker(UnitType::kInfantry, "E4");
  const int cav = f.attacker(UnitType::kCavalry, "D4");
  const int art = f.attacker(UnitType::kArtillery, "D5");
  f.advance({inf, cav, art});
  // Pre-battle miss; three hits on two defenders: one in excess, one die fewer for his units.
  const auto ev = f.fight({6, 2, 2, 3, 6, 6, 6, 6, 6});
  EXPECT_EQ(rolls(ev, RollPurpose::kAttackerFire), (Dice{{2, 2, 3, 6}}));
  EXPECT_EQ(dice_count(ev, RollPurpose::kDefenderFire), 4u);
  EXPECT_TRUE(f.p.units_on(f.hex, 1).empty());
}

TEST(Battle, R12_31_SuppressionNeverCutsTerrainOrSupportDice) {
  Field f(Terrain::kForest);
  f.support();
  f.defender(UnitType::kInfantry);
  const int inf = f.attacker(UnitType::kInfantry, "E4");
  const int cav = f.attacker(UnitType::kCavalry, "D4");
  const int art = f.attacker(UnitType::kArtillery, "D5");
  f.advance({inf, cav, art});
  // Four hits on one defender: three in excess. His unit die is gone; Forest and Naval
  // Support still roll.
  const auto ev = f.fight({6, 2, 3, 2, 3, 6, 6});
  EXPECT_EQ(dice_count(ev, RollPurpose::kDefenderFire), 2u);
  // The lone defender was killed; the attacker won.
  EXPECT_FALSE(f.p.state.battle.has_value());
  EXPECT_TRUE(f.p.units_on(f.hex, 1).empty());
}

TEST(Battle, R12_3_Step0_PreBattleLossesLeaveAtOnce) {
  Field f;
  const int def_inf = f.defender(UnitType::kInfantry);
  const int def_cav = f.defender(UnitType::kCavalry);
  const int art = f.attacker(UnitType::kArtillery, "E4");
  const int inf = f.attacker(UnitType::kInfantry, "D4");
  f.advance({art, inf});
  f.p.dice({1});  // a tactical victory: the attacker picks
  const auto ev = f.p.apply_ok(act::start_battle(0, f.hex));
  ASSERT_TRUE(f.p.state.battle.has_value());
  EXPECT_EQ(f.p.state.battle->stage, BattleStage::kAssignPreFire);
  EXPECT_EQ(decider(f.p.state), 0);
  f.p.dice({6, 6, 6});
  const auto ev2 = f.p.apply_ok(act::choose_casualty(0, def_cav));
  EXPECT_EQ(f.p.u(def_cav).place, UnitPlace::kReserve);  // straight to the Reserve
  // The lost Cavalry does not fire back: only the Infantry's one die (and no terrain).
  EXPECT_EQ(dice_count(ev2, RollPurpose::kAttackerFire), 2u);
  EXPECT_EQ(dice_count(ev2, RollPurpose::kDefenderFire), 1u);
  EXPECT_EQ(f.p.u(def_inf).place, UnitPlace::kMap);
  EXPECT_EQ(count_of(ev, EventKind::kUnitLost), 0);
  EXPECT_EQ(count_of(ev2, EventKind::kUnitLost), 1);
}

TEST(Battle, R12_3_Step0_OnTwoOrThreeTheDefenderPicksHisLoss) {
  Field f;
  const int def_inf = f.defender(UnitType::kInfantry);
  const int def_cav = f.defender(UnitType::kCavalry);
  const int art = f.attacker(UnitType::kArtillery, "E4");
  f.advance({art});
  f.p.dice({3});
  f.p.apply_ok(act::start_battle(0, f.hex));
  ASSERT_TRUE(f.p.state.battle.has_value());
  EXPECT_EQ(decider(f.p.state), 1);
  EXPECT_EQ(f.p.apply_error(act::choose_casualty(0, def_cav)), "not_your_decision");
  f.p.dice({6, 6, 6});
  f.p.apply_ok(act::choose_casualty(1, def_inf));
  EXPECT_EQ(f.p.u(def_inf).place, UnitPlace::kReserve);
  EXPECT_EQ(f.p.u(def_cav).hex, f.hex);
}

TEST(Battle, R12_3_Step0_AllDefendersKilledOutsideATownEndsTheBattle) {
  Field f;
  f.defender(UnitType::kInfantry);
  f.defender(UnitType::kInfantry);
  const int a1 = f.attacker(UnitType::kArtillery, "E4");
  const int a2 = f.attacker(UnitType::kArtillery, "D4");
  f.advance({a1, a2});
  const auto ev = f.fight({2, 3});
  EXPECT_EQ(dice_count(ev, RollPurpose::kAttackerFire), 0u);
  EXPECT_EQ(dice_count(ev, RollPurpose::kDefenderFire), 0u);
  EXPECT_FALSE(f.p.state.battle.has_value());
  const auto ended = events_of(ev, EventKind::kBattleEnded);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].player, 0);
  EXPECT_EQ(f.p.reserve_count(1, UnitType::kInfantry), 4);
}

TEST(Battle, R12_3_Step0_NoDefenceDiceAfterAPreBattleRoutOutsideATown) {
  // Even on a Mountain with Naval Support: the defender loses at once, rolling nothing.
  Field f(Terrain::kMountain);
  f.support();
  f.defender(UnitType::kInfantry);
  const int art = f.attacker(UnitType::kArtillery, "E4");
  f.advance({art});
  const auto ev = f.fight({1});
  EXPECT_TRUE(rolls(ev, RollPurpose::kDefenderFire).empty());
  EXPECT_TRUE(rolls(ev, RollPurpose::kAttackerFire).empty());
  EXPECT_EQ(f.p.u(art).place, UnitPlace::kMap);
  EXPECT_EQ(events_of(ev, EventKind::kBattleEnded).at(0).player, 0);
}

TEST(Battle, R12_3_Step0_InATownTheBattleGoesOn) {
  Field f;
  f.p.town(1, f.hex);
  f.defender(UnitType::kInfantry);
  const int art = f.attacker(UnitType::kArtillery, "E4");
  f.advance({art});
  // Pre-battle hit kills the lone defender; the Town still rolls its one die (a miss).
  const auto ev = f.fight({3, 5});
  EXPECT_EQ(dice_count(ev, RollPurpose::kAttackerFire), 0u);  // nothing left to shoot at
  EXPECT_EQ(dice_count(ev, RollPurpose::kDefenderFire), 1u);
  EXPECT_EQ(f.p.state.hexes[f.hex].town_owner, 0);
  EXPECT_EQ(count_of(ev, EventKind::kTownCaptured), 1);
}

TEST(Battle, R12_3_EmptyMountainTownWithSupportRollsThreeDice) {
  // [12.3 step 2 example] A Town on a Mountain with an adjacent defending Frigate and no
  // units: one round, three dice (two for the Mountain, one Naval Support).
  for (bool survives : {true, false}) {
    Field f(Terrain::kMountain);
    f.p.town(1, f.hex);
    f.support();
    const int inf = f.attacker(UnitType::kInfantry, "E4");
    f.advance({inf});
    const auto ev = f.fight(survives ? std::vector<int>{4, 5, 6} : std::vector<int>{6, 2, 6});
    EXPECT_EQ(dice_count(ev, RollPurpose::kAttackerFire), 0u);
    EXPECT_EQ(dice_count(ev, RollPurpose::kDefenderFire), 3u);
    EXPECT_FALSE(f.p.state.battle.has_value());
    EXPECT_EQ(f.p.state.hexes[f.hex].town_owner, survives ? 0 : 1);
    EXPECT_EQ(f.p.u(inf).place, survives ? UnitPlace::kMap : UnitPlace::kReserve);
    EXPECT_CONSISTENT(f.p);
  }
}

TEST(Battle, R12_3_CasualtiesAreRemovedTogether) {
  Field f;
  const int def = f.defender(UnitType::kInfantry);
  const int cav = f.attacker(UnitType::kCavalry, "E4");
  f.advance({cav});
  // The attacker hits the Infantry; it still fires back and hits the Cavalry.
  const auto ev = f.fight({1, 6, 2});
  EXPECT_EQ(dice_count(ev, RollPurpose::kDefenderFire), 1u);
  EXPECT_EQ(f.p.u(def).place, UnitPlace::kReserve);
  EXPECT_EQ(f.p.u(cav).place, UnitPlace::kReserve);
  // [12.3 step 4] Both sides destroyed: the defender prevails.
  const auto ended = events_of(ev, EventKind::kBattleEnded);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].player, kNoPlayer);
  EXPECT_EQ(ended[0].other_player, 0);
}

TEST(Battle, R12_3_Step4_BothDestroyedInATownTheDefenderKeepsIt) {
  Field f;
  f.p.town(1, f.hex);
  f.defender(UnitType::kInfantry);
  const int inf = f.attacker(UnitType::kInfantry, "E4");
  f.advance({inf});
  f.fight({2, 3, 6});  // attacker hits; defender's Infantry and Town dice: one hit
  EXPECT_EQ(f.p.state.hexes[f.hex].town_owner, 1);
  EXPECT_TRUE(f.p.units_on(f.hex).empty());
  EXPECT_FALSE(f.p.state.battle.has_value());
  EXPECT_CONSISTENT(f.p);
}

TEST(Battle, R12_3_DefenderChoosesOnOnesAttackerOnTwosAndThrees) {
  Field f;
  f.defender(UnitType::kInfantry);
  f.defender(UnitType::kInfantry);
  const int inf = f.attacker(UnitType::kInfantry, "E4");
  const int cav = f.attacker(UnitType::kCavalry, "D4");
  f.advance({inf, cav});
  // Attacker misses with all three dice; the defender rolls a 1.
  f.fight({6, 6, 6, 1});
  ASSERT_TRUE(f.p.state.battle.has_value());
  EXPECT_EQ(f.p.state.battle->stage, BattleStage::kAssignDefenderFire);
  EXPECT_EQ(decider(f.p.state), 1);  // the firer, during player 0's turn
  EXPECT_EQ(f.p.apply_error(act::choose_casualty(0, inf)), "not_your_decision");
  f.p.apply_ok(act::choose_casualty(1, cav));
  EXPECT_EQ(f.p.u(cav).place, UnitPlace::kReserve);
  ASSERT_EQ(f.p.state.battle->stage, BattleStage::kRetreatOption);
  // Next round: the defender rolls a 2, and the attacker picks his own loss.
  f.p.dice({6, 2});
  f.p.apply_ok(act::continue_battle(0));
  EXPECT_FALSE(f.p.state.battle.has_value());  // his only unit: no choice to make
  EXPECT_EQ(f.p.u(inf).place, UnitPlace::kReserve);
}

TEST(Battle, R12_3_Step3_RetreatOnlyToEntryHexes) {
  Field f;
  const int def = f.defender(UnitType::kInfantry);
  const int a = f.attacker(UnitType::kInfantry, "E4");
  const int b = f.attacker(UnitType::kInfantry, "D5");
  f.advance({a, b});
  f.fight({6, 6});
  ASSERT_TRUE(f.p.state.battle.has_value());
  ASSERT_EQ(f.p.state.battle->stage, BattleStage::kRetreatOption);
  EXPECT_EQ(decider(f.p.state), 0);
  EXPECT_EQ(f.p.apply_error(act::retreat(0, a, f.p.at("F4"))), "bad_retreat");
  EXPECT_EQ(f.p.apply_error(act::retreat(0, def, f.p.at("F4"))), "not_in_battle");
  EXPECT_EQ(f.p.apply_error(act::move(0, a, f.p.at("E4"))), "decision_pending");
  // Either entry hex will do for either unit.
  f.p.apply_ok(act::retreat(0, a, f.p.at("D5")));
  ASSERT_TRUE(f.p.state.battle.has_value());
  EXPECT_EQ(f.p.state.battle->stage, BattleStage::kRetreating);
  EXPECT_EQ(f.p.apply_error(act::continue_battle(0)), "retreat_started");
  const auto ev = f.p.apply_ok(act::retreat(0, b, f.p.at("E4")));
  EXPECT_FALSE(f.p.state.battle.has_value());
  EXPECT_EQ(f.p.u(a).hex, f.p.at("D5"));
  EXPECT_EQ(f.p.u(b).hex, f.p.at("E4"));
  const auto ended = events_of(ev, EventKind::kBattleEnded);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].player, kNoPlayer);  // the defender prevails
  // Retreated units moved for free but their movement is over.
  EXPECT_NE(f.p.apply_error(act::move(0, a, f.p.at("D6"))), "accepted");
}

TEST(Battle, R12_3_Step3_EntriesOfOtherBattlesDoNotCount) {
  Field f;
  f.p.unit(1, UnitType::kInfantry, f.p.at("F5"));
  f.defender(UnitType::kInfantry);
  const int first = f.attacker(UnitType::kCavalry, "G5");
  const int second = f.attacker(UnitType::kInfantry, "E4");
  f.p.start_turn(0, Phase::kMovement);
  // A first Battle at F5, entered from G5, won.
  f.p.apply_ok(act::move(0, first, f.p.at("F5")));
  f.p.dice({1, 6, 6});
  f.p.apply_ok(act::start_battle(0, f.p.at("F5")));
  ASSERT_FALSE(f.p.state.battle.has_value());
  // A second at E5, entered from E4 only: G5 and F5 were no entries of this Battle.
  f.p.apply_ok(act::move(0, second, f.hex));
  f.fight({6, 6});
  ASSERT_EQ(f.p.state.battle->stage, BattleStage::kRetreatOption);
  EXPECT_EQ(f.p.apply_error(act::retreat(0, second, f.p.at("G5"))), "bad_retreat");
  EXPECT_EQ(f.p.apply_error(act::retreat(0, second, f.p.at("F5"))), "bad_retreat");
  f.p.apply_ok(act::retreat(0, second, f.p.at("E4")));
}

TEST(Battle, R12_3_Step3_FightOnInsteadOfRetreating) {
  Field f;
  const int def = f.defender(UnitType::kInfantry);
  const int inf = f.attacker(UnitType::kInfantry, "E4");
  f.advance({inf});
  f.fight({6, 6});
  ASSERT_EQ(f.p.state.battle->stage, BattleStage::kRetreatOption);
  f.p.dice({6, 6});
  const auto round2 = f.p.apply_ok(act::continue_battle(0));
  EXPECT_EQ(dice_count(round2, RollPurpose::kAttackerFire), 1u);
  EXPECT_EQ(dice_count(round2, RollPurpose::kPreBattleFire), 0u);  // the first round only
  EXPECT_EQ(f.p.state.battle->round, 2);
  f.p.dice({3, 6});
  f.p.apply_ok(act::continue_battle(0));
  EXPECT_EQ(f.p.u(def).place, UnitPlace::kReserve);
  EXPECT_FALSE(f.p.state.battle.has_value());
  EXPECT_EQ(f.p.u(inf).hex, f.hex);
}

TEST(Battle, R12_2_OneBattlePerHexPerTurn) {
  Field f;
  f.defender(UnitType::kInfantry);
  const int a = f.attacker(UnitType::kInfantry, "E4");
  const int b = f.attacker(UnitType::kInfantry, "F4");
  f.advance({a});
  f.fight({6, 6});
  f.p.apply_ok(act::retreat(0, a, f.p.at("E4")));
  ASSERT_FALSE(f.p.state.battle.has_value());
  EXPECT_EQ(f.p.apply_error(act::move(0, b, f.hex)), "battle_fought");
  f.p.apply_ok(act::end_phase(0));  // no Battle is owed there any more
}

TEST(Battle, R12_3_Step3_WinnersStayNewcomersMayEnter) {
  Field f;
  f.defender(UnitType::kInfantry);
  const int a = f.attacker(UnitType::kInfantry, "E4");
  const int b = f.attacker(UnitType::kInfantry, "F4");
  f.advance({a});
  f.fight({2, 6});
  ASSERT_FALSE(f.p.state.battle.has_value());
  EXPECT_EQ(f.p.apply_error(act::move(0, a, f.p.at("E4"))), "attacked");
  f.p.apply_ok(act::move(0, b, f.hex));
  EXPECT_EQ(f.p.u(b).hex, f.hex);
}

TEST(Battle, R12_3_Step4_WinOutsideATownCapturesNothing) {
  Field f;
  f.defender(UnitType::kInfantry);
  const int a = f.attacker(UnitType::kInfantry, "E4");
  f.advance({a});
  const auto ev = f.fight({1, 6});
  EXPECT_EQ(count_of(ev, EventKind::kTownCaptured), 0);
  EXPECT_EQ(count_of(ev, EventKind::kUnitGained), 0);
  EXPECT_EQ(events_of(ev, EventKind::kBattleEnded).at(0).player, 0);
}

// ----- Naval Battles -----

// Water everywhere but the Cities. Player 0: Capital B5, Forest Cities B3 and D2 (two
// Frigates) and a Mountain City D7 (Artillery). Player 1: Capital H2, Forest Cities H4 and G6.
// The Naval Battle hex is E5.
Position open_sea() {
  Position p(2);
  p.fill(Terrain::kWater);
  for (const char* l : {"B5", "H2"}) p.terrain(p.at(l), Terrain::kPlains);
  for (const char* l : {"B3", "D2", "H4", "G6"}) p.terrain(p.at(l), Terrain::kForest);
  p.terrain(p.at("D7"), Terrain::kMountain);
  p.capital(0, p.at("B5")).capital(1, p.at("H2"));
  p.city(0, p.at("B3")).city(0, p.at("D2")).city(0, p.at("D7"));
  p.city(1, p.at("H4")).city(1, p.at("G6"));
  return p;
}

TEST(Battle, R12_3_NavalBattleOneDieEach) {
  Position p = open_sea();
  const int f1 = p.unit(0, UnitType::kFrigate, p.at("E4"));
  const int f2 = p.unit(0, UnitType::kFrigate, p.at("D4"));
  const int target = p.unit(1, UnitType::kFrigate, p.at("E5"));
  p.unit(1, UnitType::kFrigate, p.at("E6"));  // adjacent: no Naval Support at sea
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, f1, p.at("E5")));
  EXPECT_TRUE(p.u(f1).move_done);  // entering an enemy hex ends movement
  p.apply_ok(act::move(0, f2, p.at("E5")));
  p.dice({6, 6});
  const auto ev = p.apply_ok(act::start_battle(0, p.at("E5")));
  EXPECT_EQ(rolls(ev, RollPurpose::kAttackerFire), (Dice{{6}}));  // two Frigates, one die
  EXPECT_EQ(rolls(ev, RollPurpose::kDefenderFire), (Dice{{6}}));
  ASSERT_TRUE(p.state.battle.has_value());
  EXPECT_TRUE(p.state.battle->naval);
  // Frigates retreat to the water hexes they came from.
  EXPECT_EQ(p.apply_error(act::retreat(0, f1, p.at("F4"))), "bad_retreat");
  p.apply_ok(act::retreat(0, f1, p.at("D4")));
  p.apply_ok(act::retreat(0, f2, p.at("E4")));
  EXPECT_EQ(p.u(target).hex, p.at("E5"));
}

TEST(Battle, R12_3_Step3_ARetreatingFrigateTakesItsCargo) {
  Position p = open_sea();
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E4"));
  const int inf = p.cargo(0, UnitType::kInfantry, frigate);
  p.unit(1, UnitType::kFrigate, p.at("E5"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, frigate, p.at("E5")));
  EXPECT_EQ(p.u(inf).hex, p.at("E5"));
  p.dice({6, 6});
  p.apply_ok(act::start_battle(0, p.at("E5")));
  ASSERT_EQ(p.state.battle->stage, BattleStage::kRetreatOption);
  p.apply_ok(act::retreat(0, frigate, p.at("E4")));
  EXPECT_EQ(p.u(frigate).hex, p.at("E4"));
  EXPECT_EQ(p.u(inf).hex, p.at("E4"));
  EXPECT_EQ(p.u(inf).carrier, frigate);
  EXPECT_CONSISTENT(p);
}

TEST(Battle, R9_45_CargoTakesNoPartInNavalBattles) {
  Position p = open_sea();
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E4"));
  const int art = p.cargo(0, UnitType::kArtillery, frigate);
  const int enemy = p.unit(1, UnitType::kFrigate, p.at("E5"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, frigate, p.at("E5")));
  const auto ev = [&] {
    p.dice({6, 1});
    return p.apply_ok(act::start_battle(0, p.at("E5")));
  }();
  EXPECT_TRUE(rolls(ev, RollPurpose::kPreBattleFire).empty());  // cargo Artillery is silent
  EXPECT_EQ(rolls(ev, RollPurpose::kAttackerFire), (Dice{{6}}));
  // The hit can only fall on the Frigate; its cargo goes down with it.
  EXPECT_EQ(p.u(frigate).place, UnitPlace::kReserve);
  EXPECT_EQ(p.u(art).place, UnitPlace::kReserve);
  EXPECT_EQ(p.u(enemy).place, UnitPlace::kMap);
  EXPECT_FALSE(p.state.battle.has_value());
}

}  // namespace
}  // namespace viktory
