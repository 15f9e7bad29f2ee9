// Views: what a client receives. Terrain only where the viewer knows it (no key at all
// otherwise), and never the generator, the tile bank or the scripted dice.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "game.h"
#include "json.h"
#include "random_play.h"
#include "scenario.h"
#include "view.h"

namespace viktory {
namespace {

using nlohmann::json;
using protocol::view_to_json;

std::vector<int> viewers_of(const GameState& s) {
  std::vector<int> out = {kSpectator};
  for (int p = 0; p < s.options.players; ++p) out.push_back(p);
  return out;
}

// Every way a generator word could be written.
std::vector<std::string> generator_spellings(const GameState& s) {
  std::vector<std::string> out;
  for (std::uint64_t word : s.rng.words()) {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(word));
    out.push_back(hex);
    out.push_back(std::to_string(word));
    out.push_back(std::to_string(static_cast<double>(word)));
  }
  return out;
}

void expect_terrain_only_where_known(const GameState& s, int viewer, const json& view) {
  ASSERT_EQ(view["hexes"].size(), s.hexes.size());
  for (const json& h : view["hexes"]) {
    const int hex = h["hex"].get<int>();
    const bool knows = viewer_knows(s, viewer, hex);
    EXPECT_EQ(h["known"], knows) << "hex " << hex;
    EXPECT_EQ(h.contains("terrain"), knows) << "viewer " << viewer << " hex " << h.dump();
  }
}

void expect_no_secrets(const GameState& s, const json& view) {
  const std::string text = view.dump();
  for (const char* key :
       {"\"rng\"", "\"tile_bank\"", "\"scripted_dice\"", "\"known_by\"", "\"seed\""}) {
    EXPECT_EQ(text.find(key), std::string::npos) << key << " in a view";
  }
  for (const std::string& spelling : generator_spellings(s)) {
    EXPECT_EQ(text.find(spelling), std::string::npos) << "a generator word in a view";
  }
}

TEST(ViewJson, NewGameShowsOnlyRevealedTerrain) {
  const GameState s = new_game(Options{}, 4);
  for (int viewer : viewers_of(s)) {
    const json view = view_to_json(view_for(s, viewer));
    expect_terrain_only_where_known(s, viewer, view);
    expect_no_secrets(s, view);
    int unknown = 0;
    for (const json& h : view["hexes"]) {
      if (s.board().is_perimeter(h["hex"].get<int>())) {
        EXPECT_EQ(h["terrain"], "water") << h.dump();  // [3.2]
      }
      if (!h.contains("terrain")) ++unknown;
    }
    EXPECT_GT(unknown, 0) << "a new game has face-down hexes";
  }
}

TEST(ViewJson, IndependentExplorationHidesOthersDiscoveriesThroughAGame) {
  Options options{3, VictoryCondition::kStandard, TileMix::kStandard, true};
  GameState s = new_game(options, 12);
  protocol_testing::Picker picker(12);
  int checked = 0;
  int hidden_somewhere = 0;
  protocol_testing::play_random(
      s, picker, 250, [&](const GameState& after, const Action&, const std::vector<Event>&) {
        if (after.action_count % 10 != 0) return;
        for (int viewer : viewers_of(after)) {
          const json view = view_to_json(view_for(after, viewer));
          expect_terrain_only_where_known(after, viewer, view);
          expect_no_secrets(after, view);
          ++checked;
        }
        // Some hex is face up for one player but unknown to another.
        for (int h = 0; h < static_cast<int>(after.hexes.size()); ++h) {
          if (viewer_knows(after, 0, h) != viewer_knows(after, 1, h)) {
            ++hidden_somewhere;
            break;
          }
        }
      });
  EXPECT_GT(checked, 40);
  EXPECT_GT(hidden_somewhere, 0);
}

TEST(ViewJson, HasTheWireFieldNames) {
  GameState s = new_game(Options{}, 4);
  protocol_testing::Picker picker(4);
  protocol_testing::play_random(s, picker, 30);
  const json view = view_to_json(view_for(s, 0));
  for (const char* key :
       {"viewer", "options", "radius", "turn", "current", "first_player", "phase", "decider",
        "active_unit", "hexes", "units", "players", "capital_choices", "pending_battles",
        "turn_order", "doomsday_started", "winners", "ended_by", "action_count"}) {
    EXPECT_TRUE(view.contains(key)) << key;
  }
  EXPECT_EQ(view["viewer"], 0);
  EXPECT_EQ(view["options"]["victory"], "standard");
  for (const char* key : {"hex", "known", "city", "built_this_turn", "battle_this_turn"}) {
    EXPECT_TRUE(view["hexes"][0].contains(key)) << key;
  }
  // The static fields are in the board (protocol/board.h), sent once, not in every view.
  for (const char* key : {"q", "r", "label", "perimeter"}) {
    EXPECT_FALSE(view["hexes"][0].contains(key)) << key;
  }
  ASSERT_FALSE(view["units"].empty());
  for (const char* key : {"id", "owner", "type", "place", "hex", "carrier", "moves_left",
                          "move_done", "attacked", "transported"}) {
    EXPECT_TRUE(view["units"][0].contains(key)) << key;
  }
  for (const char* key :
       {"index", "eliminated", "conceded", "capital_hex", "holds_capital", "doomsday_coin",
        "victory_points", "reserve", "ruler", "vassals", "reorganization"}) {
    EXPECT_TRUE(view["players"][0].contains(key)) << key;
  }
  EXPECT_EQ(view["players"][0]["reserve"].size(), 4u);
  // Optional parts are absent, not null, when there is nothing to show.
  EXPECT_EQ(view.contains("battle"), s.battle.has_value());
  EXPECT_EQ(view.contains("bombard"), s.bombard.has_value());
  EXPECT_EQ(view.contains("elimination"), s.elimination.has_value());
  EXPECT_FALSE(view.contains("exploration_choice"));
  EXPECT_FALSE(view.contains("relocation"));
  EXPECT_FALSE(view.contains("capital_return"));
  // Town owner and Capital: absent on an empty hex, present on a Town.
  for (const json& h : view["hexes"]) {
    const auto& cell = s.hexes[h["hex"].get<std::size_t>()];
    EXPECT_EQ(h.contains("town_owner"), cell.town_owner != kNoPlayer);
    EXPECT_EQ(h.contains("capital_of"), cell.capital_of != kNoPlayer);
  }
}

GameState play_scenario_file(const std::string& name) {
  std::ifstream in(std::string(VIKTORY_SCENARIO_DIR) + "/" + name);
  protocol::Scenario scenario = protocol::scenario_from_json(json::parse(in));
  for (const json& a : scenario.actions) {
    const Action action = protocol::scenario_action(a, scenario.state, scenario.unit_names);
    const auto error = apply_in_place(scenario.state, action);
    EXPECT_FALSE(error) << a.dump() << ": " << (error ? error->message : "");
  }
  return scenario.state;
}

TEST(ViewJson, ABattleIsShownWithItsDice) {
  const GameState s = play_scenario_file("battle-retreat-option.json");
  ASSERT_TRUE(s.battle);
  const json view = view_to_json(view_for(s, 1));
  ASSERT_TRUE(view.contains("battle"));
  const json& b = view["battle"];
  for (const char* key :
       {"hex", "attacker", "defender", "naval", "round", "stage", "picks_by_firer",
        "picks_by_target", "marked", "suppression", "attacker_dice", "defender_dice"}) {
    EXPECT_TRUE(b.contains(key)) << key;
  }
  EXPECT_EQ(b["hex"], s.board().from_label("E6"));
  EXPECT_EQ(b["attacker"], 0);
  EXPECT_EQ(b["defender"], 1);
  EXPECT_EQ(b["stage"], "retreat_option");  // [12.3 step 3]
  EXPECT_EQ(b["attacker_dice"], json({5}));
  EXPECT_EQ(b["defender_dice"], json({5, 6}));
  EXPECT_EQ(view["decider"], 0);
}

// A Battle preview made from a view [12.3]: its JSON for the client (not wired into the
// server's messages yet).
TEST(ViewJson, R12_3_ABattlePreviewHasDiceAndOdds) {
  const GameState s = play_scenario_file("battle-retreat-option.json");
  ASSERT_TRUE(s.battle);
  std::vector<int> attackers;
  for (const Unit& u : s.units) {
    if (u.owner == s.battle->attacker && u.place == UnitPlace::kMap && u.hex == s.battle->hex) {
      attackers.push_back(u.id);
    }
  }
  const auto preview = preview_battle(view_for(s, s.battle->attacker), s.battle->hex, attackers);
  ASSERT_TRUE(preview.has_value());
  const json j = protocol::battle_preview_to_json(*preview);
  for (const char* key : {"hex", "attacker", "defender", "naval", "terrain_known",
                          "pre_battle_fire", "attacker_fire", "defender_fire", "odds"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["odds"]["method"], "monte_carlo");
  EXPECT_EQ(j["odds"]["trials"], kPreviewTrials);
  const double sum = j["odds"]["attacker_wins"].get<double>() +
                     j["odds"]["defender_holds"].get<double>() +
                     j["odds"]["undecided"].get<double>();
  EXPECT_NEAR(sum, 1.0, 1e-9);
}

}  // namespace
}  // namespace viktory
