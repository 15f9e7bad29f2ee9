// Who is online now (has a signed-in WebSocket) and when each player was last seen (his last
// connection closed), for the game's player list and the lobby. In memory only: after a restart
// nobody has a "last seen" until he comes back. With several servers on one database
// (peer_bus.h), the others tell this one who is connected to them (set_remote), and this one
// tells them (the sink): a player is online when he is connected to any of them. Thread-safe; every
// call is a few map operations (no I/O), so the Hub may call it under its lock. PresenceApi answers
// GET /api/presence.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common.h"
#include "rate_limit.h"

namespace viktory::server {

class Presence {
 public:
  explicit Presence(std::function<std::int64_t()> now = now_ms) : now_(std::move(now)) {}

  void connected(std::int64_t player_id);
  void disconnected(std::int64_t player_id);
  bool online(std::int64_t player_id) const;

  // Told when a player comes online here (his first connection) or leaves (his last one
  // closed, with the time), under this class's lock: it must only note it (PeerBus does).
  // Set before the first connection.
  void set_sink(
      std::function<void(std::int64_t player, bool online, std::int64_t last_seen)> sink) {
    std::lock_guard lock(mutex_);
    sink_ = std::move(sink);
  }
  // What another server says of a player: connected there, or not since `last_seen`.
  void set_remote(const std::string& server, std::int64_t player_id, bool online,
                  std::int64_t last_seen);
  // Another server is gone: the players it had online were last seen now.
  void drop_remote(const std::string& server);

  // {"<id>": {"online": bool, "last_seen": ms or null}} for each id.
  nlohmann::json of(const std::vector<std::int64_t>& player_ids) const;

  // The ids of "players=1,2,3" in a request target (at most kMaxIds); nothing when malformed.
  static constexpr std::size_t kMaxIds = 64;
  static std::optional<std::vector<std::int64_t>> ids_of(std::string_view target);

 private:
  struct Seen {
    int connections = 0;
    std::int64_t last_seen = 0;       // 0: not since the server started
    std::set<std::string> elsewhere;  // the other servers he is connected to
  };
  std::function<std::int64_t()> now_;
  mutable std::mutex mutex_;
  std::map<std::int64_t, Seen> players_;
  std::map<std::string, std::set<std::int64_t>> remote_;  // server -> its online players
  std::function<void(std::int64_t, bool, std::int64_t)> sink_;
};

class Store;

// GET /api/presence?players=1,2,3 for a signed-in player (a bearer token), about the players who
// share a game with him (and himself), and about the players he follows whose profile privacy
// lets him see their profile (friends.h): the others are left out of the answer. Every request
// first costs a token of its client address's bucket (`requests_per_minute`, burst the same),
// before any lookup.
class PresenceApi {
 public:
  PresenceApi(const Presence& presence, Store& store, int requests_per_minute);

  static bool handles(std::string_view path) { return path == "/api/presence"; }
  ApiResponse handle(std::string_view method, std::string_view target,
                     std::string_view authorization, std::string_view address);

 private:
  const Presence& presence_;
  Store& store_;
  int requests_per_minute_;
  std::mutex mutex_;  // the buckets
  AddressBuckets buckets_;
};

}  // namespace viktory::server
