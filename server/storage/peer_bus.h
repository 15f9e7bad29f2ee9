// What the servers sharing one PostgreSQL database tell each other (docs/postgresql.md,
// "Several servers on one database"): the open public games each one lists, and the players
// online at each one, so that every server's lobby and presence show them all wherever a game is
// served or a player is connected. It runs over LISTEN/NOTIFY on one channel, on a connection and
// a thread of its own: a message is a JSON object of at most kMaxPayload bytes,
//   {"from": URL, "hello": true?, "bye": true?, "games": [[id, summary or null], ...],
//    "players": [[id, 1 or 0, last seen ms], ...], "charges": [[budget, key, cost], ...]}
// where `hello` asks every other server to send all it has again (one that starts, or whose
// connection came back, has missed what was said meanwhile) and `bye` says the sender stops.
//
// What this server says is kept as state, not as a queue: the latest listing of each game and
// who is online here, with the keys that changed since they were last sent. A burst of changes
// to one game sends its last summary once, a hello sends the whole state again, and the memory
// is bounded by what the lobby and the connections already bound (LobbyLimits, the connection
// caps). A server that says nothing for `silent_ms` (a heartbeat goes out every `heartbeat_ms`)
// is taken for dead: `gone` is called and the others forget what it said. Charges of shared
// budgets (rate_limit.h, ChargeSink) are the exception: summed per budget and key until sent,
// at most kMaxPendingCharges keys (more are dropped and logged), and not sent again.
//
// Only public facts travel: the lobby's summaries of open public games (what any visitor of the
// lobby is sent) and online states; the database's roles decide who may LISTEN.
#pragma once

#include <libpq-fe.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>

namespace viktory::server {

class PeerBus {
 public:
  static constexpr const char* kChannel = "viktory_peers";
  // PostgreSQL refuses a payload of 8000 bytes or more; a summary that would not fit alone is
  // not shared (and logged).
  static constexpr std::size_t kMaxPayload = 7500;
  static constexpr std::size_t kMaxPendingCharges = 10000;

  struct Handlers {
    // Another server lists an open public game (its summary) or no longer does (nullptr).
    std::function<void(const std::string& server, std::int64_t game_id,
                       const nlohmann::json* summary)>
        listing;
    // A player's state at another server: connected there, or not since `last_seen`.
    std::function<void(const std::string& server, std::int64_t player_id, bool online,
                       std::int64_t last_seen)>
        presence;
    // Another server stopped or fell silent: what it said no longer holds.
    std::function<void(const std::string& server)> gone;
    // Another server charged a shared budget (rate_limit.h, ChargeSink).
    std::function<void(const std::string& budget, const std::string& key, double cost)> charge;
  };

  // `conninfo`: the database (libpq's URI); `self`: this server's URL (--server-url), which
  // tells its own messages from the others'.
  PeerBus(std::string conninfo, std::string self, int heartbeat_ms, int silent_ms,
          Handlers handlers);
  ~PeerBus();
  PeerBus(const PeerBus&) = delete;
  PeerBus& operator=(const PeerBus&) = delete;

  // This server lists a game with this summary (its text as the lobby sends it), or no longer
  // does (nullptr). Any thread; a leaf lock for a few map operations, no I/O.
  void publish_listing(std::int64_t game_id, const std::string* summary);
  // A player connected here (his first connection) or left (his last one closed).
  void publish_presence(std::int64_t player_id, bool online, std::int64_t last_seen);
  // A charge of a shared budget taken here (a budget's name and a key of at most 64 bytes).
  void publish_charge(const std::string& budget, const std::string& key, double cost);
  // Says bye (at most a moment's wait for the database) and stops the thread. Idempotent.
  void stop();

  // The other servers heard from and not gone (tests, metrics).
  std::set<std::string> servers() const;

 private:
  void run();
  void wake();  // the thread, out of its poll()
  bool connect();
  void disconnect();
  // Sends what changed (or everything after a hello), in messages of at most kMaxPayload.
  bool send_changes(bool hello, bool bye, bool heartbeat);
  bool notify(const std::string& payload);
  void receive(const char* payload, std::chrono::steady_clock::time_point now);
  bool drain(std::chrono::steady_clock::time_point now);  // the notifications libpq has read
  void forget_silent(std::chrono::steady_clock::time_point now);

  const std::string conninfo_;
  const std::string self_;
  const std::chrono::milliseconds heartbeat_;
  const std::chrono::milliseconds silent_;
  const Handlers handlers_;

  mutable std::mutex mutex_;  // everything below but the connection (the thread's own)
  bool stopping_ = false;
  bool resend_all_ = false;  // someone said hello: send everything again
  bool hello_due_ = false;   // heard from a server we did not know: ask everyone for all
  std::map<std::int64_t, std::string> listed_;  // game -> summary text
  std::set<std::int64_t> online_;
  std::set<std::int64_t> changed_games_;
  std::map<std::int64_t, std::int64_t> changed_players_;  // player -> last seen (0: online)
  std::map<std::pair<std::string, std::string>, double> charges_;       // (budget, key) -> cost
  std::map<std::string, std::chrono::steady_clock::time_point> heard_;  // other servers

  PGconn* conn_ = nullptr;  // the thread's alone
  int wake_fd_ = -1;        // an eventfd: publish_* wakes the thread out of its poll()
  std::thread thread_;
};

}  // namespace viktory::server
