// The look back over loopback HTTP against the real server and a real SQLite file
// (GET /api/games/<id>/analysis, server/games/game_analysis.h): refused while the game runs, 202
// pending then the result once it is over, computed once (the server's log counts the
// analyses) and kept across a restart.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "support/play.h"
#include "support/server_process.h"
#include "test_support.h"

namespace viktory::server::testing {
namespace {

using nlohmann::json;

int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(AnalysisNet, RefusedWhileRunningThenPendingThenDoneOnceAndKept) {
  TempDir dir;
  const std::string db = dir.file("analysis.db");
  std::filesystem::create_directories(dir.path() / "web");
  auto server = std::make_unique<ServerProcess>(db, (dir.path() / "web").string());
  const Account alice = sign_up(server->port(), "Alice");
  const Account bob = sign_up(server->port(), "Bob");
  WsClient a, b;
  a.connect(server->port());
  b.connect(server->port());
  sign_in(a, alice);
  sign_in(b, bob);
  std::vector<Seen> seen;
  const std::int64_t game_id = start_game({&a, &b}, seen);
  const std::string target = "/api/games/" + std::to_string(game_id) + "/analysis";

  EXPECT_EQ(http_request(server->port(), "GET", "/api/games/999999/analysis").status, 404);
  // A running game: never analysed, whoever asks (a player of it too).
  for (const std::string& token : {std::string(), alice.token}) {
    const HttpReply running = http_request(server->port(), "GET", target, "", token);
    EXPECT_EQ(running.status, 409);
    EXPECT_EQ(running.json()["error"]["code"], "game_running");
  }
  // A few turns, then Bob concedes [5.1].
  for (int i = 0; i < 30 && seen[0].view["phase"] != "game_over"; ++i) {
    const int who = seen[0].view["decider"];
    json pick;
    for (const json& action : seen[static_cast<std::size_t>(who)].legal) {
      if (action["kind"] == "end_phase" || (pick.is_null() && action["kind"] != "concede")) {
        pick = action;
      }
    }
    if (pick.is_null()) break;
    act_and_wait(who == 0 ? a : b, game_id, pick, {&a, &b}, seen, static_cast<std::size_t>(who));
  }
  act_and_wait(b, game_id, json{{"kind", "concede"}}, {&a, &b}, seen, 1);
  ASSERT_EQ(seen[0].view["phase"], "game_over");

  const HttpReply first = http_request(server->port(), "GET", target);
  ASSERT_EQ(first.status, 202) << first.body;
  EXPECT_EQ(first.json()["status"], "pending");
  HttpReply done = first;
  for (int i = 0; i < 600 && done.status == 202; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    done = http_request(server->port(), "GET", target);
  }
  ASSERT_EQ(done.status, 200) << done.body;
  const json j = done.json();
  EXPECT_EQ(j["status"], "done");
  ASSERT_GE(j["points"].size(), 2u);
  const json& result = j["points"].back();
  EXPECT_TRUE(result.value("final", false));
  EXPECT_EQ(result["chances"], json::array({1, 0}));  // Alice won: Bob conceded
  // Asked again, with a token too: the same answer, not computed again.
  EXPECT_EQ(http_request(server->port(), "GET", target, "", bob.token).body, done.body);
  // The server logs before it answers, but its output reaches this test through a pipe and a
  // reader thread of its own: waited for a moment.
  const std::string analysed = "game_analysed game=" + std::to_string(game_id);
  for (int i = 0; i < 100 && count_of(server->log(), analysed) == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(count_of(server->log(), analysed), 1);

  // A restarted server reads it back from the database.
  server->terminate();
  server = std::make_unique<ServerProcess>(db, (dir.path() / "web").string());
  const HttpReply kept = http_request(server->port(), "GET", target);
  EXPECT_EQ(kept.status, 200);
  EXPECT_EQ(kept.body, done.body);
  EXPECT_EQ(count_of(server->log(), "game_analysed"), 0);
}

}  // namespace
}  // namespace viktory::server::testing
