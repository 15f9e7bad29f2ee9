// Fog of war (docs/rules-notes.md, "Fog of war"; not the rulebook's, GamesByEmail's "dark"
// game): sight, the view's unseen hexes and hidden units, and the memory of units last seen.
#include <gtest/gtest.h>

#include <algorithm>

#include "fixture.h"
#include "sight.h"
#include "view.h"

namespace viktory {
namespace {

using testing::Position;

Options fog(int city_sight = 2) {
  Options o;
  o.fog_of_war = true;
  o.fog_city_sight = city_sight;
  return o;
}

bool shows_unit(const GameView& v, int id) {
  return std::any_of(v.units.begin(), v.units.end(), [&](const UnitView& u) { return u.id == id; });
}

const HexView& hex_of(const GameView& v, int hex) { return v.hexes[static_cast<std::size_t>(hex)]; }

// Player 0's Capital on C3, player 1's on G5: Cities on Grassland, each supporting an
// Infantry and a Cavalry [8.2], seeing one hex far (the option's least); plains elsewhere.
Position two_capitals(Options o) {
  o.fog_city_sight = 1;
  Position p(2, 0, normalized(o));
  p.fill(Terrain::kPlains).terrain({p.at("C3"), p.at("G5")}, Terrain::kGrassland);
  p.capital(0, p.at("C3"), true).capital(1, p.at("G5"), true);
  return p;
}

TEST(FogSight, UnitsAndTownsSeeOneHexCitiesFartherByTheOption) {
  for (int reach = 1; reach <= 3; ++reach) {
    Position p(2, 0, fog(reach));
    p.fill(Terrain::kPlains).capital(0, p.at("E2"), true).capital(1, p.at("E8"));
    p.unit(0, UnitType::kInfantry, p.at("B3"));
    p.start_turn(0, Phase::kMovement);
    const auto seen = sight_of(p.state, 0);
    const Board& b = p.board();
    for (int h = 0; h < b.size(); ++h) {
      const bool expected = b.distance(h, p.at("E2")) <= reach || b.distance(h, p.at("B3")) <= 1;
      EXPECT_EQ(seen[static_cast<std::size_t>(h)], expected)
          << "reach " << reach << " " << p.label(h);
    }
  }
}

TEST(FogSight, NoFogSeesEverything) {
  Position p = two_capitals(Options{});
  p.start_turn(0, Phase::kMovement);
  const auto seen = sight_of(p.state, 0);
  EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](bool b) { return b; }));
  const GameView v = view_for(p.state, 0);
  EXPECT_TRUE(
      std::none_of(v.hexes.begin(), v.hexes.end(), [](const HexView& h) { return h.unseen; }));
}

TEST(FogView, EnemyUnitsOutsideSightAreAbsentBuildingsStay) {
  Position p = two_capitals(fog());
  const int mine = p.unit(0, UnitType::kInfantry, p.at("B3"));  // two hexes from D4
  const int near = p.unit(1, UnitType::kInfantry, p.at("D4"));  // next to the Capital C3
  const int garrison = p.unit(1, UnitType::kCavalry, p.at("G5"));
  p.start_turn(0, Phase::kMovement);
  const GameView v = view_for(p.state, 0);
  EXPECT_TRUE(shows_unit(v, mine));
  EXPECT_TRUE(shows_unit(v, near));
  EXPECT_FALSE(shows_unit(v, garrison));
  EXPECT_TRUE(hex_of(v, p.at("G5")).unseen);
  EXPECT_EQ(hex_of(v, p.at("G5")).town_owner, 1);  // the Town stays visible
  EXPECT_FALSE(hex_of(v, p.at("D4")).unseen);
  // Reserves stay public.
  EXPECT_EQ(v.players[1].reserve, view_for(p.state, 1).players[1].reserve);
  // Player 1 sees his own garrison, not player 0's unit two hexes from his.
  const GameView w = view_for(p.state, 1);
  EXPECT_TRUE(shows_unit(w, garrison));
  EXPECT_FALSE(shows_unit(w, mine));
}

TEST(FogView, CargoAboardAHiddenFrigateIsHiddenToo) {
  Position p(2, 0, fog(1));
  p.fill(Terrain::kPlains).terrain(p.at("B4"), Terrain::kForest);
  p.capital(0, p.at("E2")).capital(1, p.at("B4"), true);  // a Forest City: a Frigate [8.2]
  const int frigate = p.unit(1, UnitType::kFrigate, p.at("A2"));
  const int cargo = p.cargo(1, UnitType::kInfantry, frigate);
  p.start_turn(1, Phase::kMovement);
  GameView v = view_for(p.state, 0);
  EXPECT_FALSE(shows_unit(v, frigate));
  EXPECT_FALSE(shows_unit(v, cargo));
  p.unit(0, UnitType::kInfantry, p.at("B2"));  // now next to A2
  v = view_for(p.state, 0);
  EXPECT_TRUE(shows_unit(v, frigate));
  EXPECT_TRUE(shows_unit(v, cargo));
}

TEST(FogView, SpectatorsSeeWhatEveryPlayerSeesAndAllAfterTheEnd) {
  Position p = two_capitals(fog());
  const int a = p.unit(0, UnitType::kInfantry, p.at("E4"));
  const int b = p.unit(1, UnitType::kInfantry, p.at("E5"));  // next to a: both see both
  const int far = p.unit(1, UnitType::kCavalry, p.at("G5"));
  p.start_turn(0, Phase::kMovement);
  const GameView v = view_for(p.state, kSpectator);
  EXPECT_TRUE(shows_unit(v, a));
  EXPECT_TRUE(shows_unit(v, b));
  EXPECT_FALSE(shows_unit(v, far));  // player 0 does not see it
  EXPECT_TRUE(v.last_seen.empty());
  p.state.phase = Phase::kGameOver;
  EXPECT_TRUE(shows_unit(view_for(p.state, kSpectator), far));
  EXPECT_TRUE(shows_unit(view_for(p.state, 0), far));
}

TEST(FogView, NoSightFromAnAlly) {  // [15.6]: no sight shared within an Alliance
  Options o = fog();
  o.players = 3;
  o.subjugation = true;
  Position p(3, 0, o);
  p.fill(Terrain::kPlains).capital(0, p.at("C3")).capital(1, p.at("G3")).capital(2, p.at("G6"));
  p.state.players[1].ruler = 0;  // player 1 is player 0's Vassal
  const int vassal_unit = p.unit(1, UnitType::kInfantry, p.at("G3"));
  const int enemy = p.unit(2, UnitType::kInfantry, p.at("G4"));  // next to the Vassal's Capital
  ASSERT_GT(p.board().distance(p.at("G4"), p.at("C3")), 1);
  p.start_turn(0, Phase::kMovement);
  const GameView v = view_for(p.state, 0);
  EXPECT_FALSE(shows_unit(v, vassal_unit));
  EXPECT_FALSE(shows_unit(v, enemy));
  EXPECT_TRUE(shows_unit(view_for(p.state, 1), enemy));
}

TEST(FogView, PerTurnFactsOfUnseenHexesAreZeroedOwnBitsKept) {
  Position p = two_capitals(fog());
  p.unit(1, UnitType::kInfantry, p.at("G4"));
  p.start_turn(1, Phase::kMovement);
  HexCell& c = p.state.hexes[static_cast<std::size_t>(p.at("G4"))];
  c.began_turn_with_land_unit = 0b11;
  c.battle_this_turn = true;
  c.placed_infantry = 1;
  const HexView& h = hex_of(view_for(p.state, 0), p.at("G4"));
  EXPECT_TRUE(h.unseen);
  EXPECT_EQ(h.began_turn_with_land_unit, 0b01);
  EXPECT_FALSE(h.battle_this_turn);
  EXPECT_EQ(h.placed_infantry, 0);
  EXPECT_EQ(hex_of(view_for(p.state, 1), p.at("G4")).began_turn_with_land_unit, 0b11);
}

// The memory: a hex leaving his sight keeps what he saw there, with the turn; coming back
// into sight drops it; an enemy seen leaving leaves no entry.
TEST(FogLastSeen, RemembersUnitsSeenUntilTheHexIsSeenAgain) {
  Position p = two_capitals(fog());
  const int cav = p.unit(0, UnitType::kCavalry, p.at("C3"));
  p.unit(1, UnitType::kInfantry, p.at("E4"));
  p.unit(1, UnitType::kCavalry, p.at("E4"));
  p.start_turn(0, Phase::kMovement);
  ASSERT_TRUE(view_for(p.state, 0).hexes[static_cast<std::size_t>(p.at("E4"))].unseen);
  EXPECT_TRUE(view_for(p.state, 0).last_seen.empty());
  p.apply_ok(act::move(0, cav, p.at("D3")));            // D3 is next to E4: he sees them
  EXPECT_TRUE(view_for(p.state, 0).last_seen.empty());  // in sight: the truth, no mark
  p.apply_ok(act::move(0, cav, p.at("C2")));            // away again: E4 leaves his sight
  const GameView v = view_for(p.state, 0);
  ASSERT_EQ(v.last_seen.size(), 1u);
  EXPECT_EQ(v.last_seen[0].hex, p.at("E4"));
  EXPECT_EQ(v.last_seen[0].owner, 1);
  EXPECT_EQ(v.last_seen[0].turn, p.state.turn);
  EXPECT_EQ(v.last_seen[0].units, (std::array<int, kUnitTypes>{1, 1, 0, 0}));
  EXPECT_TRUE(hex_of(v, p.at("E4")).unseen);
  // The other player has no memory of player 0's units (he never saw them).
  EXPECT_TRUE(view_for(p.state, 1).last_seen.empty());
}

TEST(FogLastSeen, AnEnemySeenLeavingLeavesNoEntry) {
  Position p = two_capitals(fog());
  p.unit(0, UnitType::kInfantry, p.at("D4"));
  const int scout = p.unit(1, UnitType::kCavalry, p.at("E5"));  // next to D4
  p.start_turn(1, Phase::kMovement);
  p.apply_ok(act::move(1, scout, p.at("F5")));  // out of player 0's sight; E5 stays in it
  EXPECT_TRUE(view_for(p.state, 0).last_seen.empty());
}

TEST(FogLastSeen, NoMemoryWithoutFog) {
  Position p = two_capitals(Options{});
  const int cav = p.unit(0, UnitType::kCavalry, p.at("C3"));
  p.unit(1, UnitType::kInfantry, p.at("E4"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, cav, p.at("D3")));
  EXPECT_TRUE(p.state.last_seen.empty());
}

}  // namespace
}  // namespace viktory
