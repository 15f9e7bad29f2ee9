// Determinization: a GameState rebuilt from one seat's view and history must look to that seat
// exactly like the real game (same view, same legal actions, consistent economy), while
// everything hidden is sampled afresh.
#include "determinize.h"

#include <gtest/gtest.h>

#include <numeric>

#include "games.h"
#include "sight.h"
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

// Fog of war: the other players' units outside the seat's sight are sampled.
Options with_fog(Options o, int city_sight) {
  o.fog_of_war = true;
  o.fog_city_sight = city_sight;
  return o;
}

std::vector<Setting> settings() {
  using ai_testing::options;
  return {
      {with_fog(options(2), 1), {Level::kHeuristic, Level::kHeuristic}},
      {with_fog(with_optional_rules(options(3, VictoryCondition::kShorter, false)), 2),
       {Level::kHeuristic, Level::kRandom, Level::kHeuristic}},
      {with_fog(options(3, VictoryCondition::kStandard, true, TileMix::kLandRich), 3),
       {Level::kRandom, Level::kHeuristic, Level::kHeuristic}},
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

// Fog of war: the view leaves out a Battle or Bombardment of others outside his sight.
bool hides_a_fight(const GameState& s, const GameView& v) {
  return (s.battle && !v.battle) || (s.bombard && !v.bombard);
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
    // Fog of war hides another pair's Battle from him, not that one of them decides (the game
    // waits on him): his determinization has no such Battle, so its decider differs.
    if (hides_a_fight(t.state, real)) return;
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
      const GameState det_before = det;
      GameState real = t.state;
      std::vector<Event> det_events, real_events;
      ASSERT_FALSE(apply_in_place(det, a, &det_events).has_value());
      ASSERT_FALSE(apply_in_place(real, a, &real_events).has_value());
      // Hidden terrain, dice or (fog of war) a look into the fog came out.
      if (seals_turn(t.state, real, real_events) || seals_turn(det_before, det, det_events)) {
        continue;
      }
      // Out of the game now (his last Town taken while he chose a casualty): under fog of war
      // he sees from here on what every player still in it sees (engine/sight.h), hexes his
      // determinization had no reason to know.
      if (!real.players[static_cast<std::size_t>(p)].in_game()) continue;
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

// Fog of war: the seat's determinization holds as many units of each other player and type as
// the real game, the hidden ones outside the seat's sight, and where it last saw some of them
// when it did; its view stays the real one.
TEST(Determinize, FogOfWarSamplesHiddenUnitsFromWhatTheSeatKnows) {
  Options o = with_fog(ai_testing::options(3), 1);
  int hidden = 0, at_last_seen = 0, positions = 0;
  std::vector<ai::BotConfig> seats;
  for (int p = 0; p < 3; ++p) seats.push_back(ai_testing::config(Level::kHeuristic, 5 + p));
  ai_testing::play(o, 31, seats, 400, [&](const Table& t, int) {
    if (t.state.phase == Phase::kGameOver) return true;
    for (int p = 0; p < 3; ++p) {
      if (!t.state.players[static_cast<std::size_t>(p)].in_game()) continue;
      const GameView real = view_for(t.state, p);
      const GameState det = ai::determinize(real, t.history[static_cast<std::size_t>(p)], 3);
      if (!hides_a_fight(t.state, real)) {
        EXPECT_EQ(ai_testing::view_difference(view_for(det, p), real), "");
      }
      const auto seen = sight_of(det, p);
      for (int q = 0; q < 3; ++q) {
        if (q == p || !t.state.players[static_cast<std::size_t>(q)].in_game()) continue;
        for (int type = 0; type < kUnitTypes; ++type) {
          auto count = [&](const GameState& s) {
            return std::count_if(s.units.begin(), s.units.end(), [&](const Unit& u) {
              return u.owner == q && static_cast<int>(u.type) == type &&
                     u.place != UnitPlace::kStock;
            });
          };
          EXPECT_EQ(count(det), count(t.state)) << "seat " << p << " owner " << q;
        }
      }
      for (const Unit& u : det.units) {
        if (u.owner == p || u.place != UnitPlace::kMap || seen[static_cast<std::size_t>(u.hex)]) {
          continue;
        }
        ++hidden;
        at_last_seen += std::any_of(real.last_seen.begin(), real.last_seen.end(),
                                    [&](const LastSeen& e) { return e.hex == u.hex; });
      }
      ++positions;
    }
    return !::testing::Test::HasFailure();
  });
  EXPECT_GT(positions, 100);
  EXPECT_GT(hidden, 100);
  EXPECT_GT(at_last_seen, 0);
}

TEST(Determinize, RefusesASpectatorsView) {
  const GameState s = new_game(ai_testing::options(2), 1);
  EXPECT_THROW(ai::determinize(view_for(s, kSpectator), {}, 1), std::invalid_argument);
}

}  // namespace
}  // namespace viktory
