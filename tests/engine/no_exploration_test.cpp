// No Exploration [15.2]: the map face up from the start, seating and start corners at random.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "fixture.h"
#include "random_play.h"
#include "view.h"

namespace viktory {
namespace {

Options face_up(int players) {
  Options o;
  o.players = players;
  o.no_exploration = true;
  return o;
}

TEST(NoExploration, R15_2_TheWholeMapIsFaceUpForEveryoneFromTheStart) {
  for (int players = 2; players <= kMaxPlayers; ++players) {
    const GameState s = new_game(face_up(players), 40u + static_cast<unsigned>(players));
    int tiles = 0;
    for (const int n : s.tile_bank) tiles += n;
    EXPECT_EQ(tiles, 0) << "every tile is on the table";
    for (int h = 0; h < s.board().size(); ++h) {
      const HexCell& c = s.hexes[h];
      EXPECT_TRUE(c.revealed) << s.board().label(h);
      EXPECT_NE(c.terrain, Terrain::kNone);
      for (int viewer = kSpectator; viewer < players; ++viewer) {
        EXPECT_EQ(view_for(s, viewer).hexes[h].terrain, c.terrain);
      }
    }
    EXPECT_FALSE(check_invariants(s).has_value());
  }
}

TEST(NoExploration, R15_2_PlayRevealsNothingMore) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    GameState s = new_game(face_up(2 + static_cast<int>(seed)), seed);
    testing::Chooser chooser(seed);
    int reveals = 0;
    const auto stats = testing::play_random_game(
        s, chooser, 400, [&](const GameState&, const Action&, const std::vector<Event>& ev) {
          reveals += testing::count_of(ev, EventKind::kTileRevealed);
        });
    EXPECT_GT(stats.actions, 100);
    EXPECT_EQ(reveals, 0) << "seed " << seed;
  }
}

TEST(NoExploration, R15_2_SeatingAndStartCornersAreDrawnAtRandom) {
  std::set<std::vector<int>> orders;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const GameState s = new_game(face_up(4), seed);
    std::vector<int> sorted = s.turn_order;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, (std::vector<int>{0, 1, 2, 3}));
    orders.insert(s.turn_order);
    // The first player sets up in the start group of his position round the table [3.3].
    const int position = static_cast<int>(
        std::find(s.turn_order.begin(), s.turn_order.end(), s.first_player) - s.turn_order.begin());
    const auto group = s.board().start_groups(4)[static_cast<std::size_t>(position)];
    const bool group_has_land =
        std::any_of(group.begin(), group.end(), [&](int h) { return is_land(s.hexes[h].terrain); });
    if (!group_has_land) continue;
    for (int h : s.capital_choices) {
      EXPECT_NE(std::find(group.begin(), group.end(), h), group.end()) << "seed " << seed;
    }
  }
  EXPECT_GT(orders.size(), 10u);  // 24 seatings are possible
}

TEST(NoExploration, R15_2_PlayPassesRoundTheTableInItsOrder) {
  GameState s = new_game(face_up(5), 7);
  const auto& order = s.turn_order;
  auto next_of = [&](int p) {
    const auto i = std::find(order.begin(), order.end(), p) - order.begin();
    return order[static_cast<std::size_t>((i + 1) % 5)];
  };
  // The setup goes round the table from the first player [4.0 step 5] ...
  std::vector<int> setup_order;
  while (s.phase == Phase::kSetup) {
    setup_order.push_back(s.current);
    ASSERT_TRUE(apply_in_place(s, act::place_capital(s.current, s.capital_choices.front())) ==
                std::nullopt);
  }
  ASSERT_EQ(setup_order.size(), 5u);
  for (std::size_t i = 1; i < setup_order.size(); ++i) {
    EXPECT_EQ(setup_order[i], next_of(setup_order[i - 1]));
  }
  // ... and so do the Player Turns.
  EXPECT_EQ(s.current, setup_order.front());
  for (int turn = 0; turn < 6; ++turn) {
    const int before = s.current;
    while (s.current == before) {
      ASSERT_TRUE(apply_in_place(s, act::end_phase(before)) == std::nullopt);
    }
    EXPECT_EQ(s.current, next_of(before));
  }
}

TEST(NoExploration, R15_2_WithoutTheRuleSeatsPlayInSeatOrder) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    Options o;
    o.players = 6;
    const GameState s = new_game(o, seed);
    EXPECT_EQ(s.turn_order, (std::vector<int>{0, 1, 2, 3, 4, 5}));
  }
}

}  // namespace
}  // namespace viktory
