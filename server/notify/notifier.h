// The notifier: a bounded queue and one worker thread that runs every delivery (push, e-mail,
// webhook) concurrently through a libcurl multi handle. The game's thread only enqueues and
// returns at once; building a request (encryption, signing), the network and the retries all
// happen on the worker. A dead or slow endpoint holds one transfer slot until its timeout and
// never delays the others: transfers run side by side, and a per-endpoint cap keeps one dead
// host from taking every slot.
//
// Budgets, so that one player cannot take the queue from everyone else: each channel has its
// own queue places; the deliveries of one owner (a player) may wait or run only up to a budget
// of their own (his dead endpoints hold his places, nobody else's); and account mails (sign-in
// links, address confirmations) have a reserve of their own and start before turn messages.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>

#include "delivery_result.h"
#include "transfer.h"

namespace viktory::notify {

enum class Channel { push, email, webhook };
constexpr std::size_t kChannelCount = 3;
const char* to_string(Channel channel);

struct Delivery {
  Channel channel = Channel::webhook;
  // Transfers to the same key (the endpoint's origin or the relay) share a concurrency cap.
  std::string endpoint_key;
  // Whose delivery it is ("player:12"): one owner's deliveries share a budget of queue places
  // and transfer slots (NotifierOptions). Empty: no owner budget (the channel's still applies).
  std::string owner;
  // An account mail (a sign-in link, an address to confirm): queued in a reserve of its own and
  // started before the others, so that turn messages can neither push it out nor delay it.
  bool priority = false;
  // Builds the request for one attempt, on the worker thread (so a retry gets a fresh VAPID
  // token and fresh encryption). A std::invalid_argument or other exception ends the delivery
  // as `failed`.
  std::function<std::unique_ptr<Transfer>()> make_transfer;
  // Called exactly once for every accepted delivery, on the worker thread, with the final
  // result: delivered, gone, failed, or retry_later when the attempts ran out or the notifier
  // shut down first. Keep it short (post to your own thread); it must not call shutdown().
  std::function<void(const DeliveryResult&)> on_result;
};

struct NotifierOptions {
  // Waiting deliveries (new and retries) of each channel; more of that channel are dropped.
  std::size_t queue_capacity = 1000;
  // Waiting priority deliveries (account mails), a reserve beside the channels' places.
  std::size_t priority_capacity = 200;
  std::size_t max_in_flight = 32;  // concurrent transfers
  std::size_t max_in_flight_per_endpoint = 4;
  // Deliveries of one owner accepted and not finished (waiting, retrying or running): more of
  // his are dropped. Ten push subscriptions to dead endpoints fill it after three turns.
  std::size_t max_pending_per_owner = 30;
  // Transfers of one owner at once: his hung endpoints hold at most these slots.
  std::size_t max_in_flight_per_owner = 4;
  int max_attempts = 5;  // including the first
  // Backoff before attempt n+1: a random delay in [d/2, d] with d = initial * 2^(n-1), at most
  // max_backoff. A Retry-After from the endpoint replaces it (up to max_retry_after).
  std::chrono::milliseconds initial_backoff{std::chrono::seconds(2)};
  std::chrono::milliseconds max_backoff{std::chrono::minutes(10)};
  std::chrono::milliseconds max_retry_after{std::chrono::hours(1)};
  // What the destructor gives pending deliveries before abandoning them.
  std::chrono::milliseconds shutdown_grace{std::chrono::seconds(5)};
};

struct ChannelStats {
  std::int64_t accepted = 0;
  std::int64_t dropped = 0;               // refused by enqueue, for any of the three reasons below
  std::int64_t dropped_queue_full = 0;    // the channel's places (or the reserve) were taken
  std::int64_t dropped_owner_budget = 0;  // the owner had max_pending_per_owner already
  std::int64_t dropped_shutdown = 0;
  std::int64_t attempts = 0;
  std::int64_t retries = 0;  // attempts scheduled again after retry_later
  std::int64_t delivered = 0;
  std::int64_t gone = 0;
  std::int64_t failed = 0;
  std::int64_t expired = 0;    // retry_later after the last attempt
  std::int64_t abandoned = 0;  // still pending at shutdown
};

struct NotifierStats {
  std::array<ChannelStats, kChannelCount> channels{};
  std::int64_t waiting = 0;  // queued or waiting for a retry
  std::int64_t in_flight = 0;
  const ChannelStats& operator[](Channel channel) const {
    return channels[static_cast<std::size_t>(channel)];
  }
};

class Notifier {
 public:
  explicit Notifier(NotifierOptions options = {});
  // shutdown(options.shutdown_grace).
  ~Notifier();
  Notifier(const Notifier&) = delete;
  Notifier& operator=(const Notifier&) = delete;

  // Takes a mutex for a moment and never waits for I/O. False (and counted as dropped) when the
  // channel's queue (or the priority reserve) is full, the owner is over his budget, or the
  // notifier is shutting down; `on_result` is then never called.
  bool enqueue(Delivery delivery);

  // Stops accepting, lets queued deliveries and transfers in progress finish for at most
  // `grace` (retries are not scheduled any more), then aborts the rest (`on_result` with
  // retry_later, "abandoned at shutdown") and joins the worker. Idempotent.
  void shutdown(std::chrono::milliseconds grace);

  NotifierStats stats() const;
  // Prometheus text: viktory_notify_* counters per channel (drops per reason) and the gauges.
  std::string render_metrics() const;

 private:
  struct Job;
  struct Active;
  using Clock = std::chrono::steady_clock;

  void run();
  void start(Job job);
  void complete(void* easy, int curl_code);
  void finish(Job& job, const DeliveryResult& result, bool abandoned);
  // Under mutex_: a job goes back to waiting (new, or a retry that is due) or leaves it.
  void add_waiting(Job job);
  void count_waiting(const Delivery& delivery, int change);
  // Under mutex_: a transfer of the job's endpoint and owner ended.
  void release_slot(const Delivery& delivery);
  // Moves ready jobs whose endpoint and owner have a free slot into `to_start`.
  void take_startable(std::deque<Job>& queue, std::vector<Job>& to_start);
  std::chrono::milliseconds backoff(int attempts);
  ChannelStats& counters(Channel channel) { return stats_[static_cast<std::size_t>(channel)]; }
  void wake();

  const NotifierOptions options_;
  mutable std::mutex mutex_;
  std::deque<Job> urgent_;  // priority deliveries, started first
  std::deque<Job> ready_;
  std::multimap<Clock::time_point, Job> delayed_;
  std::array<std::size_t, kChannelCount> waiting_{};  // ready and delayed, not priority
  std::size_t waiting_priority_ = 0;
  std::map<std::string, std::size_t> pending_per_owner_;    // accepted, not finished
  std::map<std::string, std::size_t> in_flight_per_owner_;  // running transfers
  bool stopping_ = false;
  Clock::time_point deadline_{};
  std::array<ChannelStats, kChannelCount> stats_{};
  std::int64_t in_flight_ = 0;

  std::map<std::string, std::size_t> active_per_endpoint_;

  // Worker-thread only.
  void* multi_ = nullptr;
  std::map<void*, std::unique_ptr<Active>> active_;
  std::mt19937_64 random_;

  std::mutex join_mutex_;
  std::thread worker_;
};

}  // namespace viktory::notify
