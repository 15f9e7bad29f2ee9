// The libpq twin of database.h: a PostgreSQL connection, its statements and transactions, with
// the same calls as the SQLite wrapper so that the store can be written once over either
// (docs/postgresql-plan.md, piece 1). Statements are written in SQLite's dialect and translated by
// SqlDialect when prepared; parameters are sent with their types (bigint, text, double precision)
// so PostgreSQL types a parameter used in two places one way. Errors throw DbError with
// PostgreSQL's message. The server uses it through database.h, whose classes pass every call
// here when opened on a postgresql:// URI; its own tests are
// tests/server/postgresql_database_test.cpp, on a throwaway cluster.
#pragma once

#include <libpq-fe.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "database.h"
#include "sql_dialect.h"

namespace viktory::server {

class PgStatement;

class PgDatabase {
 public:
  // conninfo: libpq's connection string or URI (postgresql://user@host/db).
  explicit PgDatabase(const std::string& conninfo);
  ~PgDatabase();
  PgDatabase(const PgDatabase&) = delete;
  PgDatabase& operator=(const PgDatabase&) = delete;

  // Brings the schema to Store::kSchemaVersion with the same migrations as SQLite, translated,
  // and records the version in schema_version (PostgreSQL has no user_version). A database is
  // created on PostgreSQL at the current version or later, never filled at an older one, so the
  // old migrations' data backfills the dialect refuses (they read JSON) have nothing to fill
  // there and are skipped; a migration written from now on needs a PostgreSQL text of its own
  // where the dialect refuses it. Gives the version the database was at before.
  int migrate();
  int schema_version();

  void exec(const std::string& sql);  // one or more statements without parameters
  PgStatement prepare(std::string_view sql);
  // Prepared on the server once per connection and parameter types, and kept.
  PgStatement cached(std::string_view sql);
  // The id the last INSERT drew from an identity column on this connection (lastval()): unlike
  // SQLite's rowid, an id given explicitly in the INSERT does not count.
  std::int64_t last_insert_id();
  int changes() const { return changes_; }  // rows the last statement inserted, changed, deleted
  std::int64_t statements_prepared() const { return prepared_; }
  std::unique_lock<std::recursive_mutex> lock() { return std::unique_lock(mutex_); }

  const SqlDialect& dialect() const { return dialect_; }

 private:
  friend class PgStatement;
  friend class PgTransaction;
  // One execution: text in PostgreSQL's dialect, parameters in text form with their type oids;
  // `name` set for a statement prepared on the server. Throws DbError.
  struct Result {
    std::unique_ptr<PGresult, void (*)(PGresult*)> result{nullptr, &PQclear};
  };
  Result execute(const std::string& text, const std::string& name,
                 const std::vector<std::optional<std::string>>& values,
                 const std::vector<Oid>& types);
  // The name of the server-side statement for this text and these parameter types, preparing it
  // the first time.
  std::string server_statement(const std::string& text, const std::vector<Oid>& types);
  // Whether a failed statement counts as the storage failing (DbError::storage).
  bool storage_failure(const PGresult* result) const;

 public:
  // Called before a transaction or a statement outside one: a connection that was lost is
  // opened again (a restarted PostgreSQL), its session settings (remember_setting) set again.
  void reconnect_if_lost();
  // A SET that must hold for the whole session, also after a reconnection.
  void remember_setting(const std::string& sql) {
    session_settings_.push_back(sql);
    exec(sql);
  }
  // A claim the session must hold, taken again each time the connection is opened again:
  // `sql` answers one boolean. If it answers false (another session took the claim while this
  // one was gone), this connection is fenced: every statement from then on fails as a storage
  // failure with `refusal`, for a server that lost its claim must not write (another serves the
  // database now).
  void require_on_reconnect(const std::string& sql, const std::string& refusal) {
    claims_.emplace_back(sql, refusal);
  }

 private:
  std::vector<std::string> session_settings_;
  std::vector<std::pair<std::string, std::string>> claims_;  // sql, refusal
  std::string fenced_;                                       // the refusal, once a claim was lost
  bool in_transaction_ = false;  // between a BEGIN and its COMMIT or ROLLBACK

  PGconn* conn_ = nullptr;
  SqlDialect dialect_;
  std::recursive_mutex mutex_;
  std::map<std::string, std::string> prepared_names_;  // text + types -> server name
  int changes_ = 0;
  std::int64_t prepared_ = 0;
};

class PgStatement {
 public:
  // Parameters are numbered from 1, as in SQLite (and $N in PostgreSQL's text).
  PgStatement& bind(int index, std::int64_t value);
  PgStatement& bind(int index, int value) { return bind(index, std::int64_t{value}); }
  PgStatement& bind(int index, std::string_view value);
  PgStatement& bind(int index, const char* value) { return bind(index, std::string_view(value)); }
  PgStatement& bind(int index, const std::string& value) {
    return bind(index, std::string_view(value));
  }
  PgStatement& bind_null(int index);
  PgStatement& bind_real(int index, double value);

  // Runs the statement at the first call; then advances to the next row: true while there is one.
  bool step();
  void run();

  // Read as SQLite reads them: NULL is 0 and "", a boolean 1 or 0, a decimal truncated.
  bool is_null(int column) const;
  std::int64_t int64(int column) const;
  std::string text(int column) const;
  std::optional<std::string> optional_text(int column) const;
  std::optional<std::int64_t> optional_int64(int column) const;
  double real(int column) const;
  Oid column_type(int column) const { return PQftype(result_.result.get(), column); }

 private:
  friend class PgDatabase;
  PgStatement(PgDatabase& db, std::string text, bool cached);
  void set(int index, std::optional<std::string> value, Oid type);

  PgDatabase& db_;
  std::string text_;  // in PostgreSQL's dialect
  bool cached_;
  std::size_t parameters_ = 0;  // the largest $N of the text: an unbound one is sent as NULL
  std::vector<std::optional<std::string>> values_;
  std::vector<Oid> types_;
  PgDatabase::Result result_;
  bool ran_ = false;
  int row_ = -1;
};

// BEGIN on construction; ROLLBACK on destruction unless commit() was called. PostgreSQL takes row
// locks as it writes, where SQLite's BEGIN IMMEDIATE took the one writer lock.
class PgTransaction {
 public:
  explicit PgTransaction(PgDatabase& db);
  ~PgTransaction();
  PgTransaction(const PgTransaction&) = delete;
  PgTransaction& operator=(const PgTransaction&) = delete;
  void commit();

 private:
  PgDatabase& db_;
  std::unique_lock<std::recursive_mutex> lock_;
  bool done_ = false;
};

}  // namespace viktory::server
