// Friends (server/players/friends.h) through the Hub, on a real SQLite file: follows and their
// limits, the friends list, who sees a player's online state (stranger, opponent, follower, for
// each profile privacy), and game.invite_friend's rules and budgets (the invitation handed to the
// turn notifications, which tests/notify/turn_notifications_test.cpp follows to the friend's
// browser and mailbox).
#include <gtest/gtest.h>

#include <vector>

#include "fake_clients.h"
#include "hub.h"
#include "presence.h"
#include "test_support.h"

namespace viktory::server {
namespace {

using nlohmann::json;
using testing::Recorder;
using testing::TempDir;

struct FakeClient : Client {
  void deliver(Message m) override { recorder.deliver(std::move(m)); }
  void close(std::string_view) override {}
  Recorder recorder;
};

HubOptions friendly_options(Presence* presence, std::vector<TurnChange>* told) {
  HubOptions options;
  options.presence = presence;
  options.room.on_turn = [told](TurnChange change) {
    if (change.kind == TurnChange::Kind::invited) told->push_back(std::move(change));
  };
  // Many requests in a row from one test connection (the budgets under test are others).
  options.messages_per_second = 1000;
  options.message_burst = 1000;
  return options;
}

class FriendsTest : public ::testing::Test {
 protected:
  FriendsTest()
      : store(dir.file("friends.db")),
        hub(store, metrics, friendly_options(&presence, &invitations)),
        presence_api(presence, store, 6000) {}

  struct Player {
    std::string id;
    std::string token;
  };
  Player sign_up(const std::string& name) {
    const ApiResponse r = hub.handle_api("POST", "/api/session", json{{"name", name}}.dump(), "");
    EXPECT_EQ(r.status, 200) << r.body;
    const json j = json::parse(r.body);
    return {j["player_id"], j["token"]};
  }
  ApiResponse follow(const Player& who, const std::string& whom, bool on = true) {
    return hub.handle_api("POST", "/api/follow", json{{"player", whom}, {"follow", on}}.dump(),
                          "Bearer " + who.token);
  }
  json friends_of(const Player& who) {
    const ApiResponse r = hub.handle_api("GET", "/api/friends", "", "Bearer " + who.token);
    EXPECT_EQ(r.status, 200) << r.body;
    return json::parse(r.body);
  }
  void set_privacy(const Player& who, const char* visible_to) {
    const ApiResponse r =
        hub.handle_api("POST", "/api/profile/privacy", json{{"visible_to", visible_to}}.dump(),
                       "Bearer " + who.token);
    ASSERT_EQ(r.status, 200) << r.body;
  }
  // Whether GET /api/presence tells `asker` anything about `about`.
  bool presence_shows(const Player& asker, const Player& about) {
    const ApiResponse r = presence_api.handle("GET", "/api/presence?players=" + about.id,
                                              "Bearer " + asker.token, "192.0.2.1");
    EXPECT_EQ(r.status, 200) << r.body;
    return json::parse(r.body)["players"].contains(about.id);
  }
  // Fair play's reveal round is answered as the browser does (fake_clients.h).
  void send(FakeClient& c, const json& m) { round.send(hub, c, m); }
  testing::RoundAnswerer<FakeClient> round;
  FakeClient& connect(const Player& p) {
    clients.emplace_back(std::make_unique<FakeClient>());
    hub.on_open(clients.back().get());
    send(*clients.back(), {{"type", "auth"}, {"token", p.token}});
    return *clients.back();
  }
  // A game `creator` opens with `seats` seats (private: its invite code in `invite`).
  std::int64_t open_game(FakeClient& creator, int seats, bool is_private = false,
                         std::string* invite = nullptr) {
    send(creator, {{"type", "game.create"}, {"seats", seats}, {"private", is_private}});
    const json created = creator.recorder.last("game.created");
    EXPECT_FALSE(created.is_null()) << creator.recorder.last("error").dump();
    if (invite != nullptr && created.contains("invite")) *invite = created["invite"];
    return created["game_id"];
  }
  // The error answering request `req`, or null.
  json error_of(const FakeClient& c, int req) {
    for (const json& m : c.recorder.messages) {
      if (m.value("type", "") == "error" && m.value("req", -1) == req) return m;
    }
    return nullptr;
  }
  json invite(FakeClient& c, std::int64_t game, const Player& whom, int req,
              const std::string& code = "") {
    json m{{"type", "game.invite_friend"}, {"game_id", game}, {"player", whom.id}, {"req", req}};
    if (!code.empty()) m["invite"] = code;
    send(c, m);
    return error_of(c, req);
  }

  TempDir dir;
  Store store;
  Metrics metrics;
  Presence presence;
  std::vector<TurnChange> invitations;
  Hub hub;
  PresenceApi presence_api;
  std::vector<std::unique_ptr<FakeClient>> clients;
};

TEST_F(FriendsTest, FollowListsTheFriendAndCountsTheFollowerUnfollowRemoves) {
  const Player alice = sign_up("Alice");
  const Player bob = sign_up("Bob");
  ASSERT_EQ(follow(alice, bob.id).status, 200);
  ASSERT_EQ(follow(alice, bob.id).status, 200);  // twice: still one follow
  json mine = friends_of(alice);
  ASSERT_EQ(mine["friends"].size(), 1u);
  EXPECT_EQ(mine["friends"][0]["player"], bob.id);
  EXPECT_EQ(mine["friends"][0]["name"], "Bob");
  EXPECT_EQ(mine["followers"], 0);
  EXPECT_EQ(friends_of(bob)["followers"], 1);  // one-sided: Bob follows nobody
  EXPECT_TRUE(friends_of(bob)["friends"].empty());
  EXPECT_EQ(mine["friends"][0]["follows_you"], false);
  ASSERT_EQ(follow(bob, alice.id).status, 200);  // Bob follows back: friends both ways
  EXPECT_EQ(friends_of(alice)["friends"][0]["follows_you"], true);
  ASSERT_EQ(follow(bob, alice.id, false).status, 200);

  ASSERT_EQ(follow(alice, bob.id, false).status, 200);
  EXPECT_TRUE(friends_of(alice)["friends"].empty());
  EXPECT_EQ(friends_of(bob)["followers"], 0);
}

TEST_F(FriendsTest, BadFollowsAreRefusedClearlyAndChangeNothing) {
  const Player alice = sign_up("Alice");
  ApiResponse r = follow(alice, alice.id);
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(json::parse(r.body)["error"]["code"], "bad_player");
  r = follow(alice, "999999");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(json::parse(r.body)["error"]["code"], "not_found");
  r = hub.handle_api("POST", "/api/follow", R"({"player":"x","follow":true})",
                     "Bearer " + alice.token);
  EXPECT_EQ(r.status, 400);
  r = hub.handle_api("POST", "/api/follow", R"({"player":"1"})", "Bearer " + alice.token);
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(hub.handle_api("POST", "/api/follow", R"({"player":"1","follow":true})", "").status,
            401);
  EXPECT_EQ(hub.handle_api("GET", "/api/friends", "", "").status, 401);
  EXPECT_EQ(hub.handle_api("GET", "/api/follow", "", "Bearer " + alice.token).status, 405);
  EXPECT_TRUE(friends_of(alice)["friends"].empty());
}

// At most kMaxFollows follows per player: the next is refused until he unfollows one.
TEST_F(FriendsTest, APlayerFollowsAtMostFiveHundred) {
  const Player alice = sign_up("Alice");
  const Player bob = sign_up("Bob");
  {
    Database& db = store.db();
    Transaction tx(db);
    for (int i = 0; i < FriendsLimits::kMaxFollows; ++i) {
      const PlayerRecord other =
          store.create_player("P" + std::to_string(i), "h" + std::to_string(i), 1);
      db.cached("INSERT INTO follows(follower, followee, since) VALUES(?, ?, 1)")
          .bind(1, static_cast<std::int64_t>(std::stoll(alice.id)))
          .bind(2, other.id)
          .run();
    }
    tx.commit();
  }
  ApiResponse r = follow(alice, bob.id);
  EXPECT_EQ(r.status, 409) << r.body;
  EXPECT_EQ(json::parse(r.body)["error"]["code"], "too_many_follows");
  EXPECT_EQ(friends_of(alice)["friends"].size(), 500u);
  const std::string some = friends_of(alice)["friends"][0]["player"];
  ASSERT_EQ(follow(alice, some, false).status, 200);
  EXPECT_EQ(follow(alice, bob.id).status, 200);
}

// One player's follows and unfollows spend his own budget (30 a minute): a client toggling a
// follow in a loop is refused soon, and another player is not affected.
TEST_F(FriendsTest, FollowChangesHaveAPerPlayerRate) {
  const Player alice = sign_up("Alice");
  const Player bob = sign_up("Bob");
  const Player carol = sign_up("Carol");
  int refused = 0;
  for (int i = 0; i < 40; ++i) {
    const ApiResponse r = follow(alice, bob.id, i % 2 == 0);
    if (r.status == 429) ++refused;
  }
  EXPECT_GE(refused, 9);
  EXPECT_EQ(follow(carol, bob.id).status, 200);
}

// Online state: a stranger never sees it; an opponent (a shared game) sees it as before, in
// whatever privacy; a follower who never played him sees it only when the profile is shown to
// everyone, one who played him also for "opponents", never for "nobody".
TEST_F(FriendsTest, OnlineStateFollowsTheProfilesPrivacy) {
  const Player bob = sign_up("Bob");
  const Player stranger = sign_up("Stranger");
  const Player opponent = sign_up("Opponent");
  const Player fan = sign_up("Fan");
  const Player friend_ = sign_up("Friend");  // follows Bob and played him
  presence.connected(static_cast<std::int64_t>(std::stoll(bob.id)));
  ASSERT_EQ(follow(fan, bob.id).status, 200);
  ASSERT_EQ(follow(friend_, bob.id).status, 200);
  FakeClient& b = connect(bob);
  FakeClient& o = connect(opponent);
  FakeClient& f = connect(friend_);
  const std::int64_t with_opponent = open_game(o, 2);
  send(b, {{"type", "game.join"}, {"game_id", with_opponent}});
  const std::int64_t with_friend = open_game(f, 2);
  send(b, {{"type", "game.join"}, {"game_id", with_friend}});
  // Both games started (running): Bob has played the opponent and the friend.
  ASSERT_FALSE(f.recorder.last("game.state").is_null());

  const auto listed_online = [&](const Player& asker) {
    const json listed = friends_of(asker);
    for (const json& e : listed["friends"]) {
      if (e["player"] == bob.id) return e.contains("online");
    }
    return false;
  };
  struct Expect {
    const char* privacy;
    bool stranger, opponent, fan, friend_;
  };
  for (const Expect& e :
       {Expect{"everyone", false, true, true, true}, Expect{"opponents", false, true, false, true},
        Expect{"nobody", false, true, false, true}}) {
    SCOPED_TRACE(e.privacy);
    set_privacy(bob, e.privacy);
    EXPECT_EQ(presence_shows(stranger, bob), e.stranger);
    EXPECT_EQ(presence_shows(opponent, bob), e.opponent);
    EXPECT_EQ(presence_shows(fan, bob), e.fan);
    EXPECT_EQ(presence_shows(friend_, bob), e.friend_);  // also his co-player
    // The friends list goes by the privacy alone (never for "nobody").
    EXPECT_EQ(listed_online(fan), std::string(e.privacy) == "everyone");
    EXPECT_EQ(listed_online(friend_), std::string(e.privacy) != "nobody");
  }
  set_privacy(bob, "everyone");
  const json fans = friends_of(fan)["friends"];
  ASSERT_EQ(fans.size(), 1u);
  EXPECT_EQ(fans[0]["online"], true);
}

TEST_F(FriendsTest, ASeatedPlayerInvitesAFriendOnceAndTheFriendIsTold) {
  const Player alice = sign_up("Alice");
  const Player bob = sign_up("Bob");
  const Player carol = sign_up("Carol");
  ASSERT_EQ(follow(alice, bob.id).status, 200);
  ASSERT_EQ(follow(bob, alice.id).status, 200);  // friends both ways
  FakeClient& a = connect(alice);
  FakeClient& c = connect(carol);
  const std::int64_t game = open_game(a, 3);

  EXPECT_TRUE(invite(a, game, bob, 1).is_null()) << invite(a, game, bob, 1).dump();
  const json told = a.recorder.last("game.friend_invited");
  EXPECT_EQ(told["player"], bob.id);
  EXPECT_EQ(told["game_id"], game);
  ASSERT_EQ(invitations.size(), 1u);
  EXPECT_EQ(invitations[0].decider_player, static_cast<std::int64_t>(std::stoll(bob.id)));
  EXPECT_EQ(invitations[0].inviter, "Alice");
  EXPECT_EQ(invitations[0].game_id, game);
  EXPECT_TRUE(invitations[0].invite.empty());  // a public game: its page is the link

  EXPECT_EQ(invite(a, game, bob, 2)["code"], "already_invited");
  EXPECT_EQ(invite(a, game, carol, 3)["code"], "not_friend");  // Alice does not follow Carol
  // Following is not enough: Carol follows Alice, Alice follows Carol only now, and Dan, whom
  // Alice follows, does not follow her back: no invitation reaches a player who did not choose
  // to hear from her.
  ASSERT_EQ(follow(carol, alice.id).status, 200);
  EXPECT_EQ(invite(a, game, carol, 30)["code"], "not_friend");
  const Player dan = sign_up("Dan");
  ASSERT_EQ(follow(alice, dan.id).status, 200);
  EXPECT_EQ(invite(a, game, dan, 31)["code"], "not_friend");
  EXPECT_EQ(friends_of(alice)["friends"].size(), 2u);
  ASSERT_EQ(follow(carol, bob.id).status, 200);
  EXPECT_EQ(invite(c, game, bob, 4)["code"], "not_seated");
  EXPECT_EQ(invite(a, game, alice, 5)["code"], "already_seated");
  send(a, {{"type", "game.invite_friend"}, {"game_id", game}, {"player", 7}, {"req", 6}});
  EXPECT_EQ(error_of(a, 6)["code"], "bad_message");
  EXPECT_EQ(invitations.size(), 1u);  // no refusal told anybody anything
}

TEST_F(FriendsTest, APrivateGamesInvitationCarriesItsCodeAndAFullGameTakesNone) {
  const Player alice = sign_up("Alice");
  const Player bob = sign_up("Bob");
  const Player dora = sign_up("Dora");
  ASSERT_EQ(follow(alice, bob.id).status, 200);
  ASSERT_EQ(follow(alice, dora.id).status, 200);
  ASSERT_EQ(follow(bob, alice.id).status, 200);
  FakeClient& a = connect(alice);
  std::string code;
  const std::int64_t game = open_game(a, 2, /*is_private=*/true, &code);
  ASSERT_FALSE(code.empty());
  EXPECT_EQ(invite(a, game, bob, 1)["code"], "invite_needed");
  EXPECT_EQ(invite(a, game, bob, 2, std::string(32, 'a'))["code"], "invite_needed");
  EXPECT_TRUE(invite(a, game, bob, 3, code).is_null());
  ASSERT_EQ(invitations.size(), 1u);
  EXPECT_EQ(invitations[0].invite, code);

  FakeClient& d = connect(dora);
  send(d, {{"type", "game.join"}, {"game_id", game}, {"invite", code}});  // full: it starts
  EXPECT_EQ(invite(a, game, bob, 4, code)["code"], "not_open");
}

// At most kInvitesPerHour invitations an hour per inviter, whatever the games and friends.
TEST_F(FriendsTest, AnInviterSendsAtMostTwentyAnHour) {
  const Player alice = sign_up("Alice");
  FakeClient& a = connect(alice);
  const std::int64_t game = open_game(a, 2);
  std::vector<Player> friends;
  for (int i = 0; i <= FriendsLimits::kInvitesPerHour; ++i) {
    friends.push_back(sign_up("Friend" + std::to_string(i)));
  }
  {
    Database& db = store.db();
    Transaction tx(db);
    for (const Player& f : friends) {
      const auto a_id = static_cast<std::int64_t>(std::stoll(alice.id));
      const auto f_id = static_cast<std::int64_t>(std::stoll(f.id));
      for (const auto& [follower, followee] : {std::pair{a_id, f_id}, std::pair{f_id, a_id}}) {
        db.cached("INSERT INTO follows(follower, followee, since) VALUES(?, ?, 1)")
            .bind(1, follower)
            .bind(2, followee)
            .run();
      }
    }
    tx.commit();
  }
  for (int i = 0; i < FriendsLimits::kInvitesPerHour; ++i) {
    EXPECT_TRUE(invite(a, game, friends[static_cast<std::size_t>(i)], 10 + i).is_null()) << i;
  }
  EXPECT_EQ(invite(a, game, friends.back(), 99)["code"], "rate_limited");
  EXPECT_EQ(invitations.size(), static_cast<std::size_t>(FriendsLimits::kInvitesPerHour));
}

}  // namespace
}  // namespace viktory::server
