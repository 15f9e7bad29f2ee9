// Computer seats (seat_controllers.h) against the real server over real WebSockets: a human
// against a computer, computers alone, a restart in the middle, and refused requests.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "support/play.h"
#include "support/server_process.h"
#include "test_support.h"

namespace viktory::server::testing {
namespace {

using nlohmann::json;

const std::vector<std::string> kFastComputers = {"--computer-budget-ms", "20"};

class ComputerSeats : public ::testing::Test {
 protected:
  void SetUp() override { start_server(); }
  void start_server(std::vector<std::string> more = {}) {
    std::vector<std::string> args = kFastComputers;
    args.insert(args.end(), more.begin(), more.end());
    server.reset();  // a restart: one server on the database at a time (PostgreSQL refuses two)
    server = std::make_unique<ServerProcess>(dir.file("game.db"), dir.path().string(), args);
  }
  std::int64_t create(WsClient& ws, json fields) {
    json create{{"type", "game.create"}, {"req", 1}};
    for (auto& [k, v] : fields.items()) create[k] = v;
    ws.send(create);
    return ws.wait_type("game.created").at("game_id");
  }

  TempDir dir;
  std::unique_ptr<ServerProcess> server;
};

TEST_F(ComputerSeats, AHumanPlaysRandomLegalActionsAgainstAComputerUntilTheEnd) {
  const Account alice = sign_up(server->port(), "Alice");
  WsClient a;
  a.connect(server->port());
  sign_in(a, alice);
  // Every other seat is a computer's: the game starts at once.
  const std::int64_t id = create(
      a, json{{"seats", 2}, {"computers", json::array({{{"seat", 1}, {"level", "search"}}})}});
  const json seats = a.wait_for(
      [](const json& m) { return m["type"] == "game.seats" && m["status"] == "running"; });
  EXPECT_EQ(seats["seats"][0]["name"], "Alice");
  EXPECT_TRUE(seats["seats"][0]["computer"].is_null());
  EXPECT_EQ(seats["seats"][1]["computer"], "search");
  EXPECT_EQ(seats["seats"][1]["name"], "Computer (search)");

  std::mt19937 rng(8);
  Seen me;
  int sent_for = -1;
  int my_actions = 0;
  int computer_actions = 0;  // also out of turn (casualties, retreats)
  for (;;) {
    std::optional<json> m = a.receive(std::chrono::seconds(30));
    ASSERT_TRUE(m) << "the game stalled at seq " << me.seq;
    if ((*m)["type"] == "error") FAIL() << m->dump();
    const int decided_before = me.view.is_object() && me.view["decider"].is_number_integer()
                                   ? int(me.view["decider"])
                                   : -1;
    if (!me.absorb(*m)) continue;
    if ((*m)["type"] == "game.update" && decided_before == 1) ++computer_actions;
    if (me.view["phase"] == "game_over") break;
    if (me.view["decider"] != 0 || sent_for == me.seq) continue;
    std::vector<json> choices;
    for (const json& action : me.legal) {
      if (action["kind"] != "concede") choices.push_back(action);
    }
    ASSERT_FALSE(choices.empty());
    const json pick =
        choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(rng)];
    a.send(json{{"type", "game.action"}, {"game_id", id}, {"seq", me.seq}, {"action", pick}});
    sent_for = me.seq;
    ++my_actions;
    ASSERT_LT(me.seq, 40000) << "no end in sight";
  }
  EXPECT_GT(my_actions, 10);
  EXPECT_GT(computer_actions, 10);
  EXPECT_FALSE(me.view["winners"].empty());
  // The replay shows both seats' actions.
  const HttpReply replay =
      http_request(server->port(), "GET", "/api/games/" + std::to_string(id) + "/replay?seat=0", "",
                   alice.token);
  ASSERT_EQ(replay.status, 200);
  EXPECT_EQ(server->terminate(), 0);
}

TEST_F(ComputerSeats, ThreeComputersPlayOnTheirOwnAndResumeAfterAKill) {
  const Account carol = sign_up(server->port(), "Carol");
  WsClient c;
  c.connect(server->port());
  sign_in(c, carol);
  const std::int64_t id =
      create(c, json{{"seats", 3},
                     {"play", false},
                     {"independent_exploration", true},
                     {"tile_mix", "land_rich"},
                     {"victory", "shorter"},  // [5.3] ends when the first Capital falls
                     {"computers", json::array({{{"seat", 0}, {"level", "heuristic"}},
                                                {{"seat", 1}, {"level", "heuristic"}},
                                                {{"seat", 2}, {"level", "heuristic"}}})}});
  // The creator watches as a spectator; the computers play without anyone acting.
  const json state = c.wait_type("game.state");
  EXPECT_TRUE(state["you"]["seat"].is_null());
  const json progressed =
      c.wait_for([](const json& m) { return m["type"] == "game.update" && m["seq"] >= 30; }, 60s);
  // Killed in the middle: after the restart the computer whose decision it is plays on.
  server->kill9();
  start_server();
  WsClient again;
  again.connect(server->port());
  sign_in(again, carol);
  again.send(json{{"type", "game.watch"}, {"game_id", id}});
  const json resumed = again.wait_type("game.state");
  EXPECT_GE(int(resumed["seq"]), int(progressed["seq"]));
  // They play on: to the end, or (three heuristic players can stall in a long stand-off on
  // some maps) for at least 300 more actions. Updates carry view deltas: Seen applies them.
  const int resumed_seq = resumed["seq"];
  Seen later;
  later.absorb(resumed);
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(3);
  while (later.view["phase"] != "game_over" && later.seq < resumed_seq + 300) {
    const std::optional<json> m = again.receive(std::chrono::seconds(60));
    if (!m || std::chrono::steady_clock::now() > give_up) {
      const std::string log = server->log();
      FAIL() << "the computers stalled at seq " << later.seq << "\n"
             << log.substr(log.size() > 4000 ? log.size() - 4000 : 0);
    }
    later.absorb(*m);
  }
  EXPECT_GT(later.seq, resumed_seq);
  if (later.view["phase"] == "game_over") {
    EXPECT_FALSE(later.view["winners"].empty());
  }
  EXPECT_EQ(server->terminate(), 0);
}

TEST_F(ComputerSeats, BadComputerSeatsAreRefusedAndChangeNothing) {
  const Account alice = sign_up(server->port(), "Alice");
  WsClient a;
  a.connect(server->port());
  sign_in(a, alice);
  const auto refused = [&](json fields) {
    json create{{"type", "game.create"}, {"seats", 3}, {"req", 7}};
    for (auto& [k, v] : fields.items()) create[k] = v;
    a.send(create);
    const json reply = a.wait_for([](const json& m) { return m["type"] == "error"; });
    EXPECT_EQ(reply["req"], 7);
    return reply["code"].get<std::string>();
  };
  EXPECT_EQ(refused({{"computers", json::array({{{"seat", 1}, {"level", "genius"}}})}}),
            "bad_options");
  EXPECT_EQ(refused({{"computers", json::array({{{"seat", 0}, {"level", "random"}}})}}),
            "bad_seat");  // the creator's own seat
  EXPECT_EQ(refused({{"computers", json::array({{{"seat", 5}, {"level", "random"}}})}}),
            "bad_seat");
  EXPECT_EQ(refused({{"computers", json::array({{{"seat", 1}, {"level", "random"}},
                                                {{"seat", 1}, {"level", "search"}}})}}),
            "bad_seat");
  EXPECT_EQ(refused({{"computers", "all"}}), "bad_message");
  EXPECT_EQ(
      refused({{"play", false}, {"computers", json::array({{{"seat", 1}, {"level", "random"}}})}}),
      "bad_options");  // a creator who does not play leaves no seat to humans
  a.send(json{{"type", "my_games"}});
  EXPECT_TRUE(a.wait_type("my_games")["games"].empty());
  // A human seat stays open: the game waits for its human.
  const std::int64_t id = create(
      a, json{{"seats", 3}, {"computers", json::array({{{"seat", 2}, {"level", "heuristic"}}})}});
  const json seats = a.wait_type("game.seats");
  EXPECT_EQ(seats["status"], "open");
  EXPECT_TRUE(seats["seats"][1]["player_id"].is_null());
  EXPECT_EQ(seats["seats"][2]["computer"], "heuristic");
  const Account bob = sign_up(server->port(), "Bob");
  WsClient b;
  b.connect(server->port());
  sign_in(b, bob);
  b.send(json{{"type", "game.join"}, {"game_id", id}});
  const json started = b.wait_type("game.state");
  EXPECT_EQ(started["you"]["seat"], 1);
  EXPECT_EQ(server->terminate(), 0);
}

// Caps on games with computer seats (computer_caps.h) over the wire, across a restart that
// lowers them: the count comes from the database, the computers of the games already there
// play on, and the count drops as games end.
TEST_F(ComputerSeats, CapsHoldAcrossARestartThatLowersThemAndTheComputersPlayOn) {
  start_server({"--computer-games-per-player", "2"});
  const Account alice = sign_up(server->port(), "Alice");
  auto a = std::make_unique<WsClient>();
  a->connect(server->port());
  sign_in(*a, alice);
  const json against_one = json::array({{{"seat", 1}, {"level", "random"}}});
  const std::int64_t running = create(*a, json{{"seats", 2}, {"computers", against_one}});
  // It starts once Alice's client has revealed its contribution (fair play): before the kill.
  a->wait_for([&](const json& m) { return m["type"] == "game.state" && m["game_id"] == running; });
  const std::int64_t open = create(
      *a, json{{"seats", 3}, {"computers", json::array({{{"seat", 2}, {"level", "random"}}})}});
  const auto refused = [&](WsClient& ws, int req) {
    ws.send(json{{"type", "game.create"}, {"seats", 2}, {"computers", against_one}, {"req", req}});
    const json reply = ws.wait_for(
        [](const json& m) { return m["type"] == "error" || m["type"] == "game.created"; });
    EXPECT_EQ(reply["type"], "error") << reply.dump();
    EXPECT_EQ(reply["req"], req);
    EXPECT_EQ(reply["code"], "too_many_computer_games");
    EXPECT_EQ(reply["scope"], "player");
    return reply.value("limit", 0);
  };
  EXPECT_EQ(refused(*a, 3), 2);

  server->kill9();
  start_server({"--computer-games-per-player", "1"});
  a = std::make_unique<WsClient>();
  a->connect(server->port());
  sign_in(*a, alice);
  EXPECT_EQ(refused(*a, 4), 1);  // still two games, one more than the cap now
  // Games that end free their places: the open one, cancelled by its creator...
  a->send(json{{"type", "game.leave"}, {"game_id", open}, {"req", 5}});
  a->wait_for([](const json& m) { return m["type"] == "ack" && m["req"] == 5; });
  EXPECT_EQ(refused(*a, 6), 1);
  // ... and the running one, in which the computer answers her moves after the restart
  // (three times), and which she then concedes.
  a->send(json{{"type", "game.watch"}, {"game_id", running}});
  Seen me;
  int computer_actions = 0;
  std::mt19937 rng(3);
  for (;;) {
    const std::optional<json> m = a->receive(std::chrono::seconds(30));
    ASSERT_TRUE(m) << "the computer did not play on after the restart";
    if ((*m)["type"] == "error") FAIL() << m->dump();
    const int decided_before = me.view.is_object() && me.view["decider"].is_number_integer()
                                   ? int(me.view["decider"])
                                   : -1;
    if (!me.absorb(*m)) continue;
    if ((*m)["type"] == "game.update" && decided_before == 1) ++computer_actions;
    ASSERT_NE(me.view["phase"], "game_over");
    if (me.view["decider"] != 0) continue;
    std::vector<json> choices;
    json concede;
    for (const json& action : me.legal) {
      (action["kind"] == "concede" ? concede : choices.emplace_back()) = action;
    }
    if (computer_actions >= 3) {
      ASSERT_TRUE(concede.is_object());
      a->send(json{
          {"type", "game.action"}, {"game_id", running}, {"seq", me.seq}, {"action", concede}});
      a->wait_for(
          [&](const json& u) { return u["type"] == "game.update" && u["seq"] == me.seq + 1; });
      break;
    }
    a->send(
        json{{"type", "game.action"},
             {"game_id", running},
             {"seq", me.seq},
             {"action",
              choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(rng)]}});
  }
  EXPECT_GT(create(*a, json{{"seats", 2}, {"computers", against_one}}), running);
  // The pool's figures: the computer's decisions since the restart, on one worker per core.
  const std::string metrics = http_request(server->port(), "GET", "/metrics").body;
  const auto figure = [&](const std::string& name) {
    const std::size_t at = metrics.find("\n" + name + " ");
    return at == std::string::npos ? -1 : std::stol(metrics.substr(at + name.size() + 2));
  };
  EXPECT_GE(figure("viktory_computer_decisions_total"), 3);
  EXPECT_GE(figure("viktory_computer_workers"), 1);
  EXPECT_EQ(figure("viktory_computer_games_paused"), 0);
  EXPECT_EQ(server->terminate(), 0);
}

}  // namespace
}  // namespace viktory::server::testing

namespace viktory::server::testing {
namespace {

// [3.2] Board size and 7-8 players (docs/rules-notes.md, "Board sizes and 7-8 players"): a
// 7-player game of computers runs on its 217-hex board, a 2-player game on the 169-hex board it
// chose; a board too small for 8 players or no board size at all is refused, naming the sizes.
TEST_F(ComputerSeats, R3_2_SevenPlayersAndTwoPlayersOnTheLargestRulesBoard) {
  const Account alice = sign_up(server->port(), "Alice");
  WsClient a;
  a.connect(server->port());
  sign_in(a, alice);
  json seven = json::array();
  for (int seat = 0; seat < 7; ++seat) {
    seven.push_back({{"seat", seat}, {"level", seat % 2 == 0 ? "heuristic" : "search"}});
  }
  const std::int64_t big = create(a, json{{"seats", 7}, {"play", false}, {"computers", seven}});
  const json board7 = a.wait_type("game.board");
  EXPECT_EQ(board7["board"]["hexes"].size(), 217u);
  const json state7 = a.wait_type("game.state");
  EXPECT_EQ(state7["game_id"], big);
  EXPECT_EQ(state7["view"]["radius"], 8);
  EXPECT_EQ(state7["view"]["options"]["players"], 7);
  EXPECT_EQ(state7["view"]["players"].size(), 7u);
  // All seven build their Capitals and play on (the setup alone is 7 actions).
  const json later = a.wait_for(
      [&](const json& m) {
        return m["type"] == "game.update" && m["game_id"] == big && m["seq"] >= 40;
      },
      60s);
  EXPECT_GE(int(later["seq"]), 40);
  a.send(json{{"type", "game.unwatch"}, {"game_id", big}, {"req", 2}});
  a.wait_for([](const json& m) { return m["type"] == "ack" && m["req"] == 2; });

  const std::int64_t two =
      create(a, json{{"seats", 2},
                     {"board_hexes", 169},
                     {"computers", json::array({{{"seat", 1}, {"level", "heuristic"}}})}});
  const json board2 =
      a.wait_for([&](const json& m) { return m["type"] == "game.board" && m["game_id"] == two; });
  EXPECT_EQ(board2["board"]["hexes"].size(), 169u);
  const json state2 =
      a.wait_for([&](const json& m) { return m["type"] == "game.state" && m["game_id"] == two; });
  EXPECT_EQ(state2["view"]["radius"], 7);
  EXPECT_EQ(state2["view"]["options"]["board_hexes"], 169);
  EXPECT_EQ(state2["view"]["options"]["players"], 2);

  auto refused = [&](json fields, int req) {
    json create{{"type", "game.create"}, {"req", req}};
    for (auto& [k, v] : fields.items()) create[k] = v;
    a.send(create);
    return a.wait_for([&](const json& m) { return m["type"] == "error" && m["req"] == req; });
  };
  const json small = refused({{"seats", 8}, {"board_hexes", 127}}, 10);
  EXPECT_EQ(small["code"], "bad_options");
  EXPECT_NE(small["message"].get<std::string>().find("169 or 217"), std::string::npos) << small;
  const json odd = refused({{"seats", 2}, {"board_hexes", 100}}, 11);
  EXPECT_EQ(odd["code"], "bad_options");
  EXPECT_NE(odd["message"].get<std::string>().find("61, 91, 127, 169 or 217"), std::string::npos)
      << odd;
  const json nine = refused({{"seats", 9}}, 12);
  EXPECT_EQ(nine["code"], "bad_options");
}

}  // namespace
}  // namespace viktory::server::testing
