// The Analysis reads knowledge from the state itself, faster than asking view_for's test per hex;
// both must agree for every hex and player, with and without independent exploration.
#include "analysis.h"

#include <gtest/gtest.h>

#include "games.h"
#include "view.h"

namespace viktory {
namespace {

TEST(Analysis, KnowledgeAgreesWithTheViews) {
  int checked = 0;
  for (bool independent : {false, true}) {
    const Options o = ai_testing::options(3, VictoryCondition::kStandard, independent);
    std::vector<ai::BotConfig> seats{ai_testing::config(ai::Level::kHeuristic, 1),
                                     ai_testing::config(ai::Level::kRandom, 2),
                                     ai_testing::config(ai::Level::kHeuristic, 3)};
    ai_testing::play(o, 17, seats, 400, [&](const ai_testing::Table& t, int seat) {
      const ai::Analysis a(t.state, seat);
      for (int h = 0; h < t.state.board().size(); ++h) {
        for (int p = 0; p < o.players; ++p) {
          EXPECT_EQ(a.knows(h, p), viewer_knows(t.state, p, h));
          ++checked;
        }
      }
      return !::testing::Test::HasFailure();
    });
  }
  EXPECT_GT(checked, 100000);
}

}  // namespace
}  // namespace viktory
