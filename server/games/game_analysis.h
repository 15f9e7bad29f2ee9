// A look back after the game (GET /api/games/<id>/analysis, docs/protocol.md): each player's
// chances of winning at every turn start of a finished game and what the computer would have
// played where they fell most (engine/ai/lookback.h). Only for finished games (409
// game_running before the end: the analysis works on the true states, every tile as it lay),
// never for a guided game (404 no_analysis: it starts from a prepared position against a
// passive computer; there is nothing to learn from its chances).
//
// Computed off the request path, on one worker thread of its own at the lowest OS priority
// (not the computer pool: an analysis takes seconds, and the pool's workers must stay free for
// the computer seats' decisions): the first request queues it and is answered 202 pending, like
// every request until it is done; the result is kept in the database (table game_analyses), so
// each game is analysed once, whoever asks.
//
// Budgets (what one hostile client can do): every request is charged to the client address's
// bucket by the Hub; a new analysis also takes a token of the address's own bucket of analyses
// (`per_address_per_hour`); an address and a signed-in player have at most one analysis
// waiting or running; and the queue holds at most `queue` analyses (503 busy beyond). So one
// client keeps at most one low-priority thread busy, and many together one thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>

#include "common.h"
#include "lookback.h"
#include "rate_limit.h"
#include "store.h"

namespace viktory::server {

struct AnalysisLimits {
  int queue = 16;                    // analyses waiting or running, server-wide; 0: no analyses
  double per_address_per_hour = 12;  // new analyses per client address (burst 3)
  int nice = 19;                     // added to the worker's OS niceness
  ai::LookbackSettings settings;     // `seed` is replaced by the game's id
};

class GameAnalyses {
 public:
  // `store`: the Store of the game logic (the results are written through its connection);
  // reads go through read-only connections of this class's own.
  GameAnalyses(Store& store, AnalysisLimits limits);
  ~GameAnalyses();  // stops the analysis under way and joins the worker
  GameAnalyses(const GameAnalyses&) = delete;
  GameAnalyses& operator=(const GameAnalyses&) = delete;

  // The whole request. `query`: invite. Thread-safe.
  ApiResponse handle(std::int64_t game_id, const std::map<std::string, std::string>& query,
                     std::string_view authorization, std::string_view address);

  // Analyses computed (and stored) so far, by this server (tests: a cached answer is not
  // computed again).
  std::int64_t computed() const { return computed_.load(); }
  // Tests: run by the worker before each analysis (to hold it while requests come).
  std::function<void()> before_compute_for_tests;
  // Tests: run by the worker as it stores an answer, before and after the commit.
  std::function<void()> before_store_for_tests;
  std::function<void()> after_store_for_tests;

  // The answer's JSON for a finished game, computed now (the worker's work; bench and tests).
  static std::string analyse(Store& store, const GameRecord& record,
                             const ai::LookbackSettings& settings,
                             const std::atomic<bool>* cancel = nullptr);

 private:
  struct Job {
    GameRecord record;
    std::string address;
    std::int64_t player_id = 0;
  };
  void work();
  void finish(const Job& job);  // under mutex_: the job's pending marks go

  Store& store_;
  AnalysisLimits limits_;
  std::string db_path_;

  // A request holds it from reading the stored answer to queueing the job, and the worker from
  // storing an answer to ending its job: a request sees either the answer or the job pending,
  // never neither (it would analyse the game again) nor both (it would refuse the next one).
  std::mutex mutex_;             // everything below
  std::optional<Store> lookup_;  // the request side's read-only connection
  std::condition_variable wake_;
  std::deque<Job> queue_;
  std::set<std::int64_t> pending_games_;  // waiting or running
  std::set<std::string> pending_addresses_;
  std::set<std::int64_t> pending_players_;
  std::set<std::int64_t> failed_;  // games whose analysis failed (a damaged log): not retried
  AddressBuckets buckets_;
  bool stopping_ = false;
  std::atomic<bool> cancel_{false};
  std::atomic<std::int64_t> computed_{0};
  std::thread worker_;  // last: started once everything else is there
};

}  // namespace viktory::server
