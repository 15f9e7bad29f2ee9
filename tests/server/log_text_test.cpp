#include "log_text.h"

#include <gtest/gtest.h>

#include "game.h"
#include "view.h"

namespace viktory::server {
namespace {

bool mentions_terrain(const std::string& line) {
  for (const char* t : {"Water", "Plains", "Grassland", "Forest", "Mountain"}) {
    if (line.find(t) != std::string::npos) return true;
  }
  return false;
}

TEST(LogText, NamesPlayersByColourAndHexesByLabel) {
  GameState s = new_game(Options{}, 99);
  Event moved;
  moved.kind = EventKind::kUnitMoved;
  moved.player = 1;
  moved.from_hex = 0;
  moved.hex = 1;
  moved.unit = -1;
  moved.unit_type = UnitType::kCavalry;
  moved.value = 1;
  const auto lines = log_lines(s, {moved}, 0);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "Yellow's Cavalry moves from " + s.board().label(0) + " to " +
                          s.board().label(1) + " by road.");
}

TEST(LogText, LinesCarryTheHexesTheyName) {
  GameState s = new_game(Options{}, 99);
  Event moved;
  moved.kind = EventKind::kUnitMoved;
  moved.player = 1;
  moved.from_hex = 3;
  moved.hex = 4;
  moved.unit = -1;
  moved.unit_type = UnitType::kInfantry;
  Event conceded;
  conceded.kind = EventKind::kPlayerConceded;
  conceded.player = 0;
  const auto entries = log_entries(s, {moved, conceded}, 0);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].hexes, (std::vector<int>{3, 4}));  // from, to: in the order named
  EXPECT_TRUE(entries[1].hexes.empty());                  // a line naming no hex
  nlohmann::json log = nlohmann::json::array();
  append_log_json(log, 12, s, {moved}, 0);
  EXPECT_EQ(log, nlohmann::json::parse(R"([{"seq":12,"text":")" + entries[0].text +
                                       R"(","hexes":[3,4]}])"));
}

TEST(LogText, TerrainOnlyWhereTheViewerKnowsIt) {
  Options options;
  options.independent_exploration = true;
  GameState s = new_game(options, 5);
  // A hex with terrain one viewer knows and another does not.
  int hex = -1, knower = -1, stranger = -1;
  for (int h = 0; h < static_cast<int>(s.hexes.size()) && hex < 0; ++h) {
    if (s.hexes[h].terrain == Terrain::kNone) continue;
    for (int a = 0; a < 2; ++a) {
      if (viewer_knows(s, a, h) && !viewer_knows(s, 1 - a, h)) {
        hex = h;
        knower = a;
        stranger = 1 - a;
      }
    }
  }
  ASSERT_GE(hex, 0) << "new game without a hex known to one player only";
  Event built;
  built.kind = EventKind::kTownBuilt;
  built.player = knower;
  built.hex = hex;
  EXPECT_TRUE(mentions_terrain(log_lines(s, {built}, knower).at(0)));
  EXPECT_FALSE(mentions_terrain(log_lines(s, {built}, stranger).at(0)));
  Event revealed;
  revealed.kind = EventKind::kTileRevealed;
  revealed.player = knower;
  revealed.hex = hex;  // terrain kNone: as filtered for a viewer who does not know it
  EXPECT_FALSE(mentions_terrain(log_lines(s, {revealed}, stranger).at(0)));
}

TEST(LogText, GameOverNamesTheWinners) {
  GameState s = new_game(Options{}, 1);
  Event over;
  over.kind = EventKind::kGameOver;
  over.dice = {0, 2};
  EXPECT_EQ(log_lines(s, {over}, kSpectator).at(0), "Game over: Red and Blue win.");
}

}  // namespace
}  // namespace viktory::server
