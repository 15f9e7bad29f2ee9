// Stand-offs: heuristic computers that wait for good odds used to fortify until nobody could
// attack (a third of the three- and four-player games reached the tournament's turn limit).
// The stalemate pressure (heuristic.h) makes them bolder as rounds go by. These games on fixed
// seeds all stalled before it; now each must end by a victory condition within a bound of
// rounds. Deterministic: every seat is a heuristic player with a fixed seed, no clock.
#include <gtest/gtest.h>

#include "games.h"
#include "heuristic.h"

namespace viktory {
namespace {

constexpr int kRoundBound = 80;  // the tournament adjudicates after 120 rounds

ai_testing::Table heuristic_game(int players, std::uint64_t game_seed) {
  std::vector<ai::BotConfig> seats;
  for (int p = 0; p < players; ++p) {
    seats.push_back(ai_testing::config(ai::Level::kHeuristic,
                                       game_seed * 1000003ULL + static_cast<std::uint64_t>(p)));
  }
  const int turn_bound = kRoundBound * players;
  return ai_testing::play(
      ai_testing::options(players), game_seed, seats, 50000,
      [&](const ai_testing::Table& t, int) { return t.state.turn <= turn_bound; });
}

void expect_victory(int players, std::uint64_t game_seed) {
  const auto t = heuristic_game(players, game_seed);
  EXPECT_EQ(t.state.phase, Phase::kGameOver)
      << players << " players, seed " << game_seed << ": still running at turn " << t.state.turn;
  EXPECT_FALSE(t.state.winners.empty());
  EXPECT_LE(t.state.turn, kRoundBound * players);
}

TEST(Stalemate, ThreeHeuristicComputersEndByVictoryWithinABound) {
  for (std::uint64_t seed : {3, 4, 5}) expect_victory(3, seed);
}

TEST(Stalemate, FourHeuristicComputersEndByVictoryWithinABound) {
  for (std::uint64_t seed : {2, 4, 5}) expect_victory(4, seed);
}

TEST(Stalemate, PressureGrowsWithRoundsAndMakesThePlayerBolder) {
  const ai::HeuristicParams base;
  GameState s = new_game(ai_testing::options(3), 1);
  s.turn = 1;
  EXPECT_EQ(ai::stalemate_pressure(base, s), 0.0);
  s.turn = base.pressure_from_round * 3;  // still in round pressure_from_round - 1
  EXPECT_EQ(ai::stalemate_pressure(base, s), 0.0);
  s.turn = (base.pressure_from_round + base.pressure_full_round) / 2 * 3 + 1;
  const double half = ai::stalemate_pressure(base, s);
  EXPECT_GT(half, 0.0);
  EXPECT_LT(half, 1.0);
  s.turn = base.pressure_full_round * 3 + 1;
  EXPECT_EQ(ai::stalemate_pressure(base, s), 1.0);
  s.turn = 1000 * 3;
  EXPECT_EQ(ai::stalemate_pressure(base, s), 1.0);

  EXPECT_EQ(ai::under_pressure(base, 0).attack_threshold, base.attack_threshold);
  const ai::HeuristicParams bold = ai::under_pressure(base, 1);
  EXPECT_LT(bold.attack_threshold, base.attack_threshold);
  EXPECT_LT(bold.capital_attack_threshold, base.capital_attack_threshold);
  EXPECT_GT(bold.defend_risk, base.defend_risk);
  EXPECT_GT(bold.capital_defend_risk, base.capital_defend_risk);
  EXPECT_LT(bold.danger_weight, base.danger_weight);
  EXPECT_LT(bold.trade_margin, base.trade_margin);
  // A temperament bolder than the pressure already is not made more careful.
  ai::HeuristicParams reckless;
  reckless.attack_threshold = 0.2;
  EXPECT_EQ(ai::under_pressure(reckless, 1).attack_threshold, 0.2);
}

}  // namespace
}  // namespace viktory
