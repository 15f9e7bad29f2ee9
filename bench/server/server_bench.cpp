// Benchmarks of what an unauthenticated or a spectating client can make the server do: build a
// replay (the old form, a full view per step, against the compact pages), and send a full state
// to one more watcher (built, or shared from the per-viewer cache). Figures and the command in
// docs/performance.md ("Replays and full states").
#include <benchmark/benchmark.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "fair.h"
#include "game.h"
#include "hub.h"
#include "json.h"
#include "log_text.h"
#include "random_play.h"
#include "replay.h"
#include "store.h"
#include "view.h"

namespace {

using namespace viktory;
using namespace viktory::server;
using nlohmann::json;

constexpr int kActions = 1500;

// A finished 4-player game of about 1,500 actions in a fresh database file (snapshots every
// 50 actions, as the server stores them).
struct StoredGame {
  std::filesystem::path dir;
  std::unique_ptr<Store> store;
  GameRecord record;

  StoredGame() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "viktory-bench-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) std::abort();
    dir = pattern;
    store = std::make_unique<Store>((dir / "bench.db").string());
    std::vector<PlayerRecord> players;
    for (int p = 0; p < 4; ++p) {
      players.push_back(
          store->create_player("P" + std::to_string(p), "hash" + std::to_string(p), 1));
    }
    record.options.players = 4;
    record.options.victory = VictoryCondition::kStandard;
    record.created = 1;
    record.creator = players[0];
    for (int p = 0; p < 4; ++p)
      record.seats.push_back(SeatRecord{p, players[p].id, players[p].name, ""});
    store->create_game(record);
    record.seed = 20251122;
    store->start_game(record);
    GameState state = new_game(record.options, record.seed, record.random_scheme);
    testing::Chooser chooser(7);
    int seq = 0;
    store->db().exec("PRAGMA synchronous=OFF");  // only to set the game up quickly
    while (seq < kActions && state.phase != Phase::kGameOver) {
      const Action a = testing::random_action(state, chooser);
      const int turn = state.turn;
      std::vector<Event> events;
      if (apply_in_place(state, a, &events)) std::abort();
      ++seq;
      ActionCommit commit;
      commit.game_id = record.id;
      commit.record = ActionRecord{seq, a, seals_turn(events), turn, seq};
      commit.current_seat = decider(state);
      if (seq % 50 == 0) commit.snapshot = &state;
      if (seq == kActions || state.phase == Phase::kGameOver) {
        commit.finished = json{{"winners", state.winners}, {"ended_by", "standard"}};
      }
      store->commit_action(commit);
    }
    store->db().exec("PRAGMA synchronous=FULL");
    record = *store->game(record.id);
  }
  ~StoredGame() {
    store.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

StoredGame& game() {
  static StoredGame g;
  return g;
}

// The replay as it was before pages: every step with the whole view, the whole game at once, as
// one tree (its views are now their text parsed: view_to_json is for tests and tools only).
void BM_ReplayWholeGameFullViews(benchmark::State& st) {
  StoredGame& g = game();
  std::size_t bytes = 0;
  for (auto _ : st) {
    GameState state = new_game(g.record.options, g.record.seed, g.record.random_scheme);
    json steps = json::array();
    steps.push_back(
        json{{"seq", 0}, {"view", protocol::view_to_json(view_for(state, kSpectator))}});
    for (const ActionRecord& r : g.store->actions(g.record.id)) {
      std::vector<Event> events;
      apply_in_place(state, r.action, &events);
      const std::vector<Event> mine = filter_events_for(state, events, kSpectator);
      json log = json::array();
      for (std::string& line : log_lines(state, mine, kSpectator)) log.push_back(line);
      steps.push_back(json{{"seq", r.seq},
                           {"action", protocol::action_to_json(r.action)},
                           {"view", protocol::view_to_json(view_for(state, kSpectator))},
                           {"log", log}});
    }
    const std::string text = json{{"steps", std::move(steps)}}.dump();
    bytes = text.size();
    benchmark::DoNotOptimize(text.data());
  }
  st.counters["bytes"] = static_cast<double>(bytes);
  st.counters["steps"] = g.record.seq;
}
BENCHMARK(BM_ReplayWholeGameFullViews)->Unit(benchmark::kMillisecond);

// One compact page of 200 steps, at the start and near the end (from the latest snapshot).
void BM_ReplayPage(benchmark::State& st) {
  StoredGame& g = game();
  const int from = std::min(static_cast<int>(st.range(0)), g.record.seq - 200);
  std::size_t bytes = 0;
  for (auto _ : st) {
    const std::string text = Replays::build_page(*g.store, g.record, kSpectator, from, from + 200);
    bytes = text.size();
    benchmark::DoNotOptimize(text.data());
  }
  st.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_ReplayPage)->Arg(0)->Arg(1300)->Unit(benchmark::kMillisecond);

// Every page of the game, as the replay page fetches them one after another.
void BM_ReplayWholeGamePages(benchmark::State& st) {
  StoredGame& g = game();
  std::size_t bytes = 0;
  for (auto _ : st) {
    bytes = 0;
    for (int from = 0; from < g.record.seq; from += 200) {
      const std::string text = Replays::build_page(*g.store, g.record, kSpectator, from,
                                                   std::min(from + 200, g.record.seq));
      bytes += text.size();
      benchmark::DoNotOptimize(text.data());
    }
  }
  st.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_ReplayWholeGamePages)->Unit(benchmark::kMillisecond);

// The same request through the API a second time: served from the cache.
void BM_ReplayPageCached(benchmark::State& st) {
  StoredGame& g = game();
  Metrics metrics;
  ReplayLimits limits;
  limits.requests_per_minute = 1e12;
  Replays replays(g.store->db().path(), metrics, limits);
  const std::map<std::string, std::string> query{{"from", "1300"}};
  replays.handle(g.record.id, query, "", "bench");
  for (auto _ : st) {
    const ApiResponse r = replays.handle(g.record.id, query, "", "bench");
    benchmark::DoNotOptimize(r.body.data());
  }
  st.counters["hits"] = static_cast<double>(metrics.replay_cache_hits);
}
BENCHMARK(BM_ReplayPageCached)->Unit(benchmark::kMicrosecond);

// A spectator's game.watch of a running 4-player game at the same seq as the previous one:
// the full state comes from the per-viewer cache. With range(0) == 1 every watch follows a
// chat line, which makes the cached game.state stale (its chat part), as a worst case.
struct Recorder : Client {
  void deliver(Message m) override { last = std::move(m); }
  void close(std::string_view) override {}
  Message last;
};

void BM_WatchFullState(benchmark::State& st) {
  std::string pattern = (std::filesystem::temp_directory_path() / "viktory-bench-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) std::abort();
  const std::filesystem::path dir = pattern;
  {
    Store store((dir / "watch.db").string());
    Metrics metrics;
    HubOptions options;
    options.messages_per_second = 1e12;
    options.message_burst = 1e12;
    Hub hub(store, metrics, options);
    std::vector<std::unique_ptr<Recorder>> players;
    auto sign_in = [&](Recorder& c, const std::string& name) {
      hub.on_open(&c);
      const ApiResponse r = hub.handle_api("POST", "/api/session", json{{"name", name}}.dump(), "");
      hub.on_message(&c, json{{"type", "auth"}, {"token", json::parse(r.body)["token"]}}.dump());
    };
    for (int p = 0; p < 4; ++p) {
      players.push_back(std::make_unique<Recorder>());
      sign_in(*players.back(), "P" + std::to_string(p));
    }
    // Each seat commits to a contribution and reveals it when the seats are final (fair play).
    const auto contribution = [](int p) {
      viktory::protocol::fair::Contribution c{};
      c.fill(static_cast<std::uint8_t>(p + 1));
      return c;
    };
    const auto commitment = [&](int p) {
      return viktory::protocol::fair::to_hex(
          viktory::protocol::fair::contribution_commitment(contribution(p)));
    };
    hub.on_message(
        players[0].get(),
        json{{"type", "game.create"}, {"seats", 4}, {"contribution_commitment", commitment(0)}}
            .dump());
    const std::int64_t id = json::parse(*players[0]->last)["game_id"];
    for (int p = 1; p < 4; ++p) {
      hub.on_message(
          players[p].get(),
          json{{"type", "game.join"}, {"game_id", id}, {"contribution_commitment", commitment(p)}}
              .dump());
    }
    for (int p = 0; p < 4; ++p) {
      hub.on_message(players[p].get(),
                     json{{"type", "game.contribute"},
                          {"game_id", id},
                          {"contribution", viktory::protocol::fair::to_hex(contribution(p))}}
                         .dump());
    }
    // Some 300 actions into the game.
    const std::string watch = json{{"type", "game.watch"}, {"game_id", id}}.dump();
    for (int i = 0; i < 300; ++i) {
      hub.on_message(players[0].get(), watch);
      const int decider = json::parse(*players[0]->last)["view"]["decider"];
      if (decider < 0) break;
      hub.on_message(players[static_cast<std::size_t>(decider)].get(), watch);
      const json state = json::parse(*players[static_cast<std::size_t>(decider)]->last);
      json action = state["legal"][0];
      for (const json& a : state["legal"]) {
        if (a["kind"] != "concede") action = a;
        if (a["kind"] == "move") break;
      }
      hub.on_message(
          players[static_cast<std::size_t>(decider)].get(),
          json{{"type", "game.action"}, {"game_id", id}, {"seq", state["seq"]}, {"action", action}}
              .dump());
    }
    Recorder spectator;
    sign_in(spectator, "Watcher");
    const std::string chat = json{{"type", "chat.send"}, {"game_id", id}, {"text", "hi"}}.dump();
    std::size_t bytes = 0;
    for (auto _ : st) {
      if (st.range(0) == 1) hub.on_message(players[0].get(), chat);
      hub.on_message(&spectator, watch);
      bytes = spectator.last->size();
    }
    st.counters["state_bytes"] = static_cast<double>(bytes);
    hub.on_close(&spectator);
    for (auto& p : players) hub.on_close(p.get());
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}
BENCHMARK(BM_WatchFullState)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
  spdlog::set_level(spdlog::level::off);  // the server's log lines would mix with the table
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
