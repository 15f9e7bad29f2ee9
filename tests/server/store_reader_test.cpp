// The Store's read-only connection and its statements prepared once (server/storage/store.h,
// server/storage/database.h): reads proceed while the writer holds a transaction, see only what is
// committed, and the hot statements are reused instead of prepared per call.
#include <gtest/gtest.h>

#include <chrono>
#include <future>

#include "database.h"
#include "game.h"
#include "store.h"
#include "test_support.h"

namespace viktory::server {
namespace {

using testing::TempDir;

// Prepared statements alive on a connection, and how many of them are in the middle of a
// step (an unfinished statement keeps a read or write transaction open).
struct StatementCount {
  int prepared = 0;
  int busy = 0;
};
StatementCount statements_of(Database& db) {
  StatementCount count;
  for (sqlite3_stmt* s = sqlite3_next_stmt(db.handle(), nullptr); s != nullptr;
       s = sqlite3_next_stmt(db.handle(), s)) {
    ++count.prepared;
    if (sqlite3_stmt_busy(s)) ++count.busy;
  }
  return count;
}

struct Fixture {
  TempDir dir;
  Store store{dir.file("r.db")};
  PlayerRecord alice = store.create_player("Alice", "hash-a", 1);
  GameRecord game;
  GameState state;

  Fixture() {
    game.options.players = 2;
    game.created = 1000;
    game.creator = alice;
    game.seats.push_back(SeatRecord{0, alice.id, "Alice", ""});
    store.create_game(game);
    game.status = GameStatus::kRunning;
    game.seed = 99;
    store.start_game(game);
    state = new_game(game.options, game.seed, game.random_scheme);
    commit(1, true);
    store.add_chat(game.id, ChatRecord{5, alice.id, 0, "Alice", "hello"});
  }

  void commit(int seq, bool with_snapshot = false) {
    ActionCommit c;
    c.game_id = game.id;
    c.record = ActionRecord{seq, act::end_phase(0), false, 1, 100 + seq};
    c.current_seat = seq % 2;
    if (with_snapshot) c.snapshot = &state;
    store.commit_action(c);
  }
};

// What the server reads outside a game's transaction: sign-in, lobby lists, a game and its
// log (loading a room, replays), chat.
struct Reads {
  bool player = false;
  std::size_t running = 0;
  std::size_t mine = 0;
  int seq = 0;
  std::size_t actions = 0;
  bool snapshot = false;
  std::size_t chat = 0;
};
Reads read_everything(Store& store, std::int64_t game_id, std::int64_t player_id) {
  Reads r;
  r.player = store.player_by_token_hash("hash-a").has_value();
  r.running = store.games_with_status(GameStatus::kRunning).size();
  r.mine = store.games_of_player(player_id).size();
  r.seq = store.game(game_id)->seq;
  r.actions = store.actions(game_id).size();
  r.snapshot = store.latest_snapshot(game_id, 100).has_value();
  r.chat = store.recent_chat(game_id, 10).size();
  return r;
}

TEST(StoreReader, ReadsProceedWhileTheWriterHoldsATransaction) {
  Fixture f;
  f.store.start_group_commit();
  std::future<Reads> reads;
  {
    // The writer's connection is taken (its lock held, BEGIN IMMEDIATE done) and has written
    // rows it has not committed: as during a group commit waiting for its fsync.
    Transaction tx(f.store.db());
    f.store.db().prepare("UPDATE games SET seq = 42 WHERE id = ?").bind(1, f.game.id).run();
    f.store.db()
        .prepare(
            "INSERT INTO chat(game_id, player_id, seat, name, text, at) "
            "VALUES(?, ?, 0, 'Alice', 'uncommitted', 6)")
        .bind(1, f.game.id)
        .bind(2, f.alice.id)
        .run();
    reads = std::async(std::launch::async,
                       [&] { return read_everything(f.store, f.game.id, f.alice.id); });
    // Before, every read waited for the writer's lock: this wait ran out and the test failed.
    ASSERT_EQ(reads.wait_for(std::chrono::seconds(20)), std::future_status::ready)
        << "a read waited for the writer's transaction";
    const Reads r = reads.get();
    EXPECT_TRUE(r.player);
    EXPECT_EQ(r.running, 1u);
    EXPECT_EQ(r.mine, 1u);
    EXPECT_EQ(r.seq, 1) << "a read saw a write that is not committed";
    EXPECT_EQ(r.actions, 1u);
    EXPECT_TRUE(r.snapshot);
    EXPECT_EQ(r.chat, 1u);
    tx.commit();
  }
  // Committed: the reader sees it at once.
  EXPECT_EQ(f.store.game(f.game.id)->seq, 42);
  EXPECT_EQ(f.store.recent_chat(f.game.id, 10).size(), 2u);
  // And an action committed through the writer thread is read back.
  f.commit(43);
  EXPECT_EQ(f.store.actions(f.game.id).size(), 2u);
  EXPECT_EQ(f.store.game(f.game.id)->seq, 43);
}

TEST(StoreReader, ReadsSeeEachCommitOfTheWriter) {
  Fixture f;
  for (int seq = 2; seq <= 30; ++seq) {
    f.commit(seq, seq % 10 == 0);
    ASSERT_EQ(f.store.game(f.game.id)->seq, seq);
    ASSERT_EQ(static_cast<int>(f.store.actions(f.game.id).size()), seq);
    const int snapshot_at = seq < 10 ? 1 : seq - seq % 10;  // the fixture's, then every 10th
    ASSERT_EQ(f.store.latest_snapshot(f.game.id, seq)->first, snapshot_at);
  }
}

TEST(StoreReader, HotStatementsArePreparedOnceAndLeftReset) {
  Fixture f;
  Reads first = read_everything(f.store, f.game.id, f.alice.id);
  const StatementCount after_one = statements_of(f.store.db());
  for (int seq = 2; seq <= 20; ++seq) f.commit(seq, seq == 10);
  for (int i = 0; i < 5; ++i) first = read_everything(f.store, f.game.id, f.alice.id);
  const StatementCount after_many = statements_of(f.store.db());
  // The action's INSERT, the snapshot's and the game's UPDATE stay prepared; more actions do
  // not prepare more.
  EXPECT_GE(after_one.prepared, 3);
  EXPECT_EQ(after_many.prepared, after_one.prepared);
  EXPECT_EQ(after_many.busy, 0) << "a cached statement was left unfinished";
  EXPECT_EQ(first.actions, 20u);
}

TEST(StoreReader, TheSameStatementTwiceAtOnceIsPreparedAfresh) {
  TempDir dir;
  Database db(dir.file("d.db"));
  db.exec("CREATE TABLE t(x INTEGER); INSERT INTO t VALUES(1), (2), (3)");
  const auto guard = db.lock();
  Statement outer = db.cached("SELECT x FROM t ORDER BY x");
  ASSERT_TRUE(outer.step());
  EXPECT_EQ(outer.int64(0), 1);
  {
    Statement inner = db.cached("SELECT x FROM t ORDER BY x");  // outer is still stepping
    int rows = 0;
    while (inner.step()) ++rows;
    EXPECT_EQ(rows, 3);
  }
  ASSERT_TRUE(outer.step());
  EXPECT_EQ(outer.int64(0), 2);  // not disturbed by inner
  // Bindings do not carry over from one use to the next.
  db.cached("INSERT INTO t VALUES(?)").bind(1, 7).run();
  db.cached("INSERT INTO t VALUES(?)").run();  // unbound: NULL
  Statement nulls = db.prepare("SELECT count(*) FROM t WHERE x IS NULL");
  ASSERT_TRUE(nulls.step());
  EXPECT_EQ(nulls.int64(0), 1);
}

}  // namespace
}  // namespace viktory::server
