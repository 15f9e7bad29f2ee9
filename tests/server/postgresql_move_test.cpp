// Moving a database from SQLite to PostgreSQL (server/storage/move_db.h), on a throwaway cluster:
// a database with stored random games is copied row for row, the copy compares equal, new ids go
// on after the copied ones, a target that is not empty is refused, and a changed row is found.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "move_db.h"
#include "pg_database.h"
#include "store.h"
#include "support/postgresql_fixture.h"
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
    fs::remove(file_);
    store_ = std::make_unique<Store>(file_.string());
    // Games of two and three players, some finished, with snapshots, seats and players.
    for (std::uint64_t seed : {11u, 12u, 13u}) {
      Options options;
      options.players = seed == 12 ? 3 : 2;
      test::store_random_game(*store_, options, seed, 260, 50);
    }
  }
  void TearDown() override {
    store_.reset();
    if (!file_.empty()) {
      for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(file_.string() + suffix);
    }
  }

  fs::path file_;
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

}  // namespace
}  // namespace viktory::server
