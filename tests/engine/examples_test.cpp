// The rulebook's two worked examples, played move by move with the dice the text states.
// Red is player 0, yellow player 1.
#include <gtest/gtest.h>

#include "fixture.h"

namespace viktory {
namespace {

using testing::count_of;
using testing::events_of;
using testing::Position;
using testing::rolls;

using U = UnitType;
using Dice = std::vector<std::vector<int>>;

// [11.2] Bombard Attack Example.
TEST(Examples, R11_BombardAttackExample) {
  Position p(2);
  p.fill(Terrain::kPlains);
  p.capital(0, p.at("B5")).capital(1, p.at("H2"));
  p.terrain(p.at("B3"), Terrain::kMountain).city(0, p.at("B3"));
  p.terrain(p.at("H4"), Terrain::kForest).city(1, p.at("H4"));
  // The red Artillery on E4 is three hexes from the yellow Frigate on F6; between them lie the
  // Grassland E5, and then, side by side, the Mountain E6 and the Plains F5.
  p.terrain(p.at("E5"), Terrain::kGrassland)
      .terrain(p.at("E6"), Terrain::kMountain)
      .terrain(p.at("F6"), Terrain::kWater);
  const int art = p.unit(0, U::kArtillery, p.at("E4"));
  const int frigate = p.unit(1, U::kFrigate, p.at("F6"));
  p.start_turn(0, Phase::kMovement);
  Position forest_instead_of_plains = p;
  ASSERT_EQ(p.board().distance(p.at("E4"), p.at("F6")), 3);
  EXPECT_EQ(p.apply_error(act::bombard(0, art, p.at("F6"))), "out_of_range");

  // He moves across the Grassland one hex closer: two hexes away, the maximum range.
  p.apply_ok(act::move(0, art, p.at("E5")));
  ASSERT_EQ(p.u(art).moves_left, 1);
  // The Mountain blocks, but he traces the Bombardment through the Plains.
  p.dice({1});
  const auto ev = p.apply_ok(act::bombard(0, art, p.at("F6")));
  EXPECT_EQ(rolls(ev, RollPurpose::kBombard), (Dice{{1}}));
  // A hit, and a tactical victory; with one target the choice is moot: no one is asked.
  EXPECT_FALSE(p.state.bombard.has_value());
  EXPECT_EQ(p.u(frigate).place, UnitPlace::kReserve);
  EXPECT_EQ(p.reserve_count(1, U::kFrigate), 1);
  const auto hits = events_of(ev, EventKind::kUnitHit);
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].value, 1);
  // No return fire [11.1].
  EXPECT_EQ(count_of(ev, EventKind::kDiceRolled), 1);
  // The Artillery had one MP left, but the attack ended its movement [10.7].
  EXPECT_EQ(p.u(art).moves_left, 0);
  EXPECT_EQ(p.apply_error(act::move(0, art, p.at("F5"))), "attacked");
  EXPECT_CONSISTENT(p);

  // Had the Plains hex been a Forest, no path would have been clear [11.2].
  Position& q = forest_instead_of_plains;
  q.terrain(q.at("F5"), Terrain::kForest);
  q.apply_ok(act::move(0, art, q.at("E5")));
  EXPECT_EQ(q.apply_error(act::bombard(0, art, q.at("F6"))), "blocked");
}

// [12.3] Battle Attack Example.
//
//   Yellow: Mountain City E5 (2 Infantry, 1 Artillery), his Frigate on the water E6 next to
//   it, a Capital G3 (Infantry) and a Forest City E7 (that supports the Frigate).
//   Red: 2 Infantry and a Cavalry on the Plains G4, two hexes from E5; a Frigate on C3 next
//   to the Forest C2, where 2 Artillery and 1 Infantry wait; the water C3-C4-D4 leads to D4,
//   the other water hex next to E5. Between D4 and E6 lie E5 and the Grassland D5.
//   Red's economy: Capital B4, Grassland City B2, Mountain Cities C6 and D2, Forest City F2
//   (5 Infantry, 1 Cavalry, 2 Artillery, 1 Frigate; the two spare Infantry stay at home).
TEST(Examples, R12_BattleAttackExample) {
  Position p(2);
  p.fill(Terrain::kPlains);
  p.terrain({p.at("E6"), p.at("D4"), p.at("C3"), p.at("C4")}, Terrain::kWater);
  p.terrain(p.at("E5"), Terrain::kMountain).terrain(p.at("D5"), Terrain::kGrassland);
  p.terrain({p.at("C2"), p.at("F2"), p.at("E7")}, Terrain::kForest);
  p.terrain(p.at("B2"), Terrain::kGrassland);
  p.terrain({p.at("C6"), p.at("D2")}, Terrain::kMountain);
  // Yellow.
  p.capital(1, p.at("G3")).city(1, p.at("E5")).city(1, p.at("E7"));
  const int y_inf1 = p.unit(1, U::kInfantry, p.at("E5"));
  const int y_inf2 = p.unit(1, U::kInfantry, p.at("E5"));
  const int y_art = p.unit(1, U::kArtillery, p.at("E5"));
  const int y_frigate = p.unit(1, U::kFrigate, p.at("E6"));
  const int y_home = p.unit(1, U::kInfantry, p.at("G3"));
  // Red.
  p.capital(0, p.at("B4"));
  p.city(0, p.at("B2")).city(0, p.at("C6")).city(0, p.at("D2")).city(0, p.at("F2"));
  const int r_inf1 = p.unit(0, U::kInfantry, p.at("G4"));
  const int r_inf2 = p.unit(0, U::kInfantry, p.at("G4"));
  const int r_cav = p.unit(0, U::kCavalry, p.at("G4"));
  const int r_inf3 = p.unit(0, U::kInfantry, p.at("C2"));
  const int r_art1 = p.unit(0, U::kArtillery, p.at("C2"));
  const int r_art2 = p.unit(0, U::kArtillery, p.at("C2"));
  const int r_frigate = p.unit(0, U::kFrigate, p.at("C3"));
  p.unit(0, U::kInfantry, p.at("B4"));
  p.unit(0, U::kInfantry, p.at("B4"));
  ASSERT_FALSE(check_invariants(p.state).has_value()) << *check_invariants(p.state);
  ASSERT_EQ(p.board().distance(p.at("G4"), p.at("E5")), 2);
  p.start_turn(0, Phase::kMovement);

  // The Frigate loads the Artillery and Infantry from the Forest hex and settles next to E5.
  for (int u : {r_art1, r_art2, r_inf3}) p.apply_ok(act::embark(0, u, r_frigate));
  p.apply_ok(act::move(0, r_frigate, p.at("C4")));
  p.apply_ok(act::move(0, r_frigate, p.at("D4")));

  // It bombards the yellow Frigate across the Grassland D5 (E5 blocks): a 5, a miss.
  p.dice({5});
  auto ev = p.apply_ok(act::bombard(0, r_frigate, p.at("E6")));
  EXPECT_EQ(rolls(ev, RollPurpose::kBombard), (Dice{{5}}));
  EXPECT_EQ(p.u(y_frigate).place, UnitPlace::kMap);

  // Figure 2: unloading into the Mountain City, then the Plains units march in.
  for (int u : {r_art1, r_art2, r_inf3}) p.apply_ok(act::disembark(0, u, p.at("E5")));
  for (int u : {r_inf1, r_inf2, r_cav}) {
    p.apply_ok(act::move(0, u, p.at("F4")));
    p.apply_ok(act::move(0, u, p.at("E5")));
  }
  EXPECT_EQ(p.units_on(p.at("E5"), 0).size(), 6u);
  EXPECT_EQ(pending_battles(p.state), std::vector<int>{p.at("E5")});

  // Pre-Battle Fire: one die per Artillery: a miss and a '1'; red picks the yellow Artillery.
  p.dice({5, 1});
  ev = p.apply_ok(act::start_battle(0, p.at("E5")));
  EXPECT_EQ(rolls(ev, RollPurpose::kPreBattleFire), (Dice{{5, 1}}));
  ASSERT_EQ(decider(p.state), 0);
  // Attacker's Fire: one die for Infantry, two for Cavalry, one for Artillery; three hits,
  // one a '1'. Defender's Fire: his Infantry die is suppressed by the excess hit; two
  // Defensive Terrain dice and one Naval Support die remain: two '1's and a '3'.
  p.dice({1, 3, 2, 6, 1, 3, 1});
  ev = p.apply_ok(act::choose_casualty(0, y_art));
  EXPECT_EQ(p.u(y_art).place, UnitPlace::kReserve);  // straight to the Reserve, no return fire
  EXPECT_EQ(rolls(ev, RollPurpose::kAttackerFire), (Dice{{1, 3, 2, 6}}));
  ASSERT_TRUE(p.state.battle.has_value());
  EXPECT_EQ(p.state.battle->suppression, 1);
  EXPECT_EQ(rolls(ev, RollPurpose::kDefenderFire), (Dice{{1, 3, 1}}));
  // Both yellow Infantry were hit without anyone choosing (he has nothing else there).
  EXPECT_EQ(p.state.battle->marked.size(), 2u);
  // Yellow's two tactical victories: he takes red's Cavalry and one Artillery.
  ASSERT_EQ(decider(p.state), 1);
  EXPECT_EQ(p.state.current, 0);
  p.apply_ok(act::choose_casualty(1, r_cav));
  ASSERT_EQ(decider(p.state), 1);
  p.apply_ok(act::choose_casualty(1, r_art1));
  // Red assigns the third hit himself, to an Infantry.
  ASSERT_EQ(decider(p.state), 0);
  EXPECT_EQ(p.apply_error(act::choose_casualty(0, r_art1)), "bad_casualty");
  ev = p.apply_ok(act::choose_casualty(0, r_inf1));

  // Removing casualties: red wins with two Infantry and an Artillery, and takes the City.
  EXPECT_FALSE(p.state.battle.has_value());
  for (int u : {r_cav, r_art1, r_inf1, y_inf1, y_inf2}) {
    EXPECT_EQ(p.u(u).place, UnitPlace::kReserve) << u;
  }
  EXPECT_EQ(p.count_on(p.at("E5"), 0, U::kInfantry), 2);
  EXPECT_EQ(p.count_on(p.at("E5"), 0, U::kArtillery), 1);
  EXPECT_EQ(p.u(r_art2).hex, p.at("E5"));
  EXPECT_EQ(p.state.hexes[p.at("E5")].town_owner, 0);
  EXPECT_TRUE(p.state.hexes[p.at("E5")].city);
  const auto captured = events_of(ev, EventKind::kTownCaptured);
  ASSERT_EQ(captured.size(), 1u);
  EXPECT_EQ(captured[0].value, 1);  // a City

  // Economic adjustments: red gains an Infantry and an Artillery into his Reserve ...
  const auto gained = events_of(ev, EventKind::kUnitGained);
  ASSERT_EQ(gained.size(), 2u);
  EXPECT_EQ(gained[0].unit_type, U::kInfantry);
  EXPECT_EQ(gained[1].unit_type, U::kArtillery);
  EXPECT_EQ(p.reserve_count(0, U::kInfantry), 2);  // the lost one and the gained one
  EXPECT_EQ(p.reserve_count(0, U::kArtillery), 2);
  EXPECT_EQ(p.reserve_count(0, U::kCavalry), 1);
  // ... and yellow removes an Infantry and an Artillery: the Artillery is the one in his
  // Reserve; for the Infantry he chooses, and takes one from his Reserve too.
  ASSERT_TRUE(p.state.elimination.has_value());
  EXPECT_EQ(p.stock_count(1, U::kArtillery), 1);
  ASSERT_EQ(decider(p.state), 1);
  p.apply_ok(act::eliminate_unit(1, y_inf1));
  EXPECT_EQ(p.u(y_inf1).place, UnitPlace::kStock);
  EXPECT_EQ(p.u(y_inf2).place, UnitPlace::kReserve);
  EXPECT_EQ(p.u(y_home).hex, p.at("G3"));
  EXPECT_EQ(p.u(y_frigate).hex, p.at("E6"));
  EXPECT_EQ(decider(p.state), 0);
  EXPECT_CONSISTENT(p);

  // The yellow Frigate still lies next to the captured City: red cannot reinforce it [13.2].
  p.apply_ok(act::end_phase(0));
  ASSERT_EQ(p.state.phase, Phase::kReserve);
  EXPECT_EQ(p.apply_error(act::place_reserve(0, U::kInfantry, p.at("E5"))), "enemy_adjacent");
  p.apply_ok(act::place_reserve(0, U::kInfantry, p.at("B4")));
}

}  // namespace
}  // namespace viktory
