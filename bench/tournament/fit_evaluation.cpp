// viktory-fit-evaluation: fits the search's evaluation (engine/ai/evaluate.cpp) to games.
//
//   viktory-fit-evaluation --players 2 --victory standard --games 600
//
// Plays heuristic games with fixed seeds (every seat decides from its own view, as in the
// tournament), records the features (engine/ai/position_features.h) of the player whose turn begins
// at every turn, and labels them with that player's result: 1 for a win, 1/k for a win shared by k,
// 0 otherwise (a game still running after --max-turns turns of each player goes to the highest
// victory points, as in the tournament). Then fits a logistic regression with a little L2
// regularisation by Newton's method on 4 games in 5 and reports log-loss and accuracy on the fifth,
// and prints the weights as a C++ initializer for evaluate.cpp.
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "args.h"
#include "bot.h"
#include "game.h"
#include "position_features.h"
#include "view.h"

namespace {

using namespace viktory;

struct Sample {
  ai::Features x;
  double y = 0;
  bool test = false;
};

struct Settings {
  Options options;
  int games = 400;
  std::uint64_t seed = 1;
  int max_turns = 120;
  int jobs = 1;
  double l2 = 0.01;
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "%s\nusage: viktory-fit-evaluation [--players N] [--victory V] [--games N] "
               "[--seed S] [--max-turns N] [--jobs N] [--l2 X]\n",
               why);
  std::exit(2);
}

std::vector<Sample> play(const Settings& settings, int game) {
  const std::uint64_t game_seed = settings.seed + static_cast<std::uint64_t>(game);
  GameState s = new_game(settings.options, game_seed);
  const int n = settings.options.players;
  std::vector<ai::PublicHistory> history(static_cast<std::size_t>(n));
  std::vector<std::pair<int, ai::Features>> seen;
  std::vector<Event> events;
  const int turn_limit = settings.max_turns * n;
  int last_turn = s.turn;
  while (s.phase != Phase::kGameOver && s.turn <= turn_limit) {
    const int who = decider(s);
    ai::BotConfig config;
    config.level = ai::Level::kHeuristic;
    config.seed = game_seed * 1000003ULL + static_cast<std::uint64_t>(who);
    const Action a = ai::choose_action(view_for(s, who), legal_actions(s, who),
                                       history[static_cast<std::size_t>(who)], config);
    events.clear();
    if (apply_in_place(s, a, &events)) usage("a heuristic action was refused");
    for (int p = 0; p < n; ++p) {
      auto f = filter_events_for(s, events, p);
      auto& h = history[static_cast<std::size_t>(p)].events;
      h.insert(h.end(), f.begin(), f.end());
    }
    if (s.turn != last_turn && s.phase != Phase::kGameOver) {
      last_turn = s.turn;
      seen.emplace_back(s.current, ai::features(s, s.current));
    }
  }
  std::vector<int> winners = s.winners;
  if (s.phase != Phase::kGameOver) {
    int best = -1;
    for (int p = 0; p < n; ++p) {
      if (!s.players[static_cast<std::size_t>(p)].in_game()) continue;
      const int vp = victory_points(s, p);
      if (vp > best) {
        best = vp;
        winners = {p};
      } else if (vp == best) {
        winners.push_back(p);
      }
    }
  }
  std::vector<Sample> out;
  for (const auto& [player, x] : seen) {
    Sample sample;
    sample.x = x;
    for (int w : winners) {
      if (w == player) sample.y = 1.0 / static_cast<double>(winners.size());
    }
    sample.test = game % 5 == 4;
    out.push_back(sample);
  }
  return out;
}

double sigmoid(double z) { return 1 / (1 + std::exp(-z)); }

constexpr int kN = ai::kFeatureCount;

double dot(const std::array<double, kN>& w, const ai::Features& x) {
  double z = 0;
  for (int i = 0; i < kN; ++i) z += w[static_cast<std::size_t>(i)] * x[static_cast<std::size_t>(i)];
  return z;
}

// Newton's method (iteratively reweighted least squares) with L2 on all but the bias.
std::array<double, kN> fit(const std::vector<Sample>& data, double l2) {
  std::array<double, kN> w{};
  for (int iter = 0; iter < 30; ++iter) {
    std::array<std::array<double, kN>, kN> h{};
    std::array<double, kN> g{};
    for (const Sample& s : data) {
      if (s.test) continue;
      const double p = sigmoid(dot(w, s.x));
      const double r = p * (1 - p);
      for (int i = 0; i < kN; ++i) {
        g[static_cast<std::size_t>(i)] += (s.y - p) * s.x[static_cast<std::size_t>(i)];
        for (int j = 0; j < kN; ++j) {
          h[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] +=
              r * s.x[static_cast<std::size_t>(i)] * s.x[static_cast<std::size_t>(j)];
        }
      }
    }
    for (int i = 1; i < kN; ++i) {
      g[static_cast<std::size_t>(i)] -= l2 * w[static_cast<std::size_t>(i)];
      h[static_cast<std::size_t>(i)][static_cast<std::size_t>(i)] += l2;
    }
    for (int i = 0; i < kN; ++i)
      h[static_cast<std::size_t>(i)][static_cast<std::size_t>(i)] += 1e-9;
    // Solve h * step = g by Gaussian elimination with partial pivoting.
    std::array<double, kN> step = g;
    for (int c = 0; c < kN; ++c) {
      int pivot = c;
      for (int r = c + 1; r < kN; ++r) {
        if (std::abs(h[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)]) >
            std::abs(h[static_cast<std::size_t>(pivot)][static_cast<std::size_t>(c)])) {
          pivot = r;
        }
      }
      std::swap(h[static_cast<std::size_t>(c)], h[static_cast<std::size_t>(pivot)]);
      std::swap(step[static_cast<std::size_t>(c)], step[static_cast<std::size_t>(pivot)]);
      for (int r = c + 1; r < kN; ++r) {
        const double f = h[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)] /
                         h[static_cast<std::size_t>(c)][static_cast<std::size_t>(c)];
        for (int k = c; k < kN; ++k) {
          h[static_cast<std::size_t>(r)][static_cast<std::size_t>(k)] -=
              f * h[static_cast<std::size_t>(c)][static_cast<std::size_t>(k)];
        }
        step[static_cast<std::size_t>(r)] -= f * step[static_cast<std::size_t>(c)];
      }
    }
    for (int c = kN - 1; c >= 0; --c) {
      for (int k = c + 1; k < kN; ++k) {
        step[static_cast<std::size_t>(c)] -=
            h[static_cast<std::size_t>(c)][static_cast<std::size_t>(k)] *
            step[static_cast<std::size_t>(k)];
      }
      step[static_cast<std::size_t>(c)] /=
          h[static_cast<std::size_t>(c)][static_cast<std::size_t>(c)];
    }
    double change = 0;
    for (int i = 0; i < kN; ++i) {
      w[static_cast<std::size_t>(i)] += step[static_cast<std::size_t>(i)];
      change += std::abs(step[static_cast<std::size_t>(i)]);
    }
    if (change < 1e-8) break;
  }
  return w;
}

}  // namespace

int main(int argc, char** argv) {
  Settings settings;
  bench::Args args(argc, argv, usage);
  while (args.next()) {
    const std::string& arg = args.flag();
    if (arg == "--players") {
      settings.options.players = args.integer();
    } else if (arg == "--victory") {
      settings.options.victory = args.victory();
    } else if (arg == "--games") {
      settings.games = args.integer();
    } else if (arg == "--seed") {
      settings.seed = args.unsigned_integer();
    } else if (arg == "--max-turns") {
      settings.max_turns = args.integer();
    } else if (arg == "--jobs") {
      settings.jobs = std::max(1, args.integer());
    } else if (arg == "--l2") {
      settings.l2 = args.real();
    } else {
      usage(("unknown argument " + arg).c_str());
    }
  }
  std::vector<Sample> data;
  std::mutex lock;
  std::atomic<int> next{0};
  auto worker = [&] {
    while (true) {
      const int g = next.fetch_add(1);
      if (g >= settings.games) return;
      auto samples = play(settings, g);
      std::lock_guard<std::mutex> guard(lock);
      data.insert(data.end(), samples.begin(), samples.end());
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < settings.jobs; ++j) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  // Order does not matter to the fit, but keep the output independent of thread timing.
  std::sort(data.begin(), data.end(), [](const Sample& a, const Sample& b) {
    return a.x < b.x || (a.x == b.x && a.y < b.y);
  });
  const auto w = fit(data, settings.l2);
  double loss = 0, base_loss = 0, right = 0, n = 0, mean_y = 0, train_n = 0;
  for (const Sample& s : data) {
    if (!s.test) {
      mean_y += s.y;
      ++train_n;
    }
  }
  mean_y /= std::max(1.0, train_n);
  for (const Sample& s : data) {
    if (!s.test) continue;
    const double p = std::clamp(sigmoid(dot(w, s.x)), 1e-6, 1 - 1e-6);
    loss -= s.y * std::log(p) + (1 - s.y) * std::log(1 - p);
    base_loss -= s.y * std::log(mean_y) + (1 - s.y) * std::log(1 - mean_y);
    right += (p > 0.5) == (s.y > 0.5) ? 1 : 0;
    ++n;
  }
  std::printf("players %d, victory %s, games %d, seed %llu: %zu positions (%.0f held out)\n",
              settings.options.players, std::string(to_string(settings.options.victory)).c_str(),
              settings.games, static_cast<unsigned long long>(settings.seed), data.size(), n);
  std::printf("held-out log-loss %.4f (constant model %.4f), accuracy %.3f\n", loss / n,
              base_loss / n, right / n);
  std::printf("{");
  for (int i = 0; i < kN; ++i) std::printf("%s%.4f", i ? ", " : "", w[static_cast<std::size_t>(i)]);
  std::printf("}\n");
  return 0;
}
