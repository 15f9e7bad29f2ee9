// viktory-lookback: what looking back at a finished game costs (engine/ai/lookback.h,
// docs/performance.md). Plays heuristic games on fixed game seeds, then analyses each and
// reports the CPU time of the analysis alone (the process's CPU clock: one thread), the
// points, the drops and the searches made.
//
//   viktory-lookback --players 2 --games 5 [--seed 1] [--playouts 12] [--rounds 3]
//                    [--max-points 120] [--iterations 48] [--decisions 6] [--print]
#include <time.h>

#include <cstdio>
#include <stdexcept>
#include <vector>

#include "args.h"
#include "game.h"
#include "heuristic.h"
#include "lookback.h"

namespace {

using namespace viktory;

void usage(const char* why) {
  if (why) std::fprintf(stderr, "viktory-lookback: %s\n", why);
  std::fprintf(stderr,
               "usage: viktory-lookback [--players N] [--games N] [--seed S] [--victory V]\n"
               "         [--playouts N] [--rounds N] [--max-points N] [--iterations N]\n"
               "         [--decisions N] [--print]\n");
}

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// A heuristic game to its end (at most 150 rounds: an unfinished game cannot be analysed).
std::vector<Action> heuristic_game(const Options& options, std::uint64_t seed) {
  GameState s = new_game(options, seed);
  const ai::HeuristicPlayer player;
  std::vector<Action> actions;
  while (s.phase != Phase::kGameOver && s.turn < 150 * options.players) {
    const int who = decider(s);
    const Action a = player.choose(s, who, legal_actions(s, who));
    if (apply_in_place(s, a)) throw std::logic_error("the heuristic's action was refused");
    actions.push_back(a);
  }
  if (s.phase != Phase::kGameOver) actions.clear();
  return actions;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  options.players = 2;
  int games = 3;
  std::uint64_t seed = 1;
  bool print = false;
  ai::LookbackSettings settings;
  bench::Args args(argc, argv, usage);
  while (args.next()) {
    if (args.flag() == "--players")
      options.players = args.integer();
    else if (args.flag() == "--games")
      games = args.integer();
    else if (args.flag() == "--seed")
      seed = args.unsigned_integer();
    else if (args.flag() == "--victory")
      options.victory = args.victory();
    else if (args.flag() == "--playouts")
      settings.playouts = args.integer();
    else if (args.flag() == "--rounds")
      settings.playout_rounds = args.integer();
    else if (args.flag() == "--max-points")
      settings.max_points = args.integer();
    else if (args.flag() == "--iterations")
      settings.search_iterations = args.integer();
    else if (args.flag() == "--decisions")
      settings.max_decisions = args.integer();
    else if (args.flag() == "--print")
      print = true;
    else
      args.fail("unknown argument " + args.flag());
  }
  double total = 0;
  int analysed = 0;
  for (int g = 0; g < games; ++g) {
    const std::uint64_t game_seed = seed + static_cast<std::uint64_t>(g);
    const std::vector<Action> actions = heuristic_game(options, game_seed);
    if (actions.empty()) {
      std::printf("game seed %llu: no end within 150 rounds, skipped\n",
                  static_cast<unsigned long long>(game_seed));
      continue;
    }
    settings.seed = game_seed;
    const double begin = cpu_seconds();
    const ai::Lookback lb = ai::look_back(new_game(options, game_seed), actions, settings);
    const double used = cpu_seconds() - begin;
    int searches = 0, differs = 0;
    for (const ai::LookbackDrop& d : lb.drops) {
      searches += d.decisions_searched;
      differs += d.differs ? 1 : 0;
    }
    std::printf(
        "game seed %llu: %zu actions, %d turns, stride %d, %zu points, %zu drops "
        "(%d searches, %d with another choice): %.2f s CPU\n",
        static_cast<unsigned long long>(game_seed), actions.size(), lb.points.back().turn,
        lb.stride, lb.points.size(), lb.drops.size(), searches, differs, used);
    if (print) {
      for (const ai::LookbackPoint& p : lb.points) {
        std::printf("  turn %3d seq %5d current %d:", p.turn, p.seq, p.current);
        for (double c : p.chances) std::printf(" %5.1f%%", 100 * c);
        std::printf("\n");
      }
    }
    total += used;
    ++analysed;
  }
  if (analysed > 0) {
    std::printf("%d games analysed, mean %.2f s CPU per game\n", analysed, total / analysed);
  }
  return 0;
}
