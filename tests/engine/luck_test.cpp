// Luck Averaging [15.4]: before a Fire Round the firer may leave pairs of his dice unrolled,
// each pair one hit of his opponent's choice; an odd die is always rolled.
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
using Dice = std::vector<std::vector<int>>;

Options averaging() {
  Options o;
  o.luck_averaging = true;
  return o;
}

// The Battle field (battle_field.h) under Luck Averaging, on the terrain given.
struct Field : testing::BattleField {
  explicit Field(Terrain battle_terrain = Terrain::kPlains)
      : BattleField(averaging(), battle_terrain, 1) {}
  std::vector<int> pairs_offered(int player) const {
    std::vector<int> out;
    for (const Action& a : legal_actions(p.state, player)) {
      if (a.kind == ActionKind::kAverageDice) out.push_back(a.pairs);
    }
    return out;
  }
};

TEST(LuckAveraging, R15_4_TheAttackerDecidesBeforeRolling) {
  Field f;
  f.defender(U::kInfantry);
  f.defender(U::kInfantry);
  const int inf = f.attacker(U::kInfantry, "E4");
  const int cav = f.attacker(U::kCavalry, "D4");
  f.advance({inf, cav});
  const auto started = f.p.apply_ok(act::start_battle(0, f.hex));
  EXPECT_TRUE(rolls(started, RollPurpose::kAttackerFire).empty());  // nothing rolled yet
  ASSERT_TRUE(f.p.state.battle.has_value());
  EXPECT_EQ(f.p.state.battle->stage, BattleStage::kAverageAttackerFire);
  EXPECT_EQ(f.p.state.battle->dice_due, 3);
  EXPECT_EQ(decider(f.p.state), 0);
  // Three dice: at most one pair; the third, odd die is always rolled.
  EXPECT_EQ(f.pairs_offered(0), (std::vector<int>{0, 1}));
  EXPECT_EQ(f.p.apply_error(act::average_dice(0, 2)), "bad_pairs");
  EXPECT_EQ(f.p.apply_error(act::move(0, inf, f.p.at("E4"))), "decision_pending");
  f.p.dice({6, 6});  // his one die, then the defender's one die: misses
  const auto ev = f.p.apply_ok(act::average_dice(0, 1));
  const auto averaged = events_of(ev, EventKind::kDiceAveraged);
  ASSERT_EQ(averaged.size(), 1u);
  EXPECT_EQ(averaged[0].player, 0);
  EXPECT_EQ(averaged[0].value, 1);
  EXPECT_EQ(rolls(ev, RollPurpose::kAttackerFire), (Dice{{6}}));
  // The pair is one hit, as a '3' and a '4' would be: one defending Infantry falls.
  EXPECT_EQ(count_of(ev, EventKind::kUnitLost), 1);
  EXPECT_EQ(f.p.units_on(f.hex, 1).size(), 1u);
  EXPECT_TRUE(f.p.state.scripted_dice.empty());
  EXPECT_CONSISTENT(f.p);
}

TEST(LuckAveraging, R15_4_AnAveragedHitIsTheOpponentsChoice) {
  Field f;
  const int foot = f.defender(U::kInfantry);
  const int horse = f.defender(U::kCavalry);
  const int inf = f.attacker(U::kInfantry, "E4");
  const int cav = f.attacker(U::kCavalry, "D4");
  f.advance({inf, cav});
  f.p.apply_ok(act::start_battle(0, f.hex));
  f.p.dice({6});
  f.p.apply_ok(act::average_dice(0, 1));
  // A hit of the opponent's choice: the defender picks which of his units takes it [15.4].
  ASSERT_EQ(decider(f.p.state), 1);
  f.p.apply_ok(act::choose_casualty(1, horse));
  // Both his unit types still fire back: two dice, so his own averaging choice comes next.
  ASSERT_EQ(f.p.state.battle->stage, BattleStage::kAverageDefenderFire);
  f.p.dice({6, 6});
  f.p.apply_ok(act::average_dice(1, 0));
  EXPECT_TRUE(f.p.state.scripted_dice.empty());
  EXPECT_EQ(f.p.u(horse).place, UnitPlace::kReserve);
  EXPECT_EQ(f.p.u(foot).place, UnitPlace::kMap);
}

TEST(LuckAveraging, R15_4_TheDefenderDecidesToo) {
  Field f(Terrain::kMountain);
  f.defender(U::kInfantry);  // one die for the Infantry, two for the Mountain
  const int inf = f.attacker(U::kInfantry, "E4");
  const int other = f.attacker(U::kInfantry, "D4");
  f.advance({inf, other});
  f.p.dice({6});  // the attacker's one die: no choice for him
  f.p.apply_ok(act::start_battle(0, f.hex));
  ASSERT_TRUE(f.p.state.battle.has_value());
  EXPECT_EQ(f.p.state.battle->stage, BattleStage::kAverageDefenderFire);
  EXPECT_EQ(decider(f.p.state), 1);  // out of turn
  EXPECT_EQ(f.pairs_offered(1), (std::vector<int>{0, 1}));
  EXPECT_EQ(legal_actions(f.p.state, 0), std::vector<Action>{act::concede(0)});
  f.p.dice({6});
  const auto ev = f.p.apply_ok(act::average_dice(1, 1));
  EXPECT_EQ(rolls(ev, RollPurpose::kDefenderFire), (Dice{{6}}));
  // One hit on the attacker's two Infantry: whichever, so the engine assigns it.
  EXPECT_EQ(count_of(ev, EventKind::kUnitLost), 1);
  EXPECT_EQ(f.p.state.battle->defender_pairs, 1);
  EXPECT_CONSISTENT(f.p);
}

TEST(LuckAveraging, R15_4_EveryPairMayBeAveragedWithAnEvenCount) {
  Field f;
  f.defender(U::kInfantry);
  f.defender(U::kInfantry);
  f.defender(U::kInfantry);
  const int inf = f.attacker(U::kInfantry, "E4");
  const int cav = f.attacker(U::kCavalry, "D4");
  const int art = f.attacker(U::kArtillery, "D5");
  f.advance({inf, cav, art});
  f.p.dice({6});  // pre-battle fire is no Fire Round: rolled as always
  const auto started = f.p.apply_ok(act::start_battle(0, f.hex));
  EXPECT_EQ(rolls(started, RollPurpose::kPreBattleFire), (Dice{{6}}));
  EXPECT_EQ(f.pairs_offered(0), (std::vector<int>{0, 1, 2}));
  f.p.dice({6});  // only the defender's die is rolled now
  const auto ev = f.p.apply_ok(act::average_dice(0, 2));
  EXPECT_TRUE(rolls(ev, RollPurpose::kAttackerFire).empty());
  EXPECT_EQ(count_of(ev, EventKind::kUnitLost), 2);
}

TEST(LuckAveraging, R15_4_R12_31_AveragedHitsSuppress) {
  Field f(Terrain::kForest);
  f.defender(U::kInfantry);  // 1 unit die + 1 Forest die
  const int inf = f.attacker(U::kInfantry, "E4");
  const int cav = f.attacker(U::kCavalry, "D4");
  const int art = f.attacker(U::kArtillery, "D5");
  f.advance({inf, cav, art});
  f.p.dice({6});
  f.p.apply_ok(act::start_battle(0, f.hex));
  f.p.dice({6});
  // Two hits on one defender: one in excess takes his unit die; the Forest die is left, and
  // one die gives him nothing to average [12.31].
  const auto ev = f.p.apply_ok(act::average_dice(0, 2));
  EXPECT_EQ(f.p.state.battle.has_value() ? f.p.state.battle->suppression : 1, 1);
  EXPECT_EQ(rolls(ev, RollPurpose::kDefenderFire), (Dice{{6}}));
}

TEST(LuckAveraging, R15_4_OneDieGivesNoChoice) {
  Field f;
  f.defender(U::kInfantry);
  const int inf = f.attacker(U::kInfantry, "E4");
  f.advance({inf});
  f.p.dice({6, 6});
  const auto ev = f.p.apply_ok(act::start_battle(0, f.hex));
  EXPECT_EQ(rolls(ev, RollPurpose::kAttackerFire), (Dice{{6}}));
  EXPECT_EQ(rolls(ev, RollPurpose::kDefenderFire), (Dice{{6}}));
  EXPECT_EQ(count_of(ev, EventKind::kDiceAveraged), 0);
}

TEST(LuckAveraging, R15_4_NotWithoutTheRule) {
  Position p(2);
  p.fill(Terrain::kPlains);
  p.capital(0, p.at("B5")).capital(1, p.at("H2"));
  p.terrain(p.at("B3"), Terrain::kGrassland).city(0, p.at("B3"));
  p.unit(1, U::kInfantry, p.at("E5"));
  const int inf = p.unit(0, U::kInfantry, p.at("E4"));
  const int cav = p.unit(0, U::kCavalry, p.at("D4"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, inf, p.at("E5")));
  p.apply_ok(act::move(0, cav, p.at("E5")));
  p.dice({6, 6, 6, 6});
  const auto ev = p.apply_ok(act::start_battle(0, p.at("E5")));
  EXPECT_EQ(rolls(ev, RollPurpose::kAttackerFire), (Dice{{6, 6, 6}}));
  EXPECT_EQ(p.apply_error(act::average_dice(0, 1)), "decision_pending");
}

}  // namespace
}  // namespace viktory
