// Actions that do not hold an io thread while the writer commits them (GameRoom::act_async),
// against the real server process over loopback: many games' actions share one fsync even
// with one io thread, a request right behind an action is answered after its commit, and a
// connection that goes away while its action is in flight loses nothing.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "database.h"
#include "support/play.h"
#include "support/server_process.h"
#include "test_support.h"

namespace viktory::server::testing {
namespace {

using nlohmann::json;

json first_playable(const Seen& s) {
  for (const json& a : s.legal) {
    if (a.at("kind") != "concede") return a;
  }
  throw std::runtime_error("no legal action");
}

// A counter of GET /metrics.
std::int64_t metric(int port, const std::string& name) {
  std::istringstream lines(http_request(port, "GET", "/metrics").body);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(name + " ", 0) == 0) return std::stoll(line.substr(name.size() + 1));
  }
  throw std::runtime_error("no metric " + name);
}

struct Table {
  WsClient a, b;
  std::vector<Seen> seen;
  std::int64_t id = 0;
  std::vector<WsClient*> both() { return {&a, &b}; }
  int decider() const { return int(seen[0].view.at("decider")); }
  WsClient& client(int seat) { return seat == 0 ? a : b; }
};

class AsyncCommit : public ::testing::Test {
 protected:
  void start(const std::vector<std::string>& args,
             const std::vector<std::string>& environment = {}) {
    std::filesystem::create_directories(dir.path() / "web");
    std::ofstream(dir.path() / "web" / "index.html") << "<!doctype html><title>VIKTORY</title>";
    std::vector<std::string> all{"--rate-limit", "10000", "--max-connections-per-address", "1000"};
    all.insert(all.end(), args.begin(), args.end());
    ServerLaunch launch;
    launch.environment = environment;
    server = std::make_unique<ServerProcess>(dir.file("game.db"), (dir.path() / "web").string(),
                                             all, launch);
    alice = sign_up(server->port(), "Alice");
    bob = sign_up(server->port(), "Bob");
  }
  std::unique_ptr<Table> table() {
    auto t = std::make_unique<Table>();
    t->a.connect(server->port());
    t->b.connect(server->port());
    sign_in(t->a, alice);
    sign_in(t->b, bob);
    t->id = start_game(t->both(), t->seen);
    return t;
  }

  TempDir dir;
  std::unique_ptr<ServerProcess> server;
  Account alice, bob;
};

// With one io thread, a room that waited for its commit could never share an fsync with
// another game's action. Now the thread goes on to the next game while the writer works. The
// disk is made slow (each fsync 20 ms): on a fast one, or in the ThreadSanitizer build, a
// commit could end before the io thread had read the next action, and the groups would be of
// one action whether the thread waits or not.
TEST_F(AsyncCommit, ManyGamesActionsShareOneGroupWithOneIoThread) {
  start({"--threads", "1"}, {"LD_PRELOAD=" VIKTORY_SLOW_SYNC_LIBRARY});
  constexpr int kGames = 12;
  constexpr int kRounds = 4;
  std::vector<std::unique_ptr<Table>> tables;
  for (int i = 0; i < kGames; ++i) tables.push_back(table());
  const std::int64_t groups_before = metric(server->port(), "viktory_commit_groups_total");
  const std::int64_t taken_before = metric(server->port(), "viktory_commit_group_actions_total");
  for (int round = 0; round < kRounds; ++round) {
    // Every game's decider acts at once; then each game waits for its own update.
    std::vector<int> seqs;
    for (auto& t : tables) {
      const int seat = t->decider();
      seqs.push_back(t->seen[0].seq);
      t->client(seat).send(json{{"type", "game.action"},
                                {"game_id", t->id},
                                {"seq", t->seen[0].seq},
                                {"action", first_playable(t->seen[static_cast<std::size_t>(seat)])},
                                {"req", 100 + round}});
    }
    for (std::size_t i = 0; i < tables.size(); ++i) {
      Table& t = *tables[i];
      for (std::size_t c = 0; c < 2; ++c) {
        const json update = t.both()[c]->wait_for([&](const json& m) {
          if (m.value("type", "") == "error") throw std::runtime_error("refused: " + m.dump());
          return m.value("type", "") == "game.update" && m.value("seq", -1) == seqs[i] + 1;
        });
        t.seen[c].absorb(update);
      }
    }
  }
  const std::int64_t groups = metric(server->port(), "viktory_commit_groups_total") - groups_before;
  const std::int64_t taken =
      metric(server->port(), "viktory_commit_group_actions_total") - taken_before;
  EXPECT_EQ(taken, kGames * kRounds);
  EXPECT_LT(groups, taken) << "no fsync carried two actions";
  // The slow disk was in place (on PostgreSQL the commits' fsyncs are its server's).
  if (!is_postgresql_location(dir.file("game.db"))) {
    EXPECT_NE(server->log().find("slow_sync: every fsync waits"), std::string::npos);
  }
}

// A request sent right behind an action is read only after the action's commit: the actor
// sees his update, then the ack, then the answer to the next request, which already knows the
// committed seq. The other player gets the update exactly once.
TEST_F(AsyncCommit, ARequestRightBehindAnActionIsAnsweredAfterItsCommit) {
  start({"--threads", "2"});
  auto t = table();
  for (int round = 0; round < 6; ++round) {
    const int seat = t->decider();
    WsClient& actor = t->client(seat);
    WsClient& other = t->client(1 - seat);
    const int seq = t->seen[0].seq;
    const json action = first_playable(t->seen[static_cast<std::size_t>(seat)]);
    const int mark = static_cast<int>(actor.history().size());
    const json act{
        {"type", "game.action"}, {"game_id", t->id}, {"seq", seq}, {"action", action}, {"req", 1}};
    json again = act;
    again["req"] = 2;  // the same action with the old seq: stale once the first is committed
    actor.send(act);
    actor.send(again);
    actor.send(json{{"type", "game.watch"}, {"game_id", t->id}, {"req", 3}});
    actor.wait_for([](const json& m) { return m.value("req", 0) == 3; });
    const std::vector<std::string> history = actor.history();
    std::vector<json> after;
    for (std::size_t i = static_cast<std::size_t>(mark); i < history.size(); ++i) {
      const json m = json::parse(history[i]);
      // The answer to the client's own reply to the reveal round (support/ws_client.cpp,
      // request ids from 10^9) may come this late when the database is slower (PostgreSQL).
      if (m.value("req", std::int64_t{0}) > 1'000'000'000) continue;
      if (m.value("type", "") != "game.clock") after.push_back(m);
    }
    // update(seq+1), ack 1, error stale 2 (+ the full state), game.seats, game.state, ack 3.
    ASSERT_GE(after.size(), 4u);
    EXPECT_EQ(after[0].value("type", ""), "game.update") << after[0].dump();
    EXPECT_EQ(after[0].value("seq", -1), seq + 1);
    EXPECT_EQ(after[1], json({{"type", "ack"}, {"req", 1}}));
    EXPECT_EQ(after[2].value("code", ""), "stale") << after[2].dump();
    EXPECT_EQ(after[2].value("req", 0), 2);
    EXPECT_EQ(after[2].value("seq", -1), seq + 1);
    for (std::size_t i = 3; i < after.size(); ++i) {
      if (after[i].value("type", "") == "game.state") {
        EXPECT_EQ(after[i]["seq"], seq + 1);
      }
      EXPECT_NE(after[i].value("type", ""), "game.update") << "an update after the ack";
    }
    EXPECT_EQ(after.back(), json({{"type", "ack"}, {"req", 3}}));
    t->seen[static_cast<std::size_t>(seat)].absorb(after[0]);
    // The other player: this update once, and nothing newer.
    const json update = other.wait_for([&](const json& m) {
      return m.value("type", "") == "game.update" && m.value("seq", -1) == seq + 1;
    });
    t->seen[static_cast<std::size_t>(1 - seat)].absorb(update);
    const auto more = other.receive(100ms);
    if (more) {
      const json& m = *more;
      EXPECT_NE(m.value("type", ""), "game.update") << m.dump();
    }
  }
}

// The actor's connection goes away while his action waits for its commit: the server neither
// crashes nor loses the action, and the other player is told of it.
TEST_F(AsyncCommit, AConnectionClosingWhileItsActionIsInFlightLosesNothing) {
  start({"--threads", "2"});
  for (int round = 0; round < 4; ++round) {
    auto t = table();
    const int seat = t->decider();
    const json action = first_playable(t->seen[static_cast<std::size_t>(seat)]);
    t->client(seat).send(
        json{{"type", "game.action"}, {"game_id", t->id}, {"seq", 0}, {"action", action}});
    if (round % 2 == 0) {
      t->client(seat).drop();  // the TCP connection just goes away
    } else {
      t->client(seat).close();
    }
    const json update = t->client(1 - seat).wait_for([](const json& m) {
      return m.value("type", "") == "game.update" && m.value("seq", -1) == 1;
    });
    EXPECT_EQ(update["seq"], 1);
    // Whoever comes back sees it committed.
    WsClient again;
    again.connect(server->port());
    sign_in(again, seat == 0 ? alice : bob);
    again.send(json{{"type", "game.watch"}, {"game_id", t->id}});
    EXPECT_EQ(again.wait_type("game.state")["seq"], 1);
  }
  EXPECT_EQ(http_request(server->port(), "GET", "/healthz").body, "ok\n");
}

}  // namespace
}  // namespace viktory::server::testing
