// viktory-tournament: computer players against each other, on a printed block of game seeds.
//
//   viktory-tournament --players 2 --victory standard --lineup search,heuristic --games 200
//
// Game g uses the game seed (--seed + g) and seats the lineup rotated by g, so every level
// plays every seat equally often. Without --seed the block is drawn at random from the
// held-out range (kHeldOutFirst and up), so a reported figure is never on the seeds a change
// was tuned on; tuning runs name a block below kHeldOutFirst (docs/ai.md, "Honest numbers"). Each
// seat decides from its own view, legal actions and the events it was shown, exactly as a server
// would call the library. A game still running after
// --max-turns turns of each player is adjudicated to the highest victory-point total (counted
// apart). Prints per level: seat-games, wins (a shared win counts 1/k), the win rate per seat
// with its 95% Wilson interval, decisions, decisions per second and mean/max decision time.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "args.h"
#include "bot.h"
#include "game.h"
#include "view.h"

namespace {

using namespace viktory;
using Clock = std::chrono::steady_clock;

struct Settings {
  int players = 2;
  VictoryCondition victory = VictoryCondition::kStandard;
  TileMix mix = TileMix::kStandard;
  bool independent = false;
  int board_hexes = 0;     // 0: the rules' size for the player count [3.2]
  int fog_city_sight = 0;  // 0: no fog of war; else the City's sight (docs/rules-notes.md)
  std::vector<ai::Level> lineup{ai::Level::kSearch, ai::Level::kHeuristic};
  int games = 10;
  std::uint64_t seed = 0;  // the first game seed; drawn when not given
  bool seed_given = false;
  int iterations = 64;
  int time_ms = 0;
  int max_turns = 120;
  int jobs = 1;
  bool verbose = false;
  int trace = -1;  // game whose actions are printed
  int horizon = 1;
  double min_gain = 1.0;
};

struct SeatRecord {
  ai::Level level = ai::Level::kRandom;
  double win = 0;  // 1, 1/k for a shared win, 0
  long decisions = 0;
  long searched = 0;
  long overrode = 0;
  long rollouts = 0;
  double seconds = 0;
  double max_seconds = 0;
};

struct GameRecord {
  std::vector<SeatRecord> seats;
  int turns = 0;
  int actions = 0;
  bool adjudicated = false;
  VictoryCondition ended_by = VictoryCondition::kStandard;
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "%s\nusage: viktory-tournament [--players N] [--victory standard|shorter|race|"
               "doomsday]\n  [--tile-mix standard|land_rich|islands] [--independent]\n"
               "  [--board HEXES] (61, 91, 127, 169, 217; default the rules' size)\n"
               "  [--fog CITY_SIGHT] (fog of war, a City seeing 1..3 hexes)\n"
               "  [--lineup LEVEL,LEVEL,...] (random, heuristic, search; one per seat)\n"
               "  [--games N] [--seed S] [--iterations N] [--time-ms MS] [--max-turns N]\n"
               "  [--horizon N] [--min-gain Z] [--jobs N] [--verbose] [--trace GAME]\n",
               why);
  std::exit(2);
}

// Game seeds below this are the tuning range: changes to the computer players are tried on
// them. Figures reported in docs/ai.md come from blocks at or above it, drawn at random.
constexpr std::uint64_t kHeldOutFirst = 1'000'000;
constexpr std::uint64_t kHeldOutEnd = 4'000'000'000;

std::uint64_t draw_held_out_block(int games) {
  std::random_device device;
  const std::uint64_t wide = (static_cast<std::uint64_t>(device()) << 32) | device();
  const std::uint64_t span = kHeldOutEnd - kHeldOutFirst - static_cast<std::uint64_t>(games);
  return kHeldOutFirst + wide % span;
}

Settings parse(int argc, char** argv) {
  Settings s;
  bench::Args args(argc, argv, usage);
  while (args.next()) {
    const std::string& arg = args.flag();
    if (arg == "--players") {
      s.players = args.integer();
    } else if (arg == "--victory") {
      s.victory = args.victory();
    } else if (arg == "--tile-mix") {
      const auto m = tile_mix_from_string(args.value());
      if (!m) usage("unknown tile mix");
      s.mix = *m;
    } else if (arg == "--independent") {
      s.independent = true;
    } else if (arg == "--board") {
      s.board_hexes = args.integer();
    } else if (arg == "--fog") {
      s.fog_city_sight = args.integer();
    } else if (arg == "--lineup") {
      s.lineup.clear();
      std::string list = args.value();
      std::size_t pos = 0;
      while (pos <= list.size()) {
        const std::size_t comma = std::min(list.find(',', pos), list.size());
        const auto level = ai::level_from_string(list.substr(pos, comma - pos));
        if (!level) usage("unknown level in --lineup");
        s.lineup.push_back(*level);
        pos = comma + 1;
      }
    } else if (arg == "--games") {
      s.games = args.integer();
    } else if (arg == "--seed") {
      s.seed = args.unsigned_integer();
      s.seed_given = true;
    } else if (arg == "--iterations") {
      s.iterations = args.integer();
    } else if (arg == "--time-ms") {
      s.time_ms = args.integer();
    } else if (arg == "--max-turns") {
      s.max_turns = args.integer();
    } else if (arg == "--jobs") {
      s.jobs = std::max(1, args.integer());
    } else if (arg == "--horizon") {
      s.horizon = args.integer();
    } else if (arg == "--min-gain") {
      s.min_gain = args.real();
    } else if (arg == "--trace") {
      s.trace = args.integer();
    } else if (arg == "--verbose") {
      s.verbose = true;
    } else {
      usage(("unknown argument " + arg).c_str());
    }
  }
  if (static_cast<int>(s.lineup.size()) != s.players) usage("--lineup needs one level per seat");
  Options check;
  check.players = s.players;
  check.board_hexes = s.board_hexes;
  check.fog_of_war = s.fog_city_sight != 0;
  if (check.fog_of_war) check.fog_city_sight = s.fog_city_sight;
  if (auto problem = options_problem(check)) usage(problem->c_str());
  if (!s.seed_given) s.seed = draw_held_out_block(s.games);
  return s;
}

// One line per action of a traced game: turn, seat, the action, what it caused.
void trace_action(const GameState& s, int who, const Action& a, const std::vector<Event>& events) {
  const Board& b = s.board();
  std::string line = "t" + std::to_string(s.turn) + " p" + std::to_string(who) + " " +
                     std::string(to_string(a.kind));
  if (a.unit >= 0) line += " u" + std::to_string(a.unit);
  if (a.kind == ActionKind::kPlaceReserve) line += " " + std::string(to_string(a.unit_type));
  if (a.hex >= 0) line += " " + b.label(a.hex);
  for (const Event& e : events) {
    if (e.kind == EventKind::kDiceRolled) {
      line += " dice:";
      for (int d : e.dice) line += std::to_string(d);
    } else if (e.kind == EventKind::kTownCaptured) {
      line += " captured:" + b.label(e.hex);
    } else if (e.kind == EventKind::kTurnStarted) {
      line += " | vp";
      for (std::size_t p = 0; p < s.players.size(); ++p) {
        line += " " + std::to_string(victory_points(s, static_cast<int>(p)));
      }
    }
  }
  std::fprintf(stderr, "%s\n", line.c_str());
}

GameRecord play(const Settings& settings, int game) {
  Options options;
  options.players = settings.players;
  options.victory = settings.victory;
  options.tile_mix = settings.mix;
  options.independent_exploration = settings.independent;
  options.board_hexes = settings.board_hexes;
  options.fog_of_war = settings.fog_city_sight != 0;
  if (options.fog_of_war) options.fog_city_sight = settings.fog_city_sight;
  const std::uint64_t game_seed = settings.seed + static_cast<std::uint64_t>(game);
  GameState s = new_game(options, game_seed);
  GameRecord rec;
  rec.seats.resize(static_cast<std::size_t>(settings.players));
  for (int seat = 0; seat < settings.players; ++seat) {
    rec.seats[static_cast<std::size_t>(seat)].level =
        settings.lineup[static_cast<std::size_t>((seat + game) % settings.players)];
  }
  std::vector<ai::PublicHistory> history(static_cast<std::size_t>(settings.players));
  std::vector<Event> events;
  const int turn_limit = settings.max_turns * settings.players;
  while (s.phase != Phase::kGameOver && s.turn <= turn_limit) {
    const int who = decider(s);
    SeatRecord& seat = rec.seats[static_cast<std::size_t>(who)];
    ai::BotConfig config;
    config.level = seat.level;
    config.seed = game_seed * 1000003ULL + static_cast<std::uint64_t>(who);
    config.iterations = settings.iterations;
    config.time_budget = std::chrono::milliseconds(settings.time_ms);
    config.horizon = settings.horizon;
    config.min_gain = settings.min_gain;
    ai::DecisionInfo info;
    const auto t0 = Clock::now();
    const Action a = ai::choose_action(view_for(s, who), legal_actions(s, who),
                                       history[static_cast<std::size_t>(who)], config, &info);
    const double took = std::chrono::duration<double>(Clock::now() - t0).count();
    seat.decisions += 1;
    seat.seconds += took;
    seat.max_seconds = std::max(seat.max_seconds, took);
    seat.searched += info.candidates > 0 ? 1 : 0;
    seat.overrode += info.overrode ? 1 : 0;
    seat.rollouts += info.rollouts;
    events.clear();
    if (auto err = apply_in_place(s, a, &events)) {
      throw std::logic_error("a bot's action was refused: " + err->code);
    }
    ++rec.actions;
    if (game == settings.trace) trace_action(s, who, a, events);
    for (int p = 0; p < settings.players; ++p) {
      auto seen = filter_events_for(s, events, p);
      auto& h = history[static_cast<std::size_t>(p)].events;
      h.insert(h.end(), seen.begin(), seen.end());
    }
  }
  rec.turns = s.turn;
  std::vector<int> winners = s.winners;
  if (s.phase != Phase::kGameOver) {
    rec.adjudicated = true;
    int best = -1;
    for (int p = 0; p < settings.players; ++p) {
      if (!s.players[static_cast<std::size_t>(p)].in_game()) continue;
      const int vp = victory_points(s, p);
      if (vp > best) {
        best = vp;
        winners = {p};
      } else if (vp == best) {
        winners.push_back(p);
      }
    }
  } else {
    rec.ended_by = s.ended_by;
  }
  for (int w : winners) {
    rec.seats[static_cast<std::size_t>(w)].win = 1.0 / static_cast<double>(winners.size());
  }
  return rec;
}

// 95% Wilson score interval for `wins` out of `n`.
std::pair<double, double> wilson(double wins, double n) {
  if (n <= 0) return {0, 0};
  const double z = 1.96;
  const double p = wins / n;
  const double denom = 1 + z * z / n;
  const double centre = (p + z * z / (2 * n)) / denom;
  const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom;
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

}  // namespace

int main(int argc, char** argv) {
  const Settings settings = parse(argc, argv);
  // The block first, on standard error: a run cut short still says which games it played.
  std::fprintf(stderr, "game seeds %llu-%llu\n", static_cast<unsigned long long>(settings.seed),
               static_cast<unsigned long long>(settings.seed +
                                               static_cast<std::uint64_t>(settings.games) - 1));
  std::vector<GameRecord> records(static_cast<std::size_t>(settings.games));
  std::atomic<int> next{0};
  std::mutex print;
  const auto start = Clock::now();
  auto worker = [&] {
    while (true) {
      const int g = next.fetch_add(1);
      if (g >= settings.games) return;
      records[static_cast<std::size_t>(g)] = play(settings, g);
      if (settings.verbose) {
        const GameRecord& r = records[static_cast<std::size_t>(g)];
        std::lock_guard<std::mutex> lock(print);
        std::fprintf(stderr, "game %d: turns %d actions %d%s winners:", g, r.turns, r.actions,
                     r.adjudicated ? " (adjudicated)" : "");
        for (std::size_t p = 0; p < r.seats.size(); ++p) {
          if (r.seats[p].win > 0) {
            std::fprintf(stderr, " %zu(%s)", p,
                         std::string(ai::to_string(r.seats[p].level)).c_str());
          }
        }
        std::fprintf(stderr, "\n");
      }
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < settings.jobs; ++j) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();

  struct Totals {
    double seat_games = 0, wins = 0, seconds = 0, max_seconds = 0;
    long decisions = 0, searched = 0, overrode = 0, rollouts = 0;
  };
  std::map<ai::Level, Totals> by_level;
  double turns = 0, actions = 0;
  int adjudicated = 0;
  for (const GameRecord& r : records) {
    turns += r.turns;
    actions += r.actions;
    adjudicated += r.adjudicated;
    for (const SeatRecord& seat : r.seats) {
      Totals& t = by_level[seat.level];
      t.seat_games += 1;
      t.wins += seat.win;
      t.seconds += seat.seconds;
      t.max_seconds = std::max(t.max_seconds, seat.max_seconds);
      t.decisions += seat.decisions;
      t.searched += seat.searched;
      t.overrode += seat.overrode;
      t.rollouts += seat.rollouts;
    }
  }
  std::string lineup;
  for (ai::Level l : settings.lineup) {
    if (!lineup.empty()) lineup += ",";
    lineup += ai::to_string(l);
  }
  std::printf(
      "players %d, victory %s, tile mix %s%s%s, lineup %s, games %d, game seeds %llu-%llu "
      "(%s), iterations %d, time %d ms, max turns %d\n",
      settings.players, std::string(to_string(settings.victory)).c_str(),
      std::string(to_string(settings.mix)).c_str(),
      settings.independent ? ", independent exploration" : "",
      settings.fog_city_sight != 0 ? ", fog of war" : "", lineup.c_str(), settings.games,
      static_cast<unsigned long long>(settings.seed),
      static_cast<unsigned long long>(settings.seed + static_cast<std::uint64_t>(settings.games) -
                                      1),
      !settings.seed_given             ? "drawn, held out"
      : settings.seed >= kHeldOutFirst ? "given, in the held-out range"
                                       : "given, in the tuning range: not for reported figures",
      settings.iterations, settings.time_ms, settings.max_turns);
  std::printf("mean turns per game %.1f, actions %.0f, adjudicated %d, wall %.1f s\n",
              turns / settings.games, actions / settings.games, adjudicated, wall);
  // Stand-offs: the share of games that reached the turn limit, and how long games last in
  // rounds (a round is one turn of each player).
  std::printf("reached the turn limit %d of %d (%.1f%%), mean rounds per game %.1f\n", adjudicated,
              settings.games, 100.0 * adjudicated / std::max(1, settings.games),
              turns / settings.games / settings.players);
  std::printf(
      "| level | seat-games | wins | win rate per seat | 95%% CI | decisions | searched | "
      "overrode | rollouts/search | decisions/s | mean ms | max ms |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (const auto& [level, t] : by_level) {
    const auto [lo, hi] = wilson(t.wins, t.seat_games);
    std::printf(
        "| %s | %.0f | %.1f | %.1f%% | %.1f-%.1f%% | %ld | %ld | %ld | %.0f | %.0f | %.3f | %.1f "
        "|\n",
        std::string(ai::to_string(level)).c_str(), t.seat_games, t.wins,
        100 * t.wins / t.seat_games, 100 * lo, 100 * hi, t.decisions, t.searched, t.overrode,
        t.searched ? static_cast<double>(t.rollouts) / static_cast<double>(t.searched) : 0.0,
        t.seconds > 0 ? static_cast<double>(t.decisions) / t.seconds : 0.0,
        1000 * t.seconds / static_cast<double>(std::max(1L, t.decisions)), 1000 * t.max_seconds);
  }
  return 0;
}
