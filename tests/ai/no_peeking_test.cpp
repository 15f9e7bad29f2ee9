// A computer player never reads hidden state: two games identical in everything a seat can see
// but different in unexplored terrain, in the terrain other players explored (independent
// exploration), in the undrawn tile bank and in the generator get the same decisions from every
// level for the same bot seed, over many positions.
#include <gtest/gtest.h>

#include "games.h"
#include "rng.h"
#include "sight.h"
#include "view.h"
#include "view_compare.h"

namespace viktory {
namespace {

using ai::Level;
using ai_testing::Table;

// The same game with every secret of `seat` replaced: face-down tiles laid on unrevealed hexes,
// other land types on land hexes the seat does not know (water stays water, so the pieces still
// stand where they may), another tile bank and other generator words, and under fog of war
// none of the other players' units outside his sight.
GameState with_other_secrets(const GameState& s, int seat, std::uint64_t salt) {
  // Fog of war: without the other players' units outside his sight, too (engine/sight.h).
  GameState t = seen_world(s, seat);
  Rng r(salt);
  const std::array<Terrain, 4> land{Terrain::kPlains, Terrain::kGrassland, Terrain::kForest,
                                    Terrain::kMountain};
  for (int h = 0; h < t.board().size(); ++h) {
    HexCell& c = t.hexes[static_cast<std::size_t>(h)];
    if (viewer_knows(s, seat, h)) continue;
    if (!c.revealed) {
      c.terrain = r.below(3) == 0 ? Terrain::kWater : land[r.below(4)];  // a face-down tile
    } else if (is_land(c.terrain) && !c.city) {
      c.terrain = land[r.below(4)];  // a City's terrain shows in its units; a Town's does not
    }
  }
  for (int& n : t.tile_bank) n = static_cast<int>(r.below(12));
  t.rng = Rng(r.next());
  return t;
}

Options fog(Options o, int city_sight) {
  o.fog_of_war = true;
  o.fog_city_sight = city_sight;
  return o;
}

TEST(NoPeeking, SameViewSameDecisionForEveryLevel) {
  struct Setting {
    Options options;
    int games;
  };
  const std::vector<Setting> settings{
      {ai_testing::options(2), 3},
      {ai_testing::options(2, VictoryCondition::kStandard, true), 3},
      {ai_testing::options(4, VictoryCondition::kRace, true), 2},
      {fog(ai_testing::options(2), 1), 2},
      {fog(ai_testing::options(3, VictoryCondition::kStandard, true), 2), 2},
  };
  int compared = 0;
  int searched = 0;
  for (const Setting& setting : settings) {
    for (int g = 0; g < setting.games; ++g) {
      std::vector<ai::BotConfig> seats;
      for (int p = 0; p < setting.options.players; ++p) {
        seats.push_back(ai_testing::config(p % 2 ? Level::kRandom : Level::kHeuristic, 10 + p));
      }
      ai_testing::play(setting.options, 40 + static_cast<std::uint64_t>(g), seats, 260,
                       [&](const Table& t, int seat) {
                         if (t.state.action_count % 3 != 0) return true;
                         const GameState other =
                             with_other_secrets(t.state, seat, 7 + t.state.action_count);
                         EXPECT_NE(other.rng, t.state.rng);
                         const GameView view = view_for(t.state, seat);
                         // The secrets differ, the view does not.
                         EXPECT_EQ(ai_testing::view_difference(view_for(other, seat), view), "");
                         const auto legal = legal_actions(t.state, seat);
                         EXPECT_EQ(legal_actions(other, seat), legal);
                         const auto& history = t.history[static_cast<std::size_t>(seat)];
                         for (Level level : {Level::kRandom, Level::kHeuristic, Level::kSearch}) {
                           const auto config = ai_testing::config(level, 1234, 6);
                           ai::DecisionInfo info;
                           const Action a = ai::choose_action(view, legal, history, config, &info);
                           const Action b = ai::choose_action(
                               view_for(other, seat), legal_actions(other, seat), history, config);
                           EXPECT_EQ(a, b) << "level " << ai::to_string(level) << " at action "
                                           << t.state.action_count;
                           searched += info.rollouts > 0;
                           ++compared;
                         }
                         return !::testing::Test::HasFailure();
                       });
    }
  }
  EXPECT_GT(compared, 600);
  EXPECT_GT(searched, 20);  // the search really searched, on sampled secrets of its own
}

}  // namespace
}  // namespace viktory
