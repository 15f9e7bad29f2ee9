// game.reach [9.0]: a unit's whole reach this turn, walked over the engine's legal moves; it
// stops at moves that turn tiles over [9.2] and cannot depend on hidden tiles or the generator.
#include "reach.h"

#include <gtest/gtest.h>

#include <map>

#include "fixture.h"

namespace viktory::server {
namespace {

using nlohmann::json;
using testing::Position;
using U = UnitType;

std::map<std::string, std::pair<int, bool>> reach_of(Position& p, int seat, int unit) {
  const auto reply = reach_reply(p.state, seat, 3, {{"unit", unit}});
  EXPECT_TRUE(std::holds_alternative<json>(reply));
  std::map<std::string, std::pair<int, bool>> out;
  if (!std::holds_alternative<json>(reply)) return out;
  for (const json& h : std::get<json>(reply)["hexes"]) {
    out[p.label(h["hex"])] = {h["moves"].get<int>(), h["explores"].get<bool>()};
  }
  return out;
}

TEST(Reach, R9_11_AnInfantryReachesTwoStepsOnOpenPlains) {
  Position p(2);
  p.fill(Terrain::kPlains).capital(0, p.at("B3")).capital(1, p.at("H3"));
  const int inf = p.unit(0, U::kInfantry, p.at("E4"));
  p.start_turn(0, Phase::kMovement);
  const auto reach = reach_of(p, 0, inf);
  // Every hex at distance 1 or 2 (Infantry: 2 Movement Points [9.11]), none further.
  EXPECT_EQ(reach.at("E5"), std::make_pair(1, false));
  EXPECT_EQ(reach.at("E6"), std::make_pair(2, false));
  EXPECT_EQ(reach.at("E2"), std::make_pair(2, false));
  EXPECT_EQ(reach.count("E7"), 0u);
  EXPECT_EQ(reach.count("E4"), 0u);  // where it stands is not listed
  EXPECT_EQ(reach.size(), 18u);      // 6 + 12 hexes of the two rings
}

TEST(Reach, R9_2_AMoveThatTurnsTilesOverEndsTheWalk) {
  Position p(2);
  p.fill(Terrain::kPlains).capital(0, p.at("B3")).capital(1, p.at("H3"));
  p.face_down(p.at("E7"), Terrain::kForest);
  const int inf = p.unit(0, U::kInfantry, p.at("E4"));
  p.start_turn(0, Phase::kMovement);
  const auto reach = reach_of(p, 0, inf);
  // E6 is next to the face-down E7: entering it explores, and the walk goes no further.
  EXPECT_EQ(reach.at("E5"), std::make_pair(1, false));
  EXPECT_EQ(reach.at("E6"), std::make_pair(2, true));
  EXPECT_EQ(reach.count("E7"), 0u);
}

TEST(Reach, NeverDependsOnHiddenTilesOrTheGenerator) {
  const auto build = [](std::uint64_t seed, Terrain hidden) {
    Position p(2, 0, {}, seed);
    p.fill(Terrain::kPlains).capital(0, p.at("B3")).capital(1, p.at("H3"));
    p.terrain(p.at("B5"), Terrain::kGrassland).city(0, p.at("B5"));  // supports a Cavalry
    p.face_down(p.at("E6"), hidden).face_down(p.at("F6"), hidden);
    return p;
  };
  Position a = build(1, Terrain::kForest);
  Position b = build(424242, Terrain::kWater);
  const int ia = a.unit(0, U::kCavalry, a.at("D4"));
  const int ib = b.unit(0, U::kCavalry, b.at("D4"));
  a.start_turn(0, Phase::kMovement);
  b.start_turn(0, Phase::kMovement);
  const auto ra = reach_reply(a.state, 0, 3, {{"unit", ia}});
  const auto rb = reach_reply(b.state, 0, 3, {{"unit", ib}});
  ASSERT_TRUE(std::holds_alternative<json>(ra));
  ASSERT_TRUE(std::holds_alternative<json>(rb));
  EXPECT_EQ(std::get<json>(ra).dump(), std::get<json>(rb).dump());
  EXPECT_GT(std::get<json>(ra)["hexes"].size(), 6u);
}

TEST(Reach, OnlyTheDecidersOwnUnitsAndWellFormedRequests) {
  Position p(2);
  p.fill(Terrain::kPlains).capital(0, p.at("B3")).capital(1, p.at("H3"));
  const int mine = p.unit(0, U::kInfantry, p.at("E4"));
  const int theirs = p.unit(1, U::kInfantry, p.at("G4"));
  p.start_turn(0, Phase::kMovement);
  EXPECT_TRUE(reach_of(p, 0, theirs).empty());  // another player's unit
  EXPECT_TRUE(reach_of(p, 1, theirs).empty());  // not his decision now
  EXPECT_FALSE(reach_of(p, 0, mine).empty());
  const auto code = [&](const json& request) {
    const auto reply = reach_reply(p.state, 0, 3, request);
    return std::holds_alternative<Failure>(reply) ? std::get<Failure>(reply).code : "ok";
  };
  EXPECT_EQ(code(json::object()), "bad_message");
  EXPECT_EQ(code({{"unit", "E4"}}), "bad_message");
  EXPECT_EQ(code({{"unit", -1}}), "bad_message");
  EXPECT_EQ(code({{"unit", 100000}}), "bad_message");
}

}  // namespace
}  // namespace viktory::server
