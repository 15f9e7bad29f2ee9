// Bookkeeping of open connections that needs no networking code: the per-address limit and the
// registry used to close every session on shutdown.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace viktory::server {

// Counts open connections per client address, and the bytes waiting in their send queues; a
// Guard gives its slot back when destroyed.
class ConnectionLimiter {
 public:
  explicit ConnectionLimiter(int max_per_address,
                             std::size_t max_queued_bytes_per_address = SIZE_MAX)
      : max_(max_per_address), max_bytes_(max_queued_bytes_per_address) {}

  struct Usage {
    int connections = 0;                       // under the limiter's mutex
    std::atomic<std::size_t> queued_bytes{0};  // lock-free: changed for every message sent
  };

  class Guard {
   public:
    Guard(ConnectionLimiter* owner, std::string address, std::shared_ptr<Usage> usage)
        : owner_(owner), address_(std::move(address)), usage_(std::move(usage)) {}
    ~Guard() {
      if (owner_ != nullptr) owner_->release(address_);
    }
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;
    const std::string& address() const { return address_; }

    // Counts `bytes` more queued for this address; false (and nothing counted) when that would
    // pass the address's limit: all connections of one address can pin only so much memory.
    bool reserve_bytes(std::size_t bytes) {
      const std::size_t before = usage_->queued_bytes.fetch_add(bytes);
      if (before + bytes > owner_->max_bytes_) {
        usage_->queued_bytes.fetch_sub(bytes);
        return false;
      }
      return true;
    }
    void release_bytes(std::size_t bytes) { usage_->queued_bytes.fetch_sub(bytes); }

   private:
    ConnectionLimiter* owner_;
    std::string address_;
    std::shared_ptr<Usage> usage_;
  };

  // nullptr when the address already has the maximum number of connections. `unlimited`: a
  // trusted proxy's connection, which is counted but never refused (the clients behind it are
  // limited one by one).
  std::shared_ptr<Guard> try_acquire(const std::string& address, bool unlimited = false) {
    std::lock_guard lock(mutex_);
    std::shared_ptr<Usage>& usage = usages_[address];
    if (!usage) usage = std::make_shared<Usage>();
    if (!unlimited && usage->connections >= max_) {
      if (usage->connections == 0) usages_.erase(address);
      return nullptr;
    }
    ++usage->connections;
    return std::make_shared<Guard>(this, address, usage);
  }

  int count(const std::string& address) {
    std::lock_guard lock(mutex_);
    auto it = usages_.find(address);
    return it == usages_.end() ? 0 : it->second->connections;
  }

 private:
  void release(const std::string& address) {
    std::lock_guard lock(mutex_);
    auto it = usages_.find(address);
    if (it != usages_.end() && --it->second->connections <= 0) usages_.erase(it);
  }

  std::mutex mutex_;
  int max_;
  std::size_t max_bytes_;
  std::map<std::string, std::shared_ptr<Usage>> usages_;
};

// Something the server can ask to finish (close frame, socket shutdown) when it stops.
class Closable {
 public:
  virtual ~Closable() = default;
  virtual void shutdown() = 0;
};

// Every live session, so a SIGTERM can close them all; tells when the last one is gone.
class SessionRegistry {
 public:
  void add(const std::shared_ptr<Closable>& session) {
    std::lock_guard lock(mutex_);
    sessions_[session.get()] = session;
  }
  void remove(Closable* session) {
    std::function<void()> notify;
    {
      std::lock_guard lock(mutex_);
      sessions_.erase(session);
      if (sessions_.empty() && on_empty_) notify = std::move(on_empty_);
    }
    if (notify) notify();
  }
  // Asks every session to close; `on_empty` runs once no session is left (maybe right away).
  void shutdown_all(std::function<void()> on_empty) {
    std::vector<std::shared_ptr<Closable>> live;
    {
      std::lock_guard lock(mutex_);
      for (auto& [raw, weak] : sessions_) {
        if (auto s = weak.lock()) live.push_back(std::move(s));
      }
      if (sessions_.empty()) {
        on_empty();
        return;
      }
      on_empty_ = std::move(on_empty);
    }
    for (auto& s : live) s->shutdown();
  }

 private:
  std::mutex mutex_;
  std::map<Closable*, std::weak_ptr<Closable>> sessions_;
  std::function<void()> on_empty_;
};

}  // namespace viktory::server
