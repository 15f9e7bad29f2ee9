// GamesByEmail's house rules (docs/rules-notes.md, "House rules") in the computer players' hands:
// under Redeployment both the heuristic and the search redeploy idle units in the Reserve phase
// [13.0], every choice legal; under Defending Artillery Pre-fire they fight Battles in which the
// defender's Artillery answers [12.3 step 0].
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <map>

#include "games.h"

namespace viktory {
namespace {

using ai::Level;
using ai_testing::Table;

TEST(HouseRules, TheComputerPlayersRedeployAndFightWithTheDefendersPreFire) {
  std::map<Level, int> redeploys;
  std::map<Level, int> offered;  // decisions with a redeployment on offer
  int defender_pre_fires = 0;
  for (std::uint64_t seed = 0; seed < 8; ++seed) {
    Options o = ai_testing::options(2);
    o.defender_prefire = true;
    o.redeployment = true;
    const std::vector<Level> lineup{Level::kSearch, Level::kHeuristic};
    std::vector<ai::BotConfig> seats{ai_testing::config(lineup[0], 5 + seed, 3),
                                     ai_testing::config(lineup[1], 6 + seed, 3)};
    std::vector<Action> legal;
    ai_testing::play(
        o, 4200 + seed, seats, 1200,
        [&](const Table& t, int seat) {
          legal = legal_actions(t.state, seat);
          for (const Action& a : legal) {
            if (a.kind == ActionKind::kRedeploy) {
              ++offered[lineup[static_cast<std::size_t>(seat)]];
              break;
            }
          }
          // The defender's dice at a pre-fire stage are his pre-battle answer (house rule).
          const auto& b = t.state.battle;
          if (b && !b->defender_dice.empty() &&
              (b->stage == BattleStage::kAssignPreFire ||
               b->stage == BattleStage::kAssignDefenderPreFire)) {
            ++defender_pre_fires;
          }
          return true;
        },
        [&](const Table&, int seat, const Action& a) {
          EXPECT_NE(std::find(legal.begin(), legal.end(), a), legal.end());
          if (a.kind == ActionKind::kRedeploy) ++redeploys[lineup[static_cast<std::size_t>(seat)]];
        });
  }
  EXPECT_GT(redeploys[Level::kHeuristic], 0) << offered[Level::kHeuristic];
  std::cout << "[ redeploy ] heuristic " << redeploys[Level::kHeuristic] << "/"
            << offered[Level::kHeuristic] << ", search " << redeploys[Level::kSearch] << "/"
            << offered[Level::kSearch] << "\n";
  EXPECT_GT(redeploys[Level::kSearch], 0) << offered[Level::kSearch];
  EXPECT_GT(defender_pre_fires, 0);
}

}  // namespace
}  // namespace viktory
