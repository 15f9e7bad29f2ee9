// Board size as a game option and 7 or 8 players [3.2, 3.3] (docs/rules-notes.md, "Board
// sizes"): every player count on every board it may choose; start areas, tile bank, setup
// and play.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "game.h"
#include "random_play.h"
#include "tiles.h"
#include "view.h"

namespace viktory {
namespace {

constexpr int kBoardSizes[] = {61, 91, 127, 169, 217};

// The pairs a game may choose: 2..6 players on every size, 7 and 8 on 169 and 217.
std::vector<std::pair<int, int>> allowed_pairs() {
  std::vector<std::pair<int, int>> out;
  for (int players = 2; players <= kMaxPlayers; ++players) {
    for (int hexes : kBoardSizes) {
      if (players <= 6 || hexes >= 169) out.emplace_back(players, hexes);
    }
  }
  return out;
}

std::string name(int players, int hexes) {
  return std::to_string(players) + " players on " + std::to_string(hexes) + " hexes";
}

int interior_count(const Board& b) {
  int n = 0;
  for (int h = 0; h < b.size(); ++h) n += b.is_perimeter(h) ? 0 : 1;
  return n;
}

Axial rotate60(Axial a) { return {-a.r, a.q + a.r}; }

std::set<int> rotated(const Board& b, const std::array<int, 3>& group, int sixths) {
  std::set<int> out;
  for (int h : group) {
    Axial a = b.coord(h);
    for (int i = 0; i < sixths; ++i) a = rotate60(a);
    out.insert(b.index_of(a));
  }
  return out;
}

// Position of a hex on the ring just inside the perimeter, counted from the south-west corner
// in the direction the start groups are laid out (east first), 0..6(R-1)-1; -1 if elsewhere.
int ring_position(const Board& b, int hex) {
  const int k = b.radius() - 1;
  const Axial steps[6] = {{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}};
  Axial cur{-k, k};
  int pos = 0;
  for (const Axial& d : steps) {
    for (int i = 0; i < k; ++i, ++pos) {
      if (b.index_of(cur) == hex) return pos;
      cur = {cur.q + d.q, cur.r + d.r};
    }
  }
  return -1;
}

TEST(BoardSizes, R3_2_TheOptionChoosesTheBoardAndZeroIsTheRulesSize) {
  for (int players = 2; players <= kMaxPlayers; ++players) {
    Options o;
    o.players = players;
    const GameState rules_size = new_game(o, 3);
    EXPECT_EQ(rules_size.radius, board_radius_for_players(players)) << players;
    for (int hexes : kBoardSizes) {
      o.board_hexes = hexes;
      if (players > 6 && hexes < 169) {
        EXPECT_TRUE(options_problem(o).has_value()) << name(players, hexes);
        EXPECT_THROW(new_game(o, 3), std::invalid_argument);
        continue;
      }
      const GameState s = new_game(o, 3);
      EXPECT_EQ(static_cast<int>(s.hexes.size()), hexes) << name(players, hexes);
      EXPECT_EQ(s.board().size(), hexes);
      EXPECT_EQ(board_hexes_for_radius(s.radius), hexes);
    }
  }
  // 7 and 8 players: one ring past the rules' largest board (217 hexes).
  EXPECT_EQ(board_hexes_for_radius(board_radius_for_players(7)), 217);
  EXPECT_EQ(board_hexes_for_radius(board_radius_for_players(8)), 217);
}

TEST(BoardSizes, R3_2_OtherSizesAndPlayerCountsAreRefused) {
  for (int hexes : {1, 7, 19, 37, 60, 62, 100, 271, -61}) {
    Options o;
    o.board_hexes = hexes;
    const auto problem = options_problem(o);
    ASSERT_TRUE(problem.has_value()) << hexes;
    EXPECT_NE(problem->find("61, 91, 127, 169 or 217"), std::string::npos) << *problem;
  }
  Options nine;
  nine.players = 9;
  EXPECT_TRUE(options_problem(nine).has_value());
  Options one;
  one.players = 1;
  EXPECT_TRUE(options_problem(one).has_value());
}

TEST(BoardSizes, R3_3_StartGroupsAreDistinctAdjacentTriplesOnTheRim) {
  for (const auto& [players, hexes] : allowed_pairs()) {
    SCOPED_TRACE(name(players, hexes));
    const Board& b = Board::for_radius(board_radius_for(players, hexes));
    const auto groups = b.start_groups(players);
    ASSERT_EQ(static_cast<int>(groups.size()), players);
    std::set<int> used;
    for (const auto& g : groups) {
      bool touches_perimeter = false;
      for (int i = 0; i < 3; ++i) {
        ASSERT_NE(g[i], Board::kNoHex);
        EXPECT_FALSE(b.is_perimeter(g[i]));
        EXPECT_TRUE(used.insert(g[i]).second) << "groups overlap at " << b.label(g[i]);
        for (int j = i + 1; j < 3; ++j) EXPECT_EQ(b.distance(g[i], g[j]), 1);
        for (int n : b.neighbors(g[i])) {
          touches_perimeter = touches_perimeter || (n != Board::kNoHex && b.is_perimeter(n));
        }
      }
      EXPECT_TRUE(touches_perimeter);
    }
    // At least one hex between any two groups.
    for (std::size_t a = 0; a < groups.size(); ++a) {
      for (std::size_t c = a + 1; c < groups.size(); ++c) {
        for (int x : groups[a]) {
          for (int y : groups[c]) EXPECT_GE(b.distance(x, y), 2);
        }
      }
    }
  }
}

// As documented: 2, 3 and 6 players rotationally symmetric by 360/n degrees (every group in a
// corner), 4 and 8 players point-symmetric, on every board size.
TEST(BoardSizes, R3_3_StartGroupsAreSymmetricAsDocumented) {
  for (const auto& [players, hexes] : allowed_pairs()) {
    int sixths = 0;
    if (players == 2 || players == 4 || players == 8) sixths = 3;
    if (players == 3) sixths = 2;
    if (players == 6) sixths = 1;
    if (sixths == 0) continue;  // 5 and 7: spacing, next test
    SCOPED_TRACE(name(players, hexes));
    const Board& b = Board::for_radius(board_radius_for(players, hexes));
    const auto groups = b.start_groups(players);
    std::set<std::set<int>> as_sets;
    for (const auto& g : groups) as_sets.insert(std::set<int>(g.begin(), g.end()));
    for (const auto& g : groups) {
      EXPECT_EQ(as_sets.count(rotated(b, g, sixths)), 1u)
          << "a group rotated by " << 60 * sixths << " degrees is no group";
    }
    if (players <= 3 || players == 6) {
      for (const auto& g : groups) EXPECT_EQ(ring_position(b, g[0]) % (b.radius() - 1), 0);
    }
  }
}

// Every player count: consecutive groups are floor(L/n) or ceil(L/n) apart along the ring of
// L = 6(R-1) hexes just inside the perimeter, the most even spacing the ring allows (5 and 7
// players cannot be symmetric on a six-sided ring of every size).
TEST(BoardSizes, R3_3_StartGroupsAreSpacedAsEvenlyAsTheRingAllows) {
  for (const auto& [players, hexes] : allowed_pairs()) {
    SCOPED_TRACE(name(players, hexes));
    const Board& b = Board::for_radius(board_radius_for(players, hexes));
    const int len = 6 * (b.radius() - 1);
    std::vector<int> positions;
    for (const auto& g : b.start_groups(players)) {
      positions.push_back(ring_position(b, g[0]));
      EXPECT_EQ(ring_position(b, g[1]), (positions.back() + 1) % len);
    }
    ASSERT_TRUE(std::is_sorted(positions.begin(), positions.end()));
    for (int i = 0; i < players; ++i) {
      const int next = i + 1 < players ? positions[i + 1] : positions[0] + len;
      const int gap = next - positions[i];
      EXPECT_GE(gap, len / players);
      EXPECT_LE(gap, (len + players - 1) / players);
    }
  }
}

TEST(BoardSizes, R3_2_TheTileBankFillsTheInteriorExactly) {
  for (TileMix mix : {TileMix::kStandard, TileMix::kLandRich, TileMix::kIslands}) {
    for (const auto& [players, hexes] : allowed_pairs()) {
      SCOPED_TRACE(name(players, hexes) + " mix " + std::string(to_string(mix)));
      const Board& b = Board::for_radius(board_radius_for(players, hexes));
      const auto bank = tile_bank_for(mix, interior_count(b));
      EXPECT_EQ(std::accumulate(bank.begin(), bank.end(), 0), interior_count(b));
      // The bank keeps the mix's shares on every board: each count within one tile of them.
      const auto pct = tile_mix_percentages(mix);
      for (int k = 0; k < kTerrainKinds; ++k) {
        EXPECT_GT(bank[k], 0);
        EXPECT_LE(std::abs(bank[k] * 100 - pct[k] * interior_count(b)), 100);
      }
      // [15.2] lays the whole map face up: every interior hex gets a tile and the bank is
      // then empty, so it held exactly the interior's tiles, by terrain too.
      Options o;
      o.players = players;
      o.board_hexes = hexes;
      o.tile_mix = mix;
      o.no_exploration = true;
      const GameState s = new_game(o, 5);
      std::array<int, kTerrainKinds> laid{};
      for (int h = 0; h < b.size(); ++h) {
        if (b.is_perimeter(h)) continue;
        ASSERT_NE(s.hexes[h].terrain, Terrain::kNone) << b.label(h);
        ++laid[bank_slot_of(s.hexes[h].terrain)];
      }
      EXPECT_EQ(laid, bank);
      EXPECT_EQ(std::accumulate(s.tile_bank.begin(), s.tile_bank.end(), 0), 0);
    }
  }
}

// [4.0] Every player places his Capital in his own start area, then play goes on with the
// invariants holding after every action.
TEST(BoardSizes, R4_0_AGameIsSetUpAndPlayedOnEveryBoard) {
  for (const auto& [players, hexes] : allowed_pairs()) {
    SCOPED_TRACE(name(players, hexes));
    Options o;
    o.players = players;
    o.board_hexes = hexes;
    GameState s = new_game(o, 100 + static_cast<std::uint64_t>(players * hexes));
    testing::Chooser chooser(static_cast<std::uint64_t>(players * 1000 + hexes));
    std::string broken;
    testing::play_random_game(s, chooser, 600,
                              [&](const GameState& st, const Action&, const std::vector<Event>&) {
                                if (broken.empty()) broken = check_invariants(st).value_or("");
                              });
    EXPECT_EQ(broken, "");
    EXPECT_GE(s.turn, 1) << "setup did not finish";
    const Board& b = s.board();
    const auto groups = b.start_groups(players);
    for (int p = 0; p < players; ++p) {
      const int capital = s.players[p].capital_hex;
      if (capital < 0) {
        EXPECT_TRUE(s.players[p].conceded) << "player " << p << " has no Capital";
        continue;
      }
      // Within his start group or the ring grown round it (when the group had no land).
      const auto& g = groups[static_cast<std::size_t>(p)];  // seat order without [15.2]
      int nearest = 99;
      for (int h : g) nearest = std::min(nearest, b.distance(h, capital));
      EXPECT_LE(nearest, 2) << "player " << p << " built his Capital at " << b.label(capital);
    }
  }
}

TEST(BoardSizes, R3_2_EightPlayersHaveTheirOwnKnowledgeBits) {
  // Independent exploration keeps a bit per player in 8 bits: the eighth player's knowledge
  // is his alone.
  Options o;
  o.players = 8;
  o.independent_exploration = true;
  const GameState s = new_game(o, 9);
  const int first = s.current;
  const auto group = s.board().start_groups(8)[static_cast<std::size_t>(first)];
  for (int viewer = 0; viewer < 8; ++viewer) {
    const GameView v = view_for(s, viewer);
    EXPECT_EQ(v.hexes[group[0]].known, viewer == first) << "viewer " << viewer;
  }
}

}  // namespace
}  // namespace viktory
