// game.preview_battle [12.3]: the server's answer comes from the asking seat's view only. It
// refuses hexes he does not know and cannot depend on hidden tiles or the game's generator.
#include "battle_preview_request.h"

#include <gtest/gtest.h>

#include "fixture.h"

namespace viktory::server {
namespace {

using nlohmann::json;
using testing::Position;
using U = UnitType;

// Player 0 (Capital B5) with an Infantry at E4 next to player 1's Infantry on E5 (Capital H2).
struct Front {
  Position p;
  int attacker = -1;
  int defender = -1;
  explicit Front(std::uint64_t seed = 1, Options options = {}) : p(2, 0, options, seed) {
    p.fill(Terrain::kPlains);
    p.terrain(p.at("E5"), Terrain::kMountain);
    p.capital(0, p.at("B5")).capital(1, p.at("H2"));
    defender = p.unit(1, U::kInfantry, p.at("E5"));
    attacker = p.unit(0, U::kInfantry, p.at("E4"));
  }
  std::variant<json, Failure> ask(int seat, const json& request) {
    return battle_preview_reply(p.state, seat, 7, request);
  }
};

std::string code_of(const std::variant<json, Failure>& reply) {
  if (const auto* f = std::get_if<Failure>(&reply)) return f->code;
  return "ok";
}

TEST(BattlePreviewRequest, R12_3_AnswersWithTheDiceOfBothSidesAndTheOdds) {
  Front f;
  f.p.start_turn(0, Phase::kMovement);
  const auto reply = f.ask(0, {{"hex", f.p.at("E5")}, {"units", {f.attacker}}});
  ASSERT_EQ(code_of(reply), "ok");
  const json& r = std::get<json>(reply);
  EXPECT_EQ(r["type"], "battle.preview");
  EXPECT_EQ(r["game_id"], 7);
  const json& preview = r["preview"];
  EXPECT_EQ(preview["attacker"], 0);
  EXPECT_EQ(preview["defender"], 1);
  EXPECT_TRUE(preview["terrain_known"].get<bool>());
  EXPECT_EQ(preview["attacker_fire"]["entitled"], 1);
  // The defender's Infantry die and the Mountain's two [12.3].
  EXPECT_EQ(preview["defender_fire"]["entitled"], 3);
  const double wins = preview["odds"]["attacker_wins"];
  const double holds = preview["odds"]["defender_holds"];
  EXPECT_GT(holds, wins);  // one Infantry against an Infantry on a Mountain
  EXPECT_NEAR(wins + holds + preview["odds"]["undecided"].get<double>(), 1.0, 1e-9);
}

TEST(BattlePreviewRequest, R12_3_HisUnitsAlreadyOnTheHexJoinThePreview) {
  Front f;
  f.p.terrain(f.p.at("B3"), Terrain::kGrassland).city(0, f.p.at("B3"));  // supports a Cavalry
  const int second = f.p.unit(0, U::kCavalry, f.p.at("D4"));
  f.p.start_turn(0, Phase::kMovement);
  f.p.apply_ok(act::move(0, f.attacker, f.p.at("E5")));
  const auto reply = f.ask(0, {{"hex", f.p.at("E5")}});  // a pending Battle: no units named
  ASSERT_EQ(code_of(reply), "ok");
  EXPECT_EQ(std::get<json>(reply)["units"], json::array({f.attacker}));
  const auto both = f.ask(0, {{"hex", f.p.at("E5")}, {"units", {second}}});
  ASSERT_EQ(code_of(both), "ok");
  EXPECT_EQ(std::get<json>(both)["preview"]["attacker_fire"]["entitled"], 3);  // 1 + Cavalry 2
}

TEST(BattlePreviewRequest, RefusesHexesTheSeatDoesNotKnow) {
  Options options;
  options.independent_exploration = true;
  Front f(1, options);
  // Only player 1 knows E5; its pieces are public, its terrain is not.
  f.p.state.hexes[f.p.at("E5")].known_by = 1u << 1;
  f.p.start_turn(0, Phase::kMovement);
  EXPECT_EQ(code_of(f.ask(0, {{"hex", f.p.at("E5")}, {"units", {f.attacker}}})), "unknown_hex");
  // Player 1 knows it (he has nothing to attack there: his own units).
  EXPECT_EQ(code_of(f.ask(1, {{"hex", f.p.at("E5")}, {"units", {f.defender}}})), "no_battle");
}

TEST(BattlePreviewRequest, NeverReadsHiddenTilesOrTheGenerator) {
  // The same public position twice, with another seed (generator) and other face-down tiles.
  Front a(1);
  Front b(987654321);
  a.p.face_down(a.p.at("F5"), Terrain::kForest).face_down(a.p.at("D6"), Terrain::kWater);
  b.p.face_down(b.p.at("F5"), Terrain::kMountain).face_down(b.p.at("D6"), Terrain::kGrassland);
  a.p.start_turn(0, Phase::kMovement);
  b.p.start_turn(0, Phase::kMovement);
  const json request = {{"hex", a.p.at("E5")}, {"units", {a.attacker}}};
  const auto ra = a.ask(0, request);
  const auto rb = b.ask(0, request);
  ASSERT_EQ(code_of(ra), "ok");
  ASSERT_EQ(code_of(rb), "ok");
  EXPECT_EQ(std::get<json>(ra).dump(), std::get<json>(rb).dump());
}

TEST(BattlePreviewRequest, BadRequestsGetAClearErrorAndNoPreview) {
  Front f;
  f.p.start_turn(0, Phase::kMovement);
  EXPECT_EQ(code_of(f.ask(0, json::object())), "bad_message");
  EXPECT_EQ(code_of(f.ask(0, {{"hex", "E5"}})), "bad_message");
  EXPECT_EQ(code_of(f.ask(0, {{"hex", 100000}})), "bad_message");
  EXPECT_EQ(code_of(f.ask(0, {{"hex", f.p.at("E5")}, {"units", "all"}})), "bad_message");
  EXPECT_EQ(code_of(f.ask(0, {{"hex", f.p.at("E5")}, {"units", {-1}}})), "bad_message");
  // Another player's units, or no units at all, attack nothing.
  EXPECT_EQ(code_of(f.ask(0, {{"hex", f.p.at("E5")}, {"units", {f.defender}}})), "no_battle");
  EXPECT_EQ(code_of(f.ask(0, {{"hex", f.p.at("E5")}})), "no_battle");
  // Nothing of another player on an empty hex.
  EXPECT_EQ(code_of(f.ask(0, {{"hex", f.p.at("E3")}, {"units", {f.attacker}}})), "no_battle");
}

}  // namespace
}  // namespace viktory::server
