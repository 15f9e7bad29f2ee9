// The entry point: every level makes every decision the rules give a seat (also out of turn:
// casualties [10.1], retreats [12.3], eliminations [10.2]), always legal, never conceding;
// results are reproducible, threads do not interfere, a search can be cancelled, and bad calls
// are refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <thread>

#include "games.h"
#include "view.h"

namespace viktory {
namespace {

using ai::Level;
using ai_testing::Table;

bool contains(const std::vector<Action>& legal, const Action& a) {
  return std::find(legal.begin(), legal.end(), a) != legal.end();
}

TEST(Bot, EveryLevelMakesEveryKindOfDecisionLegally) {
  // kind of action -> how often each level chose it, and how often out of turn.
  std::map<Level, std::map<ActionKind, int>> chosen;
  std::map<Level, int> out_of_turn;
  const std::vector<std::vector<Level>> lineups{
      {Level::kSearch, Level::kHeuristic},
      {Level::kHeuristic, Level::kRandom},
      {Level::kSearch, Level::kRandom, Level::kHeuristic},
  };
  const std::vector<VictoryCondition> victories{VictoryCondition::kStandard,
                                                VictoryCondition::kShorter, VictoryCondition::kRace,
                                                VictoryCondition::kDoomsday};
  int games = 0;
  for (std::size_t l = 0; l < lineups.size(); ++l) {
    for (std::size_t v = 0; v < victories.size(); ++v) {
      const auto& lineup = lineups[l];
      const Options o = ai_testing::options(static_cast<int>(lineup.size()), victories[v]);
      std::vector<ai::BotConfig> seats;
      for (std::size_t p = 0; p < lineup.size(); ++p) {
        seats.push_back(ai_testing::config(lineup[p], 3 + p, 3));
      }
      std::vector<Action> legal;
      int current = kNoPlayer;  // whose turn it was when the seat was asked
      ai_testing::play(
          o, 900 + 10 * l + v, seats, 900,
          [&](const Table& t, int seat) {
            legal = legal_actions(t.state, seat);
            current = t.state.current;
            return true;
          },
          [&](const Table&, int seat, const Action& a) {
            EXPECT_TRUE(contains(legal, a));
            EXPECT_NE(a.kind, ActionKind::kConcede);
            const Level level = lineup[static_cast<std::size_t>(seat)];
            ++chosen[level][a.kind];
            out_of_turn[level] += seat != current;
          });
      ++games;
    }
  }
  EXPECT_EQ(games, 12);
  for (Level level : {Level::kRandom, Level::kHeuristic, Level::kSearch}) {
    SCOPED_TRACE(std::string(ai::to_string(level)));
    auto& kinds = chosen[level];
    for (ActionKind k : {ActionKind::kPlaceCapital, ActionKind::kBuildTown, ActionKind::kEndPhase,
                         ActionKind::kMove, ActionKind::kStartBattle, ActionKind::kPlaceReserve,
                         ActionKind::kChooseCasualty}) {
      EXPECT_GT(kinds[k], 0) << to_string(k);
    }
    EXPECT_GT(out_of_turn[level], 0);
  }
  // Retreat decisions and eliminations are rarer; over all levels they must have come up.
  int retreat_decisions = 0, eliminations = 0, upgrades = 0;
  for (auto& [level, kinds] : chosen) {
    retreat_decisions += kinds[ActionKind::kContinueBattle] + kinds[ActionKind::kRetreat];
    eliminations += kinds[ActionKind::kEliminateUnit];
    upgrades += kinds[ActionKind::kUpgradeCity];
  }
  EXPECT_GT(retreat_decisions, 0);
  EXPECT_GT(eliminations, 0);
  EXPECT_GT(upgrades, 0);
}

// 7 and 8 players on the 217-hex board (docs/rules-notes.md, "Board sizes and 7-8 players"):
// the search and the heuristic make every decision legally, past the setup of all eight
// Capitals and into the fighting; and on a chosen board size of a 2-player game.
TEST(Bot, R3_2_EightPlayersOnTheBigBoardAndTwoOnTheLargestRulesBoard) {
  for (const auto& [players, hexes] :
       std::vector<std::pair<int, int>>{{8, 0}, {7, 169}, {2, 217}}) {
    SCOPED_TRACE(std::to_string(players) + " players, board " + std::to_string(hexes));
    Options o = ai_testing::options(players);
    o.board_hexes = hexes;
    std::vector<ai::BotConfig> seats;
    for (int p = 0; p < players; ++p) {
      seats.push_back(
          ai_testing::config(p % 2 == 0 ? Level::kSearch : Level::kHeuristic, 40 + p, 4));
    }
    std::vector<Action> legal;
    std::map<ActionKind, int> chosen;
    const Table end = ai_testing::play(
        o, 77 + players, seats, 600,
        [&](const Table& t, int seat) {
          legal = legal_actions(t.state, seat);
          return true;
        },
        [&](const Table&, int, const Action& a) {
          EXPECT_TRUE(contains(legal, a));
          EXPECT_NE(a.kind, ActionKind::kConcede);
          ++chosen[a.kind];
        });
    EXPECT_EQ(board_hexes_for_radius(end.state.radius), hexes != 0 ? hexes : 217);
    EXPECT_EQ(chosen[ActionKind::kPlaceCapital], players);
    EXPECT_GT(chosen[ActionKind::kBuildTown], 0);
    EXPECT_GT(chosen[ActionKind::kMove], 0);
    EXPECT_GT(end.state.turn, 2 * players);
  }
}

// A position in the middle of a game, with a real choice to make.
struct Spot {
  GameView view;
  std::vector<Action> legal;
  ai::PublicHistory history;
};

Spot mid_game_spot(std::uint64_t seed) {
  std::vector<ai::BotConfig> seats{ai_testing::config(Level::kHeuristic, 1),
                                   ai_testing::config(Level::kHeuristic, 2)};
  Spot spot;
  ai_testing::play(ai_testing::options(2), seed, seats, 2000, [&](const Table& t, int seat) {
    const auto legal = legal_actions(t.state, seat);
    if (t.state.turn < 12 || t.state.phase != Phase::kMovement || legal.size() < 8) return true;
    spot = {view_for(t.state, seat), legal, t.history[static_cast<std::size_t>(seat)]};
    return false;
  });
  return spot;
}

TEST(Bot, SearchIsReproducibleWithAnIterationBudget) {
  const Spot spot = mid_game_spot(21);
  ASSERT_FALSE(spot.legal.empty());
  for (std::uint64_t seed : {1, 2, 3}) {
    const auto config = ai_testing::config(Level::kSearch, seed, 24);
    ai::DecisionInfo first, second;
    const Action a = ai::choose_action(spot.view, spot.legal, spot.history, config, &first);
    const Action b = ai::choose_action(spot.view, spot.legal, spot.history, config, &second);
    EXPECT_EQ(a, b);
    EXPECT_EQ(first.rollouts, second.rollouts);
    EXPECT_LE(first.rollouts, 24);
  }
}

TEST(Bot, ConcurrentCallsGiveTheSameResultsAsSequentialOnes) {
  std::vector<Spot> spots{mid_game_spot(31), mid_game_spot(32), mid_game_spot(33),
                          mid_game_spot(34)};
  const auto config = ai_testing::config(Level::kSearch, 5, 16);
  std::vector<Action> sequential;
  for (const Spot& s : spots)
    sequential.push_back(ai::choose_action(s.view, s.legal, s.history, config));
  std::vector<Action> parallel(spots.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < spots.size(); ++i) {
    threads.emplace_back([&, i] {
      parallel[i] = ai::choose_action(spots[i].view, spots[i].legal, spots[i].history, config);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(parallel, sequential);
}

TEST(Bot, ACancelledSearchReturnsALegalActionAtOnce) {
  const Spot spot = mid_game_spot(41);
  std::atomic<bool> cancel{true};
  auto config = ai_testing::config(Level::kSearch, 1, 1'000'000'000);
  config.cancel = &cancel;
  ai::DecisionInfo info;
  const Action a = ai::choose_action(spot.view, spot.legal, spot.history, config, &info);
  EXPECT_TRUE(contains(spot.legal, a));
  EXPECT_LE(info.rollouts, 1);
}

TEST(Bot, ASearchCancelledFromAnotherThreadStops) {
  // Without the cancel this search would run for days.
  const Spot spot = mid_game_spot(42);
  std::atomic<bool> cancel{false};
  auto config = ai_testing::config(Level::kSearch, 1, 1'000'000'000);
  config.cancel = &cancel;
  ai::DecisionInfo info;
  Action a;
  std::thread search(
      [&] { a = ai::choose_action(spot.view, spot.legal, spot.history, config, &info); });
  cancel = true;
  search.join();
  EXPECT_TRUE(contains(spot.legal, a));
  EXPECT_LT(info.rollouts, 1'000'000'000);
}

TEST(Bot, ATimeBudgetAloneBoundsTheSearch) {
  const Spot spot = mid_game_spot(43);
  ai::BotConfig config;
  config.level = Level::kSearch;
  config.iterations = 0;  // only the clock stops it
  config.time_budget = std::chrono::milliseconds(20);
  ai::DecisionInfo info;
  const Action a = ai::choose_action(spot.view, spot.legal, spot.history, config, &info);
  EXPECT_TRUE(contains(spot.legal, a));
}

TEST(Bot, ActionKindsItDoesNotKnowArePlayable) {
  // The rules branch adds action kinds; a computer player must still be able to act.
  const Spot spot = mid_game_spot(44);
  Action unknown = act::end_phase(spot.view.viewer);
  unknown.kind = static_cast<ActionKind>(200);
  for (Level level : {Level::kRandom, Level::kHeuristic, Level::kSearch}) {
    const auto config = ai_testing::config(level, 9, 8);
    const std::vector<Action> only{unknown, act::concede(spot.view.viewer)};
    EXPECT_EQ(ai::choose_action(spot.view, only, spot.history, config), unknown);
    std::vector<Action> mixed = spot.legal;
    mixed.insert(mixed.begin() + 1, unknown);
    const Action a = ai::choose_action(spot.view, mixed, spot.history, config);
    EXPECT_TRUE(contains(mixed, a));
    EXPECT_NE(a.kind, ActionKind::kConcede);
  }
}

TEST(Bot, ConcedesOnlyWhenNothingElseIsLegal) {
  const Spot spot = mid_game_spot(45);
  const std::vector<Action> only{act::concede(spot.view.viewer)};
  for (Level level : {Level::kRandom, Level::kHeuristic, Level::kSearch}) {
    EXPECT_EQ(ai::choose_action(spot.view, only, spot.history, ai_testing::config(level, 1)).kind,
              ActionKind::kConcede);
  }
}

TEST(Bot, RefusesBadCalls) {
  const Spot spot = mid_game_spot(46);
  const auto config = ai_testing::config(Level::kHeuristic, 1);
  EXPECT_THROW(ai::choose_action(spot.view, {}, spot.history, config), std::invalid_argument);
  GameView spectator = spot.view;
  spectator.viewer = kSpectator;
  EXPECT_THROW(ai::choose_action(spectator, spot.legal, spot.history, config),
               std::invalid_argument);
}

// The guided first game's opponent (server/games/tutorial.h): predictable for its script. It ends
// every phase it may end and otherwise takes the first playable action, never conceding.
TEST(Bot, ThePassiveLevelEndsItsPhasesAndElseTakesTheFirstAction) {
  const Spot spot = mid_game_spot(47);
  const auto config = ai_testing::config(Level::kPassive, 1);
  const int me = spot.view.viewer;
  std::vector<Action> with_end{act::concede(me), act::end_phase(me)};
  with_end.insert(with_end.begin() + 1, spot.legal.begin(), spot.legal.end());
  EXPECT_EQ(ai::choose_action(spot.view, with_end, spot.history, config).kind,
            ActionKind::kEndPhase);
  std::vector<Action> without_end{act::concede(me)};
  for (const Action& a : spot.legal) {
    if (a.kind != ActionKind::kEndPhase && a.kind != ActionKind::kConcede) {
      without_end.push_back(a);
    }
  }
  if (without_end.size() > 1) {
    EXPECT_EQ(ai::choose_action(spot.view, without_end, spot.history, config), without_end[1]);
  }
}

TEST(Bot, LevelNames) {
  for (Level l : {Level::kRandom, Level::kHeuristic, Level::kSearch, Level::kPassive}) {
    EXPECT_EQ(ai::level_from_string(ai::to_string(l)), l);
  }
  EXPECT_FALSE(ai::level_from_string("grandmaster").has_value());
}

}  // namespace
}  // namespace viktory
