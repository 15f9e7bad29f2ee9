// Connections the server closes end when it closes them, whatever the client does: the slot of
// its address, its session and its subscriptions are given back within a second or two, not
// after Beast's 30 s close handshake timeout (issue 19). And SIGTERM ends every session within
// the grace time, also those of clients that neither read nor answer.
#include <gtest/gtest.h>

#include <thread>

#include "support/play.h"
#include "support/raw_socket.h"
#include "support/server_process.h"
#include "test_support.h"

namespace viktory::server::testing {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

const std::vector<std::pair<std::string, std::string>> kAttacker = {
    {"X-Forwarded-For", "203.0.113.9"}};

// Behind the test's "proxy" (127.0.0.1 is trusted) the attacker has an address of his own with
// one connection allowed; the test's own HTTP requests (metrics, sign-ups) are the proxy's.
class Closing : public ::testing::Test {
 protected:
  void SetUp() override {
    server = std::make_unique<ServerProcess>(
        dir.file("closing.db"), dir.path().string(),
        std::vector<std::string>{"--trusted-proxy", "127.0.0.1", "--max-connections-per-address",
                                 "1"});
    alice = sign_up(server->port(), "Alice");
  }

  double open_connections() { return metric(server->port(), "viktory_connections_open"); }

  // How long until no WebSocket is open any more (the server's own count), at most `limit`.
  std::chrono::milliseconds time_until_released(Clock::time_point since,
                                                std::chrono::milliseconds limit) {
    while (open_connections() != 0 && Clock::now() - since < limit) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - since);
  }

  // A signed-in connection from the attacker's address that subscribes to the lobby, and never
  // reads or answers anything.
  std::unique_ptr<RawSocket> signed_in_attacker() {
    auto raw = std::make_unique<RawSocket>(server->port(), kAttacker);
    EXPECT_TRUE(raw->send_text(json{{"type", "auth"}, {"token", alice.token}}.dump()));
    EXPECT_TRUE(raw->send_text(json{{"type", "lobby.subscribe"}}.dump()));
    for (int i = 0; i < 100 && open_connections() != 1; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_EQ(open_connections(), 1);
    return raw;
  }

  // The address's slot is free again: a new connection from it is accepted.
  bool address_can_connect() {
    try {
      WsClient again;
      again.connect(server->port(), "/ws", true, kAttacker);
      again.send(json{{"type", "ping"}});
      return again.wait_type("pong")["type"] == "pong";
    } catch (const std::exception&) {
      return false;
    }
  }

  TempDir dir;
  std::unique_ptr<ServerProcess> server;
  Account alice;
};

TEST_F(Closing, AnOversizedMessageReleasesItsConnectionAtOnce) {
  auto attacker = signed_in_attacker();
  const std::string oversized =
      json{{"type", "chat.send"}, {"game_id", 1}, {"text", std::string(100 * 1024, 'x')}}.dump();
  const auto start = Clock::now();
  attacker->send_text(oversized);
  attacker->send_text(oversized);  // and on, as if nothing happened
  const auto took = time_until_released(start, std::chrono::seconds(10));
  EXPECT_LT(took, std::chrono::milliseconds(3500)) << "the closed connection lingered";
  EXPECT_TRUE(address_can_connect());
  EXPECT_EQ(server->log().find("to arrive"), std::string::npos)
      << "released by the frame watchdog, not by its close";
}

// Over 4x the limit Beast fails the connection itself (close code 1009) and waits for the
// client's side of the close; the idle timer's next tick ends it.
TEST_F(Closing, AMessageFarOverTheLimitReleasesItsConnectionSoon) {
  auto attacker = signed_in_attacker();
  const auto start = Clock::now();
  attacker->send(text_frame_header(1024 * 1024));
  for (int i = 0; i < 16; ++i) attacker->send(std::string(16 * 1024, 'x'));
  const auto took = time_until_released(start, std::chrono::seconds(12));
  EXPECT_LT(took, std::chrono::milliseconds(6000)) << "the failed connection lingered";
  EXPECT_TRUE(address_can_connect());
}

TEST_F(Closing, TooManyFailedSignInsReleaseTheConnectionAtOnce) {
  RawSocket attacker(server->port(), kAttacker);
  const auto start = Clock::now();
  for (int i = 0; i < 3; ++i) {
    attacker.send_text(json{{"type", "auth"}, {"token", std::string(64, 'a')}}.dump());
  }
  const auto took = time_until_released(start, std::chrono::seconds(10));
  EXPECT_LT(took, std::chrono::milliseconds(3500)) << "the closed connection lingered";
  EXPECT_TRUE(address_can_connect());
}

// A client that does not read is dropped once its queue is full; its session goes with it.
TEST_F(Closing, ASlowClientIsReleasedAtOnce) {
  WsClient player;
  player.connect(server->port(), "/ws", true, {{"X-Forwarded-For", "203.0.113.11"}});
  sign_in(player, alice);
  std::vector<Seen> seen;
  const Account bob = sign_up(server->port(), "Bob");
  WsClient other;
  other.connect(server->port(), "/ws", true, {{"X-Forwarded-For", "203.0.113.10"}});
  sign_in(other, bob);
  const std::int64_t id = start_game({&player, &other}, seen);
  WsClient slow;
  slow.connect(server->port(), "/ws", /*start_reading=*/false, kAttacker);
  slow.send(json{{"type", "auth"}, {"token", alice.token}});
  const auto start = Clock::now();
  for (int i = 0; i < 3000; ++i) slow.send(json{{"type", "game.watch"}, {"game_id", id}});
  double open = 3;
  while ((open = open_connections()) != 2 && Clock::now() - start < std::chrono::seconds(10)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(open, 2);
  EXPECT_EQ(metric(server->port(), "viktory_slow_clients_dropped_total"), 1);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
  EXPECT_TRUE(address_can_connect());
}

// SIGTERM with connections in every state: honest ones, a message half sent, send queues that
// do not drain (clients that do not read), clients that never answer a close frame. Every
// session ends within the grace time, so the server exits 0 without giving up on any.
TEST(Shutdown, EverySessionEndsWithinTheGraceTime) {
  TempDir dir;
  ServerProcess server(dir.file("shutdown.db"), dir.path().string());
  const Account alice = sign_up(server.port(), "Alice");
  const Account bob = sign_up(server.port(), "Bob");
  WsClient a, b;
  a.connect(server.port());
  b.connect(server.port());
  sign_in(a, alice);
  sign_in(b, bob);
  std::vector<Seen> seen;
  const std::int64_t id = start_game({&a, &b}, seen);

  std::vector<std::unique_ptr<WsClient>> honest;
  for (int i = 0; i < 10; ++i) {
    honest.push_back(std::make_unique<WsClient>());
    honest.back()->connect(server.port());
    sign_in(*honest.back(), i % 2 ? alice : bob);
    honest.back()->send(json{{"type", "game.watch"}, {"game_id", id}});
  }
  std::vector<std::unique_ptr<RawSocket>> raw;
  const std::string half = R"({"type":"ping","pad":"....................................."})";
  for (int i = 0; i < 5; ++i) {  // mid-message
    raw.push_back(std::make_unique<RawSocket>(server.port()));
    raw.back()->send(text_frame_header(half.size()) + half.substr(0, 20));
  }
  for (int i = 0; i < 5; ++i) {  // idle, and deaf to close frames
    raw.push_back(std::make_unique<RawSocket>(server.port()));
    raw.back()->send_text(json{{"type", "ping"}}.dump());
  }
  std::vector<std::unique_ptr<WsClient>> full;
  for (int i = 0; i < 4; ++i) {  // send queues that do not drain
    full.push_back(std::make_unique<WsClient>());
    full.back()->connect(server.port(), "/ws", /*start_reading=*/false);
    full.back()->send(json{{"type", "auth"}, {"token", alice.token}});
    for (int k = 0; k < 300; ++k) full.back()->send(json{{"type", "game.watch"}, {"game_id", id}});
  }
  // Let the server take all of that in.
  for (int i = 0; i < 100 && metric(server.port(), "viktory_connections_open") < 22; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  ASSERT_GE(metric(server.port(), "viktory_connections_open"), 22);

  const double dropped = metric(server.port(), "viktory_slow_clients_dropped_total");
  EXPECT_LT(dropped, 4) << "the queues that do not drain must still be there";
  const auto start = Clock::now();
  EXPECT_EQ(server.terminate(), 0);
  const auto took = Clock::now() - start;
  EXPECT_LT(took, std::chrono::milliseconds(3500))
      << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms";
  EXPECT_EQ(server.log().find("stopping anyway"), std::string::npos) << server.log();
  EXPECT_NE(server.log().find("bye"), std::string::npos);
  EXPECT_TRUE(a.wait_closed());
  for (auto& h : honest) EXPECT_TRUE(h->wait_closed());
}

}  // namespace
}  // namespace viktory::server::testing
