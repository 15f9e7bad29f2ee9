// Collects the notifier's final results (delivered on its worker thread) for a test to wait on.
#pragma once

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "delivery_result.h"

namespace viktory::notify::testing {

class Results {
 public:
  // A callback that records its result under `label`.
  std::function<void(const DeliveryResult&)> callback(std::string label) {
    return [this, label = std::move(label)](const DeliveryResult& result) {
      std::lock_guard lock(mutex_);
      by_label_[label].push_back(result);
      order_.push_back(label);
      changed_.notify_all();
    };
  }
  bool wait_for(const std::string& label, std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, timeout, [&] { return by_label_.contains(label); });
  }
  bool wait_for_count(std::size_t count, std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, timeout, [&] { return order_.size() >= count; });
  }
  bool has(const std::string& label) const {
    std::lock_guard lock(mutex_);
    return by_label_.contains(label);
  }
  DeliveryResult get(const std::string& label) const {
    std::lock_guard lock(mutex_);
    const auto it = by_label_.find(label);
    return it == by_label_.end() || it->second.empty() ? DeliveryResult{} : it->second.front();
  }
  std::size_t count(const std::string& label) const {
    std::lock_guard lock(mutex_);
    const auto it = by_label_.find(label);
    return it == by_label_.end() ? 0 : it->second.size();
  }
  std::vector<std::string> order() const {
    std::lock_guard lock(mutex_);
    return order_;
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, std::vector<DeliveryResult>> by_label_;
  std::vector<std::string> order_;
};

}  // namespace viktory::notify::testing
