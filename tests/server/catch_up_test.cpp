// "Coming back" (game.since, server/games/catch_up.h) over real WebSockets against the real server:
// Bob's phone is away while Alice plays a turn with a battle; when he comes back, his catch-up
// lists exactly the steps since he left, each with byte for byte the events and log lines his
// other device was sent live (so under independent exploration it holds nothing of hexes he had
// not seen), and by default it starts after his own last action.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <random>

#include "hex.h"
#include "support/play.h"
#include "support/server_process.h"
#include "test_support.h"

namespace viktory::server::testing {
namespace {

using nlohmann::json;

// Views carry no coordinates (they are in the board, sent once): the engine's board of the
// view's radius has them.
int hex_distance(const json& view, int a, int b) {
  return Board::for_radius(view["radius"].get<int>()).distance(a, b);
}

// A bot that looks for a fight: it starts battles when it can and otherwise mostly moves
// towards the nearest piece of the other player, so two players meet within a few turns.
json aggressive_pick(const Seen& seen, int me, std::mt19937& rng) {
  std::vector<json> options;
  for (const json& a : seen.legal) {
    if (a["kind"] != "concede") options.push_back(a);
  }
  if (options.empty()) return nullptr;
  for (const json& a : options) {
    if (a["kind"] == "start_battle") return a;
  }
  const json& hexes = seen.view["hexes"];
  std::vector<int> enemy;
  for (const json& u : seen.view["units"]) {
    if (u["owner"] != me && u["place"] == "map") enemy.push_back(u["hex"]);
  }
  for (const json& h : hexes) {
    if (h.contains("town_owner") && int(h["town_owner"]) >= 0 && h["town_owner"] != me) {
      enemy.push_back(h["hex"]);
    }
  }
  if (!enemy.empty() && std::uniform_int_distribution<int>(0, 9)(rng) < 8) {
    const json* best = nullptr;
    int best_distance = 1 << 20;
    for (const json& a : options) {
      if (a["kind"] != "move") continue;
      int d = 1 << 20;
      for (int e : enemy) d = std::min(d, hex_distance(seen.view, int(a["hex"]), e));
      if (d < best_distance) {
        best_distance = d;
        best = &a;
      }
    }
    if (best != nullptr) return *best;
  }
  return options[std::uniform_int_distribution<std::size_t>(0, options.size() - 1)(rng)];
}

class CatchUp : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(dir.path() / "web");
    std::ofstream(dir.path() / "web" / "index.html") << "<!doctype html><title>VIKTORY</title>";
    server = std::make_unique<ServerProcess>(dir.file("game.db"), (dir.path() / "web").string());
    alice = sign_up(server->port(), "Alice");
    bob = sign_up(server->port(), "Bob");
    a.connect(server->port());
    b.connect(server->port());
    sign_in(a, alice);
    sign_in(b, bob);
  }

  json since(WsClient& ws, std::int64_t game_id, std::optional<int> seq, int req) {
    json request{{"type", "game.since"}, {"game_id", game_id}, {"req", req}};
    if (seq) request["seq"] = *seq;
    ws.send(request);
    return ws.wait_for([&](const json& m) {
      return (m.value("type", "") == "game.since" &&
              m.value("game_id", std::int64_t{0}) == game_id) ||
             (m.value("type", "") == "error" && m.value("req", -1) == req);
    });
  }

  TempDir dir;
  std::unique_ptr<ServerProcess> server;
  Account alice, bob;
  WsClient a, b;  // Alice; Bob's device that stays on the game (what he was shown live)
  std::vector<Seen> seen;
};

TEST_P(CatchUp, AwayPlayerGetsExactlyTheStepsHeWasShownLive) {
  const bool independent = GetParam();
  std::vector<WsClient*> watchers{&a, &b};
  std::mt19937 rng(independent ? 11 : 7);
  std::int64_t id = 0;
  std::map<int, json> live_to_bob;  // seq -> the game.update Bob's staying device got
  int bob_last_action = 0;
  // The seq at which Bob's phone went away (Bob's turn just ended), and whether Alice's turn
  // since then had a battle.
  int left_at = -1;
  bool battle = false;
  bool done = false;
  // Random play does not always bring the two together (water between them): then another
  // game.
  for (int game = 0; game < 6 && !done; ++game) {
    id = start_game({&a, &b}, seen, json{{"independent_exploration", independent}});
    live_to_bob.clear();
    bob_last_action = 0;
    left_at = -1;
    battle = false;
    for (int i = 0; i < 1500 && !done; ++i) {
      if (seen[0].view["phase"] == "game_over") break;
      const int who = seen[0].view["decider"];
      // Alice looks for a fight; Bob mostly just ends his phases (so the game lasts).
      json pick = aggressive_pick(seen[who], who, rng);
      if (who == 1) {
        for (const json& option : seen[1].legal) {
          if (option["kind"] == "end_phase") pick = option;
        }
      }
      ASSERT_FALSE(pick.is_null());
      // Act, and keep the update Bob's staying device got.
      const int seq = seen[who].seq;
      watchers[who]->send(
          json{{"type", "game.action"}, {"game_id", id}, {"seq", seq}, {"action", pick}});
      for (std::size_t k = 0; k < watchers.size(); ++k) {
        const json m = watchers[k]->wait_for([&](const json& x) {
          if (x.value("type", "") == "error") throw std::runtime_error("refused: " + x.dump());
          return x.value("type", "") == "game.update" && x.value("game_id", 0) == id &&
                 x.value("seq", -1) == seq + 1;
        });
        seen[k].absorb(m);
        if (k == 1) live_to_bob[seq + 1] = m;
      }
      if (who == 1) bob_last_action = seen[1].seq;
      const json& update = live_to_bob.at(seen[1].seq);
      for (const json& e : update["events"]) {
        if (e["kind"] == "turn_started" && e["player"] == 0) {
          // Bob's turn is over: his phone goes away now (again), and Alice's turn begins.
          left_at = seen[1].seq;
          battle = false;
        } else if (e["kind"] == "battle_started" && left_at >= 0 && e["player"] == 0) {
          battle = true;
        } else if ((e["kind"] == "turn_started" && e["player"] == 1 && battle) ||
                   (e["kind"] == "game_over" && battle)) {
          done = true;  // Alice's whole turn with a battle in it is behind us
        }
      }
    }
    if (!done) {
      a.send(json{{"type", "game.unwatch"}, {"game_id", id}});
      b.send(json{{"type", "game.unwatch"}, {"game_id", id}});
    }
  }
  ASSERT_TRUE(done) << "no turn of Alice with a battle in 6 games";
  const int now = seen[1].seq;
  ASSERT_GT(now, left_at);

  // Bob's phone comes back: a connection of its own, not watching the game.
  WsClient phone;
  phone.connect(server->port());
  sign_in(phone, bob);
  const json reply = since(phone, id, left_at, 1);
  ASSERT_EQ(reply["type"], "game.since") << reply.dump();
  EXPECT_EQ(reply["seat"], 1);
  EXPECT_EQ(reply["since"], left_at);
  EXPECT_EQ(reply["from"], left_at);
  EXPECT_EQ(reply["to"], now);
  EXPECT_EQ(reply["skipped"], 0);
  ASSERT_EQ(int(reply["steps"].size()), now - left_at);
  bool saw_fire = false, saw_battle = false;
  int hidden_reveals = 0;
  for (const json& step : reply["steps"]) {
    const int seq = step["seq"];
    ASSERT_TRUE(live_to_bob.count(seq)) << seq;
    const json& live = live_to_bob.at(seq);
    // Byte for byte what his other device was told live: never more, never less.
    EXPECT_EQ(step["events"].dump(), live["events"].dump()) << "seq " << seq;
    EXPECT_EQ(step["log"].dump(), live["log"].dump()) << "seq " << seq;
    for (const json& e : step["events"]) {
      if (e["kind"] == "battle_started") saw_battle = true;
      if (e["kind"] == "dice_rolled" && e.contains("fire")) saw_fire = true;
      if (e["kind"] == "tile_revealed" && !e.contains("terrain")) ++hidden_reveals;
    }
    // Every log line carries the hexes it names, and names them in its text.
    for (const json& line : step["log"]) {
      ASSERT_TRUE(line.contains("hexes")) << line.dump();
      for (const json& hex : line["hexes"]) {
        const std::string label =
            Board::for_radius(seen[1].view["radius"].get<int>()).label(int(hex));
        EXPECT_NE(line["text"].get<std::string>().find(label), std::string::npos) << line.dump();
      }
    }
  }
  EXPECT_TRUE(saw_battle);
  EXPECT_TRUE(saw_fire) << "the battle's dice come with where they came from";
  if (!independent) {
    EXPECT_EQ(hidden_reveals, 0);
  }

  // By default: since Bob's own last action.
  const json by_default = since(phone, id, std::nullopt, 2);
  ASSERT_EQ(by_default["type"], "game.since") << by_default.dump();
  EXPECT_EQ(by_default["since"], bob_last_action);
  ASSERT_EQ(int(by_default["steps"].size()), now - bob_last_action);
  if (!by_default["steps"].empty()) {
    EXPECT_EQ(by_default["steps"][0]["seq"], bob_last_action + 1);
  }

  // A seq beyond the game's is nothing new; asking from the start is capped at 200 steps (the
  // latest) with the count of the others.
  const json beyond = since(phone, id, now + 5, 3);
  EXPECT_EQ(beyond["since"], now);
  EXPECT_TRUE(beyond["steps"].empty());
  const json all = since(phone, id, 0, 4);
  EXPECT_EQ(all["since"], 0);
  EXPECT_EQ(all["to"], now);
  EXPECT_EQ(int(all["steps"].size()), std::min(now, 200));
  EXPECT_EQ(all["skipped"], std::max(0, now - 200));
  EXPECT_EQ(int(all["from"]) + int(all["steps"].size()), now);
  EXPECT_EQ(all["steps"].back().dump(), reply["steps"].back().dump());
  // Every step of it is what Bob's other device got live, too.
  for (const json& step : all["steps"]) {
    const json& live = live_to_bob.at(step["seq"]);
    EXPECT_EQ(step["events"].dump(), live["events"].dump()) << "seq " << step["seq"];
    EXPECT_EQ(step["log"].dump(), live["log"].dump()) << "seq " << step["seq"];
  }
  // Alice's explorations: Bob learns that she turned tiles over, and under independent
  // exploration what they were only for hexes he knew himself.
  int hidden = 0, shown = 0;
  for (const json& step : all["steps"]) {
    for (const json& e : step["events"]) {
      if (e["kind"] != "tile_revealed" || e["player"] != 0) continue;
      if (!e.contains("terrain")) {
        ++hidden;
        continue;
      }
      ++shown;
      EXPECT_TRUE(seen[1].view["hexes"][int(e["hex"])]["known"].get<bool>()) << e.dump();
    }
  }
  if (!independent) {
    EXPECT_EQ(hidden, 0);
  }
  // Under independent exploration the game did hide some of Alice's reveals from Bob (so the
  // comparisons above had something to hide).
  int hidden_live = 0;
  for (const auto& [seq, update] : live_to_bob) {
    for (const json& e : update["events"]) {
      if (e["kind"] == "tile_revealed" && e["player"] == 0 && !e.contains("terrain")) ++hidden_live;
    }
  }
  if (independent) {
    EXPECT_GT(hidden_live, 0);
  } else {
    EXPECT_EQ(hidden_live, 0);
  }
  std::cout << "catch-up: " << reply["steps"].size() << " steps since Bob left, " << now
            << " in the game; Alice's reveals seen " << shown << ", hidden " << hidden << "\n";
}

INSTANTIATE_TEST_SUITE_P(Exploration, CatchUp, ::testing::Values(false, true),
                         [](const auto& param) { return param.param ? "Independent" : "Shared"; });

TEST(CatchUpErrors, OnlySeatedPlayersOfStartedGamesCatchUp) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "web");
  ServerProcess server(dir.file("game.db"), (dir.path() / "web").string());
  const Account alice = sign_up(server.port(), "Alice");
  const Account carol = sign_up(server.port(), "Carol");
  WsClient a, c;
  a.connect(server.port());
  c.connect(server.port());
  sign_in(a, alice);
  sign_in(c, carol);
  auto error_of = [](WsClient& ws, const json& request) {
    ws.send(request);
    const json m = ws.wait_for([&](const json& x) {
      return x.value("req", -1) == request["req"] || x.value("type", "") == "game.since";
    });
    return m.value("type", "") == "error" ? m.value("code", "") : std::string("answered");
  };
  a.send(json{{"type", "game.create"}, {"seats", 2}, {"private", false}, {"req", 1}});
  const std::int64_t open_game = a.wait_type("game.created")["game_id"];
  EXPECT_EQ(error_of(a, json{{"type", "game.since"}, {"game_id", open_game}, {"req", 2}}),
            "not_running");
  EXPECT_EQ(error_of(c, json{{"type", "game.since"}, {"game_id", open_game}, {"req", 3}}),
            "not_seated");
  EXPECT_EQ(error_of(a, json{{"type", "game.since"}, {"game_id", 999}, {"req", 4}}), "not_found");
  EXPECT_EQ(error_of(a, json{{"type", "game.since"}, {"game_id", "x"}, {"req", 5}}), "bad_message");
  EXPECT_EQ(
      error_of(a, json{{"type", "game.since"}, {"game_id", open_game}, {"seq", -1}, {"req", 6}}),
      "bad_message");
  EXPECT_EQ(
      error_of(a, json{{"type", "game.since"}, {"game_id", open_game}, {"seq", "1"}, {"req", 7}}),
      "bad_message");
  // A private game does not exist for someone without a seat in it.
  a.send(json{{"type", "game.create"}, {"seats", 2}, {"private", true}, {"req", 8}});
  const std::int64_t private_game = a.wait_type("game.created")["game_id"];
  EXPECT_EQ(error_of(c, json{{"type", "game.since"}, {"game_id", private_game}, {"req", 9}}),
            "not_found");
  // Not signed in: nothing.
  WsClient anonymous;
  anonymous.connect(server.port());
  EXPECT_EQ(error_of(anonymous, json{{"type", "game.since"}, {"game_id", open_game}, {"req", 10}}),
            "unauthenticated");
}

}  // namespace
}  // namespace viktory::server::testing
