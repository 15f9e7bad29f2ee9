#include "notifier.h"

#include <curl/curl.h>

#include <algorithm>
#include <vector>

namespace viktory::notify {

const char* to_string(Channel channel) {
  switch (channel) {
    case Channel::push:
      return "push";
    case Channel::email:
      return "email";
    case Channel::webhook:
      return "webhook";
  }
  return "webhook";
}

struct Notifier::Job {
  Delivery delivery;
  int attempts = 0;
};

struct Notifier::Active {
  Job job;
  std::unique_ptr<Transfer> transfer;
};

Notifier::Notifier(NotifierOptions options) : options_(options), random_(std::random_device{}()) {
  ensure_curl_initialised();
  multi_ = curl_multi_init();
  if (multi_ == nullptr) throw std::runtime_error("curl_multi_init failed");
  worker_ = std::thread([this] { run(); });
}

Notifier::~Notifier() {
  shutdown(options_.shutdown_grace);
  curl_multi_cleanup(multi_);
}

bool Notifier::enqueue(Delivery delivery) {
  {
    std::lock_guard lock(mutex_);
    ChannelStats& channel = counters(delivery.channel);
    const std::size_t waiting = delivery.priority
                                    ? waiting_priority_
                                    : waiting_[static_cast<std::size_t>(delivery.channel)];
    const std::size_t capacity =
        delivery.priority ? options_.priority_capacity : options_.queue_capacity;
    std::int64_t* reason = nullptr;
    if (stopping_) {
      reason = &channel.dropped_shutdown;
    } else if (waiting >= capacity) {
      reason = &channel.dropped_queue_full;
    } else if (!delivery.owner.empty()) {
      const auto it = pending_per_owner_.find(delivery.owner);
      if (it != pending_per_owner_.end() && it->second >= options_.max_pending_per_owner) {
        reason = &channel.dropped_owner_budget;
      }
    }
    if (reason != nullptr) {
      ++*reason;
      ++channel.dropped;
      return false;
    }
    ++channel.accepted;
    if (!delivery.owner.empty()) ++pending_per_owner_[delivery.owner];
    add_waiting(Job{std::move(delivery), 0});
  }
  wake();
  return true;
}

void Notifier::count_waiting(const Delivery& delivery, int change) {
  std::size_t& count =
      delivery.priority ? waiting_priority_ : waiting_[static_cast<std::size_t>(delivery.channel)];
  count = change > 0 ? count + 1 : count - 1;
}

void Notifier::add_waiting(Job job) {
  count_waiting(job.delivery, +1);
  (job.delivery.priority ? urgent_ : ready_).push_back(std::move(job));
}

void Notifier::release_slot(const Delivery& delivery) {
  --in_flight_;
  if (--active_per_endpoint_[delivery.endpoint_key] == 0) {
    active_per_endpoint_.erase(delivery.endpoint_key);
  }
  if (!delivery.owner.empty() && --in_flight_per_owner_[delivery.owner] == 0) {
    in_flight_per_owner_.erase(delivery.owner);
  }
}

void Notifier::take_startable(std::deque<Job>& queue, std::vector<Job>& to_start) {
  // Oldest first, skipping endpoints and owners at their cap so they do not hold up the others.
  for (auto it = queue.begin();
       it != queue.end() && active_.size() + to_start.size() < options_.max_in_flight;) {
    const Delivery& d = it->delivery;
    const auto endpoint = active_per_endpoint_.find(d.endpoint_key);
    const bool endpoint_full = endpoint != active_per_endpoint_.end() &&
                               endpoint->second >= options_.max_in_flight_per_endpoint;
    const auto owner =
        d.owner.empty() ? in_flight_per_owner_.end() : in_flight_per_owner_.find(d.owner);
    const bool owner_full =
        owner != in_flight_per_owner_.end() && owner->second >= options_.max_in_flight_per_owner;
    if (endpoint_full || owner_full) {
      ++it;
      continue;
    }
    ++active_per_endpoint_[d.endpoint_key];
    if (!d.owner.empty()) ++in_flight_per_owner_[d.owner];
    ++in_flight_;
    count_waiting(d, -1);
    to_start.push_back(std::move(*it));
    it = queue.erase(it);
  }
}

void Notifier::wake() { curl_multi_wakeup(multi_); }

void Notifier::shutdown(std::chrono::milliseconds grace) {
  std::lock_guard join_lock(join_mutex_);
  {
    std::lock_guard lock(mutex_);
    if (!stopping_) {
      stopping_ = true;
      deadline_ = Clock::now() + grace;
    }
  }
  wake();
  if (worker_.joinable()) worker_.join();
}

NotifierStats Notifier::stats() const {
  std::lock_guard lock(mutex_);
  NotifierStats result;
  result.channels = stats_;
  result.waiting = static_cast<std::int64_t>(urgent_.size() + ready_.size() + delayed_.size());
  result.in_flight = in_flight_;
  return result;
}

std::chrono::milliseconds Notifier::backoff(int attempts) {
  auto delay = options_.initial_backoff;
  for (int i = 1; i < attempts && delay < options_.max_backoff; ++i) delay *= 2;
  delay = std::min(delay, options_.max_backoff);
  // Jitter spreads the retries of many deliveries that failed together (a push service outage).
  std::uniform_int_distribution<std::int64_t> pick(delay.count() / 2, delay.count());
  return std::chrono::milliseconds(pick(random_));
}

void Notifier::run() {
  for (;;) {
    std::vector<Job> to_start;
    auto wait = std::chrono::milliseconds(1000);
    {
      std::lock_guard lock(mutex_);
      const auto now = Clock::now();
      if (stopping_ &&
          (now >= deadline_ || (urgent_.empty() && ready_.empty() && active_.empty()))) {
        break;
      }
      if (!stopping_) {
        while (!delayed_.empty() && delayed_.begin()->first <= now) {
          Job due = std::move(delayed_.begin()->second);
          delayed_.erase(delayed_.begin());
          count_waiting(due.delivery, -1);  // add_waiting counts it again
          add_waiting(std::move(due));
        }
      }
      take_startable(urgent_, to_start);
      take_startable(ready_, to_start);
      if (!delayed_.empty() && !stopping_) {
        wait = std::min(
            wait, std::chrono::ceil<std::chrono::milliseconds>(delayed_.begin()->first - now));
      }
      if (stopping_) {
        wait = std::min(wait, std::chrono::ceil<std::chrono::milliseconds>(deadline_ - now));
      }
    }
    for (Job& job : to_start) start(std::move(job));

    int running = 0;
    curl_multi_perform(multi_, &running);
    bool completed = false;
    int left = 0;
    while (CURLMsg* message = curl_multi_info_read(multi_, &left)) {
      if (message->msg != CURLMSG_DONE) continue;
      // complete() removes the handle, which invalidates `message`: copy first.
      CURL* easy = message->easy_handle;
      const CURLcode code = message->data.result;
      complete(easy, code);
      completed = true;
    }
    // A finished transfer frees a slot: look at the queue again before sleeping.
    if (completed) continue;
    curl_multi_poll(multi_, nullptr, 0, static_cast<int>(std::max<std::int64_t>(0, wait.count())),
                    nullptr);
  }

  // Shut down: abort transfers still running, give up waiting and queued deliveries.
  std::vector<Job> abandoned;
  for (auto& [easy, active] : active_) {
    curl_multi_remove_handle(multi_, easy);
    abandoned.push_back(std::move(active->job));
  }
  active_.clear();
  {
    std::lock_guard lock(mutex_);
    in_flight_ = 0;
    for (Job& job : urgent_) abandoned.push_back(std::move(job));
    for (Job& job : ready_) abandoned.push_back(std::move(job));
    for (auto& [when, job] : delayed_) abandoned.push_back(std::move(job));
    urgent_.clear();
    ready_.clear();
    delayed_.clear();
    waiting_ = {};
    waiting_priority_ = 0;
    active_per_endpoint_.clear();
    in_flight_per_owner_.clear();
  }
  for (Job& job : abandoned) {
    finish(job, DeliveryResult{Outcome::retry_later, 0, std::nullopt, "abandoned at shutdown"},
           true);
  }
}

void Notifier::start(Job job) {
  {
    std::lock_guard lock(mutex_);
    ++counters(job.delivery.channel).attempts;
  }
  ++job.attempts;
  std::unique_ptr<Transfer> transfer;
  std::string error;
  try {
    transfer = job.delivery.make_transfer();
    if (!transfer) error = "no request";
  } catch (const std::exception& e) {
    error = e.what();
  }
  if (!transfer) {
    {
      std::lock_guard lock(mutex_);
      release_slot(job.delivery);
    }
    finish(job, DeliveryResult{Outcome::failed, 0, std::nullopt, error}, false);
    return;
  }
  CURL* easy = transfer->handle();
  curl_multi_add_handle(multi_, easy);
  active_.emplace(easy, std::make_unique<Active>(Active{std::move(job), std::move(transfer)}));
}

void Notifier::complete(void* easy, int curl_code) {
  const auto it = active_.find(easy);
  if (it == active_.end()) return;
  std::unique_ptr<Active> active = std::move(it->second);
  active_.erase(it);
  DeliveryResult result = active->transfer->finish(curl_code);
  curl_multi_remove_handle(multi_, easy);
  Job& job = active->job;
  bool stopping = false;
  {
    std::lock_guard lock(mutex_);
    release_slot(job.delivery);
    stopping = stopping_;
    if (result.outcome == Outcome::retry_later && !stopping &&
        job.attempts < options_.max_attempts) {
      auto delay = backoff(job.attempts);
      if (result.retry_after) {
        delay = std::max(delay, std::min(options_.max_retry_after,
                                         std::chrono::milliseconds(*result.retry_after)));
      }
      ++counters(job.delivery.channel).retries;
      count_waiting(job.delivery, +1);
      delayed_.emplace(Clock::now() + delay, std::move(job));
      return;
    }
  }
  if (result.outcome == Outcome::retry_later) {
    result.detail += stopping ? " (shutting down)" : " (attempts exhausted)";
  }
  finish(job, result, stopping);
}

void Notifier::finish(Job& job, const DeliveryResult& result, bool abandoned) {
  {
    std::lock_guard lock(mutex_);
    if (!job.delivery.owner.empty()) {
      const auto owner = pending_per_owner_.find(job.delivery.owner);
      if (owner != pending_per_owner_.end() && --owner->second == 0) {
        pending_per_owner_.erase(owner);
      }
    }
    ChannelStats& channel = counters(job.delivery.channel);
    switch (result.outcome) {
      case Outcome::delivered:
        ++channel.delivered;
        break;
      case Outcome::gone:
        ++channel.gone;
        break;
      case Outcome::failed:
        ++channel.failed;
        break;
      case Outcome::retry_later:
        if (abandoned) {
          ++channel.abandoned;
        } else {
          ++channel.expired;
        }
        break;
    }
  }
  if (job.delivery.on_result) {
    try {
      job.delivery.on_result(result);
    } catch (...) {
      // A caller's bug must not take the worker down with it.
    }
  }
}

std::string Notifier::render_metrics() const {
  const NotifierStats snapshot = stats();
  std::string out;
  auto family = [&](const char* name, const char* type, const char* help) {
    out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
  };
  auto per_channel = [&](const char* name, const char* help, auto field) {
    family(name, "counter", help);
    for (std::size_t i = 0; i < kChannelCount; ++i) {
      out += std::string(name) + "{channel=\"" + to_string(static_cast<Channel>(i)) + "\"} " +
             std::to_string(snapshot.channels[i].*field) + "\n";
    }
  };
  per_channel("viktory_notify_accepted_total", "Notifications accepted into the queue.",
              &ChannelStats::accepted);
  family("viktory_notify_dropped_total", "counter",
         "Notifications refused: the channel's queue full, the owner over his budget, or "
         "shutting down.");
  for (std::size_t i = 0; i < kChannelCount; ++i) {
    const ChannelStats& c = snapshot.channels[i];
    const std::pair<const char*, std::int64_t> reasons[] = {
        {"queue_full", c.dropped_queue_full},
        {"owner_budget", c.dropped_owner_budget},
        {"shutdown", c.dropped_shutdown}};
    for (const auto& [label, value] : reasons) {
      out += std::string("viktory_notify_dropped_total{channel=\"") +
             to_string(static_cast<Channel>(i)) + "\",reason=\"" + label + "\"} " +
             std::to_string(value) + "\n";
    }
  }
  per_channel("viktory_notify_attempts_total", "Delivery attempts (requests made).",
              &ChannelStats::attempts);
  per_channel("viktory_notify_retries_total", "Attempts scheduled again after a transient error.",
              &ChannelStats::retries);
  family("viktory_notify_results_total", "counter", "Final results of accepted notifications.");
  for (std::size_t i = 0; i < kChannelCount; ++i) {
    const ChannelStats& c = snapshot.channels[i];
    const std::pair<const char*, std::int64_t> results[] = {{"delivered", c.delivered},
                                                            {"gone", c.gone},
                                                            {"failed", c.failed},
                                                            {"expired", c.expired},
                                                            {"abandoned", c.abandoned}};
    for (const auto& [label, value] : results) {
      out += std::string("viktory_notify_results_total{channel=\"") +
             to_string(static_cast<Channel>(i)) + "\",result=\"" + label + "\"} " +
             std::to_string(value) + "\n";
    }
  }
  family("viktory_notify_waiting", "gauge", "Notifications queued or waiting for a retry.");
  out += "viktory_notify_waiting " + std::to_string(snapshot.waiting) + "\n";
  family("viktory_notify_in_flight", "gauge", "Notification transfers in progress.");
  out += "viktory_notify_in_flight " + std::to_string(snapshot.in_flight) + "\n";
  return out;
}

}  // namespace viktory::notify
