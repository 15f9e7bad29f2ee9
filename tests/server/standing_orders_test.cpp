// Standing orders on the server (standing_order_service.h) with fake clients and a fake clock:
// a Battle in a day-clock game where the defender must choose his losses [10.1] out of turn.
// Away, his order is applied at once, as his decision "by": "standing_order"; there, he is
// asked; after a restart nobody is there until he connects; a closed connection waits out a
// page reload; a live game's grace period; the account's and the game's orders, and refusals.
#include <gtest/gtest.h>

#include "accounts.h"
#include "fake_clients.h"
#include "hub.h"
#include "standing_orders_position.h"
#include "test_support.h"
#include "token.h"

namespace viktory::server {
namespace {

using nlohmann::json;
using testing::BattlePosition;
using testing::store_position;
using testing::TempDir;

using testing::FakeClock;  // fake_clients.h
using FakeClient = testing::ListClient;

struct Player {
  std::string token;
  std::int64_t id = 0;
  FakeClient client;
};

class Server {
 public:
  Server(const std::string& file, FakeClock& clock)
      : store(file), hub(store, metrics, options(clock)) {}
  static HubOptions options(FakeClock& clock) {
    HubOptions o;
    o.clock = &clock;
    return o;
  }
  void sign_up(Player& p, const std::string& name) {
    const ApiResponse r = hub.handle_api("POST", "/api/session", json{{"name", name}}.dump(), "");
    p.token = json::parse(r.body)["token"];
    p.id = std::stoll(json::parse(r.body)["player_id"].get<std::string>());
    connect(p);
  }
  void connect(Player& p) {
    p.client.messages.clear();
    hub.on_open(&p.client);
    send(p, {{"type", "auth"}, {"token", p.token}});
  }
  // Fair play's reveal round is answered as the browser does (fake_clients.h).
  void send(Player& p, const json& m) { round.send(hub, p.client, m); }
  testing::RoundAnswerer<FakeClient> round;

  Store store;
  Metrics metrics;
  Hub hub;
};

class StandingOrdersTest : public ::testing::Test {
 protected:
  // Alice creates a two-seat game with `fields`, Bob joins; both sign off; the game's position
  // becomes the Battle. Returns the game id.
  std::int64_t setup(const json& fields) {
    std::int64_t id = 0;
    {
      Server s(file, clock);
      s.sign_up(alice, "Alice");
      s.sign_up(bob, "Bob");
      json create{{"type", "game.create"}, {"seats", 2}};
      for (auto& [k, v] : fields.items()) create[k] = v;
      s.send(alice, create);
      id = alice.client.last("game.created")["game_id"];
      s.send(bob, {{"type", "game.join"}, {"game_id", id}});
      EXPECT_FALSE(bob.client.last("game.state").is_null());
      s.hub.on_close(&alice.client);
      s.hub.on_close(&bob.client);
    }
    store_position(file, id, position.p.state);
    return id;
  }
  // Bob's account orders, through the account API (its own connection to the file).
  void set_account_orders(const json& orders) {
    Accounts accounts(file, AccountOptions{});
    const ApiResponse r =
        accounts.handle_api("PUT", "/api/account/standing-orders", json{{"orders", orders}}.dump(),
                            "Bearer " + bob.token, "192.0.2.1");
    ASSERT_EQ(r.status, 200) << r.body;
  }
  void watch(Server& s, Player& p, std::int64_t id) {
    s.send(p, {{"type", "game.watch"}, {"game_id", id}});
    ASSERT_FALSE(p.client.last("game.state").is_null());
  }
  void act(Server& s, Player& p, std::int64_t id, const json& action) {
    const int seq = s.store.game(id)->seq;
    s.send(p, {{"type", "game.action"}, {"game_id", id}, {"seq", seq}, {"action", action}});
    ASSERT_TRUE(p.client.last("error").is_null()) << p.client.last("error").dump();
  }
  // The last stored action.
  static ActionRecord last_action(Server& s, std::int64_t id) { return s.store.actions(id).back(); }

  FakeClock clock;
  TempDir dir;
  std::string file = dir.file("orders.db");
  Player alice, bob;
  BattlePosition position;
};

// The same with one Infantry: then each order of his chooses another loss in the first round.
class OneInfantry : public StandingOrdersTest {
 protected:
  OneInfantry() { position = BattlePosition(1); }
};

TEST_F(StandingOrdersTest, R10_1_AnAbsentDefendersOrderIsAppliedAtOnceAPresentOneIsAsked) {
  const std::int64_t id = setup(json{{"clock", {{"per_move_seconds", 86400}}}});
  set_account_orders(json{{"casualties", "keep_artillery"}});
  {
    Server s(file, clock);
    s.connect(alice);
    watch(s, alice, id);
    // Round 1: Bob is not connected. Alice's hit is his to assign [10.1], out of turn.
    act(s, alice, id, {{"kind", "start_battle"}, {"hex", position.hex}});
    EXPECT_EQ(s.hub.standing_orders_scheduled(), 1u);
    EXPECT_EQ(s.store.game(id)->seq, 1);
    s.hub.sweep_clocks();  // the sweeper's timer, due at once
    ActionRecord applied = last_action(s, id);
    EXPECT_EQ(applied.seq, 2);
    EXPECT_EQ(applied.source, ActionSource::kStandingOrder);
    // keep_artillery: of two Infantry, one (not the cheapest-first Artillery pair).
    EXPECT_EQ(applied.action, act::choose_casualty(1, position.inf[0]));
    const json update = alice.client.last("game.update");
    ASSERT_EQ(update["seq"], 2);
    ASSERT_FALSE(update["log"].empty());
    EXPECT_EQ(update["log"][0]["by"], "standing_order");
    // Alice's turn went on: her retreat option [12.3 step 3], no waiting on Bob.
    EXPECT_EQ(s.hub.room_for_testing(id)->state()->battle->stage, BattleStage::kRetreatOption);
    EXPECT_EQ(decider(*s.hub.room_for_testing(id)->state()), 0);

    // Round 2: Bob is connected: he is asked, and the day-clock game waits for him.
    s.connect(bob);
    watch(s, bob, id);
    act(s, alice, id, {{"kind", "continue_battle"}});
    EXPECT_EQ(decider(*s.hub.room_for_testing(id)->state()), 1);
    EXPECT_EQ(s.hub.standing_orders_scheduled(), 0u);
    clock.now += 3600 * 1000;
    s.hub.sweep_clocks();
    EXPECT_EQ(s.store.game(id)->seq, 3);  // nothing applied for him
    bool asked = false;
    const json asking = bob.client.last("game.update");
    for (const json& a : asking["legal"]) asked = asked || a["kind"] == "choose_casualty";
    EXPECT_TRUE(asked) << asking.dump();
    // The server stops in the middle of his decision.
  }
  {
    // After the restart nobody is connected: as soon as the game is loaded (Alice opens it),
    // Bob's order is applied.
    Server s(file, clock);
    s.connect(alice);
    watch(s, alice, id);
    EXPECT_EQ(s.hub.standing_orders_scheduled(), 1u);
    s.hub.sweep_clocks();
    ActionRecord applied = last_action(s, id);
    EXPECT_EQ(applied.seq, 4);
    EXPECT_EQ(applied.source, ActionSource::kStandingOrder);
    EXPECT_EQ(applied.action, act::choose_casualty(1, position.inf[1]));  // the last Infantry

    // Round 3: Bob is back and decides himself (not what his order would do).
    s.connect(bob);
    watch(s, bob, id);
    act(s, alice, id, {{"kind", "continue_battle"}});
    s.hub.sweep_clocks();
    EXPECT_EQ(decider(*s.hub.room_for_testing(id)->state()), 1);
    act(s, bob, id, {{"kind", "choose_casualty"}, {"unit", position.art[0]}});
    EXPECT_EQ(last_action(s, id).source, ActionSource::kPlayer);

    // Round 4: Bob's connection closes (a page reload?): his order waits 5 s for him.
    act(s, alice, id, {{"kind", "continue_battle"}});
    EXPECT_EQ(decider(*s.hub.room_for_testing(id)->state()), 1);
    const int seq = s.store.game(id)->seq;
    s.hub.on_close(&bob.client);
    clock.now += kReloadDebounceMs - 1;
    s.hub.sweep_clocks();
    EXPECT_EQ(s.store.game(id)->seq, seq);
    clock.now += 1;
    s.hub.sweep_clocks();
    EXPECT_EQ(s.store.game(id)->seq, seq + 1);
    EXPECT_EQ(last_action(s, id).source, ActionSource::kStandingOrder);
    EXPECT_EQ(last_action(s, id).action, act::choose_casualty(1, position.cav));  // Artillery kept
  }
}

TEST_F(StandingOrdersTest, APageReloadWithinTheDebounceIsNoAbsence) {
  const std::int64_t id = setup(json{{"clock", {{"per_move_seconds", 86400}}}});
  Server s(file, clock);
  s.connect(alice);
  watch(s, alice, id);
  s.connect(bob);
  watch(s, bob, id);
  act(s, alice, id, {{"kind", "start_battle"}, {"hex", position.hex}});
  s.hub.on_close(&bob.client);
  clock.now += 2000;
  s.hub.sweep_clocks();
  EXPECT_EQ(s.store.game(id)->seq, 1);  // he may be back in a moment
  s.connect(bob);                       // the reloaded page watches again
  watch(s, bob, id);
  clock.now += kReloadDebounceMs;
  s.hub.sweep_clocks();
  EXPECT_EQ(s.store.game(id)->seq, 1);
  EXPECT_EQ(s.hub.standing_orders_scheduled(), 0u);
  // Leaving the game (game.unwatch) is no reload: at once.
  s.send(bob, {{"type", "game.unwatch"}, {"game_id", id}});
  s.hub.sweep_clocks();
  EXPECT_EQ(s.store.game(id)->seq, 2);
  EXPECT_EQ(last_action(s, id).source, ActionSource::kStandingOrder);
}

TEST_F(StandingOrdersTest, ALiveGamesGracePeriodThenTheOrder) {
  const std::int64_t id =
      setup(json{{"clock", {{"per_move_seconds", 120}}}, {"decision_grace_seconds", 30}});
  Server s(file, clock);
  s.connect(alice);
  watch(s, alice, id);
  s.connect(bob);
  watch(s, bob, id);
  act(s, alice, id, {{"kind", "start_battle"}, {"hex", position.hex}});
  clock.now += 29'999;
  s.hub.sweep_clocks();
  EXPECT_EQ(s.store.game(id)->seq, 1);  // he is there: 30 s are his
  clock.now += 1;
  s.hub.sweep_clocks();
  EXPECT_EQ(s.store.game(id)->seq, 2);
  // The defaults of a new account: cheapest first, one of the two Infantry.
  EXPECT_EQ(last_action(s, id).action, act::choose_casualty(1, position.inf[0]));
  EXPECT_EQ(last_action(s, id).source, ActionSource::kStandingOrder);
}

TEST_F(OneInfantry, TheGamesOwnOrdersComeBeforeTheAccountsAndBadOnesChangeNothing) {
  const std::int64_t id = setup(json{{"clock", {{"per_move_seconds", 86400}}}});
  set_account_orders(json{{"casualties", "keep_artillery"}, {"averaging", "always"}});
  Server s(file, clock);
  s.connect(bob);
  s.send(bob, {{"type", "game.standing_orders"}, {"game_id", id}, {"req", 1}});
  json reply = bob.client.last("game.standing_orders");
  EXPECT_EQ(reply["seat"], 1);
  EXPECT_EQ(reply["orders"]["casualties"], "keep_artillery");
  EXPECT_EQ(reply["game_orders"], json::object());
  EXPECT_EQ(reply["decision_grace_seconds"], 0);  // a day clock: none
  EXPECT_EQ(reply["choices"]["casualties"][0], "cheapest");
  s.send(bob, {{"type", "game.standing_orders"},
               {"game_id", id},
               {"orders", {{"casualties", "keep_cavalry"}}}});
  reply = bob.client.last("game.standing_orders");
  EXPECT_EQ(reply["orders"]["casualties"], "keep_cavalry");
  EXPECT_EQ(reply["orders"]["averaging"], "always");  // still the account's
  EXPECT_EQ(reply["game_orders"], json({{"casualties", "keep_cavalry"}}));
  const std::size_t replies = bob.client.messages.size();
  for (const json& bad : {json{{"casualties", "keep_everything"}}, json{{"mood", "calm"}},
                          json("cheapest"), json{{"casualties", 3}}}) {
    s.send(bob, {{"type", "game.standing_orders"}, {"game_id", id}, {"orders", bad}});
    EXPECT_EQ(bob.client.last("error")["code"], "bad_orders") << bad.dump();
  }
  EXPECT_EQ(bob.client.messages.size(), replies + 4);  // errors only
  s.send(bob, {{"type", "game.standing_orders"}, {"game_id", id}});
  EXPECT_EQ(bob.client.last("game.standing_orders")["orders"]["casualties"], "keep_cavalry");
  // Away, the game's order decides: Cavalry kept, the Artillery pair loses one (his account's
  // keep_artillery would lose the Infantry).
  s.hub.on_close(&bob.client);
  s.connect(alice);
  watch(s, alice, id);
  act(s, alice, id, {{"kind", "start_battle"}, {"hex", position.hex}});
  clock.now += kReloadDebounceMs;
  s.hub.sweep_clocks();
  EXPECT_EQ(last_action(s, id).action, act::choose_casualty(1, position.art[0]));
  // null takes the game's order back.
  s.connect(bob);
  s.send(
      bob,
      {{"type", "game.standing_orders"}, {"game_id", id}, {"orders", {{"casualties", nullptr}}}});
  EXPECT_EQ(bob.client.last("game.standing_orders")["orders"]["casualties"], "keep_artillery");
  // Only a seated player has orders in a game; nobody learns another's.
  Player carol;
  s.sign_up(carol, "Carol");
  s.send(carol, {{"type", "game.standing_orders"}, {"game_id", id}});
  EXPECT_EQ(carol.client.last("error")["code"], "not_seated");
  EXPECT_TRUE(carol.client.last("game.standing_orders").is_null());
  EXPECT_TRUE(alice.client.last("game.standing_orders").is_null());
}

TEST_F(StandingOrdersTest, AccountOrdersStartSensibleAndBadInputIsRefused) {
  Store store(file);
  const std::string token = new_token();
  const PlayerRecord p = store.create_player("Dee", token_hash(token), 1);
  Accounts accounts(file, AccountOptions{});
  auto call = [&](std::string_view method, const std::string& body) {
    return accounts.handle_api(method, "/api/account/standing-orders", body, "Bearer " + token,
                               "192.0.2.1");
  };
  ApiResponse r = call("GET", "");
  ASSERT_EQ(r.status, 200);
  const json defaults = json::parse(r.body)["orders"];
  EXPECT_EQ(defaults, orders_to_json(ai::StandingOrders{}));
  EXPECT_EQ(defaults["casualties"], "cheapest");
  EXPECT_EQ(defaults["retreat"], "when_outnumbered");
  EXPECT_EQ(json::parse(r.body)["choices"]["averaging"], json({"never", "always"}));
  for (const char* bad : {R"({"orders":{"retreat":"sometimes"}})", R"({"orders":{"x":"never"}})",
                          R"({"orders":{"retreat":null}})", R"({"orders":[]})", R"({})"}) {
    r = call("PUT", bad);
    EXPECT_EQ(r.status, 400) << bad;
    EXPECT_EQ(json::parse(r.body)["error"]["code"], "bad_orders") << bad;
  }
  EXPECT_EQ(call("PUT", "[").status, 400);
  EXPECT_EQ(call("DELETE", "").status, 405);
  EXPECT_EQ(json::parse(call("GET", "").body)["orders"], defaults);  // nothing changed
  r = call("PUT", R"({"orders":{"retreat":"never","averaging":"always"}})");
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(json::parse(r.body)["orders"]["retreat"], "never");
  EXPECT_EQ(json::parse(r.body)["orders"]["casualties"], "cheapest");
  EXPECT_EQ(account_orders(store.db(), p.id).averaging, ai::AveragingOrder::kAlways);
  EXPECT_EQ(accounts.handle_api("GET", "/api/account/standing-orders", "", "", "192.0.2.1").status,
            401);
}

TEST_F(StandingOrdersTest, TheGracePeriodIsOneOfTheOfferedOnes) {
  Server s(file, clock);
  s.sign_up(alice, "Alice");
  for (const json& bad : {json(10), json("1m"), json(-30), json(true)}) {
    s.send(alice, {{"type", "game.create"}, {"seats", 2}, {"decision_grace_seconds", bad}});
    EXPECT_EQ(alice.client.last("error")["code"], "bad_options") << bad.dump();
  }
  EXPECT_TRUE(alice.client.last("game.created").is_null());
  EXPECT_EQ(decision_grace_from_json(nullptr, ClockOptions{}), 0);
  ClockOptions live;
  live.per_move_ms = 300 * 1000;
  EXPECT_EQ(decision_grace_from_json(nullptr, live), 60);
  ClockOptions days;
  days.per_move_ms = 86400 * 1000LL;
  EXPECT_EQ(decision_grace_from_json(nullptr, days), 0);
  EXPECT_EQ(decision_grace_from_json(json(120), days), 120);
}

}  // namespace
}  // namespace viktory::server

namespace viktory::server {
namespace {

// A skipped turn's decisions (game_clocks.cpp) are the late seat's standing orders where they
// cover them: Bob sat at his decision past his deadline.
TEST_F(OneInfantry, ASkippedDecisionIsTheLateSeatsStandingOrder) {
  const std::int64_t id = setup(json{{"clock", {{"per_move_seconds", 86400}}}});
  set_account_orders(json{{"casualties", "keep_artillery"}});
  Server s(file, clock);
  s.connect(alice);
  watch(s, alice, id);
  s.connect(bob);
  watch(s, bob, id);
  act(s, alice, id, {{"kind", "start_battle"}, {"hex", position.hex}});
  clock.now += 86400 * 1000LL + 1;
  s.hub.sweep_clocks();
  EXPECT_EQ(s.store.game(id)->seq, 1);  // he is there: the game waited for him, a whole day
  s.send(alice, {{"type", "game.skip_turn"}, {"game_id", id}, {"req", 5}});
  ASSERT_TRUE(alice.client.last("error").is_null()) << alice.client.last("error").dump();
  const std::vector<ActionRecord> actions = s.store.actions(id);
  ASSERT_GE(actions.size(), 2u);
  EXPECT_EQ(actions[1].source, ActionSource::kStandingOrder);
  EXPECT_EQ(actions[1].action, act::choose_casualty(1, position.inf[0]));  // Artillery kept
}

}  // namespace
}  // namespace viktory::server
