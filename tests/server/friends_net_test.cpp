// Friends over the network (issue 22), against the real server binary on loopback: follows over
// HTTP, a follower's view of the followed player's online state (GET /api/presence and
// GET /api/friends) following that player's profile privacy, and game.invite_friend over a real
// WebSocket with its refusals (tests/server/friends_test.cpp has the full matrix and budgets).
#include <gtest/gtest.h>

#include "support/play.h"
#include "support/server_process.h"
#include "test_support.h"

namespace viktory::server::testing {
namespace {

using nlohmann::json;

class FriendsNet : public ::testing::Test {
 protected:
  void SetUp() override {
    server = std::make_unique<ServerProcess>(dir.file("friends.db"), dir.path().string(),
                                             std::vector<std::string>{});
    alice = sign_up(server->port(), "Alice");
    bob = sign_up(server->port(), "Bob");
  }
  HttpReply post(const std::string& path, const json& body, const Account& who) {
    return http_request(server->port(), "POST", path, body.dump(), who.token);
  }
  bool presence_shows_bob_to_alice() {
    const HttpReply r = http_request(server->port(), "GET",
                                     "/api/presence?players=" + bob.player_id, "", alice.token);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json()["players"].contains(bob.player_id);
  }

  TempDir dir;
  std::unique_ptr<ServerProcess> server;
  Account alice, bob;
};

TEST_F(FriendsNet, AFollowerSeesTheOnlineStateOnlyAsTheProfilesPrivacyAllows) {
  WsClient bobs_tab;
  bobs_tab.connect(server->port());
  sign_in(bobs_tab, bob);
  EXPECT_FALSE(presence_shows_bob_to_alice());  // a stranger
  ASSERT_EQ(post("/api/follow", {{"player", bob.player_id}, {"follow", true}}, alice).status, 200);
  EXPECT_TRUE(presence_shows_bob_to_alice());  // a follower; Bob shows his profile to everyone
  json listed = http_request(server->port(), "GET", "/api/friends", "", alice.token).json();
  ASSERT_EQ(listed["friends"].size(), 1u);
  EXPECT_EQ(listed["friends"][0]["online"], true);
  for (const char* hidden : {"opponents", "nobody"}) {
    SCOPED_TRACE(hidden);
    ASSERT_EQ(post("/api/profile/privacy", {{"visible_to", hidden}}, bob).status, 200);
    EXPECT_FALSE(presence_shows_bob_to_alice());
    listed = http_request(server->port(), "GET", "/api/friends", "", alice.token).json();
    EXPECT_FALSE(listed["friends"][0].contains("online")) << listed.dump();
  }
}

TEST_F(FriendsNet, InviteAFriendOverTheWebSocket) {
  ASSERT_EQ(post("/api/follow", {{"player", bob.player_id}, {"follow", true}}, alice).status, 200);
  ASSERT_EQ(post("/api/follow", {{"player", alice.player_id}, {"follow", true}}, bob).status, 200);
  WsClient a;
  a.connect(server->port());
  sign_in(a, alice);
  a.send({{"type", "game.create"}, {"seats", 2}, {"req", 1}});
  const std::int64_t game = a.wait_type("game.created")["game_id"];
  a.send(
      {{"type", "game.invite_friend"}, {"game_id", game}, {"player", bob.player_id}, {"req", 2}});
  const json told = a.wait_type("game.friend_invited");
  EXPECT_EQ(told["player"], bob.player_id);
  a.send(
      {{"type", "game.invite_friend"}, {"game_id", game}, {"player", bob.player_id}, {"req", 3}});
  EXPECT_EQ(a.wait_type("error")["code"], "already_invited");
  // Bob may not invite anybody into a game he is not in.
  WsClient b;
  b.connect(server->port());
  sign_in(b, bob);
  b.send({{"type", "game.invite_friend"}, {"game_id", game}, {"player", alice.player_id}});
  EXPECT_EQ(b.wait_type("error")["code"], "not_seated");
}

}  // namespace
}  // namespace viktory::server::testing
