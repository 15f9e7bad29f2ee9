// Every class of bad input gets a clear error, the connection stays usable where safe, and
// nothing changes.
#include <gtest/gtest.h>

#include <map>

#include "support/play.h"
#include "support/server_process.h"
#include "test_support.h"

namespace viktory::server::testing {
namespace {

using nlohmann::json;

class Errors : public ::testing::Test {
 protected:
  void SetUp() override { start_server({}); }

  void start_server(std::vector<std::string> args) {
    server.reset();
    server = std::make_unique<ServerProcess>(dir.file("errors.db"), dir.path().string(), args);
    alice = sign_up(server->port(), "Alice");
    bob = sign_up(server->port(), "Bob");
    carol = sign_up(server->port(), "Carol");
  }

  // Sends a message and returns the error it caused; checks the connection still answers.
  json error_for(WsClient& ws, const std::string& raw) {
    ws.send_raw(raw);
    const json e = ws.wait_type("error");
    ws.send(json{{"type", "ping"}});
    EXPECT_EQ(ws.wait_type("pong")["type"], "pong") << "connection unusable after " << raw;
    return e;
  }

  TempDir dir;
  std::unique_ptr<ServerProcess> server;
  Account alice, bob, carol;
};

TEST_F(Errors, MalformedMessages) {
  WsClient ws;
  ws.connect(server->port());
  EXPECT_EQ(error_for(ws, "{not json")["code"], "bad_json");
  EXPECT_EQ(error_for(ws, "[1,2]")["code"], "bad_message");
  // Deep nesting must neither crash the parser nor the destructor.
  EXPECT_EQ(error_for(ws, std::string(60000, '['))["code"], "bad_json");
  EXPECT_EQ(error_for(ws, std::string(30000, '[') + std::string(30000, ']'))["code"],
            "bad_message");
  EXPECT_EQ(error_for(ws, "{\"type\":\"ping\"} trailing")["code"], "bad_json");
  EXPECT_EQ(error_for(ws, R"({"no_type":1})")["code"], "bad_message");
  EXPECT_EQ(error_for(ws, R"({"type":5})")["code"], "bad_message");
  EXPECT_EQ(error_for(ws, R"({"type":"ping","req":"x"})")["code"], "bad_message");
  EXPECT_EQ(error_for(ws, R"({"type":"my_games","req":7})")["code"], "unauthenticated");
  EXPECT_EQ(error_for(ws, R"({"type":"my_games","req":7})")["req"], 7);
  sign_in(ws, alice);
  EXPECT_EQ(error_for(ws, R"({"type":"frobnicate"})")["code"], "unknown_type");
  EXPECT_EQ(error_for(ws, R"({"type":"game.watch","game_id":"1"})")["code"], "bad_message");
  EXPECT_EQ(error_for(ws, R"({"type":"game.watch","game_id":424242})")["code"], "not_found");
  EXPECT_EQ(error_for(ws, R"({"type":"game.create","seats":9})")["code"], "bad_options");
  EXPECT_EQ(error_for(ws, R"({"type":"game.create","seats":2,"victory":"fast"})")["code"],
            "bad_options");
  EXPECT_EQ(error_for(ws, R"({"type":"game.create","seats":2,"private":"yes"})")["code"],
            "bad_message");
  ws.send_raw("binary!", /*binary=*/true);
  EXPECT_EQ(ws.wait_type("error")["code"], "bad_message");
}

// RFC 6455: a text frame that is not UTF-8 fails the connection (Beast closes it, code 1007).
TEST_F(Errors, InvalidUtf8ClosesOnlyThatConnection) {
  WsClient bad, good;
  bad.connect(server->port());
  good.connect(server->port());
  bad.send_raw("{\"type\":\"\xff\xfe\"}");
  EXPECT_TRUE(bad.wait_closed());
  good.send(json{{"type", "ping"}});
  EXPECT_EQ(good.wait_type("pong")["type"], "pong");
}

TEST_F(Errors, BadTokensAndTooManyFailures) {
  WsClient ws;
  ws.connect(server->port());
  EXPECT_EQ(error_for(ws, R"({"type":"auth","token":"nope"})")["code"], "auth_failed");
  EXPECT_EQ(error_for(ws, json{{"type", "auth"}, {"token", std::string(64, 'a')}}.dump())["code"],
            "auth_failed");
  ws.send(json{{"type", "auth"}, {"token", std::string(64, 'b')}});
  EXPECT_EQ(ws.wait_type("error")["code"], "auth_failed");
  EXPECT_TRUE(ws.wait_closed()) << "third failure must close the connection";
}

TEST_F(Errors, GameActionsThatMustNotApply) {
  WsClient a, b, c;
  a.connect(server->port());
  b.connect(server->port());
  c.connect(server->port());
  sign_in(a, alice);
  sign_in(b, bob);
  sign_in(c, carol);
  std::vector<Seen> seen;
  const std::int64_t id = start_game({&a, &b}, seen);
  const int who = seen[0].view["decider"];
  WsClient* mover = who == 0 ? &a : &b;
  WsClient* waiter = who == 0 ? &b : &a;
  const json legal = seen[who].legal[0];
  auto action = [&](int seq, json act) {
    return json{{"type", "game.action"}, {"game_id", id}, {"seq", seq}, {"action", act}}.dump();
  };
  EXPECT_EQ(error_for(*waiter, action(0, legal))["code"], "not_your_turn");
  EXPECT_EQ(error_for(c, action(0, legal))["code"], "not_seated");  // a foreign seat
  const json illegal = error_for(*mover, action(0, {{"kind", "move"}, {"unit", 999}, {"hex", 0}}));
  EXPECT_EQ(illegal["code"], "illegal_action");
  EXPECT_TRUE(illegal.contains("reason"));
  EXPECT_EQ(error_for(*mover, action(0, {{"kind", "teleport"}}))["code"], "bad_message");
  EXPECT_EQ(error_for(*mover, action(0, {{"kind", "move"}, {"unit", "x"}}))["code"], "bad_message");
  EXPECT_EQ(error_for(*mover, R"({"type":"game.action","game_id":1,"seq":0,"action":3})")["code"],
            "bad_message");
  // Stale: the error carries the current seq and a fresh state follows.
  mover->send_raw(action(5, legal));
  const json stale = mover->wait_type("error");
  EXPECT_EQ(stale["code"], "stale");
  EXPECT_EQ(stale["seq"], 0);
  EXPECT_EQ(mover->wait_type("game.state")["seq"], 0);
  EXPECT_EQ(
      error_for(*mover, json{{"type", "game.undo"}, {"game_id", id}, {"seq", 0}}.dump())["code"],
      "cannot_undo");
  EXPECT_EQ(error_for(c, json{{"type", "game.leave"}, {"game_id", id}}.dump())["code"], "not_open");
  EXPECT_EQ(
      error_for(a, json{{"type", "chat.send"}, {"game_id", id}, {"text", std::string(600, 'x')}}
                       .dump())["code"],
      "chat_too_long");

  // Nothing changed: still seq 0.
  c.send(json{{"type", "game.watch"}, {"game_id", id}});
  const json state = c.wait_type("game.state");
  EXPECT_EQ(state["seq"], 0);
  EXPECT_TRUE(state["you"]["seat"].is_null());
  EXPECT_TRUE(state["legal"].empty());

  // Now a real action applies exactly once even when sent twice with the same seq.
  mover->send_raw(action(0, legal));
  mover->send_raw(action(0, legal));
  EXPECT_EQ(mover->wait_type("game.update")["seq"], 1);
  EXPECT_EQ(mover->wait_type("error")["code"], "stale");
}

TEST_F(Errors, OversizedMessageClosesTheConnection) {
  WsClient ws;
  ws.connect(server->port());
  sign_in(ws, alice);
  ws.send(json{{"type", "chat.send"}, {"game_id", 1}, {"text", std::string(70 * 1024, 'x')}});
  EXPECT_EQ(ws.wait_type("error")["code"], "too_large");
  EXPECT_TRUE(ws.wait_closed());
}

TEST_F(Errors, RateLimitDropsFloods) {
  start_server({"--rate-limit", "20"});  // the production default
  WsClient ws;
  ws.connect(server->port());
  for (int i = 0; i < 120; ++i) ws.send(json{{"type", "ping"}});
  int pongs = 0, limited = 0;
  while (auto m = ws.receive(std::chrono::milliseconds(1500))) {
    if ((*m)["type"] == "pong") ++pongs;
    if ((*m)["type"] == "error" && (*m)["code"] == "rate_limited") ++limited;
  }
  EXPECT_GT(limited, 0);
  EXPECT_LT(pongs, 120);
  EXPECT_EQ(pongs + limited, 120);
}

// A refused message goes unparsed, yet its refusal names its req (read from the message's ends:
// the web client sends it last, others first), so that the client can fail that request.
TEST_F(Errors, RateLimitedRepliesCarryTheirReq) {
  start_server({"--rate-limit", "20"});
  WsClient ws;
  ws.connect(server->port());
  const std::string pad(3000, '.');
  for (int i = 1; i <= 120; ++i) {
    const std::string n = std::to_string(i);
    if (i % 2) {
      ws.send_raw(R"({"pad":")" + pad + R"(","type":"ping","req":)" + n + "}");  // web client
    } else {
      ws.send_raw(R"({"req":)" + n + R"(,"type":"ping","pad":")" + pad + R"("})");
    }
  }
  std::map<int, int> answers;
  int limited = 0;
  while (auto m = ws.receive(std::chrono::milliseconds(1500))) {
    if ((*m)["type"] == "error" && (*m)["code"] == "rate_limited") {
      ++limited;
      ASSERT_TRUE(m->contains("req")) << m->dump();
    }
    if (m->contains("req")) ++answers[(*m)["req"].get<int>()];
  }
  EXPECT_GT(limited, 0);
  EXPECT_EQ(answers.size(), 120u);
  for (const auto& [req, count] : answers) EXPECT_EQ(count, 1) << "req " << req;
}

// A client that does not read would make the server hold its messages forever: once its send
// queue passes the limit (4 MiB or 1024 messages) it is disconnected; others are unaffected.
TEST_F(Errors, SlowClientIsDisconnected) {
  WsClient a, b;
  a.connect(server->port());
  b.connect(server->port());
  sign_in(a, alice);
  sign_in(b, bob);
  std::vector<Seen> seen;
  const std::int64_t id = start_game({&a, &b}, seen);
  WsClient slow;
  slow.connect(server->port(), "/ws", /*start_reading=*/false);
  slow.send(json{{"type", "auth"}, {"token", carol.token}});
  for (int i = 0; i < 3000; ++i) slow.send(json{{"type", "game.watch"}, {"game_id", id}});
  bool dropped = false;
  for (int i = 0; i < 200 && !dropped; ++i) {
    const std::string metrics = http_request(server->port(), "GET", "/metrics").body;
    dropped = metrics.find("viktory_slow_clients_dropped_total 1") != std::string::npos;
    if (!dropped) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(dropped);
  a.send(json{{"type", "ping"}});
  EXPECT_EQ(a.wait_type("pong")["type"], "pong");
}

// A peer that answers no ping is closed after the idle timeout; one that does stays.
TEST_F(Errors, SilentPeersAreClosedAfterTheIdleTimeout) {
  start_server({"--idle-timeout", "2"});
  WsClient deaf, alive;
  deaf.connect(server->port(), "/ws", /*start_reading=*/false);  // never reads, never pongs
  alive.connect(server->port());
  auto open_connections = [&] {
    const std::string metrics = http_request(server->port(), "GET", "/metrics").body;
    const std::string key = "\nviktory_connections_open ";
    return std::stoi(metrics.substr(metrics.find(key) + key.size()));
  };
  EXPECT_EQ(open_connections(), 2);
  int open = 2;
  for (int i = 0; i < 100 && open != 1; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    open = open_connections();
  }
  EXPECT_EQ(open, 1);
  alive.send(json{{"type", "ping"}});
  EXPECT_EQ(alive.wait_type("pong")["type"], "pong");
}

TEST_F(Errors, ConnectionsPerAddressAreLimited) {
  start_server({"--max-connections-per-address", "2"});
  // The sign-up requests of start_server are HTTP connections the server counts down when their
  // sessions end, asynchronously: on a loaded machine one may still count for a moment, so the
  // first two connections may retry.
  auto connect_with_retries = [&](WsClient& client) {
    for (int i = 0; i < 50; ++i) {
      try {
        client.connect(server->port());
        return true;
      } catch (const std::exception&) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    }
    return false;
  };
  WsClient one, two, three;
  ASSERT_TRUE(connect_with_retries(one));
  ASSERT_TRUE(connect_with_retries(two));
  EXPECT_ANY_THROW(three.connect(server->port()));
  one.close();
  // The slot is given back once the first connection is gone.
  bool connected = false;
  for (int i = 0; i < 50 && !connected; ++i) {
    try {
      WsClient four;
      four.connect(server->port());
      connected = true;
      four.close();
    } catch (const std::exception&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  EXPECT_TRUE(connected);
}

}  // namespace
}  // namespace viktory::server::testing
