// The Hub without sockets: clients are recorders; JSON goes in as text, as from a WebSocket.
#include "hub.h"

#include <gtest/gtest.h>

#include "fake_clients.h"
#include "test_support.h"

namespace viktory::server {
namespace {

using nlohmann::json;
using testing::Recorder;
using testing::TempDir;

struct FakeClient : Client {
  void deliver(Message m) override { recorder.deliver(std::move(m)); }
  void close(std::string_view reason) override { closed_with = std::string(reason); }
  Recorder recorder;
  std::string closed_with;
};

class HubTest : public ::testing::Test {
 protected:
  HubTest() : store(dir.file("hub.db")), hub(store, metrics, HubOptions{}) {}

  // A new player through the API; returns the token.
  std::string sign_up(const std::string& name) {
    const ApiResponse r = hub.handle_api("POST", "/api/session", json{{"name", name}}.dump(), "");
    EXPECT_EQ(r.status, 200) << r.body;
    return json::parse(r.body)["token"];
  }
  // Fair play's reveal round is answered as the browser does (fake_clients.h).
  void send(FakeClient& c, const json& m) { round.send(hub, c, m); }
  testing::RoundAnswerer<FakeClient> round;

  TempDir dir;
  Store store;
  Metrics metrics;
  Hub hub;
};

TEST_F(HubTest, OnlyPingAndAuthBeforeSigningIn) {
  FakeClient c;
  hub.on_open(&c);
  send(c, {{"type", "ping"}});
  EXPECT_FALSE(c.recorder.last("pong").is_null());
  send(c, {{"type", "my_games"}, {"req", 3}});
  EXPECT_EQ(c.recorder.last("error")["code"], "unauthenticated");
  EXPECT_EQ(c.recorder.last("error")["req"], 3);
  const std::string token = sign_up("Alice");
  send(c, {{"type", "auth"}, {"token", token}});
  EXPECT_EQ(c.recorder.last("welcome")["name"], "Alice");
  send(c, {{"type", "auth"}, {"token", token}});
  EXPECT_EQ(c.recorder.last("error")["code"], "bad_message");  // once per connection
  hub.on_close(&c);
}

// The API's reads cost what their WebSocket twins cost, from the client address's bucket
// (twice the per-connection rate): one address repeating GET /api/my-games (a read of the store)
// is refused with 429 before long; another address is not affected.
TEST_F(HubTest, ApiReadsAreChargedToTheClientAddress) {
  const std::string token = "Bearer " + sign_up("Dana");
  int answered = 0;
  int refused = 0;
  for (int i = 0; i < 200; ++i) {
    const int status = hub.handle_api("GET", "/api/my-games", "", token, "198.51.100.7").status;
    (status == 200 ? answered : refused) += 1;
    EXPECT_TRUE(status == 200 || status == 429) << status;
  }
  EXPECT_GT(answered, 0);
  EXPECT_LT(answered, 60);  // burst 80 at a cost of 3, and a little refill meanwhile
  EXPECT_GT(refused, 140);
  EXPECT_EQ(hub.handle_api("GET", "/api/games", "", "", "198.51.100.7").status, 429);
  EXPECT_EQ(hub.handle_api("GET", "/api/my-games", "", token, "198.51.100.8").status, 200);
  EXPECT_EQ(hub.handle_api("GET", "/api/games", "", "", "198.51.100.8").status, 200);
}

TEST_F(HubTest, ThirdFailedSignInClosesTheConnection) {
  FakeClient c;
  hub.on_open(&c);
  for (int i = 0; i < 2; ++i) send(c, {{"type", "auth"}, {"token", std::string(64, 'a')}});
  EXPECT_TRUE(c.closed_with.empty());
  send(c, {{"type", "auth"}, {"token", "short"}});
  EXPECT_FALSE(c.closed_with.empty());
  EXPECT_EQ(c.recorder.of_type("error").size(), 3u);
  hub.on_close(&c);
}

TEST_F(HubTest, AckComesAfterEveryMessageTheRequestCaused) {
  FakeClient a, b;
  hub.on_open(&a);
  hub.on_open(&b);
  send(a, {{"type", "auth"}, {"token", sign_up("Alice")}});
  send(b, {{"type", "auth"}, {"token", sign_up("Bob")}});
  send(a, {{"type", "game.create"}, {"seats", 2}, {"req", 1}});
  const std::int64_t id = a.recorder.last("game.created")["game_id"];
  EXPECT_EQ(a.recorder.messages.back()["type"], "ack");
  round.enabled = false;  // the join alone: the seats and the round's request, then its ack
  send(b, {{"type", "game.join"}, {"game_id", id}, {"req", 2}});
  EXPECT_FALSE(b.recorder.last("game.commit_request").is_null());
  EXPECT_EQ(b.recorder.messages.back(), json({{"type", "ack"}, {"req", 2}}));
  round.enabled = true;
  round.settle(hub);  // both reveal (fair play): the game starts
  ASSERT_FALSE(b.recorder.last("game.state").is_null());

  const json state = a.recorder.last("game.state");
  const int decider = state["view"]["decider"];
  FakeClient& mover = decider == 0 ? a : b;
  const json mine = mover.recorder.last("game.state");
  send(mover, {{"type", "game.action"},
               {"game_id", id},
               {"seq", 0},
               {"action", mine["legal"][0]},
               {"req", 7}});
  const auto& msgs = mover.recorder.messages;
  ASSERT_GE(msgs.size(), 2u);
  EXPECT_EQ(msgs[msgs.size() - 2]["type"], "game.update");
  EXPECT_EQ(msgs.back(), json({{"type", "ack"}, {"req", 7}}));
  EXPECT_EQ(store.actions(id).size(), 1u);

  // my_games over the API knows whose turn it is.
  const std::string token = sign_up("Carol");
  EXPECT_EQ(hub.handle_api("GET", "/api/my-games", "", "Bearer " + token).body, R"({"games":[]})");
  EXPECT_EQ(hub.handle_api("GET", "/api/my-games", "", "Bearer nope").status, 401);
  hub.on_close(&a);
  hub.on_close(&b);
}

// game.create takes several victory conditions [5.0] and the optional rules [15.x], keeps
// them with the game and starts the game with them.
TEST_F(HubTest, CreateTakesVictoryConditionsAndOptionalRules) {
  FakeClient a, b;
  hub.on_open(&a);
  hub.on_open(&b);
  send(a, {{"type", "auth"}, {"token", sign_up("Alice")}});
  send(b, {{"type", "auth"}, {"token", sign_up("Bob")}});
  send(a, {{"type", "game.create"},
           {"seats", 2},
           {"victory", {"race", "subjugation"}},
           {"luck_averaging", true},
           {"no_exploration", true},
           {"req", 1}});
  ASSERT_FALSE(a.recorder.last("game.created").is_null()) << a.recorder.last("error").dump();
  const std::int64_t id = a.recorder.last("game.created")["game_id"];
  const json options = a.recorder.last("game.seats")["options"];
  EXPECT_EQ(options["victory"], json({"race", "subjugation"}));
  EXPECT_EQ(options["subjugation"], true);  // [5.2] brings [15.6]
  EXPECT_EQ(options["luck_averaging"], true);
  EXPECT_EQ(options["no_exploration"], true);
  EXPECT_EQ(options["terrain_leveling"], false);
  send(b, {{"type", "game.join"}, {"game_id", id}});
  const json view = b.recorder.last("game.state")["view"];
  EXPECT_EQ(view["options"], options);
  for (const json& hex : view["hexes"]) EXPECT_TRUE(hex.contains("terrain"));  // [15.2]

  const auto refused = [&](const json& message) {
    send(a, message);
    return a.recorder.last("error");
  };
  json bad = {{"type", "game.create"},
              {"seats", 3},
              {"exploration_balancing", true},
              {"independent_exploration", true}};
  EXPECT_EQ(refused(bad)["code"], "bad_options");
  EXPECT_NE(refused(bad)["message"].get<std::string>().find("15.3"), std::string::npos);
  EXPECT_EQ(refused({{"type", "game.create"}, {"seats", 2}, {"victory", json::array()}})["code"],
            "bad_options");
  EXPECT_EQ(refused({{"type", "game.create"}, {"seats", 2}, {"subjugation", "yes"}})["code"],
            "bad_options");
  hub.on_close(&a);
  hub.on_close(&b);
}

TEST_F(HubTest, ApiValidatesInput) {
  EXPECT_EQ(hub.handle_api("POST", "/api/session", R"({"name":"   "})", "").status, 400);
  EXPECT_EQ(hub.handle_api("POST", "/api/session", R"({"name":"a\u0001b"})", "").status, 400);
  EXPECT_EQ(hub.handle_api("POST", "/api/session", R"({"name":42})", "").status, 400);
  EXPECT_EQ(
      hub.handle_api("POST", "/api/session", R"({"name":")" + std::string(33, 'x') + "\"}", "")
          .status,
      400);
  EXPECT_EQ(hub.handle_api("GET", "/api/session", "", "").status, 405);
  EXPECT_EQ(hub.handle_api("GET", "/api/games/abc", "", "").status, 404);
  EXPECT_EQ(hub.handle_api("GET", "/api/games/1/other", "", "").status, 404);
  // The token is stored only as its hash.
  const std::string token = sign_up("Dora");
  Statement s = store.db().prepare("SELECT count(*) FROM players WHERE token_hash = ?");
  s.bind(1, token);
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.int64(0), 0);
}

}  // namespace
}  // namespace viktory::server

namespace viktory::server {
namespace {

TEST(HubSignups, AreRateLimitedPerAddress) {
  testing::TempDir dir;
  Store store(dir.file("signups.db"));
  Metrics metrics;
  HubOptions options;
  options.signups_per_minute = 1;  // burst 2
  Hub hub(store, metrics, options);
  const std::string body = R"({"name":"Bot"})";
  EXPECT_EQ(hub.handle_api("POST", "/api/session", body, "", "10.0.0.1").status, 200);
  EXPECT_EQ(hub.handle_api("POST", "/api/session", body, "", "10.0.0.1").status, 200);
  const ApiResponse third = hub.handle_api("POST", "/api/session", body, "", "10.0.0.1");
  EXPECT_EQ(third.status, 429);
  EXPECT_NE(third.body.find("rate_limited"), std::string::npos);
  EXPECT_EQ(hub.handle_api("POST", "/api/session", body, "", "10.0.0.2").status, 200);
  Statement count = store.db().prepare("SELECT count(*) FROM players");
  ASSERT_TRUE(count.step());
  EXPECT_EQ(count.int64(0), 3);
}

}  // namespace
}  // namespace viktory::server

namespace viktory::server {
namespace {

// game.preview_battle is routed to the seat's preview (server/games/battle_preview_request.h): only
// seated players of a running game get one, with an ack; what they ask is checked.
TEST_F(HubTest, PreviewBattleAnswersSeatedPlayersOfARunningGameOnly) {
  FakeClient a, b, c;
  for (FakeClient* x : {&a, &b, &c}) hub.on_open(x);
  send(a, {{"type", "auth"}, {"token", sign_up("Alice")}});
  send(b, {{"type", "auth"}, {"token", sign_up("Bob")}});
  send(c, {{"type", "auth"}, {"token", sign_up("Carol")}});
  send(a, {{"type", "game.create"}, {"seats", 2}});
  const std::int64_t id = a.recorder.last("game.created")["game_id"];
  send(a, {{"type", "game.preview_battle"}, {"game_id", id}, {"hex", 0}, {"req", 1}});
  EXPECT_EQ(a.recorder.last("error")["code"], "not_running");
  send(b, {{"type", "game.join"}, {"game_id", id}});
  ASSERT_FALSE(a.recorder.last("game.state").is_null());
  // Hex 0 is perimeter water, known to all, with nothing to attack.
  send(a, {{"type", "game.preview_battle"}, {"game_id", id}, {"hex", 0}, {"req", 2}});
  EXPECT_EQ(a.recorder.last("error")["code"], "no_battle");
  EXPECT_EQ(a.recorder.last("error")["req"], 2);
  send(a, {{"type", "game.preview_battle"}, {"game_id", id}, {"req", 3}});
  EXPECT_EQ(a.recorder.last("error")["code"], "bad_message");
  send(c, {{"type", "game.preview_battle"}, {"game_id", id}, {"hex", 0}, {"req", 4}});
  EXPECT_EQ(c.recorder.last("error")["code"], "not_seated");
  EXPECT_TRUE(a.recorder.of_type("battle.preview").empty());
  for (FakeClient* x : {&a, &b, &c}) hub.on_close(x);
}

}  // namespace
}  // namespace viktory::server

namespace viktory::server {
namespace {

// lobby.running (server/games/running_games.h): the running public games that allow spectators,
// never a private game, one without spectators, or one still open.
TEST_F(HubTest, LobbyRunningListsPublicRunningGamesOpenToSpectators) {
  FakeClient a, b, c;
  for (FakeClient* x : {&a, &b, &c}) hub.on_open(x);
  send(a, {{"type", "auth"}, {"token", sign_up("Alice")}});
  send(b, {{"type", "auth"}, {"token", sign_up("Bob")}});
  send(c, {{"type", "auth"}, {"token", sign_up("Carol")}});
  const auto create = [&](json fields) {
    fields["type"] = "game.create";
    fields["seats"] = 2;
    send(a, fields);
    return a.recorder.last("game.created");
  };
  const std::int64_t shown = create({})["game_id"];
  send(b, {{"type", "game.join"}, {"game_id", shown}});
  const json hidden = create({{"private", true}});
  send(b, {{"type", "game.join"}, {"game_id", hidden["game_id"]}, {"invite", hidden["invite"]}});
  const std::int64_t closed = create({{"spectators", "none"}})["game_id"];
  send(b, {{"type", "game.join"}, {"game_id", closed}});
  create({});  // still open
  send(c, {{"type", "lobby.running"}, {"req", 9}});
  const json list = c.recorder.last("lobby.running");
  ASSERT_TRUE(list["games"].is_array()) << list;
  ASSERT_EQ(list["games"].size(), 1u) << list;
  EXPECT_EQ(list["games"][0]["game_id"], shown);
  EXPECT_EQ(list["games"][0]["status"], "running");
  EXPECT_EQ(c.recorder.messages.back(), json({{"type", "ack"}, {"req", 9}}));
  for (FakeClient* x : {&a, &b, &c}) hub.on_close(x);
}

}  // namespace
}  // namespace viktory::server
