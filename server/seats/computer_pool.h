// The computer players' worker pool: runs computer decisions (jobs) on worker threads, fairly
// between the games and the people who own them (docs/server.md, "The computer pool").
//
// SeatControllers decides *who* must act and hands each computer decision to the pool as a Job;
// the pool decides *when* it runs. One hostile client with many games of computers must not
// starve anyone else's computer opponent, so the pool does not serve jobs in order of arrival:
//
// - Class first: a job of a game in which a human plays (kInteractive: someone waits for the
//   answer) runs before every job of a game of computers only (kBackground: played for
//   spectators), which only gets the workers nobody else needs.
// - Then by owner. A job names its owners (keys: the game's human players, or the creator of a
//   game of computers only, and the creator's client address where the server knows it). The
//   next job is the one whose busiest owner has the fewest jobs running, then the fewest jobs
//   running or waiting, then the least recent CPU time (the pool charges every owner of a job
//   the CPU time its worker used, forgotten with a half-life), then the oldest.
// - Preemption: when an interactive job waits with every worker busy and a running job belongs
//   to a background game or to a heavier owner (rules in ComputerPool::should_hurry), the pool
//   sets that job's `stop` flag: the search returns the best action it has found so far, which
//   is applied as usual (a hurried search still yields a legal action). `stop` is distinct from
//   `cancel`, which means "the game moved on: drop the result".
// - Budget: a job with a budget has its `stop` flag set when the budget is spent, counted from
//   the moment its worker takes it (the search also watches its own time budget; this is the
//   backstop, and it counts the time the job spent before its search too).
//
// Workers run at a lower OS priority (nice, per thread) so that the network threads stay
// responsive with as many workers as cores.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace viktory::server {

struct ComputerPoolOptions {
  int threads = 0;  // workers; 0: one per core of the machine
  int nice = 10;    // added to the workers' OS niceness (per thread); 0 leaves it
  // How long an owner's use is remembered: his charged CPU time halves every `half_life`.
  std::chrono::milliseconds half_life{10000};
  // A light owner's job hurries a running job of an owner who used more than twice his CPU
  // time plus this much (about one decision of the search level).
  std::chrono::milliseconds preempt_margin{300};
  // The CPU time the calling thread has used; a job costs its difference across the run.
  // Empty: the thread's CPU clock (CLOCK_THREAD_CPUTIME_ID). Tests inject a fake.
  std::function<std::chrono::nanoseconds()> cpu_clock;
};

enum class JobClass : std::uint8_t {
  kInteractive,  // a game in which a human plays: someone waits for this decision
  kBackground,   // a game of computers only, or beyond a cap lowered since it was created
};

// The two flags of one job, shared between the pool, the job and its canceller.
struct JobFlags {
  std::atomic<bool> stop{false};    // the search returns its best so far (hurry, budget, cancel)
  std::atomic<bool> cancel{false};  // the result is moot: not applied (the game moved on)
  void cancel_now() {
    cancel.store(true);
    stop.store(true);
  }
};

class ComputerPool {
 public:
  struct Job {
    std::int64_t game_id = 0;  // for the log
    JobClass kind = JobClass::kInteractive;
    // Whose computer time this is: "player:ID", "address:ADDR" (see the top of this file).
    std::vector<std::string> owners;
    std::chrono::milliseconds budget{0};  // 0: none
    std::shared_ptr<JobFlags> flags;      // required
    // The work; it reads `flags->stop` and `flags->cancel` itself. Exceptions are logged.
    std::function<void()> run;
  };

  struct Stats {
    std::int64_t started = 0;
    std::int64_t hurried = 0;    // stopped early so that a lighter job could run
    std::int64_t timed_out = 0;  // stopped by their budget
    std::int64_t dropped = 0;    // cancelled before they ran
    std::size_t waiting = 0;
    std::size_t running = 0;
  };

  explicit ComputerPool(ComputerPoolOptions options);
  ~ComputerPool();  // drops the waiting jobs, stops the running ones and joins the workers
  ComputerPool(const ComputerPool&) = delete;
  ComputerPool& operator=(const ComputerPool&) = delete;

  void submit(Job job);
  int threads() const { return static_cast<int>(workers_.size()); }
  Stats stats() const;
  // The CPU time charged to an owner so far, decayed to now (tests, and to explain a choice).
  double usage_seconds(const std::string& owner);
  // Adds to an owner's charged CPU time as if his jobs had used it (tests).
  void charge_for_testing(const std::string& owner, std::chrono::milliseconds used);

 private:
  struct Owner {
    int running = 0;
    int waiting = 0;
    double usage = 0;  // seconds, decayed to `updated`
    std::chrono::steady_clock::time_point updated;
  };
  struct Entry {
    Job job;
    std::uint64_t order = 0;  // arrival, for ties
    std::chrono::steady_clock::time_point deadline;
    std::chrono::steady_clock::time_point submitted;  // for the log
    bool hurried = false;
    bool running = false;
  };
  // What the scheduler compares (smaller runs first).
  struct Weight {
    int kind = 0;
    int running = 0;  // of the owner with the most jobs running
    int demand = 0;   // jobs running or waiting, of the owner with the most
    double usage = 0;
    std::uint64_t order = 0;
    bool operator<(const Weight& o) const;
  };

  void work();
  void watch_budgets();
  Owner& owner(const std::string& key, std::chrono::steady_clock::time_point now);
  Weight weight(const Entry& e, std::chrono::steady_clock::time_point now);
  bool should_hurry(const Weight& waiting, const Weight& running) const;
  void hurry_for_waiting(std::chrono::steady_clock::time_point now);   // under mutex_
  void forget_idle_owners(std::chrono::steady_clock::time_point now);  // under mutex_
  std::chrono::nanoseconds cpu_now() const;

  ComputerPoolOptions options_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;     // workers: a job to take, or stopping
  std::condition_variable budgets_;  // the budget watcher: a new deadline, or stopping
  std::list<Entry> waiting_;
  std::list<Entry> running_;
  std::unordered_map<std::string, Owner> owners_;
  std::uint64_t next_order_ = 0;
  int idle_ = 0;
  bool stopping_ = false;
  Stats stats_;
  std::vector<std::thread> workers_;
  std::thread budget_watcher_;
};

}  // namespace viktory::server
