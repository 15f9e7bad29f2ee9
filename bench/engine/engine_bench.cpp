// Benchmarks of the rules engine's entry points on realistic positions.
//
// Mid-game positions come from random play (tests/engine/random_play.h) from fixed seeds, so
// every run measures the same positions. The figures and the command that produced them are
// in docs/performance.md ("Engine").
#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <vector>

#include "game.h"
#include "random_play.h"
#include "view.h"

namespace {

using viktory::Action;
using viktory::ActionKind;
using viktory::Event;
using viktory::GameState;
using viktory::Options;
using viktory::Phase;
using viktory::VictoryCondition;
using viktory::testing::Chooser;

Options options_for(int players, VictoryCondition victory = VictoryCondition::kStandard) {
  Options o;
  o.players = players;
  o.victory = victory;
  return o;
}

// A position some way into the game: every player has had about eight turns, and it is now
// the current player's Movement & Combat Phase with no Battle, Bombard or loss to settle, so
// the whole army is free to act (the costliest moment for legal_actions).
const GameState& mid_game(int players) {
  static std::map<int, GameState> cache;
  if (auto it = cache.find(players); it != cache.end()) return it->second;
  for (std::uint64_t seed = 1;; ++seed) {
    GameState s = viktory::new_game(options_for(players), seed);
    Chooser chooser(seed);
    std::vector<Event> events;
    auto free_to_move = [&] {
      return s.phase == Phase::kMovement && !s.battle && !s.bombard && !s.elimination &&
             s.active_unit < 0 && viktory::pending_battles(s).empty();
    };
    while (s.phase != Phase::kGameOver && (s.turn < 8 * players || !free_to_move())) {
      if (auto err = viktory::apply_in_place(s, viktory::testing::random_action(s, chooser))) {
        throw std::logic_error("random play was refused: " + err->code);
      }
    }
    if (s.phase != Phase::kGameOver) return cache.emplace(players, s).first->second;
  }
}

// The actions random play takes from the mid-game position on (it may run into Battles,
// casualty choices and the next turns).
const std::vector<Action>& actions_from_mid_game(int players) {
  static std::map<int, std::vector<Action>> cache;
  if (auto it = cache.find(players); it != cache.end()) return it->second;
  GameState s = mid_game(players);
  Chooser chooser(4242);
  std::vector<Action> actions;
  while (actions.size() < 64 && s.phase != Phase::kGameOver) {
    actions.push_back(viktory::testing::random_action(s, chooser));
    viktory::apply_in_place(s, actions.back());
  }
  return cache.emplace(players, std::move(actions)).first->second;
}

// One move of a unit on the mid-game position (the commonest action in a game).
Action a_move(const GameState& s) {
  for (const Action& a : viktory::legal_actions(s, viktory::decider(s))) {
    if (a.kind == ActionKind::kMove) return a;
  }
  throw std::logic_error("no move in the mid-game position");
}

int units_on_map(const GameState& s) {
  int n = 0;
  for (const viktory::Unit& u : s.units) n += u.place == viktory::UnitPlace::kMap ? 1 : 0;
  return n;
}

void position_counters(benchmark::State& state, const GameState& s) {
  state.counters["units_on_map"] = units_on_map(s);
  state.counters["legal_actions"] =
      static_cast<double>(viktory::legal_actions(s, viktory::decider(s)).size());
}

void BM_NewGame(benchmark::State& state) {
  const Options options = options_for(static_cast<int>(state.range(0)));
  std::uint64_t seed = 1;
  for (auto _ : state) benchmark::DoNotOptimize(viktory::new_game(options, seed++));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_NewGame)->ArgName("players")->Arg(2)->Arg(4)->Arg(6);

void BM_LegalActions(benchmark::State& state) {
  const GameState& s = mid_game(static_cast<int>(state.range(0)));
  const int who = viktory::decider(s);
  for (auto _ : state) benchmark::DoNotOptimize(viktory::legal_actions(s, who));
  position_counters(state, s);
}
BENCHMARK(BM_LegalActions)
    ->ArgName("players")
    ->Arg(2)
    ->Arg(4)
    ->Arg(6)
    ->Unit(benchmark::kMicrosecond);

// legal_actions over the 64 positions random play goes through from the mid-game position
// (Movement, Battles, casualty choices, Reserve Placement, Building of the next turns).
void BM_LegalActionsAlongPlay(benchmark::State& state) {
  const int players = static_cast<int>(state.range(0));
  std::vector<GameState> positions{mid_game(players)};
  for (const Action& a : actions_from_mid_game(players)) {
    positions.push_back(viktory::apply(positions.back(), a).state);
  }
  std::size_t i = 0;
  for (auto _ : state) {
    const GameState& s = positions[i];
    benchmark::DoNotOptimize(viktory::legal_actions(s, viktory::decider(s)));
    i = i + 1 == positions.size() ? 0 : i + 1;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_LegalActionsAlongPlay)
    ->ArgName("players")
    ->Arg(2)
    ->Arg(4)
    ->Arg(6)
    ->Unit(benchmark::kMicrosecond);

// Copying apply(): one unit move on the mid-game position, the copy of the state included.
void BM_Apply(benchmark::State& state) {
  const GameState& s = mid_game(static_cast<int>(state.range(0)));
  const Action move = a_move(s);
  for (auto _ : state) benchmark::DoNotOptimize(viktory::apply(s, move));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Apply)->ArgName("players")->Arg(2)->Arg(4)->Arg(6);

// The same move with apply_in_place; the position is restored by assignment (into the same
// buffers) before each move. BM_CopyState measures that restore alone.
void BM_ApplyInPlace(benchmark::State& state) {
  const GameState& s = mid_game(static_cast<int>(state.range(0)));
  const Action move = a_move(s);
  GameState work = s;
  std::vector<Event> events;
  for (auto _ : state) {
    work = s;
    events.clear();
    benchmark::DoNotOptimize(viktory::apply_in_place(work, move, &events));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ApplyInPlace)->ArgName("players")->Arg(2)->Arg(4)->Arg(6);

void BM_CopyState(benchmark::State& state) {
  const GameState& s = mid_game(static_cast<int>(state.range(0)));
  GameState work = s;
  for (auto _ : state) {
    work = s;
    benchmark::DoNotOptimize(work);
  }
}
BENCHMARK(BM_CopyState)->ArgName("players")->Arg(2)->Arg(4)->Arg(6);

// 64 actions of random play from the mid-game position, applied in place (one restore per
// 64 actions) or with the copying apply(); items = actions.
void BM_ApplySequenceInPlace(benchmark::State& state) {
  const int players = static_cast<int>(state.range(0));
  const GameState& s = mid_game(players);
  const std::vector<Action>& actions = actions_from_mid_game(players);
  GameState work = s;
  std::vector<Event> events;
  for (auto _ : state) {
    work = s;
    for (const Action& a : actions) {
      events.clear();
      benchmark::DoNotOptimize(viktory::apply_in_place(work, a, &events));
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(actions.size()));
}
BENCHMARK(BM_ApplySequenceInPlace)
    ->ArgName("players")
    ->Arg(2)
    ->Arg(4)
    ->Arg(6)
    ->Unit(benchmark::kMicrosecond);

void BM_ApplySequenceCopying(benchmark::State& state) {
  const int players = static_cast<int>(state.range(0));
  const GameState& s = mid_game(players);
  const std::vector<Action>& actions = actions_from_mid_game(players);
  for (auto _ : state) {
    GameState work = s;
    for (const Action& a : actions) {
      viktory::ApplyResult r = viktory::apply(work, a);
      work = std::move(r.state);
      benchmark::DoNotOptimize(r.events);
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(actions.size()));
}
BENCHMARK(BM_ApplySequenceCopying)
    ->ArgName("players")
    ->Arg(2)
    ->Arg(4)
    ->Arg(6)
    ->Unit(benchmark::kMicrosecond);

// view_for on the mid-game position: viewer -1 is the spectator, 0 a player.
void BM_ViewFor(benchmark::State& state) {
  const GameState& s = mid_game(static_cast<int>(state.range(0)));
  const int viewer = static_cast<int>(state.range(1));
  for (auto _ : state) benchmark::DoNotOptimize(viktory::view_for(s, viewer));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ViewFor)
    ->ArgNames({"players", "viewer"})
    ->ArgsProduct({{2, 4, 6}, {viktory::kSpectator, 0}})
    ->Unit(benchmark::kMicrosecond);

// Whole random games (random_play.h: the random player's own choices included), from a new
// seed each time, to the end or `cap` actions. games/s is items_per_second.
void random_games(benchmark::State& state, VictoryCondition victory, int cap) {
  const Options options = options_for(static_cast<int>(state.range(0)), victory);
  std::uint64_t seed = 1;
  std::int64_t actions = 0;
  std::int64_t finished = 0;
  for (auto _ : state) {
    GameState s = viktory::new_game(options, seed);
    Chooser chooser(seed);
    const auto stats = viktory::testing::play_random_game(s, chooser, cap);
    actions += stats.actions;
    finished += stats.finished ? 1 : 0;
    ++seed;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["actions_per_s"] =
      benchmark::Counter(static_cast<double>(actions), benchmark::Counter::kIsRate);
  state.counters["actions_per_game"] =
      benchmark::Counter(static_cast<double>(actions), benchmark::Counter::kAvgIterations);
  state.counters["finished_share"] =
      benchmark::Counter(static_cast<double>(finished), benchmark::Counter::kAvgIterations);
}

// Standard victory [5.1] (conquer everybody): random games rarely end, so they stop at 2000
// actions (several dozen Player Turns).
void BM_RandomGameStandardCap2000(benchmark::State& state) {
  random_games(state, VictoryCondition::kStandard, 2000);
}
BENCHMARK(BM_RandomGameStandardCap2000)
    ->ArgName("players")
    ->Arg(2)
    ->Arg(4)
    ->Arg(6)
    ->Unit(benchmark::kMillisecond);

// The Doomsday Clock [5.5]: random games play out to their end (cap 20000 actions as a
// safety net; finished_share is the share of games that ended before it).
void BM_RandomGameDoomsdayToTheEnd(benchmark::State& state) {
  random_games(state, VictoryCondition::kDoomsday, 20000);
}
BENCHMARK(BM_RandomGameDoomsdayToTheEnd)
    ->ArgName("players")
    ->Arg(2)
    ->Arg(4)
    ->Arg(6)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
