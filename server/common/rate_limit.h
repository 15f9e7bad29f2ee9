// Token buckets: per connection (in the Hub) and per client address (sign-ups, replays, the
// expensive WebSocket requests of all connections of one address). Not thread-safe: callers
// hold their own lock.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace viktory::server {

struct TokenBucket {
  double tokens = 0;
  std::chrono::steady_clock::time_point last;

  // Refills at `per_second` up to `burst`, then takes `cost` tokens if there are that many.
  bool take(double per_second, double burst, double cost = 1) {
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - last).count();
    last = now;
    tokens = std::min(burst, tokens + elapsed * per_second);
    if (tokens < cost) return false;
    tokens -= cost;
    return true;
  }
};

// One bucket per key (a client address), created full. Full buckets are forgotten when the
// table grows, so it stays small whatever addresses come along.
class AddressBuckets {
 public:
  AddressBuckets(double per_second, double burst) : per_second_(per_second), burst_(burst) {}

  bool take(std::string_view address, double cost = 1) {
    if (buckets_.size() > kMaxKept) prune();
    auto [it, fresh] = buckets_.try_emplace(std::string(address));
    if (fresh) it->second = TokenBucket{burst_, std::chrono::steady_clock::now()};
    return it->second.take(per_second_, burst_, cost);
  }
  // A charge another server took (ChargeSink, below): spent here too, down to an empty bucket.
  void spend(std::string_view address, double cost) {
    take(address, 0);  // refilled (and made, full, if new)
    TokenBucket& bucket = buckets_.find(address)->second;
    bucket.tokens = std::max(0.0, bucket.tokens - cost);
  }

 private:
  static constexpr std::size_t kMaxKept = 10000;

  void prune() {
    for (auto it = buckets_.begin(); it != buckets_.end();) {
      TokenBucket probe = it->second;
      probe.take(per_second_, burst_, 0);
      it = probe.tokens >= burst_ - 1 ? buckets_.erase(it) : std::next(it);
    }
  }

  double per_second_;
  double burst_;
  std::map<std::string, TokenBucket, std::less<>> buckets_;
};

// Several servers on one database (peer_bus.h) share the budgets of what they all spend: an
// inbox that receives account mails, the accounts one client address makes. A charge taken at
// one server is told to the sink (the budget's name, its key, the cost) and spent at the
// others. The keys are hashed (shared_budget_key, token.h), so no client address or e-mail
// address travels between the servers.
using ChargeSink =
    std::function<void(const std::string& budget, const std::string& key, double cost)>;

}  // namespace viktory::server
