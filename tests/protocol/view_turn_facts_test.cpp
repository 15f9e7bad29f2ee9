// The public per-turn facts a view carries (so that a program can play on from it): unit flags,
// Frigate cargo counts and landing hex [9.41, 9.46], placement counts [13.11], where units
// began the turn [9.12], battle entries [12.3] and placement battles [13.5]: written for every
// viewer exactly as the state has them.
#include <gtest/gtest.h>

#include "game.h"
#include "json.h"
#include "random_play.h"
#include "view.h"

namespace viktory {
namespace {

using nlohmann::json;

TEST(ViewTurnFacts, WrittenAsTheStateHasThem) {
  int entries_seen = 0, placed_seen = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    GameState s = new_game(Options{}, seed);
    protocol_testing::Picker picker(seed);
    protocol_testing::play_random(
        s, picker, 400, [&](const GameState& st, const Action&, const std::vector<Event>&) {
          for (int viewer : {kSpectator, 0, 1}) {
            const json v = protocol::view_to_json(view_for(st, viewer));
            ASSERT_EQ(v["ending_turn"], st.ending_turn);
            ASSERT_EQ(v["placement_battles"].get<std::vector<int>>(), st.placement_battles);
            ASSERT_EQ(v["battle_entries"].size(), st.entries.size());
            for (std::size_t i = 0; i < st.entries.size(); ++i) {
              ASSERT_EQ(v["battle_entries"][i]["battle_hex"], st.entries[i].battle_hex);
              ASSERT_EQ(v["battle_entries"][i]["from_hex"], st.entries[i].from_hex);
            }
            for (const json& h : v["hexes"]) {
              const HexCell& c = st.hexes[h["hex"].get<std::size_t>()];
              ASSERT_EQ(h["placed_infantry"], c.placed_infantry);
              ASSERT_EQ(h["placed_other"], c.placed_other);
              ASSERT_EQ(h["began_turn_with_land_unit"], c.began_turn_with_land_unit);
              placed_seen += c.placed_infantry + c.placed_other;
            }
            for (const json& u : v["units"]) {
              const Unit& unit = st.units[u["id"].get<std::size_t>()];
              ASSERT_EQ(u["has_moved"], unit.has_moved);
              ASSERT_EQ(u["carried_this_turn"], unit.carried_this_turn);
              ASSERT_EQ(u["disembark_hex"], unit.disembark_hex);
            }
          }
          entries_seen += static_cast<int>(st.entries.size());
        });
  }
  EXPECT_GT(entries_seen, 0);
  EXPECT_GT(placed_seen, 0);
}

}  // namespace
}  // namespace viktory
