#include "game_leases.h"

#include <algorithm>
#include <utility>

#include "database.h"

namespace viktory::server {

GameLeases::GameLeases(Database& db, std::string owner, std::string url, std::int64_t term_ms)
    : db_(db), owner_(std::move(owner)), url_(std::move(url)), term_ms_(term_ms) {}

Lease GameLeases::take(std::int64_t game_id, std::int64_t now_ms) {
  const auto lock = db_.lock();
  std::optional<Lease> after;
  {
    Transaction tx(db_);
    // One statement decides: a free, expired or own lease is (re)written; a live lease of
    // another process is left alone. Two processes taking one expired lease at once both
    // reach the row; the database orders them, and the second sees the first's live lease.
    // A game that does not exist gets none (a client's made-up id costs no row).
    db_.cached(
           "INSERT INTO game_leases(game_id, owner, url, expires) SELECT ?1, ?2, ?3, ?4 "
           "WHERE EXISTS (SELECT 1 FROM games WHERE id = ?1) "
           "ON CONFLICT(game_id) DO UPDATE SET owner = excluded.owner, url = excluded.url, "
           "expires = excluded.expires "
           "WHERE game_leases.owner = excluded.owner OR game_leases.expires <= ?5")
        .bind(1, game_id)
        .bind(2, owner_)
        .bind(3, url_)
        .bind(4, now_ms + term_ms_)
        .bind(5, now_ms)
        .run();
    after = lease(game_id);
    tx.commit();
  }
  if (after && after->owner == owner_ &&
      std::find(held_.begin(), held_.end(), game_id) == held_.end()) {
    held_.push_back(game_id);
  }
  return after.value_or(Lease{});
}

bool GameLeases::hold(std::int64_t game_id, std::int64_t now_ms) {
  const auto lock = db_.lock();
  // A released lease (expires 0) is not held: the process gave the game away.
  // Written even when nothing changes hands: the write is what makes a takeover wait for the
  // caller's transaction (and a write of the game is a sign of life, so it renews).
  db_.cached(
         "UPDATE game_leases SET expires = ?3 WHERE game_id = ?1 AND owner = ?2 AND expires > 0")
      .bind(1, game_id)
      .bind(2, owner_)
      .bind(3, now_ms + term_ms_)
      .run();
  return db_.changes() == 1;
}

std::vector<std::int64_t> GameLeases::renew(std::int64_t now_ms) {
  const auto lock = db_.lock();
  std::vector<std::int64_t> now_held;
  {
    Transaction tx(db_);
    db_.cached("UPDATE game_leases SET expires = ?2 WHERE owner = ?1 AND expires > 0")
        .bind(1, owner_)
        .bind(2, now_ms + term_ms_)
        .run();
    now_held = held();
    tx.commit();
  }
  std::vector<std::int64_t> lost;
  for (std::int64_t game : held_) {
    if (std::find(now_held.begin(), now_held.end(), game) == now_held.end()) lost.push_back(game);
  }
  held_ = std::move(now_held);
  return lost;
}

void GameLeases::release(std::int64_t game_id) {
  const auto lock = db_.lock();
  db_.cached("UPDATE game_leases SET expires = 0 WHERE game_id = ?1 AND owner = ?2")
      .bind(1, game_id)
      .bind(2, owner_)
      .run();
  held_.erase(std::remove(held_.begin(), held_.end(), game_id), held_.end());
}

void GameLeases::release_all() {
  const auto lock = db_.lock();
  db_.cached("UPDATE game_leases SET expires = 0 WHERE owner = ?1").bind(1, owner_).run();
  held_.clear();
}

std::optional<Lease> GameLeases::lease(std::int64_t game_id) {
  const auto lock = db_.lock();
  Statement s = db_.cached("SELECT owner, url, expires FROM game_leases WHERE game_id = ?1");
  s.bind(1, game_id);
  if (!s.step()) return std::nullopt;
  return Lease{s.text(0), s.text(1), s.int64(2)};
}

std::vector<std::int64_t> GameLeases::lapsed_open_games(std::int64_t now_ms, int limit) {
  const auto lock = db_.lock();
  std::vector<std::int64_t> games;
  Statement s = db_.cached(
      "SELECT g.id FROM games g LEFT JOIN game_leases l ON l.game_id = g.id "
      "WHERE g.status = 'open' AND (l.game_id IS NULL OR l.expires <= ?1) ORDER BY g.id LIMIT ?2");
  s.bind(1, now_ms).bind(2, limit);
  while (s.step()) games.push_back(s.int64(0));
  return games;
}

std::vector<std::int64_t> GameLeases::held() {
  const auto lock = db_.lock();
  std::vector<std::int64_t> games;
  Statement s = db_.cached(
      "SELECT game_id FROM game_leases WHERE owner = ?1 AND expires > 0 ORDER BY game_id");
  s.bind(1, owner_);
  while (s.step()) games.push_back(s.int64(0));
  return games;
}

}  // namespace viktory::server
