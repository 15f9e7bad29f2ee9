// Hardening of the game logic, without sockets: storage failures (a real failing VFS), damaged
// stored games, the startup checks, private games and invites, display names, the per-viewer
// message cache and the cost of expensive requests, and replays built outside the Hub's lock.
#include <gtest/gtest.h>

#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <thread>

#include "connections.h"
#include "failing_vfs.h"
#include "fake_clients.h"
#include "game.h"
#include "hub.h"
#include "json.h"
#include "reveal_round.h"
#include "test_support.h"
#include "token.h"
#include "view.h"
#include "view_delta.h"

namespace viktory::server {
namespace {

using nlohmann::json;
using testing::FailingVfs;
using testing::TempDir;
using testing::ViewTracker;

// A connection as the Hub sees it, remembering every message (also as the shared pointer, to
// see which messages are one and the same).
struct FakeClient : Client {
  void deliver(Message m) override {
    raw.push_back(m);
    messages.push_back(json::parse(*m));
    views.absorb(messages.back());
  }
  void close(std::string_view) override { closed = true; }
  json last(const std::string& type) const {
    for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
      if (it->value("type", "") == type) return *it;
    }
    return nullptr;
  }
  std::vector<Message> of_type(const std::string& type) const {
    std::vector<Message> out;
    for (std::size_t i = 0; i < messages.size(); ++i) {
      if (messages[i].value("type", "") == type) out.push_back(raw[i]);
    }
    return out;
  }
  std::vector<Message> raw;
  std::vector<json> messages;
  ViewTracker views;
  bool closed = false;
};

// A Hub over a real database file, with helpers to sign up and play.
class HubFixture {
 public:
  explicit HubFixture(const std::string& file, HubOptions options = {})
      : store(file), hub(store, metrics, std::move(options)) {}

  std::string sign_up(const std::string& name, const std::string& address = "") {
    const ApiResponse r =
        hub.handle_api("POST", "/api/session", json{{"name", name}}.dump(), "", address);
    EXPECT_EQ(r.status, 200) << r.body;
    return json::parse(r.body).value("token", "");
  }
  void connect(FakeClient& c, const std::string& name, const std::string& address = "") {
    hub.on_open(&c, address);
    send(c, {{"type", "auth"}, {"token", sign_up(name)}});
    EXPECT_FALSE(c.last("welcome").is_null());
  }
  // Fair play's reveal round is answered as the browser does (fake_clients.h).
  void send(FakeClient& c, const json& m) { round.send(hub, c, m); }
  testing::RoundAnswerer<FakeClient> round;
  // Alice creates (with `fields`), Bob joins: a running two-player game.
  std::int64_t start_game(FakeClient& a, FakeClient& b, json fields = json::object()) {
    json create{{"type", "game.create"}, {"seats", 2}};
    create.update(fields);
    send(a, create);
    const std::int64_t id = a.last("game.created")["game_id"];
    json join{{"type", "game.join"}, {"game_id", id}};
    if (a.last("game.created").contains("invite"))
      join["invite"] = a.last("game.created")["invite"];
    send(b, join);
    EXPECT_FALSE(b.last("game.state").is_null());
    return id;
  }
  // The decider (Alice is seat 0, Bob seat 1) sends his first legal action other than
  // conceding; returns his client.
  FakeClient& act(FakeClient& a, FakeClient& b, std::int64_t id) {
    const int decider = latest_view(a)["decider"].get<int>();
    FakeClient& mover = decider == 0 ? a : b;
    const json mine = latest(mover);
    json action;
    for (const json& candidate : mine["legal"]) {
      if (candidate["kind"] != "concede") {
        action = candidate;
        break;
      }
    }
    send(mover, {{"type", "game.action"},
                 {"game_id", id},
                 {"seq", mine["seq"]},
                 {"action", action},
                 {"req", 1}});
    return mover;
  }
  static json latest(const FakeClient& c) {
    for (auto it = c.messages.rbegin(); it != c.messages.rend(); ++it) {
      const std::string type = it->value("type", "");
      if (type == "game.state" || type == "game.update") return *it;
    }
    return nullptr;
  }
  static json latest_view(const FakeClient& c) { return c.views.latest(); }

  Metrics metrics;
  Store store;
  Hub hub;
};

std::int64_t column(Store& store, const std::string& sql) {
  Statement s = store.db().prepare(sql);
  EXPECT_TRUE(s.step());
  return s.int64(0);
}

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
  HubFixture f(file());
  EXPECT_EQ(watch_answer(f, game)["code"], "game_damaged");
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

// ------------------------------------------------------------------ amplification [item 3]

TEST(Amplification, OneFullStatePerViewerAndSeqIsSharedByEveryWatcher) {
  TempDir dir;
  HubOptions options;
  options.messages_per_second = 1000;
  options.message_burst = 1000;
  HubFixture f(dir.file("cache.db"), options);
  FakeClient a, b;
  f.connect(a, "Alice");
  f.connect(b, "Bob");
  const std::int64_t id = f.start_game(a, b);
  f.act(a, b, id);
  std::vector<std::unique_ptr<FakeClient>> spectators;
  for (int i = 0; i < 5; ++i) {
    spectators.push_back(std::make_unique<FakeClient>());
    f.connect(*spectators.back(), "Watcher" + std::to_string(i));
    for (int k = 0; k < 3; ++k)
      f.send(*spectators.back(), {{"type", "game.watch"}, {"game_id", id}});
  }
  std::set<const std::string*> distinct;
  for (auto& s : spectators) {
    for (const Message& m : s->of_type("game.state")) distinct.insert(m.get());
  }
  EXPECT_EQ(distinct.size(), 1u) << "every spectator's full state at one seq is one message";
  // A stale action gets the cached state too, the same message as a watch at that seq.
  const json now = HubFixture::latest(a);
  f.send(
      a,
      {{"type", "game.action"}, {"game_id", id}, {"seq", 0}, {"action", {{"kind", "end_phase"}}}});
  f.send(a, {{"type", "game.watch"}, {"game_id", id}});
  const auto states = a.of_type("game.state");
  ASSERT_GE(states.size(), 2u);
  EXPECT_EQ(states[states.size() - 1].get(), states[states.size() - 2].get());
  EXPECT_EQ(a.last("error")["code"], "stale");
}

TEST(Amplification, ExpensiveRequestsCostMoreAndAnAddressSharesTheirBudget) {
  TempDir dir;
  HubFixture f(dir.file("cost.db"));  // default limits: 20/s, burst 40 per connection
  FakeClient a, b;
  f.connect(a, "Alice", "10.0.0.1");
  f.connect(b, "Bob", "10.0.0.2");
  const std::int64_t id = f.start_game(a, b);
  auto watches_until_limited = [&](FakeClient& c) {
    int accepted = 0;
    for (int i = 0; i < 60; ++i) {
      f.send(c, {{"type", "game.watch"}, {"game_id", id}, {"req", i}});
      if (c.messages.back().value("code", "") == "rate_limited") return accepted;
      ++accepted;
    }
    return accepted;
  };
  FakeClient one;
  f.connect(one, "Spectator", "10.0.0.9");
  const int alone = watches_until_limited(one);
  EXPECT_GE(alone, 6);
  EXPECT_LE(alone, 10);  // a watch costs 5 of the burst of 40, not 1
  // Many connections from one address share one budget for expensive requests.
  int from_one_address = alone;
  std::vector<std::unique_ptr<FakeClient>> more;
  for (int i = 0; i < 5; ++i) {
    more.push_back(std::make_unique<FakeClient>());
    f.connect(*more.back(), "Spectator" + std::to_string(i), "10.0.0.9");
    from_one_address += watches_until_limited(*more.back());
  }
  // The address's burst is 80 tokens, 4 for each watch beyond the connection's own token: 20
  // watches, where six connections alone would have had 42.
  EXPECT_LE(from_one_address, 22);
  // Another address is not affected; cheap requests of the same address neither.
  FakeClient other;
  f.connect(other, "Other", "10.0.0.10");
  f.send(other, {{"type", "game.watch"}, {"game_id", id}, {"req", 1}});
  EXPECT_EQ(other.messages.back(), json({{"type", "ack"}, {"req", 1}}));
  FakeClient cheap;
  f.connect(cheap, "Cheap", "10.0.0.9");
  f.send(cheap, {{"type", "ping"}});
  EXPECT_EQ(cheap.messages.back()["type"], "pong");
}

TEST(Amplification, AConnectionWatchesABoundedNumberOfGames) {
  TempDir dir;
  HubOptions options;
  options.messages_per_second = 1000;
  options.message_burst = 1000;
  options.max_watched_games = 3;
  HubFixture f(dir.file("pin.db"), options);
  FakeClient a, b;
  f.connect(a, "Alice");
  f.connect(b, "Bob");
  std::vector<std::int64_t> games;
  for (int i = 0; i < 4; ++i) {
    f.send(a, {{"type", "game.create"}, {"seats", 2}});
    games.push_back(a.last("game.created")["game_id"]);
    f.send(a, {{"type", "game.unwatch"}, {"game_id", games.back()}});
  }
  for (int i = 0; i < 3; ++i) f.send(b, {{"type", "game.watch"}, {"game_id", games[i]}});
  f.send(b, {{"type", "game.watch"}, {"game_id", games[3]}, {"req", 1}});
  EXPECT_EQ(b.last("error")["code"], "too_many_games");
  f.send(b, {{"type", "game.unwatch"}, {"game_id", games[0]}});
  f.send(b, {{"type", "game.watch"}, {"game_id", games[3]}, {"req", 2}});
  EXPECT_EQ(b.messages.back(), json({{"type", "ack"}, {"req", 2}}));
}

TEST(Amplification, AllConnectionsOfOneAddressPinABoundedNumberOfQueuedBytes) {
  ConnectionLimiter limiter(10, /*max_queued_bytes_per_address=*/1000);
  auto a = limiter.try_acquire("10.0.0.1");
  auto b = limiter.try_acquire("10.0.0.1");
  auto other = limiter.try_acquire("10.0.0.2");
  EXPECT_TRUE(a->reserve_bytes(600));
  EXPECT_FALSE(b->reserve_bytes(600));  // the two connections together would pass 1000
  EXPECT_TRUE(other->reserve_bytes(600));
  EXPECT_TRUE(b->reserve_bytes(400));
  a->release_bytes(600);
  EXPECT_TRUE(b->reserve_bytes(600));
  // A trusted proxy's own connections are counted but never refused.
  ConnectionLimiter one(1);
  auto first = one.try_acquire("127.0.0.1", /*unlimited=*/true);
  auto second = one.try_acquire("127.0.0.1", /*unlimited=*/true);
  EXPECT_TRUE(first && second);
  EXPECT_EQ(one.count("127.0.0.1"), 2);
  EXPECT_FALSE(one.try_acquire("127.0.0.1"));
}

// ------------------------------------------------------------------ spectators [item 2]

TEST(Spectators, HaveTheirOwnChatWhichPlayersNeverSee) {
  TempDir dir;
  HubFixture f(dir.file("chat.db"));
  FakeClient a, b, s;
  f.connect(a, "Alice");
  f.connect(b, "Bob");
  f.connect(s, "Sam");
  const std::int64_t id = f.start_game(a, b);
  f.send(s, {{"type", "game.watch"}, {"game_id", id}});
  f.send(s, {{"type", "chat.send"}, {"game_id", id}, {"text", "Bob, their capital is empty!"}});
  f.send(a, {{"type", "chat.send"}, {"game_id", id}, {"text", "good luck"}});
  EXPECT_EQ(s.last("chat")["text"], "good luck");  // spectators read the players' chat
  EXPECT_EQ(s.last("chat")["channel"], "players");
  for (FakeClient* p : {&a, &b}) {
    for (const json& m : p->messages) {
      if (m.value("type", "") == "chat") {
        EXPECT_EQ(m["channel"], "players");
      }
    }
  }
  // Also not in the chat a full state carries.
  f.send(b, {{"type", "game.watch"}, {"game_id", id}});
  // Held in a variable: a range-for over a member of a temporary reads a destroyed object.
  const json state = b.last("game.state");
  for (const json& line : state["chat"]) EXPECT_EQ(line["channel"], "players");
  f.send(s, {{"type", "game.watch"}, {"game_id", id}});
  EXPECT_EQ(s.last("game.state")["chat"].size(), 2u);
}

TEST(Spectators, TheCreatorMayAllowNone) {
  TempDir dir;
  HubFixture f(dir.file("none.db"));
  FakeClient a, b, s;
  f.connect(a, "Alice");
  f.connect(b, "Bob");
  f.connect(s, "Sam");
  f.send(a, {{"type", "game.create"}, {"seats", 2}, {"spectators", "none"}});
  const std::int64_t id = a.last("game.created")["game_id"];
  f.send(s, {{"type", "game.watch"}, {"game_id", id}, {"req", 1}});  // the waiting room: fine
  EXPECT_EQ(s.messages.back(), json({{"type", "ack"}, {"req", 1}}));
  f.send(b, {{"type", "game.join"}, {"game_id", id}});
  EXPECT_EQ(s.last("error")["code"], "no_spectators");  // dropped when the game starts
  EXPECT_TRUE(s.last("game.state").is_null());
  f.send(s, {{"type", "game.watch"}, {"game_id", id}});
  EXPECT_EQ(s.last("error")["code"], "no_spectators");
  f.send(s, {{"type", "chat.send"}, {"game_id", id}, {"text", "hello?"}});
  EXPECT_EQ(s.last("error")["code"], "no_spectators");
  f.send(a, {{"type", "game.create"}, {"seats", 2}, {"spectators", "sometimes"}});
  EXPECT_EQ(a.last("error")["code"], "bad_options");
}

TEST(Spectators, DelayedSpectatorsSeeTheGameTurnsBehind) {
  TempDir dir;
  HubOptions options;
  options.messages_per_second = 10000;
  options.message_burst = 10000;
  HubFixture f(dir.file("delay.db"), options);
  FakeClient a, b, s;
  f.connect(a, "Alice");
  f.connect(b, "Bob");
  f.connect(s, "Sam");
  const std::int64_t id = f.start_game(a, b, {{"spectators", "delayed"}, {"spectator_delay", 1}});
  f.send(s, {{"type", "game.watch"}, {"game_id", id}});
  ASSERT_EQ(s.last("game.state")["seq"], 0);
  // Play until turn 3: the spectator sees every action of the turns before the last one, and
  // none of the current turn.
  int most_behind = 0;
  for (int i = 0; i < 400 && HubFixture::latest_view(a)["turn"] < 3; ++i) {
    f.act(a, b, id);
    const int live_turn = HubFixture::latest_view(a)["turn"];
    int allowed = 0;
    for (const ActionRecord& r : f.store.actions(id)) allowed += r.turn <= live_turn - 1 ? 1 : 0;
    const int seen = HubFixture::latest(s)["seq"];
    EXPECT_EQ(seen, allowed) << "live turn " << live_turn;
    most_behind = std::max(most_behind, f.store.game(id)->seq - seen);
  }
  EXPECT_GT(most_behind, 2);
  ASSERT_GE(HubFixture::latest_view(a)["turn"], 3);
  // Updates came one seq at a time.
  int last_seq = 0;
  for (const json& m : s.messages) {
    if (m.value("type", "") != "game.update") continue;
    EXPECT_EQ(m["seq"], last_seq + 1);
    last_seq = m["seq"];
  }
  EXPECT_GT(last_seq, 0);
  // The players' chat is not live for delayed spectators.
  f.send(a, {{"type", "chat.send"}, {"game_id", id}, {"text", "attack now"}});
  EXPECT_TRUE(s.last("chat").is_null());
  f.send(a, {{"type", "game.create"}, {"seats", 2}, {"spectators", "delayed"}});
  EXPECT_EQ(a.last("error")["code"], "bad_options");  // a delay is needed
}

// ------------------------------------------------------------------ replays [item 1]

TEST(Replays, AreBuiltOutsideTheHubLock) {
  TempDir dir;
  HubFixture f(dir.file("lock.db"));
  FakeClient a, b;
  f.connect(a, "Alice");
  f.connect(b, "Bob");
  const std::int64_t id = f.start_game(a, b);
  f.send(a,
         {{"type", "game.action"}, {"game_id", id}, {"seq", 0}, {"action", {{"kind", "concede"}}}});
  ASSERT_EQ(f.store.game(id)->status, GameStatus::kFinished);

  std::mutex m;
  std::condition_variable cv;
  bool building = false, go_on = false, pinged = false;
  f.hub.replays().on_build_for_tests = [&] {
    std::unique_lock lock(m);
    building = true;
    cv.notify_all();
    cv.wait_for(lock, std::chrono::seconds(20), [&] { return go_on; });
  };
  std::thread replay([&] {
    const ApiResponse r =
        f.hub.handle_api("GET", "/api/games/" + std::to_string(id) + "/replay", "", "");
    EXPECT_EQ(r.status, 200) << r.body;
  });
  {
    std::unique_lock lock(m);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(20), [&] { return building; }));
  }
  // While the replay is being built, the game logic answers.
  std::thread other([&] {
    f.send(b, {{"type", "ping"}});
    std::lock_guard lock(m);
    pinged = true;
    cv.notify_all();
  });
  {
    std::unique_lock lock(m);
    EXPECT_TRUE(cv.wait_for(lock, std::chrono::seconds(10), [&] { return pinged; }))
        << "a ping waited for a replay being built";
  }
  // Another page is not built meanwhile: it is to be asked for again, not waited for on a
  // network thread.
  const ApiResponse busy =
      f.hub.handle_api("GET", "/api/games/" + std::to_string(id) + "/replay?from=1", "", "");
  EXPECT_EQ(busy.status, 503);
  EXPECT_EQ(busy.retry_after_seconds, 1);
  EXPECT_NE(busy.body.find("busy"), std::string::npos);
  {
    std::lock_guard lock(m);
    go_on = true;
    cv.notify_all();
  }
  replay.join();
  other.join();
}

class ReplayPages : public ::testing::Test {
 protected:
  void SetUp() override {
    HubOptions options;
    options.messages_per_second = 100000;
    options.message_burst = 100000;
    options.room.snapshot_every = 10;
    options.replay.page_steps = 25;
    options.replay.requests_per_minute = 30;
    f = std::make_unique<HubFixture>(dir.file("pages.db"), options);
    f->connect(a, "Alice");
    f->connect(b, "Bob");
    id = f->start_game(a, b, {{"independent_exploration", true}});
    for (int i = 0; i < 80; ++i) f->act(a, b, id);
    f->send(
        a,
        {{"type", "game.action"}, {"game_id", id}, {"seq", 0}, {"action", {{"kind", "concede"}}}});
    record = *f->store.game(id);
    ASSERT_EQ(record.status, GameStatus::kFinished);
  }
  ApiResponse get(const std::string& query, const std::string& address = "10.1.1.1",
                  const std::string& token = "") {
    return f->hub.handle_api("GET", "/api/games/" + std::to_string(id) + "/replay" + query, "",
                             token.empty() ? "" : "Bearer " + token, address);
  }

  TempDir dir;
  std::unique_ptr<HubFixture> f;
  FakeClient a, b;
  std::int64_t id = 0;
  GameRecord record;
};

TEST_F(ReplayPages, ApplyingTheDeltasGivesEachViewOfTheGame) {
  // The position at every seq, from the seed and the stored log.
  std::vector<GameState> states{new_game(record.options, record.seed, record.random_scheme)};
  for (const ActionRecord& r : f->store.actions(id)) {
    states.push_back(states.back());
    ASSERT_FALSE(apply_in_place(states.back(), r.action));
  }
  ASSERT_EQ(static_cast<int>(states.size()), record.seq + 1);
  int pages = 0;
  for (int from = 0; from < record.seq; from += 25) {
    const ApiResponse r = get("?from=" + std::to_string(from));
    ASSERT_EQ(r.status, 200) << r.body;
    const json page = json::parse(r.body);
    EXPECT_EQ(page["from"], from);
    EXPECT_EQ(page["to"], std::min(from + 25, record.seq));
    EXPECT_EQ(page["last_seq"], record.seq);
    EXPECT_TRUE(page["viewer"].is_null());  // no token: the spectator's views
    json view = page["view"];
    EXPECT_EQ(view,
              protocol::view_to_json(view_for(states[static_cast<std::size_t>(from)], kSpectator)));
    for (const json& step : page["steps"]) {
      view = protocol::apply_view_delta(view, step["delta"]);
      const int seq = step["seq"];
      ASSERT_EQ(view,
                protocol::view_to_json(view_for(states[static_cast<std::size_t>(seq)], kSpectator)))
          << "seq " << seq;
    }
    ++pages;
  }
  EXPECT_EQ(pages, (record.seq + 24) / 25);
}

TEST_F(ReplayPages, AreCompactPagedCachedAndRateLimited) {
  const ApiResponse first = get("?from=0&to=25");
  ASSERT_EQ(first.status, 200);
  EXPECT_EQ(f->metrics.replay_pages_built, 1);
  // A full view per step would be ~26 views; the page holds one and small deltas.
  const std::size_t one_view = json::parse(first.body)["view"].dump().size();
  EXPECT_LT(first.body.size(), 6 * one_view) << first.body.size() << " vs a view of " << one_view;
  EXPECT_EQ(get("?from=0&to=25").body, first.body);
  EXPECT_EQ(f->metrics.replay_cache_hits, 1);
  EXPECT_EQ(f->metrics.replay_pages_built, 1);
  // A page is at most 25 steps here; out-of-range pages are refused.
  EXPECT_EQ(json::parse(get("?from=3&to=60").body)["to"], 28);
  EXPECT_EQ(get("?from=-1").status, 400);
  EXPECT_EQ(get("?from=5&to=4").status, 400);
  EXPECT_EQ(get("?from=0&to=100000").status, 400);
  // 30 per minute per address (burst 30): five went out above.
  int ok = 0;
  for (int i = 0; i < 40; ++i) ok += get("?from=0&to=25").status == 200 ? 1 : 0;
  EXPECT_LE(ok, 26);
  EXPECT_EQ(get("?from=0&to=25").status, 429);
  EXPECT_EQ(get("?from=0&to=25", "10.1.1.2").status, 200);  // another address
}

TEST_F(ReplayPages, ASeatsOwnViewsOnlyForItsPlayer) {
  const std::string alice = f->sign_up("Alice2");
  const json mine = json::parse(get("?seat=0").body);
  EXPECT_TRUE(mine["viewer"].is_null());  // no token
  // Alice's token from her connection's sign-up is not at hand: sign her seat's player in
  // through a fresh token of the seat holder.
  const std::int64_t holder = record.seats[0].player_id;
  const std::string token = new_token();
  f->store.db().exec("UPDATE players SET token_hash = '" + token_hash(token) +
                     "' WHERE id = " + std::to_string(holder));
  const json own = json::parse(get("?seat=0", "10.1.1.3", token).body);
  EXPECT_EQ(own["viewer"], 0);
  EXPECT_EQ(own["view"]["viewer"], 0);
  const json other = json::parse(get("?seat=1", "10.1.1.3", token).body);
  EXPECT_TRUE(other["viewer"].is_null());
  const json stranger = json::parse(get("?seat=0", "10.1.1.3", alice).body);
  EXPECT_TRUE(stranger["viewer"].is_null());
}

}  // namespace
}  // namespace viktory::server
