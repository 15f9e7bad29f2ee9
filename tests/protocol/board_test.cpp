// The static board (protocol/board.h): every hex once, with the coordinates, label and
// perimeter the engine has, the same for every viewer, nothing hidden in it; and a view (which
// no longer carries those fields) plus the board gives back each hex whole.
#include "board.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "game.h"
#include "json.h"
#include "random_play.h"
#include "view.h"

namespace viktory {
namespace {

using nlohmann::json;
using protocol::board_to_json;
using protocol::view_to_json;
using protocol::view_with_board;

std::vector<int> viewers_of(const GameState& s) {
  std::vector<int> out = {kSpectator};
  for (int p = 0; p < s.options.players; ++p) out.push_back(p);
  return out;
}

TEST(Board, EveryHexOnceAsTheEngineHasItForEveryViewer) {
  std::set<std::string> ids;
  for (int players = 2; players <= 6; ++players) {
    Options o;
    o.players = players;
    GameState s = new_game(o, 40 + static_cast<std::uint64_t>(players));
    protocol_testing::Picker picker(7);
    protocol_testing::play_random(s, picker, 60);  // some hexes face up, towns, units
    const Board& b = s.board();
    const json board = board_to_json(view_for(s, kSpectator));
    ASSERT_EQ(board["hexes"].size(), static_cast<std::size_t>(b.size()));
    for (int h = 0; h < b.size(); ++h) {
      const json& cell = board["hexes"][static_cast<std::size_t>(h)];
      EXPECT_EQ(cell, (json{{"hex", h},
                            {"q", b.coord(h).q},
                            {"r", b.coord(h).r},
                            {"label", b.label(h)},
                            {"perimeter", b.is_perimeter(h)}}))
          << cell.dump();  // exactly these keys: no terrain, no owner, nothing that changes
    }
    const std::string id = board["id"];
    EXPECT_EQ(id.size(), 16u);
    EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos) << id;
    ids.insert(id);
    for (int viewer : viewers_of(s)) {
      EXPECT_EQ(board_to_json(view_for(s, viewer)), board) << "viewer " << viewer;
    }
  }
  // Radius 4, 5, 6 for 2..4 players; 5 and 6 players share the radius-7 board, and its id.
  EXPECT_EQ(ids.size(), 4u) << "boards of different sizes need different ids";
}

TEST(Board, IsTheSameWhateverTheSeedAndTheMoment) {
  Options o;
  o.players = 3;
  GameState a = new_game(o, 1);
  GameState b = new_game(o, 999);
  const json first = board_to_json(view_for(a, 0));
  protocol_testing::Picker picker(3);
  protocol_testing::play_random(b, picker, 200);
  EXPECT_EQ(board_to_json(view_for(b, 0)), first);
}

TEST(Board, AViewWithoutTheBoardPlusTheBoardGivesBackEveryHex) {
  Options o;
  o.players = 4;
  o.independent_exploration = true;
  GameState s = new_game(o, 21);
  protocol_testing::Picker picker(21);
  int checked = 0;
  protocol_testing::play_random(
      s, picker, 300, [&](const GameState& after, const Action&, const std::vector<Event>&) {
        if (after.action_count % 25 != 0) return;
        for (int viewer : viewers_of(after)) {
          const GameView v = view_for(after, viewer);
          const json view = view_to_json(v);
          const json whole = view_with_board(view, board_to_json(v));
          ASSERT_EQ(whole["hexes"].size(), v.hexes.size());
          for (const HexView& h : v.hexes) {
            const json& sent = view["hexes"][static_cast<std::size_t>(h.hex)];
            for (const char* key : {"q", "r", "label", "perimeter"}) {
              EXPECT_FALSE(sent.contains(key)) << key << " is still in the view";
            }
            json expected = sent;  // the hex as the view has it, with the board's fields added
            expected["q"] = h.coord.q;
            expected["r"] = h.coord.r;
            expected["label"] = h.label;
            expected["perimeter"] = h.perimeter;
            EXPECT_EQ(whole["hexes"][static_cast<std::size_t>(h.hex)], expected);
            ++checked;
          }
          // Everything but the hexes is left as it was.
          json rest = whole;
          rest.erase("hexes");
          json sent_rest = view;
          sent_rest.erase("hexes");
          EXPECT_EQ(rest, sent_rest);
        }
      });
  EXPECT_GT(checked, 1000);
}

TEST(Board, ThatDoesNotFitTheViewIsRefused) {
  Options two;
  GameState small = new_game(two, 1);
  Options six;
  six.players = 6;
  GameState large = new_game(six, 1);
  const json view = view_to_json(view_for(small, 0));
  EXPECT_THROW(view_with_board(view, board_to_json(view_for(large, 0))), protocol::JsonError);
  json broken = board_to_json(view_for(small, 0));
  broken["hexes"].erase(broken["hexes"].size() - 1);
  EXPECT_THROW(view_with_board(view, broken), protocol::JsonError);
}

}  // namespace
}  // namespace viktory
