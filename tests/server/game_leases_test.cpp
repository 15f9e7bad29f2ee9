// Game leases (server/storage/game_leases.h): one process serves a game at a time, and one that
// lost a game's lease cannot write it, however late it learns so. Two "processes" are two
// connections to one database; in the pg. copy of these tests, a PostgreSQL database.
#include "game_leases.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

#include "database.h"
#include "store.h"
#include "test_support.h"

namespace viktory::server {
namespace {

using testing::TempDir;

constexpr std::int64_t kTerm = 10'000;
constexpr std::int64_t kStart = 1'800'000'000'000;

class Leases : public ::testing::Test {
 protected:
  TempDir dir;
  Store store{dir.file("leases.db")};  // migrates; its writer is the first process's connection
  Database other{store.db().path()};   // the second process's connection
  GameLeases first{store.db(), "first-process", "http://10.0.0.1:8080", kTerm};
  GameLeases second{other, "second-process", "http://10.0.0.2:8080", kTerm};

  // Games 1 to 9 exist: a lease is only ever taken on a game that does.
  void SetUp() override {
    store.db().exec("INSERT INTO players(id, name, token_hash, created) VALUES(1, 'p', 'h', 0)");
    for (int id = 1; id <= 9; ++id) {
      store.db()
          .prepare(
              "INSERT INTO games(id, options, status, created, creator) "
              "VALUES(?, '{}', 'running', 0, 1)")
          .bind(1, id)
          .run();
    }
  }
};

TEST_F(Leases, AGameThatDoesNotExistGetsNoLease) {
  // Else a client asking a server for made-up game ids would fill the table.
  const Lease none = first.take(1000, kStart);
  EXPECT_EQ(none.owner, "");
  EXPECT_FALSE(first.lease(1000).has_value());
  EXPECT_TRUE(first.held().empty());
}

TEST_F(Leases, AFreeLeaseIsTakenALiveOneIsNotAnExpiredOneIs) {
  EXPECT_FALSE(first.lease(7).has_value());
  const Lease taken = first.take(7, kStart);
  EXPECT_EQ(taken.owner, "first-process");
  EXPECT_EQ(taken.expires, kStart + kTerm);
  // Live: the second process is told who serves the game, and where.
  const Lease refused = second.take(7, kStart + kTerm - 1);
  EXPECT_EQ(refused.owner, "first-process");
  EXPECT_EQ(refused.url, "http://10.0.0.1:8080");
  EXPECT_EQ(first.held(), std::vector<std::int64_t>{7});
  EXPECT_TRUE(second.held().empty());
  // Expired: taken over.
  const Lease over = second.take(7, kStart + kTerm);
  EXPECT_EQ(over.owner, "second-process");
  EXPECT_EQ(over.url, "http://10.0.0.2:8080");
  EXPECT_EQ(over.expires, kStart + 2 * kTerm);
  EXPECT_TRUE(first.held().empty());
  EXPECT_EQ(first.renew(kStart + kTerm + 1), std::vector<std::int64_t>{7});  // told it lost it
}

TEST_F(Leases, TheOwnerRenewsByTakingAgainByWritingAndByRenewingAll) {
  first.take(1, kStart);
  first.take(2, kStart);
  EXPECT_EQ(first.take(1, kStart + kTerm / 2).expires, kStart + kTerm / 2 + kTerm);
  {
    Transaction tx(store.db());
    EXPECT_TRUE(first.hold(2, kStart + kTerm - 1));
    tx.commit();
  }
  EXPECT_EQ(second.take(2, kStart + kTerm + 1).owner, "first-process");
  EXPECT_TRUE(first.renew(kStart + 2 * kTerm).empty());
  EXPECT_EQ(first.lease(1)->expires, kStart + 3 * kTerm);
  EXPECT_EQ(first.lease(2)->expires, kStart + 3 * kTerm);
  EXPECT_EQ(second.take(1, kStart + 3 * kTerm - 1).owner, "first-process");
}

// The fencing [the reason leases exist]: a process that stalled past its lease, while another
// took the game, finds out in its own write transaction and writes nothing.
TEST_F(Leases, AProcessThatLostTheLeaseCannotWriteTheGame) {
  Database& db = store.db();
  db.exec("CREATE TABLE moves(game_id INTEGER, n INTEGER)");
  const auto write = [&](GameLeases& leases, Database& conn, std::int64_t now, int n) {
    Transaction tx(conn);
    if (!leases.hold(3, now)) return false;  // the caller rolls back
    conn.prepare("INSERT INTO moves VALUES(3, ?)").bind(1, n).run();
    tx.commit();
    return true;
  };
  first.take(3, kStart);
  EXPECT_TRUE(write(first, db, kStart + 1, 1));
  second.take(3, kStart + 1 + kTerm);  // the first stalled past its renewed lease
  EXPECT_FALSE(write(first, db, kStart + 2 + kTerm, 2));
  EXPECT_TRUE(write(second, other, kStart + 3 + kTerm, 3));
  Statement s = db.prepare("SELECT n FROM moves ORDER BY n");
  std::vector<std::int64_t> kept;
  while (s.step()) kept.push_back(s.int64(0));
  EXPECT_EQ(kept, (std::vector<std::int64_t>{1, 3}));
}

// A takeover that comes while the owner's write transaction is open waits for it, and then
// finds the lease renewed by that write: the two never both believe they may write.
TEST_F(Leases, ATakeoverWaitsForTheOwnersOpenWriteAndThenFindsItRenewed) {
  first.take(4, kStart);
  std::future<Lease> takeover;
  {
    Transaction tx(store.db());
    ASSERT_TRUE(first.hold(4, kStart + kTerm - 1));  // renewed, not yet committed
    takeover = std::async(std::launch::async, [&] { return second.take(4, kStart + kTerm + 1); });
    EXPECT_EQ(takeover.wait_for(std::chrono::milliseconds(300)), std::future_status::timeout);
    tx.commit();
  }
  EXPECT_EQ(takeover.get().owner, "first-process");
}

TEST_F(Leases, AReleasedGameIsTakenAtOnceAndItsOldOwnerNoLongerHoldsIt) {
  first.take(5, kStart);
  first.take(6, kStart);
  first.release(5);
  EXPECT_EQ(second.take(5, kStart + 1).owner, "second-process");
  first.release_all();
  {
    Transaction tx(store.db());
    EXPECT_FALSE(first.hold(6, kStart + 2));  // given away: not written any more
  }
  EXPECT_TRUE(first.held().empty());
  EXPECT_TRUE(first.renew(kStart + 3).empty());  // it knew it gave them away
  EXPECT_EQ(second.take(6, kStart + 4).owner, "second-process");
}

}  // namespace
}  // namespace viktory::server
