// Presence (presence.h), and the Hub telling it of sign-ins and closed connections.
#include "presence.h"

#include <gtest/gtest.h>

#include "hub.h"
#include "store.h"
#include "test_support.h"
#include "token.h"

namespace viktory::server {
namespace {

using nlohmann::json;

TEST(Presence, OnlineWhileAnyConnectionIsOpenThenLastSeen) {
  std::int64_t clock = 1000;
  Presence presence([&] { return clock; });
  EXPECT_EQ(presence.of({7})["7"], (json{{"online", false}, {"last_seen", nullptr}}));
  presence.connected(7);
  presence.connected(7);  // a second tab
  clock = 2000;
  presence.disconnected(7);
  EXPECT_TRUE(presence.online(7));
  clock = 3000;
  presence.disconnected(7);
  EXPECT_FALSE(presence.online(7));
  EXPECT_EQ(presence.of({7})["7"], (json{{"online", false}, {"last_seen", 3000}}));
}

// Several servers (peer_bus.h): a player is online while he is connected to any of them; the
// sink hears of this server's own comings and goings only.
TEST(Presence, OnlineAtAnyServerAndTheSinkHearsOnlyThisOnesChanges) {
  std::int64_t clock = 1000;
  Presence presence([&] { return clock; });
  std::vector<json> told;
  presence.set_sink([&](std::int64_t player, bool online, std::int64_t last_seen) {
    told.push_back(json{player, online, last_seen});
  });
  presence.set_remote("http://second.example", 7, true, 0);
  EXPECT_TRUE(presence.online(7));
  EXPECT_TRUE(told.empty());
  presence.connected(7);
  presence.connected(7);
  clock = 2000;
  presence.disconnected(7);
  EXPECT_EQ(told, (std::vector<json>{json{7, true, 0}}));
  presence.disconnected(7);
  EXPECT_EQ(told.back(), (json{7, false, 2000}));
  EXPECT_TRUE(presence.online(7)) << "still connected to the second server";
  presence.set_remote("http://second.example", 7, false, 2500);
  EXPECT_EQ(presence.of({7})["7"], (json{{"online", false}, {"last_seen", 2500}}));
  // A server that goes takes its players offline, last seen when it went.
  presence.set_remote("http://second.example", 8, true, 0);
  presence.set_remote("http://third.example", 9, true, 0);
  clock = 4000;
  presence.drop_remote("http://second.example");
  EXPECT_EQ(presence.of({8})["8"], (json{{"online", false}, {"last_seen", 4000}}));
  EXPECT_TRUE(presence.online(9));
}

TEST(Presence, TheEndpointTakesAListOfIdsAndRefusesAnythingElse) {
  using Ids = std::vector<std::int64_t>;
  EXPECT_EQ(Presence::ids_of("/api/presence?players=3,4"), Ids({3, 4}));
  EXPECT_EQ(Presence::ids_of("/api/presence?x=1&players=5"), Ids({5}));
  EXPECT_EQ(Presence::ids_of("/api/presence"), Ids());
  EXPECT_EQ(Presence::ids_of("/api/presence?players=3,x"), std::nullopt);
  EXPECT_EQ(Presence::ids_of("/api/presence?players=-1"), std::nullopt);
  std::string many = "/api/presence?players=1";
  for (int i = 2; i <= 70; ++i) many += "," + std::to_string(i);
  EXPECT_EQ(Presence::ids_of(many), std::nullopt);
}

// Who may ask about whom: a signed-in player about himself and the players he shares a game
// with (not a cancelled one); anyone else is left out of the answer.
TEST(PresenceApi, AnswersASignedInPlayerAboutThoseWhoShareAGameWithHim) {
  testing::TempDir dir;
  Store store(dir.file("p.db"));
  Presence presence([] { return 5; });
  PresenceApi api(presence, store, 1000);
  const std::string token = new_token();
  const PlayerRecord alice = store.create_player("Alice", token_hash(token), 1);
  const PlayerRecord bob = store.create_player("Bob", "b", 1);
  const PlayerRecord carol = store.create_player("Carol", "c", 1);
  const PlayerRecord dave = store.create_player("Dave", "d", 1);
  for (const PlayerRecord& p : {alice, bob, carol, dave}) presence.connected(p.id);
  auto game_of = [&](const PlayerRecord& a, const PlayerRecord& b) {
    GameRecord g;
    g.options.players = 2;
    g.created = 1000;
    g.creator = a;
    g.seats = {SeatRecord{0, a.id, a.name, ""}, SeatRecord{1, b.id, b.name, ""}};
    return store.create_game(g);
  };
  game_of(alice, bob);
  store.cancel_game(game_of(carol, alice));
  game_of(bob, dave);  // Bob's game: Alice is not in it
  const std::string target = "/api/presence?players=" + std::to_string(alice.id) + "," +
                             std::to_string(bob.id) + "," + std::to_string(carol.id) + "," +
                             std::to_string(dave.id);
  const ApiResponse r = api.handle("GET", target, "Bearer " + token, "198.51.100.1");
  ASSERT_EQ(r.status, 200) << r.body;
  const json players = json::parse(r.body)["players"];
  EXPECT_EQ(players.size(), 2u) << players.dump();
  EXPECT_TRUE(players.contains(std::to_string(alice.id)));
  EXPECT_EQ(players[std::to_string(bob.id)]["online"], true);
  EXPECT_EQ(api.handle("GET", target, "", "198.51.100.1").status, 401);
  EXPECT_EQ(api.handle("GET", target, "Bearer " + new_token(), "198.51.100.1").status, 401);
  EXPECT_EQ(api.handle("POST", target, "Bearer " + token, "198.51.100.1").status, 405);
  EXPECT_EQ(api.handle("GET", "/api/presence?players=x", "Bearer " + token, "198.51.100.1").status,
            400);
}

// Every request costs its address a token first, signed in or not.
TEST(PresenceApi, IsLimitedPerClientAddress) {
  testing::TempDir dir;
  Store store(dir.file("p.db"));
  Presence presence;
  PresenceApi api(presence, store, 3);
  const std::string token = new_token();
  store.create_player("Alice", token_hash(token), 1);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(api.handle("GET", "/api/presence?players=1", "", "198.51.100.1").status, 401);
  }
  const ApiResponse refused =
      api.handle("GET", "/api/presence?players=1", "Bearer " + token, "198.51.100.1");
  EXPECT_EQ(refused.status, 429);
  EXPECT_GT(refused.retry_after_seconds, 0);
  EXPECT_EQ(api.handle("GET", "/api/presence?players=1", "Bearer " + token, "198.51.100.2").status,
            200);
}

class FakeClient : public Client {
 public:
  void deliver(Message) override {}
  void close(std::string_view) override {}
};

TEST(Presence, TheHubReportsSignInsAndClosedConnections) {
  testing::TempDir dir;
  Store store(dir.file("p.db"));
  Metrics metrics;
  Presence presence;
  HubOptions options;
  options.presence = &presence;
  Hub hub(store, metrics, options);
  const std::string token = new_token();
  const PlayerRecord alice = store.create_player("Alice", token_hash(token), 1);
  FakeClient tab;
  hub.on_open(&tab);
  EXPECT_FALSE(presence.online(alice.id));
  hub.on_message(&tab, json{{"type", "auth"}, {"token", token}}.dump());
  EXPECT_TRUE(presence.online(alice.id));
  hub.on_close(&tab);
  EXPECT_FALSE(presence.online(alice.id));
  EXPECT_FALSE(presence.of({alice.id})[std::to_string(alice.id)]["last_seen"].is_null());
}

}  // namespace
}  // namespace viktory::server
