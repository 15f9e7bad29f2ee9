// Several real servers on one PostgreSQL database (--server-url, docs/postgresql.md): a game is
// served by one process at a time, a request for it at another is answered with where it is
// served, a process that lost a game writes none of its actions, and when the serving process
// is killed another takes the game over with every acknowledged action and none twice; a
// rolling restart hands the games over at once. Runs only in the "pg." copy of the integration
// tests (tests/server/CMakeLists.txt).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "database.h"
#include "support/play.h"
#include "support/server_process.h"
#include "test_support.h"

namespace viktory::server::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kLease = "1500";  // ms: short, so that a takeover comes soon

std::vector<std::string> serving_as(const std::string& url) {
  return {"--server-url", url, "--lease-ms", kLease};
}

// The number of the game's stored actions, and the highest seq among them.
std::pair<std::int64_t, std::int64_t> stored_actions(const std::string& db, std::int64_t id) {
  Database check(db);
  Statement count = check.prepare("SELECT count(*), max(seq) FROM actions WHERE game_id = ?");
  count.bind(1, id);
  EXPECT_TRUE(count.step());
  return {count.int64(0), count.int64(1)};
}

// game.watch: the state, or the error the server answered with.
json watch(WsClient& ws, std::int64_t id) {
  ws.send(json{{"type", "game.watch"}, {"game_id", id}});
  return ws.wait_for([&](const json& m) {
    const std::string type = m.value("type", "");
    return (type == "game.state" && m.value("game_id", std::int64_t{0}) == id) || type == "error";
  });
}

std::int64_t wall_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

TEST(SeveralServers, OneServerServesAGameAnotherTakesItOverWhenThatOneDiesOrStops) {
  if (!postgresql_test_host()) GTEST_SKIP() << "runs as pg.SeveralServers.* on a throwaway cluster";
  TempDir dir;
  const std::string db = dir.file("game.db");
  auto first =
      std::make_unique<ServerProcess>(db, dir.path().string(), serving_as("http://first.example"));
  ServerProcess second(db, dir.path().string(), serving_as("http://second.example"));

  // Alice and Bob play on the first server, which serves their game from its creation.
  const Account alice = sign_up(first->port(), "Alice");
  const Account bob = sign_up(first->port(), "Bob");
  WsClient a, b;
  a.connect(first->port());
  b.connect(first->port());
  sign_in(a, alice);
  sign_in(b, bob);
  std::vector<Seen> seen;
  const std::int64_t id = start_game({&a, &b}, seen);
  play_actions({&a, &b}, seen, id, 4);

  // Bob's second tab reaches the other server: told where the game is served.
  WsClient elsewhere;
  elsewhere.connect(second.port());
  sign_in(elsewhere, bob);
  const json refused = watch(elsewhere, id);
  EXPECT_EQ(refused.value("code", ""), "game_elsewhere") << refused.dump();
  EXPECT_EQ(refused.value("server", ""), "http://first.example");
  // A made-up game is no such game, and asking for it writes no lease.
  EXPECT_EQ(watch(elsewhere, id + 1000).value("code", ""), "not_found");
  {
    Database check(db);
    Statement leases = check.prepare("SELECT count(*) FROM game_leases WHERE game_id <> ?");
    leases.bind(1, id);
    ASSERT_TRUE(leases.step());
    EXPECT_EQ(leases.int64(0), 0);
  }

  // A third process takes the game (as one would after the first stalled past its lease):
  // the first writes no more of it; its players are told where the game is now.
  {
    Database check(db);
    check
        .prepare(
            "UPDATE game_leases SET owner = 'intruder', url = 'http://third.example', "
            "expires = ? WHERE game_id = ?")
        .bind(1, wall_ms() + 60'000)
        .bind(2, id)
        .run();
  }
  const int before = seen[0].seq;
  const auto decider = static_cast<std::size_t>(int(seen[0].view.at("decider")));
  WsClient* actor = decider == 0 ? &a : &b;
  actor->send(json{{"type", "game.action"},
                   {"game_id", id},
                   {"seq", before},
                   {"action", seen[decider].legal.at(0)}});
  const json lost = actor->wait_for([](const json& m) {
    return m.value("type", "") == "error" ||
           (m.value("type", "") == "game.update" && m.value("seq", 0) > 0);
  });
  EXPECT_EQ(lost.value("code", ""), "game_elsewhere") << lost.dump();
  EXPECT_EQ(lost.value("server", ""), "http://third.example");
  EXPECT_EQ(stored_actions(db, id).first, before) << "the refused action was not written";

  // The third process dies in turn (its lease lapses): whoever asks first serves the game.
  {
    Database check(db);
    check.prepare("UPDATE game_leases SET expires = 1 WHERE game_id = ?").bind(1, id).run();
  }
  json back = watch(a, id);
  ASSERT_EQ(back.value("type", ""), "game.state") << back.dump();
  seen[0].absorb(back);
  back = watch(b, id);
  ASSERT_EQ(back.value("type", ""), "game.state") << back.dump();
  seen[1].absorb(back);
  play_actions({&a, &b}, seen, id, 3);
  const int acknowledged = seen[0].seq;
  EXPECT_EQ(stored_actions(db, id),
            std::make_pair(std::int64_t{acknowledged}, std::int64_t{acknowledged}));

  // kill -9 of the serving process: the other serves the game once the lease has lapsed.
  first->kill9();
  const auto killed = std::chrono::steady_clock::now();
  WsClient a2, b2;
  a2.connect(second.port());
  b2.connect(second.port());
  sign_in(a2, alice);
  sign_in(b2, bob);
  json state;
  int refusals = 0;
  while (std::chrono::steady_clock::now() - killed < 15s) {
    state = watch(a2, id);
    if (state.value("type", "") == "game.state") break;
    EXPECT_EQ(state.value("code", ""), "game_elsewhere") << state.dump();
    ++refusals;
    std::this_thread::sleep_for(100ms);
  }
  ASSERT_EQ(state.value("type", ""), "game.state") << state.dump();
  EXPECT_GT(refusals, 0) << "the dead server's lease still ran for a while";
  std::vector<Seen> seen2(2);
  seen2[0].absorb(state);
  EXPECT_EQ(seen2[0].seq, acknowledged) << "every acknowledged action is there, none twice";
  const json bobs = watch(b2, id);
  ASSERT_EQ(bobs.value("type", ""), "game.state") << bobs.dump();
  seen2[1].absorb(bobs);
  play_actions({&a2, &b2}, seen2, id, 3);

  // A rolling restart: the first server comes back, the second stops gracefully and hands
  // its games over at once (no waiting for the lease), and the game goes on on the first.
  first =
      std::make_unique<ServerProcess>(db, dir.path().string(), serving_as("http://first.example"));
  EXPECT_EQ(second.terminate(), 0);
  WsClient a3, b3;
  a3.connect(first->port());
  b3.connect(first->port());
  sign_in(a3, alice);
  sign_in(b3, bob);
  std::vector<Seen> seen3(2);
  const json again = watch(a3, id);
  ASSERT_EQ(again.value("type", ""), "game.state") << "handed over: " << again.dump();
  seen3[0].absorb(again);
  const json again_bob = watch(b3, id);
  ASSERT_EQ(again_bob.value("type", ""), "game.state") << again_bob.dump();
  seen3[1].absorb(again_bob);
  EXPECT_EQ(seen3[0].seq, seen2[0].seq);
  play_actions({&a3, &b3}, seen3, id, 2);
  const std::int64_t total = seen3[0].seq;
  EXPECT_EQ(stored_actions(db, id), std::make_pair(total, total))
      << "every acknowledged action stored once";
  EXPECT_EQ(first->terminate(), 0);
  EXPECT_EQ(first->log().find(" error "), std::string::npos) << first->log();
}

// Servers that share a database and one that believes it is alone never run side by side.
TEST(SeveralServers, AServerAloneAndSharingServersRefuseEachOther) {
  if (!postgresql_test_host()) GTEST_SKIP() << "runs as pg.SeveralServers.* on a throwaway cluster";
  TempDir dir;
  const std::string db = dir.file("game.db");
  {
    ServerProcess sharing(db, dir.path().string(), serving_as("http://first.example"));
    EXPECT_THROW(ServerProcess alone(db, dir.path().string()), std::exception);
  }
  ServerProcess alone(db, dir.path().string());
  EXPECT_THROW(ServerProcess sharing(db, dir.path().string(), serving_as("http://first.example")),
               std::exception);
}

}  // namespace
}  // namespace viktory::server::testing
