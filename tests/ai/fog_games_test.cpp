// Computer players finish fog-of-war games (docs/rules-notes.md, "Fog of war"): they decide
// from their own view and events only (tests/ai/no_peeking_test.cpp), their determinization
// samples the units they cannot see (tests/ai/determinize_test.cpp), and still find and beat
// their enemies. Fixed seeds, heuristic and search seats, a bound on the rounds.
#include <gtest/gtest.h>

#include "games.h"

namespace viktory {
namespace {

constexpr int kRoundBound = 120;  // the tournament adjudicates after 120 rounds

TEST(FogGamesAi, ComputerPlayersFinishFogGames) {
  struct Game {
    int players;
    int city_sight;
    std::vector<ai::Level> levels;
  };
  const std::vector<Game> games = {
      {2, 1, {ai::Level::kHeuristic, ai::Level::kHeuristic}},
      {2, 2, {ai::Level::kHeuristic, ai::Level::kSearch}},
      {2, 3, {ai::Level::kSearch, ai::Level::kHeuristic}},
      {3, 2, {ai::Level::kHeuristic, ai::Level::kHeuristic, ai::Level::kHeuristic}},
  };
  int finished = 0;
  for (std::size_t g = 0; g < games.size(); ++g) {
    Options o = ai_testing::options(games[g].players);
    o.fog_of_war = true;
    o.fog_city_sight = games[g].city_sight;
    std::vector<ai::BotConfig> seats;
    for (std::size_t p = 0; p < games[g].levels.size(); ++p) {
      seats.push_back(ai_testing::config(games[g].levels[p], 900 + g * 10 + p, 4));
    }
    const int turn_bound = kRoundBound * games[g].players;
    const auto t = ai_testing::play(
        o, 60 + g, seats, 60000,
        [&](const ai_testing::Table& table, int) { return table.state.turn <= turn_bound; });
    EXPECT_EQ(t.state.phase, Phase::kGameOver)
        << "game " << g << " still running at turn " << t.state.turn;
    if (t.state.phase == Phase::kGameOver) {
      ++finished;
      EXPECT_FALSE(t.state.winners.empty());
    }
  }
  EXPECT_EQ(finished, static_cast<int>(games.size()));
}

}  // namespace
}  // namespace viktory
