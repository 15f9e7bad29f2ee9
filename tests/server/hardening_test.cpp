// Hardening of the game logic, without sockets: storage failures (a real failing VFS), damaged
// stored games, the startup checks, the last seat and the start in one transaction, private
// games and invites, display names. What watchers get is in hardening_views_test.cpp.
#include "hardening_support.h"

namespace viktory::server {
namespace {

using namespace hardening;  // NOLINT: the shared fixtures

// ------------------------------------------------------------------ storage failures [item 5]

// The files a crash would leave behind right now, opened as a restart would open them.
int seq_after_crash(const TempDir& dir, const std::string& file, std::int64_t id) {
  static int copies = 0;
  const std::string copy = dir.file("crash-" + std::to_string(++copies) + ".db");
  std::filesystem::copy_file(file, copy);
  if (std::filesystem::exists(file + "-wal")) {
    std::filesystem::copy_file(file + "-wal", copy + "-wal");
  }
  Store restarted(copy);
  EXPECT_EQ(restarted.actions(id).size(), static_cast<std::size_t>(restarted.game(id)->seq));
  return restarted.game(id)->seq;
}

class StorageFailure : public ::testing::Test {
 protected:
  void SetUp() override {
    HubOptions options;
    options.health_retry_seconds = 0;
    f = std::make_unique<HubFixture>(file(), options);
    f->connect(a, "Alice");
    f->connect(b, "Bob");
    f->connect(watcher, "Carol");
    id = f->start_game(a, b);
    f->send(watcher, {{"type", "game.watch"}, {"game_id", id}});
    f->act(a, b, id);  // seq 1, committed
    ASSERT_EQ(HubFixture::latest(a)["seq"], 1);
  }
  std::string file() const { return dir.file("fail.db"); }

  TempDir dir;
  FailingVfs vfs;  // registered before the database is opened
  std::unique_ptr<HubFixture> f;
  FakeClient a, b, watcher;
  std::int64_t id = 0;
};

TEST_F(StorageFailure, AFailedCommitReloadsTheGameAndTellsItsPlayersTheTruth) {
  vfs.fail_next_syncs(1);  // the COMMIT's fsync fails; the disk works again right after
  FakeClient& mover = f->act(a, b, id);
  ASSERT_EQ(vfs.failures(), 1);
  EXPECT_EQ(mover.last("error")["code"], "storage_error");
  EXPECT_EQ(f->metrics.storage_failures, 1);

  // What a crash would leave now is what everyone watching was told, with a notice.
  const int stored = seq_after_crash(dir, file(), id);
  for (FakeClient* c : {&a, &b, &watcher}) {
    const json notice = c->last("game.notice");
    ASSERT_FALSE(notice.is_null());
    EXPECT_EQ(notice["code"], "storage_error");
    EXPECT_EQ(notice["game_id"], id);
    EXPECT_EQ(HubFixture::latest(*c)["type"], "game.state");
    EXPECT_EQ(HubFixture::latest(*c)["seq"], stored);
  }

  // The game goes on from there; the database is healthy again.
  EXPECT_TRUE(f->hub.health().ok);
  const json now = HubFixture::latest(mover);
  f->send(mover, {{"type", "game.action"},
                  {"game_id", id},
                  {"seq", now["seq"]},
                  {"action", now["legal"][0]},
                  {"req", 9}});
  EXPECT_EQ(mover.messages.back(), json({{"type", "ack"}, {"req", 9}}));
  EXPECT_EQ(f->store.game(id)->seq, stored + 1);
}

TEST_F(StorageFailure, WhileTheDiskKeepsFailingTheGameIsUnavailableThenComesBack) {
  vfs.fail_syncs(true);
  FakeClient& mover = f->act(a, b, id);
  EXPECT_EQ(mover.last("error")["code"], "game_unavailable");
  for (FakeClient* c : {&a, &b, &watcher}) {
    EXPECT_EQ(c->last("game.notice")["code"], "game_unavailable");
  }
  // Nobody is shown a position that a crash might not keep.
  f->send(watcher, {{"type", "game.watch"}, {"game_id", id}, {"req", 3}});
  EXPECT_EQ(watcher.last("error")["code"], "game_unavailable");
  EXPECT_FALSE(f->hub.health().ok);

  vfs.fail_syncs(false);
  f->send(watcher, {{"type", "game.watch"}, {"game_id", id}, {"req", 4}});
  EXPECT_EQ(watcher.messages.back(), json({{"type", "ack"}, {"req", 4}}));
  const int shown = HubFixture::latest(watcher)["seq"];
  EXPECT_EQ(shown, seq_after_crash(dir, file(), id));
  EXPECT_TRUE(f->hub.health().ok);
}

TEST(Health, SaysWhenTheDatabaseCannotBeWritten) {
  TempDir dir;
  FailingVfs vfs;
  HubOptions options;
  options.health_retry_seconds = 0;
  options.health_probe_seconds = 0;
  HubFixture f(dir.file("health.db"), options);
  EXPECT_TRUE(f.hub.health().ok);
  vfs.fail_writes(true);
  const Health bad = f.hub.health();
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.detail.find("cannot be written"), std::string::npos) << bad.detail;
  vfs.fail_writes(false);
  EXPECT_TRUE(f.hub.health().ok);
}

// ------------------------------------------------------------------ startup [item 7]

TEST(Startup, ADatabaseThatCannotBeWrittenIsRefusedAtOnce) {
  TempDir dir;
  const std::string file = dir.file("ro.db");
  { Store create(file); }
  FailingVfs vfs;
  vfs.open_read_only(true);
  try {
    Store store(file);
    FAIL() << "a read-only database was accepted";
  } catch (const DbError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot be written"), std::string::npos) << e.what();
  }
  vfs.open_read_only(false);
  vfs.fail_writes(true);
  EXPECT_THROW(Store{file}, DbError);
  vfs.fail_writes(false);
  EXPECT_NO_THROW(Store{file});
}

TEST(Startup, AMalformedOpenGameIsIsolated) {
  TempDir dir;
  const std::string file = dir.file("bad.db");
  std::int64_t good_id = 0, bad_id = 0;
  {
    HubFixture f(file);
    FakeClient a;
    f.connect(a, "Alice");
    f.send(a, {{"type", "game.create"}, {"seats", 3}});
    good_id = a.last("game.created")["game_id"];
    f.send(a, {{"type", "game.create"}, {"seats", 2}});
    bad_id = a.last("game.created")["game_id"];
    f.store.db().exec("UPDATE games SET options = '{not json' WHERE id = " +
                      std::to_string(bad_id));
    f.hub.on_close(&a);
  }
  // Before, the whole server refused to start here.
  HubFixture f(file);
  FakeClient b;
  f.connect(b, "Bob");
  f.send(b, {{"type", "lobby.subscribe"}});
  const json lobby = b.last("lobby");
  ASSERT_EQ(lobby["games"].size(), 1u);
  EXPECT_EQ(lobby["games"][0]["game_id"], good_id);
  f.send(b, {{"type", "game.watch"}, {"game_id", bad_id}, {"req", 4}});
  EXPECT_EQ(b.last("error")["code"], "game_damaged");
  EXPECT_EQ(f.hub.handle_api("GET", "/api/games/" + std::to_string(bad_id), "", "").status, 503);
  f.send(b, {{"type", "game.join"}, {"game_id", good_id}, {"req", 5}});
  EXPECT_EQ(b.messages.back(), json({{"type", "ack"}, {"req", 5}}));
}

// ------------------------------------------------------------------ damaged action log [item 6]

class DamagedLog : public ::testing::Test {
 protected:
  // A running game with `actions` actions, and a second one; the Hub is gone afterwards.
  void SetUp() override {
    HubFixture f(file());
    FakeClient a, b;
    f.connect(a, "Alice");
    f.connect(b, "Bob");
    game = f.start_game(a, b);
    for (int i = 0; i < 6; ++i) f.act(a, b, game);
    other = f.start_game(a, b);
    ASSERT_EQ(f.store.game(game)->seq, 6);
    f.hub.on_close(&a);
    f.hub.on_close(&b);
  }
  std::string file() const { return dir.file("log.db"); }
  // Opens a Hub again; a watcher of `game` gets its answer.
  json watch_answer(HubFixture& f, std::int64_t id) {
    FakeClient c;
    f.connect(c, "Dora");
    f.send(c, {{"type", "game.watch"}, {"game_id", id}, {"req", 1}});
    const json answer = c.messages.back();
    f.hub.on_close(&c);
    return answer;
  }

  TempDir dir;
  std::int64_t game = 0, other = 0;
};

TEST_F(DamagedLog, AGapInTheActionLogRefusesTheGame) {
  {
    Store store(file());
    store.db().exec("DELETE FROM actions WHERE game_id = " + std::to_string(game) + " AND seq = 3");
  }
  HubFixture f(file());
  const json answer = watch_answer(f, game);
  EXPECT_EQ(answer["type"], "error");
  EXPECT_EQ(answer["code"], "game_damaged");
  // The rest of the server goes on.
  EXPECT_EQ(watch_answer(f, other), json({{"type", "ack"}, {"req", 1}}));
}

TEST_F(DamagedLog, ALogThatDisagreesWithTheGameRowRefusesTheGame) {
  {
    Store store(file());
    store.db().exec("DELETE FROM actions WHERE game_id = " + std::to_string(game) + " AND seq = 6");
  }
  {
    HubFixture f(file());
    EXPECT_EQ(watch_answer(f, game)["code"], "game_damaged");
  }  // one server on the database at a time (PostgreSQL refuses two)
  {
    Store store(file());
    store.db().exec("UPDATE games SET seq = 5 WHERE id = " + std::to_string(game));
  }
  HubFixture again(file());
  EXPECT_EQ(watch_answer(again, game), json({{"type", "ack"}, {"req", 1}}));
}

TEST_F(DamagedLog, ReplaysOfADamagedGameAreRefusedToo) {
  {
    Store store(file());
    store.db().exec("UPDATE games SET status = 'finished' WHERE id = " + std::to_string(game));
    store.db().exec("DELETE FROM actions WHERE game_id = " + std::to_string(game) + " AND seq = 2");
  }
  HubFixture f(file());
  const ApiResponse r =
      f.hub.handle_api("GET", "/api/games/" + std::to_string(game) + "/replay", "", "");
  EXPECT_EQ(r.status, 503) << r.body;
  EXPECT_NE(r.body.find("game_damaged"), std::string::npos);
}

// ------------------------------------------------------------------ one transaction [item 10]

TEST(JoinAndStart, TheLastSeatAndTheStartAreOneTransaction) {
  TempDir dir;
  HubFixture f(dir.file("tx.db"));
  f.round.enabled = false;  // the players reveal by hand here
  FakeClient a, b;
  f.connect(a, "Alice");
  f.connect(b, "Bob");
  f.send(a, {{"type", "game.create"},
             {"seats", 2},
             {"contribution_commitment", testing::test_commitment(1)}});
  const std::int64_t id = a.last("game.created")["game_id"];
  // The last seat and the reveal round: one transaction (the seat and the round's deadline).
  f.send(b, {{"type", "game.join"},
             {"game_id", id},
             {"contribution_commitment", testing::test_commitment(2)},
             {"req", 2}});
  EXPECT_EQ(column(f.store, "SELECT count(*) FROM seats WHERE game_id = " + std::to_string(id)), 2);
  EXPECT_EQ(
      column(f.store, "SELECT count(*) FROM reveal_rounds WHERE game_id = " + std::to_string(id)),
      1);
  const auto reveal = [&](FakeClient& c, int n, int req) {
    f.send(c, {{"type", "game.contribute"},
               {"game_id", id},
               {"contribution", protocol::fair::to_hex(testing::test_contribution(n))},
               {"req", req}});
  };
  reveal(a, 1, 3);
  // The start fails inside SQLite (a real failure of the second statement, not a mock).
  f.store.db().exec(
      "CREATE TRIGGER refuse_start BEFORE UPDATE OF status ON games WHEN NEW.status = 'running' "
      "BEGIN SELECT RAISE(ABORT, 'start refused for the test'); END");
  reveal(b, 2, 4);
  EXPECT_EQ(b.last("error")["code"], "internal");
  // Neither the last reveal nor the start: the game is as it was, in the database and in memory.
  EXPECT_EQ(column(f.store,
                   "SELECT count(*) FROM seat_fair_play WHERE contribution != '' AND "
                   "game_id = " +
                       std::to_string(id)),
            1);
  EXPECT_EQ(f.store.game(id)->status, GameStatus::kOpen);
  f.store.db().exec("DROP TRIGGER refuse_start");
  reveal(b, 2, 5);
  EXPECT_EQ(b.messages.back(), json({{"type", "ack"}, {"req", 5}}));
  EXPECT_EQ(f.store.game(id)->status, GameStatus::kRunning);
  EXPECT_EQ(column(f.store, "SELECT count(*) FROM seats WHERE game_id = " + std::to_string(id)), 2);
  EXPECT_EQ(column(f.store, "SELECT count(*) FROM reveal_rounds"), 0);
}

// ------------------------------------------------------------------ invites, names [item 9]

TEST(Invites, AreStoredHashedAndNeverShownAgain) {
  TempDir dir;
  HubFixture f(dir.file("inv.db"));
  FakeClient a;
  f.connect(a, "Alice");
  f.send(a, {{"type", "game.create"}, {"seats", 2}, {"private", true}});
  const json created = a.last("game.created");
  const std::string code = created["invite"];
  const std::int64_t id = created["game_id"];
  EXPECT_EQ(column(f.store, "SELECT count(*) FROM games WHERE invite_code IS NOT NULL"), 0);
  Statement s = f.store.db().prepare("SELECT invite_hash FROM games WHERE id = ?");
  s.bind(1, id);
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.text(0), sha256_hex(code));
  // Nothing the server sends later contains the code.
  FakeClient b;
  f.connect(b, "Bob");
  f.send(b, {{"type", "game.join"}, {"game_id", id}, {"invite", code}});
  for (const FakeClient* c : {&a, &b}) {
    for (std::size_t i = 1; i < c->raw.size(); ++i) {
      if (c->messages[i].value("type", "") == "game.created") continue;
      EXPECT_EQ(c->raw[i]->find(code), std::string::npos) << *c->raw[i];
    }
  }
}

TEST(Invites, APrivateGameWithoutItsInviteLooksLikeNoGameAtAll) {
  TempDir dir;
  HubFixture f(dir.file("hidden.db"));
  FakeClient a, b, eve;
  f.connect(a, "Alice");
  f.connect(b, "Bob");
  f.connect(eve, "Eve");
  const std::int64_t id = f.start_game(a, b, {{"private", true}});
  const std::string missing = std::to_string(id + 1000);
  const ApiResponse none = f.hub.handle_api("GET", "/api/games/" + missing, "", "");
  const ApiResponse hidden = f.hub.handle_api("GET", "/api/games/" + std::to_string(id), "", "");
  EXPECT_EQ(hidden.status, none.status);
  EXPECT_EQ(hidden.body, none.body);
  EXPECT_EQ(
      f.hub
          .handle_api("GET", "/api/games/" + std::to_string(id) + "?invite=" + std::string(32, 'a'),
                      "", "")
          .body,
      none.body);
  // Over the WebSocket: every request about it answers "not_found", like for a missing game,
  // whatever its status (it is running: a non-member must not learn that either).
  for (const char* type :
       {"game.watch", "game.join", "chat.send", "game.start", "game.leave", "game.undo",
        "game.action", "game.invite", "game.commit", "game.contribute"}) {
    json m{{"type", type},
           {"game_id", id},
           {"seq", 0},
           {"text", "hi"},
           {"action", {{"kind", "end_phase"}}}};
    f.send(eve, m);
    EXPECT_EQ(eve.last("error")["code"], "not_found") << type;
    m["game_id"] = id + 1000;
    f.send(eve, m);
    EXPECT_EQ(eve.last("error")["code"], "not_found") << type;
  }
  const ApiResponse replay =
      f.hub.handle_api("GET", "/api/games/" + std::to_string(id) + "/replay", "", "");
  EXPECT_EQ(replay.status, 404);
}

TEST(Invites, TheCreatorMayIssueANewCodeAndTheOldOneStopsWorking) {
  TempDir dir;
  HubFixture f(dir.file("renew.db"));
  FakeClient a, b;
  f.connect(a, "Alice");
  f.connect(b, "Bob");
  f.send(a, {{"type", "game.create"}, {"seats", 3}, {"private", true}});
  const std::int64_t id = a.last("game.created")["game_id"];
  const std::string old_code = a.last("game.created")["invite"];
  f.send(b, {{"type", "game.join"}, {"game_id", id}, {"invite", old_code}});
  ASSERT_TRUE(b.last("error").is_null());
  f.send(b, {{"type", "game.invite"}, {"game_id", id}});
  EXPECT_EQ(b.last("error")["code"], "not_creator");
  f.send(a, {{"type", "game.invite"}, {"game_id", id}, {"req", 8}});
  const json renewed = a.last("game.invite");
  ASSERT_FALSE(renewed.is_null());
  const std::string new_code = renewed["invite"];
  EXPECT_NE(new_code, old_code);
  FakeClient c;
  f.connect(c, "Carol");
  f.send(c, {{"type", "game.watch"}, {"game_id", id}, {"invite", old_code}});
  EXPECT_EQ(c.last("error")["code"], "not_found");
  f.send(c, {{"type", "game.join"}, {"game_id", id}, {"invite", new_code}, {"req", 2}});
  EXPECT_EQ(c.last("ack"), json({{"type", "ack"}, {"req", 2}}));
  f.send(a, {{"type", "game.create"}, {"seats", 2}});
  f.send(a, {{"type", "game.invite"}, {"game_id", a.last("game.created")["game_id"]}});
  EXPECT_EQ(a.last("error")["code"], "not_private");
}

TEST(Invites, CodesStoredBeforeHashingStillWorkAfterTheMigration) {
  TempDir dir;
  const std::string file = dir.file("old.db");
  const std::string code = "0123456789abcdef0123456789abcdef";
  std::int64_t id = 0;
  {
    HubFixture f(file);
    FakeClient a;
    f.connect(a, "Alice");
    f.send(a, {{"type", "game.create"}, {"seats", 2}, {"private", true}});
    id = a.last("game.created")["game_id"];
    f.hub.on_close(&a);
    // Back to schema 1, as today's main stores it: the code in clear, no hash column.
    f.store.db().exec("UPDATE games SET invite_code = '" + code +
                      "' WHERE id = " + std::to_string(id));
    f.store.db().exec("DROP INDEX games_to_watch");  // on spectators (migration 9, lobby)
    f.store.db().exec("ALTER TABLE games DROP COLUMN invite_hash");
    f.store.db().exec("ALTER TABLE games DROP COLUMN spectators");
    f.store.db().exec("ALTER TABLE games DROP COLUMN spectator_delay");
    f.store.db().exec("ALTER TABLE games DROP COLUMN commitment");
    f.store.db().exec("DROP TABLE game_secrets");
    f.store.db().exec("ALTER TABLE actions DROP COLUMN source");
    f.store.db().exec("ALTER TABLE games DROP COLUMN rated");       // migration 11 (ratings)
    f.store.db().exec("ALTER TABLE players DROP COLUMN language");  // migration 12 (server texts)
    f.store.db().exec("ALTER TABLE games DROP COLUMN random_scheme");  // 16 (fair play v2)
    f.store.db().exec("PRAGMA user_version = 1");
  }
  HubFixture f(file);
  EXPECT_EQ(f.store.schema_version(), Store::kSchemaVersion);
  EXPECT_EQ(column(f.store, "SELECT count(*) FROM games WHERE invite_code IS NOT NULL"), 0);
  FakeClient b;
  f.connect(b, "Bob");
  f.send(b, {{"type", "game.join"}, {"game_id", id}, {"invite", code}, {"req", 1}});
  EXPECT_EQ(b.last("ack"), json({{"type", "ack"}, {"req", 1}}));
  EXPECT_EQ(f.store.game(id)->spectators, SpectatorMode::kLive);
  // Migration 16 (fair play v2): a game stored before keeps the single stream it began with.
  EXPECT_EQ(f.store.game(id)->random_scheme, RandomScheme::kSingleStream);
}

TEST(Names, InvisibleAndDirectionChangingCharactersAreRefused) {
  TempDir dir;
  HubFixture f(dir.file("names.db"));
  auto status = [&](const std::string& name) {
    return f.hub.handle_api("POST", "/api/session", json{{"name", name}}.dump(), "").status;
  };
  for (const char* bad : {"\u202EecilA",       // right-to-left override
                          "Al\u200Bice",       // zero-width space
                          "Al\u200Dice",       // zero-width joiner
                          "Alice\u2066",       // left-to-right isolate
                          "\u200FAlice",       // right-to-left mark
                          "Ali\u00ADce",       // soft hyphen
                          "Alice\uFEFF",       // zero-width no-break space
                          "Al\u2060ice",       // word joiner
                          "Alice\u00A0",       // no-break space (trimming would not see it)
                          "A\uFE0Flice",       // variation selector after a letter
                          "Al\xC2\x85ice"}) {  // C1 control
    EXPECT_EQ(status(bad), 400) << bad;
  }
  for (const char* good :
       {"Alice", "Zoë", "Ōkubo Tōru", "Мария", "李小龍", "Red \u2764\uFE0F", "O'Neil-Smith"}) {
    EXPECT_EQ(status(good), 200) << good;
  }
}

}  // namespace
}  // namespace viktory::server
