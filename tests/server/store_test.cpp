#include "store.h"

#include <gtest/gtest.h>

#include "game.h"
#include "test_support.h"
#include "token.h"

namespace viktory::server {
namespace {

using testing::TempDir;

GameRecord open_game(const PlayerRecord& creator, int seats) {
  GameRecord g;
  g.options.players = seats;
  g.created = 1000;
  g.creator = creator;
  g.seats.push_back(SeatRecord{0, creator.id, creator.name, ""});
  return g;
}

// --db takes a file or a PostgreSQL URI; what is logged of a URI has no password.
TEST(DatabaseLocation, PostgresqlUrisAreRecognizedAndTheirPasswordsNeverShown) {
  EXPECT_TRUE(is_postgresql_location("postgresql://u@h/db"));
  EXPECT_TRUE(is_postgresql_location("postgres:///db?host=/run/postgresql"));
  EXPECT_FALSE(is_postgresql_location("./viktory.db"));
  EXPECT_FALSE(is_postgresql_location("/data/postgresql://x.db"));
  EXPECT_EQ(redacted_location("postgresql://viktory:s3cret@db.example:5432/viktory"),
            "postgresql://viktory:***@db.example:5432/viktory");
  EXPECT_EQ(redacted_location("postgresql://viktory@db/viktory?password=s3cret&sslmode=require"),
            "postgresql://viktory@db/viktory?password=***&sslmode=require");
  EXPECT_EQ(redacted_location("postgresql:///viktory?host=/run/postgresql&password=a:b@c"),
            "postgresql:///viktory?host=/run/postgresql&password=***");
  EXPECT_EQ(redacted_location("postgresql://db/viktory"), "postgresql://db/viktory");
  EXPECT_EQ(redacted_location("/data/a:b@c.db"), "/data/a:b@c.db");  // a file is shown as is
}

TEST(Store, MigratesToTheCurrentSchemaOnceAndReopens) {
  TempDir dir;
  {
    Store store(dir.file("a.db"));
    EXPECT_EQ(store.schema_version(), Store::kSchemaVersion);
    store.create_player("Alice", "hash-a", 1);
  }
  Store again(dir.file("a.db"));  // migrations must not run twice
  EXPECT_EQ(again.schema_version(), Store::kSchemaVersion);
  ASSERT_TRUE(again.player_by_token_hash("hash-a"));
  EXPECT_EQ(again.player_by_token_hash("hash-a")->name, "Alice");
}

TEST(Store, RefusesADatabaseFromANewerServer) {
  TempDir dir;
  {
    Database db(dir.file("future.db"));
    db.exec("PRAGMA user_version = 99");
  }
  EXPECT_THROW(Store(dir.file("future.db")), DbError);
}

TEST(Store, UsesWriteAheadLogging) {
  TempDir dir;
  Store store(dir.file("w.db"));
  Statement s = store.db().prepare("PRAGMA journal_mode");
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.text(0), "wal");
}

TEST(Store, PlayersAreFoundByTokenHashOnly) {
  TempDir dir;
  Store store(dir.file("p.db"));
  const std::string token = new_token();
  const PlayerRecord alice = store.create_player("Alice", token_hash(token), 5);
  EXPECT_EQ(store.player_by_token_hash(token_hash(token))->id, alice.id);
  EXPECT_FALSE(store.player_by_token_hash(token));  // the raw token is not stored
  Statement s = store.db().prepare("SELECT count(*) FROM players WHERE token_hash = ?");
  s.bind(1, token);
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.int64(0), 0);
}

TEST(Store, GamesSeatsAndStatus) {
  TempDir dir;
  Store store(dir.file("g.db"));
  const PlayerRecord alice = store.create_player("Alice", "a", 1);
  const PlayerRecord bob = store.create_player("Bob", "b", 1);
  GameRecord g = open_game(alice, 3);
  const std::int64_t id = store.create_game(g);
  EXPECT_GT(id, 0);
  store.replace_seats(id, {{0, alice.id, "Alice", ""}, {2, bob.id, "Bob", ""}}, 2);
  auto loaded = store.game(id);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->status, GameStatus::kOpen);
  EXPECT_EQ(loaded->options.players, 3);
  ASSERT_EQ(loaded->seats.size(), 2u);
  EXPECT_EQ(loaded->seats[1].seat, 2);
  EXPECT_EQ(loaded->seats[1].name, "Bob");
  EXPECT_EQ(store.games_with_status(GameStatus::kOpen).size(), 1u);
  EXPECT_EQ(store.games_of_player(bob.id).size(), 1u);
  store.cancel_game(id);
  EXPECT_EQ(store.game(id)->status, GameStatus::kCancelled);
  EXPECT_FALSE(store.game(id + 100));
}

TEST(Store, ActionLogSnapshotsAndUndo) {
  TempDir dir;
  Store store(dir.file("l.db"));
  const PlayerRecord alice = store.create_player("Alice", "a", 1);
  GameRecord g = open_game(alice, 2);
  store.create_game(g);
  g.seed = 0xFEDCBA9876543210ULL;  // above INT64_MAX: must survive the signed column
  g.status = GameStatus::kRunning;
  store.start_game(g);
  EXPECT_EQ(store.game(g.id)->seed, 0xFEDCBA9876543210ULL);

  const GameState state = new_game(g.options, g.seed, g.random_scheme);
  for (int seq = 1; seq <= 3; ++seq) {
    ActionCommit c;
    c.game_id = g.id;
    // Who decided: the player (1), his standing order (2), the clock (3).
    const ActionSource by[] = {ActionSource::kPlayer, ActionSource::kStandingOrder,
                               ActionSource::kClock};
    c.record = ActionRecord{seq, act::end_phase(seq % 2), seq == 2, 1, 100 + seq, by[seq - 1]};
    c.current_seat = seq % 2;
    if (seq == 2) c.snapshot = &state;
    store.commit_action(c);
  }
  auto log = store.actions(g.id);
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[1].seq, 2);
  EXPECT_TRUE(log[1].sealed);
  EXPECT_EQ(log[2].action, act::end_phase(1));
  EXPECT_EQ(log[0].source, ActionSource::kPlayer);
  EXPECT_EQ(log[1].source, ActionSource::kStandingOrder);
  EXPECT_EQ(log[2].source, ActionSource::kClock);
  Statement stored_null =
      store.db().prepare("SELECT count(*) FROM actions WHERE source IS NULL AND game_id = ?");
  stored_null.bind(1, g.id);
  ASSERT_TRUE(stored_null.step());
  EXPECT_EQ(stored_null.int64(0), 1);  // the player's own: nothing stored
  EXPECT_EQ(store.game(g.id)->seq, 3);
  EXPECT_EQ(store.actions(g.id, 2).size(), 1u);

  auto snap = store.latest_snapshot(g.id, 3);
  ASSERT_TRUE(snap);
  EXPECT_EQ(snap->first, 2);
  EXPECT_EQ(snap->second, state);
  EXPECT_FALSE(store.latest_snapshot(g.id, 1));

  // Undo of action 3 leaves the snapshot at 2; undo of 2 removes it as well.
  store.remove_last_action(g.id, 3, 0);
  EXPECT_EQ(store.actions(g.id).size(), 2u);
  EXPECT_TRUE(store.latest_snapshot(g.id, 10));
  store.remove_last_action(g.id, 2, 1);
  EXPECT_FALSE(store.latest_snapshot(g.id, 10));
  EXPECT_EQ(store.game(g.id)->seq, 1);
  EXPECT_THROW(store.remove_last_action(g.id, 5, 0), DbError);

  // A duplicate seq is refused by the primary key: an action is never stored twice.
  ActionCommit dup;
  dup.game_id = g.id;
  dup.record = ActionRecord{1, act::end_phase(0), false, 1, 1};
  EXPECT_THROW(store.commit_action(dup), DbError);
  EXPECT_EQ(store.actions(g.id).size(), 1u);
}

TEST(Store, FinishingAGameStoresTheResult) {
  TempDir dir;
  Store store(dir.file("f.db"));
  const PlayerRecord alice = store.create_player("Alice", "a", 1);
  GameRecord g = open_game(alice, 2);
  store.create_game(g);
  store.start_game(g);
  ActionCommit c;
  c.game_id = g.id;
  c.record = ActionRecord{1, act::concede(1), false, 1, 7};
  c.finished = nlohmann::json{{"winners", {0}}, {"ended_by", "standard"}};
  store.commit_action(c);
  auto loaded = store.game(g.id);
  EXPECT_EQ(loaded->status, GameStatus::kFinished);
  ASSERT_TRUE(loaded->result);
  EXPECT_EQ((*loaded->result)["winners"][0], 0);
  EXPECT_EQ(loaded->last_move_at, 7);
}

TEST(Store, ChatKeepsTheMostRecentInOrder) {
  TempDir dir;
  Store store(dir.file("c.db"));
  const PlayerRecord alice = store.create_player("Alice", "a", 1);
  GameRecord g = open_game(alice, 2);
  store.create_game(g);
  for (int i = 0; i < 5; ++i) {
    store.add_chat(g.id, ChatRecord{i, alice.id, 0, "Alice", "line " + std::to_string(i)});
  }
  auto recent = store.recent_chat(g.id, 3);
  ASSERT_EQ(recent.size(), 3u);
  EXPECT_EQ(recent[0].text, "line 2");
  EXPECT_EQ(recent[2].text, "line 4");
  EXPECT_EQ(recent[2].seat, 0);
}

}  // namespace
}  // namespace viktory::server
