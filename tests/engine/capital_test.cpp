// Losing and retaking the Capital [14.0, 7.1].
#include <gtest/gtest.h>

#include "fixture.h"

namespace viktory {
namespace {

using testing::count_of;
using testing::events_of;
using testing::Position;
using testing::rolls;

using U = UnitType;

// Plains. Player 0's Capital marker lies on D3, but player 1 holds that Town. Player 0 still
// has a Plains City E5 (2 Infantry), a Grassland City B5 (Infantry, Cavalry) and a Forest City
// G3 next to the water G2 (Infantry, Frigate). Player 1: Capital G6; his two Infantry stand on
// it. With `held`, player 0 holds his own Capital instead (and player 1 has no Town there).
struct Exile {
  Position p{2};
  explicit Exile(bool held = false, Terrain city_terrain = Terrain::kPlains) {
    p.fill(Terrain::kPlains);
    p.terrain(p.at("G2"), Terrain::kWater);
    if (held) {
      p.capital(0, p.at("D3"));
    } else {
      p.town(1, p.at("D3")).capital_marker(0, p.at("D3"));
    }
    p.capital(1, p.at("G6"));
    p.terrain(p.at("E5"), city_terrain).city(0, p.at("E5"));
    p.terrain(p.at("B5"), Terrain::kGrassland).city(0, p.at("B5"));
    p.terrain(p.at("G3"), Terrain::kForest).city(0, p.at("G3"));
    p.unit(1, U::kInfantry, p.at("G6"));
    if (!held) p.unit(1, U::kInfantry, p.at("G6"));
  }
  void reserve_phase() {
    p.start_turn(0, Phase::kMovement);
    p.apply_ok(act::end_phase(0));
    ASSERT_EQ(p.state.phase, Phase::kReserve);
  }
  std::string refuse(U t, const char* hex) {
    return p.apply_error(act::place_reserve(0, t, p.at(hex)));
  }
};

TEST(Capital, R14_0_NoBuildingWithoutTheCapital) {
  Exile e;
  e.p.start_turn(0);
  EXPECT_EQ(e.p.state.phase, Phase::kMovement);  // the Building Phase is skipped [7.1]
  EXPECT_EQ(e.p.apply_error(act::upgrade_city(0, e.p.at("E5"))), "wrong_phase");
  Exile held(/*held=*/true);
  held.p.start_turn(0);
  EXPECT_EQ(held.p.state.phase, Phase::kBuild);
}

// Player 1 attacks player 0's City E5, held by one Infantry, from F5.
std::vector<Event> attack_city(Exile& e, int dice) {
  e.p.unit(0, U::kInfantry, e.p.at("E5"));
  const int attacker = e.p.units_on(e.p.at("G6"), 1).front();
  e.p.state.units[attacker].hex = e.p.at("F5");
  e.p.start_turn(1, Phase::kMovement);
  e.p.apply_ok(act::move(1, attacker, e.p.at("E5")));
  e.p.dice(std::vector<int>(1 + dice, 6));
  return e.p.apply_ok(act::start_battle(1, e.p.at("E5")));
}

TEST(Capital, R14_0_CitiesDefendLikeTownsWithoutTheCapital) {
  Exile held(/*held=*/true);
  auto ev = attack_city(held, 3);
  EXPECT_EQ(rolls(ev, RollPurpose::kDefenderFire).at(0).size(), 3u);  // Infantry + City (2)

  Exile lost;
  ev = attack_city(lost, 2);
  EXPECT_EQ(rolls(ev, RollPurpose::kDefenderFire).at(0).size(), 2u);  // Infantry + "Town" (1)
}

TEST(Capital, R14_0_MountainStillCountsWithoutTheCapital) {
  Exile lost(/*held=*/false, Terrain::kMountain);
  const auto ev = attack_city(lost, 3);
  EXPECT_EQ(rolls(ev, RollPurpose::kDefenderFire).at(0).size(), 3u);  // Infantry + Mountain (2)
}

TEST(Capital, R14_0_OnlyInfantryOnePerTownOrCity) {
  Exile e;
  e.reserve_phase();
  e.p.apply_ok(act::place_reserve(0, U::kInfantry, e.p.at("E5")));
  EXPECT_EQ(e.refuse(U::kInfantry, "E5"), "capital_lost");  // a Plains City acts as a Town
  EXPECT_EQ(e.refuse(U::kCavalry, "B5"), "capital_lost");
  EXPECT_EQ(e.refuse(U::kFrigate, "G2"), "bad_frigate_spot");
  EXPECT_EQ(e.refuse(U::kInfantry, "D3"), "not_your_town");  // his Capital, held by the enemy
  e.p.apply_ok(act::place_reserve(0, U::kInfantry, e.p.at("B5")));
  e.p.apply_ok(act::end_phase(0));
  EXPECT_EQ(e.p.reserve_count(0, U::kCavalry), 1);
  EXPECT_EQ(e.p.reserve_count(0, U::kFrigate), 1);
}

TEST(Capital, R14_0_RetakingTheCapitalRestoresEverything) {
  Exile e;
  const int inf = e.p.unit(0, U::kInfantry, e.p.at("D4"));
  e.p.start_turn(0);
  ASSERT_EQ(e.p.state.phase, Phase::kMovement);
  e.p.apply_ok(act::move(0, inf, e.p.at("D3")));
  e.p.dice({6});  // the empty Town's one die misses
  const auto ev = e.p.apply_ok(act::start_battle(0, e.p.at("D3")));
  EXPECT_EQ(count_of(ev, EventKind::kCapitalRetaken), 1);
  EXPECT_EQ(e.p.state.hexes[e.p.at("D3")].town_owner, 0);
  EXPECT_EQ(e.p.state.hexes[e.p.at("D3")].capital_of, 0);
  // This very Reserve Placement Phase already has the full rules again.
  e.p.apply_ok(act::end_phase(0));
  e.p.apply_ok(act::place_reserve(0, U::kInfantry, e.p.at("E5")));
  e.p.apply_ok(act::place_reserve(0, U::kInfantry, e.p.at("E5")));
  e.p.apply_ok(act::place_reserve(0, U::kCavalry, e.p.at("B5")));
  e.p.apply_ok(act::place_reserve(0, U::kFrigate, e.p.at("G2")));
  e.p.apply_ok(act::place_reserve(0, U::kInfantry, e.p.at("D3")));
  EXPECT_CONSISTENT(e.p);
  // And his next turn starts with a Building Phase.
  e.p.start_turn(0);
  EXPECT_TRUE(e.p.state.players[0].held_capital_at_turn_start);
  EXPECT_EQ(e.p.state.phase, Phase::kBuild);
}

TEST(Capital, R14_0_ACapturedCapitalIsAPlainTownForTheCaptor) {
  Exile e;
  for (int id : e.p.units_on(e.p.at("G6"), 1)) {  // both his Infantry wait in the Reserve
    e.p.state.units[id].place = UnitPlace::kReserve;
    e.p.state.units[id].hex = -1;
  }
  e.p.start_turn(1, Phase::kMovement);
  e.p.apply_ok(act::end_phase(1));
  ASSERT_EQ(e.p.state.phase, Phase::kReserve);
  // D3 takes one Infantry like any Town; only his own Capital G6 takes any number [13.4].
  e.p.apply_ok(act::place_reserve(1, U::kInfantry, e.p.at("D3")));
  EXPECT_EQ(e.p.apply_error(act::place_reserve(1, U::kInfantry, e.p.at("D3"))), "full");
  e.p.apply_ok(act::place_reserve(1, U::kInfantry, e.p.at("G6")));
  EXPECT_EQ(e.p.state.hexes[e.p.at("D3")].capital_of, 0);  // the marker stays
}

TEST(Capital, R14_0_LosingTheCapitalIsAnnounced) {
  Exile e(/*held=*/true);
  const int attacker = e.p.units_on(e.p.at("G6"), 1).front();
  e.p.state.units[attacker].hex = e.p.at("D4");
  e.p.start_turn(1, Phase::kMovement);
  e.p.apply_ok(act::move(1, attacker, e.p.at("D3")));
  e.p.dice({6});
  const auto ev = e.p.apply_ok(act::start_battle(1, e.p.at("D3")));
  const auto lost = events_of(ev, EventKind::kCapitalLost);
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].player, 0);
  EXPECT_EQ(lost[0].other_player, 1);
  EXPECT_EQ(e.p.state.hexes[e.p.at("D3")].town_owner, 1);
  EXPECT_EQ(e.p.state.hexes[e.p.at("D3")].capital_of, 0);
  EXPECT_EQ(e.p.state.capital_loser, 0);
  EXPECT_FALSE(e.p.state.players[0].eliminated);  // he still has Cities
  EXPECT_EQ(e.p.state.phase, Phase::kMovement);   // a standard game goes on
  EXPECT_CONSISTENT(e.p);
}

}  // namespace
}  // namespace viktory
