// Battle transparency: the dice of every fire by source [12.3, 12.31, 12.32, 15.4], and the
// preview of a Battle from the public position (engine/battle_preview.h).
#include "battle_preview.h"

#include <gtest/gtest.h>

#include <cmath>

#include "fixture.h"
#include "view.h"

namespace viktory {
namespace {

using testing::events_of;
using testing::Position;

using U = UnitType;

int dice_from(const FireDice& fire, DieSource source) {
  for (const DiceFrom& d : fire.sources) {
    if (d.source == source) return d.dice;
  }
  return 0;
}

const Event* fire_event(const std::vector<Event>& ev, RollPurpose purpose) {
  for (const Event& e : ev) {
    if (e.kind == EventKind::kDiceRolled && e.value == static_cast<int>(purpose)) return &e;
  }
  return nullptr;
}

// Plains. Player 0 (attacker): Capital B5, Grassland City B3, Mountain City D2. Player 1
// (defender): Capital H2, Mountain City F2, Forest City G6 (its Frigate can support E5 from
// E6). The Battle hex E5 is a Mountain.
struct Field {
  Position p;
  explicit Field(Options options = {}) : p(2, 0, options) {
    p.fill(Terrain::kPlains);
    p.terrain(p.at("E5"), Terrain::kMountain).terrain(p.at("E6"), Terrain::kWater);
    p.capital(0, p.at("B5")).capital(1, p.at("H2"));
    p.terrain(p.at("B3"), Terrain::kGrassland).city(0, p.at("B3"));
    p.terrain(p.at("D2"), Terrain::kMountain).city(0, p.at("D2"));
    p.terrain(p.at("F2"), Terrain::kMountain).city(1, p.at("F2"));
    p.terrain(p.at("G6"), Terrain::kForest).city(1, p.at("G6"));
  }
};

TEST(BattleTransparency, R12_3_EveryFireSaysWhereItsDiceComeFrom) {
  Field f;
  f.p.unit(1, U::kInfantry, f.p.at("E5"));
  f.p.unit(1, U::kArtillery, f.p.at("E5"));
  f.p.unit(1, U::kFrigate, f.p.at("E6"));  // Naval Support [12.32]
  const int inf = f.p.unit(0, U::kInfantry, f.p.at("E4"));
  const int cav = f.p.unit(0, U::kCavalry, f.p.at("D4"));
  const int art = f.p.unit(0, U::kArtillery, f.p.at("D5"));
  f.p.start_turn(0, Phase::kMovement);
  for (int u : {inf, cav, art}) f.p.apply_ok(act::move(0, u, f.p.at("E5")));
  // Pre-battle 6; attacker 1,2,2,3: four hits on two defenders, two in excess [12.31].
  f.p.dice({6, 1, 2, 2, 3, 6, 6});
  const auto ev = f.p.apply_ok(act::start_battle(0, f.p.at("E5")));
  const Event* pre = fire_event(ev, RollPurpose::kPreBattleFire);
  ASSERT_TRUE(pre && pre->fire);
  EXPECT_EQ(dice_from(*pre->fire, DieSource::kArtillery), 1);
  const Event* attack = fire_event(ev, RollPurpose::kAttackerFire);
  ASSERT_TRUE(attack && attack->fire);
  EXPECT_EQ(dice_from(*attack->fire, DieSource::kInfantry), 1);
  EXPECT_EQ(dice_from(*attack->fire, DieSource::kCavalry), 2);
  EXPECT_EQ(dice_from(*attack->fire, DieSource::kArtillery), 1);
  EXPECT_EQ(attack->fire->rolled(), 4);
  const Event* defence = fire_event(ev, RollPurpose::kDefenderFire);
  ASSERT_TRUE(defence && defence->fire);
  EXPECT_EQ(dice_from(*defence->fire, DieSource::kInfantry), 1);
  EXPECT_EQ(dice_from(*defence->fire, DieSource::kArtillery), 1);
  EXPECT_EQ(dice_from(*defence->fire, DieSource::kNavalSupport), 1);
  EXPECT_EQ(dice_from(*defence->fire, DieSource::kMountain), 2);
  EXPECT_EQ(defence->fire->suppressed, 2);  // both unit dice, never support or terrain
  EXPECT_EQ(defence->fire->rolled(), 3);
  EXPECT_EQ(static_cast<int>(defence->dice.size()), defence->fire->rolled());
}

TEST(BattleTransparency, R15_4_AveragedPairsAreInTheBreakdown) {
  Options o;
  o.luck_averaging = true;
  Field f(o);
  f.p.unit(1, U::kInfantry, f.p.at("E5"));
  f.p.unit(1, U::kInfantry, f.p.at("E5"));
  const int inf = f.p.unit(0, U::kInfantry, f.p.at("E4"));
  const int cav = f.p.unit(0, U::kCavalry, f.p.at("D4"));
  f.p.start_turn(0, Phase::kMovement);
  f.p.apply_ok(act::move(0, inf, f.p.at("E5")));
  f.p.apply_ok(act::move(0, cav, f.p.at("E5")));
  f.p.apply_ok(act::start_battle(0, f.p.at("E5")));
  f.p.dice({6});
  const auto ev = f.p.apply_ok(act::average_dice(0, 1));
  const auto averaged = events_of(ev, EventKind::kDiceAveraged);
  ASSERT_EQ(averaged.size(), 1u);
  ASSERT_TRUE(averaged[0].fire);
  EXPECT_EQ(averaged[0].fire->averaged_pairs, 1);
  EXPECT_EQ(averaged[0].fire->entitled(), 3);
  const Event* attack = fire_event(ev, RollPurpose::kAttackerFire);
  ASSERT_TRUE(attack && attack->fire);
  EXPECT_EQ(attack->fire->averaged_pairs, 1);
  EXPECT_EQ(attack->fire->rolled(), 1);
}

// The preview's first-round dice are the dice the Battle then rolls.
TEST(BattlePreview, R12_3_TheFirstRoundDiceAreTheOnesRolled) {
  Field f;
  f.p.town(1, f.p.at("E5"));  // a Mountain Town: two terrain dice, the best only
  f.p.unit(1, U::kInfantry, f.p.at("E5"));
  f.p.unit(1, U::kFrigate, f.p.at("E6"));
  const int inf = f.p.unit(0, U::kInfantry, f.p.at("E4"));
  const int art = f.p.unit(0, U::kArtillery, f.p.at("D5"));
  f.p.start_turn(0, Phase::kMovement);
  const auto preview = preview_battle(view_for(f.p.state, 0), f.p.at("E5"), {inf, art});
  ASSERT_TRUE(preview.has_value());
  EXPECT_EQ(preview->attacker, 0);
  EXPECT_EQ(preview->defender, 1);
  EXPECT_FALSE(preview->naval);
  EXPECT_EQ(preview->pre_battle_fire.rolled(), 1);
  EXPECT_EQ(preview->attacker_fire.rolled(), 2);
  EXPECT_EQ(preview->defender_fire.rolled(), 4);  // Infantry, Naval Support, Mountain 2
  EXPECT_EQ(dice_from(preview->defender_fire, DieSource::kMountain), 2);
  for (int u : {inf, art}) f.p.apply_ok(act::move(0, u, f.p.at("E5")));
  f.p.dice({6, 6, 6, 6, 6, 6, 6});
  const auto ev = f.p.apply_ok(act::start_battle(0, f.p.at("E5")));
  EXPECT_EQ(fire_event(ev, RollPurpose::kPreBattleFire)->fire, preview->pre_battle_fire);
  EXPECT_EQ(fire_event(ev, RollPurpose::kAttackerFire)->fire, preview->attacker_fire);
  EXPECT_EQ(fire_event(ev, RollPurpose::kDefenderFire)->fire, preview->defender_fire);
  EXPECT_NEAR(preview->attacker_wins + preview->defender_holds + preview->undecided, 1.0, 1e-9);
}

// House rule Defending Artillery Pre-fire: the preview shows the defender's answer and counts
// it. One Infantry against one Artillery on Plains: the answer hits half the time (the
// defender holds), else one die each a round, as for two Infantry: P(attacker) = 1/2 * 1/3.
TEST(BattlePreview, DefendingArtilleryPreFireHouseRule) {
  for (const bool on : {false, true}) {
    Options o;
    o.defender_prefire = on;
    Field f(o);
    f.p.unit(1, U::kArtillery, f.p.at("E4"));
    const int inf = f.p.unit(0, U::kInfantry, f.p.at("D4"));
    f.p.start_turn(0, Phase::kMovement);
    const auto p = preview_battle(view_for(f.p.state, 0), f.p.at("E4"), {inf});
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(p->defender_pre_battle_fire.rolled(), on ? 1 : 0);
    EXPECT_NEAR(p->attacker_wins, on ? 1.0 / 6.0 : 1.0 / 3.0, 0.03) << on;
    if (!on) continue;
    f.p.apply_ok(act::move(0, inf, f.p.at("E4")));
    f.p.dice({6, 6, 6});
    const auto ev = f.p.apply_ok(act::start_battle(0, f.p.at("E4")));
    EXPECT_EQ(fire_event(ev, RollPurpose::kDefenderPreFire)->fire, p->defender_pre_battle_fire);
  }
}

// Odds that can be worked out by hand, within four standard errors of the simulation.
TEST(BattlePreview, R12_3_OddsMatchWhatCanBeWorkedOutExactly) {
  {
    // One Infantry against an empty Plains Town: one Town die, a hit half the time [12.3].
    Field f;
    f.p.town(1, f.p.at("E4"));
    const int inf = f.p.unit(0, U::kInfantry, f.p.at("D4"));
    f.p.start_turn(0, Phase::kMovement);
    const auto p = preview_battle(view_for(f.p.state, 0), f.p.at("E4"), {inf});
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(p->attacker_fire.rolled(), 0);  // nothing to shoot at
    EXPECT_EQ(p->defender_fire.rolled(), 1);
    EXPECT_NEAR(p->attacker_wins, 0.5, 0.032);
    EXPECT_NEAR(p->average_rounds, 1.0, 1e-9);
  }
  {
    // One Infantry each on Plains: a round decides unless both miss; both hit -> the
    // defender holds. P(attacker) = (1/4) / (3/4) = 1/3.
    Field f;
    f.p.unit(1, U::kInfantry, f.p.at("E4"));
    const int inf = f.p.unit(0, U::kInfantry, f.p.at("D4"));
    f.p.start_turn(0, Phase::kMovement);
    const auto p = preview_battle(view_for(f.p.state, 0), f.p.at("E4"), {inf});
    ASSERT_TRUE(p.has_value());
    EXPECT_NEAR(p->attacker_wins, 1.0 / 3.0, 0.03);
    EXPECT_NEAR(p->defender_holds, 2.0 / 3.0, 0.03);
    EXPECT_EQ(p->undecided, 0.0);
  }
}

// Proof that the preview comes from public knowledge: positions that differ only in what the
// viewer may not know give the same answer; the same question, the same answer.
TEST(BattlePreview, HiddenTerrainAndTheGeneratorDoNotChangeIt) {
  Options o;
  o.independent_exploration = true;
  Field f(o);
  f.p.unit(1, U::kInfantry, f.p.at("E5"));
  const int inf = f.p.unit(0, U::kInfantry, f.p.at("E4"));
  const int cav = f.p.unit(0, U::kCavalry, f.p.at("D4"));
  f.p.face_down(f.p.at("C6"), Terrain::kMountain).face_down(f.p.at("F6"), Terrain::kWater);
  f.p.start_turn(0, Phase::kMovement);
  GameState other = f.p.state;
  other.hexes[f.p.at("C6")].terrain = Terrain::kPlains;  // another face-down tile
  other.hexes[f.p.at("F6")].terrain = Terrain::kForest;
  other.rng = Rng(987654321);  // another generator state
  other.tile_bank = {1, 1, 1, 1, 1};
  other.scripted_dice = {1, 1, 1};
  const auto mine = preview_battle(view_for(f.p.state, 0), f.p.at("E5"), {inf, cav});
  const auto theirs = preview_battle(view_for(other, 0), f.p.at("E5"), {inf, cav});
  ASSERT_TRUE(mine && theirs);
  EXPECT_EQ(mine->attacker_fire, theirs->attacker_fire);
  EXPECT_EQ(mine->defender_fire, theirs->defender_fire);
  EXPECT_EQ(mine->attacker_wins, theirs->attacker_wins);
  EXPECT_EQ(mine->defender_holds, theirs->defender_holds);
  EXPECT_EQ(mine->average_rounds, theirs->average_rounds);
  // A Battle hex whose terrain the viewer does not know: no terrain dice are counted.
  GameState unknown = f.p.state;
  unknown.hexes[f.p.at("E5")].known_by = 0b10;  // only the defender knows the Mountain
  const auto blind = preview_battle(view_for(unknown, 0), f.p.at("E5"), {inf, cav});
  ASSERT_TRUE(blind.has_value());
  EXPECT_FALSE(blind->terrain_known);
  EXPECT_EQ(dice_from(blind->defender_fire, DieSource::kMountain), 0);
  EXPECT_EQ(dice_from(mine->defender_fire, DieSource::kMountain), 2);
  // Public differences do change it.
  GameState stronger = f.p.state;
  stronger.units[static_cast<std::size_t>(inf)].type = U::kArtillery;
  const auto changed = preview_battle(view_for(stronger, 0), f.p.at("E5"), {inf, cav});
  ASSERT_TRUE(changed.has_value());
  EXPECT_NE(changed->pre_battle_fire, mine->pre_battle_fire);
}

TEST(BattlePreview, NothingToAttackOrNotOnePlayersUnits) {
  Field f;
  const int inf = f.p.unit(0, U::kInfantry, f.p.at("E4"));
  const int his = f.p.unit(1, U::kInfantry, f.p.at("F4"));
  const GameView v = view_for(f.p.state, 0);
  EXPECT_FALSE(preview_battle(v, f.p.at("D4"), {inf}).has_value());  // an empty hex
  EXPECT_FALSE(preview_battle(v, f.p.at("F4"), {inf, his}).has_value());
  EXPECT_FALSE(preview_battle(v, f.p.at("F4"), {}).has_value());
  EXPECT_FALSE(preview_battle(v, 9999, {inf}).has_value());
  EXPECT_TRUE(preview_battle(v, f.p.at("F4"), {inf}).has_value());
}

TEST(BattlePreview, R15_1_TerrainLevelingIsCounted) {
  Options o;
  o.terrain_leveling = true;
  Field f(o);
  f.p.unit(1, U::kInfantry, f.p.at("E5"));
  const int inf = f.p.unit(0, U::kInfantry, f.p.at("E4"));
  const auto p = preview_battle(view_for(f.p.state, 0), f.p.at("E5"), {inf});
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->defender_fire.rolled(), 1);  // no Mountain dice [15.1]
}

}  // namespace
}  // namespace viktory
