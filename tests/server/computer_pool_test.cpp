// The computer pool's scheduling (computer_pool.h) without a bot: jobs whose length the test
// controls (each runs until the test releases it or the pool stops it) and a fake CPU clock,
// so that who runs first, who is hurried and what is charged do not depend on the machine.
#include "computer_pool.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace viktory::server {
namespace {

using namespace std::chrono_literals;

// The CPU time "used" by the calling worker thread: a job adds its cost to it.
thread_local std::chrono::nanoseconds fake_cpu{0};

ComputerPoolOptions options(int threads) {
  ComputerPoolOptions o;
  o.threads = threads;
  o.nice = 0;
  o.half_life = std::chrono::hours(1);  // nothing decays during a test
  o.cpu_clock = [] { return fake_cpu; };
  return o;
}

class Jobs {
 public:
  // A job that records its start, "uses" `cost` of CPU time and then waits until the test
  // releases it or its stop flag is set.
  ComputerPool::Job make(const std::string& name, std::vector<std::string> owners,
                         JobClass kind = JobClass::kInteractive,
                         std::chrono::milliseconds cost = 300ms) {
    ComputerPool::Job job;
    job.kind = kind;
    job.owners = std::move(owners);
    job.flags = std::make_shared<JobFlags>();
    flags_[name] = job.flags;
    job.run = [this, name, cost, flags = job.flags] {
      {
        std::lock_guard lock(mutex_);
        started_.push_back(name);
      }
      changed_.notify_all();
      fake_cpu += cost;
      std::unique_lock lock(mutex_);
      while (!released_.count(name) && !flags->stop.load()) changed_.wait_for(lock, 1ms);
      if (!released_.count(name)) stopped_.insert(name);
      finished_.insert(name);
      changed_.notify_all();
    };
    return job;
  }
  void release(const std::string& name) {
    {
      std::lock_guard lock(mutex_);
      released_.insert(name);
    }
    changed_.notify_all();
  }
  // Waits (at most 20 s) for the job to start or to finish.
  bool started(const std::string& name) {
    return wait(
        [&] { return std::find(started_.begin(), started_.end(), name) != started_.end(); });
  }
  bool finished(const std::string& name) {
    return wait([&] { return finished_.count(name) != 0; });
  }
  std::vector<std::string> order() {
    std::lock_guard lock(mutex_);
    return started_;
  }
  // Whether the job ended because the pool set its stop flag (hurried or out of budget).
  bool stopped(const std::string& name) {
    std::lock_guard lock(mutex_);
    return stopped_.count(name) != 0;
  }
  JobFlags& flags(const std::string& name) { return *flags_.at(name); }

 private:
  template <typename Pred>
  bool wait(Pred pred) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, 20s, pred);
  }
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> started_;
  std::set<std::string> released_, stopped_, finished_;
  std::map<std::string, std::shared_ptr<JobFlags>> flags_;
};

TEST(ComputerPool, ALightOwnersJobRunsBeforeAHeavyOwnersQueuedJobs) {
  Jobs jobs;
  ComputerPool pool(options(1));
  pool.charge_for_testing("player:heavy", 10s);  // he used the computers a lot lately
  pool.submit(jobs.make("busy", {"player:other"}));
  ASSERT_TRUE(jobs.started("busy"));
  // Queued while the only worker is busy: the heavy owner's first, the light one's last.
  pool.submit(jobs.make("heavy 1", {"player:heavy"}));
  pool.submit(jobs.make("heavy 2", {"player:heavy"}));
  pool.submit(jobs.make("light", {"player:light"}));
  EXPECT_EQ(pool.stats().hurried, 0);  // the busy job's owner is no heavier than anyone
  jobs.release("busy");
  ASSERT_TRUE(jobs.started("light"));
  jobs.release("light");
  ASSERT_TRUE(jobs.started("heavy 1"));
  jobs.release("heavy 1");
  ASSERT_TRUE(jobs.started("heavy 2"));
  jobs.release("heavy 2");
  ASSERT_TRUE(jobs.finished("heavy 2"));
  EXPECT_EQ(jobs.order(), (std::vector<std::string>{"busy", "light", "heavy 1", "heavy 2"}));
}

TEST(ComputerPool, AnOwnerWithFewerJobsOutstandingGoesFirstAtEqualUse) {
  Jobs jobs;
  ComputerPool pool(options(1));
  pool.submit(jobs.make("busy", {"player:other"}));
  ASSERT_TRUE(jobs.started("busy"));
  // One client with many games queues many jobs; the player with one game goes first.
  for (int i = 0; i < 3; ++i) pool.submit(jobs.make("many " + std::to_string(i), {"player:many"}));
  pool.submit(jobs.make("one", {"player:one"}));
  jobs.release("busy");
  ASSERT_TRUE(jobs.started("one"));
  EXPECT_EQ(jobs.order()[1], "one");
  for (const char* name : {"one", "many 0", "many 1", "many 2"}) jobs.release(name);
  EXPECT_TRUE(jobs.finished("many 2"));
}

TEST(ComputerPool, AWaitingLightJobHurriesAHeavyOwnersSearchWhoseResultStillCounts) {
  Jobs jobs;
  ComputerPool pool(options(1));
  pool.charge_for_testing("player:heavy", 10s);
  // No budget: without the hurry it would run until the test ends.
  pool.submit(jobs.make("heavy", {"player:heavy"}));
  ASSERT_TRUE(jobs.started("heavy"));
  pool.submit(jobs.make("light", {"player:light"}));
  ASSERT_TRUE(jobs.started("light")) << "the light job waited behind the heavy one";
  EXPECT_TRUE(jobs.stopped("heavy"));
  // Hurried, not cancelled: the search's best so far is applied.
  EXPECT_FALSE(jobs.flags("heavy").cancel.load());
  EXPECT_EQ(pool.stats().hurried, 1);
  jobs.release("light");
  EXPECT_TRUE(jobs.finished("light"));
  EXPECT_FALSE(jobs.stopped("light"));
}

TEST(ComputerPool, AnInteractiveJobHurriesAGameOfComputersOnly) {
  Jobs jobs;
  ComputerPool pool(options(1));
  pool.submit(jobs.make("spectated", {"player:creator"}, JobClass::kBackground));
  ASSERT_TRUE(jobs.started("spectated"));
  // Same owner use (none), but a human waits for this one.
  pool.submit(jobs.make("played", {"player:human"}, JobClass::kInteractive));
  ASSERT_TRUE(jobs.started("played"));
  EXPECT_TRUE(jobs.stopped("spectated"));
  EXPECT_FALSE(jobs.flags("spectated").cancel.load());
  jobs.release("played");
  EXPECT_TRUE(jobs.finished("played"));
}

TEST(ComputerPool, HisOwnNextJobAndGamesOfComputersOnlyHurryNobody) {
  Jobs jobs;
  ComputerPool pool(options(1));
  pool.submit(jobs.make("a", {"player:a"}));
  ASSERT_TRUE(jobs.started("a"));
  pool.submit(jobs.make("a again", {"player:a"}));
  pool.submit(jobs.make("spectated", {"player:c"}, JobClass::kBackground));  // nobody waits
  std::this_thread::sleep_for(50ms);  // time to hurry, if the pool wrongly would
  EXPECT_EQ(pool.stats().hurried, 0);
  for (const char* name : {"a", "a again", "spectated"}) jobs.release(name);
  ASSERT_TRUE(jobs.finished("spectated"));
  EXPECT_FALSE(jobs.stopped("a"));
  EXPECT_EQ(pool.stats().hurried, 0);
}

TEST(ComputerPool, AnOwnerOfSimilarUseDoesNotHurry) {
  Jobs jobs;
  ComputerPool pool(options(1));
  pool.charge_for_testing("player:a", 400ms);
  pool.charge_for_testing("player:b", 300ms);  // a little lighter: not enough to cut a short
  pool.submit(jobs.make("a", {"player:a"}));
  ASSERT_TRUE(jobs.started("a"));
  pool.submit(jobs.make("b", {"player:b"}));
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(pool.stats().hurried, 0);
  for (const char* name : {"a", "b"}) jobs.release(name);
  ASSERT_TRUE(jobs.finished("b"));
  EXPECT_FALSE(jobs.stopped("a"));
}

TEST(ComputerPool, AnOwnerHoldingEveryWorkerGivesOneUp) {
  Jobs jobs;
  ComputerPool pool(options(2));
  pool.submit(jobs.make("greedy 1", {"player:greedy"}));
  pool.submit(jobs.make("greedy 2", {"player:greedy"}));
  ASSERT_TRUE(jobs.started("greedy 1"));
  ASSERT_TRUE(jobs.started("greedy 2"));
  pool.submit(jobs.make("modest", {"player:modest"}));
  ASSERT_TRUE(jobs.started("modest"));
  EXPECT_EQ(pool.stats().hurried, 1);  // one of his two, not both
  EXPECT_NE(jobs.stopped("greedy 1"), jobs.stopped("greedy 2"));
  for (const char* name : {"greedy 1", "greedy 2", "modest"}) jobs.release(name);
  EXPECT_TRUE(jobs.finished("modest"));
}

TEST(ComputerPool, AnAddressIsOneOwnerWhateverAccountsItUses) {
  Jobs jobs;
  ComputerPool pool(options(2));
  // Two accounts of one address hold both workers; a player elsewhere gets one of them.
  pool.submit(jobs.make("first account", {"player:1", "address:192.0.2.9"}));
  pool.submit(jobs.make("second account", {"player:2", "address:192.0.2.9"}));
  ASSERT_TRUE(jobs.started("first account"));
  ASSERT_TRUE(jobs.started("second account"));
  pool.submit(jobs.make("elsewhere", {"player:3", "address:198.51.100.4"}));
  ASSERT_TRUE(jobs.started("elsewhere"));
  EXPECT_EQ(pool.stats().hurried, 1);
  for (const char* name : {"first account", "second account", "elsewhere"}) jobs.release(name);
  EXPECT_TRUE(jobs.finished("elsewhere"));
}

TEST(ComputerPool, ABudgetStopsAJobThatDoesNotStopByItself) {
  Jobs jobs;
  ComputerPool pool(options(1));
  ComputerPool::Job job = jobs.make("endless", {"player:a"});
  job.budget = 50ms;
  pool.submit(std::move(job));
  ASSERT_TRUE(jobs.finished("endless")) << "the job ran past its budget";
  EXPECT_TRUE(jobs.stopped("endless"));
  EXPECT_FALSE(jobs.flags("endless").cancel.load());  // its result still counts
  EXPECT_EQ(pool.stats().hurried, 0);
}

TEST(ComputerPool, CancelledJobsAreDroppedUnrun) {
  Jobs jobs;
  ComputerPool pool(options(1));
  pool.submit(jobs.make("busy", {"player:a"}));
  ASSERT_TRUE(jobs.started("busy"));
  pool.submit(jobs.make("moot", {"player:b"}));
  pool.submit(jobs.make("next", {"player:b"}));
  jobs.flags("moot").cancel_now();  // the game moved on meanwhile
  jobs.release("busy");
  ASSERT_TRUE(jobs.started("next"));
  jobs.release("next");
  ASSERT_TRUE(jobs.finished("next"));
  EXPECT_EQ(jobs.order(), (std::vector<std::string>{"busy", "next"}));
  EXPECT_EQ(pool.stats().dropped, 1);
}

TEST(ComputerPool, AJobsCpuTimeIsChargedToEachOfItsOwners) {
  Jobs jobs;
  ComputerPool pool(options(1));
  pool.submit(jobs.make("job", {"player:a", "address:192.0.2.1"}, JobClass::kInteractive, 2s));
  jobs.release("job");
  ASSERT_TRUE(jobs.finished("job"));
  // The worker charges after the run: wait until the pool has taken it back.
  for (int i = 0; i < 2000 && pool.stats().running > 0; ++i) std::this_thread::sleep_for(1ms);
  EXPECT_NEAR(pool.usage_seconds("player:a"), 2.0, 0.01);
  EXPECT_NEAR(pool.usage_seconds("address:192.0.2.1"), 2.0, 0.01);
  EXPECT_EQ(pool.usage_seconds("player:b"), 0);
}

TEST(ComputerPool, OneWorkerPerCoreByDefault) {
  ComputerPoolOptions o;
  o.nice = 0;
  ComputerPool pool(o);
  EXPECT_EQ(pool.threads(), static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
}

}  // namespace
}  // namespace viktory::server
