// Exploration Balancing [15.3]: when one act of building or movement turns up two or more
// water hexes, a land tile is drawn from the unused tiles and the player may put it on one
// of them.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "fixture.h"
#include "tiles.h"

namespace viktory {
namespace {

using testing::count_of;
using testing::events_of;
using testing::Position;

using U = UnitType;

Options balancing() {
  Options o;
  o.exploration_balancing = true;
  return o;
}

int land_in_bank(const GameState& s) {
  int n = 0;
  for (int slot = 0; slot < kTerrainKinds; ++slot) {
    if (is_land(terrain_of_bank_slot(slot))) n += s.tile_bank[slot];
  }
  return n;
}

int water_in_bank(const GameState& s) { return s.tile_bank[bank_slot_of(Terrain::kWater)]; }

// Plains, face up, except the face-down tiles laid per test. Player 0: Capital D3, his
// Infantry on E4; player 1: Capital G6.
struct Coast {
  Position p{2, 0, balancing()};
  int inf = -1;
  Coast() {
    p.fill(Terrain::kPlains);
    p.capital(0, p.at("D3")).capital(1, p.at("G6"));
    inf = p.unit(0, U::kInfantry, p.at("E4"));
  }
  // E5's neighbours are E6, D5, D4, E4, F4 and F5.
  std::vector<Event> step_to_e5(std::vector<const char*> water, std::vector<const char*> land) {
    for (const char* l : water) p.face_down(p.at(l), Terrain::kWater);
    for (const char* l : land) p.face_down(p.at(l), Terrain::kGrassland);
    p.start_turn(0, Phase::kMovement);
    return p.apply_ok(act::move(0, inf, p.at("E5")));
  }
};

TEST(ExplorationBalancing, R15_3_TwoWaterHexesFromOneMoveOfferTheChoice) {
  Coast c;
  const int bank_land = land_in_bank(c.p.state);
  const int bank_water = water_in_bank(c.p.state);
  const auto ev = c.step_to_e5({"D5", "F5"}, {"E6"});
  ASSERT_TRUE(c.p.state.balance.has_value());
  const PendingBalance b = *c.p.state.balance;
  EXPECT_EQ(b.player, 0);
  EXPECT_EQ(b.water, (std::vector<int>{c.p.at("D5"), c.p.at("F5")}));
  EXPECT_TRUE(is_land(b.land));
  const auto drawn = events_of(ev, EventKind::kLandDrawn);
  ASSERT_EQ(drawn.size(), 1u);
  EXPECT_EQ(drawn[0].terrain, b.land);
  EXPECT_EQ(land_in_bank(c.p.state), bank_land - 1);  // the land tile is out of the bank
  EXPECT_EQ(decider(c.p.state), 0);
  // His decision first: which water hex, or none.
  EXPECT_EQ(c.p.apply_error(act::move(0, c.inf, c.p.at("E6"))), "decision_pending");
  EXPECT_EQ(c.p.apply_error(act::replace_water(0, c.p.at("E6"))), "bad_water_hex");
  const auto legal = legal_actions(c.p.state, 0);
  EXPECT_EQ(legal.size(), 4u);  // two hexes, keep the water, concede
  const auto swapped = c.p.apply_ok(act::replace_water(0, c.p.at("F5")));
  EXPECT_EQ(c.p.state.hexes[c.p.at("F5")].terrain, b.land);
  EXPECT_EQ(c.p.state.hexes[c.p.at("D5")].terrain, Terrain::kWater);
  const auto replaced = events_of(swapped, EventKind::kTileReplaced);
  ASSERT_EQ(replaced.size(), 1u);
  EXPECT_EQ(replaced[0].hex, c.p.at("F5"));
  EXPECT_EQ(replaced[0].terrain, b.land);
  EXPECT_EQ(water_in_bank(c.p.state), bank_water + 1);  // the water tile is unused now
  EXPECT_FALSE(c.p.state.balance.has_value());
  // The move goes on: the Infantry has a Movement Point left, and F5 is land now.
  c.p.apply_ok(act::move(0, c.inf, c.p.at("F5")));
  EXPECT_EQ(c.p.u(c.inf).hex, c.p.at("F5"));
  EXPECT_CONSISTENT(c.p);
}

TEST(ExplorationBalancing, R15_3_KeepingTheWaterReturnsTheLandTile) {
  Coast c;
  const auto bank = c.p.state.tile_bank;
  c.step_to_e5({"D5", "F5", "E6"}, {});
  ASSERT_TRUE(c.p.state.balance.has_value());
  EXPECT_EQ(c.p.state.balance->water.size(), 3u);
  const auto ev = c.p.apply_ok(act::keep_water(0));
  EXPECT_EQ(count_of(ev, EventKind::kWaterKept), 1);
  EXPECT_EQ(c.p.state.tile_bank, bank);
  for (const char* l : {"D5", "F5", "E6"}) {
    EXPECT_EQ(c.p.state.hexes[c.p.at(l)].terrain, Terrain::kWater) << l;
  }
  EXPECT_FALSE(c.p.state.balance.has_value());
}

TEST(ExplorationBalancing, R15_3_OneWaterHexIsNotEnough) {
  Coast c;
  const auto ev = c.step_to_e5({"D5"}, {"F5", "E6"});
  EXPECT_FALSE(c.p.state.balance.has_value());
  EXPECT_EQ(count_of(ev, EventKind::kLandDrawn), 0);
}

TEST(ExplorationBalancing, R15_3_OnlyHexesThisActTurnedUp) {
  Coast c;
  c.p.terrain(c.p.at("D5"), Terrain::kWater);  // face up already
  const auto ev = c.step_to_e5({"F5"}, {"E6"});
  EXPECT_FALSE(c.p.state.balance.has_value());
}

TEST(ExplorationBalancing, R15_3_NoLandLeftNoChoice) {
  Coast c;
  c.p.state.tile_bank = {5, 0, 0, 0, 0};
  c.step_to_e5({"D5", "F5"}, {});
  EXPECT_FALSE(c.p.state.balance.has_value());
}

TEST(ExplorationBalancing, R15_3_NotWithoutTheRule) {
  Position p(2);
  p.fill(Terrain::kPlains);
  p.capital(0, p.at("D3")).capital(1, p.at("G6"));
  const int inf = p.unit(0, U::kInfantry, p.at("E4"));
  p.face_down(p.at("D5"), Terrain::kWater).face_down(p.at("F5"), Terrain::kWater);
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, inf, p.at("E5")));
  EXPECT_FALSE(p.state.balance.has_value());
  EXPECT_EQ(p.apply_error(act::keep_water(0)), "no_balancing");
}

TEST(ExplorationBalancing, R15_3_BuildingExploresToo) {
  Coast c;
  // A Town on B4 reveals B5, B3, C4 and C5 (A3 and A4 are the perimeter).
  c.p.face_down(c.p.at("B5"), Terrain::kWater).face_down(c.p.at("C5"), Terrain::kWater);
  c.p.start_turn(0);
  c.p.apply_ok(act::build_town(0, c.p.at("B4")));
  ASSERT_TRUE(c.p.state.balance.has_value());
  EXPECT_EQ(c.p.state.balance->water, (std::vector<int>{c.p.at("B5"), c.p.at("C5")}));
  c.p.apply_ok(act::replace_water(0, c.p.at("C5")));
  EXPECT_TRUE(is_land(c.p.state.hexes[c.p.at("C5")].terrain));
  EXPECT_EQ(c.p.state.phase, Phase::kMovement);
  EXPECT_CONSISTENT(c.p);
}

TEST(ExplorationBalancing, R15_3_PlacingTheCapitalIsBuilding) {
  // Find a game whose first Capital choice turns up two or more water hexes.
  for (std::uint64_t seed = 1; seed < 400; ++seed) {
    GameState s = new_game(balancing(), seed);
    const int first = s.current;
    ApplyResult r = apply(s, act::place_capital(first, s.capital_choices.front()));
    ASSERT_TRUE(r.ok());
    if (!r.state.balance) continue;
    // The next player's setup waits for the choice [4.0 step 5].
    EXPECT_EQ(r.state.phase, Phase::kSetup);
    EXPECT_EQ(r.state.current, first);
    EXPECT_EQ(decider(r.state), first);
    const int hex = r.state.balance->water.front();
    const Terrain land = r.state.balance->land;
    ApplyResult after = apply(r.state, act::replace_water(first, hex));
    ASSERT_TRUE(after.ok());
    EXPECT_EQ(after.state.hexes[hex].terrain, land);
    EXPECT_EQ(after.state.current, (first + 1) % 2);  // seat order: the other player
    EXPECT_EQ(after.state.phase, Phase::kSetup);
    EXPECT_FALSE(check_invariants(after.state).has_value());
    // Same seed, same actions: the same land tile [determinism].
    ApplyResult again =
        apply(new_game(balancing(), seed), act::place_capital(first, s.capital_choices.front()));
    ASSERT_TRUE(again.state.balance.has_value());
    EXPECT_EQ(again.state.balance->land, land);
    return;
  }
  FAIL() << "no seed turned up two water hexes around the first Capital";
}

TEST(ExplorationBalancing, R15_3_NotWithIndependentExploration) {
  Options o = balancing();
  o.independent_exploration = true;
  EXPECT_THROW(new_game(o, 1), std::invalid_argument);
  EXPECT_TRUE(options_problem(o).has_value());
}

}  // namespace
}  // namespace viktory
