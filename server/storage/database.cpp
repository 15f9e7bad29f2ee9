#include "database.h"

#include <utility>

#include "pg_database.h"

namespace viktory::server {

bool is_postgresql_location(std::string_view location) {
  return location.starts_with("postgresql://") || location.starts_with("postgres://");
}

std::string redacted_location(std::string_view location) {
  std::string out(location);
  if (!is_postgresql_location(location)) return out;
  // postgresql://user:password@host/...: the password runs from the first ':' after the
  // scheme to the '@' that ends the user information.
  const std::size_t start = out.find("://") + 3;
  const std::size_t at = out.find('@', start);
  const std::size_t slash = out.find('/', start);
  if (at != std::string::npos && (slash == std::string::npos || at < slash)) {
    const std::size_t colon = out.find(':', start);
    if (colon != std::string::npos && colon < at) out.replace(colon + 1, at - colon - 1, "***");
  }
  // ...?password=secret&...
  for (std::size_t p = out.find("password="); p != std::string::npos;
       p = out.find("password=", p + 1)) {
    const std::size_t value = p + 9;
    const std::size_t end = out.find('&', value);
    out.replace(value, (end == std::string::npos ? out.size() : end) - value, "***");
  }
  return out;
}

bool DbError::storage_failure() const {
  if (storage) return true;
  switch (code & 0xff) {
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
    case SQLITE_PROTOCOL:
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return true;
    default:
      return false;
  }
}

Database::Database(const std::string& path, bool read_only) : location_(path) {
  if (is_postgresql_location(path)) {
    pg_ = std::make_unique<PgDatabase>(path);
    // A reader's transactions may not write, as SQLite's query_only; PostgreSQL's snapshots
    // keep readers and the writer apart without more.
    if (read_only) pg_->remember_setting("SET default_transaction_read_only = on");
    return;
  }
  // A reader opens read-write so that it may use the WAL index, and is then made query-only.
  const int flags = read_only ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
                              : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  const int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw DbError("cannot open database " + path + ": " + message, rc);
  }
  sqlite3_busy_timeout(db_, 5000);
  sqlite3_extended_result_codes(db_, 1);
  if (read_only) exec("PRAGMA query_only=1");
}

std::string Database::path() const {
  if (pg_) return location_;
  const char* file = sqlite3_db_filename(db_, "main");
  return file != nullptr ? file : "";
}

Database::~Database() {
  // sqlite3_close_v2 defers the close until every statement is finalized; all our statements
  // are RAII objects that die first anyway, and the cached ones are finalized here.
  for (auto& [sql, cached] : cache_) sqlite3_finalize(cached.stmt);
  if (db_ != nullptr) sqlite3_close_v2(db_);
}

std::int64_t Database::last_insert_id() {
  return pg_ ? pg_->last_insert_id() : sqlite3_last_insert_rowid(db_);
}

int Database::changes() const { return pg_ ? pg_->changes() : sqlite3_changes(db_); }

void Database::exec(const std::string& sql) {
  if (pg_) return pg_->exec(sql);
  char* error = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    std::string message = error != nullptr ? error : "unknown error";
    sqlite3_free(error);
    throw DbError(message, sqlite3_extended_errcode(db_));
  }
}

Statement Database::prepare(std::string_view sql) {
  ++prepared_;
  if (pg_) return Statement(std::make_unique<PgStatement>(pg_->prepare(sql)));
  return Statement(db_, sql);
}

Statement Database::cached(std::string_view sql) {
  if (pg_) {
    // Prepared on the server once per text and parameter types (PgDatabase::cached).
    return Statement(std::make_unique<PgStatement>(pg_->cached(sql)));
  }
  auto it = cache_.find(std::string(sql));
  if (it == cache_.end()) {
    ++prepared_;
    Statement fresh(db_, sql);
    it = cache_.emplace(std::string(sql), Cached{std::exchange(fresh.stmt_, nullptr)}).first;
  }
  if (it->second.in_use) return prepare(sql);
  it->second.in_use = true;
  return Statement(db_, it->second.stmt, &it->second.in_use);
}

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db) {
  if (sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) !=
      SQLITE_OK) {
    throw DbError(std::string("prepare failed: ") + sqlite3_errmsg(db_),
                  sqlite3_extended_errcode(db_));
  }
}

Statement::Statement(std::unique_ptr<PgStatement> pg) : pg_(std::move(pg)) {}

Statement::Statement(sqlite3* db, sqlite3_stmt* cached, bool* in_use)
    : db_(db), stmt_(cached), in_use_(in_use) {}

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_), stmt_(other.stmt_), in_use_(other.in_use_), pg_(std::move(other.pg_)) {
  other.stmt_ = nullptr;
  other.in_use_ = nullptr;
}

Statement::~Statement() {
  if (stmt_ == nullptr) return;
  if (in_use_ == nullptr) {
    sqlite3_finalize(stmt_);
    return;
  }
  // Reset ends the statement's read or write on the connection (an unfinished SELECT would
  // keep its snapshot of the database open); the next user binds afresh.
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
  *in_use_ = false;
}

Statement& Statement::bind(int index, std::int64_t value) {
  if (pg_) {
    pg_->bind(index, value);
    return *this;
  }
  if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) {
    throw DbError(std::string("bind failed: ") + sqlite3_errmsg(db_));
  }
  return *this;
}

Statement& Statement::bind(int index, std::string_view value) {
  if (pg_) {
    pg_->bind(index, value);
    return *this;
  }
  if (sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()),
                        SQLITE_TRANSIENT) != SQLITE_OK) {
    throw DbError(std::string("bind failed: ") + sqlite3_errmsg(db_));
  }
  return *this;
}

Statement& Statement::bind_null(int index) {
  if (pg_) {
    pg_->bind_null(index);
    return *this;
  }
  if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) {
    throw DbError(std::string("bind failed: ") + sqlite3_errmsg(db_));
  }
  return *this;
}

bool Statement::step() {
  if (pg_) return pg_->step();
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  throw DbError(std::string("step failed: ") + sqlite3_errmsg(db_), sqlite3_extended_errcode(db_));
}

void Statement::run() {
  while (step()) {
  }
}

bool Statement::is_null(int column) const {
  if (pg_) return pg_->is_null(column);
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

std::int64_t Statement::int64(int column) const {
  return pg_ ? pg_->int64(column) : sqlite3_column_int64(stmt_, column);
}

double Statement::real(int column) const {
  return pg_ ? pg_->real(column) : sqlite3_column_double(stmt_, column);
}

Statement& Statement::bind_real(int index, double value) {
  if (pg_) {
    pg_->bind_real(index, value);
    return *this;
  }
  if (sqlite3_bind_double(stmt_, index, value) != SQLITE_OK) {
    throw DbError(std::string("bind failed: ") + sqlite3_errmsg(db_));
  }
  return *this;
}

std::string Statement::text(int column) const {
  if (pg_) return pg_->text(column);
  const auto* p = sqlite3_column_text(stmt_, column);
  if (p == nullptr) return {};
  return std::string(reinterpret_cast<const char*>(p),
                     static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)));
}

std::optional<std::string> Statement::optional_text(int column) const {
  if (is_null(column)) return std::nullopt;
  return text(column);
}

std::optional<std::int64_t> Statement::optional_int64(int column) const {
  if (is_null(column)) return std::nullopt;
  return int64(column);
}

Transaction::Transaction(Database& db) : db_(db), lock_(db.lock()) {
  db_.exec("BEGIN IMMEDIATE");
  db_.transaction_thread_.store(std::this_thread::get_id());
}

void Transaction::release() { db_.transaction_thread_.store(std::thread::id{}); }

Transaction::~Transaction() {
  if (!done_) {
    release();
    try {
      db_.exec("ROLLBACK");
    } catch (const DbError&) {
      // Nothing more we can do in a destructor; SQLite rolls back on close anyway.
    }
  }
}

void Transaction::commit() {
  db_.exec("COMMIT");
  done_ = true;
  release();
}

}  // namespace viktory::server
