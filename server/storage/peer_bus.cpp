#include "peer_bus.h"

#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

namespace viktory::server {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

std::string one_line(const char* text) {
  std::string out = text ? text : "";
  std::replace(out.begin(), out.end(), '\n', ' ');
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// Builds the messages of one round: a header, then items in arrays, each message within
// PeerBus::kMaxPayload.
class Messages {
 public:
  Messages(const std::string& self, bool hello, bool bye) {
    header_ = "{\"from\":" + json(self).dump();
    if (hello) header_ += ",\"hello\":true";
    if (bye) header_ += ",\"bye\":true";
  }
  void add_game(const std::string& item) { add(games_, item); }
  void add_player(const std::string& item) { add(players_, item); }
  void add_charge(const std::string& item) { add(charges_, item); }
  // The messages; one with the header alone when nothing was added and `always`.
  std::vector<std::string> finish(bool always) {
    if (!games_.empty() || !players_.empty() || !charges_.empty() || (always && out_.empty())) {
      close();
    }
    return std::move(out_);
  }

 private:
  void add(std::vector<std::string>& list, const std::string& item) {
    if (size() + item.size() + 32 > PeerBus::kMaxPayload) close();
    list.push_back(item);
    bytes_ += item.size() + 1;
  }
  std::size_t size() const { return header_.size() + bytes_; }
  void close() {
    std::string message = header_;
    const auto append = [&message](const char* name, const std::vector<std::string>& items) {
      if (items.empty()) return;
      message += ",\"";
      message += name;
      message += "\":[";
      for (std::size_t i = 0; i < items.size(); ++i) {
        if (i) message += ',';
        message += items[i];
      }
      message += ']';
    };
    append("games", games_);
    append("players", players_);
    append("charges", charges_);
    message += '}';
    out_.push_back(std::move(message));
    games_.clear();
    players_.clear();
    charges_.clear();
    bytes_ = 0;
  }
  std::string header_;
  std::vector<std::string> games_, players_, charges_;
  std::size_t bytes_ = 0;
  std::vector<std::string> out_;
};

}  // namespace

PeerBus::PeerBus(std::string conninfo, std::string self, int heartbeat_ms, int silent_ms,
                 Handlers handlers)
    : conninfo_(std::move(conninfo)),
      self_(std::move(self)),
      heartbeat_(heartbeat_ms),
      silent_(silent_ms),
      handlers_(std::move(handlers)) {
  wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wake_fd_ < 0) throw std::runtime_error("eventfd failed");
  thread_ = std::thread([this] { run(); });
}

PeerBus::~PeerBus() {
  stop();
  if (wake_fd_ >= 0) close(wake_fd_);
}

void PeerBus::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && !thread_.joinable()) return;
    stopping_ = true;
  }
  wake();
  if (thread_.joinable()) thread_.join();
}

void PeerBus::wake() {
  const std::uint64_t one = 1;
  [[maybe_unused]] auto written = write(wake_fd_, &one, sizeof one);
}

void PeerBus::publish_listing(std::int64_t game_id, const std::string* summary) {
  {
    std::lock_guard lock(mutex_);
    if (summary) {
      listed_[game_id] = *summary;
    } else if (listed_.erase(game_id) == 0) {
      return;  // never said: nothing to take back
    }
    changed_games_.insert(game_id);
  }
  wake();
}

void PeerBus::publish_presence(std::int64_t player_id, bool online, std::int64_t last_seen) {
  {
    std::lock_guard lock(mutex_);
    if (online) {
      online_.insert(player_id);
      changed_players_[player_id] = 0;
    } else {
      online_.erase(player_id);
      changed_players_[player_id] = std::max<std::int64_t>(1, last_seen);
    }
  }
  wake();
}

void PeerBus::publish_charge(const std::string& budget, const std::string& key, double cost) {
  if (budget.size() > 64 || key.size() > 64 || !(cost > 0)) return;
  {
    std::lock_guard lock(mutex_);
    auto it = charges_.find({budget, key});
    if (it == charges_.end()) {
      if (charges_.size() >= kMaxPendingCharges) {
        spdlog::warn("peer_bus_charges_dropped budget={}", budget);
        return;
      }
      charges_.emplace(std::make_pair(budget, key), cost);
    } else {
      it->second += cost;
    }
  }
  wake();
}

std::set<std::string> PeerBus::servers() const {
  std::lock_guard lock(mutex_);
  std::set<std::string> out;
  for (const auto& [server, heard] : heard_) out.insert(server);
  return out;
}

bool PeerBus::connect() {
  // connect_timeout bounds a connection to an unreachable database (the URI's own settings
  // come first: expand_dbname reads it as the whole connection string).
  const char* keys[] = {"dbname", "connect_timeout", nullptr};
  const char* values[] = {conninfo_.c_str(), "5", nullptr};
  conn_ = PQconnectdbParams(keys, values, /*expand_dbname=*/1);
  if (conn_ == nullptr || PQstatus(conn_) != CONNECTION_OK) {
    spdlog::warn("peer_bus_unreachable error=\"{}\"",
                 one_line(conn_ ? PQerrorMessage(conn_) : "out of memory"));
    disconnect();
    return false;
  }
  PQsetNoticeProcessor(
      conn_, [](void*, const char*) {}, nullptr);
  PGresult* r = PQexec(conn_, (std::string("LISTEN ") + kChannel).c_str());
  const bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
  if (!ok) spdlog::warn("peer_bus_listen_failed error=\"{}\"", one_line(PQresultErrorMessage(r)));
  PQclear(r);
  if (!ok) disconnect();
  return ok;
}

void PeerBus::disconnect() {
  if (conn_) PQfinish(conn_);
  conn_ = nullptr;
}

bool PeerBus::notify(const std::string& payload) {
  const char* params[] = {kChannel, payload.c_str()};
  PGresult* r =
      PQexecParams(conn_, "SELECT pg_notify($1, $2)", 2, nullptr, params, nullptr, nullptr, 0);
  const bool ok = PQresultStatus(r) == PGRES_TUPLES_OK;
  if (!ok) spdlog::warn("peer_bus_notify_failed error=\"{}\"", one_line(PQresultErrorMessage(r)));
  PQclear(r);
  return ok;
}

bool PeerBus::send_changes(bool hello, bool bye, bool heartbeat) {
  std::vector<std::string> messages;
  {
    std::lock_guard lock(mutex_);
    if (resend_all_ || hello) {
      for (const auto& [game, summary] : listed_) changed_games_.insert(game);
      for (std::int64_t player : online_) changed_players_.emplace(player, 0);
      resend_all_ = false;
    }
    Messages round(self_, hello, bye);
    for (std::int64_t game : changed_games_) {
      auto it = listed_.find(game);
      const std::string summary = it == listed_.end() ? "null" : it->second;
      std::string item = "[" + std::to_string(game) + "," + summary + "]";
      if (item.size() + 64 > kMaxPayload) {
        spdlog::warn("peer_bus_summary_too_long game={} bytes={}", game, item.size());
        continue;
      }
      round.add_game(item);
    }
    for (const auto& [player, last_seen] : changed_players_) {
      round.add_player("[" + std::to_string(player) + "," + (last_seen == 0 ? "1" : "0") + "," +
                       std::to_string(last_seen) + "]");
    }
    for (const auto& [budget_key, cost] : charges_) {
      round.add_charge(json::array({budget_key.first, budget_key.second, cost}).dump());
    }
    changed_games_.clear();
    changed_players_.clear();
    charges_.clear();
    messages = round.finish(hello || bye || heartbeat);
  }
  for (const std::string& message : messages) {
    if (!notify(message)) {
      // What was not sent is sent again with everything once the connection is back (a hello).
      return false;
    }
  }
  return true;
}

void PeerBus::receive(const char* payload, Clock::time_point now) {
  const json message = json::parse(payload, nullptr, /*allow_exceptions=*/false);
  if (!message.is_object()) return;
  auto from_it = message.find("from");
  if (from_it == message.end() || !from_it->is_string()) return;
  const std::string from = *from_it;
  if (from.empty() || from == self_) return;
  const bool hello = message.value("hello", false) == true;
  const bool bye = message.value("bye", false) == true;
  bool known = false;
  {
    std::lock_guard lock(mutex_);
    known = heard_.count(from) != 0;
    if (bye) {
      heard_.erase(from);
    } else {
      heard_[from] = now;
    }
    if (hello) resend_all_ = true;                    // it missed what we said: all of it again
    if (!known && !hello && !bye) hello_due_ = true;  // we missed what it said
  }
  // A hello starts the sender's state afresh (it sends all of it next); a bye ends it.
  if (hello) spdlog::info("peer_joined server={}", from);
  if (bye) spdlog::info("peer_left server={}", from);
  if ((hello || bye) && handlers_.gone) handlers_.gone(from);
  if (bye) return;
  if (auto games = message.find("games"); games != message.end() && games->is_array()) {
    for (const json& item : *games) {
      if (!item.is_array() || item.size() != 2 || !item[0].is_number_integer()) continue;
      const std::int64_t game = item[0];
      if (item[1].is_object()) {
        if (handlers_.listing) handlers_.listing(from, game, &item[1]);
      } else if (item[1].is_null()) {
        if (handlers_.listing) handlers_.listing(from, game, nullptr);
      }
    }
  }
  if (auto players = message.find("players"); players != message.end() && players->is_array()) {
    for (const json& item : *players) {
      if (!item.is_array() || item.size() != 3 || !item[0].is_number_integer() ||
          !item[1].is_number_integer() || !item[2].is_number_integer()) {
        continue;
      }
      if (handlers_.presence) {
        handlers_.presence(from, item[0].get<std::int64_t>(), item[1].get<int>() == 1,
                           item[2].get<std::int64_t>());
      }
    }
  }
  if (auto charges = message.find("charges"); charges != message.end() && charges->is_array()) {
    for (const json& item : *charges) {
      if (!item.is_array() || item.size() != 3 || !item[0].is_string() || !item[1].is_string() ||
          !item[2].is_number() || !(item[2].get<double>() > 0)) {
        continue;
      }
      if (handlers_.charge) handlers_.charge(item[0], item[1], item[2].get<double>());
    }
  }
}

bool PeerBus::drain(Clock::time_point now) {
  if (PQconsumeInput(conn_) == 0) {
    spdlog::warn("peer_bus_connection_lost error=\"{}\"", one_line(PQerrorMessage(conn_)));
    return false;
  }
  while (PGnotify* n = PQnotifies(conn_)) {
    receive(n->extra, now);
    PQfreemem(n);
  }
  return true;
}

void PeerBus::forget_silent(Clock::time_point now) {
  std::vector<std::string> silent;
  {
    std::lock_guard lock(mutex_);
    for (auto it = heard_.begin(); it != heard_.end();) {
      if (now - it->second > silent_) {
        silent.push_back(it->first);
        it = heard_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (const std::string& server : silent) {
    spdlog::info("peer_silent server={}", server);
    if (handlers_.gone) handlers_.gone(server);
  }
}

void PeerBus::run() {
  std::chrono::milliseconds backoff(250);
  Clock::time_point next_connect = Clock::now();
  Clock::time_point last_sent = Clock::now() - heartbeat_;
  bool hello = true;
  for (;;) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) break;
      if (hello_due_) hello = true;
      hello_due_ = false;
    }
    Clock::time_point now = Clock::now();
    forget_silent(now);
    if (conn_ == nullptr && now >= next_connect) {
      if (connect()) {
        backoff = std::chrono::milliseconds(250);
        hello = true;  // what was said while we were away is lost on both sides
      } else {
        next_connect = now + backoff;
        backoff = std::min<std::chrono::milliseconds>(backoff * 2, std::chrono::seconds(5));
      }
    }
    if (conn_ != nullptr) {
      const bool heartbeat = now - last_sent >= heartbeat_;
      if (send_changes(hello, false, heartbeat) && drain(now)) {
        if (hello || heartbeat) last_sent = now;
        hello = false;
      } else {
        disconnect();
        next_connect = now + backoff;
        continue;
      }
    }
    // Until the next heartbeat (or a reconnection), a change to send, or a message.
    const Clock::time_point until = conn_ ? last_sent + heartbeat_ : next_connect;
    const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
    pollfd fds[2] = {{wake_fd_, POLLIN, 0}, {conn_ ? PQsocket(conn_) : -1, POLLIN, 0}};
    poll(fds, conn_ ? 2 : 1, static_cast<int>(std::clamp<std::int64_t>(wait.count(), 1, 1000)));
    if (fds[0].revents & POLLIN) {
      std::uint64_t count = 0;
      [[maybe_unused]] auto read_bytes = read(wake_fd_, &count, sizeof count);
    }
    if (conn_ != nullptr && (fds[1].revents & (POLLIN | POLLERR | POLLHUP)) &&
        !drain(Clock::now())) {
      disconnect();
      next_connect = Clock::now() + backoff;
    }
  }
  if (conn_ != nullptr) {
    send_changes(false, /*bye=*/true, false);
    disconnect();
  }
}

}  // namespace viktory::server
