// Caps on games with computer seats (computer_caps.h) through the Hub without sockets: per
// player, per client address and on the whole server, refused with too_many_computer_games;
// freed when a game ends; counted from the database, so the same after a restart.
#include "computer_caps.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "hub.h"
#include "test_support.h"

namespace viktory::server {
namespace {

using nlohmann::json;
using testing::Recorder;
using testing::TempDir;

struct FakeClient : Client {
  void deliver(Message m) override {
    std::lock_guard lock(mutex);
    recorder.deliver(std::move(m));
  }
  void close(std::string_view) override {}
  json last(const std::string& type) {
    std::lock_guard lock(mutex);
    return recorder.last(type);
  }
  std::mutex mutex;
  Recorder recorder;
};

HubOptions caps(int per_player, int per_address, int total) {
  HubOptions o;
  o.computer_caps = ComputerCapsOptions{per_player, per_address, total};
  o.computers.pool.threads = 1;
  o.computers.pool.nice = 0;
  o.message_burst = 1000;  // many creates in a row
  return o;
}

class ComputerCapsTest : public ::testing::Test {
 protected:
  void start(HubOptions options) {
    hub.reset();
    hub = std::make_unique<Hub>(store, metrics, options);
  }
  // A signed-in connection of a new player (or of `token`'s) from `address`.
  std::unique_ptr<FakeClient> connect(const std::string& name, const std::string& address,
                                      std::string* token = nullptr) {
    auto c = std::make_unique<FakeClient>();
    hub->on_open(c.get(), address);
    std::string t = token != nullptr && !token->empty() ? *token : sign_up(name);
    if (token != nullptr) *token = t;
    hub->on_message(c.get(), json{{"type", "auth"}, {"token", t}}.dump());
    return c;
  }
  std::string sign_up(const std::string& name) {
    const ApiResponse r = hub->handle_api("POST", "/api/session", json{{"name", name}}.dump(), "");
    EXPECT_EQ(r.status, 200) << r.body;
    return json::parse(r.body)["token"];
  }
  // A 3-seat game with a computer at seat 2: open (it waits for a second human), so its
  // computer costs nothing yet. Returns the game id, or 0 and the error in `error`.
  std::int64_t create(FakeClient& c,
                      json computers = json::array({{{"seat", 2}, {"level", "random"}}}),
                      json* error = nullptr) {
    const int req = ++next_req;
    hub->on_message(
        &c,
        json{{"type", "game.create"}, {"seats", 3}, {"computers", computers}, {"req", req}}.dump());
    const json created = c.last("game.created");
    const json refused = c.last("error");
    if (refused.is_object() && refused.value("req", 0) == req) {
      if (error != nullptr) *error = refused;
      return 0;
    }
    return created.at("game_id");
  }

  TempDir dir;
  Store store{dir.file("caps.db")};
  Metrics metrics;
  std::unique_ptr<Hub> hub;
  int next_req = 0;
};

TEST_F(ComputerCapsTest, APlayerHasOnlySoManyAndGetsOneBackWhenAGameEnds) {
  start(caps(2, 100, 100));
  auto alice = connect("Alice", "192.0.2.1");
  const std::int64_t first = create(*alice);
  ASSERT_NE(first, 0);
  ASSERT_NE(create(*alice), 0);
  json error;
  EXPECT_EQ(create(*alice, json::array({{{"seat", 1}, {"level", "search"}}}), &error), 0);
  EXPECT_EQ(error["code"], "too_many_computer_games");
  EXPECT_EQ(error["scope"], "player");
  EXPECT_EQ(error["limit"], 2);
  EXPECT_FALSE(error["message"].get<std::string>().empty());
  // Nothing was made of the refused request.
  EXPECT_EQ(store.live_computer_games().size(), 2u);
  // A game between humans is no computer game.
  EXPECT_NE(create(*alice, json::array()), 0);
  // Her first game ends (she leaves it while it is open: cancelled): one place again.
  hub->on_message(alice.get(), json{{"type", "game.leave"}, {"game_id", first}}.dump());
  EXPECT_NE(create(*alice), 0);
  EXPECT_EQ(create(*alice, json::array({{{"seat", 1}, {"level", "random"}}}), &error), 0);
  EXPECT_EQ(error["scope"], "player");
  // Another player is not concerned.
  auto bob = connect("Bob", "192.0.2.2");
  EXPECT_NE(create(*bob), 0);
  hub->on_close(alice.get());
  hub->on_close(bob.get());
}

TEST_F(ComputerCapsTest, AnAddressHasOnlySoManyWhateverAccountsItUses) {
  start(caps(10, 2, 100));
  auto alice = connect("Alice", "192.0.2.7");
  auto bob = connect("Bob", "192.0.2.7");
  auto carol = connect("Carol", "198.51.100.3");
  ASSERT_NE(create(*alice), 0);
  ASSERT_NE(create(*bob), 0);
  json error;
  EXPECT_EQ(create(*bob, json::array({{{"seat", 1}, {"level", "heuristic"}}}), &error), 0);
  EXPECT_EQ(error["code"], "too_many_computer_games");
  EXPECT_EQ(error["scope"], "address");
  EXPECT_EQ(error["limit"], 2);
  EXPECT_NE(create(*carol), 0);  // from elsewhere
  for (FakeClient* c : {alice.get(), bob.get(), carol.get()}) hub->on_close(c);
}

TEST_F(ComputerCapsTest, TheServerHasOnlySoManyInAll) {
  start(caps(10, 10, 3));
  auto alice = connect("Alice", "192.0.2.1");
  auto bob = connect("Bob", "192.0.2.2");
  ASSERT_NE(create(*alice), 0);
  ASSERT_NE(create(*alice), 0);
  ASSERT_NE(create(*bob), 0);
  json error;
  EXPECT_EQ(create(*bob, json::array({{{"seat", 2}, {"level", "random"}}}), &error), 0);
  EXPECT_EQ(error["code"], "too_many_computer_games");
  EXPECT_EQ(error["scope"], "server");
  EXPECT_EQ(error["limit"], 3);
  hub->on_close(alice.get());
  hub->on_close(bob.get());
}

TEST_F(ComputerCapsTest, RequestsAtTheSameTimeCannotPassTheCapTogether) {
  start(caps(3, 100, 100));
  std::string token;
  std::vector<std::unique_ptr<FakeClient>> connections;
  for (int i = 0; i < 8; ++i) connections.push_back(connect("Alice", "192.0.2.1", &token));
  std::atomic<int> go{0};
  std::vector<std::thread> threads;
  for (auto& c : connections) {
    threads.emplace_back([&, client = c.get()] {
      ++go;
      while (go < 8) std::this_thread::yield();
      hub->on_message(client, json{{"type", "game.create"},
                                   {"seats", 3},
                                   {"computers", json::array({{{"seat", 2}, {"level", "random"}}})}}
                                  .dump());
    });
  }
  for (std::thread& t : threads) t.join();
  int created = 0;
  for (auto& c : connections) created += c->last("game.created").is_object() ? 1 : 0;
  EXPECT_EQ(created, 3);
  EXPECT_EQ(store.live_computer_games().size(), 3u);
  for (auto& c : connections) hub->on_close(c.get());
}

TEST_F(ComputerCapsTest, TheCountComesFromTheDatabaseAfterARestartEvenUnderLowerCaps) {
  start(caps(3, 100, 100));
  std::string token;
  auto alice = connect("Alice", "192.0.2.1", &token);
  std::vector<std::int64_t> games;
  for (int i = 0; i < 3; ++i) games.push_back(create(*alice));
  hub->on_close(alice.get());
  // Restarted with a lower cap: her three games stay (the newest beyond the cap get only spare
  // computer time) and she may create none until she is below it.
  start(caps(2, 100, 100));
  {
    ComputerCaps lowered(store, ComputerCapsOptions{2, 100, 100});
    EXPECT_EQ(lowered.over_caps(), std::set<std::int64_t>{games[2]});
    ComputerCaps server_cap(store, ComputerCapsOptions{100, 100, 1});
    EXPECT_EQ(server_cap.over_caps(), (std::set<std::int64_t>{games[1], games[2]}));
  }
  alice = connect("Alice", "192.0.2.1", &token);
  json error;
  EXPECT_EQ(create(*alice, json::array({{{"seat", 1}, {"level", "random"}}}), &error), 0);
  EXPECT_EQ(error["scope"], "player");
  EXPECT_EQ(error["limit"], 2);
  for (const std::int64_t g : {games[0], games[1]}) {
    hub->on_message(alice.get(), json{{"type", "game.leave"}, {"game_id", g}}.dump());
  }
  EXPECT_NE(create(*alice), 0);  // one game left, and one new: two
  hub->on_close(alice.get());
}

}  // namespace
}  // namespace viktory::server
