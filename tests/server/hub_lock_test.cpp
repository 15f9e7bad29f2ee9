// The Hub's locks (docs/server.md, "Threads and ordering"): while one game's room is busy (its
// lock held, as during a long action), a request waiting for that room holds no lock of the
// Hub, so other connections still sign in, list the lobby and their games, and act in other
// games. The server runs in this process (so the test can hold a room's lock) and is spoken
// to over loopback WebSockets.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <thread>

#include "listener.h"
#include "server_context.h"
#include "support/ws_client.h"
#include "test_support.h"

namespace viktory::server::testing {
namespace {

using nlohmann::json;
namespace net = boost::asio;

// viktory-server's main() in small: a Hub behind the real listener, on two io threads.
class InProcessServer {
 public:
  explicit InProcessServer(const std::string& db)
      : store_(db), hub_(store_, metrics_, HubOptions{}) {
    config_.db = db;
    context_ = std::make_unique<ServerContext>(
        ServerContext{config_, hub_, metrics_, limiter_, registry_, proxies_});
    listener_ = std::make_unique<Listener>(
        ioc_, net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), 0), *context_);
    listener_->start();
    for (int i = 0; i < 2; ++i) threads_.emplace_back([this] { ioc_.run(); });
  }
  ~InProcessServer() {
    listener_->stop();
    registry_.shutdown_all([this] { net::post(ioc_, [this] { ioc_.stop(); }); });
    for (auto& t : threads_) t.join();
  }
  int port() const { return listener_->port(); }
  Hub& hub() { return hub_; }
  Metrics& metrics() { return metrics_; }

 private:
  Config config_;
  Store store_;
  Metrics metrics_;
  Hub hub_;
  ConnectionLimiter limiter_{64};
  SessionRegistry registry_;
  AddressSet proxies_;
  std::unique_ptr<ServerContext> context_;
  net::io_context ioc_{2};
  std::unique_ptr<Listener> listener_;
  std::vector<std::thread> threads_;
};

std::string sign_up(int port, const std::string& name) {
  const HttpReply reply = http_request(port, "POST", "/api/session", json{{"name", name}}.dump());
  return reply.json()["token"].get<std::string>();
}

void sign_in(WsClient& client, int port, const std::string& token) {
  client.connect(port);
  client.send(json{{"type", "auth"}, {"token", token}});
  client.wait_type("welcome");
}

std::int64_t create_game(WsClient& client) {
  client.send(json{{"type", "game.create"}, {"seats", 2}});
  return client.wait_type("game.created")["game_id"].get<std::int64_t>();
}

bool is_ack(const json& m, int req) { return m["type"] == "ack" && m["req"] == req; }

TEST(HubLocks, ABusyRoomStallsNeitherSignInNorListsNorActionsInOtherGames) {
  TempDir dir;
  InProcessServer server(dir.file("locks.db"));
  const int port = server.port();
  WsClient alice, bob, carol, dave;
  sign_in(alice, port, sign_up(port, "Alice"));
  sign_in(bob, port, sign_up(port, "Bob"));
  sign_in(carol, port, sign_up(port, "Carol"));
  sign_in(dave, port, sign_up(port, "Dave"));
  const std::string erin_token = sign_up(port, "Erin");

  // Game A (Alice, Bob) and game B (Carol, Dave) are running; an open game waits in the lobby.
  const std::int64_t game_a = create_game(alice);
  bob.send(json{{"type", "game.join"}, {"game_id", game_a}});
  bob.wait_type("game.state");
  const std::int64_t game_b = create_game(carol);
  dave.send(json{{"type", "game.join"}, {"game_id", game_b}});
  const json dave_state = dave.wait_type("game.state");
  const json carol_state = carol.wait_type("game.state");
  WsClient opener;
  sign_in(opener, port, sign_up(port, "Opener"));
  const std::int64_t open_game = create_game(opener);

  // Game A's room is busy, and Alice's request about it waits for the room: wait until the
  // Hub received it (it counts a message before anything else).
  std::shared_ptr<GameRoom> room_a = server.hub().room_for_testing(game_a);
  ASSERT_NE(room_a, nullptr);
  std::unique_lock busy(room_a->mutex());
  const std::int64_t received = server.metrics().messages_in.load();
  alice.send(json{{"type", "game.watch"}, {"game_id", game_a}, {"req", 1}});
  for (int i = 0; i < 100000 && server.metrics().messages_in.load() == received; ++i) {
    std::this_thread::yield();
  }
  ASSERT_GT(server.metrics().messages_in.load(), received);

  // Meanwhile, with game A's room still held: a sign-in, the lobby list, one's games, and an
  // action in game B are all answered.
  constexpr auto kPatience = std::chrono::seconds(5);
  WsClient erin;
  erin.connect(port);
  erin.send(json{{"type", "auth"}, {"token", erin_token}});
  EXPECT_NO_THROW(erin.wait_type("welcome", kPatience));
  erin.send(json{{"type", "lobby.subscribe"}});
  json lobby;
  EXPECT_NO_THROW(lobby = erin.wait_type("lobby", kPatience));
  ASSERT_EQ(lobby["games"].size(), 1u);
  EXPECT_EQ(lobby["games"][0]["game_id"], open_game);
  carol.send(json{{"type", "my_games"}});
  json mine;
  EXPECT_NO_THROW(mine = carol.wait_type("my_games", kPatience));
  EXPECT_EQ(mine["games"].size(), 1u);

  const int decider = carol_state["view"]["decider"];
  WsClient& mover = carol_state["you"]["seat"] == decider ? carol : dave;
  const json& state = carol_state["you"]["seat"] == decider ? carol_state : dave_state;
  json pick;
  for (const json& a : state["legal"]) {
    if (a["kind"] != "concede") {
      pick = a;
      break;
    }
  }
  ASSERT_FALSE(pick.is_null());
  mover.send(json{{"type", "game.action"},
                  {"game_id", game_b},
                  {"seq", state["seq"]},
                  {"action", pick},
                  {"req", 7}});
  EXPECT_NO_THROW(mover.wait_for([](const json& m) { return is_ack(m, 7); }, kPatience));

  // Once game A's room is free, Alice's request is answered too.
  busy.unlock();
  EXPECT_NO_THROW(alice.wait_for([](const json& m) { return is_ack(m, 1); }, kPatience));
}

}  // namespace
}  // namespace viktory::server::testing
