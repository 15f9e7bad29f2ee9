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

constexpr int kActionKinds = static_cast<int>(ActionKind::kConcede) + 1;

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
      {R"({"kind": "concede", "player": 6})", "action.player: integer out of range [0, 5]"},
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
                     {"independent_exploration", true}}));
  EXPECT_EQ(protocol::options_from_json(j), o);
  EXPECT_EQ(protocol::options_from_json(json::object()), Options{});  // defaults
  EXPECT_THROW(protocol::options_from_json(json{{"players", 7}}), JsonError);
  EXPECT_THROW(protocol::options_from_json(json{{"players", 1}}), JsonError);
  EXPECT_THROW(protocol::options_from_json(json{{"victory", "total"}}), JsonError);
  EXPECT_THROW(protocol::options_from_json(json{{"tile_mix", 2}}), JsonError);
  EXPECT_THROW(protocol::options_from_json(json{{"independent_exploration", "yes"}}), JsonError);
  EXPECT_THROW(protocol::options_from_json(json::array()), JsonError);
}

}  // namespace
}  // namespace viktory
