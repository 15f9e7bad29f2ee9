// Chat comforts over the network (issue 22): unread counts in my_games that move with new lines
// and read marks (never backwards, own lines not counted), mutes filtered on the server (live,
// the history of a new connection, the unread count) with their limits, and the operator's hide
// of a chat line (loopback only, never through a proxy's headers).
#include <gtest/gtest.h>

#include "chat_comforts.h"
#include "support/play.h"
#include "support/server_process.h"
#include "test_support.h"

namespace viktory::server::testing {
namespace {

using nlohmann::json;

class ChatComfortsNet : public ::testing::Test {
 protected:
  void start(std::vector<std::string> args = {}) {
    server = std::make_unique<ServerProcess>(dir.file("chat.db"), dir.path().string(), args);
    alice = sign_up(server->port(), "Alice");
    bob = sign_up(server->port(), "Bob");
    carol = sign_up(server->port(), "Carol");
    const std::pair<WsClient*, const Account*> clients[] = {{&a, &alice}, {&b, &bob}, {&c, &carol}};
    for (const auto& [ws, account] : clients) {
      ws->connect(server->port());
      sign_in(*ws, *account);
    }
    std::vector<Seen> seen;
    game_id = start_game({&a, &b}, seen);
    // Carol watches as a spectator (live: she hears the players' chat).
    c.send(json{{"type", "game.watch"}, {"game_id", game_id}});
    c.wait_type("game.state");
  }

  // Sends a chat line and returns its id (from the sender's own copy).
  std::int64_t say(WsClient& ws, const std::string& text) {
    ws.send(json{{"type", "chat.send"}, {"game_id", game_id}, {"text", text}});
    return ws.wait_for([&](const json& m) { return m["type"] == "chat" && m["text"] == text; })
        .at("id")
        .get<std::int64_t>();
  }

  // The game's chat_unread in the client's my_games.
  int unread(WsClient& ws) {
    ws.send(json{{"type", "my_games"}});
    const json games = ws.wait_type("my_games")["games"];
    for (const json& g : games) {
      if (g["game_id"] == game_id) return g.at("chat_unread").get<int>();
    }
    ADD_FAILURE() << "game not in my_games: " << games.dump();
    return -1;
  }

  void read_up_to(WsClient& ws, std::int64_t up_to) {
    ws.send(json{{"type", "game.chat_read"}, {"game_id", game_id}, {"up_to", up_to}});
  }

  // The chat texts of a fresh connection's game.state.
  std::vector<std::string> history_of(const Account& account) {
    WsClient fresh;
    fresh.connect(server->port());
    sign_in(fresh, account);
    fresh.send(json{{"type", "game.watch"}, {"game_id", game_id}});
    std::vector<std::string> texts;
    const json state = fresh.wait_type("game.state");
    for (const json& line : state["chat"]) texts.push_back(line["text"].get<std::string>());
    return texts;
  }

  HttpReply mute(const Account& who, const std::string& player, bool on) {
    return http_request(server->port(), "POST", "/api/mute",
                        json{{"player", player}, {"mute", on}}.dump(), who.token);
  }

  TempDir dir;
  std::unique_ptr<ServerProcess> server;
  Account alice, bob, carol;
  WsClient a, b, c;
  std::int64_t game_id = 0;
};

bool has(const std::vector<std::string>& texts, const std::string& text) {
  return std::find(texts.begin(), texts.end(), text) != texts.end();
}

TEST_F(ChatComfortsNet, UnreadCountsMoveWithLinesAndReadMarksNeverBackwards) {
  start();
  EXPECT_EQ(unread(a), 0);
  const std::int64_t first = say(b, "first");
  say(b, "second");
  EXPECT_EQ(unread(a), 2);
  EXPECT_EQ(unread(b), 0) << "his own lines are not unread";
  say(c, "from the stands");  // the spectators' channel never counts
  EXPECT_EQ(unread(a), 2);

  read_up_to(a, first);
  EXPECT_EQ(unread(a), 1);
  read_up_to(a, first - 1);  // backwards: no change
  EXPECT_EQ(unread(a), 1);
  // A mark past the last line stops at it: the next line is unread again.
  read_up_to(a, first + 1000000);
  EXPECT_EQ(unread(a), 0);
  say(b, "third");
  EXPECT_EQ(unread(a), 1);
}

TEST_F(ChatComfortsNet, ReadMarksOfSpectatorsAndForeignGamesAreRefused) {
  start();
  const std::int64_t line = say(b, "hello");
  read_up_to(c, line);  // Carol only watches
  EXPECT_EQ(c.wait_type("error")["code"], "not_seated");
  c.send(json{{"type", "game.chat_read"}, {"game_id", game_id + 1000}, {"up_to", line}});
  EXPECT_EQ(c.wait_type("error")["code"], "not_found");
  a.send(json{{"type", "game.chat_read"}, {"game_id", game_id}, {"up_to", -5}});
  EXPECT_EQ(a.wait_type("error")["code"], "bad_message");
  EXPECT_EQ(unread(a), 1);
}

TEST_F(ChatComfortsNet, AMutedPlayersLinesReachNobodyWhoMutedHimAndStillReachOthers) {
  start();
  say(b, "before the mute");
  ASSERT_EQ(mute(alice, bob.player_id, true).status, 200);
  const json listed = http_request(server->port(), "GET", "/api/mutes", "", alice.token).json();
  ASSERT_EQ(listed["mutes"].size(), 1u);
  EXPECT_EQ(listed["mutes"][0]["player_id"], bob.player_id);
  EXPECT_EQ(listed["mutes"][0]["name"], "Bob");

  say(b, "muted line");
  c.wait_for([](const json& m) { return m["type"] == "chat" && m["text"] == "muted line"; });
  say(a, "marker");  // Alice gets her own line after anything queued for her before it
  for (const std::string& raw : a.history()) {
    EXPECT_EQ(raw.find("muted line"), std::string::npos) << raw;
  }
  EXPECT_EQ(unread(a), 0) << "a muted player's lines are not unread";

  // History on a new connection (reconnect): none of Bob's lines for Alice, all for Carol.
  EXPECT_FALSE(has(history_of(alice), "muted line"));
  EXPECT_FALSE(has(history_of(alice), "before the mute"));
  EXPECT_TRUE(has(history_of(alice), "marker"));
  EXPECT_TRUE(has(history_of(carol), "muted line"));
  EXPECT_TRUE(has(history_of(bob), "muted line"));

  // Unmuted: the lines are back.
  ASSERT_EQ(mute(alice, bob.player_id, false).status, 200);
  EXPECT_TRUE(has(history_of(alice), "muted line"));
  EXPECT_EQ(http_request(server->port(), "GET", "/api/mutes", "", alice.token).json()["mutes"],
            json::array());
}

TEST_F(ChatComfortsNet, MutesHaveLimits) {
  start({"--max-mutes-per-player", "2", "--mute-changes-per-minute", "2"});
  const Account dave = sign_up(server->port(), "Dave");
  EXPECT_EQ(mute(alice, alice.player_id, true).status, 400) << "not himself";
  EXPECT_EQ(mute(alice, "999999", true).status, 404);
  EXPECT_EQ(
      http_request(server->port(), "POST", "/api/mute", R"({"player":"x"})", alice.token).status,
      400);
  EXPECT_EQ(http_request(server->port(), "POST", "/api/mute",
                         json{{"player", bob.player_id}, {"mute", true}}.dump())
                .status,
            401);
  EXPECT_EQ(mute(alice, bob.player_id, true).status, 200);
  EXPECT_EQ(mute(alice, carol.player_id, true).status, 200);
  const HttpReply third = mute(alice, dave.player_id, true);
  EXPECT_EQ(third.status, 400);
  EXPECT_EQ(third.json()["error"]["code"], "too_many_mutes");
  // 2 a minute, burst 6: the unknown player and the refusal over the limit took a change each
  // too (a change refused by the store costs like one), so the seventh is over the budget.
  EXPECT_EQ(mute(alice, bob.player_id, false).status, 200);
  EXPECT_EQ(mute(alice, dave.player_id, true).status, 200);
  const HttpReply over = mute(alice, bob.player_id, true);
  EXPECT_EQ(over.status, 429);
  EXPECT_EQ(
      http_request(server->port(), "GET", "/api/mutes", "", alice.token).json()["mutes"].size(),
      2u);
}

TEST_F(ChatComfortsNet, TheOperatorHidesALineFromLoopbackOnlyAndNeverThroughAProxy) {
  // 127.0.0.1 is a trusted proxy: its X-Forwarded-For is believed for the rate limits, but an
  // admin request that carries it came from outside all the same.
  start({"--trusted-proxy", "127.0.0.1"});
  const std::int64_t line = say(b, "rude words");
  say(b, "kind words");
  const std::string body = json{{"game", game_id}, {"line", line}}.dump();
  EXPECT_EQ(http_request(server->port(), "POST", "/admin/chat/hide", body, "",
                         {{"X-Forwarded-For", "1.2.3.4"}})
                .status,
            403);
  EXPECT_EQ(http_request(server->port(), "POST", "/admin/chat/hide", body, "",
                         {{"X-Forwarded-For", "127.0.0.1"}})
                .status,
            403);
  EXPECT_EQ(http_request(server->port(), "POST", "/admin/chat/hide", body, "",
                         {{"Forwarded", "for=127.0.0.1"}})
                .status,
            403);
  EXPECT_TRUE(has(history_of(alice), "rude words"));
  EXPECT_EQ(unread(a), 2);

  // A line of another game is refused; no such line either.
  EXPECT_EQ(http_request(server->port(), "POST", "/admin/chat/hide",
                         json{{"game", game_id + 1}, {"line", line}}.dump())
                .status,
            404);
  EXPECT_EQ(http_request(server->port(), "POST", "/admin/chat/hide", R"({"line":987654})").status,
            404);
  const HttpReply hidden = http_request(server->port(), "POST", "/admin/chat/hide", body);
  ASSERT_EQ(hidden.status, 200) << hidden.body;
  // Live watchers are told to remove it; it is never sent again.
  const json removed = a.wait_type("chat.hidden");
  EXPECT_EQ(removed["id"], line);
  EXPECT_EQ(c.wait_type("chat.hidden")["id"], line);
  for (const Account* who : {&alice, &bob, &carol}) {
    EXPECT_FALSE(has(history_of(*who), "rude words"));
    EXPECT_TRUE(has(history_of(*who), "kind words"));
  }
  EXPECT_EQ(unread(a), 1);
  EXPECT_NE(server->log().find("chat_hidden"), std::string::npos);
}

TEST(AdminRequests, OnlyFromALoopbackPeerWithoutForwardingHeaders) {
  EXPECT_TRUE(admin_request_allowed("127.0.0.1", false));
  EXPECT_TRUE(admin_request_allowed("::1", false));
  EXPECT_TRUE(admin_request_allowed("::ffff:127.0.0.1", false));
  EXPECT_FALSE(admin_request_allowed("127.0.0.1", true));
  EXPECT_FALSE(admin_request_allowed("10.0.0.7", false));
  EXPECT_FALSE(admin_request_allowed("192.168.1.20", false));
  EXPECT_FALSE(admin_request_allowed("2001:db8::1", false));
  EXPECT_FALSE(admin_request_allowed("", false));
  EXPECT_FALSE(admin_request_allowed("not an address", false));
}

}  // namespace
}  // namespace viktory::server::testing
