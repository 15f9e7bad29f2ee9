// A small RAII wrapper over the sqlite3 C API: a connection, prepared statements and
// transactions. Errors throw DbError with SQLite's message.
//
// The same classes carry a PostgreSQL connection when they are opened on a postgresql:// URI
// (docs/postgresql-plan.md): each call is then passed to pg_database.h's twin, which translates
// the statement, written in SQLite's dialect, into PostgreSQL's. So the store and everything
// over it is written once, for both; what only one of them has (PRAGMAs, the WAL, online
// backups) asks postgresql() first.
#pragma once

#include <sqlite3.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>

namespace viktory::server {

struct DbError : std::runtime_error {
  explicit DbError(const std::string& message, int sqlite_code = 0)
      : std::runtime_error(message), code(sqlite_code) {}
  int code;  // SQLite's extended result code, 0 when unknown
  // Set by the PostgreSQL connection for what counts as the disk failing on SQLite: the
  // connection lost, the server out of disk or memory, shut down (SQLSTATE classes 08, 53, 57,
  // 58).
  bool storage = false;
  // The disk or the file failed (I/O error, disk full, read-only, locked file, corruption):
  // unlike a constraint or a bug, what was written may not be what SQLite reports.
  bool storage_failure() const;
};

class Statement;
class PgDatabase;
class PgStatement;

// Whether a --db location names a PostgreSQL database (postgresql:// or postgres://) rather
// than an SQLite file.
bool is_postgresql_location(std::string_view location);
// The location as it may be logged or shown: a PostgreSQL URI's password (user:password@, or
// password=...) replaced by "***". A file path is given back as it is.
std::string redacted_location(std::string_view location);

class Database {
 public:
  // read_only: the connection may not write (a second connection for readers).
  // location: an SQLite file, or a PostgreSQL URI (is_postgresql_location).
  explicit Database(const std::string& location, bool read_only = false);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  void exec(const std::string& sql);  // one or more statements without parameters
  Statement prepare(std::string_view sql);
  // The same, but prepared once per connection and kept: the returned Statement is reset and
  // its bindings cleared when it dies, instead of being finalized. For the hot statements
  // (committing an action, signing in, reading a game). Whoever calls it holds lock(), like
  // every use of the connection. A statement already in use (the same SQL, nested) is
  // prepared afresh.
  Statement cached(std::string_view sql);
  // The id the last INSERT gave a row. On PostgreSQL the one it drew from an identity column
  // (an id given explicitly does not count).
  std::int64_t last_insert_id();
  int changes() const;
  sqlite3* handle() const { return db_; }  // nullptr on PostgreSQL
  // The file of the main database ("" for an in-memory one); on PostgreSQL the URI it was
  // opened with, so that another connection to the same database can be opened from it.
  std::string path() const;
  bool postgresql() const { return pg_ != nullptr; }
  PgDatabase& pg() { return *pg_; }  // only when postgresql()
  // Statements compiled on this connection so far (prepare, and cached() when it compiles):
  // lets a test see that a hot path reuses its statements.
  std::int64_t statements_prepared() const { return prepared_.load(); }

  // One connection, used from several threads (every game runs under its own lock): whoever
  // uses it holds this lock, for a whole transaction (Transaction takes it) or a whole Store
  // call. Recursive, so a Store call inside a transaction takes it again.
  std::unique_lock<std::recursive_mutex> lock() { return std::unique_lock(mutex_); }
  // Whether the calling thread holds a Transaction open on this connection: its reads must
  // go through this connection too, to see its own uncommitted writes (Store::reading).
  bool in_transaction_here() const {
    return transaction_thread_.load() == std::this_thread::get_id();
  }

 private:
  friend class Transaction;
  std::atomic<std::thread::id> transaction_thread_{};
  std::atomic<std::int64_t> prepared_{0};
  struct Cached {
    sqlite3_stmt* stmt = nullptr;
    bool in_use = false;
  };
  sqlite3* db_ = nullptr;
  std::unique_ptr<PgDatabase> pg_;  // set instead of db_ on PostgreSQL
  std::string location_;
  std::recursive_mutex mutex_;
  std::unordered_map<std::string, Cached> cache_;  // by SQL text; used under mutex_
};

class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement& operator=(Statement&&) = delete;

  // Parameters are numbered from 1, as in SQLite.
  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, int value) { return bind(index, std::int64_t{value}); }
  Statement& bind(int index, std::string_view value);
  Statement& bind(int index, const char* value) { return bind(index, std::string_view(value)); }
  Statement& bind(int index, const std::string& value) {
    return bind(index, std::string_view(value));
  }
  Statement& bind_null(int index);
  Statement& bind_real(int index, double value);  // REAL columns (ratings)

  // Advances to the next row: true while there is one. Throws on error.
  bool step();
  // Runs a statement that returns no rows.
  void run();

  bool is_null(int column) const;
  std::int64_t int64(int column) const;
  std::string text(int column) const;
  std::optional<std::string> optional_text(int column) const;
  std::optional<std::int64_t> optional_int64(int column) const;
  double real(int column) const;

 private:
  friend class Database;
  // A statement of Database::cached: given back (reset, unbound) instead of finalized.
  Statement(sqlite3* db, sqlite3_stmt* cached, bool* in_use);
  explicit Statement(std::unique_ptr<PgStatement> pg);

  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
  bool* in_use_ = nullptr;           // set for a cached statement
  std::unique_ptr<PgStatement> pg_;  // set instead of stmt_ on PostgreSQL
};

// BEGIN IMMEDIATE on construction; ROLLBACK on destruction unless commit() was called.
class Transaction {
 public:
  explicit Transaction(Database& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  Database& db_;
  std::unique_lock<std::recursive_mutex> lock_;  // held from BEGIN to COMMIT or ROLLBACK
  bool done_ = false;
  void release();  // the connection no longer belongs to this thread's transaction
};

}  // namespace viktory::server
