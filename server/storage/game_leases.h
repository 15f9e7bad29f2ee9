// Which server process serves each game, for several servers on one database
// (docs/postgresql-plan.md, piece 4). A lease names its owner (a process's id, and the URL where
// that process is reached, for a redirect) and runs until `expires` (ms since the epoch). The
// owner renews it; once it has expired, another process may take it.
//
// Leases alone do not make two writers safe: a process that stalled past its lease's end still
// believes it owns the game. So every write of a game goes through hold() in the same
// transaction. hold() writes the lease row, so a takeover (which writes the same row) waits for
// that transaction and then finds the lease renewed, or it came first and hold() finds the
// lease gone and the caller rolls back: a game is written by one process at a time however late
// a process learns that it lost it (fencing).
//
// Times come from the callers' clocks: the servers sharing a database must agree on the time to
// well within a term (NTP does).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace viktory::server {

class Database;

struct Lease {
  std::string owner;
  std::string url;
  std::int64_t expires = 0;
};

class GameLeases {
 public:
  // `db` is the writer's connection (its transactions are the ones hold() joins); `owner` this
  // process's id (random, new at each start: a restarted process owns nothing); `term_ms` how
  // long a lease runs after each renewal.
  GameLeases(Database& db, std::string owner, std::string url, std::int64_t term_ms);

  const std::string& owner() const { return owner_; }
  std::int64_t term_ms() const { return term_ms_; }

  // Takes game_id's lease if nobody holds it, it has expired, or it is ours already (then it is
  // renewed). Returns the lease as it stands afterwards: ours when taken, else its owner's;
  // no owner when there is no such game (no lease is written for one).
  Lease take(std::int64_t game_id, std::int64_t now_ms);
  // Inside the caller's write transaction, before it writes the game: whether the lease is
  // still ours, renewing it. False means another process took it: roll back, write nothing.
  bool hold(std::int64_t game_id, std::int64_t now_ms);
  // Renews every lease this process holds; returns the games it holds no more (taken over).
  std::vector<std::int64_t> renew(std::int64_t now_ms);
  // Hands a game over at once (its lease expires now), if it is ours: a process that stops
  // gracefully lets the others take its games without waiting for the term.
  void release(std::int64_t game_id);
  void release_all();

  // The lease of a game, whoever holds it, expired or not; nullopt if it never had one.
  std::optional<Lease> lease(std::int64_t game_id);
  // Open games nobody serves now: no lease, or one that expired or was handed over (at most
  // `limit`, oldest first).
  std::vector<std::int64_t> lapsed_open_games(std::int64_t now_ms, int limit = 100);
  // The games this process holds (as the database says).
  std::vector<std::int64_t> held();

 private:
  Database& db_;
  std::string owner_;
  std::string url_;
  std::int64_t term_ms_;
  std::vector<std::int64_t> held_;  // as of the last take/renew: to tell what renew() lost
};

}  // namespace viktory::server
