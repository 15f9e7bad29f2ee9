// kill -9 the real server at any moment: after a restart every acknowledged action is still
// there and the game continues exactly where it was.
#include <gtest/gtest.h>

#include <random>

#include "support/play.h"
#include "support/server_process.h"
#include "test_support.h"

namespace viktory::server::testing {
namespace {

using nlohmann::json;

json random_legal(const Seen& s, std::mt19937& rng) {
  std::vector<json> options;
  for (const json& a : s.legal) {
    if (a["kind"] != "concede") options.push_back(a);
  }
  if (options.empty()) return nullptr;
  return options[std::uniform_int_distribution<std::size_t>(0, options.size() - 1)(rng)];
}

struct Table {
  WsClient a, b;
  std::vector<Seen> seen;
  std::vector<WsClient*> both() { return {&a, &b}; }
  int decider() const { return int(seen[0].view.at("decider")); }
};

void reconnect(Table& t, int port, const Account& alice, const Account& bob, std::int64_t id) {
  t.a.connect(port);
  t.b.connect(port);
  sign_in(t.a, alice);
  sign_in(t.b, bob);
  t.seen.assign(2, Seen{});
  t.a.send(json{{"type", "game.watch"}, {"game_id", id}});
  t.b.send(json{{"type", "game.watch"}, {"game_id", id}});
  t.seen[0].absorb(t.a.wait_type("game.state"));
  t.seen[1].absorb(t.b.wait_type("game.state"));
}

void play(Table& t, std::int64_t id, int actions, std::mt19937& rng) {
  for (int i = 0; i < actions; ++i) {
    if (t.seen[0].view["phase"] == "game_over") return;
    const int who = t.decider();
    const json pick = random_legal(t.seen[who], rng);
    ASSERT_FALSE(pick.is_null());
    auto both = t.both();
    act_and_wait(*both[who], id, pick, both, t.seen, who);
  }
}

TEST(CrashRestart, AcknowledgedActionsSurviveKillNine) {
  TempDir dir;
  const std::string db = dir.file("crash.db");
  std::mt19937 rng(2024);
  auto server = std::make_unique<ServerProcess>(db, dir.path().string(),
                                                std::vector<std::string>{"--snapshot-every", "4"});
  const Account alice = sign_up(server->port(), "Alice");
  const Account bob = sign_up(server->port(), "Bob");
  auto table = std::make_unique<Table>();
  table->a.connect(server->port());
  table->b.connect(server->port());
  sign_in(table->a, alice);
  sign_in(table->b, bob);
  const std::int64_t id = start_game(table->both(), table->seen);

  for (int cycle = 0; cycle < 3; ++cycle) {
    play(*table, id, 6 + 3 * cycle, rng);
    // Everything above was acknowledged (every player saw the update): kill now.
    const Seen before_a = table->seen[0];
    const Seen before_b = table->seen[1];
    server->kill9();
    table = std::make_unique<Table>();
    server = std::make_unique<ServerProcess>(db, dir.path().string(),
                                             std::vector<std::string>{"--snapshot-every", "4"});
    reconnect(*table, server->port(), alice, bob, id);
    EXPECT_EQ(table->seen[0].seq, before_a.seq) << "cycle " << cycle;
    EXPECT_EQ(table->seen[0].view, before_a.view) << "cycle " << cycle;
    EXPECT_EQ(table->seen[1].view, before_b.view) << "cycle " << cycle;
    EXPECT_EQ(table->seen[0].legal, before_a.legal);
    EXPECT_EQ(table->seen[1].legal, before_b.legal);
  }

  // Kill while an action is in flight: it is either fully there or not at all.
  const int seq = table->seen[0].seq;
  const int who = table->decider();
  auto both = table->both();
  both[who]->send(json{{"type", "game.action"},
                       {"game_id", id},
                       {"seq", seq},
                       {"action", random_legal(table->seen[who], rng)}});
  server->kill9();
  table = std::make_unique<Table>();
  server = std::make_unique<ServerProcess>(db, dir.path().string());
  reconnect(*table, server->port(), alice, bob, id);
  EXPECT_TRUE(table->seen[0].seq == seq || table->seen[0].seq == seq + 1) << table->seen[0].seq;
  EXPECT_EQ(table->seen[0].seq, table->seen[1].seq);
  // And the game continues.
  play(*table, id, 5, rng);
  EXPECT_GE(table->seen[0].seq, seq + 5);
  EXPECT_EQ(server->terminate(), 0);
}

}  // namespace
}  // namespace viktory::server::testing
