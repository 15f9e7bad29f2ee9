// Determinization: a GameState rebuilt from one seat's view and history must look to that seat
// exactly like the real game (same view, same legal actions, consistent economy), while
// everything hidden is sampled afresh.
#include "determinize.h"

#include <gtest/gtest.h>

#include <numeric>

#include "games.h"
#include "tiles.h"
#include "view.h"
#include "view_compare.h"

namespace viktory {
namespace {

using ai::Level;
using ai_testing::Table;

struct Setting {
  Options options;
  std::vector<Level> levels;
};

// Every optional rule [15.1-15.6] and several victory conditions at once [5.0]: their public
// state (seating, alliances, pending choices) must survive the determinization too.
Options with_optional_rules(Options o) {
  o.victory.add(VictoryCondition::kSubjugation);
  o.terrain_leveling = o.exploration_balancing = o.luck_averaging = o.town_relocation =
      o.subjugation = true;
  return o;
}

std::vector<Setting> settings() {
  using ai_testing::options;
  return {
      {options(2), {Level::kHeuristic, Level::kRandom}},
      {options(2, VictoryCondition::kDoomsday), {Level::kHeuristic, Level::kHeuristic}},
      {options(4, VictoryCondition::kStandard, false, TileMix::kIslands),
       {Level::kHeuristic, Level::kRandom, Level::kHeuristic, Level::kRandom}},
      {options(2, VictoryCondition::kStandard, true), {Level::kHeuristic, Level::kRandom}},
      {options(3, VictoryCondition::kShorter, true, TileMix::kLandRich),
       {Level::kRandom, Level::kHeuristic, Level::kHeuristic}},
      {with_optional_rules(options(3, VictoryCondition::kRace)),
       {Level::kHeuristic, Level::kRandom, Level::kRandom}},
  };
}

// Plays each setting for a few games and calls `check` for every seat at every decision.
template <typename Check>
int for_each_seat_position(int games, int max_actions, Check check) {
  int positions = 0;
  for (const Setting& setting : settings()) {
    for (int g = 0; g < games; ++g) {
      std::vector<ai::BotConfig> seats;
      for (std::size_t i = 0; i < setting.levels.size(); ++i) {
        seats.push_back(ai_testing::config(setting.levels[i], 77 + i));
      }
      ai_testing::play(setting.options, 500 + static_cast<std::uint64_t>(g), seats, max_actions,
                       [&](const Table& t, int) {
                         for (int p = 0; p < setting.options.players; ++p) {
                           if (!t.state.players[static_cast<std::size_t>(p)].in_game()) continue;
                           check(t, p);
                           ++positions;
                         }
                         return !::testing::Test::HasFailure();
                       });
    }
  }
  return positions;
}

TEST(Determinize, EachSeatSeesTheSameGameAndMayDoTheSame) {
  const int positions = for_each_seat_position(3, 500, [](const Table& t, int p) {
    const GameView real = view_for(t.state, p);
    const GameState det = ai::determinize(real, t.history[static_cast<std::size_t>(p)], 99);
    const std::string diff = ai_testing::view_difference(view_for(det, p), real);
    ASSERT_EQ(diff, "") << "seat " << p << " at action " << t.state.action_count;
    ASSERT_EQ(legal_actions(det, p), legal_actions(t.state, p))
        << "seat " << p << " at action " << t.state.action_count;
    const auto broken = check_invariants(det);
    ASSERT_FALSE(broken.has_value()) << *broken << " at action " << t.state.action_count;
    ASSERT_EQ(decider(det), decider(t.state));
  });
  EXPECT_GT(positions, 5000);
}

TEST(Determinize, TheRealNextActionWorksTheSame) {
  // The decider's determinization accepts the action the real game takes next, and the public
  // outcome of a deterministic action (no reveal, no dice) is the same.
  int compared = 0;
  for_each_seat_position(2, 400, [&](const Table& t, int p) {
    if (p != decider(t.state)) return;
    const auto legal = legal_actions(t.state, p);
    for (const Action& a : legal) {
      if (a.kind == ActionKind::kConcede) continue;
      GameState det =
          ai::determinize(view_for(t.state, p), t.history[static_cast<std::size_t>(p)], 5);
      GameState real = t.state;
      std::vector<Event> det_events, real_events;
      ASSERT_FALSE(apply_in_place(det, a, &det_events).has_value());
      ASSERT_FALSE(apply_in_place(real, a, &real_events).has_value());
      if (seals_turn(real_events)) continue;  // hidden terrain or dice came out
      ASSERT_EQ(ai_testing::view_difference(view_for(det, p), view_for(real, p)), "")
          << to_string(a.kind) << " at action " << t.state.action_count;
      ++compared;
    }
  });
  EXPECT_GT(compared, 2000);
}

TEST(Determinize, HiddenTerrainAndGeneratorAreSampled) {
  GameState s = new_game(ai_testing::options(2), 3);
  const GameView view = view_for(s, s.current);
  const GameState a = ai::determinize(view, {}, 1);
  const GameState b = ai::determinize(view, {}, 2);
  EXPECT_NE(a.rng, b.rng);
  EXPECT_NE(a.rng, s.rng);
  int face_down = 0;
  for (std::size_t h = 0; h < s.hexes.size(); ++h) {
    if (!s.hexes[h].revealed) {
      ++face_down;
      EXPECT_EQ(a.hexes[h].terrain, Terrain::kNone);  // drawn when revealed, as in the game
    }
  }
  // The undrawn bank is the public composition minus the tiles on the table.
  EXPECT_EQ(std::accumulate(a.tile_bank.begin(), a.tile_bank.end(), 0), face_down);
  EXPECT_EQ(a.tile_bank, s.tile_bank);
}

TEST(Determinize, IndependentExplorationSamplesWhatOthersExplored) {
  // Under independent exploration a seat does not know the terrain others explored: it is
  // sampled, consistent with the pieces standing there, and differs between samples.
  int unknown_to_seat = 0;
  int differing = 0;
  const Options o = ai_testing::options(2, VictoryCondition::kStandard, true);
  std::vector<ai::BotConfig> seats{ai_testing::config(Level::kHeuristic, 1),
                                   ai_testing::config(Level::kHeuristic, 2)};
  const Table t = ai_testing::play(o, 8, seats, 300);
  for (int p = 0; p < 2; ++p) {
    const GameView v = view_for(t.state, p);
    const GameState a = ai::determinize(v, t.history[static_cast<std::size_t>(p)], 11);
    const GameState b = ai::determinize(v, t.history[static_cast<std::size_t>(p)], 12);
    for (std::size_t h = 0; h < v.hexes.size(); ++h) {
      const HexCell& real = t.state.hexes[h];
      if (v.hexes[h].known || !real.revealed) continue;
      ++unknown_to_seat;
      EXPECT_TRUE(a.hexes[h].revealed);
      EXPECT_NE(a.hexes[h].terrain, Terrain::kNone);
      differing += a.hexes[h].terrain != b.hexes[h].terrain;
      if (real.town_owner != kNoPlayer) {
        EXPECT_TRUE(is_land(a.hexes[h].terrain));
      }
    }
    // Every tile is somewhere: on the table (known or sampled) or in the bank.
    auto counts = a.tile_bank;
    for (std::size_t h = 0; h < a.hexes.size(); ++h) {
      if (!a.board().is_perimeter(static_cast<int>(h)) && a.hexes[h].terrain != Terrain::kNone) {
        ++counts[static_cast<std::size_t>(bank_slot_of(a.hexes[h].terrain))];
      }
    }
    int interior = 0;
    for (int h = 0; h < a.board().size(); ++h) interior += a.board().is_perimeter(h) ? 0 : 1;
    EXPECT_EQ(counts, tile_bank_for(o.tile_mix, interior));
  }
  EXPECT_GT(unknown_to_seat, 5);
  EXPECT_GT(differing, 0);
}

TEST(Determinize, RefusesASpectatorsView) {
  const GameState s = new_game(ai_testing::options(2), 1);
  EXPECT_THROW(ai::determinize(view_for(s, kSpectator), {}, 1), std::invalid_argument);
}

}  // namespace
}  // namespace viktory
