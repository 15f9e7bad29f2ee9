// Games stored before the optional rules existed must load and replay exactly as they did.
//
// data/v1-*.json were written by the engine as it stood before the optional rules [15.x] and
// several victory conditions [5.0] were added: the options JSON and action log a server keeps,
// state snapshots in state format version 1, and a fingerprint of the dice rolled (every die
// face in order) and of the number of events. Replaying the log with today's engine must reach
// the very same state and roll the very same dice.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "game.h"
#include "json.h"

namespace viktory {
namespace {

using nlohmann::json;

json read_data(const std::string& name) {
  std::ifstream in(std::string(VIKTORY_PROTOCOL_DATA_DIR) + "/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str());
}

struct Replay {
  GameState state;
  int events = 0;
  std::string dice;
};

Replay replay(const json& stored, GameState start, std::size_t from, std::size_t to) {
  Replay r{std::move(start), 0, {}};
  for (std::size_t i = from; i < to; ++i) {
    const Action a = protocol::action_from_json(stored["actions"][i]);
    std::vector<Event> events;
    const auto error = apply_in_place(r.state, a, &events);
    EXPECT_FALSE(error.has_value()) << "action #" << i << " refused: " << error->code;
    if (error) break;
    r.events += static_cast<int>(events.size());
    for (const Event& e : events) {
      if (e.kind != EventKind::kDiceRolled) continue;
      for (int d : e.dice) r.dice += std::to_string(d);
    }
  }
  return r;
}

void check_stored_game(const std::string& name) {
  SCOPED_TRACE(name);
  const json stored = read_data(name);
  const Options options = protocol::options_from_json(stored["options"]);
  const std::uint64_t seed = std::stoull(stored["seed"].get<std::string>());
  const std::size_t actions = stored["actions"].size();
  ASSERT_GT(actions, 300u);

  const Replay full = replay(stored, new_game(options, seed), 0, actions);
  const GameState expected = protocol::state_from_json(stored["final"]);
  EXPECT_TRUE(full.state == expected) << "the replay ends in another state";
  EXPECT_EQ(full.events, stored["event_count"].get<int>());
  EXPECT_EQ(full.dice, stored["dice"].get<std::string>());
  EXPECT_FALSE(full.dice.empty());

  if (!stored.contains("snapshot")) return;
  // A version 1 snapshot resumes the game: the same state as the replay up to it, and the
  // same game from there on (generator and tile bank included).
  const auto at = stored["snapshot_after"].get<std::size_t>();
  const GameState snapshot = protocol::state_from_json(stored["snapshot"]);
  EXPECT_TRUE(replay(stored, new_game(options, seed), 0, at).state == snapshot);
  EXPECT_TRUE(replay(stored, snapshot, at, actions).state == expected);
}

TEST(Compatibility, R5_0_TwoPlayerGameStoredBeforeOptionalRulesReplays) {
  check_stored_game("v1-two-players.json");
}

TEST(Compatibility, R5_0_FourPlayerDoomsdayGameWithIndependentExplorationReplays) {
  check_stored_game("v1-four-players.json");
}

TEST(Compatibility, VersionOneStatesLoadWithSeatOrderAndNoAlliances) {
  const GameState s = protocol::state_from_json(read_data("v1-four-players.json")["final"]);
  EXPECT_EQ(s.turn_order, (std::vector<int>{0, 1, 2, 3}));
  for (const PlayerState& p : s.players) {
    EXPECT_EQ(p.ruler, kNoPlayer);
    EXPECT_EQ(p.reorganization, Reorganization::kNone);
  }
  EXPECT_FALSE(s.balance || s.relocation || s.capital_return);
  EXPECT_FALSE(check_invariants(s).has_value());
  // Written again, it is a version 2 state that reads back the same.
  const json again = protocol::state_to_json(s);
  EXPECT_EQ(again["version"], 2);
  EXPECT_TRUE(protocol::state_from_json(again) == s);
}

}  // namespace
}  // namespace viktory
