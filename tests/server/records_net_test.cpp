// Players' records over the real server process: a rated game played over real WebSockets to
// its end, then the ladder, the finished list and the profiles read over real HTTP, with the
// profile's privacy as a stranger, an opponent and the player himself (player_records.h).
#include <gtest/gtest.h>

#include <fstream>

#include "support/play.h"
#include "support/server_process.h"
#include "test_support.h"

namespace viktory::server::testing {
namespace {

using nlohmann::json;

TEST(RecordsNet, ARatedGameOverWebSocketsThenTheLadderListsAndProfilesOverHttp) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "web");
  std::ofstream(dir.path() / "web" / "index.html") << "<!doctype html><title>VIKTORY</title>";
  ServerProcess server(dir.file("records.db"), (dir.path() / "web").string());
  const int port = server.port();
  const Account alice = sign_up(port, "Alice");
  const Account bob = sign_up(port, "Bob");
  const Account carol = sign_up(port, "Carol");
  WsClient a, b;
  a.connect(port);
  b.connect(port);
  sign_in(a, alice);
  sign_in(b, bob);
  std::vector<WsClient*> clients{&a, &b};
  std::vector<Seen> seen;
  const std::int64_t id = start_game(clients, seen);

  // Phases ended (or the first other legal action) until the third Player Turn: every seat's
  // first one is over, so the game counts; then whoever decides concedes.
  for (int step = 0; step < 400 && seen[0].view["turn"].get<int>() < 3; ++step) {
    const std::size_t mover = seen[0].view["decider"].get<std::size_t>();
    json action;
    for (const json& c : seen[mover].legal) {
      if (c["kind"] == "end_phase") action = c;
    }
    for (const json& c : seen[mover].legal) {
      if (action.is_null() && c["kind"] != "concede") action = c;
    }
    act_and_wait(*clients[mover], id, action, clients, seen, mover);
  }
  ASSERT_GE(seen[0].view["turn"].get<int>(), 3);
  const std::size_t loser = seen[0].view["decider"].get<std::size_t>();
  act_and_wait(*clients[loser], id, json{{"kind", "concede"}}, clients, seen, loser);
  const Account& winner = loser == 0 ? bob : alice;

  const json game = http_request(port, "GET", "/api/games/" + std::to_string(id)).json();
  EXPECT_EQ(game["status"], "finished");
  EXPECT_EQ(game["rated"], true);
  const json ladder = http_request(port, "GET", "/api/ladder?players=2").json();
  ASSERT_EQ(ladder["entries"].size(), 2u);
  EXPECT_EQ(ladder["entries"][0]["player_id"], winner.player_id);
  EXPECT_GT(ladder["entries"][0]["rating"].get<double>(),
            ladder["entries"][1]["rating"].get<double>());
  const json list = http_request(port, "GET", "/api/finished?players=2&rated=true").json();
  ASSERT_EQ(list["games"].size(), 1u);
  EXPECT_EQ(list["games"][0]["game_id"], id);

  // Alice shows her profile to her opponents only.
  const std::string profile = "/api/players/" + alice.player_id;
  EXPECT_EQ(http_request(port, "GET", profile).status, 200);
  EXPECT_EQ(http_request(port, "POST", "/api/profile/privacy", R"({"visible_to":"opponents"})",
                         alice.token)
                .status,
            200);
  EXPECT_EQ(http_request(port, "GET", profile).status, 403);                    // anonymous
  EXPECT_EQ(http_request(port, "GET", profile, "", carol.token).status, 403);   // a stranger
  EXPECT_EQ(http_request(port, "GET", profile, "", bob.token).status, 200);     // an opponent
  const json own = http_request(port, "GET", profile, "", alice.token).json();  // herself
  EXPECT_EQ(own["visible_to"], "opponents");
  EXPECT_EQ(own["played"], 1);
  EXPECT_EQ(
      http_request(port, "GET", "/api/finished?player=" + alice.player_id, "", carol.token).status,
      403);
  bool named = false;
  // The answer kept whole while its entries are read (a temporary's part would not outlive it).
  const json ladder_for_carol =
      http_request(port, "GET", "/api/ladder?players=2", "", carol.token).json();
  for (const json& e : ladder_for_carol["entries"]) {
    named = named || e.value("player_id", "") == alice.player_id;
  }
  EXPECT_FALSE(named);
}

}  // namespace
}  // namespace viktory::server::testing
