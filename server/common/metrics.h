// Counters, gauges and the action latency histogram, rendered in the Prometheus text format at
// GET /metrics. Thread-safe: plain atomics plus a mutex for the histogram and error codes.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace viktory::server {

class Metrics {
 public:
  std::atomic<std::int64_t> connections_open{0};
  std::atomic<std::int64_t> connections_total{0};
  std::atomic<std::int64_t> connections_rejected{0};
  std::atomic<std::int64_t> http_requests{0};
  std::atomic<std::int64_t> messages_in{0};
  std::atomic<std::int64_t> messages_out{0};
  std::atomic<std::int64_t> games_created{0};
  std::atomic<std::int64_t> games_open{0};
  std::atomic<std::int64_t> games_running{0};
  std::atomic<std::int64_t> games_finished{0};
  std::atomic<std::int64_t> actions{0};
  std::atomic<std::int64_t> undos{0};
  std::atomic<std::int64_t> slow_clients_dropped{0};
  std::atomic<std::int64_t> replay_pages_built{0};
  std::atomic<std::int64_t> replay_cache_hits{0};
  std::atomic<std::int64_t> storage_failures{0};
  std::atomic<std::int64_t> frame_timeouts{0};

  void count_error(const std::string& code);
  // From receiving an action to every subscriber's message being queued.
  void observe_action_latency(double seconds);
  std::string render() const;

 private:
  static constexpr std::array<double, 12> kBuckets = {0.0005, 0.001, 0.002, 0.005, 0.01, 0.02,
                                                      0.05,   0.1,   0.2,   0.5,   1.0,  2.5};
  mutable std::mutex mutex_;
  std::map<std::string, std::int64_t> errors_;
  std::array<std::int64_t, kBuckets.size()> bucket_counts_{};
  std::int64_t latency_count_ = 0;
  double latency_sum_ = 0;
};

}  // namespace viktory::server
