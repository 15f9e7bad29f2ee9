// Replaying every stored game (server/storage/stored_check.h) and verifying every finished game's
// record (server/fair_play/fair_play.h), the checks viktory-move-db runs after a move: sound games
// replay with every snapshot agreeing and their records verify, and a snapshot that is not the
// state of its actions, a gap in the log, an action past the game's count and a changed
// commitment are each named.
#include "stored_check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "fair_play.h"
#include "store.h"
#include "support/stored_games.h"
#include "test_support.h"

namespace viktory::server {
namespace {

using testing::TempDir;

constexpr int kSnapshotEvery = 30;

class StoredCheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Random games end early now and then: the first long enough ones of a seed run, the short
    // ones before them stored (and checked) too.
    Options two;
    two.players = 2;
    Options three;
    three.players = 3;
    first_ = store_until(two, 2 * kSnapshotEvery + 1);
    second_ = store_until(three, kSnapshotEvery + 2);
  }
  GameRecord store_until(const Options& options, int actions) {
    for (int tries = 0; tries < 20; ++tries) {
      const GameRecord record =
          test::store_random_game(store_, options, ++seed_, 200, kSnapshotEvery);
      stored_.push_back(record);
      if (record.seq >= actions) return record;
    }
    ADD_FAILURE() << "no random game of " << actions << " actions in 20 seeds";
    return {};
  }
  void run(const std::string& sql) { store_.db().exec(sql); }

  TempDir dir_;
  Store store_{dir_.file("check.db")};
  std::uint64_t seed_ = 100;
  std::vector<GameRecord> stored_;
  GameRecord first_;   // at least two snapshots
  GameRecord second_;  // at least one
};

TEST_F(StoredCheckTest, SoundGamesReplayWithEverySnapshotAgreeing) {
  const StoredCheck check = check_every_game(store_);
  EXPECT_TRUE(check.problems.empty()) << check.problems.front();
  int actions = 0;
  int snapshots = 0;
  for (const GameRecord& record : stored_) {
    actions += record.seq;
    snapshots += record.seq / kSnapshotEvery;
  }
  EXPECT_EQ(check.games, static_cast<int>(stored_.size()));
  EXPECT_EQ(check.actions, actions);
  EXPECT_EQ(check.snapshots, snapshots);
  EXPECT_GE(check.snapshots, 3);
}

TEST_F(StoredCheckTest, ASnapshotThatIsNotTheStateOfItsActionsIsNamed) {
  const std::string game = std::to_string(first_.id);
  run("UPDATE snapshots SET state = (SELECT state FROM snapshots WHERE game_id = " + game +
      " AND seq = 30) WHERE game_id = " + game + " AND seq = 60");
  const StoredCheck check = check_every_game(store_);
  ASSERT_EQ(check.problems.size(), 1u);
  EXPECT_EQ(check.problems[0],
            "game " + game + ": the snapshot after action 60 is not the state its actions give");
}

TEST_F(StoredCheckTest, AGapInTheLogAndAnActionPastTheCountAreNamed) {
  const std::string first = std::to_string(first_.id);
  const std::string second = std::to_string(second_.id);
  // The gap: the walk stops at the missing action, the rest of that game is not replayed.
  run("DELETE FROM actions WHERE game_id = " + second +
      " AND seq = " + std::to_string(kSnapshotEvery + 2));
  // Past the count: the game's row says one action fewer than its log holds.
  run("UPDATE games SET seq = seq - 1 WHERE id = " + first);
  StoredCheck check = check_every_game(store_);
  ASSERT_EQ(check.problems.size(), 2u) << check.problems[0];
  std::sort(check.problems.begin(), check.problems.end());  // listed by status, then by game
  ASSERT_LT(first_.id, second_.id);
  EXPECT_EQ(check.problems[0],
            "game " + first + ": actions stored past the game's " + std::to_string(first_.seq - 1));
  EXPECT_NE(check.problems[1].find("game " + second + ": the action log has a gap at action " +
                                   std::to_string(kSnapshotEvery + 2)),
            std::string::npos)
      << check.problems[1];
}

TEST(StoredRecords, EveryFinishedGameVerifiesAndAChangedCommitmentIsNamed) {
  TempDir dir;
  Store store(dir.file("records.db"));
  Options options;
  options.players = 2;
  std::vector<std::int64_t> finished;
  for (std::uint64_t seed = 200; seed < 240 && finished.size() < 2; ++seed) {
    const GameRecord record = test::store_random_game(store, options, seed, 400, 50, true);
    if (record.status == GameStatus::kFinished) finished.push_back(record.id);
  }
  ASSERT_EQ(finished.size(), 2u) << "too few random games ended within 400 actions";
  RecordsCheck check = verify_finished_records(store);
  EXPECT_TRUE(check.failures.empty()) << check.failures.front();
  EXPECT_EQ(check.verified, 2);

  // Another game's commitment: the revealed secret no longer matches what was published.
  store.db().exec("UPDATE games SET commitment = (SELECT commitment FROM games WHERE id = " +
                  std::to_string(finished[0]) + ") WHERE id = " + std::to_string(finished[1]));
  check = verify_finished_records(store);
  EXPECT_EQ(check.verified, 1);
  ASSERT_EQ(check.failures.size(), 1u);
  EXPECT_TRUE(check.failures[0].starts_with("game " + std::to_string(finished[1]) + ": "))
      << check.failures[0];
}

}  // namespace
}  // namespace viktory::server
