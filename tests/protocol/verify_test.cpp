// verify_record and the game record (docs/fair-play.md): a finished game verifies, and every
// kind of tampering fails with a message that says where and what.
#include "verify.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "game_record.h"
#include "json.h"
#include "record_fixture.h"

namespace viktory::protocol {
namespace {

using record_testing::play_recorded_game;
using record_testing::PlayedGame;

Options options_for(int players) {
  Options o;
  o.players = players;
  return o;
}

// One finished two-player game shared by the tampering tests (playing one takes a moment).
const PlayedGame& two_player_game() {
  static const PlayedGame game = play_recorded_game(7, options_for(2));
  return game;
}

std::size_t first_action_with_dice(const GameRecord& r) {
  for (std::size_t i = 0; i < r.actions.size(); ++i) {
    if (!r.actions[i].dice.empty()) return i;
  }
  ADD_FAILURE() << "the sample game rolled no dice";
  return 0;
}

std::size_t first_action_with_tiles(const GameRecord& r) {
  for (std::size_t i = 0; i < r.actions.size(); ++i) {
    if (!r.actions[i].tiles.empty()) return i;
  }
  ADD_FAILURE() << "the sample game revealed no tiles";
  return 0;
}

// How the verifier names a seat: by number and name.
std::string seat(const GameRecord& r, int p) {
  return "seat " + std::to_string(p) + " (" + r.seats[static_cast<std::size_t>(p)].name + ")";
}

std::string label(const GameRecord& r, int hex) {
  return Board::for_radius(board_radius_for_players(r.options.players)).label(hex);
}

void expect_fails_with(const GameRecord& r, const std::string& message,
                       const Witness* witness = nullptr) {
  const VerifyReport report = verify_record(r, witness);
  EXPECT_FALSE(report.verified);
  EXPECT_EQ(report.failure, message);
  EXPECT_EQ(report.summary(), "NOT verified: " + message);
}

void expect_fails_containing(const GameRecord& r, const std::string& part) {
  const VerifyReport report = verify_record(r);
  EXPECT_FALSE(report.verified);
  EXPECT_NE(report.failure.find(part), std::string::npos) << report.failure;
}

TEST(VerifyRecord, FinishedRandomGamesVerifyForEveryPlayerCountAndOption) {
  for (int players = 2; players <= 6; ++players) {
    Options options = options_for(players);
    options.independent_exploration = players % 2 == 1;
    options.victory = players == 4 ? VictoryCondition::kDoomsday : VictoryCondition::kStandard;
    const PlayedGame game = play_recorded_game(100 + static_cast<std::uint64_t>(players), options);
    const VerifyReport report = verify_record(game.record);
    EXPECT_TRUE(report.verified) << players << " players: " << report.failure;
    EXPECT_EQ(report.actions, static_cast<int>(game.actions.size()));
    EXPECT_GT(report.tiles, 0);
    EXPECT_TRUE(game.record.result.has_value());
    // What each seat saw (under independent exploration, only the tiles shown to him) matches.
    for (const Witness& w : game.witnesses) {
      const VerifyReport seen = verify_record(game.record, &w);
      EXPECT_TRUE(seen.verified) << players << " players, seat " << *w.seat << ": " << seen.failure;
    }
  }
}

TEST(VerifyRecord, ASampleGameRollsDiceRevealsTilesAndCountsThem) {
  const GameRecord& r = two_player_game().record;
  const VerifyReport report = verify_record(r);
  ASSERT_TRUE(report.verified) << report.failure;
  int rolls = 0;
  int dice = 0;
  int tiles = static_cast<int>(r.setup_tiles.size());
  for (const RecordedAction& a : r.actions) {
    rolls += static_cast<int>(a.dice.size());
    for (const RecordedRoll& roll : a.dice) dice += static_cast<int>(roll.dice.size());
    tiles += static_cast<int>(a.tiles.size());
  }
  EXPECT_GT(rolls, 0);
  EXPECT_EQ(report.rolls, rolls);
  EXPECT_EQ(report.dice, dice);
  EXPECT_EQ(report.tiles, tiles);
  EXPECT_EQ(report.seed, record_seed(r));
  EXPECT_EQ(report.summary().rfind("verified: " + std::to_string(r.actions.size()) + " actions", 0),
            0u)
      << report.summary();
}

TEST(VerifyRecord, TheRecordSurvivesItsJsonFormExactly) {
  const GameRecord& r = two_player_game().record;
  const auto text = record_to_json(r).dump();
  EXPECT_EQ(parse_record(text), r);
  EXPECT_TRUE(verify_record(parse_record(text)).verified);
}

TEST(VerifyRecord, ATamperedDieFailsNamingTheActionTheRollerAndBothFaces) {
  GameRecord r = two_player_game().record;
  const std::size_t i = first_action_with_dice(r);
  RecordedRoll& roll = r.actions[i].dice[0];
  const std::vector<int> real = roll.dice;
  roll.dice[0] = roll.dice[0] % 6 + 1;
  auto faces = [](const std::vector<int>& d) {
    std::string out;
    for (int f : d) out += (out.empty() ? "" : ", ") + std::to_string(f);
    return out;
  };
  const std::string purpose = roll.purpose == RollPurpose::kBombard ? "a Bombard Attack"
                              : roll.purpose == RollPurpose::kPreBattleFire
                                  ? "the pre-battle Artillery fire"
                              : roll.purpose == RollPurpose::kAttackerFire ? "the attacker's fire"
                              : roll.purpose == RollPurpose::kDefenderFire ? "the defender's fire"
                                                                           : "the Doomsday Clock";
  expect_fails_with(
      r, "action " + std::to_string(i + 1) + " (turn " + std::to_string(r.actions[i].turn) +
             "): the record says " + seat(r, roll.player) + " rolled " + faces(roll.dice) +
             " for " + purpose + " at " + label(r, roll.hex) + "; the seed gives " + faces(real));
}

TEST(VerifyRecord, ARemovedOrInventedRollFails) {
  GameRecord removed = two_player_game().record;
  const std::size_t i = first_action_with_dice(removed);
  removed.actions[i].dice.clear();
  expect_fails_containing(removed, "action " + std::to_string(i + 1));
  expect_fails_containing(removed, "the record says no dice were rolled; the seed gives");

  GameRecord invented = two_player_game().record;
  invented.actions[0].dice.push_back({0, RollPurpose::kBombard, 10, {6}});
  expect_fails_containing(invented, "action 1 (turn 0): the record says");
  expect_fails_containing(invented, "; the seed gives no such roll");
}

TEST(VerifyRecord, ATamperedTileFailsNamingTheHexAndBothTerrains) {
  GameRecord r = two_player_game().record;
  const std::size_t i = first_action_with_tiles(r);
  RecordedTile& tile = r.actions[i].tiles[0];
  const Terrain real = tile.terrain;
  tile.terrain = real == Terrain::kForest ? Terrain::kMountain : Terrain::kForest;
  expect_fails_with(r, "action " + std::to_string(i + 1) + " (turn " +
                           std::to_string(r.actions[i].turn) + "): the record says " +
                           label(r, tile.hex) + " was revealed as " +
                           std::string(to_string(tile.terrain)) + " by " + seat(r, tile.by) +
                           "; the seed gives " + std::string(to_string(real)));
}

TEST(VerifyRecord, ATamperedStartTileOrFirstPlayerFailsInTheSetup) {
  GameRecord tile = two_player_game().record;
  ASSERT_FALSE(tile.setup_tiles.empty());
  tile.setup_tiles[0].terrain =
      tile.setup_tiles[0].terrain == Terrain::kWater ? Terrain::kPlains : Terrain::kWater;
  expect_fails_containing(tile, "setup: the record says " + label(tile, tile.setup_tiles[0].hex));

  GameRecord first = two_player_game().record;
  const int real = first.first_player;
  first.first_player = 1 - real;
  expect_fails_with(first, "setup: the record says " + seat(first, 1 - real) +
                               " moves first; the seed gives " + seat(first, real));
}

TEST(VerifyRecord, AnActionTheEngineRefusesFailsWithTheEnginesReason) {
  GameRecord r = two_player_game().record;
  // The first action is the first player's Capital: put it on a perimeter water hex.
  RecordedAction& a = r.actions[0];
  ASSERT_EQ(a.action.kind, ActionKind::kPlaceCapital);
  a.action.hex = 0;
  expect_fails_containing(r, "action 1 (turn 0): the engine refuses " + seat(r, a.action.player) +
                                 "'s place_capital: ");
}

TEST(VerifyRecord, AnActionByTheWrongPlayerFails) {
  GameRecord r = two_player_game().record;
  r.actions[0].action.player = 1 - r.actions[0].action.player;
  expect_fails_containing(r, "action 1 (turn 0): the engine refuses");
  expect_fails_containing(r, "It is not your decision now");
}

// A legal but different move changes where later dice fall or what is revealed: some later
// action no longer matches the seed.
TEST(VerifyRecord, ALegalButDifferentActionFailsWhereTheGameStopsMatching) {
  const PlayedGame& game = two_player_game();
  for (std::size_t i = 0; i < game.record.actions.size(); ++i) {
    const Action& original = game.record.actions[i].action;
    if (original.kind != ActionKind::kPlaceCapital) continue;
    GameState state = new_game(game.record.options, *record_seed(game.record));
    for (std::size_t k = 0; k < i; ++k) apply_in_place(state, game.actions[k]);
    for (const Action& other : legal_actions(state, original.player)) {
      if (other.kind != ActionKind::kPlaceCapital || other == original) continue;
      GameRecord r = game.record;
      r.actions[i].action = other;
      const VerifyReport report = verify_record(r);
      EXPECT_FALSE(report.verified);
      EXPECT_EQ(report.failure.rfind("action ", 0), 0u) << report.failure;
      return;
    }
  }
  GTEST_SKIP() << "no alternative Capital hex in this sample";
}

TEST(VerifyRecord, ATamperedSecretOrSaltFailsTheCommitment) {
  GameRecord secret = two_player_game().record;
  (*secret.reveal->secret)[5] ^= 1;
  expect_fails_containing(
      secret, "the revealed secret and salt do not match the commitment: SHA-256 gives ");
  GameRecord salt = two_player_game().record;
  (*salt.reveal->salt)[0] ^= 0x80;
  expect_fails_containing(salt, "do not match the commitment");
  GameRecord commitment = two_player_game().record;
  (*commitment.commitment)[31] ^= 1;
  expect_fails_containing(commitment, "do not match the commitment");
}

TEST(VerifyRecord, ATamperedContributionFailsItsCommitment) {
  GameRecord r = two_player_game().record;
  (*r.seats[1].contribution)[0] ^= 1;
  expect_fails_with(
      r, "seat 1 (" + r.seats[1].name + "): the contribution does not match its commitment");
}

// A forger who replaces a contribution together with its commitment gets another seed, and
// the dice and tiles no longer match.
TEST(VerifyRecord, AReplacedContributionWithAMatchingCommitmentChangesTheLuck) {
  GameRecord r = two_player_game().record;
  (*r.seats[0].contribution)[3] ^= 0x10;
  r.seats[0].contribution_commitment = fair::contribution_commitment(*r.seats[0].contribution);
  const VerifyReport report = verify_record(r);
  EXPECT_FALSE(report.verified);
  EXPECT_NE(report.seed, record_seed(two_player_game().record));
  EXPECT_NE(report.failure.find("; the seed gives"), std::string::npos) << report.failure;
}

TEST(VerifyRecord, AnUnrevealedContributionIsNotedAndTheGameStillVerifies) {
  const PlayedGame game = play_recorded_game(8, options_for(3), 3000, /*unrevealed_seat=*/1);
  ASSERT_FALSE(game.record.seats[1].contribution.has_value());
  const VerifyReport report = verify_record(game.record);
  EXPECT_TRUE(report.verified) << report.failure;
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_EQ(report.notes[0], "seat 1 (" + game.record.seats[1].name +
                                 ") did not reveal a contribution: the seed depends on the "
                                 "others only");
}

TEST(VerifyRecord, AResultOrEndingThatIsNotTheGamesFails) {
  GameRecord winners = two_player_game().record;
  ASSERT_TRUE(winners.result.has_value());
  winners.result->winners = {1 - winners.result->winners.at(0)};
  expect_fails_containing(winners, "the record says the game was won by ");
  GameRecord cut = two_player_game().record;
  cut.actions.pop_back();
  expect_fails_containing(cut, "the record ends after action " +
                                   std::to_string(cut.actions.size()) +
                                   ", but the game is not over");
  GameRecord no_result = two_player_game().record;
  no_result.result.reset();
  expect_fails_containing(no_result, "but the record has no result");
}

TEST(VerifyRecord, AWrongTurnNumberFails) {
  GameRecord r = two_player_game().record;
  r.actions.back().turn += 1;
  expect_fails_containing(
      r, "action " + std::to_string(r.actions.size()) + ": the record says it was made in turn ");
}

TEST(VerifyRecord, AGameStillRunningCannotBeChecked) {
  GameRecord r = two_player_game().record;
  r.reveal.reset();
  expect_fails_with(r, "the secret is not revealed: a game can be checked once it is over");
}

TEST(VerifyRecord, AGameFromBeforeFairPlayReplaysButIsNotVerified) {
  const PlayedGame& game = two_player_game();
  GameRecord legacy = game.record;
  legacy.commitment.reset();
  for (auto& seat : legacy.seats) {
    seat.contribution.reset();
    seat.contribution_commitment.reset();
  }
  legacy.reveal = RecordReveal{std::nullopt, std::nullopt, record_seed(game.record)};
  const VerifyReport report = verify_record(legacy);
  EXPECT_FALSE(report.verified);
  EXPECT_EQ(report.actions, static_cast<int>(game.actions.size()));
  EXPECT_NE(report.failure.find("created before fair play: the replay matches seed 0x"),
            std::string::npos)
      << report.failure;
  EXPECT_EQ(parse_record(record_to_json(legacy).dump()), legacy);
}

TEST(VerifyRecord, EachSeatsWitnessMatches) {
  const PlayedGame& game = two_player_game();
  for (const Witness& w : game.witnesses) {
    const auto read = parse_witness(witness_to_json(w).dump());
    const VerifyReport report = verify_record(game.record, &read);
    EXPECT_TRUE(report.verified) << report.failure;
    EXPECT_TRUE(report.witness_checked);
    EXPECT_FALSE(w.seen.empty());
  }
}

// The host publishes a record that is consistent in itself but not the game that was played:
// another secret (and so other luck). Only what the player saw can tell.
TEST(VerifyRecord, ASelfConsistentForgedRecordFailsAgainstWhatThePlayerSaw) {
  const PlayedGame& game = two_player_game();
  GameRecord forged = game.record;
  (*forged.reveal->secret)[0] ^= 1;
  forged.commitment = fair::commitment(*forged.reveal->salt, *forged.reveal->secret);
  // Rebuild its outcomes from the forged seed, as far as the same actions stay legal.
  std::vector<Action> kept;
  GameState state = new_game(forged.options, *record_seed(forged), forged.scheme);
  for (const Action& a : game.actions) {
    if (apply_in_place(state, a)) break;
    kept.push_back(a);
  }
  while (state.phase != Phase::kGameOver) {
    const Action concede = act::concede(decider(state));
    apply_in_place(state, concede);
    kept.push_back(concede);
  }
  forged = build_record(forged, kept);
  ASSERT_TRUE(verify_record(forged).verified) << verify_record(forged).failure;
  const Witness& alice = game.witnesses[0];
  const VerifyReport report = verify_record(forged, &alice);
  EXPECT_FALSE(report.verified);
  EXPECT_EQ(report.failure.rfind("the record's commitment (", 0), 0u) << report.failure;
  EXPECT_NE(report.failure.find(") is not the one your client saw at the start ("),
            std::string::npos);

  // Without the commitment in the witness, the outcomes it saw still differ somewhere.
  Witness outcomes_only = alice;
  outcomes_only.commitment.reset();
  outcomes_only.contribution_commitments.reset();
  outcomes_only.first_player.reset();
  const VerifyReport by_outcomes = verify_record(forged, &outcomes_only);
  EXPECT_FALSE(by_outcomes.verified);
  EXPECT_NE(by_outcomes.failure.find("your client saw"), std::string::npos) << by_outcomes.failure;
}

TEST(VerifyRecord, AWitnessThatDisagreesSaysWhat) {
  const PlayedGame& game = two_player_game();
  Witness w = game.witnesses[1];
  w.contribution = fair::Contribution{};
  expect_fails_with(game.record,
                    "the record's contribution for seat 1 (" + game.record.seats[1].name +
                        ") is not the one your client drew",
                    &w);
  Witness die = game.witnesses[0];
  ASSERT_FALSE(die.seen.empty());
  for (WitnessEntry& e : die.seen) {
    if (e.dice.empty()) continue;
    e.dice[0].dice[0] = e.dice[0].dice[0] % 6 + 1;
    const VerifyReport report = verify_record(game.record, &die);
    EXPECT_FALSE(report.verified);
    EXPECT_EQ(report.failure.rfind("action " + std::to_string(e.seq) + " (turn ", 0), 0u)
        << report.failure;
    EXPECT_NE(report.failure.find("; your client saw "), std::string::npos);
    return;
  }
  ADD_FAILURE() << "seat 0 saw no dice";
}

TEST(GameRecordJson, StrictReaderNamesTheField) {
  const nlohmann::json good = record_to_json(two_player_game().record);
  auto error_of = [](const nlohmann::json& j) -> std::string {
    try {
      record_from_json(j);
    } catch (const JsonError& e) {
      return e.what();
    }
    return "(accepted)";
  };
  nlohmann::json j = good;
  j["extra"] = 1;
  EXPECT_EQ(error_of(j), "extra: unknown field");
  j = good;
  j["version"] = 3;
  EXPECT_EQ(error_of(j), "version: this reader knows versions 1 to 2, the file is version 3");
  j = good;
  j["format"] = "something";
  EXPECT_EQ(error_of(j), "format: expected \"viktory-game-record\", got \"something\"");
  j = good;
  j["actions"][2]["seq"] = 4;
  EXPECT_EQ(error_of(j),
            "actions[2].seq: actions must be numbered 1, 2, 3, ...: expected 3, got 4");
  j = good;
  j["actions"][0]["action"]["hex"] = "D4";
  EXPECT_EQ(error_of(j), "actions[0].action.hex: expected an integer, got a string");
  j = good;
  j["reveal"]["secret"] = "abc";
  EXPECT_EQ(error_of(j), "reveal.secret: expected 64 hex digits");
  j = good;
  j["seats"].erase(1);
  EXPECT_EQ(error_of(j), "seats: expected one seat per player (2), got 1");
  // Version 2: every option may be left out (the protocol's default), none may be unknown.
  j = good;
  j["options"].erase("tile_mix");
  EXPECT_EQ(error_of(j), "(accepted)");
  j["options"]["tiles"] = "standard";
  EXPECT_EQ(error_of(j), "options.tiles: unknown field");
  // Version 2's draw numbers and positions are required and whole.
  const std::size_t d = first_action_with_dice(two_player_game().record);
  j = good;
  j["actions"][d]["dice"][0].erase("draw");
  EXPECT_EQ(error_of(j), "actions[" + std::to_string(d) + "].dice[0].draw: missing required field");
  j = good;
  j["actions"][d]["dice"][0]["at"] = -1;
  EXPECT_EQ(error_of(j).rfind("actions[" + std::to_string(d) + "].dice[0].at: ", 0), 0u);
  j = good;
  j["setup"].erase("first_player_draw");
  EXPECT_EQ(error_of(j), "setup.first_player_draw: missing required field");
  j = good;
  j["setup"]["seating"] = {0, 1};
  EXPECT_EQ(error_of(j), "setup.seating: only a game with No Exploration [15.2] draws the seating");
  j = good;
  j["actions"][0]["balance"] = {{{"player", 0}, {"terrain", "water"}, {"draw", 0}, {"at", 0}}};
  EXPECT_EQ(error_of(j), "actions[0].balance[0].terrain: the balancing draw is a land tile [15.3]");
  j = good;
  j["seats"][0]["computer"] = "yes";
  EXPECT_EQ(error_of(j), "seats[0].computer: expected a boolean, got a string");
  j = good;
  j["setup"]["tiles"][0]["terrain"] = "lava";
  EXPECT_EQ(error_of(j), "setup.tiles[0].terrain: unknown terrain \"lava\"");
  EXPECT_THROW(parse_record("{\"format\": "), JsonError);
  EXPECT_THROW(parse_record("[]"), JsonError);
}

// The command-line tool: exit 0 verified, 1 not verified, 2 unreadable.
class VerifyCli : public ::testing::Test {
 protected:
  static int run(const std::string& arguments) {
    const std::string command =
        std::string(VIKTORY_VERIFY_BIN) + " " + arguments + " > " + out_path() + " 2>&1";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  static std::string out_path() { return ::testing::TempDir() + "viktory_verify_out.txt"; }
  static std::string output() {
    std::ifstream in(out_path());
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  static std::string write(const std::string& name, const std::string& text) {
    const std::string path = ::testing::TempDir() + name;
    std::ofstream(path) << text;
    return path;
  }
};

TEST_F(VerifyCli, ExitCodesTellVerifiedFailedAndUnreadable) {
  const GameRecord& good = two_player_game().record;
  const auto good_path = write("good-record.json", record_to_json(good).dump());
  EXPECT_EQ(run(good_path), 0);
  EXPECT_EQ(output().rfind("verified: ", 0), 0u) << output();

  const auto witness_path =
      write("witness.json", witness_to_json(two_player_game().witnesses[0]).dump());
  EXPECT_EQ(run(good_path + " --witness " + witness_path), 0);
  EXPECT_NE(output().find("matches what your client saw"), std::string::npos) << output();

  GameRecord bad = good;
  (*bad.reveal->salt)[1] ^= 4;
  EXPECT_EQ(run(write("bad-record.json", record_to_json(bad).dump())), 1);
  EXPECT_EQ(output().rfind("NOT verified: the revealed secret and salt do not match", 0), 0u)
      << output();

  EXPECT_EQ(run(write("bad-record.json", record_to_json(bad).dump()) + " --json"), 1);
  const auto report = nlohmann::json::parse(output());
  EXPECT_EQ(report["verified"], false);

  EXPECT_EQ(run(write("garbage.json", "{not json")), 2);
  EXPECT_NE(output().find("unreadable: record: not valid JSON"), std::string::npos) << output();
  EXPECT_EQ(run(::testing::TempDir() + "no-such-file.json"), 2);
  EXPECT_EQ(run(""), 2);
}

}  // namespace
}  // namespace viktory::protocol
