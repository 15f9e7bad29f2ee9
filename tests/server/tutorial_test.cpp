// The guided first game (server/games/tutorial.h) over real WebSockets against the real server:
// tutorial.start makes a private game from the compiled-in scenario against the passive
// computer, which the scripted path wins [5.1]; asking again resumes it, restart replaces it;
// its own budget refuses a flood, and it counts against no cap of computer games; it survives
// a restart (its start position is the snapshot of seq 0). What the player receives is checked
// byte for byte in leak_test.cpp (Leak.AGuidedGameSendsThePlayerHisViewOnly).
#include <gtest/gtest.h>

#include "support/play.h"
#include "support/server_process.h"
#include "test_support.h"

namespace viktory::server::testing {
namespace {

using nlohmann::json;

// Hexes of the scenario (radius 3): Red's Capital, the way east, Yellow's Capital.
constexpr int kD2 = 16, kD3 = 17, kD4 = 18, kC4 = 12;
// Units: Yellow's Infantry is 0; Red's Infantry (from his Capital) 1, his Cavalry (the City) 2.
constexpr int kRedInfantry = 1, kRedCavalry = 2;

class Tutorial : public ::testing::Test {
 protected:
  void SetUp() override { start_server(); }
  void start_server(std::vector<std::string> args = {}) {
    server.reset();
    server = std::make_unique<ServerProcess>(dir.file("game.db"), dir.path().string(), args);
  }
  std::unique_ptr<WsClient> connect(const Account& account) {
    auto ws = std::make_unique<WsClient>();
    ws->connect(server->port());
    sign_in(*ws, account);
    return ws;
  }
  // tutorial.start; the reply (tutorial.started or error).
  json start(WsClient& ws, json fields = json::object()) {
    json msg{{"type", "tutorial.start"}, {"req", ++req}};
    for (auto& [k, v] : fields.items()) msg[k] = v;
    ws.send(msg);
    return ws.wait_for([&](const json& m) {
      return m.value("type", "") == "tutorial.started" ||
             (m.value("type", "") == "error" && m.value("req", 0) == req);
    });
  }
  // Watches the game; the player's Seen once his game.state came.
  Seen watch(WsClient& ws, std::int64_t id) {
    ws.send(json{{"type", "game.watch"}, {"game_id", id}});
    Seen me;
    for (;;) {
      const json m = ws.wait_for([](const json& x) {
        return x.value("type", "") == "game.state" || x.value("type", "") == "game.seats";
      });
      if (m["type"] == "game.seats") seats = m;
      if (me.absorb(m)) return me;
    }
  }
  // The last game.seats watch() saw.
  json seats;
  // Whether the client was sent a message satisfying `want`.
  static bool received(const WsClient& ws, const std::function<bool(const json&)>& want) {
    for (const std::string& raw : ws.history()) {
      if (want(json::parse(raw))) return true;
    }
    return false;
  }
  // Sends Red's action and reads on until it is Red's decision again (the passive computer
  // plays its turns meanwhile) or the game is over.
  void act(WsClient& ws, std::int64_t id, Seen& me, const json& action) {
    ws.send(json{{"type", "game.action"}, {"game_id", id}, {"seq", me.seq}, {"action", action}});
    const int before = me.seq;
    for (;;) {
      std::optional<json> m = ws.receive(std::chrono::seconds(20));
      ASSERT_TRUE(m) << "no answer to " << action.dump() << " at seq " << me.seq;
      ASSERT_NE((*m)["type"], "error") << m->dump() << " for " << action.dump();
      me.absorb(*m);
      if (me.seq > before && (me.view["decider"] == 0 || me.view["phase"] == "game_over")) return;
    }
  }
  // The scripted path of the guide (web-client/js/tutorial/steps.js) up to `steps` actions.
  void play_guided(WsClient& ws, std::int64_t id, Seen& me, std::size_t steps = 99) {
    const std::vector<json> path = {
        {{"kind", "place_capital"}, {"hex", kD2}},
        {{"kind", "upgrade_city"}, {"hex", kD2}},
        {{"kind", "move"}, {"unit", kRedInfantry}, {"hex", kD3}},
        {{"kind", "move"}, {"unit", kRedInfantry}, {"hex", kD4}},
        {{"kind", "end_phase"}},
        {{"kind", "place_reserve"}, {"unit_type", "cavalry"}, {"hex", kD2}},
        {{"kind", "end_phase"}},
        {{"kind", "end_phase"}},
        {{"kind", "move"}, {"unit", kRedInfantry}, {"hex", kC4}},
        {{"kind", "move"}, {"unit", kRedCavalry}, {"hex", kD3}},
        {{"kind", "move"}, {"unit", kRedCavalry}, {"hex", kD4}},
        {{"kind", "move"}, {"unit", kRedCavalry}, {"hex", kC4}},
        {{"kind", "start_battle"}, {"hex", kC4}},
    };
    for (std::size_t i = 0; i < path.size() && i < steps; ++i) {
      act(ws, id, me, path[i]);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }

  TempDir dir;
  std::unique_ptr<ServerProcess> server;
  int req = 0;
};

TEST_F(Tutorial, StartMakesAPrivateGameFromTheScenarioThatTheGuidedPathWins_5_1) {
  const Account ada = sign_up(server->port(), "Ada");
  auto ws = connect(ada);
  const json started = start(*ws);
  ASSERT_EQ(started["type"], "tutorial.started") << started.dump();
  EXPECT_EQ(started["resumed"], false);
  const std::int64_t id = started["game_id"];
  Seen me = watch(*ws, id);
  // The scenario's position: Red (seat 0) chooses his Capital; only D2 is land [4.0].
  EXPECT_EQ(me.seat, 0);
  EXPECT_EQ(me.view["phase"], "setup");
  EXPECT_EQ(me.view["capital_choices"], json::array({kD2}));
  EXPECT_EQ(me.view["players"][1]["capital_hex"], kC4);
  // Face-down tiles stay hidden: D3 has no terrain in his view until it is revealed [9.2].
  EXPECT_FALSE(me.view["hexes"][kD3].contains("terrain")) << me.view["hexes"][kD3].dump();
  EXPECT_EQ(seats["status"], "running");
  EXPECT_EQ(seats["seats"][1]["computer"], "passive");
  // Nobody else may look at it.
  const Account eve = sign_up(server->port(), "Eve");
  auto other = connect(eve);
  other->send(json{{"type", "game.watch"}, {"game_id", id}, {"req", 5}});
  EXPECT_EQ(other->wait_type("error")["code"], "not_found");

  play_guided(*ws, id, me);
  ASSERT_FALSE(HasFatalFailure());
  // The scripted dice: Red's 3 dice hit, Yellow's Town die misses; Yellow has no Town left and
  // is out, the last player left wins [5.1, 12.3].
  EXPECT_EQ(me.view["phase"], "game_over");
  EXPECT_EQ(me.view["winners"], json::array({0}));
  EXPECT_EQ(me.view["ended_by"], "standard");
  EXPECT_TRUE(me.view["players"][1]["eliminated"].get<bool>());
  // No game record: it would claim the game came from its seed; the replay is there.
  const HttpReply record = http_request(
      server->port(), "GET", "/api/games/" + std::to_string(id) + "/record", "", ada.token);
  EXPECT_EQ(record.status, 404) << record.body;
  EXPECT_EQ(record.json()["error"].value("code", ""), "no_record") << record.body;
  const HttpReply replay = http_request(
      server->port(), "GET", "/api/games/" + std::to_string(id) + "/replay", "", ada.token);
  EXPECT_EQ(replay.status, 200) << replay.body.substr(0, 300);
}

TEST_F(Tutorial, AskingAgainResumesTheGameAndRestartReplacesIt) {
  const Account ada = sign_up(server->port(), "Ada");
  auto ws = connect(ada);
  const std::int64_t first = start(*ws)["game_id"];
  Seen me = watch(*ws, first);
  play_guided(*ws, first, me, 2);
  ASSERT_FALSE(HasFatalFailure());
  const json again = start(*ws);
  EXPECT_EQ(again["game_id"], first);
  EXPECT_EQ(again["resumed"], true);
  const json fresh = start(*ws, {{"restart", true}});
  ASSERT_EQ(fresh["type"], "tutorial.started") << fresh.dump();
  EXPECT_EQ(fresh["resumed"], false);
  const std::int64_t second = fresh["game_id"];
  EXPECT_NE(second, first);
  // One guided game at a time: the old one is cancelled (no longer in his games), and its
  // watcher was told.
  EXPECT_TRUE(received(*ws, [&](const json& m) {
    return m.value("type", "") == "game.seats" && m.value("game_id", std::int64_t{0}) == first &&
           m.value("status", "") == "cancelled";
  }));
  ws->send(json{{"type", "my_games"}});
  const json mine = ws->wait_type("my_games");
  std::vector<std::int64_t> ids;
  for (const json& g : mine["games"]) ids.push_back(g["game_id"]);
  EXPECT_EQ(ids, std::vector<std::int64_t>{second}) << mine.dump();
  // Refused: a field of the wrong type, nothing made.
  const json bad = start(*ws, {{"restart", "yes"}});
  EXPECT_EQ(bad["code"], "bad_message");
  EXPECT_EQ(start(*ws)["game_id"], second);
}

TEST_F(Tutorial, ItsOwnBudgetRefusesAFloodAndItCountsAgainstNoComputerCap) {
  start_server({"--tutorials-per-hour", "2", "--computer-games-per-player", "1"});
  const Account ada = sign_up(server->port(), "Ada");
  auto ws = connect(ada);
  EXPECT_EQ(start(*ws, {{"restart", true}})["type"], "tutorial.started");
  EXPECT_EQ(start(*ws, {{"restart", true}})["type"], "tutorial.started");
  const json third = start(*ws, {{"restart", true}});
  EXPECT_EQ(third["code"], "rate_limited") << third.dump();
  // Resuming costs nothing of the budget.
  EXPECT_EQ(start(*ws)["type"], "tutorial.started");
  // The guided game takes no place of the one computer game he may have.
  ws->send(json{{"type", "game.create"},
                {"req", 90},
                {"seats", 2},
                {"computers", json::array({{{"seat", 1}, {"level", "random"}}})}});
  const json created = ws->wait_for([](const json& m) {
    return m.value("type", "") == "game.created" || m.value("type", "") == "error";
  });
  EXPECT_EQ(created["type"], "game.created") << created.dump();
  // Nor can game.create ask for the passive computer.
  ws->send(json{{"type", "game.create"},
                {"req", 91},
                {"seats", 2},
                {"computers", json::array({{{"seat", 1}, {"level", "passive"}}})}});
  EXPECT_EQ(ws->wait_type("error")["code"], "bad_options");
}

TEST_F(Tutorial, AGuidedGameLoadsAfterARestartFromItsStartPosition) {
  const Account ada = sign_up(server->port(), "Ada");
  std::int64_t id = 0;
  json view_before;
  {
    auto ws = connect(ada);
    id = start(*ws)["game_id"];
    Seen me = watch(*ws, id);
    play_guided(*ws, id, me, 4);  // Red's Infantry on D4
    ASSERT_FALSE(HasFatalFailure());
    view_before = me.view;
    ws->close();
  }
  ASSERT_EQ(server->terminate(), 0);
  start_server();
  auto ws = connect(ada);
  const json resumed = start(*ws);
  EXPECT_EQ(resumed["game_id"], id);
  EXPECT_EQ(resumed["resumed"], true);
  Seen me = watch(*ws, id);
  EXPECT_EQ(me.view, view_before);
  // And it plays on.
  act(*ws, id, me, {{"kind", "end_phase"}});
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_EQ(me.view["phase"], "reserve");
}

}  // namespace
}  // namespace viktory::server::testing
