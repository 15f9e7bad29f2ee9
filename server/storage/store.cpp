#include "store.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "common.h"
#include "fair_play.h"
#include "game_leases.h"
#include "json.h"
#include "pg_database.h"
#include "player_records.h"
#include "store_group_commit.h"
#include "store_schema.h"
#include "token.h"

namespace viktory::server {
namespace {

// What a migration needs beyond SQL, run in the same transaction after it (index: version).
void hash_stored_invite_codes(Database& db) {
  std::vector<std::pair<std::int64_t, std::string>> codes;
  {
    Statement s = db.prepare(
        "SELECT id, invite_code FROM games WHERE invite_code IS NOT NULL AND invite_code != ''");
    while (s.step()) codes.emplace_back(s.int64(0), s.text(1));
  }
  for (const auto& [id, code] : codes) {
    db.prepare("UPDATE games SET invite_hash = ?, invite_code = NULL WHERE id = ?")
        .bind(1, invite_hash(code))
        .bind(2, id)
        .run();
  }
}

void after_migration(Database& db, int version) {
  if (version == 2) hash_stored_invite_codes(db);
}

#define VIKTORY_GAME_FIELDS                                                             \
  "SELECT g.id, g.options, g.seed, g.status, g.created, g.creator, p.name, g.private, " \
  "g.invite_hash, g.result, g.current_seat, g.seq, g.last_move_at, g.spectators, "      \
  "g.spectator_delay, g.commitment, c.options, g.rated, g.random_scheme, r.deadline "
// The clock's options come along (a game without a clock has no row in game_clocks), and the
// deadline of an open game's reveal round (fair_play.h).
#define VIKTORY_GAME_JOINS                                                          \
  "JOIN players p ON p.id = g.creator LEFT JOIN game_clocks c ON c.game_id = g.id " \
  "LEFT JOIN reveal_rounds r ON r.game_id = g.id "
constexpr const char* kGameColumns = VIKTORY_GAME_FIELDS "FROM games g " VIKTORY_GAME_JOINS;
// A player's games through the index of his seats (seats_by_player_game), newest first.
constexpr const char* kPlayerGames =
    VIKTORY_GAME_FIELDS "FROM seats s CROSS JOIN games g ON g.id = s.game_id " VIKTORY_GAME_JOINS
                        "WHERE s.player_id = ?1 AND ";

}  // namespace

std::string invite_hash(std::string_view invite_code) { return sha256_hex(invite_code); }

const char* to_string(SpectatorMode m) {
  switch (m) {
    case SpectatorMode::kLive:
      return "live";
    case SpectatorMode::kNone:
      return "none";
    case SpectatorMode::kDelayed:
      return "delayed";
  }
  return "live";
}

std::optional<SpectatorMode> spectator_mode_from_string(std::string_view s) {
  for (SpectatorMode m : {SpectatorMode::kLive, SpectatorMode::kNone, SpectatorMode::kDelayed}) {
    if (s == to_string(m)) return m;
  }
  return std::nullopt;
}

const char* to_string(GameStatus s) {
  switch (s) {
    case GameStatus::kOpen:
      return "open";
    case GameStatus::kRunning:
      return "running";
    case GameStatus::kFinished:
      return "finished";
    case GameStatus::kCancelled:
      return "cancelled";
  }
  return "open";
}

std::optional<GameStatus> game_status_from_string(std::string_view s) {
  for (GameStatus g :
       {GameStatus::kOpen, GameStatus::kRunning, GameStatus::kFinished, GameStatus::kCancelled}) {
    if (s == to_string(g)) return g;
  }
  return std::nullopt;
}

// The read-only connections and which of them are lent out (Store::reading).
struct Store::Pool {
  std::vector<std::unique_ptr<Database>> connections;
  std::vector<bool> busy;
  std::mutex mutex;
  std::condition_variable freed;
};

Store::Reading::~Reading() {
  if (guard.owns_lock()) guard.unlock();
  if (pool == nullptr) return;
  {
    std::lock_guard lock(pool->mutex);
    pool->busy[static_cast<std::size_t>(index)] = false;
  }
  pool->freed.notify_one();
}

Store::Reading Store::reading() {
  if (!readers_ || db_.in_transaction_here()) return Reading(db_, db_.lock(), nullptr, -1);
  std::unique_lock lock(readers_->mutex);
  for (;;) {
    for (std::size_t i = 0; i < readers_->connections.size(); ++i) {
      if (readers_->busy[i]) continue;
      readers_->busy[i] = true;
      lock.unlock();
      Database& db = *readers_->connections[i];
      return Reading(db, db.lock(), readers_.get(), static_cast<int>(i));
    }
    readers_->freed.wait(lock);
  }
}

std::shared_ptr<void> Store::hold_reader_for_testing() {
  struct Held {
    Reading reading;
    explicit Held(Store& store) : reading(store.reading()) {}
  };
  return std::make_shared<Held>(*this);
}

namespace {

// pg_advisory_lock's key for "a server serves this database": any fixed number of our own.
constexpr const char* kServerLockKey = "5650083921";
// ... and for "a server is migrating it", when several share it.
constexpr const char* kMigrationLockKey = "5650083922";

// One server per PostgreSQL database until games have leases (docs/postgresql.md): two would
// each load and change the same games. A session advisory lock held by the writer's connection
// while it lives; PostgreSQL frees it when that connection ends, also after a kill -9, so a
// restart right after a crash waits for the old session to go (at most 10 s). Readers, and the
// checks of --check-db and viktory-move-db, take no lock.
//
// Servers that share the database (`shared`, each game by one at a time through its lease)
// hold the same lock in shared mode: any number of them, but never beside a server that
// believes it is alone, nor the other way round.
void claim_postgresql_database(Database& db, bool shared) {
  const std::string lock = shared ? "pg_advisory_lock_shared(" : "pg_advisory_lock(";
  db.exec("SET lock_timeout = '10s'");
  try {
    db.prepare(std::string("SELECT ") + lock + kServerLockKey + ")").step();
  } catch (const DbError& e) {
    throw DbError(std::string(shared ? "a viktory-server that serves this PostgreSQL database "
                                       "alone is running: start every server with --server-url"
                                     : "another viktory-server is serving this PostgreSQL "
                                       "database: one server per database, or every server "
                                       "with --server-url") +
                  " (docs/postgresql.md) (" + e.what() + ")");
  }
  db.exec("SET lock_timeout = 0");
  // After a lost connection is opened again, the lock is taken again. If another server took
  // it meanwhile, this one stops writing: every write fails as a storage failure, so no player
  // is told an action was kept that the other server does not know of.
  db.pg().require_on_reconnect(
      std::string("SELECT pg_try_advisory_lock") + (shared ? "_shared(" : "(") + kServerLockKey +
          ")",
      "another viktory-server took this PostgreSQL database while this one's connection was "
      "lost: this server no longer writes to it; restart it (docs/postgresql.md)");
}

}  // namespace

Store::Store(const std::string& path, int readers, bool shared) : db_(path) {
  // WAL keeps readers and the writer apart; synchronous=FULL makes each COMMIT durable
  // (fsync) before we tell anyone about the action it contains. PostgreSQL does both as it
  // comes (MVCC snapshots; a COMMIT returns once its WAL is flushed, synchronous_commit = on)
  // and always enforces foreign keys.
  if (!db_.postgresql()) {
    db_.exec("PRAGMA journal_mode=WAL");
    db_.exec("PRAGMA synchronous=FULL");
    db_.exec("PRAGMA foreign_keys=ON");
  } else {
    // A server told to defer its commits would acknowledge actions it could lose.
    db_.pg().remember_setting("SET synchronous_commit = on");
    claim_postgresql_database(db_, shared);
  }
  if (shared) {
    if (!db_.postgresql()) {
      throw DbError("several servers share a PostgreSQL database, not an SQLite file");
    }
    // Servers starting together migrate one after the other (the second finds it done).
    db_.exec("SET lock_timeout = '60s'");
    db_.prepare(std::string("SELECT pg_advisory_lock(") + kMigrationLockKey + ")").step();
    db_.exec("SET lock_timeout = 0");
  }
  migrate();
  if (shared) {
    db_.prepare(std::string("SELECT pg_advisory_unlock(") + kMigrationLockKey + ")").step();
  }
  // SQLite opens a file it may not write read-only without a word, and every write would
  // fail later: better to refuse now, with a clear message.
  try {
    check_writable();
  } catch (const DbError& e) {
    throw DbError("the database " + redacted_location(path) + " cannot be written: " + e.what(),
                  e.code);
  }
  // After the migrations, so that it sees the current schema. An in-memory database is
  // private to its connection: it has none.
  if (!db_.path().empty()) {
    readers_ = std::make_unique<Pool>();
    for (int i = 0; i < std::max(1, readers); ++i) {
      readers_->connections.push_back(std::make_unique<Database>(path, /*read_only=*/true));
      readers_->busy.push_back(false);
    }
  }
}

Store::Store(const std::string& path, ReadOnly) : db_(path, /*read_only=*/true) {
  if (schema_version() != kSchemaVersion) {
    throw DbError("database schema version " + std::to_string(schema_version()) +
                  " is not the one of this server (" + std::to_string(kSchemaVersion) + ")");
  }
}

void Store::check_writable() {
  const auto guard = db_.lock();
  // Rewriting the schema version with its own value is a real write: a WAL frame and an fsync.
  const int version = schema_version();
  Transaction tx(db_);
  if (db_.postgresql()) {
    // A standby, or a role that may only read, refuses this.
    db_.exec("UPDATE schema_version SET version = " + std::to_string(version));
  } else {
    db_.exec("PRAGMA user_version = " + std::to_string(version));
  }
  tx.commit();
}

bool Store::checkpoint_truncate() {
  const auto guard = db_.lock();
  if (db_.postgresql()) return true;  // PostgreSQL keeps its own write-ahead log
  Statement s = db_.prepare("PRAGMA wal_checkpoint(TRUNCATE)");
  if (!s.step()) return false;
  return s.int64(0) == 0;  // the first column is 1 when SQLITE_BUSY kept it from finishing
}

int Store::schema_version() {
  const auto guard = db_.lock();
  if (db_.postgresql()) return db_.pg().schema_version();
  Statement s = db_.prepare("PRAGMA user_version");
  s.step();
  return static_cast<int>(s.int64(0));
}

void Store::migrate() {
  const auto guard = db_.lock();
  const int current = schema_version();
  if (current > kSchemaVersion) {
    throw DbError("database schema version " + std::to_string(current) +
                  " is newer than this server (" + std::to_string(kSchemaVersion) + ")");
  }
  if (db_.postgresql()) {
    // The same migrations, translated, one transaction each (PgDatabase::migrate).
    db_.pg().migrate();
    return;
  }
  for (int v = current; v < kSchemaVersion; ++v) {
    Transaction tx(db_);
    db_.exec(schema_migration(v + 1));
    after_migration(db_, v + 1);
    db_.exec("PRAGMA user_version = " + std::to_string(v + 1));
    tx.commit();
  }
}

PlayerRecord Store::create_player(const std::string& name, const std::string& token_hash,
                                  std::int64_t now) {
  const auto guard = db_.lock();
  db_.prepare("INSERT INTO players(name, token_hash, created) VALUES(?, ?, ?)")
      .bind(1, name)
      .bind(2, token_hash)
      .bind(3, now)
      .run();
  return PlayerRecord{db_.last_insert_id(), name};
}

std::optional<PlayerRecord> Store::player_by_token_hash(const std::string& token_hash) {
  const Reading reader = reading();
  Database& db = reader.db;
  // A player's first device holds players.token_hash; devices he signed in on later with a
  // sign-in link or recovery code hold a row of device_tokens (accounts.h).
  Statement s = db.cached(
      "SELECT id, name FROM players WHERE token_hash = ?1 UNION ALL SELECT p.id, p.name FROM "
      "device_tokens d JOIN players p ON p.id = d.player_id WHERE d.token_hash = ?1 LIMIT 1");
  s.bind(1, token_hash);
  if (!s.step()) return std::nullopt;
  return PlayerRecord{s.int64(0), s.text(1)};
}

std::int64_t Store::create_game(GameRecord& game) {
  const auto guard = db_.lock();
  // Fair play: the secret is fixed and its commitment published before anyone joins.
  const FairSecrets secrets = draw_fair_secrets();
  game.commitment = commitment_hex(secrets);
  Transaction tx(db_);
  db_.prepare(
         "INSERT INTO games(options, status, created, creator, private, invite_hash, spectators, "
         "spectator_delay, commitment, rated, random_scheme) "
         "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
      .bind(1, protocol::options_to_json(game.options).dump())
      .bind(2, to_string(game.status))
      .bind(3, game.created)
      .bind(4, game.creator.id)
      .bind(5, game.is_private ? 1 : 0)
      .bind(6, game.invite_hash)
      .bind(7, to_string(game.spectators))
      .bind(8, game.spectator_delay)
      .bind(9, game.commitment)
      .bind(10, game.rated ? 1 : 0)
      .bind(11, static_cast<int>(game.random_scheme))
      .run();
  game.id = db_.last_insert_id();
  store_fair_secrets(db_, game.id, secrets);
  replace_seats(game.id, game.seats, game.created);
  tx.commit();
  return game.id;
}

void Store::replace_seats(std::int64_t game_id, const std::vector<SeatRecord>& seats,
                          std::int64_t now) {
  const auto guard = db_.lock();
  db_.prepare("DELETE FROM seats WHERE game_id = ?").bind(1, game_id).run();
  db_.prepare("DELETE FROM seat_fair_play WHERE game_id = ?").bind(1, game_id).run();
  for (const SeatRecord& seat : seats) {
    db_.prepare("INSERT INTO seats(game_id, seat, player_id, joined) VALUES(?, ?, ?, ?)")
        .bind(1, game_id)
        .bind(2, seat.seat)
        .bind(3, seat.player_id)
        .bind(4, now)
        .run();
    if (!seat.contribution_commitment.empty() || seat.host) {
      db_.prepare(
             "INSERT INTO seat_fair_play(game_id, player_id, commitment, contribution, host) "
             "VALUES(?, ?, ?, ?, ?)")
          .bind(1, game_id)
          .bind(2, seat.player_id)
          .bind(3, seat.contribution_commitment)
          .bind(4, seat.contribution)
          .bind(5, seat.host ? 1 : 0)
          .run();
    }
    if (!seat.computer.empty()) {
      db_.prepare(
             "INSERT OR REPLACE INTO seat_controllers(game_id, player_id, kind, level) "
             "VALUES(?, ?, 'computer', ?)")
          .bind(1, game_id)
          .bind(2, seat.player_id)
          .bind(3, seat.computer)
          .run();
    }
  }
}

void Store::start_game(const GameRecord& game, const GameState* start_position) {
  const auto guard = db_.lock();
  Transaction tx(db_);
  if (start_position != nullptr) {
    // The position a guided game starts from (server/games/tutorial.h): every load, undo and replay
    // begins at the latest snapshot, so this one stands in for new_game(options, seed).
    db_.prepare("INSERT OR REPLACE INTO snapshots(game_id, seq, state) VALUES(?, 0, ?)")
        .bind(1, game.id)
        .bind(2, protocol::state_to_json(*start_position).dump())
        .run();
  }
  db_.prepare(
         "UPDATE games SET options = ?, seed = ?, status = 'running', current_seat = ?, "
         "seq = 0 WHERE id = ?")
      .bind(1, protocol::options_to_json(game.options).dump())
      .bind(2, static_cast<std::int64_t>(game.seed))
      .bind(3, game.current_seat)
      .bind(4, game.id)
      .run();
  replace_seats(game.id, game.seats, game.created);
  db_.prepare("DELETE FROM reveal_rounds WHERE game_id = ?").bind(1, game.id).run();
  tx.commit();
}

void Store::cancel_game(std::int64_t game_id) {
  const auto guard = db_.lock();
  Transaction tx(db_);
  db_.prepare("UPDATE games SET status = 'cancelled' WHERE id = ?").bind(1, game_id).run();
  db_.prepare("DELETE FROM reveal_rounds WHERE game_id = ?").bind(1, game_id).run();
  tx.commit();
}

void Store::set_reveal_round(std::int64_t game_id, std::optional<std::int64_t> deadline) {
  const auto guard = db_.lock();
  if (deadline) {
    db_.prepare("INSERT OR REPLACE INTO reveal_rounds(game_id, deadline) VALUES(?, ?)")
        .bind(1, game_id)
        .bind(2, *deadline)
        .run();
  } else {
    db_.prepare("DELETE FROM reveal_rounds WHERE game_id = ?").bind(1, game_id).run();
  }
}

std::vector<std::pair<std::int64_t, std::int64_t>> Store::reveal_rounds() {
  const auto guard = db_.lock();
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  Statement s = db_.prepare("SELECT game_id, deadline FROM reveal_rounds ORDER BY deadline");
  while (s.step()) out.emplace_back(s.int64(0), s.int64(1));
  return out;
}

std::vector<std::int64_t> Store::reveal_rounds_of(std::int64_t player_id) {
  // On a reader, like the token lookup before it: a sign-in never waits for the writer.
  const Reading reader = reading();
  std::vector<std::int64_t> out;
  Statement s = reader.db.cached(
      "SELECT r.game_id FROM seats s JOIN reveal_rounds r ON r.game_id = s.game_id "
      "WHERE s.player_id = ? ORDER BY r.game_id LIMIT 100");
  s.bind(1, player_id);
  while (s.step()) out.push_back(s.int64(0));
  return out;
}

void Store::set_invite_hash(std::int64_t game_id, const std::string& invite_hash) {
  const auto guard = db_.lock();
  db_.prepare("UPDATE games SET invite_hash = ? WHERE id = ?")
      .bind(1, invite_hash)
      .bind(2, game_id)
      .run();
}

GameRecord Store::read_game_row(Statement& s) {
  GameRecord g;
  g.id = s.int64(0);
  const std::string where = "game " + std::to_string(g.id) + ": ";
  try {
    g.options = protocol::options_from_json(nlohmann::json::parse(s.text(1)));
    if (g.options.players < 2 || g.options.players > kMaxPlayers) {
      throw DamagedGame("options: players out of range");
    }
    if (auto result = s.optional_text(9)) g.result = nlohmann::json::parse(*result);
  } catch (const nlohmann::json::exception& e) {
    throw DamagedGame(where + e.what());
  } catch (const protocol::JsonError& e) {
    throw DamagedGame(where + "options: " + e.what());
  } catch (const DamagedGame& e) {
    throw DamagedGame(where + e.what());
  }
  g.seed = static_cast<std::uint64_t>(s.int64(2));
  const auto status = game_status_from_string(s.text(3));
  if (!status) throw DamagedGame(where + "unknown status");
  g.status = *status;
  g.created = s.int64(4);
  g.creator = PlayerRecord{s.int64(5), s.text(6)};
  g.is_private = s.int64(7) != 0;
  g.invite_hash = s.optional_text(8).value_or("");
  g.current_seat = static_cast<int>(s.int64(10));
  g.seq = static_cast<int>(s.int64(11));
  g.last_move_at = s.optional_int64(12);
  const auto spectators = spectator_mode_from_string(s.text(13));
  if (!spectators) throw DamagedGame(where + "unknown spectator mode");
  g.spectators = *spectators;
  g.spectator_delay = static_cast<int>(s.int64(14));
  g.commitment = s.optional_text(15).value_or("");
  g.rated = s.int64(17) != 0;
  const std::int64_t scheme = s.int64(18);
  if (scheme != 1 && scheme != 2) throw DamagedGame(where + "unknown random scheme");
  g.random_scheme = static_cast<RandomScheme>(scheme);
  g.reveal_deadline = s.optional_int64(19);
  if (auto clock = s.optional_text(16)) {
    try {
      g.clock = nlohmann::json::parse(*clock);
    } catch (const nlohmann::json::exception& e) {
      throw DamagedGame(where + "clock options: " + e.what());
    }
  }
  if (g.seq < 0) throw DamagedGame(where + "negative seq");
  return g;
}

std::vector<GameRecord> Store::read_games(Database& db, Statement& s, DamagedList* damaged) {
  std::vector<GameRecord> out;
  while (s.step()) {
    try {
      out.push_back(read_game_row(s));
    } catch (const DamagedGame& e) {
      if (damaged != nullptr) damaged->emplace_back(s.int64(0), e.what());
    }
  }
  for (GameRecord& g : out) load_seats(db, g);
  return out;
}

void Store::load_seats(Database& db, GameRecord& game) {
  Statement s = db.cached(
      "SELECT s.seat, s.player_id, p.name, c.level, f.commitment, f.contribution, f.host "
      "FROM seats s JOIN players p ON p.id = s.player_id LEFT JOIN seat_controllers c ON "
      "c.game_id = s.game_id AND c.player_id = s.player_id LEFT JOIN seat_fair_play f ON "
      "f.game_id = s.game_id AND f.player_id = s.player_id WHERE s.game_id = ? ORDER BY s.seat");
  s.bind(1, game.id);
  game.seats.clear();
  while (s.step()) {
    SeatRecord seat{static_cast<int>(s.int64(0)), s.int64(1), s.text(2),
                    s.is_null(3) ? std::string() : s.text(3)};
    seat.contribution_commitment = s.optional_text(4).value_or("");
    seat.contribution = s.optional_text(5).value_or("");
    seat.host = !s.is_null(6) && s.int64(6) != 0;
    game.seats.push_back(std::move(seat));
  }
}

std::optional<GameRecord> Store::game(std::int64_t game_id) {
  const Reading reader = reading();
  Database& db = reader.db;
  Statement s = db.cached(std::string(kGameColumns) + "WHERE g.id = ?");
  s.bind(1, game_id);
  if (!s.step()) return std::nullopt;
  GameRecord g = read_game_row(s);
  load_seats(db, g);
  return g;
}

std::vector<GameRecord> Store::games_with_status(GameStatus status, DamagedList* damaged) {
  const Reading reader = reading();
  Database& db = reader.db;
  Statement s = db.cached(std::string(kGameColumns) + "WHERE g.status = ? ORDER BY g.id");
  s.bind(1, to_string(status));
  return read_games(db, s, damaged);
}

std::vector<GameRecord> Store::games_of_player(std::int64_t player_id, DamagedList* damaged) {
  const Reading reader = reading();
  Database& db = reader.db;
  Statement s =
      db.cached(std::string(kGameColumns) +
                "WHERE g.id IN (SELECT game_id FROM seats WHERE player_id = ?) ORDER BY g.id DESC");
  s.bind(1, player_id);
  return read_games(db, s, damaged);
}

std::vector<std::int64_t> Store::players_sharing_a_game(std::int64_t player_id,
                                                        const std::vector<std::int64_t>& ids) {
  const Reading reader = reading();
  Database& db = reader.db;
  // From each asked id's seats (seats_by_player) to the asker's seat in the same game (the
  // UNIQUE(game_id, player_id) index): the cost follows the games of the ids asked about.
  Statement s = db.cached(
      "SELECT DISTINCT o.player_id FROM seats o "
      "JOIN seats m ON m.game_id = o.game_id AND m.player_id = ?1 "
      "JOIN games g ON g.id = o.game_id AND g.status != 'cancelled' "
      "WHERE o.player_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?2))");
  s.bind(1, player_id);
  s.bind(2, nlohmann::json(ids).dump());
  std::vector<std::int64_t> out;
  while (s.step()) out.push_back(s.int64(0));
  return out;
}

std::vector<GameRecord> Store::recent_games_of_player(std::int64_t player_id, int active,
                                                      int finished, DamagedList* damaged) {
  const Reading reader = reading();
  Database& db = reader.db;
  Statement a = db.cached(std::string(kPlayerGames) +
                          "g.status IN ('open', 'running') ORDER BY s.game_id DESC LIMIT ?2");
  a.bind(1, player_id).bind(2, active);
  std::vector<GameRecord> out = read_games(db, a, damaged);
  Statement f = db.cached(std::string(kPlayerGames) +
                          "g.status = 'finished' ORDER BY s.game_id DESC LIMIT ?2");
  f.bind(1, player_id).bind(2, finished);
  std::vector<GameRecord> done = read_games(db, f, damaged);
  out.insert(out.end(), std::make_move_iterator(done.begin()), std::make_move_iterator(done.end()));
  std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.id > y.id; });
  return out;
}

std::vector<GameRecord> Store::games_to_watch(std::int64_t viewer, int limit,
                                              DamagedList* damaged) {
  const Reading reader = reading();
  Database& db = reader.db;
  // The conditions of the partial index games_to_watch, written as there, so that SQLite
  // walks it in order and stops after `limit` rows.
  Statement s = db.cached(
      VIKTORY_GAME_FIELDS
      "FROM games g INDEXED BY games_to_watch " VIKTORY_GAME_JOINS
      "WHERE g.status = 'running' AND g.private = 0 AND g.spectators != 'none' AND NOT EXISTS "
      "(SELECT 1 FROM seats v WHERE v.game_id = g.id AND v.player_id = ?1) "
      "ORDER BY COALESCE(g.last_move_at, g.created) DESC, g.id DESC LIMIT ?2");
  s.bind(1, viewer).bind(2, limit);
  return read_games(db, s, damaged);
}

std::vector<std::int64_t> Store::running_games_with_computers() {
  const auto guard = db_.lock();
  Statement s = db_.prepare(
      "SELECT DISTINCT g.id FROM games g JOIN seat_controllers c ON c.game_id = g.id "
      "WHERE g.status = 'running' ORDER BY g.id");
  std::vector<std::int64_t> out;
  while (s.step()) out.push_back(s.int64(0));
  return out;
}

int Store::open_games_count() {
  const Reading reader = reading();
  Statement s = reader.db.cached("SELECT count(*) FROM games WHERE status = 'open'");
  return s.step() ? static_cast<int>(s.int64(0)) : 0;
}

int Store::open_seats_of(std::int64_t player_id) {
  const Reading reader = reading();
  Statement s = reader.db.cached(
      "SELECT count(*) FROM seats s JOIN games g ON g.id = s.game_id "
      "WHERE s.player_id = ? AND g.status = 'open'");
  s.bind(1, player_id);
  return s.step() ? static_cast<int>(s.int64(0)) : 0;
}

std::vector<Store::ComputerGame> Store::live_computer_games() {
  const Reading reader = reading();
  Database& db = reader.db;
  Statement s = db.cached(
      "SELECT g.id, g.creator FROM games g WHERE g.status IN ('open', 'running') AND EXISTS "
      "(SELECT 1 FROM seat_controllers c WHERE c.game_id = g.id AND c.kind = 'computer' "
      "AND c.level != 'passive') ORDER BY g.id");  // not the guided games (tutorial.h)
  std::vector<ComputerGame> out;
  while (s.step()) out.push_back(ComputerGame{s.int64(0), s.int64(1)});
  return out;
}

std::optional<std::int64_t> Store::running_tutorial_of(std::int64_t player_id) {
  const Reading reader = reading();
  Database& db = reader.db;
  Statement s = db.cached(
      "SELECT g.id FROM seats s JOIN games g ON g.id = s.game_id WHERE s.player_id = ? AND "
      "g.status = 'running' AND EXISTS (SELECT 1 FROM seat_controllers c WHERE c.game_id = g.id "
      "AND c.kind = 'computer' AND c.level = 'passive') ORDER BY g.id DESC LIMIT 1");
  s.bind(1, player_id);
  if (!s.step()) return std::nullopt;
  return s.int64(0);
}

Store::~Store() {
  if (!group_) return;
  {
    std::lock_guard lock(group_->mutex);
    group_->stopping = true;
  }
  group_->work.notify_one();
  group_->writer.join();
}

void Store::write_action(const ActionCommit& commit) {
  const ActionRecord& r = commit.record;
  // First: a process that lost the game's lease (it stalled past the term, another took over)
  // writes nothing of it, however late it learns so (fencing, game_leases.h).
  if (leases_ != nullptr && !leases_->hold(commit.game_id, now_ms())) {
    throw DbError(kLeaseLost);
  }
  Statement insert = db_.cached(
      "INSERT INTO actions(game_id, seq, action, sealed, turn, at, source) "
      "VALUES(?,?,?,?,?,?,?)");
  insert.bind(1, commit.game_id)
      .bind(2, r.seq)
      .bind(3, protocol::action_to_json(r.action).dump())
      .bind(4, r.sealed ? 1 : 0)
      .bind(5, r.turn)
      .bind(6, r.at);
  if (r.source == ActionSource::kPlayer) {
    insert.bind_null(7);
  } else {
    insert.bind(7, std::string(to_string(r.source)));
  }
  insert.run();
  if (commit.snapshot != nullptr) {
    db_.cached("INSERT OR REPLACE INTO snapshots(game_id, seq, state) VALUES(?, ?, ?)")
        .bind(1, commit.game_id)
        .bind(2, r.seq)
        .bind(3, protocol::state_to_json(*commit.snapshot).dump())
        .run();
  }
  Statement update = db_.cached(
      "UPDATE games SET seq = ?, current_seat = ?, last_move_at = ?, "
      "status = CASE WHEN ? = 1 THEN 'finished' ELSE status END, "
      "result = COALESCE(?, result) WHERE id = ?");
  update.bind(1, r.seq).bind(2, commit.current_seat).bind(3, r.at);
  update.bind(4, commit.finished ? 1 : 0);
  if (commit.finished) {
    update.bind(5, commit.finished->dump());
  } else {
    update.bind_null(5);
  }
  update.bind(6, commit.game_id).run();
  // The players' records and ratings, in the transaction of the result (player_records.h).
  if (commit.finished) record_game_end(db_, commit.game_id, commit.places, r.at);
}

void Store::finish_game(std::int64_t game_id, const nlohmann::json& result,
                        const SeatPlaces& places) {
  const auto guard = db_.lock();
  Transaction tx(db_);
  db_.prepare(
         "UPDATE games SET status = 'finished', result = ? WHERE id = ? AND status = 'running'")
      .bind(1, result.dump())
      .bind(2, game_id)
      .run();
  if (db_.changes() == 1) record_game_end(db_, game_id, places, now_ms());
  tx.commit();
}

void Store::remove_last_action(std::int64_t game_id, int seq, int current_seat) {
  const auto guard = db_.lock();
  Transaction tx(db_);
  db_.prepare("DELETE FROM actions WHERE game_id = ? AND seq = ?")
      .bind(1, game_id)
      .bind(2, seq)
      .run();
  if (db_.changes() != 1) throw DbError("undo: action " + std::to_string(seq) + " not found");
  db_.prepare("DELETE FROM snapshots WHERE game_id = ? AND seq >= ?")
      .bind(1, game_id)
      .bind(2, seq)
      .run();
  db_.prepare("UPDATE games SET seq = ?, current_seat = ? WHERE id = ?")
      .bind(1, seq - 1)
      .bind(2, current_seat)
      .bind(3, game_id)
      .run();
  tx.commit();
}

std::vector<ActionRecord> Store::actions(std::int64_t game_id, int after_seq) {
  const Reading reader = reading();
  Database& db = reader.db;
  Statement s = db.cached(
      "SELECT seq, action, sealed, turn, at, source FROM actions WHERE game_id = ? AND seq > ? "
      "ORDER BY seq");
  s.bind(1, game_id).bind(2, after_seq);
  std::vector<ActionRecord> out;
  while (s.step()) {
    ActionRecord r;
    r.seq = static_cast<int>(s.int64(0));
    r.action = protocol::action_from_json(nlohmann::json::parse(s.text(1)));
    r.sealed = s.int64(2) != 0;
    r.turn = static_cast<int>(s.int64(3));
    r.at = s.int64(4);
    if (!s.is_null(5)) r.source = action_source_from_string(s.text(5));
    out.push_back(std::move(r));
  }
  return out;
}

std::optional<std::pair<int, GameState>> Store::latest_snapshot(std::int64_t game_id, int max_seq) {
  const Reading reader = reading();
  Database& db = reader.db;
  Statement s = db.cached(
      "SELECT seq, state FROM snapshots WHERE game_id = ? AND seq <= ? ORDER BY seq DESC "
      "LIMIT 1");
  s.bind(1, game_id).bind(2, max_seq);
  if (!s.step()) return std::nullopt;
  return std::make_pair(static_cast<int>(s.int64(0)),
                        protocol::state_from_json(nlohmann::json::parse(s.text(1))));
}

std::int64_t Store::add_chat(std::int64_t game_id, const ChatRecord& chat) {
  const auto guard = db_.lock();
  Statement s = db_.cached(
      "INSERT INTO chat(game_id, player_id, seat, name, text, at) VALUES(?, ?, ?, ?, ?, ?)");
  s.bind(1, game_id).bind(2, chat.player_id);
  if (chat.seat) {
    s.bind(3, *chat.seat);
  } else {
    s.bind_null(3);
  }
  s.bind(4, chat.name).bind(5, chat.text).bind(6, chat.at).run();
  return db_.last_insert_id();
}

std::vector<ChatRecord> Store::recent_chat(std::int64_t game_id, int limit, bool spectators) {
  const Reading reader = reading();
  Database& db = reader.db;
  Statement s =
      db.cached(std::string("SELECT at, player_id, seat, name, text, id FROM (SELECT * FROM "
                            "chat WHERE game_id = ? AND seat IS ") +
                (spectators ? "NULL" : "NOT NULL") +
                " AND NOT EXISTS (SELECT 1 FROM chat_hidden h WHERE h.chat_id = chat.id)"
                " ORDER BY id DESC LIMIT ?) ORDER BY id");
  s.bind(1, game_id).bind(2, limit);
  std::vector<ChatRecord> out;
  while (s.step()) {
    ChatRecord c;
    c.at = s.int64(0);
    c.player_id = s.int64(1);
    if (auto seat = s.optional_int64(2)) c.seat = static_cast<int>(*seat);
    c.name = s.text(3);
    c.text = s.text(4);
    c.id = s.int64(5);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace viktory::server
