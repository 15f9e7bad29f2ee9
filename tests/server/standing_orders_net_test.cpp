// Standing orders against the real server over real WebSockets and a real SQLite file: a
// day-clock game where Alice attacks and Bob must choose his losses [10.1] out of her turn.
//  - Bob not connected: Alice's turn goes on at once; the decision applied is his order.
//  - Bob connected: he is asked, and nothing is applied for him.
//  - The server is killed while he is asked; after the restart he is not connected: when
//    Alice opens the game again his order is applied.
// At the end every decision stored as his standing order is checked against the orders
// themselves (engine/ai/standing_orders.h), on his view of the stored position.
#include <gtest/gtest.h>

#include "game.h"
#include "standing_order_service.h"
#include "standing_orders.h"
#include "standing_orders_position.h"
#include "support/play.h"
#include "support/server_process.h"
#include "test_support.h"
#include "view.h"

namespace viktory::server::testing {
namespace {

using nlohmann::json;

bool offers(const json& message, const char* kind) {
  for (const json& a : message.value("legal", json::array())) {
    if (a.value("kind", "") == kind) return true;
  }
  return false;
}

json update_with_seq(WsClient& ws, int seq, std::chrono::milliseconds timeout = 5s) {
  return ws.wait_for(
      [&](const json& m) {
        return m.value("type", "") == "game.update" && m.value("seq", -1) == seq;
      },
      timeout);
}

TEST(StandingOrdersNet, R10_1_ADayClockGameNeverWaitsOnAnAbsentDefender) {
  TempDir dir;
  const std::string db = dir.file("orders.db");
  auto server = std::make_unique<ServerProcess>(db, dir.path().string());
  const Account alice = sign_up(server->port(), "Alice");
  const Account bob = sign_up(server->port(), "Bob");
  // Bob's orders, set ahead on his account: lose anything but Artillery first.
  const HttpReply put =
      http_request(server->port(), "PUT", "/api/account/standing-orders",
                   json{{"orders", {{"casualties", "keep_artillery"}}}}.dump(), bob.token);
  ASSERT_EQ(put.status, 200) << put.body;
  std::int64_t id = 0;
  {
    WsClient a, b;
    a.connect(server->port());
    sign_in(a, alice);
    b.connect(server->port());
    sign_in(b, bob);
    std::vector<Seen> seen;
    id = start_game({&a, &b}, seen, json{{"clock", {{"per_move_seconds", 86400}}}});
    b.send(json{{"type", "game.standing_orders"}, {"game_id", id}});
    EXPECT_EQ(b.wait_type("game.standing_orders")["decision_grace_seconds"], 0);
  }
  // The game's position becomes the Battle (written while the server is down).
  ASSERT_EQ(server->terminate(), 0);
  const BattlePosition position;
  store_position(db, id, position.p.state);
  server = std::make_unique<ServerProcess>(db, dir.path().string());

  WsClient a;
  a.connect(server->port());
  sign_in(a, alice);
  a.send(json{{"type", "game.watch"}, {"game_id", id}});
  EXPECT_EQ(a.wait_type("game.state")["seq"], 0);
  // Bob is not connected: Alice's attack leaves him his choice [10.1], out of her turn.
  const auto sent = std::chrono::steady_clock::now();
  a.send(json{{"type", "game.action"},
              {"game_id", id},
              {"seq", 0},
              {"action", {{"kind", "start_battle"}, {"hex", position.hex}}}});
  update_with_seq(a, 1);
  const json applied = update_with_seq(a, 2);
  const auto waited = std::chrono::steady_clock::now() - sent;
  EXPECT_LT(waited, 3s) << "the attacker's turn waited on the absent defender";
  ASSERT_FALSE(applied["log"].empty());
  for (const json& line : applied["log"]) EXPECT_EQ(line["by"], "standing_order") << line.dump();
  // ... and her turn goes on: the retreat option is hers [12.3 step 3].
  EXPECT_TRUE(offers(applied, "continue_battle")) << applied.dump();

  // Bob is connected: he is asked, and the game waits for him.
  WsClient b;
  b.connect(server->port());
  sign_in(b, bob);
  b.send(json{{"type", "game.watch"}, {"game_id", id}});
  EXPECT_EQ(b.wait_type("game.state")["seq"], 2);
  a.send(json{{"type", "game.action"},
              {"game_id", id},
              {"seq", 2},
              {"action", {{"kind", "continue_battle"}}}});
  const json asked = update_with_seq(b, 3);
  EXPECT_TRUE(offers(asked, "choose_casualty")) << asked.dump();
  update_with_seq(a, 3);
  // Two seconds of nothing but the clock's news: no decision was made for him.
  for (auto until = std::chrono::steady_clock::now() + 2s;
       std::chrono::steady_clock::now() < until;) {
    const std::optional<json> m = a.receive(200ms);
    if (m) {
      EXPECT_NE(m->value("type", ""), "game.update") << "applied for him: " << m->dump();
    }
  }

  // The server dies while Bob is asked. After the restart nobody is connected: when Alice
  // opens the game again, Bob's order is applied.
  server->kill9();
  server = std::make_unique<ServerProcess>(db, dir.path().string());
  WsClient a2;
  a2.connect(server->port());
  sign_in(a2, alice);
  a2.send(json{{"type", "game.watch"}, {"game_id", id}});
  // Loading the game (for Alice's watch) applies the order, maybe before her full state is
  // built: she sees seq 3 and then its update, or seq 4 at once.
  const json after_restart = a2.wait_for([](const json& m) {
    return (m.value("type", "") == "game.state" || m.value("type", "") == "game.update") &&
           m.value("seq", -1) == 4;
  });
  int lines = 0;
  for (const json& line : after_restart["log"]) {
    if (line["seq"] != 4) continue;
    EXPECT_EQ(line["by"], "standing_order") << line.dump();
    ++lines;
  }
  EXPECT_GT(lines, 0);
  // Bob comes back and reads what was decided for him.
  WsClient b2;
  b2.connect(server->port());
  sign_in(b2, bob);
  b2.send(json{{"type", "game.watch"}, {"game_id", id}});
  const json state = b2.wait_type("game.state");
  EXPECT_EQ(state["seq"], 4);
  int by_order = 0;
  for (const json& line : state["log"]) by_order += line.value("by", "") == "standing_order";
  EXPECT_GE(by_order, 2);
  ASSERT_EQ(server->terminate(), 0);

  // Every decision stored as Bob's standing order is exactly what his orders do on his view
  // of the position it was taken in; nothing else was decided for him.
  Store store(db);
  ai::StandingOrders orders;
  ASSERT_TRUE(ai::set_order(orders, "casualties", "keep_artillery"));
  EXPECT_EQ(account_orders(store.db(), std::stoll(bob.player_id)), orders);
  GameState s = store.latest_snapshot(id, 0)->second;
  int checked = 0;
  for (const ActionRecord& r : store.actions(id)) {
    if (r.source == ActionSource::kStandingOrder) {
      EXPECT_EQ(r.action.player, 1);
      EXPECT_EQ(r.action,
                ai::standing_order_action(view_for(s, 1), legal_actions(s, 1), orders).value());
      ++checked;
    } else {
      EXPECT_EQ(r.source, ActionSource::kPlayer) << "seq " << r.seq;
    }
    ASSERT_FALSE(apply_in_place(s, r.action)) << "seq " << r.seq;
  }
  EXPECT_EQ(checked, 2);
  const std::vector<ActionRecord> actions = store.actions(id);
  EXPECT_EQ(actions[1].action, act::choose_casualty(1, position.inf[0]));
  EXPECT_EQ(actions[3].action, act::choose_casualty(1, position.inf[1]));
}

}  // namespace
}  // namespace viktory::server::testing
