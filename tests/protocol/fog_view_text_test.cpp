// Fog of war in the view's text (protocol/view_text.cpp, docs/protocol.md): the options carry
// "fog_of_war" and "fog_city_sight", hexes outside the viewer's sight "unseen": true, and the
// view a "last_seen" list; games without fog have none of these keys.
#include <gtest/gtest.h>

#include "../engine/random_play.h"
#include "game.h"
#include "json.h"
#include "view.h"
#include "view_text.h"

namespace viktory {
namespace {

using nlohmann::json;

struct Seen {
  int unseen_hexes = 0;
  int last_seen_entries = 0;
  bool fog_keys = false;
};

Seen play_and_look(const Options& o, std::uint64_t seed) {
  GameState s = new_game(o, seed);
  testing::Chooser chooser(seed);
  Seen seen;
  testing::play_random_game(
      s, chooser, 500, [&](const GameState& after, const Action&, const std::vector<Event>&) {
        if (after.phase == Phase::kGameOver) return;
        for (int viewer = 0; viewer < o.players; ++viewer) {
          const json v = json::parse(protocol::view_json_text(view_for(after, viewer)));
          seen.fog_keys = seen.fog_keys || v["options"].contains("fog_of_war") ||
                          v["options"].contains("fog_city_sight") || v.contains("last_seen");
          for (const json& h : v["hexes"]) {
            if (h.contains("unseen")) {
              EXPECT_EQ(h["unseen"], true);
              ++seen.unseen_hexes;
              // No other player's unit stands on an unseen hex in his view.
              for (const json& u : v["units"]) {
                if (u["place"] == "map" && u["owner"] != viewer) {
                  EXPECT_NE(u["hex"], h["hex"]);
                }
              }
            }
          }
          if (!v.contains("last_seen")) continue;
          for (const json& e : v["last_seen"]) {
            ++seen.last_seen_entries;
            EXPECT_EQ(v["hexes"][e["hex"].get<std::size_t>()].value("unseen", false), true) << e;
            EXPECT_NE(e["owner"], viewer);
            EXPECT_LE(e["turn"].get<int>(), v["turn"].get<int>());
            EXPECT_FALSE(e["units"].empty());
            for (const auto& [type, count] : e["units"].items()) {
              EXPECT_TRUE(unit_type_from_string(type).has_value()) << type;
              EXPECT_GT(count.get<int>(), 0);
            }
          }
        }
      });
  return seen;
}

TEST(FogViewText, FogGamesMarkUnseenHexesAndListUnitsLastSeen) {
  Options o;
  o.players = 3;
  o.fog_of_war = true;
  o.fog_city_sight = 3;
  const Seen seen = play_and_look(o, 77);
  EXPECT_TRUE(seen.fog_keys);
  EXPECT_GT(seen.unseen_hexes, 0);
  EXPECT_GT(seen.last_seen_entries, 0);
  const json options = protocol::options_to_json(o);
  EXPECT_EQ(options["fog_of_war"], true);
  EXPECT_EQ(options["fog_city_sight"], 3);
  EXPECT_EQ(protocol::options_from_json(options), o);
}

TEST(FogViewText, GamesWithoutFogHaveNoneOfTheKeys) {
  Options o;
  o.players = 3;
  const Seen seen = play_and_look(o, 77);
  EXPECT_FALSE(seen.fog_keys);
  EXPECT_EQ(seen.unseen_hexes, 0);
  EXPECT_FALSE(protocol::options_to_json(o).contains("fog_of_war"));
}

TEST(FogViewText, TheCitySightIsOneToThree) {
  json j = {{"fog_of_war", true}, {"fog_city_sight", 4}};
  EXPECT_THROW(protocol::options_from_json(j), protocol::JsonError);
  j["fog_city_sight"] = 0;
  EXPECT_THROW(protocol::options_from_json(j), protocol::JsonError);
  j["fog_city_sight"] = 1;
  EXPECT_EQ(protocol::options_from_json(j).fog_city_sight, 1);
  EXPECT_EQ(protocol::options_from_json(json{{"fog_of_war", true}}).fog_city_sight, 2);
}

}  // namespace
}  // namespace viktory
