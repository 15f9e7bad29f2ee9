// Actions: every kind round-trips; malformed input is refused naming the field.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "json.h"

namespace viktory {
namespace {

using nlohmann::json;
using protocol::action_from_json;
using protocol::action_to_json;
using protocol::JsonError;

constexpr int kActionKinds = static_cast<int>(ActionKind::kRedeploy) + 1;

// One example of each kind, as the act:: constructors build them.
Action example_of(ActionKind kind) {
  switch (kind) {
    case ActionKind::kPlaceCapital:
      return act::place_capital(1, 12);
    case ActionKind::kBuildTown:
      return act::build_town(0, 30);
    case ActionKind::kUpgradeCity:
      return act::upgrade_city(2, 31);
    case ActionKind::kEndPhase:
      return act::end_phase(3);
    case ActionKind::kMove:
      return act::move(0, 7, 17);
    case ActionKind::kEmbark:
      return act::embark(1, 4, 9);
    case ActionKind::kDisembark:
      return act::disembark(1, 4, 22);
    case ActionKind::kBombard:
      return act::bombard(0, 2, 40);
    case ActionKind::kStartBattle:
      return act::start_battle(4, 41);
    case ActionKind::kChooseCasualty:
      return act::choose_casualty(5, 13);
    case ActionKind::kRetreat:
      return act::retreat(0, 6, 18);
    case ActionKind::kContinueBattle:
      return act::continue_battle(0);
    case ActionKind::kEliminateUnit:
      return act::eliminate_unit(1, 3);
    case ActionKind::kPlaceReserve:
      return act::place_reserve(2, UnitType::kFrigate, 0);
    case ActionKind::kConcede:
      return act::concede(1);
    case ActionKind::kReplaceWater:
      return act::replace_water(0, 19);
    case ActionKind::kKeepWater:
      return act::keep_water(2);
    case ActionKind::kAverageDice:
      return act::average_dice(1, 2);
    case ActionKind::kRemoveTown:
      return act::remove_town(3, 33);
    case ActionKind::kRebuildTown:
      return act::rebuild_town(3, 34);
    case ActionKind::kWithdraw:
      return act::withdraw(4, 8, 27);
    case ActionKind::kRedeploy:
      return act::redeploy(2, 9, 28);
  }
  return {};
}

TEST(ActionJson, EveryKindRoundTrips) {
  std::set<std::string> names;
  for (int k = 0; k < kActionKinds; ++k) {
    const Action a = example_of(static_cast<ActionKind>(k));
    ASSERT_EQ(a.kind, static_cast<ActionKind>(k));
    const json j = action_to_json(a);
    EXPECT_EQ(j["kind"], std::string(to_string(a.kind)));
    names.insert(j["kind"].get<std::string>());
    EXPECT_EQ(action_from_json(json::parse(j.dump())), a) << j.dump();
  }
  EXPECT_EQ(names.size(), static_cast<std::size_t>(kActionKinds));  // distinct names
}

TEST(ActionJson, WritesOnlyTheFieldsOfItsKind) {
  EXPECT_EQ(action_to_json(act::move(0, 3, 17)),
            json({{"kind", "move"}, {"player", 0}, {"unit", 3}, {"hex", 17}}));
  EXPECT_EQ(action_to_json(act::embark(1, 4, 9)),
            json({{"kind", "embark"}, {"player", 1}, {"unit", 4}, {"carrier", 9}}));
  EXPECT_EQ(action_to_json(act::place_reserve(2, UnitType::kCavalry, 5)),
            json({{"kind", "place_reserve"}, {"player", 2}, {"unit_type", "cavalry"}, {"hex", 5}}));
  EXPECT_EQ(action_to_json(act::end_phase(0)), json({{"kind", "end_phase"}, {"player", 0}}));
}

TEST(ActionJson, TheWireFormWithoutPlayerParses) {
  // docs/protocol.md: the client never sends "player"; the server fills it in.
  const Action a = action_from_json(json::parse(R"({"kind":"move","unit":3,"hex":17})"));
  EXPECT_EQ(a, act::move(kNoPlayer, 3, 17));
  const Action concede = action_from_json(json::parse(R"({"kind":"concede"})"));
  EXPECT_EQ(concede, act::concede(kNoPlayer));
  EXPECT_EQ(action_to_json(concede), json({{"kind", "concede"}}));
}

struct BadAction {
  const char* text;
  const char* message_start;  // the field the message must name, and more
};

TEST(ActionJson, MalformedActionsAreRefusedWithAClearMessage) {
  const std::vector<BadAction> cases = {
      {R"([1, 2])", "action: expected an object, got an array"},
      {R"("move")", "action: expected an object, got a string"},
      {R"({})", "action.kind: missing required field"},
      {R"({"kind": 3})", "action.kind: expected a string, got an integer"},
      {R"({"kind": "fly"})", "action.kind: unknown action kind \"fly\""},
      {R"({"kind": "Move", "unit": 1, "hex": 2})", "action.kind: unknown action kind"},
      {R"({"kind": "move", "hex": 17})", "action.unit: missing required field"},
      {R"({"kind": "move", "unit": 3})", "action.hex: missing required field"},
      {R"({"kind": "move", "unit": "3", "hex": 17})",
       "action.unit: expected an integer, got a string"},
      {R"({"kind": "move", "unit": 3, "hex": 17.5})",
       "action.hex: expected an integer, got a non-integer number"},
      {R"({"kind": "move", "unit": 3, "hex": null})", "action.hex: expected an integer, got null"},
      {R"({"kind": "move", "unit": -1, "hex": 17})", "action.unit: integer out of range"},
      {R"({"kind": "move", "unit": 3, "hex": 99999999999})", "action.hex: integer out of range"},
      {R"({"kind": "move", "unit": 3, "hex": 17, "speed": 2})",
       "action.speed: field not used by action kind \"move\""},
      {R"({"kind": "end_phase", "hex": 4})",
       "action.hex: field not used by action kind \"end_phase\""},
      {R"({"kind": "embark", "unit": 3, "hex": 4})",
       "action.hex: field not used by action kind \"embark\""},
      {R"({"kind": "embark", "unit": 3})", "action.carrier: missing required field"},
      {R"({"kind": "place_reserve", "hex": 4})", "action.unit_type: missing required field"},
      {R"({"kind": "place_reserve", "hex": 4, "unit_type": "dragon"})",
       "action.unit_type: unknown unit type \"dragon\""},
      {R"({"kind": "place_reserve", "hex": 4, "unit_type": 1})",
       "action.unit_type: expected a string"},
      {R"({"kind": "concede", "player": 8})", "action.player: integer out of range [0, 7]"},
      {R"({"kind": "concede", "player": "0"})", "action.player: expected an integer"},
      {R"({"kind": "build_town", "hex": true})", "action.hex: expected an integer, got a boolean"},
  };
  for (const BadAction& c : cases) {
    try {
      const Action a = action_from_json(json::parse(c.text));
      ADD_FAILURE() << c.text << " was accepted as " << action_to_json(a).dump();
    } catch (const JsonError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind(c.message_start, 0), 0u)
          << c.text << ": got \"" << message << "\", expected it to start with \""
          << c.message_start << "\"";
    }
  }
}

TEST(ActionJson, LongHostileInputIsNotEchoedInFull) {
  const std::string huge(10000, 'x');
  try {
    action_from_json(json{{"kind", huge}});
    FAIL() << "accepted";
  } catch (const JsonError& e) {
    EXPECT_LT(std::string(e.what()).size(), 200u);
  }
}

TEST(ActionJson, UnknownKeysAreQuotedSafely) {
  try {
    action_from_json(json{{"kind", "end_phase"}, {"\x01\n<b>!", 1}});
    FAIL() << "accepted";
  } catch (const JsonError& e) {
    EXPECT_EQ(std::string(e.what()),
              "action.?"
              "?<b>!: field not used by action kind \"end_phase\"");
  }
}

TEST(ActionJson, ListsConvert) {
  const std::vector<Action> actions = {act::end_phase(0), act::move(0, 1, 2)};
  const std::vector<json> out = protocol::actions_to_json(actions);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1]["kind"], "move");
  EXPECT_EQ(action_from_json(out[0]), actions[0]);
}

TEST(OptionsJson, RoundTripsAndChecksValues) {
  const Options o{5, VictoryCondition::kRace, TileMix::kLandRich, true};
  const json j = protocol::options_to_json(o);
  EXPECT_EQ(j, json({{"players", 5},
                     {"victory", "race"},
                     {"tile_mix", "land_rich"},
                     {"independent_exploration", true},
                     {"terrain_leveling", false},
                     {"no_exploration", false},
                     {"exploration_balancing", false},
                     {"luck_averaging", false},
                     {"town_relocation", false},
                     {"subjugation", false}}));
  EXPECT_EQ(protocol::options_from_json(j), o);
  EXPECT_EQ(protocol::options_from_json(json::object()), Options{});  // defaults
  EXPECT_THROW(protocol::options_from_json(json{{"players", 9}}), JsonError);
  EXPECT_THROW(protocol::options_from_json(json{{"players", 1}}), JsonError);
  EXPECT_THROW(protocol::options_from_json(json{{"victory", "total"}}), JsonError);
  EXPECT_THROW(protocol::options_from_json(json{{"tile_mix", 2}}), JsonError);
  EXPECT_THROW(protocol::options_from_json(json{{"independent_exploration", "yes"}}), JsonError);
  EXPECT_THROW(protocol::options_from_json(json::array()), JsonError);
}

// GamesByEmail's house rules: flags like the optional rules, written only when chosen so that
// the stored options of every other game stay as they were.
TEST(OptionsJson, HouseRulesAreFlagsWrittenOnlyWhenChosen) {
  EXPECT_FALSE(protocol::options_to_json(Options{}).contains("defender_prefire"));
  EXPECT_FALSE(protocol::options_to_json(Options{}).contains("redeployment"));
  Options o;
  o.defender_prefire = true;
  o.redeployment = true;
  const json j = protocol::options_to_json(o);
  EXPECT_EQ(j["defender_prefire"], true);
  EXPECT_EQ(j["redeployment"], true);
  EXPECT_EQ(protocol::options_from_json(j), o);
  for (const char* key : {"defender_prefire", "redeployment"}) {
    EXPECT_THROW(protocol::options_from_json(json{{key, "yes"}}), JsonError) << key;
  }
}

// [5.0] Several victory conditions: a list; one condition stays a plain string, as stored
// before lists existed.
TEST(OptionsJson, R5_0_VictoryConditionsAreAListOrOneString) {
  Options o;
  o.victory = VictoryCondition::kRace;
  o.victory.add(VictoryCondition::kDoomsday);
  const json j = protocol::options_to_json(o);
  EXPECT_EQ(j["victory"], json({"race", "doomsday"}));
  EXPECT_EQ(protocol::options_from_json(j), o);
  EXPECT_EQ(protocol::options_from_json(json{{"victory", {"doomsday", "race"}}}).victory,
            o.victory);
  EXPECT_EQ(protocol::options_from_json(json{{"victory", {"shorter"}}}).victory,
            VictorySet(VictoryCondition::kShorter));
  EXPECT_EQ(protocol::options_to_json(Options{})["victory"], "standard");
  // An old stored form: only the four fields of the time.
  const Options old = protocol::options_from_json(
      json::parse(R"({"players":3,"victory":"doomsday","tile_mix":"islands",)"
                  R"("independent_exploration":false})"));
  EXPECT_EQ(old.players, 3);
  EXPECT_EQ(old.victory, VictorySet(VictoryCondition::kDoomsday));
  EXPECT_FALSE(old.subjugation || old.luck_averaging || old.no_exploration);
  EXPECT_THROW(protocol::options_from_json(json{{"victory", json::array()}}), JsonError);
  EXPECT_THROW(protocol::options_from_json(json{{"victory", {"race", "race"}}}), JsonError);
  EXPECT_THROW(protocol::options_from_json(json{{"victory", {"race", "fast"}}}), JsonError);
  EXPECT_THROW(protocol::options_from_json(json{{"victory", 3}}), JsonError);
}

// [15.x] Every optional rule is a flag; [5.2] turns [15.6] on; one combination is refused.
TEST(OptionsJson, R15_0_OptionalRulesAreFlags) {
  Options o;
  o.terrain_leveling = o.no_exploration = o.exploration_balancing = o.luck_averaging =
      o.town_relocation = o.subjugation = true;
  EXPECT_EQ(protocol::options_from_json(protocol::options_to_json(o)), o);
  for (const char* key : {"terrain_leveling", "no_exploration", "exploration_balancing",
                          "luck_averaging", "town_relocation", "subjugation"}) {
    EXPECT_TRUE(protocol::options_to_json(o)[key].get<bool>()) << key;
    EXPECT_THROW(protocol::options_from_json(json{{key, 1}}), JsonError) << key;
  }
  const Options implied = protocol::options_from_json(json{{"victory", "subjugation"}});
  EXPECT_TRUE(implied.subjugation);  // [5.2] needs [15.6]
  try {
    protocol::options_from_json(
        json{{"independent_exploration", true}, {"exploration_balancing", true}});
    FAIL() << "accepted";
  } catch (const JsonError& e) {
    EXPECT_NE(std::string(e.what()).find("15.3"), std::string::npos) << e.what();
  }
}

// [3.2] The board size: written only when chosen (so other games' options read and hash as
// before), read back, and refused with a clear error when it is no board size or too small
// for 7 or 8 players.
TEST(OptionsJson, R3_2_BoardSizeIsAnOption) {
  EXPECT_FALSE(protocol::options_to_json(Options{}).contains("board_hexes"));
  Options o;
  o.players = 2;
  o.board_hexes = 169;
  const json j = protocol::options_to_json(o);
  EXPECT_EQ(j["board_hexes"], 169);
  EXPECT_EQ(protocol::options_from_json(j), o);
  EXPECT_EQ(protocol::options_from_json(json{{"board_hexes", 0}}).board_hexes, 0);
  EXPECT_EQ(protocol::options_from_json(json{{"players", 8}}).players, 8);
  EXPECT_EQ(protocol::options_from_json(json{{"players", 7}, {"board_hexes", 169}}).board_hexes,
            169);
  auto refusal = [](const json& options) -> std::string {
    try {
      protocol::options_from_json(options);
    } catch (const JsonError& e) {
      return e.what();
    }
    return "accepted";
  };
  for (const json& bad : {json(60), json(100), json(271), json(-61), json("169"), json(169.5)}) {
    const std::string why = refusal(json{{"board_hexes", bad}});
    EXPECT_NE(why.find("board_hexes"), std::string::npos) << bad << ": " << why;
  }
  EXPECT_NE(refusal(json{{"board_hexes", 100}}).find("61, 91, 127, 169 or 217"), std::string::npos);
  const std::string small = refusal(json{{"players", 8}, {"board_hexes", 127}});
  EXPECT_NE(small.find("7 or 8 players need a board of 169 or 217 hexes"), std::string::npos)
      << small;
}

}  // namespace
}  // namespace viktory
