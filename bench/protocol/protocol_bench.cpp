// The JSON text of views and view deltas, as the server sends them, by their one writer
// (protocol/view_text.h); the nlohmann tree writer it was measured against is gone (its figures
// stay in docs/performance.md, "Views as text", with the command).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <vector>

#include "board.h"
#include "game.h"
#include "json.h"
#include "legal_text.h"
#include "random_play.h"
#include "view.h"
#include "view_delta.h"
#include "view_text.h"

namespace {

using nlohmann::json;
using viktory::GameState;
using viktory::GameView;
using viktory::Options;
using viktory::testing::Chooser;

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// A position some way into a game (about eight turns per player) and the views of the 64
// random actions that follow it, for player 0: what a seat's updates are made of.
struct Sample {
  GameView view;                                                         // at the position
  std::vector<std::pair<viktory::protocol::ViewDelta, GameView>> steps;  // delta, view after
};

const Sample& sample(int players) {
  static std::map<int, Sample> cache;
  if (auto it = cache.find(players); it != cache.end()) return it->second;
  Options o;
  o.players = players;
  GameState s = viktory::new_game(o, 5);
  Chooser chooser(5);
  viktory::testing::play_random_game(s, chooser, 1000);
  if (s.phase == viktory::Phase::kGameOver) throw std::logic_error("the sample game ended");
  Sample out;
  out.view = viktory::view_for(s, 0);
  GameView before = out.view;
  viktory::testing::play_random_game(s, chooser, 64, [&](const GameState& after, auto&, auto&) {
    GameView next = viktory::view_for(after, 0);
    out.steps.emplace_back(viktory::protocol::diff_views(before, next), next);
    before = std::move(next);
  });
  return cache.emplace(players, std::move(out)).first->second;
}

void BM_ViewText(benchmark::State& st) {
  const Sample& s = sample(static_cast<int>(st.range(0)));
  std::size_t bytes = 0;
  for (auto _ : st) {
    std::string text = viktory::protocol::view_json_text(s.view);
    bytes = text.size();
    benchmark::DoNotOptimize(text);
  }
  st.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_ViewText)->ArgName("players")->Arg(2)->Arg(4)->Unit(benchmark::kMicrosecond);

// The static board (protocol/board.h), sent once per game and connection instead of in every
// view and delta: its size, and what writing it costs (once per room).
void BM_Board(benchmark::State& st) {
  const Sample& s = sample(static_cast<int>(st.range(0)));
  std::size_t bytes = 0;
  for (auto _ : st) {
    std::string text = dump(viktory::protocol::board_to_json(s.view));
    bytes = text.size();
    benchmark::DoNotOptimize(text);
  }
  st.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_Board)->ArgName("players")->Arg(2)->Arg(4)->Unit(benchmark::kMicrosecond);

// Per delta: the 64 steps' deltas written one after another (the comparison of the views,
// diff_views, is done beforehand).
void BM_DeltaText(benchmark::State& st) {
  const Sample& s = sample(static_cast<int>(st.range(0)));
  std::size_t bytes = 0;
  for (auto _ : st) {
    bytes = 0;
    for (const auto& [delta, after] : s.steps) {
      std::string text = viktory::protocol::view_delta_json_text(delta, after);
      bytes += text.size();
      benchmark::DoNotOptimize(text);
    }
  }
  st.SetItemsProcessed(st.iterations() * static_cast<std::int64_t>(s.steps.size()));
  // The average size of one delta's text: what a seat receives per action.
  st.counters["bytes_per_delta"] = static_cast<double>(bytes) / static_cast<double>(s.steps.size());
}
BENCHMARK(BM_DeltaText)->ArgName("players")->Arg(2)->Arg(4)->Unit(benchmark::kMicrosecond);

// The decider's legal actions after each of 64 random actions from the sample's position, as
// the room sends them with every update: the tree (actions_to_json + dump, the reference form)
// against the direct writer (protocol/legal_text.h). legal_actions itself is computed
// beforehand: it is the same for both. Per list.
const std::vector<std::vector<viktory::Action>>& legal_lists(int players) {
  static std::map<int, std::vector<std::vector<viktory::Action>>> cache;
  if (auto it = cache.find(players); it != cache.end()) return it->second;
  Options o;
  o.players = players;
  GameState s = viktory::new_game(o, 5);
  Chooser chooser(5);
  viktory::testing::play_random_game(s, chooser, 1000);
  std::vector<std::vector<viktory::Action>> lists;
  viktory::testing::play_random_game(s, chooser, 64, [&](const GameState& after, auto&, auto&) {
    const int who = viktory::decider(after);
    if (who != viktory::kNoPlayer) lists.push_back(viktory::legal_actions(after, who));
  });
  return cache.emplace(players, std::move(lists)).first->second;
}

void BM_LegalTree(benchmark::State& st) {
  const auto& lists = legal_lists(static_cast<int>(st.range(0)));
  std::size_t actions = 0;
  for (const auto& l : lists) actions += l.size();
  for (auto _ : st) {
    for (const auto& l : lists) {
      std::string text = json(viktory::protocol::actions_to_json(l)).dump();
      benchmark::DoNotOptimize(text);
    }
  }
  st.SetItemsProcessed(st.iterations() * static_cast<std::int64_t>(lists.size()));
  st.counters["actions_per_list"] =
      static_cast<double>(actions) / static_cast<double>(lists.size());
}
BENCHMARK(BM_LegalTree)->ArgName("players")->Arg(2)->Arg(4)->Unit(benchmark::kMicrosecond);

void BM_LegalText(benchmark::State& st) {
  const auto& lists = legal_lists(static_cast<int>(st.range(0)));
  for (auto _ : st) {
    for (const auto& l : lists) {
      std::string text = viktory::protocol::actions_json_text(l);
      benchmark::DoNotOptimize(text);
    }
  }
  st.SetItemsProcessed(st.iterations() * static_cast<std::int64_t>(lists.size()));
}
BENCHMARK(BM_LegalText)->ArgName("players")->Arg(2)->Arg(4)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
