// A small, fast strength check (the real measurement is bench/tournament, docs/ai.md): the
// heuristic beats random play in every one of a few games, and so does the search.
#include <gtest/gtest.h>

#include "games.h"

namespace viktory {
namespace {

using ai::Level;

int wins_of(Level strong, Level weak, int games, int iterations) {
  int wins = 0;
  for (int g = 0; g < games; ++g) {
    // Alternate seats so neither level always sits first.
    const int strong_seat = g % 2;
    std::vector<ai::BotConfig> seats(2);
    seats[static_cast<std::size_t>(strong_seat)] = ai_testing::config(strong, 100 + g, iterations);
    seats[static_cast<std::size_t>(1 - strong_seat)] = ai_testing::config(weak, 200 + g);
    const auto t = ai_testing::play(ai_testing::options(2), 300 + g, seats, 20000);
    const auto& w = t.state.winners;
    wins += w.size() == 1 && w.front() == strong_seat;
  }
  return wins;
}

TEST(Strength, HeuristicBeatsRandom) {
  EXPECT_EQ(wins_of(Level::kHeuristic, Level::kRandom, 10, 0), 10);
}

TEST(Strength, SearchBeatsRandom) { EXPECT_EQ(wins_of(Level::kSearch, Level::kRandom, 4, 8), 4); }

}  // namespace
}  // namespace viktory
