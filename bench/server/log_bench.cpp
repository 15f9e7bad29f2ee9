// The game log's cost per action (docs/performance.md, "Log lines in the reader's language"):
// the log lines a room makes for one action, for each of its viewers (the four seats of a
// 4-player game and a spectator, as GameRoom::update_message_with does for its game.update),
// and the bytes of those game.update messages with and without the lines' "msg".
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "game.h"
#include "json.h"
#include "legal_text.h"
#include "log_text.h"
#include "random_play.h"
#include "view.h"
#include "view_text.h"

namespace {

using namespace viktory;
using namespace viktory::server;
using nlohmann::json;

constexpr int kActions = 1500;
constexpr int kPlayers = 4;

// One action of the game: the state after it and its events as each viewer is told them.
struct Step {
  GameState after;
  std::vector<std::vector<Event>> events;  // by viewer: seats 0..3, then the spectator
};

int viewer_at(int i) { return i < kPlayers ? i : kSpectator; }

// A random 4-player game of about 1,500 actions (the same for every run: a fixed seed).
const std::vector<Step>& steps() {
  static const std::vector<Step> out = [] {
    std::vector<Step> made;
    Options options;
    options.players = kPlayers;
    GameState state = new_game(options, 20251122);
    testing::Chooser chooser(7);
    while (static_cast<int>(made.size()) < kActions && state.phase != Phase::kGameOver) {
      const Action a = testing::random_action(state, chooser);
      std::vector<Event> events;
      if (apply_in_place(state, a, &events)) std::abort();
      Step step{state, {}};
      for (int i = 0; i <= kPlayers; ++i) {
        step.events.push_back(filter_events_for(state, events, viewer_at(i)));
      }
      made.push_back(std::move(step));
    }
    return made;
  }();
  return out;
}

// Every viewer's log lines of every action, as JSON (the part of game.update they make).
void BM_LogLinesPerAction(benchmark::State& st) {
  const std::vector<Step>& game = steps();
  std::size_t lines = 0;
  for (auto _ : st) {
    for (std::size_t seq = 0; seq < game.size(); ++seq) {
      for (int i = 0; i <= kPlayers; ++i) {
        json log = json::array();
        append_log_json(log, static_cast<int>(seq + 1), game[seq].after, game[seq].events[i],
                        viewer_at(i));
        lines += log.size();
        benchmark::DoNotOptimize(log);
      }
    }
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations()) *
                       static_cast<std::int64_t>(game.size()));  // actions
  st.counters["lines_per_action"] = benchmark::Counter(
      static_cast<double>(lines) / static_cast<double>(st.iterations() * game.size()));
}
BENCHMARK(BM_LogLinesPerAction)->Unit(benchmark::kMillisecond);

// The bytes of each viewer's game.update (its head with events and log, the delta of its view
// and its legal actions, as GameRoom::update_message_with writes them), with the lines as sent,
// with their "msg" left out (as before), and with their "text" left out (a proposal). Bytes do
// not depend on the machine: one iteration.
void BM_UpdateBytes(benchmark::State& st) {
  const std::vector<Step>& game = steps();
  double with_msg = 0, without_msg = 0, without_text = 0, log_with = 0, log_without = 0;
  double updates = 0;
  double largest_log = 0;
  for (auto _ : st) {
    std::vector<GameView> before;
    for (int i = 0; i <= kPlayers; ++i) {
      GameState start = new_game(game.front().after.options, 20251122);
      before.push_back(view_for(start, viewer_at(i)));
    }
    for (std::size_t seq = 0; seq < game.size(); ++seq) {
      for (int i = 0; i <= kPlayers; ++i) {
        const int viewer = viewer_at(i);
        const GameState& after = game[seq].after;
        json log = json::array();
        append_log_json(log, static_cast<int>(seq + 1), after, game[seq].events[i], viewer);
        json events = json::array();
        for (const Event& e : game[seq].events[i]) events.push_back(protocol::event_to_json(e));
        GameView view = view_for(after, viewer);
        const std::string delta = protocol::view_delta_json_text(before[i], view);
        const std::string legal = viewer < 0 || after.phase == Phase::kGameOver
                                      ? "[]"
                                      : protocol::actions_json_text(legal_actions(after, viewer));
        before[i] = std::move(view);
        json head{
            {"type", "game.update"},       {"game_id", 1234}, {"seq", seq + 1}, {"can_undo", false},
            {"events", std::move(events)}, {"log", log}};
        // ,"delta":...,"legal":... spliced after the head (GameRoom's splice).
        const double rest = static_cast<double>(delta.size() + legal.size() + 20);
        const std::string log_text = log.dump();
        json msg_only = log;
        for (json& line : msg_only) {
          if (line.contains("msg")) line.erase("text");
        }
        head["log"] = std::move(msg_only);
        without_text += static_cast<double>(head.dump().size()) + rest;
        head["log"] = log;
        for (json& line : log) line.erase("msg");
        const std::string log_plain = log.dump();
        with_msg += static_cast<double>(head.dump().size()) + rest;
        head["log"] = log;
        without_msg += static_cast<double>(head.dump().size()) + rest;
        log_with += static_cast<double>(log_text.size());
        log_without += static_cast<double>(log_plain.size());
        largest_log = std::max(largest_log, static_cast<double>(log_text.size()));
        updates += 1;
      }
    }
  }
  st.counters["update_bytes"] = with_msg / updates;
  st.counters["update_bytes_without_msg"] = without_msg / updates;
  st.counters["update_bytes_without_text"] = without_text / updates;
  st.counters["log_bytes"] = log_with / updates;
  st.counters["log_bytes_without_msg"] = log_without / updates;
  st.counters["largest_log_bytes"] = largest_log;
}
BENCHMARK(BM_UpdateBytes)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
