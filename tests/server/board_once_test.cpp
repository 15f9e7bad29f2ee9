// The static board (hex coordinates, labels, perimeter) over real WebSockets: sent once per game
// and connection, before the first view; not again on a second game.watch or after a stale
// action on the same connection; again on a new connection and when asked for (game.board);
// and in every replay page. docs/protocol.md, "The board, sent once".
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "board.h"
#include "hex.h"
#include "support/play.h"
#include "support/server_process.h"
#include "test_support.h"

namespace viktory::server::testing {
namespace {

using nlohmann::json;

// The messages of one game in a connection's history, in order, by type.
std::vector<std::string> types_of(const WsClient& ws, std::int64_t game_id) {
  std::vector<std::string> out;
  for (const std::string& raw : ws.history()) {
    const json m = json::parse(raw);
    if (m.value("game_id", std::int64_t{-1}) == game_id) out.push_back(m.value("type", ""));
  }
  return out;
}

int count(const std::vector<std::string>& types, const std::string& type) {
  return static_cast<int>(std::count(types.begin(), types.end(), type));
}

json last_board(const WsClient& ws, std::int64_t game_id) {
  json out;
  for (const std::string& raw : ws.history()) {
    const json m = json::parse(raw);
    if (m.value("type", "") == "game.board" && m.value("game_id", std::int64_t{-1}) == game_id) {
      out = m["board"];
    }
  }
  return out;
}

// The hexes of the view carry no board fields, and with the board they have the engine's.
void expect_view_fits_board(const json& view, const json& board) {
  const Board& b = Board::for_radius(view["radius"].get<int>());
  for (const json& h : view["hexes"]) EXPECT_FALSE(h.contains("label")) << h.dump();
  const json whole = protocol::view_with_board(view, board);
  for (const json& h : whole["hexes"]) {
    const int hex = h["hex"];
    EXPECT_EQ(h["label"], b.label(hex));
    EXPECT_EQ(h["q"], b.coord(hex).q);
    EXPECT_EQ(h["r"], b.coord(hex).r);
    EXPECT_EQ(h["perimeter"], b.is_perimeter(hex));
  }
}

TEST(BoardOnce, SentOncePerGameAndConnectionAndAgainOnANewOne) {
  TempDir dir;
  ServerProcess server(dir.file("board.db"), (dir.path() / "web").string());
  const Account ann = sign_up(server.port(), "Ann");
  const Account ben = sign_up(server.port(), "Ben");
  WsClient a, b;
  a.connect(server.port());
  b.connect(server.port());
  sign_in(a, ann);
  sign_in(b, ben);
  std::vector<Seen> seen;
  const std::int64_t game = start_game({&a, &b}, seen, json{{"seats", 2}});

  // Each player got the board once, before his first game.state, with the id it names.
  for (WsClient* ws : {&a, &b}) {
    const std::vector<std::string> types = types_of(*ws, game);
    ASSERT_EQ(count(types, "game.board"), 1);
    const auto board_at = std::find(types.begin(), types.end(), "game.board");
    const auto state_at = std::find(types.begin(), types.end(), "game.state");
    ASSERT_NE(state_at, types.end());
    EXPECT_LT(board_at, state_at) << "the board must come before the first view";
  }
  const json board = last_board(a, game);
  EXPECT_EQ(board, last_board(b, game)) << "the same board for every seat";
  json first_state;
  for (const std::string& raw : a.history()) {
    const json m = json::parse(raw);
    if (m.value("type", "") == "game.state") first_state = m;
  }
  EXPECT_EQ(first_state["board"], board["id"]);
  expect_view_fits_board(first_state["view"], board);

  // A second game.watch on the same connection: a full state again, but not the board.
  a.send(json{{"type", "game.watch"}, {"game_id", game}, {"req", 5}});
  a.wait_for([](const json& m) { return m.value("type", "") == "ack" && m.value("req", 0) == 5; });
  // An action with a stale seq: error, then a fresh game.state, still without the board.
  const int decider = seen[0].view["decider"];
  WsClient& acting = decider == 0 ? a : b;
  acting.send(json{{"type", "game.action"},
                   {"game_id", game},
                   {"seq", seen[0].seq + 7},
                   {"action", seen[static_cast<std::size_t>(decider)].legal[0]},
                   {"req", 6}});
  acting.wait_for([](const json& m) { return m.value("code", "") == "stale"; });
  acting.wait_type("game.state");
  // The live updates of a real action: deltas, no board.
  act_and_wait(acting, game, seen[static_cast<std::size_t>(decider)].legal[0], {&a, &b}, seen,
               static_cast<std::size_t>(decider));
  for (WsClient* ws : {&a, &b}) {
    const std::vector<std::string> types = types_of(*ws, game);
    EXPECT_EQ(count(types, "game.board"), 1);
    EXPECT_GE(count(types, "game.state"), 1);
    EXPECT_GE(count(types, "game.update"), 1);
  }
  EXPECT_GE(count(types_of(a, game), "game.state"), 2);

  // A client that lost the board asks for it: sent again on the same connection.
  b.send(json{{"type", "game.board"}, {"game_id", game}, {"req", 7}});
  const json again = b.wait_type("game.board");
  EXPECT_EQ(again["board"], board);
  b.wait_for([](const json& m) { return m.value("type", "") == "ack" && m.value("req", 0) == 7; });

  // A new connection of the same player gets the board again, before the view.
  WsClient a2;
  a2.connect(server.port());
  sign_in(a2, ann);
  a2.send(json{{"type", "game.board"}, {"game_id", game}, {"req", 8}});
  EXPECT_EQ(a2.wait_type("error")["code"], "not_watching") << "only for a watched game";
  a2.send(json{{"type", "game.watch"}, {"game_id", game}, {"req", 9}});
  const json new_board = a2.wait_type("game.board");
  EXPECT_EQ(new_board["board"], board);
  const json new_state = a2.wait_type("game.state");
  EXPECT_EQ(new_state["board"], board["id"]);
  expect_view_fits_board(new_state["view"], board);

  // Over: every replay page carries the board, its views and deltas do not.
  a.send(json{{"type", "game.action"},
              {"game_id", game},
              {"seq", 0},
              {"action", json{{"kind", "concede"}}},
              {"req", 10}});
  a.wait_for([](const json& m) { return m.value("type", "") == "ack" && m.value("req", 0) == 10; });
  const HttpReply reply = http_request(
      server.port(), "GET", "/api/games/" + std::to_string(game) + "/replay?from=0&to=1");
  ASSERT_EQ(reply.status, 200) << reply.body;
  const json page = reply.json();
  EXPECT_EQ(page["board"], board);
  expect_view_fits_board(page["view"], board);
  for (const json& step : page["steps"]) {
    for (const json& h : step["delta"].value("hexes", json::array())) {
      EXPECT_FALSE(h.contains("label")) << h.dump();
    }
  }
}

}  // namespace
}  // namespace viktory::server::testing
