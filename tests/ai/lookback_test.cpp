// Looking back at a finished game (engine/ai/lookback.h): the chances at each turn start, the
// largest drops and what the search would have played there.
#include "lookback.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "game.h"
#include "games.h"
#include "heuristic.h"

namespace viktory {
namespace {

struct FinishedGame {
  GameState start;
  std::vector<Action> actions;
};

// A heuristic game played to its end.
FinishedGame heuristic_game(int players, std::uint64_t seed) {
  const Options options = ai_testing::options(players);
  FinishedGame g{new_game(options, seed), {}};
  GameState s = g.start;
  const ai::HeuristicPlayer player;
  while (s.phase != Phase::kGameOver) {
    const int who = decider(s);
    const Action a = player.choose(s, who, legal_actions(s, who));
    if (apply_in_place(s, a)) throw std::logic_error("refused");
    g.actions.push_back(a);
    if (s.turn > 120 * players) throw std::logic_error("no end");
  }
  return g;
}

ai::LookbackSettings fast_settings(std::uint64_t seed = 7) {
  ai::LookbackSettings s;
  s.seed = seed;
  s.playouts = 6;
  s.search_iterations = 16;
  s.max_decisions = 3;
  return s;
}

int winner_of(const FinishedGame& g) {
  GameState s = g.start;
  for (const Action& a : g.actions) apply_in_place(s, a);
  return s.winners.at(0);
}

TEST(Lookback, ChancesAtEveryTurnStartSumToOne) {
  const FinishedGame g = heuristic_game(2, 2);
  const ai::Lookback lb = ai::look_back(g.start, g.actions, fast_settings());
  ASSERT_TRUE(lb.complete);
  ASSERT_GE(lb.points.size(), 10u);
  EXPECT_EQ(lb.stride, 1);
  int turn = 0;
  for (const ai::LookbackPoint& p : lb.points) {
    ASSERT_EQ(p.chances.size(), 2u);
    double sum = 0;
    for (double c : p.chances) {
      EXPECT_GE(c, 0.0);
      EXPECT_LE(c, 1.0);
      sum += c;
    }
    EXPECT_NEAR(sum, 1.0, 1e-9) << "turn " << p.turn;
    if (!p.final) {
      EXPECT_EQ(p.turn, turn + 1) << "a point at every Player Turn's start";
      turn = p.turn;
    }
  }
  EXPECT_TRUE(lb.points.back().final);
  EXPECT_EQ(lb.points.back().seq, static_cast<int>(g.actions.size()));
}

TEST(Lookback, TheWinnersChanceAtTheLastTurnIsHigh) {
  for (int players : {2, 3}) {
    const FinishedGame g = heuristic_game(players, 2);
    const int winner = winner_of(g);
    ai::LookbackSettings settings = fast_settings();
    settings.drops_per_player = 0;  // the chances alone
    settings.max_points = 40;
    const ai::Lookback lb = ai::look_back(g.start, g.actions, settings);
    ASSERT_GE(lb.points.size(), 2u);
    const ai::LookbackPoint& last_turn = lb.points[lb.points.size() - 2];
    EXPECT_FALSE(last_turn.final);
    EXPECT_GT(last_turn.chances[static_cast<std::size_t>(winner)], 0.8) << players << " players";
    EXPECT_DOUBLE_EQ(lb.points.back().chances[static_cast<std::size_t>(winner)], 1.0);
  }
}

TEST(Lookback, TheSameGameAndSettingsGiveTheSameResult) {
  const FinishedGame g = heuristic_game(2, 2);
  const ai::Lookback a = ai::look_back(g.start, g.actions, fast_settings(7));
  const ai::Lookback b = ai::look_back(g.start, g.actions, fast_settings(7));
  ASSERT_EQ(a.points.size(), b.points.size());
  for (std::size_t i = 0; i < a.points.size(); ++i) {
    EXPECT_EQ(a.points[i].chances, b.points[i].chances);
  }
  ASSERT_EQ(a.drops.size(), b.drops.size());
  for (std::size_t i = 0; i < a.drops.size(); ++i) {
    EXPECT_EQ(a.drops[i].seq, b.drops[i].seq);
    EXPECT_EQ(a.drops[i].suggested, b.drops[i].suggested);
  }
  // The seed is the playouts' own randomness: another seed, other samples.
  const ai::Lookback c = ai::look_back(g.start, g.actions, fast_settings(8));
  bool any_different = false;
  for (std::size_t i = 0; i + 1 < a.points.size(); ++i) {
    any_different = any_different || a.points[i].chances != c.points[i].chances;
  }
  EXPECT_TRUE(any_different);
}

TEST(Lookback, DropsAreTheLargestFallsAndTheSuggestionIsLegalThere) {
  const FinishedGame g = heuristic_game(3, 2);
  ai::LookbackSettings settings = fast_settings();
  settings.search_iterations = 8;
  const ai::Lookback lb = ai::look_back(g.start, g.actions, settings);
  ASSERT_FALSE(lb.drops.empty());
  std::vector<int> per_player(3, 0);
  int searched = 0;
  for (std::size_t i = 0; i < lb.drops.size(); ++i) {
    const ai::LookbackDrop& d = lb.drops[i];
    ++per_player[static_cast<std::size_t>(d.player)];
    EXPECT_GE(d.before - d.after, settings.min_drop);
    EXPECT_LT(d.from_point, d.to_point);
    EXPECT_DOUBLE_EQ(d.before, lb.points[static_cast<std::size_t>(d.from_point)]
                                   .chances[static_cast<std::size_t>(d.player)]);
    if (i > 0 && lb.drops[i - 1].player == d.player) {
      EXPECT_GE(lb.drops[i - 1].before - lb.drops[i - 1].after, d.before - d.after);
    }
    searched += d.decisions_searched;
    if (!d.differs) continue;
    // The state before the decision: the player decides, the suggestion is legal and is not
    // what he played.
    GameState s = g.start;
    for (int k = 0; k + 1 < d.seq; ++k) apply_in_place(s, g.actions[static_cast<std::size_t>(k)]);
    EXPECT_EQ(decider(s), d.player);
    EXPECT_EQ(s.turn, d.turn);
    EXPECT_EQ(g.actions[static_cast<std::size_t>(d.seq - 1)], d.played);
    EXPECT_FALSE(d.suggested == d.played);
    EXPECT_FALSE(check_action(s, d.suggested).has_value());
  }
  for (int n : per_player) EXPECT_LE(n, settings.drops_per_player);
  EXPECT_GT(searched, 0);
}

TEST(Lookback, AGameThatIsNotOverIsRefused) {
  const FinishedGame g = heuristic_game(2, 2);
  std::vector<Action> part(g.actions.begin(), g.actions.begin() + 50);
  EXPECT_THROW(ai::look_back(g.start, part, fast_settings()), std::invalid_argument);
}

TEST(Lookback, ALongGameIsSampledWithAStride) {
  const FinishedGame g = heuristic_game(2, 2);
  ai::LookbackSettings settings = fast_settings();
  settings.max_points = 6;
  settings.drops_per_player = 0;
  const ai::Lookback lb = ai::look_back(g.start, g.actions, settings);
  EXPECT_GT(lb.stride, 1);
  EXPECT_LE(lb.points.size(), 7u);  // and the end
  for (const ai::LookbackPoint& p : lb.points) {
    if (!p.final) {
      EXPECT_EQ((p.turn - 1) % lb.stride, 0);
    }
  }
}

}  // namespace
}  // namespace viktory
