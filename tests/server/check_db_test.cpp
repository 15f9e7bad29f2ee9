// viktory-server --check-db (docs/backup.md, "Check a backup"): the real binary on a database of
// stored random games, some finished: a sound one replays and its records verify (exit 0); a
// damaged one names the game and exits 1; a file that does not exist is refused, not created.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <utility>

#include "store.h"
#include "support/run_command.h"
#include "support/stored_games.h"
#include "test_support.h"

namespace viktory::server {
namespace {

using testing::TempDir;

std::pair<int, std::string> check_db(const std::string& file) {
  return testing::run_command(std::string("'") + VIKTORY_SERVER_BINARY + "' --check-db --db '" +
                              file + "'");
}

TEST(CheckDb, ASoundDatabaseReplaysAndItsRecordsVerifyADamagedOneIsNamed) {
  TempDir dir;
  const std::string file = dir.file("restored.db");
  std::int64_t finished = 0;
  {
    Store store(file);
    Options options;
    options.players = 2;
    for (std::uint64_t seed = 300; seed < 340 && finished == 0; ++seed) {
      const GameRecord game = test::store_random_game(store, options, seed, 300, 40, true);
      if (game.status == GameStatus::kFinished) finished = game.id;
    }
    ASSERT_NE(finished, 0) << "no random game ended within 300 actions";
  }
  const auto [sound, sound_output] = check_db(file);
  EXPECT_EQ(sound, 0) << sound_output;
  EXPECT_NE(sound_output.find("replayed " + std::to_string(finished) + " games"), std::string::npos)
      << sound_output;
  EXPECT_NE(sound_output.find("1 finished games' records verify"), std::string::npos)
      << sound_output;

  // A bad restore: the finished game lost an action in the middle of its log.
  {
    Store store(file);
    store.db().exec("DELETE FROM actions WHERE game_id = " + std::to_string(finished) +
                    " AND seq = 5");
  }
  const auto [damaged, damaged_output] = check_db(file);
  EXPECT_EQ(damaged, 1) << damaged_output;
  EXPECT_NE(damaged_output.find("does not replay: game " + std::to_string(finished) +
                                ": the action log has a gap at action 5"),
            std::string::npos)
      << damaged_output;
  EXPECT_NE(damaged_output.find("record does not verify: game " + std::to_string(finished)),
            std::string::npos)
      << damaged_output;
}

TEST(CheckDb, AFileThatDoesNotExistIsRefusedAndNotCreated) {
  TempDir dir;
  const std::string file = dir.file("missing.db");
  const auto [status, output] = check_db(file);
  EXPECT_EQ(status, 1);
  EXPECT_NE(output.find("no such database file"), std::string::npos) << output;
  EXPECT_FALSE(std::filesystem::exists(file));
}

}  // namespace
}  // namespace viktory::server
