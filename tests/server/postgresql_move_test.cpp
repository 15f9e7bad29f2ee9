// Moving a database between SQLite and PostgreSQL (server/storage/move_db.h), on a throwaway
// cluster: a database with stored random games is copied row for row, the copy compares equal, new
// ids go on after the copied ones, a target that is not empty is refused, and a changed row is
// found; the way back gives a SQLite file whose every game replays (storage/stored_check.h); and
// the command viktory-move-db does both, refusing what it must.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <utility>

#include "fair_play.h"
#include "move_db.h"
#include "pg_database.h"
#include "store.h"
#include "stored_check.h"
#include "support/postgresql_fixture.h"
#include "support/run_command.h"
#include "support/stored_games.h"

namespace viktory::server {
namespace {
namespace fs = std::filesystem;

class MoveDb : public test::PostgresqlTest {
 protected:
  void SetUp() override {
    test::PostgresqlTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    file_ = fs::temp_directory_path() / ("viktory-move-" + database_ + ".sqlite");
    back_ = fs::temp_directory_path() / ("viktory-back-" + database_ + ".sqlite");
    for (const fs::path& file : {file_, back_}) remove_database(file);
    store_ = std::make_unique<Store>(file_.string());
    // Games of two and three players, some finished, with snapshots, seats and players.
    for (std::uint64_t seed : {11u, 12u, 13u}) {
      Options options;
      options.players = seed == 12 ? 3 : 2;
      test::store_random_game(*store_, options, seed, 260, 50, /*finish=*/true);
    }
  }
  void TearDown() override {
    store_.reset();
    for (const fs::path& file : {file_, back_}) remove_database(file);
  }
  static void remove_database(const fs::path& file) {
    if (file.empty()) return;
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(file.string() + suffix);
  }
  // This test's database as a URI, the form viktory-move-db takes (libpq reads the socket's
  // folder from the host parameter).
  std::string uri() const {
    return "postgresql:///" + database_ + "?host=" + cluster_->folder() + "&user=viktory";
  }

  fs::path file_;
  fs::path back_;  // the way back's new SQLite file
  std::unique_ptr<Store> store_;
};

TEST_F(MoveDb, EveryRowIsCopiedAndComparesEqualAndNewIdsGoOnAfterTheCopiedOnes) {
  PgDatabase target(conninfo());
  const MoveReport report = copy_sqlite_to_postgresql(store_->db(), target);
  EXPECT_EQ(report.rows.at("players"), 7);
  EXPECT_EQ(report.rows.at("games"), 3);
  EXPECT_EQ(report.rows.at("seats"), 7);
  EXPECT_GT(report.rows.at("actions"), 300);
  EXPECT_GE(report.rows.at("snapshots"), 6);
  EXPECT_TRUE(report.differences.empty()) << report.differences.front();

  // The actions' text came over byte for byte.
  Statement first =
      store_->db().prepare("SELECT action FROM actions WHERE game_id = 2 AND seq = 5");
  ASSERT_TRUE(first.step());
  PgStatement copied = target.prepare("SELECT action FROM actions WHERE game_id = 2 AND seq = 5");
  ASSERT_TRUE(copied.step());
  EXPECT_EQ(copied.text(0), first.text(0));

  // A player created after the move gets the next id, not one already taken.
  target.prepare("INSERT INTO players(name, token_hash, created) VALUES('New', 'hash-new', 2)")
      .run();
  EXPECT_EQ(target.last_insert_id(), 8);
}

TEST_F(MoveDb, ATargetThatIsNotEmptyIsRefusedAndLeftAsItWas) {
  PgDatabase target(conninfo());
  target.migrate();
  target.prepare("INSERT INTO players(name, token_hash, created) VALUES('Old', 'hash-old', 1)")
      .run();
  try {
    copy_sqlite_to_postgresql(store_->db(), target);
    ADD_FAILURE() << "copied into a database with rows";
  } catch (const DbError& e) {
    EXPECT_NE(std::string(e.what()).find("not empty"), std::string::npos) << e.what();
  }
  PgStatement count = target.prepare("SELECT COUNT(*) FROM players");
  ASSERT_TRUE(count.step());
  EXPECT_EQ(count.int64(0), 1);
  PgStatement games = target.prepare("SELECT COUNT(*) FROM games");
  ASSERT_TRUE(games.step());
  EXPECT_EQ(games.int64(0), 0);
}

TEST_F(MoveDb, TheComparisonFindsAChangedRowAndAMissingOne) {
  PgDatabase target(conninfo());
  ASSERT_TRUE(copy_sqlite_to_postgresql(store_->db(), target).differences.empty());
  target.prepare("UPDATE actions SET action = action || ' ' WHERE game_id = 1 AND seq = 3").run();
  target.prepare("DELETE FROM snapshots WHERE game_id = 3 AND seq = 50").run();
  const std::vector<std::string> differences = compare_databases(store_->db(), target);
  ASSERT_EQ(differences.size(), 2u);
  EXPECT_NE(differences[0].find("actions: 1 of"), std::string::npos) << differences[0];
  EXPECT_NE(differences[1].find("snapshots:"), std::string::npos) << differences[1];
}

TEST_F(MoveDb, TheWayBackGivesTheSameRowsAndEveryGameReplays) {
  // A finished game, so that a record is verified: whether a random game ends within its actions
  // is chance (its seed follows from a fresh secret), so games are added until one has.
  int games = 3;
  for (std::uint64_t seed = 20;
       store_->games_with_status(GameStatus::kFinished).empty() && seed < 60; ++seed, ++games) {
    Options options;
    options.players = 2;
    test::store_random_game(*store_, options, seed, 400, 50, /*finish=*/true);
  }
  ASSERT_FALSE(store_->games_with_status(GameStatus::kFinished).empty());
  PgDatabase postgresql(conninfo());
  const MoveReport there = copy_sqlite_to_postgresql(store_->db(), postgresql);
  ASSERT_TRUE(there.differences.empty()) << there.differences.front();
  Store back(back_.string());
  const MoveReport report = copy_postgresql_to_sqlite(postgresql, back.db());
  EXPECT_TRUE(report.differences.empty()) << report.differences.front();
  EXPECT_EQ(report.rows, there.rows);
  EXPECT_GT(report.rows.at("actions"), 300);

  // Both files hold the same games: every action replays and every snapshot agrees in each.
  const StoredCheck original = check_every_game(*store_);
  const StoredCheck copy = check_every_game(back);
  EXPECT_TRUE(copy.problems.empty()) << copy.problems.front();
  EXPECT_EQ(copy.games, games);
  EXPECT_EQ(copy.actions, report.rows.at("actions"));
  EXPECT_EQ(copy.actions, original.actions);
  EXPECT_EQ(copy.snapshots, original.snapshots);
  EXPECT_GE(copy.snapshots, 6);
  // And the finished games' records verify in the copy, as in the original.
  const RecordsCheck records = verify_finished_records(back);
  EXPECT_TRUE(records.failures.empty()) << records.failures.front();
  EXPECT_EQ(records.verified, verify_finished_records(*store_).verified);
  EXPECT_GE(records.verified, 1);
  std::printf("[ records     ] %d verify\n", records.verified);
  for (std::int64_t id = 1; id <= games; ++id) {
    EXPECT_EQ(back.game(id)->seq, store_->game(id)->seq);
    EXPECT_EQ(back.actions(id).back().action, store_->actions(id).back().action);
  }
  // A player created after the move gets the next id.
  back.db()
      .prepare("INSERT INTO players(name, token_hash, created) VALUES('New', 'hash-new', 2)")
      .run();
  EXPECT_EQ(back.db().last_insert_id(), report.rows.at("players") + 1);
}

TEST_F(MoveDb, TheWayBackRefusesAFileWithRowsAndADatabaseWithoutAServersData) {
  PgDatabase postgresql(conninfo());
  // No server's schema in PostgreSQL: refused before anything is written or created there.
  {
    Store back(back_.string());
    try {
      copy_postgresql_to_sqlite(postgresql, back.db());
      ADD_FAILURE() << "copied from a database without a server's data";
    } catch (const DbError& e) {
      EXPECT_NE(std::string(e.what()).find("holds no server's data"), std::string::npos)
          << e.what();
    }
    PgStatement tables = postgresql.prepare(
        "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema()");
    ASSERT_TRUE(tables.step());
    EXPECT_EQ(tables.int64(0), 0);
  }
  ASSERT_TRUE(copy_sqlite_to_postgresql(store_->db(), postgresql).differences.empty());
  // A file with rows: refused, and its rows stay as they were.
  Store back(back_.string());
  back.db()
      .prepare("INSERT INTO players(name, token_hash, created) VALUES('Old', 'hash-old', 1)")
      .run();
  try {
    copy_postgresql_to_sqlite(postgresql, back.db());
    ADD_FAILURE() << "copied into a file with rows";
  } catch (const DbError& e) {
    EXPECT_NE(std::string(e.what()).find("not empty"), std::string::npos) << e.what();
  }
  Statement count = back.db().prepare("SELECT COUNT(*), MAX(name) FROM players");
  ASSERT_TRUE(count.step());
  EXPECT_EQ(count.int64(0), 1);
  EXPECT_EQ(count.text(1), "Old");
}

// Runs viktory-move-db; gives its exit status and what it printed (both streams).
std::pair<int, std::string> move_db(const std::string& arguments) {
  return testing::run_command("'" + std::string(VIKTORY_MOVE_DB) + "' " + arguments);
}

TEST_F(MoveDb, TheCommandMovesThereAndBackAndReplaysEveryGame) {
  store_.reset();  // the command opens the file itself, as with the server stopped
  const auto [there, there_output] = move_db(file_.string() + " '" + uri() + "'");
  EXPECT_EQ(there, 0) << there_output;
  EXPECT_NE(there_output.find("every table compares equal"), std::string::npos) << there_output;
  EXPECT_NE(there_output.find("replayed 3 games"), std::string::npos) << there_output;

  const auto [back, back_output] = move_db("'" + uri() + "' " + back_.string());
  EXPECT_EQ(back, 0) << back_output;
  EXPECT_NE(back_output.find("every table compares equal"), std::string::npos) << back_output;
  EXPECT_NE(back_output.find("replayed 3 games"), std::string::npos) << back_output;
  EXPECT_EQ(back_output.find("does not replay"), std::string::npos) << back_output;
  EXPECT_NE(back_output.find("finished games' records verify"), std::string::npos) << back_output;
  EXPECT_EQ(back_output.find("does not verify"), std::string::npos) << back_output;
  // The connection string is never printed (it may hold a password).
  EXPECT_EQ(back_output.find(cluster_->folder()), std::string::npos) << back_output;

  // An existing file is not written over; a second move into the filled database is refused.
  const auto [again, again_output] = move_db("'" + uri() + "' " + back_.string());
  EXPECT_EQ(again, 1);
  EXPECT_NE(again_output.find("exists"), std::string::npos) << again_output;
  const auto [twice, twice_output] = move_db(file_.string() + " '" + uri() + "'");
  EXPECT_EQ(twice, 1);
  EXPECT_NE(twice_output.find("not empty"), std::string::npos) << twice_output;
  // Two files or two databases: which way to move is unclear.
  EXPECT_EQ(move_db(file_.string() + " " + back_.string()).first, 2);
}

TEST_F(MoveDb, AFailedWayBackLeavesNoFileBehind) {
  // The database holds no server's data: the command fails and the new file goes away again.
  const auto [status, output] = move_db("'" + uri() + "' " + back_.string());
  EXPECT_EQ(status, 1) << output;
  EXPECT_NE(output.find("holds no server's data"), std::string::npos) << output;
  EXPECT_FALSE(fs::exists(back_));
}

}  // namespace
}  // namespace viktory::server
