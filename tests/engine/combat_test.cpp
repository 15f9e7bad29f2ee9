// General combat rules [10.x] and Bombard Attacks [11.x].
#include <gtest/gtest.h>

#include <algorithm>

#include "fixture.h"

namespace viktory {
namespace {

using testing::count_of;
using testing::events_of;
using testing::Position;
using testing::rolls;

// Plains. Player 0: Capital B5, Mountain City B3 (its Artillery stands on E4). Player 1:
// Capital H2, Grassland City H4 (Infantry and Cavalry). From E4: E5 is adjacent, E6 two hexes
// away in a straight line (through E5 only), F5 two hexes away along a hexside (through E5
// and F4), E7 three hexes away.
struct Range {
  Position p{2};
  int art = -1;
  Range() {
    p.fill(Terrain::kPlains);
    p.capital(0, p.at("B5")).capital(1, p.at("H2"));
    p.terrain(p.at("B3"), Terrain::kMountain).city(0, p.at("B3"));
    p.terrain(p.at("H4"), Terrain::kGrassland).city(1, p.at("H4"));
    art = p.unit(0, UnitType::kArtillery, p.at("E4"));
  }
  int enemy(UnitType t, const char* hex) { return p.unit(1, t, p.at(hex)); }
};

TEST(Combat, R10_1_RollsOfThreeOrLessHit) {
  for (int face = 1; face <= 6; ++face) {
    Range r;
    const int target = r.enemy(UnitType::kInfantry, "E5");
    r.p.start_turn(0, Phase::kMovement);
    r.p.dice({face});
    const auto ev = r.p.apply_ok(act::bombard(0, r.art, r.p.at("E5")));
    EXPECT_EQ(rolls(ev, RollPurpose::kBombard), std::vector<std::vector<int>>{{face}});
    const bool hit = face <= 3;
    EXPECT_EQ(r.p.u(target).place, hit ? UnitPlace::kReserve : UnitPlace::kMap) << face;
    EXPECT_EQ(count_of(ev, EventKind::kUnitLost), hit ? 1 : 0) << face;
    EXPECT_TRUE(r.p.state.scripted_dice.empty());
  }
}

TEST(Combat, R10_1_TacticalVictoryLetsTheFirerChoose) {
  Range r;
  const int inf = r.enemy(UnitType::kInfantry, "E5");
  const int cav = r.enemy(UnitType::kCavalry, "E5");
  r.p.start_turn(0, Phase::kMovement);
  r.p.dice({1});
  r.p.apply_ok(act::bombard(0, r.art, r.p.at("E5")));
  ASSERT_TRUE(r.p.state.bombard.has_value());
  EXPECT_EQ(decider(r.p.state), 0);
  EXPECT_EQ(r.p.apply_error(act::choose_casualty(1, inf)), "not_your_decision");
  EXPECT_EQ(r.p.apply_error(act::choose_casualty(0, r.art)), "bad_casualty");
  const auto ev = r.p.apply_ok(act::choose_casualty(0, cav));
  EXPECT_EQ(r.p.u(cav).place, UnitPlace::kReserve);
  EXPECT_EQ(r.p.u(inf).place, UnitPlace::kMap);
  const auto hits = events_of(ev, EventKind::kUnitHit);
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].value, 1);  // chosen by the firer
  EXPECT_FALSE(r.p.state.bombard.has_value());
  EXPECT_EQ(decider(r.p.state), 0);
}

TEST(Combat, R10_1_OnTwoOrThreeTheTargetChooses) {
  for (int face : {2, 3}) {
    Range r;
    const int inf = r.enemy(UnitType::kInfantry, "E5");
    const int cav = r.enemy(UnitType::kCavalry, "E5");
    r.p.start_turn(0, Phase::kMovement);
    r.p.dice({face});
    r.p.apply_ok(act::bombard(0, r.art, r.p.at("E5")));
    // The target player decides, though it is player 0's turn.
    EXPECT_EQ(r.p.state.current, 0);
    EXPECT_EQ(decider(r.p.state), 1);
    EXPECT_EQ(r.p.apply_error(act::choose_casualty(0, cav)), "not_your_decision");
    EXPECT_EQ(r.p.apply_error(act::end_phase(0)), "not_your_decision");
    // Player 0 may only concede now; player 1 picks one of his two units.
    EXPECT_EQ(legal_actions(r.p.state, 0), std::vector<Action>{act::concede(0)});
    const auto choices = legal_actions(r.p.state, 1);
    EXPECT_EQ(std::count(choices.begin(), choices.end(), act::choose_casualty(1, inf)), 1);
    EXPECT_EQ(std::count(choices.begin(), choices.end(), act::choose_casualty(1, cav)), 1);
    EXPECT_EQ(choices.size(), 3u);  // and concede
    const auto ev = r.p.apply_ok(act::choose_casualty(1, inf));
    EXPECT_EQ(r.p.u(inf).place, UnitPlace::kReserve);
    EXPECT_EQ(r.p.u(cav).place, UnitPlace::kMap);
    EXPECT_EQ(events_of(ev, EventKind::kUnitHit).at(0).value, 0);
    EXPECT_EQ(decider(r.p.state), 0);
  }
}

TEST(Combat, R10_1_NoChoiceWhenItCannotMatter) {
  Range r;
  const int a = r.enemy(UnitType::kInfantry, "E5");
  const int b = r.enemy(UnitType::kInfantry, "E5");
  r.p.start_turn(0, Phase::kMovement);
  r.p.dice({2});
  r.p.apply_ok(act::bombard(0, r.art, r.p.at("E5")));
  EXPECT_FALSE(r.p.state.bombard.has_value());  // two Infantry: either one, no question
  EXPECT_EQ((r.p.u(a).place == UnitPlace::kReserve) + (r.p.u(b).place == UnitPlace::kReserve), 1);
}

TEST(Combat, R10_2_LoserOfATownChoosesTheUnitsToEliminate) {
  Position p(2);
  p.fill(Terrain::kPlains);
  p.capital(0, p.at("B5")).capital(1, p.at("H2"));
  p.town(1, p.at("E4")).town(1, p.at("H4"));
  p.town(0, p.at("B3"));
  const int attacker = p.unit(0, UnitType::kInfantry, p.at("E3"));
  const int at_capital = p.unit(1, UnitType::kInfantry, p.at("H2"));
  const int elsewhere = p.unit(1, UnitType::kInfantry, p.at("G5"));
  // Player 1's third Infantry (the Town's) is in his Reserve.
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, attacker, p.at("E4")));
  p.dice({4});  // the empty Town's Defensive Terrain die misses
  const auto ev = p.apply_ok(act::start_battle(0, p.at("E4")));
  EXPECT_EQ(p.state.hexes[p.at("E4")].town_owner, 0);
  const auto gained = events_of(ev, EventKind::kUnitGained);
  ASSERT_EQ(gained.size(), 1u);  // [10.3] the winner gains the Town's Infantry
  EXPECT_EQ(gained[0].player, 0);
  EXPECT_EQ(gained[0].unit_type, UnitType::kInfantry);
  // Player 1 chooses which Infantry goes back to stock: Reserve or map [10.2].
  ASSERT_TRUE(p.state.elimination.has_value());
  EXPECT_EQ(decider(p.state), 1);
  EXPECT_EQ(p.apply_error(act::eliminate_unit(0, attacker)), "not_your_decision");
  const auto ev2 = p.apply_ok(act::eliminate_unit(1, elsewhere));
  EXPECT_EQ(p.u(elsewhere).place, UnitPlace::kStock);
  EXPECT_EQ(p.u(at_capital).place, UnitPlace::kMap);
  EXPECT_EQ(p.reserve_count(1, UnitType::kInfantry), 1);
  EXPECT_EQ(count_of(ev2, EventKind::kUnitEliminated), 1);
  EXPECT_FALSE(p.state.elimination.has_value());
  EXPECT_EQ(decider(p.state), 0);
  EXPECT_CONSISTENT(p);
}

TEST(Combat, R10_2_EliminationOnlyOfTheSupportedTypes) {
  Position p(2);
  p.fill(Terrain::kPlains);
  p.capital(0, p.at("B5")).capital(1, p.at("H2"));
  p.terrain(p.at("E4"), Terrain::kGrassland).city(1, p.at("E4"));
  p.terrain(p.at("H4"), Terrain::kMountain).city(1, p.at("H4"));
  const int attacker = p.unit(0, UnitType::kInfantry, p.at("E3"));
  const int art = p.unit(1, UnitType::kArtillery, p.at("G4"));
  const int inf_a = p.unit(1, UnitType::kInfantry, p.at("H2"));
  p.unit(1, UnitType::kInfantry, p.at("H4"));
  p.unit(1, UnitType::kCavalry, p.at("G2"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, attacker, p.at("E4")));
  p.dice({4, 5});  // the empty City's two Defensive Terrain dice miss
  const auto ev = p.apply_ok(act::start_battle(0, p.at("E4")));
  EXPECT_EQ(rolls(ev, RollPurpose::kDefenderFire), (std::vector<std::vector<int>>{{4, 5}}));
  ASSERT_EQ(p.state.hexes[p.at("E4")].town_owner, 0);
  EXPECT_TRUE(p.state.hexes[p.at("E4")].city);  // the same type of Town or City [12.3 step 4]
  EXPECT_EQ(p.reserve_count(0, UnitType::kInfantry), 1);
  EXPECT_EQ(p.reserve_count(0, UnitType::kCavalry), 1);
  // He owed an Infantry (there are two, on different hexes: his choice) and a Cavalry (only
  // one: taken at once); an Artillery cannot pay for a Grassland City.
  ASSERT_TRUE(p.state.elimination.has_value());
  EXPECT_EQ(p.stock_count(1, UnitType::kCavalry), 1);
  EXPECT_EQ(p.apply_error(act::eliminate_unit(1, art)), "bad_elimination");
  p.apply_ok(act::eliminate_unit(1, inf_a));
  EXPECT_EQ(p.stock_count(1, UnitType::kInfantry), 1);
  EXPECT_EQ(p.u(art).place, UnitPlace::kMap);
  EXPECT_CONSISTENT(p);
}

TEST(Combat, R10_6_OneAttackPerUnitPerTurn) {
  Range r;
  r.enemy(UnitType::kInfantry, "E5");
  r.enemy(UnitType::kInfantry, "E5");
  r.p.start_turn(0, Phase::kMovement);
  r.p.dice({6});
  r.p.apply_ok(act::bombard(0, r.art, r.p.at("E5")));
  EXPECT_EQ(r.p.apply_error(act::bombard(0, r.art, r.p.at("E5"))), "attacked");
  // No Battle Attack after a Bombard Attack either (and no more movement [10.7]).
  EXPECT_EQ(r.p.apply_error(act::move(0, r.art, r.p.at("E5"))), "attacked");
}

TEST(Combat, R10_6_NoBombardAfterABattle) {
  Range r;
  const int target = r.enemy(UnitType::kInfantry, "E5");
  r.enemy(UnitType::kInfantry, "F6");
  r.p.start_turn(0, Phase::kMovement);
  r.p.apply_ok(act::move(0, r.art, r.p.at("E5")));
  r.p.dice({1});  // pre-battle fire kills the lone defender: the Battle is over
  r.p.apply_ok(act::start_battle(0, r.p.at("E5")));
  ASSERT_EQ(r.p.u(target).place, UnitPlace::kReserve);
  EXPECT_EQ(r.p.apply_error(act::bombard(0, r.art, r.p.at("F6"))), "attacked");
}

TEST(Combat, R10_7_AnAttackEndsMovement) {
  Range r;
  r.enemy(UnitType::kInfantry, "E6");
  r.p.start_turn(0, Phase::kMovement);
  r.p.dice({5});
  r.p.apply_ok(act::bombard(0, r.art, r.p.at("E6")));
  EXPECT_EQ(r.p.u(r.art).moves_left, 0);
  EXPECT_TRUE(r.p.u(r.art).move_done);
  EXPECT_NE(r.p.apply_error(act::move(0, r.art, r.p.at("D4"))), "accepted");
}

TEST(Combat, R11_0_RangeIsOneOrTwoHexes) {
  Range r;
  const int far = r.enemy(UnitType::kInfantry, "E7");
  r.enemy(UnitType::kCavalry, "E6");
  r.p.start_turn(0, Phase::kMovement);
  ASSERT_EQ(r.p.board().distance(r.p.at("E4"), r.p.u(far).hex), 3);
  EXPECT_EQ(r.p.apply_error(act::bombard(0, r.art, r.p.at("E7"))), "out_of_range");
  EXPECT_EQ(r.p.apply_error(act::bombard(0, r.art, r.p.at("E4"))), "out_of_range");
  r.p.dice({6});
  r.p.apply_ok(act::bombard(0, r.art, r.p.at("E6")));
}

TEST(Combat, R11_0_BombardOnlyEnemyUnits) {
  Range r;
  r.p.town(1, r.p.at("E6"));  // an empty enemy Town: nothing to hit, nor can it be taken
  r.p.unit(1, UnitType::kInfantry, r.p.at("H4"));
  const int own = r.p.unit(0, UnitType::kInfantry, r.p.at("E5"));
  r.p.start_turn(0, Phase::kMovement);
  EXPECT_EQ(r.p.apply_error(act::bombard(0, r.art, r.p.at("E6"))), "no_target");
  EXPECT_EQ(r.p.apply_error(act::bombard(0, r.art, r.p.u(own).hex)), "no_target");
  EXPECT_EQ(r.p.apply_error(act::bombard(0, own, r.p.at("E6"))), "cannot_bombard");
}

TEST(Combat, R11_1_NoReturnFire) {
  Range r;
  r.enemy(UnitType::kInfantry, "E5");
  r.enemy(UnitType::kCavalry, "E5");
  r.p.start_turn(0, Phase::kMovement);
  r.p.dice({5});
  const auto ev = r.p.apply_ok(act::bombard(0, r.art, r.p.at("E5")));
  EXPECT_EQ(count_of(ev, EventKind::kDiceRolled), 1);  // one shot, nothing back [11.0, 11.1]
  EXPECT_EQ(rolls(ev, RollPurpose::kBombard).size(), 1u);
  EXPECT_EQ(r.p.u(r.art).place, UnitPlace::kMap);
}

TEST(Combat, R11_2_BlockingTerrainInAStraightLine) {
  const std::vector<std::pair<Terrain, bool>> cases{{Terrain::kForest, false},
                                                    {Terrain::kMountain, false},
                                                    {Terrain::kPlains, true},
                                                    {Terrain::kGrassland, true},
                                                    {Terrain::kWater, true}};
  for (const auto& [between, clear] : cases) {
    Range r;
    r.p.terrain(r.p.at("E5"), between);
    r.enemy(UnitType::kInfantry, "E6");
    r.p.start_turn(0, Phase::kMovement);
    r.p.dice({6});
    EXPECT_EQ(r.p.apply_error(act::bombard(0, r.art, r.p.at("E6"))), clear ? "accepted" : "blocked")
        << to_string(between);
  }
}

TEST(Combat, R11_2_TownsAndCitiesBlock) {
  for (int owner : {0, 1}) {
    Range r;
    r.p.town(owner, r.p.at("E5"));
    r.enemy(UnitType::kInfantry, "E6");
    r.p.start_turn(0, Phase::kMovement);
    EXPECT_EQ(r.p.apply_error(act::bombard(0, r.art, r.p.at("E6"))), "blocked") << owner;
  }
}

TEST(Combat, R11_2_AlongAHexsideOneClearHexIsEnough) {
  // F5 is two hexes from E4 along the hexside between E5 and F4.
  const std::vector<std::tuple<Terrain, Terrain, bool>> cases{
      {Terrain::kMountain, Terrain::kPlains, true},
      {Terrain::kPlains, Terrain::kForest, true},
      {Terrain::kForest, Terrain::kMountain, false},
      {Terrain::kPlains, Terrain::kPlains, true}};
  for (const auto& [e5, f4, clear] : cases) {
    Range r;
    r.p.terrain(r.p.at("E5"), e5).terrain(r.p.at("F4"), f4);
    r.enemy(UnitType::kInfantry, "F5");
    r.p.start_turn(0, Phase::kMovement);
    ASSERT_EQ(r.p.board().common_neighbors(r.p.at("E4"), r.p.at("F5")).size(), 2u);
    EXPECT_EQ(r.p.apply_error(act::bombard(0, r.art, r.p.at("F5"))), clear ? "accepted" : "blocked")
        << to_string(e5) << "/" << to_string(f4);
  }
}

TEST(Combat, R11_2_BlockingHexAtEitherEndDoesNotBlock) {
  Range r;
  r.p.terrain(r.p.at("E4"), Terrain::kForest).terrain(r.p.at("E6"), Terrain::kMountain);
  r.enemy(UnitType::kInfantry, "E6");
  r.p.start_turn(0, Phase::kMovement);
  r.p.dice({6});
  r.p.apply_ok(act::bombard(0, r.art, r.p.at("E6")));
}

TEST(Combat, R11_2_UnexploredHexCannotBeTracedAcross) {
  Range r;
  r.p.face_down(r.p.at("E5"), Terrain::kPlains);
  r.enemy(UnitType::kInfantry, "E6");
  r.p.start_turn(0, Phase::kMovement);
  EXPECT_EQ(r.p.apply_error(act::bombard(0, r.art, r.p.at("E6"))), "blocked");
}

TEST(Combat, R11_0_FrigatesBombardToo) {
  Position p(2);
  p.fill(Terrain::kPlains);
  p.terrain({p.at("E4"), p.at("E5"), p.at("E6")}, Terrain::kWater);
  p.capital(0, p.at("B5")).capital(1, p.at("H2"));
  p.terrain(p.at("B3"), Terrain::kForest).city(0, p.at("B3"));
  const int frigate = p.unit(0, UnitType::kFrigate, p.at("E4"));
  const int target = p.unit(1, UnitType::kInfantry, p.at("F5"));
  p.start_turn(0, Phase::kMovement);
  p.dice({2});
  p.apply_ok(act::bombard(0, frigate, p.at("F5")));
  EXPECT_EQ(p.u(target).place, UnitPlace::kReserve);
  EXPECT_TRUE(p.u(frigate).attacked);
}

TEST(Combat, R11_0_BombardOnlyInTheMovementPhase) {
  Range r;
  r.enemy(UnitType::kInfantry, "E5");
  r.p.start_turn(0, Phase::kBuild);
  EXPECT_EQ(r.p.apply_error(act::bombard(0, r.art, r.p.at("E5"))), "wrong_phase");
}

}  // namespace
}  // namespace viktory
