// The scenario reader (protocol/scenario.h, docs/scenario-format.md).
#include "scenario.h"

#include <gtest/gtest.h>

#include <fstream>
#include <numeric>
#include <string>

#include "game.h"
#include "json.h"
#include "tiles.h"

namespace viktory {
namespace {

using nlohmann::json;
using protocol::JsonError;
using protocol::Scenario;
using protocol::scenario_action;
using protocol::scenario_from_json;

const json kPosition = json::parse(R"({
  "options": {"players": 2},
  "seed": 11,
  "phase": "movement",
  "hexes": {
    "E2": "water",
    "E3": {"terrain": "forest", "town": 0, "city": true, "capital": 0},
    "E4": "plains",
    "E5": {"terrain": "mountain", "revealed": false},
    "B3": {"terrain": "plains", "town": 1, "capital": 1}
  },
  "units": [
    {"owner": 0, "type": "frigate", "hex": "E2", "name": "ship"},
    {"owner": 0, "type": "infantry", "carrier": "ship", "name": "marine"},
    "1 infantry B3"
  ],
  "dice": [3, 4],
  "actions": ["end_phase"]
})");

int hex(const GameState& s, const char* label) { return s.board().from_label(label); }

TEST(Scenario, PositionFillsInTheDefaults) {
  const Scenario sc = scenario_from_json(kPosition);
  const GameState& s = sc.state;
  const Board& b = s.board();
  EXPECT_EQ(s.radius, 4);
  EXPECT_EQ(s.phase, Phase::kMovement);
  EXPECT_EQ(s.turn, 1);
  EXPECT_EQ(s.current, 0);
  EXPECT_EQ(s.rng, Rng(11));
  EXPECT_EQ(s.scripted_dice, (std::vector<int>{3, 4}));
  for (int h = 0; h < b.size(); ++h) {
    const HexCell& c = s.hexes[h];
    if (b.is_perimeter(h)) {
      EXPECT_EQ(c.terrain, Terrain::kWater) << b.label(h);  // [3.2]
      EXPECT_TRUE(c.revealed) << b.label(h);
    }
  }
  // Unlisted interior: no tile yet.
  EXPECT_EQ(s.hexes[hex(s, "D4")].terrain, Terrain::kNone);
  EXPECT_FALSE(s.hexes[hex(s, "D4")].revealed);
  // Listed: face up, or face down when asked.
  EXPECT_EQ(s.hexes[hex(s, "E4")].terrain, Terrain::kPlains);
  EXPECT_TRUE(s.hexes[hex(s, "E4")].revealed);
  EXPECT_EQ(s.hexes[hex(s, "E5")].terrain, Terrain::kMountain);
  EXPECT_FALSE(s.hexes[hex(s, "E5")].revealed);
  EXPECT_EQ(s.hexes[hex(s, "E5")].known_by, 0);
  // Towns, Cities, Capitals.
  const HexCell& capital = s.hexes[hex(s, "E3")];
  EXPECT_EQ(capital.town_owner, 0);
  EXPECT_TRUE(capital.city);
  EXPECT_EQ(capital.capital_of, 0);
  EXPECT_EQ(s.players[0].capital_hex, hex(s, "E3"));
  EXPECT_EQ(s.players[1].capital_hex, hex(s, "B3"));
  EXPECT_TRUE(s.players[0].held_capital_at_turn_start);
  // Units in order; cargo takes its Frigate's hex; the current player's units may move.
  ASSERT_EQ(s.units.size(), 3u);
  EXPECT_EQ(sc.unit_names.at("ship"), 0);
  EXPECT_EQ(sc.unit_names.at("marine"), 1);
  EXPECT_EQ(s.units[1].carrier, 0);
  EXPECT_EQ(s.units[1].hex, hex(s, "E2"));
  EXPECT_EQ(s.units[0].carried_this_turn, 1);
  EXPECT_EQ(s.units[0].moves_left, 5);  // [9.31]
  EXPECT_EQ(s.units[1].moves_left, 2);  // [9.11]
  EXPECT_EQ(s.units[2].moves_left, 0);  // not his turn
  EXPECT_EQ(s.units[2].owner, 1);
  EXPECT_EQ(s.units[2].hex, hex(s, "B3"));
  EXPECT_EQ(sc.actions, json::array({"end_phase"}));
}

TEST(Scenario, LaidTilesLeaveTheBank) {
  const GameState s = scenario_from_json(kPosition).state;
  const Board& b = s.board();
  int interior = 0;
  for (int h = 0; h < b.size(); ++h) interior += b.is_perimeter(h) ? 0 : 1;
  auto expected = tile_bank_for(TileMix::kStandard, interior);
  // Laid interior tiles: E2 water, E3 forest, E4 plains, E5 mountain, B3 plains.
  expected[bank_slot_of(Terrain::kWater)] -= 1;
  expected[bank_slot_of(Terrain::kForest)] -= 1;
  expected[bank_slot_of(Terrain::kPlains)] -= 2;
  expected[bank_slot_of(Terrain::kMountain)] -= 1;
  EXPECT_EQ(s.tile_bank, expected);
  EXPECT_EQ(std::accumulate(s.tile_bank.begin(), s.tile_bank.end(), 0), interior - 5);
}

TEST(Scenario, AnExplicitTileBankIsUsedAsGiven) {
  json j = kPosition;
  j["tile_bank"] = {{"water", 1}, {"mountain", 2}};
  const GameState s = scenario_from_json(j).state;
  EXPECT_EQ(s.tile_bank, (std::array<int, kTerrainKinds>{1, 0, 0, 0, 2}));
}

TEST(Scenario, RevealsDrawFromTheBankAndLaidTilesComeUpAsLaid) {
  const Scenario sc = scenario_from_json(json::parse(R"({
    "phase": "movement",
    "hexes": {
      "E3": {"terrain": "plains", "town": 0, "capital": 0},
      "E4": "plains", "E5": "plains",
      "E6": {"terrain": "forest", "revealed": false},
      "B3": {"terrain": "plains", "town": 1, "capital": 1}
    },
    "units": ["0 infantry E4", "1 infantry B3"]
  })"));
  GameState s = sc.state;
  const int before = std::accumulate(s.tile_bank.begin(), s.tile_bank.end(), 0);
  std::vector<Event> events;
  ASSERT_FALSE(apply_in_place(
      s, scenario_action(json::parse(R"({"kind":"move","unit":0,"hex":"E5"})"), s, sc.unit_names),
      &events));
  int drawn = 0;
  bool forest_up = false;
  for (const Event& e : events) {
    if (e.kind != EventKind::kTileRevealed) continue;
    if (e.hex == hex(s, "E6")) {
      forest_up = e.terrain == Terrain::kForest;
    } else {
      ++drawn;
    }
  }
  EXPECT_TRUE(forest_up);
  EXPECT_GT(drawn, 0);
  EXPECT_EQ(std::accumulate(s.tile_bank.begin(), s.tile_bank.end(), 0), before - drawn);
}

TEST(Scenario, CompactUnitsWithCounts) {
  const GameState s = scenario_from_json(json::parse(R"({
    "hexes": {"E3": {"terrain": "plains", "town": 0, "city": true, "capital": 0},
              "B3": {"terrain": "plains", "town": 1, "capital": 1}},
    "units": ["0 infantry E3 x2"],
    "reserves": [{}, {"infantry": 1}]
  })"))
                          .state;
  ASSERT_EQ(s.units.size(), 3u);
  EXPECT_EQ(s.units[0].hex, hex(s, "E3"));
  EXPECT_EQ(s.units[1].hex, hex(s, "E3"));
  EXPECT_EQ(s.units[2].place, UnitPlace::kReserve);
  EXPECT_EQ(s.units[2].owner, 1);
  EXPECT_EQ(s.phase, Phase::kBuild);  // the default: the start of a Player Turn
  // [9.12 exception B] the current player's land units began the turn where they stand.
  EXPECT_EQ(s.hexes[hex(s, "E3")].began_turn_with_land_unit, 1);
}

TEST(Scenario, IndependentExplorationKnowledge) {
  const GameState s = scenario_from_json(json::parse(R"({
    "options": {"players": 3, "independent_exploration": true},
    "hexes": {"D4": {"terrain": "grassland", "known_by": [0, 2]}, "E5": "plains"}
  })"))
                          .state;
  EXPECT_TRUE(viewer_knows(s, 0, hex(s, "D4")));
  EXPECT_FALSE(viewer_knows(s, 1, hex(s, "D4")));
  EXPECT_TRUE(viewer_knows(s, 2, hex(s, "D4")));
  EXPECT_TRUE(viewer_knows(s, 1, hex(s, "E5")));  // listed face up: everyone knows it
}

struct BadScenario {
  const char* text;
  const char* message_start;
};

TEST(Scenario, MistakesAreReportedNamingTheField) {
  const std::vector<BadScenario> cases = {
      {R"([])", "scenario: expected an object"},
      {R"({"hexs": {}})", "scenario.hexs: unknown field"},
      {R"({"options": {"players": 9}})", "scenario.options.players: integer out of range"},
      {R"({"options": {"player": 3}})", "scenario.options.player: unknown field"},
      {R"({"hexes": {"Z9": "plains"}})", "scenario.hexes.Z9: unknown hex label \"Z9\""},
      {R"({"hexes": {"999": "plains"}})", "scenario.hexes.999: hex index out of range"},
      {R"({"hexes": {"E4": "lava"}})", "scenario.hexes.E4: unknown terrain \"lava\""},
      {R"({"hexes": {"E4": "plains", "29": "plains"}})",
       "scenario.hexes.E4: this hex is listed twice"},
      {R"({"hexes": {"A1": "plains"}})", "scenario.hexes.A1: the perimeter is face-up water"},
      {R"({"hexes": {"E4": {"revealed": true}}})",
       "scenario.hexes.E4.revealed: a revealed hex needs a terrain"},
      {R"({"hexes": {"E4": {"terrain": "water", "town": 0}}})",
       "scenario.hexes.E4.town: a Town stands on a revealed land hex"},
      {R"({"hexes": {"E4": {"terrain": "plains", "city": true}}})",
       "scenario.hexes.E4.city: a City needs an owner"},
      {R"({"hexes": {"E4": {"terrain": "plains", "capital": 0}}})",
       "scenario.hexes.E4.capital: a Capital marker lies under a Town or City"},
      {R"({"hexes": {"E4": {"terrain": "plains", "town": 2}}})",
       "scenario.hexes.E4.town: integer out of range"},
      {R"({"units": ["0 dragon E4"]})", "scenario.units[0]: unknown unit type \"dragon\""},
      {R"({"units": ["0 infantry"]})",
       "scenario.units[0]: expected \"<owner> <type> <hex>|reserve"},
      {R"({"units": [{"type": "infantry", "hex": "E4"}]})",
       "scenario.units[0].owner: missing required field"},
      {R"({"units": [{"owner": 0, "type": "infantry", "hex": "E4", "carrier": 0}]})",
       "scenario.units[0].hex: cargo takes its Frigate's hex"},
      {R"({"units": [{"owner": 0, "type": "infantry", "carrier": "boat"}]})",
       "scenario.units[0].carrier: no unit is named \"boat\""},
      {R"({"units": [{"owner": 0, "type": "infantry", "hex": "E4", "name": "a"}, {"owner": 0, "type": "infantry", "hex": "E4", "name": "a"}]})",
       "scenario.units: two units are named \"a\""},
      {R"({"units": [{"owner": 0, "type": "infantry", "hex": "E4", "wings": true}]})",
       "scenario.units[0].wings: unknown field"},
      {R"({"dice": [0]})", "scenario.dice[0]: integer out of range [1, 6]"},
      {R"({"phase": "lunch"})", "scenario.phase: unknown phase \"lunch\""},
      {R"({"reserves": [{"dragon": 1}]})", "scenario.reserves[0].dragon: unknown unit type"},
      // Units must match Towns and Cities [8.2]: the engine's invariants are checked.
      {R"({"hexes": {"E4": "plains"}, "units": ["0 infantry E4"]})",
       "scenario: the position breaks an engine invariant"},
      {R"({"from_new_game": {"options": {"players": 2}, "seed": -1}})",
       "scenario.from_new_game.seed: integer out of range"},
      {R"({"from_new_game": {}, "hexes": {}})", "scenario.hexes: unknown field"},
      {R"({"state": {}})", "state.format: missing required field"},
  };
  for (const BadScenario& c : cases) {
    try {
      scenario_from_json(json::parse(c.text));
      ADD_FAILURE() << c.text << " was accepted";
    } catch (const JsonError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind(c.message_start, 0), 0u)
          << c.text << ": got \"" << message << "\", expected it to start with \""
          << c.message_start << "\"";
    }
  }
}

TEST(Scenario, FromNewGameIsTheSameAsNewGame) {
  const json j = json::parse(
      R"({"from_new_game": {"options": {"players": 3, "tile_mix": "islands"}, "seed": 99}, "dice": [6]})");
  GameState expected =
      new_game(Options{3, VictoryCondition::kStandard, TileMix::kIslands, false}, 99);
  expected.scripted_dice = {6};
  EXPECT_EQ(scenario_from_json(j).state, expected);
  // --seed overrides the scenario's seed.
  GameState other = new_game(Options{3, VictoryCondition::kStandard, TileMix::kIslands, false}, 5);
  other.scripted_dice = {6};
  EXPECT_EQ(scenario_from_json(j, 5).state, other);
  // Seeds beyond 2^53 are written as strings.
  const json big = json::parse(R"({"from_new_game": {"seed": "0xfedcba9876543210"}})");
  EXPECT_EQ(scenario_from_json(big).state, new_game(Options{}, 0xfedcba9876543210ULL));
}

TEST(Scenario, ASavedStateLoadsAsItself) {
  GameState s = new_game(Options{4, VictoryCondition::kRace, TileMix::kLandRich, true}, 3);
  const json j = {{"state", protocol::state_to_json(s)}, {"actions", json::array()}};
  EXPECT_EQ(scenario_from_json(j).state, s);
  json with_dice = j;
  with_dice["dice"] = {2, 2};
  s.scripted_dice = {2, 2};
  EXPECT_EQ(scenario_from_json(with_dice).state, s);
}

// The optional rules in a position: options, seating, Vassals, and a decision under way.
TEST(Scenario, R15_0_OptionalRulesAndTheirStateRoundTrip) {
  const json position = json::parse(R"({
    "options": {"players": 3, "victory": ["race", "subjugation"], "luck_averaging": true,
                "town_relocation": true, "terrain_leveling": true},
    "phase": "movement",
    "turn_order": [2, 0, 1],
    "hexes": {
      "D3": {"terrain": "plains", "town": 0, "capital": 0},
      "G6": {"terrain": "plains", "town": 1, "capital": 1},
      "B5": {"terrain": "plains", "town": 2, "capital": 2},
      "F6": "plains", "F7": "plains", "G5": "plains", "H5": "plains"
    },
    "units": [{"owner": 0, "type": "infantry", "hex": "G6", "name": "victor"},
              "1 infantry reserve", "2 infantry reserve"],
    "players": [{}, {"ruler": 0, "reorganization": "next_turn"}, {}],
    "capital_return": {"hex": "G6", "ruler": 0, "vassal": 1, "stage": "withdraw"},
    "actions": [{"kind": "withdraw", "unit": "victor", "hex": "F6"}]
  })");
  const Scenario sc = scenario_from_json(position);
  const GameState& s = sc.state;
  EXPECT_TRUE(s.options.subjugation);  // [5.2] turns on [15.6]
  EXPECT_TRUE(s.options.victory.has(VictoryCondition::kRace));
  EXPECT_EQ(s.turn_order, (std::vector<int>{2, 0, 1}));
  EXPECT_EQ(s.players[1].ruler, 0);
  EXPECT_EQ(s.players[1].reorganization, Reorganization::kNextTurn);
  ASSERT_TRUE(s.capital_return.has_value());
  EXPECT_EQ(s.capital_return->hex, hex(s, "G6"));
  EXPECT_EQ(decider(s), 0);
  // Through the state JSON and back, and the scenario's action applies.
  EXPECT_EQ(protocol::state_from_json(json::parse(protocol::state_to_json(s).dump())), s);
  const Action a = scenario_action(sc.actions[0], s, sc.unit_names);
  EXPECT_EQ(a, act::withdraw(0, 0, hex(s, "F6")));
  const ApplyResult r = apply(s, a);
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(decider(r.state), 1);  // the Vassal reinforces now [15.62]
  // A seating that is not one is refused, naming the field.
  json bad = position;
  bad["turn_order"] = {0, 0, 1};
  EXPECT_THROW(scenario_from_json(bad), JsonError);
}

// [3.2] A scenario on a chosen board size is laid on that board; a radius that contradicts the
// options is refused, naming the field.
TEST(Scenario, R3_2_TheBoardSizeOptionGivesTheBoard) {
  json on_big = kPosition;
  on_big["options"]["board_hexes"] = 217;
  const Scenario sc = scenario_from_json(on_big);
  EXPECT_EQ(sc.state.radius, 8);
  EXPECT_EQ(sc.state.board().size(), 217);
  on_big["radius"] = 8;
  EXPECT_EQ(scenario_from_json(on_big).state.radius, 8);
  on_big["radius"] = 4;
  try {
    scenario_from_json(on_big);
    ADD_FAILURE() << "a radius of 4 on a 217-hex board was accepted";
  } catch (const JsonError& e) {
    EXPECT_NE(std::string(e.what()).find("radius"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("217 hexes"), std::string::npos) << e.what();
  }
}

TEST(Scenario, R15_2_NoExplorationLaysTheWholeMapFaceUp) {
  const Scenario sc = scenario_from_json(json::parse(R"({
    "options": {"players": 2, "no_exploration": true},
    "hexes": {"D3": {"terrain": "plains", "town": 0, "capital": 0},
              "G6": {"terrain": "plains", "town": 1, "capital": 1},
              "E5": {"terrain": "mountain", "revealed": false}},
    "units": ["0 infantry reserve", "1 infantry reserve"]
  })"));
  for (const HexCell& c : sc.state.hexes) {
    EXPECT_TRUE(c.revealed);
    EXPECT_NE(c.terrain, Terrain::kNone);
  }
  EXPECT_EQ(sc.state.hexes[hex(sc.state, "E5")].terrain, Terrain::kMountain);
  EXPECT_EQ(std::accumulate(sc.state.tile_bank.begin(), sc.state.tile_bank.end(), 0), 0);
}

TEST(ScenarioAction, ResolvesLabelsNamesAndTheDecider) {
  const Scenario sc = scenario_from_json(kPosition);
  const GameState& s = sc.state;
  EXPECT_EQ(scenario_action(json::parse(R"({"kind":"disembark","unit":"marine","hex":"E3"})"), s,
                            sc.unit_names),
            act::disembark(0, 1, hex(s, "E3")));
  EXPECT_EQ(scenario_action(json("end_phase"), s, sc.unit_names), act::end_phase(0));
  EXPECT_EQ(scenario_action(json::parse(R"({"kind":"move","unit":2,"hex":17,"player":1})"), s,
                            sc.unit_names),
            act::move(1, 2, 17));
  EXPECT_EQ(scenario_action(json::parse(R"({"kind":"embark","unit":"1","carrier":"ship"})"), s,
                            sc.unit_names),
            act::embark(0, 1, 0));
  EXPECT_THROW(scenario_action(json::parse(R"({"kind":"move","unit":"nobody","hex":"E4"})"), s,
                               sc.unit_names),
               JsonError);
  EXPECT_THROW(
      scenario_action(json::parse(R"({"kind":"move","unit":0,"hex":"Q1"})"), s, sc.unit_names),
      JsonError);
  EXPECT_THROW(scenario_action(json(3), s, sc.unit_names), JsonError);
}

// Every example file in tests/scenarios/ loads (the CLI tests run them; this keeps the
// examples in docs/scenario-format.md honest too).
TEST(Scenario, ExampleFilesLoad) {
  for (const char* name :
       {"bombard-hit.json", "bombard-miss.json", "bombard-target-chooses.json",
        "bombard-out-of-range.json", "reveal-laid-tile.json", "hidden-terrain-view.json",
        "from-new-game.json", "battle-retreat-option.json"}) {
    std::ifstream in(std::string(VIKTORY_SCENARIO_DIR) + "/" + name);
    ASSERT_TRUE(in) << name;
    EXPECT_NO_THROW(scenario_from_json(json::parse(in))) << name;
  }
}

// Fog of war: a position laid with no action yet has one memory per player, of the enemy units
// he sees in it (as after an action), and its state reads back; before, the memory was one
// empty list for the whole game and the stored state of such a game could not be read.
TEST(Scenario, AFogPositionRemembersWhatEachPlayerSeesAndReadsBack) {
  json position = kPosition;
  position["options"] = {{"players", 2}, {"fog_of_war", true}};
  position["units"][2] = "1 infantry E4";  // Yellow's, next to Red's City at E3: Red sees it
  position.erase("actions");
  const Scenario sc = scenario_from_json(position);
  const GameState& s = sc.state;
  ASSERT_EQ(s.last_seen.size(), 2u);
  ASSERT_EQ(s.last_seen[0].size(), 1u);
  EXPECT_EQ(s.last_seen[0][0].hex, hex(s, "E4"));
  EXPECT_EQ(s.last_seen[0][0].owner, 1);
  EXPECT_EQ(s.last_seen[0][0].units[static_cast<int>(UnitType::kInfantry)], 1);
  EXPECT_EQ(protocol::state_from_json(protocol::state_to_json(s)), s);
}

}  // namespace
}  // namespace viktory
