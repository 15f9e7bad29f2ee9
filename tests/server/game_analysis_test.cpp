// The look back after a game (server/games/game_analysis.h) on a real SQLite file: refused for a
// game that is not over (and for a guided one), 202 pending then the result for a finished
// one, computed once and kept (a second request and a new server read it back), and the
// budgets one hostile client meets: one analysis pending per address and per player, a
// server-wide queue, an address's own bucket of new analyses.
#include "game_analysis.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "game.h"
#include "heuristic.h"
#include "test_support.h"
#include "token.h"

namespace viktory::server {
namespace {

using nlohmann::json;
using testing::TempDir;

struct Stored {
  GameRecord record;
  std::string token;  // of seat 0's player
};

// A heuristic game stored action by action; finished (with its result) unless stopped after
// `max_actions`. `guided`: started from a stored position, as a guided game is.
Stored store_game(Store& store, std::uint64_t seed, int max_actions = 1 << 20,
                  bool guided = false) {
  Options options;
  options.players = 2;
  std::vector<PlayerRecord> players;
  Stored out;
  for (int p = 0; p < 2; ++p) {
    const std::string name = "P" + std::to_string(seed) + "_" + std::to_string(p);
    const std::string token = new_token();
    if (p == 0) out.token = token;
    players.push_back(store.create_player(name, token_hash(token), 1));
  }
  GameRecord record;
  record.options = options;
  record.created = 1;
  record.creator = players[0];
  for (int p = 0; p < 2; ++p)
    record.seats.push_back(SeatRecord{p, players[p].id, players[p].name, ""});
  store.create_game(record);
  record.seed = seed;
  GameState state = new_game(record.options, record.seed);
  store.start_game(record, guided ? &state : nullptr);
  const ai::HeuristicPlayer player;
  int seq = 0;
  // Heuristic games may stand off for long (docs/ai.md, "Stand-offs"): 60 rounds at most.
  while (seq < max_actions && state.phase != Phase::kGameOver && state.turn < 120) {
    const int who = decider(state);
    const Action a = player.choose(state, who, legal_actions(state, who));
    const int turn = state.turn;
    std::vector<Event> events;
    if (apply_in_place(state, a, &events)) throw std::logic_error("refused");
    ++seq;
    ActionCommit commit;
    commit.game_id = record.id;
    commit.record = ActionRecord{seq, a, seals_turn(events), turn, seq};
    commit.current_seat = decider(state);
    if (state.phase == Phase::kGameOver) commit.finished = json{{"winners", state.winners}};
    store.commit_action(commit);
  }
  out.record = *store.game(record.id);
  return out;
}

// `n` finished games, from the seeds that end within the bound.
std::vector<Stored> finished_games(Store& store, std::size_t n) {
  std::vector<Stored> out;
  for (std::uint64_t seed = 2; out.size() < n && seed < 100; ++seed) {
    Stored g = store_game(store, seed);
    if (g.record.status == GameStatus::kFinished) out.push_back(std::move(g));
  }
  if (out.size() < n) throw std::logic_error("too few finished games");
  return out;
}

AnalysisLimits fast_limits() {
  AnalysisLimits l;
  l.settings.playouts = 4;
  l.settings.search_iterations = 8;
  l.settings.max_decisions = 2;
  l.nice = 0;
  return l;
}

// Holds the worker before each analysis until released.
struct Gate {
  std::mutex m;
  std::condition_variable cv;
  bool open = false;
  void wait() {
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return open; });
  }
  void release() {
    {
      std::lock_guard lock(m);
      open = true;
    }
    cv.notify_all();
  }
};

ApiResponse ask(GameAnalyses& a, std::int64_t id, const std::string& address = "10.0.0.1",
                const std::string& token = "") {
  return a.handle(id, {}, token.empty() ? "" : "Bearer " + token, address);
}

// Asks until the answer is no longer 202 (the worker is done), at most ~20 s.
// A worker hook that lets the test go on and then keeps the worker where it is for a while.
std::function<void()> open_then_linger(Gate& gate) {
  return [&gate] {
    gate.release();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  };
}

ApiResponse until_done(GameAnalyses& a, std::int64_t id, const std::string& address = "10.0.0.1") {
  ApiResponse r = ask(a, id, address);
  for (int i = 0; i < 2000 && r.status == 202; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    r = ask(a, id, address);
  }
  return r;
}

class Analyses : public ::testing::Test {
 protected:
  TempDir dir;
  Store store{dir.file("analysis.db")};
};

TEST_F(Analyses, AnUnknownGameIs404AndARunningGameIsNeverAnalysed) {
  GameAnalyses analyses(store, fast_limits());
  EXPECT_EQ(ask(analyses, 999).status, 404);
  const Stored running = store_game(store, 2, 60);
  ASSERT_EQ(running.record.status, GameStatus::kRunning);
  const ApiResponse r = ask(analyses, running.record.id);
  EXPECT_EQ(r.status, 409);
  EXPECT_EQ(json::parse(r.body)["error"]["code"], "game_running");
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(analyses.computed(), 0);  // nothing was queued
}

TEST_F(Analyses, AGuidedGameIsNotAnalysed) {
  GameAnalyses analyses(store, fast_limits());
  const Stored guided = store_game(store, 2, 1 << 20, /*guided=*/true);
  ASSERT_EQ(guided.record.status, GameStatus::kFinished);
  const ApiResponse r = ask(analyses, guided.record.id);
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(json::parse(r.body)["error"]["code"], "no_analysis");
}

TEST_F(Analyses, AFinishedGameIsPendingThenAnalysedOnceAndKept) {
  const Stored game = store_game(store, 2);
  ASSERT_EQ(game.record.status, GameStatus::kFinished);
  std::string body;
  {
    GameAnalyses analyses(store, fast_limits());
    const ApiResponse first = ask(analyses, game.record.id);
    EXPECT_EQ(first.status, 202);
    EXPECT_EQ(json::parse(first.body)["status"], "pending");
    const ApiResponse done = until_done(analyses, game.record.id);
    ASSERT_EQ(done.status, 200) << done.body;
    body = done.body;
    const json j = json::parse(body);
    EXPECT_EQ(j["status"], "done");
    EXPECT_EQ(j["game_id"], game.record.id);
    ASSERT_GE(j["points"].size(), 5u);
    for (const json& p : j["points"]) {
      EXPECT_NEAR(p["chances"][0].get<double>() + p["chances"][1].get<double>(), 1.0, 0.002);
    }
    EXPECT_TRUE(j["points"].back().value("final", false));
    for (const json& d : j["drops"]) {
      EXPECT_GT(d["before"].get<double>(), d["after"].get<double>());
      if (d["decision"].is_null()) continue;
      EXPECT_TRUE(d["decision"]["computer"]["action"].contains("kind"));
      EXPECT_TRUE(d["decision"]["played"]["log"].is_array());
    }
    EXPECT_EQ(analyses.computed(), 1);
    // Asked again, and by others: the kept answer, not computed again.
    EXPECT_EQ(ask(analyses, game.record.id).body, body);
    EXPECT_EQ(ask(analyses, game.record.id, "10.0.0.2").body, body);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(analyses.computed(), 1);
  }
  // A new server reads it back from the database at once.
  GameAnalyses again(store, fast_limits());
  const ApiResponse kept = ask(again, game.record.id);
  EXPECT_EQ(kept.status, 200);
  EXPECT_EQ(kept.body, body);
  EXPECT_EQ(again.computed(), 0);
}

TEST_F(Analyses, OneClientHasOneAnalysisPendingAndTheQueueIsBounded) {
  const std::vector<Stored> games = finished_games(store, 5);
  AnalysisLimits limits = fast_limits();
  limits.queue = 2;
  Gate gate;
  GameAnalyses analyses(store, limits);
  analyses.before_compute_for_tests = [&] { gate.wait(); };
  // The first address's analysis is held; its second one is refused until then.
  EXPECT_EQ(ask(analyses, games[0].record.id, "10.0.0.1").status, 202);
  const ApiResponse second = ask(analyses, games[1].record.id, "10.0.0.1");
  EXPECT_EQ(second.status, 429);
  EXPECT_EQ(json::parse(second.body)["error"]["code"], "analysis_pending");
  // The same game asked by anyone else: pending, nothing more queued.
  EXPECT_EQ(ask(analyses, games[0].record.id, "10.0.0.9").status, 202);
  // A player from another address: one of his own, then no second one from a third address.
  EXPECT_EQ(ask(analyses, games[1].record.id, "10.0.0.2", games[0].token).status, 202);
  // The queue (2) is full: a third address waits.
  const ApiResponse full = ask(analyses, games[2].record.id, "10.0.0.3");
  EXPECT_EQ(full.status, 503);
  EXPECT_EQ(json::parse(full.body)["error"]["code"], "busy");
  gate.release();
  EXPECT_EQ(until_done(analyses, games[0].record.id).status, 200);
  EXPECT_EQ(until_done(analyses, games[1].record.id, "10.0.0.2").status, 200);
  const ApiResponse by_player = ask(analyses, games[2].record.id, "10.0.0.4", games[0].token);
  EXPECT_EQ(by_player.status, 202);  // his first one is done: he may ask again
  const ApiResponse twice = ask(analyses, games[3].record.id, "10.0.0.5", games[0].token);
  EXPECT_EQ(twice.status, 429);
  EXPECT_EQ(json::parse(twice.body)["error"]["code"], "analysis_pending");
  EXPECT_EQ(until_done(analyses, games[2].record.id, "10.0.0.4").status, 200);
  EXPECT_EQ(analyses.computed(), 3);
}

TEST_F(Analyses, AClientThatSawItsAnalysisDoneMayAskForTheNextAtOnce) {
  const std::vector<Stored> games = finished_games(store, 2);
  GameAnalyses analyses(store, fast_limits());
  Gate stored;
  // The worker lingers between storing the answer and ending the job: whatever a client sees
  // in that moment must agree with itself.
  analyses.after_store_for_tests = open_then_linger(stored);
  EXPECT_EQ(ask(analyses, games[0].record.id).status, 202);
  stored.wait();
  EXPECT_EQ(ask(analyses, games[0].record.id).status, 200);
  const ApiResponse next = ask(analyses, games[1].record.id);
  EXPECT_EQ(next.status, 202) << next.body;
  EXPECT_EQ(until_done(analyses, games[1].record.id).status, 200);
}

TEST_F(Analyses, AGameAskedForWhileItsAnswerIsStoredIsNotAnalysedAgain) {
  const std::vector<Stored> games = finished_games(store, 1);
  GameAnalyses analyses(store, fast_limits());
  Gate storing;
  analyses.before_store_for_tests = open_then_linger(storing);
  EXPECT_EQ(ask(analyses, games[0].record.id).status, 202);
  storing.wait();
  // Asked by someone else just before the answer is committed: he gets the answer.
  const ApiResponse r = ask(analyses, games[0].record.id, "10.0.0.2");
  EXPECT_EQ(r.status, 200) << r.body;
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(analyses.computed(), 1);
}

TEST_F(Analyses, AnAddressHasABucketOfNewAnalyses) {
  const std::vector<Stored> games = finished_games(store, 5);
  GameAnalyses analyses(store, fast_limits());
  // The burst is 3 new analyses; the fourth from the same address is refused.
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(until_done(analyses, games[static_cast<std::size_t>(i)].record.id).status, 200);
  }
  const ApiResponse refused = ask(analyses, games[3].record.id);
  EXPECT_EQ(refused.status, 429);
  EXPECT_EQ(json::parse(refused.body)["error"]["code"], "rate_limited");
  // Kept answers cost no analysis: still served.
  EXPECT_EQ(ask(analyses, games[0].record.id).status, 200);
  // Another address is not affected.
  EXPECT_EQ(ask(analyses, games[3].record.id, "10.0.0.7").status, 202);
}

}  // namespace
}  // namespace viktory::server
