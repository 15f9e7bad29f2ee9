// The lobby over real WebSockets and HTTP against the real server process (issues 19 and 20):
// pages of the open list by speed with the time control in every summary, GET /api/games paged,
// pages asked for wrongly refused, the cap on open games per player, and "Games to watch"
// without one's own games.
#include <gtest/gtest.h>

#include <fstream>

#include "support/play.h"
#include "support/server_process.h"
#include "test_support.h"

namespace viktory::server::testing {
namespace {

using nlohmann::json;

TEST(LobbyNet, PagesBySpeedWithTheTimeControlTheCapAndGamesToWatch) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "web");
  std::ofstream(dir.path() / "web" / "index.html") << "<!doctype html><title>VIKTORY</title>";
  ServerProcess server(dir.file("lobby.db"), (dir.path() / "web").string(),
                       {"--max-open-games-per-player", "2"});
  const Account alice = sign_up(server.port(), "Alice");
  const Account bob = sign_up(server.port(), "Bob");
  const Account carol = sign_up(server.port(), "Carol");
  WsClient a, b, c;
  a.connect(server.port());
  b.connect(server.port());
  c.connect(server.port());
  sign_in(a, alice);
  sign_in(b, bob);
  sign_in(c, carol);

  const json daily_clock{{"per_move_seconds", 3 * 86400},
                         {"bank_seconds", 86400},
                         {"vacation_days", 3},
                         {"skips_before_expel", 2}};
  a.send(json{{"type", "game.create"}, {"seats", 2}, {"clock", daily_clock}});
  const std::int64_t daily = a.wait_type("game.created")["game_id"];
  a.send(json{{"type", "game.create"}, {"seats", 3}, {"clock", {{"per_move_seconds", 300}}}});
  const std::int64_t live = a.wait_type("game.created")["game_id"];
  // A third open game for Alice is refused (the cap is 2 here).
  a.send(json{{"type", "game.create"}, {"seats", 2}, {"req", 3}});
  const json refused = a.wait_type("error");
  EXPECT_EQ(refused["code"], "too_many_open_games");
  EXPECT_EQ(refused["req"], 3);

  // Bob watches the daily games: one, with its time control in parts.
  b.send(json{{"type", "lobby.subscribe"}, {"speed", "daily"}});
  const json page = b.wait_type("lobby");
  ASSERT_EQ(page["count"], 1);
  ASSERT_EQ(page["games"].size(), 1u);
  EXPECT_EQ(page["speed"], "daily");
  const json& listed = page["games"][0];
  EXPECT_EQ(listed["game_id"], daily);
  EXPECT_EQ(listed["speed"], "daily");
  EXPECT_EQ(listed["clock"]["per_move_seconds"], 3 * 86400);
  EXPECT_EQ(listed["clock"]["bank_seconds"], 86400);
  EXPECT_EQ(listed["clock"]["vacation_days"], 3);
  EXPECT_EQ(listed["clock"]["skips_before_expel"], 2);
  b.send(json{{"type", "lobby.subscribe"}, {"speed", "fast"}, {"req", 4}});
  EXPECT_EQ(b.wait_type("error")["code"], "bad_page");

  // The same over HTTP, paged.
  const json all = http_request(server.port(), "GET", "/api/games?limit=1").json();
  EXPECT_EQ(all["count"], 2);
  ASSERT_EQ(all["games"].size(), 1u);
  EXPECT_EQ(all["games"][0]["game_id"], daily);  // oldest first
  const json second = http_request(server.port(), "GET", "/api/games?offset=1&limit=1").json();
  ASSERT_EQ(second["games"].size(), 1u);
  EXPECT_EQ(second["games"][0]["game_id"], live);
  EXPECT_EQ(second["games"][0]["speed"], "live");
  EXPECT_EQ(http_request(server.port(), "GET", "/api/games?speed=live").json()["count"], 1);
  EXPECT_EQ(http_request(server.port(), "GET", "/api/games?limit=1000").status, 400);
  EXPECT_EQ(http_request(server.port(), "GET", "/api/games?offset=x").status, 400);

  // Bob joins the daily game: it runs, Carol may watch it, Alice and Bob find it in their own
  // games and not among the games to watch.
  b.send(json{{"type", "game.join"}, {"game_id", daily}});
  b.wait_type("game.state");
  c.send(json{{"type", "lobby.running"}});
  const json watch = c.wait_type("lobby.running");
  ASSERT_EQ(watch["games"].size(), 1u);
  EXPECT_EQ(watch["games"][0]["game_id"], daily);
  EXPECT_EQ(watch["games"][0]["clock"]["per_move_seconds"], 3 * 86400);
  // Before, "Games to watch" listed one's own game (issue 20).
  a.send(json{{"type", "lobby.running"}});
  EXPECT_TRUE(a.wait_type("lobby.running")["games"].empty());
  a.send(json{{"type", "my_games"}});
  const json mine = a.wait_type("my_games");
  ASSERT_EQ(mine["games"].size(), 2u);
  EXPECT_EQ(mine["games"][0]["game_id"], live);  // newest first
  EXPECT_TRUE(mine["games"][1]["clock"]["deadline"].is_number());
  EXPECT_EQ(mine["games"][1]["clock"]["per_move_seconds"], 3 * 86400);
}

}  // namespace
}  // namespace viktory::server::testing
