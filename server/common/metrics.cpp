#include "metrics.h"

#include <sstream>

namespace viktory::server {

void Metrics::count_error(const std::string& code) {
  std::lock_guard lock(mutex_);
  ++errors_[code];
}

void Metrics::observe_action_latency(double seconds) {
  std::lock_guard lock(mutex_);
  for (std::size_t i = 0; i < kBuckets.size(); ++i) {
    if (seconds <= kBuckets[i]) ++bucket_counts_[i];
  }
  ++latency_count_;
  latency_sum_ += seconds;
}

namespace {
void metric(std::ostringstream& out, const char* name, const char* type, const char* help,
            std::int64_t value) {
  out << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << '\n'
      << name << ' ' << value << '\n';
}
}  // namespace

std::string Metrics::render() const {
  std::ostringstream out;
  metric(out, "viktory_connections_open", "gauge", "Open WebSocket connections.", connections_open);
  metric(out, "viktory_connections_total", "counter", "WebSocket connections accepted.",
         connections_total);
  metric(out, "viktory_connections_rejected_total", "counter",
         "Connections refused by the per-address limit.", connections_rejected);
  metric(out, "viktory_http_requests_total", "counter", "HTTP requests served.", http_requests);
  metric(out, "viktory_messages_in_total", "counter", "WebSocket messages received.", messages_in);
  metric(out, "viktory_messages_out_total", "counter", "WebSocket messages sent.", messages_out);
  metric(out, "viktory_games_created_total", "counter", "Games created.", games_created);
  metric(out, "viktory_games_open", "gauge", "Games waiting for players (in memory).", games_open);
  metric(out, "viktory_games_running", "gauge", "Running games loaded in memory.", games_running);
  metric(out, "viktory_games_finished_total", "counter", "Games that ended.", games_finished);
  metric(out, "viktory_actions_total", "counter", "Actions committed.", actions);
  metric(out, "viktory_undos_total", "counter", "Actions taken back.", undos);
  metric(out, "viktory_slow_clients_dropped_total", "counter",
         "Connections closed because their send queue overflowed.", slow_clients_dropped);
  metric(out, "viktory_replay_pages_built_total", "counter", "Replay pages built.",
         replay_pages_built);
  metric(out, "viktory_replay_cache_hits_total", "counter", "Replay pages served from the cache.",
         replay_cache_hits);
  metric(out, "viktory_storage_failures_total", "counter",
         "Writes the database refused with an I/O-class error (each reloads its game).",
         storage_failures);
  metric(out, "viktory_frame_timeouts_total", "counter",
         "WebSocket connections closed because a message took too long to arrive.", frame_timeouts);

  std::lock_guard lock(mutex_);
  out << "# HELP viktory_errors_total Error replies sent, by code.\n"
         "# TYPE viktory_errors_total counter\n";
  for (const auto& [code, count] : errors_) {
    out << "viktory_errors_total{code=\"" << code << "\"} " << count << '\n';
  }
  out << "# HELP viktory_action_latency_seconds From receiving an action to every message "
         "about it being queued.\n# TYPE viktory_action_latency_seconds histogram\n";
  for (std::size_t i = 0; i < kBuckets.size(); ++i) {
    out << "viktory_action_latency_seconds_bucket{le=\"" << kBuckets[i] << "\"} "
        << bucket_counts_[i] << '\n';
  }
  out << "viktory_action_latency_seconds_bucket{le=\"+Inf\"} " << latency_count_ << '\n'
      << "viktory_action_latency_seconds_sum " << latency_sum_ << '\n'
      << "viktory_action_latency_seconds_count " << latency_count_ << '\n';
  return out.str();
}

}  // namespace viktory::server
