// The game record of version 2 (docs/fair-play.md): games of random scheme 2 record each die's
// and tile's draw number and position, the Exploration Balancing draws [15.3] and the seating
// [15.2]; the verifier checks them all. Records of version 1 still read and verify as before.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "game_record.h"
#include "json.h"
#include "record_fixture.h"
#include "verify.h"

namespace viktory::protocol {
namespace {

using record_testing::play_recorded_game;
using record_testing::PlayedGame;

Options options_for(int players) {
  Options o;
  o.players = players;
  return o;
}

const PlayedGame& two_player_game() {
  static const PlayedGame game = play_recorded_game(7, options_for(2));
  return game;
}

void expect_fails_with(const GameRecord& r, const std::string& message) {
  const VerifyReport report = verify_record(r);
  EXPECT_FALSE(report.verified);
  EXPECT_EQ(report.failure, message);
}

std::string where(const RecordedAction& a) {
  return "action " + std::to_string(a.seq) + " (turn " + std::to_string(a.turn) + ")";
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A record written by the version-1 writer before random scheme 2 existed (a 151-action
// two-player game): it must read, verify and write back exactly as it was.
TEST(RecordVersions, AVersionOneRecordFromBeforeSchemeTwoStillVerifiesAndWritesBackTheSame) {
  const std::string text =
      read_file(std::string(VIKTORY_PROTOCOL_DATA_DIR) + "/record-v1-two-players.json");
  ASSERT_FALSE(text.empty());
  const GameRecord r = parse_record(text);
  EXPECT_EQ(r.scheme, RandomScheme::kSingleStream);
  const VerifyReport report = verify_record(r);
  EXPECT_TRUE(report.verified) << report.failure;
  EXPECT_EQ(report.actions, 151);
  EXPECT_EQ(record_to_json(r), nlohmann::json::parse(text));
  // Rebuilt from its actions, it is the same record.
  std::vector<Action> actions;
  for (const RecordedAction& a : r.actions) actions.push_back(a.action);
  EXPECT_EQ(build_record(r, actions), r);
  // Read as version 2 its seed is another (the seed label differs): nothing matches.
  GameRecord relabelled = r;
  relabelled.scheme = RandomScheme::kStreams;
  EXPECT_NE(record_seed(relabelled), record_seed(r));
}

TEST(RecordVersions, SchemeOneGamesAreWrittenAsVersionOneAndSchemeTwoAsVersionTwo) {
  const PlayedGame one =
      play_recorded_game(21, options_for(3), 400, -1, RandomScheme::kSingleStream);
  EXPECT_EQ(record_to_json(one.record)["version"], 1);
  EXPECT_FALSE(record_to_json(one.record)["setup"].contains("first_player_draw"));
  EXPECT_TRUE(verify_record(one.record).verified) << verify_record(one.record).failure;
  const nlohmann::json two = record_to_json(two_player_game().record);
  EXPECT_EQ(two["version"], 2);
  EXPECT_TRUE(two["setup"].contains("first_player_draw"));
  EXPECT_EQ(parse_record(two.dump()), two_player_game().record);
}

// Every outcome carries its draw number; together with its position they follow the engine.
TEST(RecordVersions, DrawNumbersCountEachStreamFromZeroAndPositionsCountTheAction) {
  const GameRecord& r = two_player_game().record;
  ASSERT_EQ(r.setup_tiles.size(), 3u);  // the first player's start group [3.3]
  EXPECT_EQ(r.first_player_draw, 0);
  for (std::size_t i = 0; i < r.setup_tiles.size(); ++i) {
    EXPECT_EQ(r.setup_tiles[i].draw, static_cast<std::int64_t>(i) + 1);
  }
  std::int64_t next_die = 0;
  for (const RecordedAction& a : r.actions) {
    std::vector<int> positions;
    for (const RecordedRoll& roll : a.dice) {
      EXPECT_EQ(roll.draw, next_die) << where(a);
      next_die += static_cast<std::int64_t>(roll.dice.size());
      positions.push_back(roll.at);
    }
    for (const RecordedTile& t : a.tiles) positions.push_back(t.at);
    std::sort(positions.begin(), positions.end());
    for (std::size_t i = 0; i < positions.size(); ++i) {
      EXPECT_EQ(positions[i], static_cast<int>(i)) << where(a);
    }
  }
  EXPECT_GT(next_die, 0);
}

std::size_t action_with_roll_and_another_outcome(const GameRecord& r) {
  for (std::size_t i = 0; i < r.actions.size(); ++i) {
    if (!r.actions[i].dice.empty() && r.actions[i].dice.size() + r.actions[i].tiles.size() >= 2) {
      return i;
    }
  }
  ADD_FAILURE() << "no action with a roll and another outcome";
  return 0;
}

TEST(RecordVersions, ADieMovedToAnotherPositionIsRefused) {
  GameRecord r = two_player_game().record;
  RecordedAction& a = r.actions[action_with_roll_and_another_outcome(r)];
  RecordedRoll& roll = a.dice[0];
  const int real = roll.at;
  roll.at = real == 0 ? 1 : 0;
  const std::string purpose(to_string(roll.purpose));
  const VerifyReport report = verify_record(r);
  EXPECT_FALSE(report.verified);
  EXPECT_EQ(report.failure.rfind(
                where(a) + ": the record puts seat " + std::to_string(roll.player) + " (", 0),
            0u)
      << report.failure;
  EXPECT_NE(report.failure.find("at position " + std::to_string(roll.at) +
                                " of the action's random outcomes; the engine made it at "
                                "position " +
                                std::to_string(real)),
            std::string::npos)
      << report.failure;
}

TEST(RecordVersions, ATamperedDrawNumberIsRefused) {
  GameRecord die = two_player_game().record;
  RecordedAction& a = die.actions[action_with_roll_and_another_outcome(die)];
  const std::int64_t real = a.dice[0].draw;
  a.dice[0].draw = real + 1;
  const VerifyReport report = verify_record(die);
  EXPECT_FALSE(report.verified);
  EXPECT_NE(report.failure.find("took draw " + std::to_string(real + 1) +
                                " of the dice stream; the seed gives draw " + std::to_string(real)),
            std::string::npos)
      << report.failure;

  GameRecord tile = two_player_game().record;
  for (RecordedAction& t : tile.actions) {
    if (t.tiles.empty()) continue;
    const std::int64_t drawn = t.tiles[0].draw;
    t.tiles[0].draw = drawn + 7;
    expect_fails_with(tile, where(t) + ": the record says the tile at " +
                                Board::for_radius(4).label(t.tiles[0].hex) + " took draw " +
                                std::to_string(drawn + 7) +
                                " of the tiles stream; the seed gives draw " +
                                std::to_string(drawn));
    break;
  }

  GameRecord first = two_player_game().record;
  first.first_player_draw = 1;
  expect_fails_with(first,
                    "setup: the record says the first player took draw 1 of the setup stream; "
                    "the seed gives draw 0");
}

// [15.3] A game with Exploration Balancing records each land tile drawn for it.
TEST(RecordVersions, R15_3_BalancingDrawsAreRecordedAndChecked) {
  Options options = options_for(2);
  options.exploration_balancing = true;
  options.tile_mix = TileMix::kIslands;  // much water: the draw comes often
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const PlayedGame game = play_recorded_game(seed, options, 1200);
    for (std::size_t i = 0; i < game.record.actions.size(); ++i) {
      if (game.record.actions[i].balance.empty()) continue;
      ASSERT_TRUE(verify_record(game.record).verified) << verify_record(game.record).failure;
      const RecordedAction& a = game.record.actions[i];
      const RecordedBalance real = a.balance[0];
      EXPECT_TRUE(is_land(real.terrain));
      EXPECT_GE(real.draw, 0);
      // Round trip through JSON.
      EXPECT_EQ(parse_record(record_to_json(game.record).dump()), game.record);

      GameRecord terrain = game.record;
      auto& b = terrain.actions[i].balance[0];
      b.terrain = real.terrain == Terrain::kForest ? Terrain::kMountain : Terrain::kForest;
      expect_fails_with(terrain, where(a) + ": the record says seat " + std::to_string(b.player) +
                                     " (" + game.record.seats[b.player].name + ") drew " +
                                     std::string(to_string(b.terrain)) +
                                     " for Exploration Balancing [15.3]; the seed gives " +
                                     std::string(to_string(real.terrain)));
      GameRecord draw = game.record;
      draw.actions[i].balance[0].draw += 1;
      expect_fails_with(
          draw, where(a) + ": the record says seat " + std::to_string(b.player) + " (" +
                    game.record.seats[b.player].name + ")'s balancing draw [15.3] took draw " +
                    std::to_string(real.draw + 1) + " of the tiles stream; the seed gives draw " +
                    std::to_string(real.draw));
      GameRecord removed = game.record;
      removed.actions[i].balance.clear();
      const VerifyReport gone = verify_record(removed);
      EXPECT_FALSE(gone.verified);
      EXPECT_NE(gone.failure.find("the record says nothing about a balancing draw"),
                std::string::npos)
          << gone.failure;
      return;
    }
  }
  FAIL() << "no game drew for Exploration Balancing";
}

// [15.2] The seating and the whole face-up map come from the setup stream, in that order.
TEST(RecordVersions, R15_2_TheSeatingAndTheFaceUpMapAreRecordedAndChecked) {
  Options options = options_for(3);
  options.no_exploration = true;
  const PlayedGame game = play_recorded_game(31, options, 600);
  const GameRecord& r = game.record;
  ASSERT_TRUE(verify_record(r).verified) << verify_record(r).failure;
  ASSERT_EQ(r.seating.size(), 3u);
  EXPECT_EQ(r.first_player_draw, 2);     // after two seating draws (three players)
  ASSERT_EQ(r.setup_tiles.size(), 61u);  // the interior of the 91-hex board
  EXPECT_EQ(r.setup_tiles[0].draw, 3);
  EXPECT_EQ(r.setup_tiles[0].by, kNoPlayer);
  const nlohmann::json j = record_to_json(r);
  EXPECT_FALSE(j["setup"]["tiles"][0].contains("by"));
  EXPECT_EQ(parse_record(j.dump()), r);

  GameRecord seating = r;
  std::swap(seating.seating[0], seating.seating[1]);
  const VerifyReport report = verify_record(seating);
  EXPECT_FALSE(report.verified);
  EXPECT_EQ(report.failure.rfind("setup: the record says the seating [15.2] is seat ", 0), 0u)
      << report.failure;
}

TEST(RecordVersions, ComputerSeatsAndTheOperatorsSeatAreNoted) {
  GameRecord r = two_player_game().record;
  r.seats[1].name = "Computer (heuristic)";
  r.seats[1].computer = true;
  r.seats[1].contribution.reset();
  r.seats[1].contribution_commitment.reset();
  r.seats[0].host = true;
  // The seed without seat 1's contribution: rebuild the outcomes.
  std::vector<Action> actions;
  for (const RecordedAction& a : r.actions) actions.push_back(a.action);
  GameState state = new_game(r.options, *record_seed(r), r.scheme);
  std::vector<Action> kept;
  for (const Action& a : actions) {
    if (apply_in_place(state, a)) break;
    kept.push_back(a);
  }
  while (state.phase != Phase::kGameOver) {
    kept.push_back(act::concede(decider(state)));
    apply_in_place(state, kept.back());
  }
  r = build_record(r, kept);
  const nlohmann::json j = record_to_json(r);
  EXPECT_EQ(j["seats"][1]["computer"], true);
  EXPECT_EQ(j["seats"][0]["host"], true);
  EXPECT_FALSE(j["seats"][0].contains("computer"));
  EXPECT_FALSE(j["seats"][1].contains("host"));
  EXPECT_EQ(parse_record(j.dump()), r);
  const VerifyReport report = verify_record(r);
  EXPECT_TRUE(report.verified) << report.failure;
  EXPECT_EQ(report.notes,
            (std::vector<std::string>{
                "seat 0 (Player A) is the server's operator: he could read the hidden tiles "
                "from his database while the game ran",
                "seat 1 (Computer (heuristic)) is a computer player: it contributes nothing"}));
  // A deleted player's seat goes by its number alone.
  r.seats[0].name.clear();
  EXPECT_EQ(verify_record(r).notes[0].rfind("seat 0 is the server's operator", 0), 0u);
}

}  // namespace
}  // namespace viktory::protocol
