// Two real players over real WebSockets against the real server process.
#include <gtest/gtest.h>

#include <fstream>

#include "support/play.h"
#include "support/server_process.h"
#include "test_support.h"

namespace viktory::server::testing {
namespace {

using nlohmann::json;

json first_legal(const Seen& s, const std::string& kind) {
  for (const json& a : s.legal) {
    if (a.at("kind") == kind) return a;
  }
  return nullptr;
}

class GameFlow : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(dir.path() / "web");
    std::ofstream(dir.path() / "web" / "index.html") << "<!doctype html><title>VIKTORY</title>";
    server = std::make_unique<ServerProcess>(dir.file("game.db"), (dir.path() / "web").string());
    alice = sign_up(server->port(), "Alice");
    bob = sign_up(server->port(), "Bob");
    a.connect(server->port());
    b.connect(server->port());
    sign_in(a, alice);
    sign_in(b, bob);
  }

  int decider_index() const { return int(seen[0].view.at("decider")); }

  TempDir dir;
  std::unique_ptr<ServerProcess> server;
  Account alice, bob;
  WsClient a, b;
  std::vector<Seen> seen;
};

TEST_F(GameFlow, HttpEndpoints) {
  EXPECT_EQ(http_request(server->port(), "GET", "/healthz").body, "ok\n");
  const HttpReply index = http_request(server->port(), "GET", "/");
  EXPECT_EQ(index.status, 200);
  EXPECT_EQ(index.content_type, "text/html; charset=utf-8");
  EXPECT_NE(index.body.find("VIKTORY"), std::string::npos);
  EXPECT_EQ(http_request(server->port(), "GET", "/../game.db").status, 404);
  EXPECT_EQ(http_request(server->port(), "GET", "/%2e%2e/game.db").status, 404);
  const HttpReply metrics = http_request(server->port(), "GET", "/metrics");
  EXPECT_NE(metrics.body.find("viktory_connections_open 2"), std::string::npos) << metrics.body;
  EXPECT_NE(metrics.body.find("viktory_action_latency_seconds_bucket"), std::string::npos);
  EXPECT_EQ(http_request(server->port(), "POST", "/api/session", R"({"name":""})").status, 400);
  EXPECT_EQ(http_request(server->port(), "POST", "/api/session", "not json").status, 400);
  EXPECT_EQ(http_request(server->port(), "GET", "/api/my-games").status, 401);
  EXPECT_EQ(http_request(server->port(), "GET", "/api/my-games", "", alice.token).status, 200);
  EXPECT_EQ(http_request(server->port(), "GET", "/api/games/999").status, 404);
  EXPECT_EQ(http_request(server->port(), "GET", "/api/nothing").status, 404);
}

TEST_F(GameFlow, TwoPlayersPlayAndEachSeesTheOthersMoves) {
  b.send(json{{"type", "lobby.subscribe"}});
  EXPECT_TRUE(b.wait_type("lobby")["games"].empty());
  const std::int64_t game_id = [&] {
    a.send(json{{"type", "game.create"},
                {"seats", 2},
                {"victory", "standard"},
                {"tile_mix", "standard"},
                {"independent_exploration", false},
                {"private", false}});
    return std::int64_t(a.wait_type("game.created")["game_id"]);
  }();
  // Bob sees the new game in the lobby, live (a change of his page: docs/protocol.md).
  const json listed = b.wait_for([&](const json& m) {
    return m["type"] == "lobby.changes" && m["games"].size() == 1 &&
           m["games"][0]["game_id"] == game_id && m["count"] == 1;
  });
  EXPECT_EQ(listed["games"][0]["seats"][0]["name"], "Alice");
  const HttpReply open = http_request(server->port(), "GET", "/api/games");
  EXPECT_EQ(open.json()["games"].size(), 1u);

  b.send(json{{"type", "game.join"}, {"game_id", game_id}});
  seen.assign(2, Seen{});
  seen[0].absorb(a.wait_type("game.state"));
  seen[1].absorb(b.wait_type("game.state"));
  EXPECT_EQ(seen[0].seat, 0);
  EXPECT_EQ(seen[1].seat, 1);
  EXPECT_EQ(seen[0].seq, 0);
  std::vector<WsClient*> both = {&a, &b};

  // [4.0] Capitals: each decider places his Capital on one of his choices.
  for (int placed = 0; placed < 2; ++placed) {
    const int who = decider_index();
    const json capital = first_legal(seen[who], "place_capital");
    ASSERT_FALSE(capital.is_null()) << seen[who].legal.dump();
    const json update = act_and_wait(*both[who], game_id, capital, both, seen, who);
    EXPECT_EQ(seen[0].seq, seen[1].seq);
    // The other player was told, with a log line naming the mover's colour.
    const json& other_view = seen[1 - who].view;
    EXPECT_EQ(other_view["players"][who]["capital_hex"], capital["hex"]);
    EXPECT_FALSE(update["log"].empty());
  }
  // [7.0] Build phase, then end the phases until the turn passes to the other player.
  const int first = decider_index();
  ASSERT_EQ(seen[first].view["phase"], "build");
  const json town = first_legal(seen[first], "build_town");
  if (!town.is_null()) {
    act_and_wait(*both[first], game_id, town, both, seen, first);
    bool other_sees_town = false;
    for (const json& h : seen[1 - first].view["hexes"]) {
      if (h["hex"] == town["hex"] && h.value("town_owner", -1) == first) other_sees_town = true;
    }
    EXPECT_TRUE(other_sees_town);
  }
  for (int guard = 0; guard < 10 && decider_index() == first; ++guard) {
    json end = first_legal(seen[first], "end_phase");
    ASSERT_FALSE(end.is_null()) << seen[first].legal.dump();
    act_and_wait(*both[first], game_id, end, both, seen, first);
  }
  EXPECT_EQ(decider_index(), 1 - first);
  EXPECT_EQ(seen[1 - first].view["current"], 1 - first);

  // Chat reaches the other player as plain text.
  b.send(json{{"type", "chat.send"}, {"game_id", game_id}, {"text", "<i>well played</i>"}});
  const json chat = a.wait_type("chat");
  EXPECT_EQ(chat["text"], "<i>well played</i>");
  EXPECT_EQ(chat["from_seat"], 1);

  // My games: whose turn it is.
  a.send(json{{"type", "my_games"}});
  const json mine = a.wait_type("my_games");
  ASSERT_EQ(mine["games"].size(), 1u);
  EXPECT_EQ(mine["games"][0]["game_id"], game_id);
  EXPECT_EQ(mine["games"][0]["your_turn"], first == 1);
  EXPECT_EQ(mine["games"][0]["current_seat"], 1 - first);
  EXPECT_FALSE(mine["games"][0]["last_move_at"].is_null());

  // Concede: the game is over for everyone and becomes read-only; the replay is available.
  const int loser = decider_index();
  both[loser]->send(json{{"type", "game.action"},
                         {"game_id", game_id},
                         {"seq", seen[loser].seq},
                         {"action", {{"kind", "concede"}}}});
  // The update carries only what changed of the view: the phase and the winners among it.
  const json over = both[1 - loser]->wait_for([](const json& m) {
    return m["type"] == "game.update" &&
           m["delta"].value("set", json::object()).value("phase", "") == "game_over";
  });
  EXPECT_EQ(over["delta"]["set"]["winners"], json::array({1 - loser}));
  both[1 - loser]->send(json{{"type", "game.action"},
                             {"game_id", game_id},
                             {"seq", over["seq"]},
                             {"action", {{"kind", "end_phase"}}}});
  EXPECT_EQ(both[1 - loser]->wait_type("error")["code"], "game_over");
  const HttpReply replay =
      http_request(server->port(), "GET",
                   "/api/games/" + std::to_string(game_id) + "/replay?seat=0", "", alice.token);
  ASSERT_EQ(replay.status, 200) << replay.body;
  EXPECT_EQ(replay.json()["viewer"], 0);
  // The first page: the view at the start, then one step per action.
  EXPECT_EQ(replay.json()["last_seq"], over["seq"]);
  EXPECT_EQ(replay.json()["steps"].size(), std::size_t(over["seq"]));
  EXPECT_EQ(replay.json()["steps"].back()["action"]["kind"], "concede");
  // Someone else asking for seat 0 gets the spectator's replay.
  const HttpReply other =
      http_request(server->port(), "GET",
                   "/api/games/" + std::to_string(game_id) + "/replay?seat=0", "", bob.token);
  EXPECT_TRUE(other.json()["viewer"].is_null());
}

TEST_F(GameFlow, ReconnectWithTheTokenResumes) {
  const std::int64_t game_id = start_game({&a, &b}, seen);
  std::vector<WsClient*> both = {&a, &b};
  const int who = decider_index();
  act_and_wait(*both[who], game_id, first_legal(seen[who], "place_capital"), both, seen, who);

  b.drop();
  // The game goes on while Bob is away.
  const int next = decider_index();
  if (next == 0) {
    std::vector<WsClient*> only_a = {&a};
    std::vector<Seen> seen_a = {seen[0]};
    act_and_wait(a, game_id, first_legal(seen[0], "place_capital"), only_a, seen_a, 0);
    seen[0] = seen_a[0];
  }
  WsClient again;
  again.connect(server->port());
  sign_in(again, bob);
  again.send(json{{"type", "game.watch"}, {"game_id", game_id}});
  const json state = again.wait_type("game.state");
  EXPECT_EQ(state["seq"], seen[0].seq);
  EXPECT_EQ(state["you"]["seat"], 1);
  EXPECT_EQ(state["view"]["viewer"], 1);
  EXPECT_FALSE(state["log"].empty());
  EXPECT_EQ(state["view"]["players"], seen[0].view["players"]);
}

TEST_F(GameFlow, UndoOverTheWire) {
  const std::int64_t game_id = start_game({&a, &b}, seen);
  std::vector<WsClient*> both = {&a, &b};
  // Play until a player may undo (a random legal non-concede action each time).
  for (int i = 0; i < 200; ++i) {
    const int who = decider_index();
    if (seen[who].can_undo) {
      const int seq = seen[who].seq;
      both[who]->send(json{{"type", "game.undo"}, {"game_id", game_id}, {"seq", seq}, {"req", 9}});
      const json state = both[1 - who]->wait_type("game.state");
      EXPECT_EQ(state["seq"], seq - 1);
      const json mine = both[who]->wait_type("game.state");
      EXPECT_EQ(mine["seq"], seq - 1);
      EXPECT_EQ(both[who]->wait_type("ack")["req"], 9);
      return;
    }
    json pick;
    for (const json& act : seen[who].legal) {
      if (act["kind"] != "concede") pick = act;
      if (act["kind"] == "move") break;
    }
    ASSERT_FALSE(pick.is_null());
    act_and_wait(*both[who], game_id, pick, both, seen, who);
  }
  FAIL() << "no undo opportunity in 200 actions";
}

TEST_F(GameFlow, PrivateGamesNeedTheInvite) {
  a.send(json{{"type", "game.create"}, {"seats", 2}, {"private", true}});
  const json created = a.wait_type("game.created");
  ASSERT_TRUE(created.contains("invite"));
  const std::int64_t id = created["game_id"];
  // Without the invite a private game answers like a game that does not exist.
  b.send(json{{"type", "game.watch"}, {"game_id", id}});
  EXPECT_EQ(b.wait_type("error")["code"], "not_found");
  b.send(json{{"type", "game.join"}, {"game_id", id}, {"invite", "0123"}});
  EXPECT_EQ(b.wait_type("error")["code"], "not_found");
  const HttpReply hidden = http_request(server->port(), "GET", "/api/games/" + std::to_string(id));
  const HttpReply missing =
      http_request(server->port(), "GET", "/api/games/" + std::to_string(id + 100));
  EXPECT_EQ(hidden.status, 404);
  EXPECT_EQ(hidden.body, missing.body);
  EXPECT_TRUE(http_request(server->port(), "GET", "/api/games").json()["games"].empty());
  b.send(json{{"type", "game.join"}, {"game_id", id}, {"invite", created["invite"]}});
  EXPECT_EQ(b.wait_type("game.state")["you"]["seat"], 1);
}

TEST_F(GameFlow, GracefulShutdownSendsCloseFrames) {
  EXPECT_EQ(server->terminate(), 0);
  EXPECT_TRUE(a.wait_closed());
  EXPECT_TRUE(b.wait_closed());
  EXPECT_NE(server->log().find("bye"), std::string::npos);
  // The database was closed cleanly: the last connection checkpointed and removed the WAL.
  EXPECT_FALSE(std::filesystem::exists(dir.file("game.db") + "-wal"));
}

}  // namespace
}  // namespace viktory::server::testing
