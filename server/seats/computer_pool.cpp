#include "computer_pool.h"

#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>

#include "thread_priority.h"

namespace viktory::server {

namespace {

using Clock = std::chrono::steady_clock;

std::chrono::nanoseconds thread_cpu_time() {
  timespec ts{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return std::chrono::nanoseconds(0);
  return std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
}

}  // namespace

bool ComputerPool::Weight::operator<(const Weight& o) const {
  if (kind != o.kind) return kind < o.kind;
  if (running != o.running) return running < o.running;
  if (demand != o.demand) return demand < o.demand;
  if (usage != o.usage) return usage < o.usage;
  return order < o.order;
}

ComputerPool::ComputerPool(ComputerPoolOptions options) : options_(std::move(options)) {
  int threads = options_.threads;
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  workers_.reserve(static_cast<std::size_t>(threads));
  for (int i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
  budget_watcher_ = std::thread([this] { watch_budgets(); });
}

ComputerPool::~ComputerPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    stats_.dropped += static_cast<std::int64_t>(waiting_.size());
    waiting_.clear();
    for (Entry& e : running_) e.job.flags->stop.store(true);
  }
  wake_.notify_all();
  budgets_.notify_all();
  for (std::thread& t : workers_) t.join();
  budget_watcher_.join();
}

std::chrono::nanoseconds ComputerPool::cpu_now() const {
  return options_.cpu_clock ? options_.cpu_clock() : thread_cpu_time();
}

ComputerPool::Owner& ComputerPool::owner(const std::string& key, Clock::time_point now) {
  Owner& o = owners_[key];
  if (o.updated != Clock::time_point{} && o.usage > 0 && options_.half_life.count() > 0) {
    const double elapsed = std::chrono::duration<double>(now - o.updated).count();
    const double half_life = std::chrono::duration<double>(options_.half_life).count();
    o.usage *= std::exp2(-std::max(0.0, elapsed) / half_life);
  }
  o.updated = now;
  return o;
}

ComputerPool::Weight ComputerPool::weight(const Entry& e, Clock::time_point now) {
  Weight w;
  w.kind = static_cast<int>(e.job.kind);
  w.order = e.order;
  for (const std::string& key : e.job.owners) {
    const Owner& o = owner(key, now);
    w.running = std::max(w.running, o.running);
    w.demand = std::max(w.demand, o.running + o.waiting);
    w.usage = std::max(w.usage, o.usage);
  }
  return w;
}

bool ComputerPool::should_hurry(const Weight& waiting, const Weight& running) const {
  if (waiting.kind != static_cast<int>(JobClass::kInteractive)) return false;
  if (running.kind != waiting.kind) return running.kind > waiting.kind;  // a background job
  // An owner who holds at least two more workers than the waiting one would.
  if (waiting.running + 1 < running.running) return true;
  if (waiting.running > 0) return false;
  // The waiting owner has nothing running: an owner with more jobs outstanding, or one who
  // used much more CPU time lately, gives way.
  if (waiting.demand < running.demand) return true;
  const double margin = std::chrono::duration<double>(options_.preempt_margin).count();
  return running.usage > 2 * waiting.usage + margin;
}

void ComputerPool::hurry_for_waiting(Clock::time_point now) {
  if (waiting_.empty()) return;
  // Places that will free up anyway: idle workers, and jobs already told to hurry.
  int free_places = idle_;
  for (const Entry& r : running_) free_places += r.hurried ? 1 : 0;
  std::vector<std::pair<Weight, const Entry*>> queue;
  queue.reserve(waiting_.size());
  for (const Entry& w : waiting_) {
    if (!w.job.flags->cancel.load()) queue.emplace_back(weight(w, now), &w);
  }
  std::sort(queue.begin(), queue.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [waiting, entry] : queue) {
    if (waiting.kind != static_cast<int>(JobClass::kInteractive)) return;  // sorted by class
    if (free_places > 0) {
      --free_places;  // this one takes a place that is freeing up
      continue;
    }
    Entry* victim = nullptr;
    Weight heaviest;
    for (Entry& r : running_) {
      if (r.hurried || !r.running) continue;
      const Weight w = weight(r, now);
      if (victim == nullptr || heaviest < w) {
        victim = &r;
        heaviest = w;
      }
    }
    if (victim == nullptr || !should_hurry(waiting, heaviest)) return;
    victim->hurried = true;
    victim->job.flags->stop.store(true);
    ++stats_.hurried;
    spdlog::debug("computer_hurried game={} for_game={}", victim->job.game_id, entry->job.game_id);
  }
}

void ComputerPool::forget_idle_owners(Clock::time_point now) {
  if (owners_.size() < 1024) return;
  for (auto it = owners_.begin(); it != owners_.end();) {
    Owner& o = owner(it->first, now);
    if (o.running == 0 && o.waiting == 0 && o.usage < 0.001) {
      it = owners_.erase(it);
    } else {
      ++it;
    }
  }
}

void ComputerPool::submit(Job job) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    const Clock::time_point now = Clock::now();
    Entry e;
    e.job = std::move(job);
    e.order = next_order_++;
    e.submitted = now;
    for (const std::string& key : e.job.owners) ++owner(key, now).waiting;
    waiting_.push_back(std::move(e));
    hurry_for_waiting(now);
  }
  wake_.notify_one();
}

void ComputerPool::work() {
  lower_thread_priority(options_.nice, "computer workers");
  std::unique_lock lock(mutex_);
  for (;;) {
    ++idle_;
    wake_.wait(lock, [&] { return stopping_ || !waiting_.empty(); });
    --idle_;
    if (stopping_) return;
    Clock::time_point now = Clock::now();
    // The lightest job; cancelled ones are dropped on the way.
    auto best = waiting_.end();
    Weight best_weight;
    for (auto it = waiting_.begin(); it != waiting_.end();) {
      if (it->job.flags->cancel.load()) {
        for (const std::string& key : it->job.owners) --owner(key, now).waiting;
        ++stats_.dropped;
        it = waiting_.erase(it);
        continue;
      }
      const Weight w = weight(*it, now);
      if (best == waiting_.end() || w < best_weight) {
        best = it;
        best_weight = w;
      }
      ++it;
    }
    if (best == waiting_.end()) continue;
    running_.splice(running_.end(), waiting_, best);
    const auto entry = std::prev(running_.end());
    for (const std::string& key : entry->job.owners) {
      Owner& o = owner(key, now);
      --o.waiting;
      ++o.running;
    }
    entry->running = true;
    if (entry->job.budget.count() > 0) {
      entry->deadline = now + entry->job.budget;
      budgets_.notify_one();
    }
    ++stats_.started;
    hurry_for_waiting(now);  // another job may still wait for a place
    lock.unlock();

    const std::chrono::nanoseconds cpu_before = cpu_now();
    const Clock::time_point started = Clock::now();
    try {
      entry->job.run();
    } catch (const std::exception& e) {
      spdlog::error("computer_job_failed game={} error=\"{}\"", entry->job.game_id, e.what());
    }
    const double used = std::chrono::duration<double>(cpu_now() - cpu_before).count();
    lock.lock();
    now = Clock::now();
    spdlog::debug(
        "computer_job game={} background={} waited_ms={:.1f} ran_ms={:.1f} cpu_ms={:.1f} "
        "hurried={}",
        entry->job.game_id, entry->job.kind == JobClass::kBackground,
        std::chrono::duration<double, std::milli>(started - entry->submitted).count(),
        std::chrono::duration<double, std::milli>(now - started).count(), used * 1000,
        entry->hurried);
    for (const std::string& key : entry->job.owners) {
      Owner& o = owner(key, now);
      --o.running;
      o.usage += std::max(0.0, used);
    }
    running_.erase(entry);
    forget_idle_owners(now);
  }
}

void ComputerPool::watch_budgets() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    const Clock::time_point now = Clock::now();
    Clock::time_point next = Clock::time_point::max();
    for (Entry& e : running_) {
      if (!e.running || e.job.budget.count() <= 0 || e.job.flags->stop.load()) continue;
      if (e.deadline <= now) {
        e.job.flags->stop.store(true);  // spent: the search returns its best so far
      } else {
        next = std::min(next, e.deadline);
      }
    }
    if (next == Clock::time_point::max()) {
      budgets_.wait(lock);
    } else {
      budgets_.wait_until(lock, next);
    }
  }
}

ComputerPool::Stats ComputerPool::stats() const {
  std::lock_guard lock(mutex_);
  Stats s = stats_;
  s.waiting = waiting_.size();
  s.running = running_.size();
  return s;
}

double ComputerPool::usage_seconds(const std::string& key) {
  std::lock_guard lock(mutex_);
  return owner(key, Clock::now()).usage;
}

void ComputerPool::charge_for_testing(const std::string& key, std::chrono::milliseconds used) {
  std::lock_guard lock(mutex_);
  owner(key, Clock::now()).usage += std::chrono::duration<double>(used).count();
}

}  // namespace viktory::server
