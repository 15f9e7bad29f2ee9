// Bookkeeping of open connections that needs no networking code: the per-address limit and the
// registry used to close every session on shutdown.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace viktory::server {

// Counts open connections per client address; a Guard gives its slot back when destroyed.
class ConnectionLimiter {
 public:
  explicit ConnectionLimiter(int max_per_address) : max_(max_per_address) {}

  class Guard {
   public:
    Guard(ConnectionLimiter* owner, std::string address)
        : owner_(owner), address_(std::move(address)) {}
    ~Guard() {
      if (owner_ != nullptr) owner_->release(address_);
    }
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;
    const std::string& address() const { return address_; }

   private:
    ConnectionLimiter* owner_;
    std::string address_;
  };

  // nullptr when the address already has the maximum number of connections.
  std::shared_ptr<Guard> try_acquire(const std::string& address) {
    std::lock_guard lock(mutex_);
    int& count = counts_[address];
    if (count >= max_) {
      if (count == 0) counts_.erase(address);
      return nullptr;
    }
    ++count;
    return std::make_shared<Guard>(this, address);
  }

  int count(const std::string& address) {
    std::lock_guard lock(mutex_);
    auto it = counts_.find(address);
    return it == counts_.end() ? 0 : it->second;
  }

 private:
  void release(const std::string& address) {
    std::lock_guard lock(mutex_);
    auto it = counts_.find(address);
    if (it != counts_.end() && --it->second <= 0) counts_.erase(it);
  }

  std::mutex mutex_;
  int max_;
  std::map<std::string, int> counts_;
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
