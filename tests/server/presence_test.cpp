// Presence (presence.h), and the Hub telling it of sign-ins and closed connections.
#include "presence.h"

#include <gtest/gtest.h>

#include "hub.h"
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

TEST(Presence, TheEndpointTakesAListOfIdsAndRefusesAnythingElse) {
  Presence presence([] { return 5; });
  presence.connected(3);
  const ApiResponse r = presence.handle_api("GET", "/api/presence?players=3,4");
  ASSERT_EQ(r.status, 200);
  const json players = json::parse(r.body)["players"];
  EXPECT_EQ(players["3"]["online"], true);
  EXPECT_EQ(players["4"]["online"], false);
  EXPECT_EQ(presence.handle_api("GET", "/api/presence?players=3,x").status, 400);
  EXPECT_EQ(presence.handle_api("GET", "/api/presence?players=-1").status, 400);
  EXPECT_EQ(presence.handle_api("POST", "/api/presence").status, 405);
  std::string many = "/api/presence?players=1";
  for (int i = 2; i <= 70; ++i) many += "," + std::to_string(i);
  EXPECT_EQ(presence.handle_api("GET", many).status, 400);
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
