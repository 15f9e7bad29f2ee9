// Who is online now (has a signed-in WebSocket) and when each player was last seen (his last
// connection closed), for the game's player list and the lobby. In memory only: after a restart
// nobody has a "last seen" until he comes back. Thread-safe; every call is a few map operations
// (no I/O), so the Hub may call it under its lock.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "common.h"

namespace viktory::server {

class Presence {
 public:
  explicit Presence(std::function<std::int64_t()> now = now_ms) : now_(std::move(now)) {}

  void connected(std::int64_t player_id);
  void disconnected(std::int64_t player_id);
  bool online(std::int64_t player_id) const;

  // {"<id>": {"online": bool, "last_seen": ms or null}} for each id.
  nlohmann::json of(const std::vector<std::int64_t>& player_ids) const;

  // GET /api/presence?players=1,2,3 (at most 64 ids).
  static bool handles(std::string_view path) { return path == "/api/presence"; }
  ApiResponse handle_api(std::string_view method, std::string_view target) const;

 private:
  struct Seen {
    int connections = 0;
    std::int64_t last_seen = 0;  // 0: not since the server started
  };
  std::function<std::int64_t()> now_;
  mutable std::mutex mutex_;
  std::map<std::int64_t, Seen> players_;
};

}  // namespace viktory::server
