// Players' records at scale (docs/performance.md, "Players' records"): the profile, the
// finished lists and the ladder (player_records.h) read from a database of 1,000 and of 20,000
// finished rated games of 2 to 6 players among 200 players, to show that their time does not
// grow with the number of stored games.
//
//   build/bench/server/records_bench --benchmark_min_time=0.5s
#include <benchmark/benchmark.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <string>

#include "action.h"
#include "player_records.h"
#include "store.h"

namespace {

using namespace viktory;
using namespace viktory::server;
using nlohmann::json;

constexpr int kPlayers = 200;
constexpr const char* kConditions[] = {"standard", "shorter", "race", "doomsday", "subjugation"};

// A database file with `games` finished games, made once per size (synchronous off while it
// is filled: the figures are of the reads).
struct Records {
  std::filesystem::path dir;
  std::unique_ptr<Store> store;
  std::vector<PlayerRecord> players;

  explicit Records(int games) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "viktory-records-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) std::abort();
    dir = pattern;
    store = std::make_unique<Store>((dir / "records.db").string());
    store->db().exec("PRAGMA synchronous = OFF");
    for (int p = 0; p < kPlayers; ++p) {
      players.push_back(
          store->create_player("P" + std::to_string(p), "hash" + std::to_string(p), 1));
    }
    std::mt19937 rng(7);
    for (int i = 0; i < games; ++i) {
      const int n = 2 + i % 5;
      GameRecord g;
      g.options.players = n;
      g.created = 1000 + i;
      g.rated = true;
      g.is_private = i % 10 == 9;
      std::vector<int> chosen;
      while (static_cast<int>(chosen.size()) < n) {
        const int p = static_cast<int>(rng() % kPlayers);
        if (std::find(chosen.begin(), chosen.end(), p) == chosen.end()) chosen.push_back(p);
      }
      g.creator = players[chosen[0]];
      for (int s = 0; s < n; ++s) {
        g.seats.push_back(SeatRecord{s, players[chosen[s]].id, players[chosen[s]].name, ""});
      }
      store->create_game(g);
      g.status = GameStatus::kRunning;
      store->start_game(g);
      ActionCommit c;
      c.game_id = g.id;
      c.record = ActionRecord{1, act::concede(0), false, 3 * n, 2000 + i, ActionSource::kPlayer};
      const int winner = static_cast<int>(rng() % n);
      c.finished = json{{"winners", {winner}}, {"ended_by", kConditions[(i / 5) % 5]}};
      c.places.places.assign(n, 2);
      c.places.places[winner] = 1;
      c.places.first_round_complete = true;
      store->commit_action_direct(c);
    }
  }
  ~Records() {
    store.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

Records& records(int games) {
  static std::map<int, std::unique_ptr<Records>> made;
  auto& r = made[games];
  if (!r) r = std::make_unique<Records>(games);
  return *r;
}

void run(benchmark::State& state, const std::string& path,
         const std::map<std::string, std::string>& query) {
  Records& r = records(static_cast<int>(state.range(0)));
  const std::optional<PlayerRecord> viewer = r.players[1];
  std::size_t bytes = 0;
  for (auto _ : state) {
    const ApiResponse a = handle_player_records_api(*r.store, "GET", path, query, "", viewer);
    if (a.status != 200) state.SkipWithError(a.body.c_str());
    bytes = a.body.size();
    benchmark::DoNotOptimize(a);
  }
  state.counters["answer_bytes"] = static_cast<double>(bytes);
}

void BM_Profile(benchmark::State& state) {
  run(state, "/api/players/" + std::to_string(records(state.range(0)).players[0].id), {});
}
void BM_FinishedPublic(benchmark::State& state) { run(state, "/api/finished", {}); }
void BM_FinishedFiltered(benchmark::State& state) {
  run(state, "/api/finished", {{"players", "6"}, {"victory", "doomsday"}, {"rated", "true"}});
}
void BM_FinishedOfPlayer(benchmark::State& state) {
  run(state, "/api/finished",
      {{"player", std::to_string(records(state.range(0)).players[0].id)}, {"players", "4"}});
}
void BM_Ladder(benchmark::State& state) { run(state, "/api/ladder", {{"players", "4"}}); }

BENCHMARK(BM_Profile)->Arg(1000)->Arg(20000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FinishedPublic)->Arg(1000)->Arg(20000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FinishedFiltered)->Arg(1000)->Arg(20000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FinishedOfPlayer)->Arg(1000)->Arg(20000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Ladder)->Arg(1000)->Arg(20000)->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
  spdlog::set_level(spdlog::level::warn);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
