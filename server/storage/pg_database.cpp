// The libpq connection (pg_database.h).
#include "pg_database.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "store.h"
#include "store_schema.h"

namespace viktory::server {
namespace {

// pg_type.h's oids for the types a parameter is sent as.
constexpr Oid kBigint = 20;
constexpr Oid kText = 25;
constexpr Oid kDouble = 701;

// PostgreSQL's message on one line (a log line is one line): its "LINE 1: ..." and caret lines
// are joined with " | ".
std::string one_line(const char* message) {
  std::string text = message ? message : "";
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  for (std::size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at)) {
    text.replace(at, 1, " | ");
  }
  return text;
}

}  // namespace

PgDatabase::PgDatabase(const std::string& conninfo) : conn_(PQconnectdb(conninfo.c_str())) {
  if (conn_ == nullptr) throw DbError("PostgreSQL: out of memory");
  if (PQstatus(conn_) != CONNECTION_OK) {
    const std::string message = one_line(PQerrorMessage(conn_));
    PQfinish(conn_);
    conn_ = nullptr;
    throw DbError("PostgreSQL: " + message);
  }
  // Notices ("relation already exists, skipping") are not errors; the server logs its own.
  PQsetNoticeProcessor(
      conn_, [](void*, const char*) {}, nullptr);
  // The store's text is UTF-8 whatever the server's default (times are kept as integers).
  exec("SET client_encoding = 'UTF8'");
}

PgDatabase::~PgDatabase() {
  if (conn_) PQfinish(conn_);
}

int PgDatabase::schema_version() {
  // Read without writing: a reader's connection may not create the table.
  PgStatement exists = prepare("SELECT to_regclass('schema_version') IS NOT NULL");
  if (!exists.step() || exists.int64(0) == 0) return 0;
  PgStatement s = prepare("SELECT version FROM schema_version");
  return s.step() ? static_cast<int>(s.int64(0)) : 0;
}

int PgDatabase::migrate() {
  const auto guard = lock();
  exec("CREATE TABLE IF NOT EXISTS schema_version(version BIGINT NOT NULL)");
  const int before = schema_version();
  // The dialect learns the whole schema, also the part already there, for INSERT OR REPLACE.
  for (int version = 1; version <= Store::kSchemaVersion; ++version) {
    const bool apply = version > before;
    std::optional<PgTransaction> transaction;  // one per migration, as on SQLite
    if (apply) transaction.emplace(*this);
    for (const std::string& statement : split_statements(schema_migration(version))) {
      if (apply) {
        std::string text;
        try {
          text = dialect_.to_postgresql(statement);
        } catch (const SqlDialectError&) {
          // A backfill of an older schema's data: nothing to fill (see the header).
          dialect_.learn(statement);
          continue;
        }
        execute(text, "", {}, {});
      }
      dialect_.learn(statement);
    }
    if (apply) {
      exec("DELETE FROM schema_version");
      exec("INSERT INTO schema_version(version) VALUES(" + std::to_string(version) + ")");
      transaction->commit();
    }
  }
  return before;
}

void PgDatabase::exec(const std::string& sql) {
  const auto guard = lock();
  for (const std::string& statement : split_statements(sql)) {
    std::string text;
    try {
      text = dialect_.to_postgresql(statement);
    } catch (const SqlDialectError& e) {
      throw DbError(e.what());
    }
    execute(text, "", {}, {});
  }
}

PgStatement PgDatabase::prepare(std::string_view sql) {
  try {
    return PgStatement(*this, dialect_.to_postgresql(sql), false);
  } catch (const SqlDialectError& e) {
    throw DbError(e.what());
  }
}

PgStatement PgDatabase::cached(std::string_view sql) {
  try {
    return PgStatement(*this, dialect_.to_postgresql(sql), true);
  } catch (const SqlDialectError& e) {
    throw DbError(e.what());
  }
}

std::int64_t PgDatabase::last_insert_id() {
  PgStatement s = prepare("SELECT lastval()");
  return s.step() ? s.int64(0) : 0;
}

std::string PgDatabase::server_statement(const std::string& text, const std::vector<Oid>& types) {
  std::string key = text;
  for (Oid type : types) key += "\x1f" + std::to_string(type);
  if (!in_transaction_) reconnect_if_lost();  // before looking up what this session prepared
  if (auto it = prepared_names_.find(key); it != prepared_names_.end()) return it->second;
  std::string name = "s" + std::to_string(prepared_names_.size() + 1);
  Result prepared;
  prepared.result.reset(
      PQprepare(conn_, name.c_str(), text.c_str(), static_cast<int>(types.size()), types.data()));
  // Preparing changes nothing: one that found the connection lost outside a transaction is
  // done again on a new one (whose session has prepared nothing yet).
  if (PQresultStatus(prepared.result.get()) != PGRES_COMMAND_OK && !in_transaction_ &&
      PQstatus(conn_) != CONNECTION_OK) {
    reconnect_if_lost();
    name = "s" + std::to_string(prepared_names_.size() + 1);
    prepared.result.reset(
        PQprepare(conn_, name.c_str(), text.c_str(), static_cast<int>(types.size()), types.data()));
  }
  if (PQresultStatus(prepared.result.get()) != PGRES_COMMAND_OK) {
    const std::string shown = text.size() > 200 ? text.substr(0, 200) + "..." : text;
    DbError error("prepare failed: " + one_line(PQresultErrorMessage(prepared.result.get())) +
                  " (in: " + shown + ")");
    error.storage = storage_failure(prepared.result.get());
    throw error;
  }
  ++prepared_;
  prepared_names_.emplace(key, name);
  return name;
}

bool PgDatabase::storage_failure(const PGresult* result) const {
  if (PQstatus(conn_) != CONNECTION_OK) return true;
  const char* state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  if (state == nullptr) return true;  // no answer from the server at all
  const std::string_view class_of(state, std::min<std::size_t>(2, std::strlen(state)));
  // Connection exception, insufficient resources (disk full), operator intervention (shut
  // down), system error (I/O): what SQLite reports as the disk failing.
  return class_of == "08" || class_of == "53" || class_of == "57" || class_of == "58";
}

void PgDatabase::reconnect_if_lost() {
  if (!fenced_.empty()) {
    DbError error(fenced_);
    error.storage = true;
    throw error;
  }
  if (PQstatus(conn_) == CONNECTION_OK) return;
  // The server restarted, or the connection was cut: a new session has none of the old one's
  // prepared statements. What was running in a transaction is gone (rolled back there).
  PQreset(conn_);
  prepared_names_.clear();
  if (PQstatus(conn_) != CONNECTION_OK) {
    DbError error("PostgreSQL: " + one_line(PQerrorMessage(conn_)));
    error.storage = true;
    throw error;
  }
  PGresult* set = PQexec(conn_, "SET client_encoding = 'UTF8'");
  PQclear(set);
  for (const std::string& setting : session_settings_) PQclear(PQexec(conn_, setting.c_str()));
  for (const auto& [sql, refusal] : claims_) {
    Result claim;
    claim.result.reset(PQexec(conn_, sql.c_str()));
    const bool held = PQresultStatus(claim.result.get()) == PGRES_TUPLES_OK &&
                      PQntuples(claim.result.get()) == 1 &&
                      std::string_view(PQgetvalue(claim.result.get(), 0, 0)) == "t";
    if (held) continue;
    if (PQstatus(conn_) != CONNECTION_OK) {  // lost again at once: tried at the next statement
      DbError error("PostgreSQL: " + one_line(PQerrorMessage(conn_)));
      error.storage = true;
      throw error;
    }
    fenced_ = refusal;  // nothing more goes through this session (reconnect_if_lost refuses)
    DbError error(fenced_);
    error.storage = true;
    throw error;
  }
}

PgDatabase::Result PgDatabase::execute(const std::string& text, const std::string& name,
                                       const std::vector<std::optional<std::string>>& values,
                                       const std::vector<Oid>& types) {
  // Within a transaction a lost connection is an error (what ran before it is gone); outside
  // one, and at the BEGIN of the next, the connection is opened again.
  const bool begins = text.starts_with("BEGIN");
  const bool ends = text == "COMMIT" || text == "ROLLBACK";
  if (!in_transaction_ || begins) reconnect_if_lost();
  if (begins) in_transaction_ = true;
  if (ends) in_transaction_ = false;  // also when it fails: the server ended it anyway
  std::vector<const char*> pointers;
  pointers.reserve(values.size());
  for (const auto& value : values) pointers.push_back(value ? value->c_str() : nullptr);
  Result out;
  const auto run = [&](const std::string& statement_name) {
    if (statement_name.empty()) {
      ++prepared_;
      out.result.reset(PQexecParams(conn_, text.c_str(), static_cast<int>(values.size()),
                                    types.data(), pointers.data(), nullptr, nullptr, 0));
    } else {
      out.result.reset(PQexecPrepared(conn_, statement_name.c_str(),
                                      static_cast<int>(values.size()), pointers.data(), nullptr,
                                      nullptr, 0));
    }
  };
  run(name);
  ExecStatusType status = PQresultStatus(out.result.get());
  // The connection was found lost by this statement (PostgreSQL restarted, or the session was
  // ended). What did nothing yet is run again on a new connection: the BEGIN of a transaction,
  // and a read outside one. Anything else may or may not have been done: a storage failure.
  const bool harmless = begins || (!in_transaction_ && text.starts_with("SELECT"));
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK && harmless &&
      PQstatus(conn_) != CONNECTION_OK) {
    reconnect_if_lost();
    if (begins) in_transaction_ = true;
    run(name.empty() ? name : server_statement(text, types));  // its server statement is gone
    status = PQresultStatus(out.result.get());
  }
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    // The statement's text (never its parameters) tells which one failed; a syntax error in
    // a translated statement is a bug of the dialect to be found from the log.
    const std::string shown = text.size() > 200 ? text.substr(0, 200) + "..." : text;
    DbError error(
        "step failed: " +
        one_line(out.result ? PQresultErrorMessage(out.result.get()) : PQerrorMessage(conn_)) +
        " (in: " + shown + ")");
    error.storage = storage_failure(out.result.get());
    throw error;
  }
  // SQLite's changes(): the rows the last INSERT, UPDATE or DELETE touched (with RETURNING too),
  // from the command tag; other statements leave it as it was.
  const std::string_view tag = PQcmdStatus(out.result.get());
  for (std::string_view command : {"INSERT ", "UPDATE ", "DELETE "}) {
    if (tag.starts_with(command)) changes_ = std::atoi(PQcmdTuples(out.result.get()));
  }
  return out;
}

PgStatement::PgStatement(PgDatabase& db, std::string text, bool cached)
    : db_(db), text_(std::move(text)), cached_(cached) {
  // The dialect wrote every parameter as $N; string literals hold no '$' in our statements,
  // and a number read too many would only send one NULL more, which PostgreSQL refuses loudly.
  for (std::size_t at = text_.find('$'); at != std::string::npos; at = text_.find('$', at + 1)) {
    std::size_t number = 0;
    for (std::size_t i = at + 1;
         i < text_.size() && std::isdigit(static_cast<unsigned char>(text_[i])); ++i) {
      number = number * 10 + static_cast<std::size_t>(text_[i] - '0');
    }
    parameters_ = std::max(parameters_, number);
  }
}

void PgStatement::set(int index, std::optional<std::string> value, Oid type) {
  if (index < 1) throw DbError("bind failed: parameters are numbered from 1");
  const auto at = static_cast<std::size_t>(index);
  if (values_.size() < at) {
    values_.resize(at);
    // An unbound parameter is NULL, as in SQLite; its type is left to PostgreSQL.
    types_.resize(at, 0);
  }
  values_[at - 1] = std::move(value);
  types_[at - 1] = type;
}

PgStatement& PgStatement::bind(int index, std::int64_t value) {
  set(index, std::to_string(value), kBigint);
  return *this;
}

PgStatement& PgStatement::bind(int index, std::string_view value) {
  if (value.find('\0') != std::string_view::npos) {
    throw DbError("bind failed: PostgreSQL's text holds no NUL byte");
  }
  set(index, std::string(value), kText);
  return *this;
}

PgStatement& PgStatement::bind_null(int index) {
  set(index, std::nullopt, 0);
  return *this;
}

PgStatement& PgStatement::bind_real(int index, double value) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  if (ec != std::errc()) throw DbError("bind failed: a real out of range");
  set(index, std::string(buffer, end), kDouble);
  return *this;
}

bool PgStatement::step() {
  if (!ran_) {
    // As in SQLite, a parameter left unbound is NULL.
    if (values_.size() < parameters_) {
      values_.resize(parameters_);
      types_.resize(parameters_, 0);
    }
    const auto guard = db_.lock();
    const std::string name = cached_ ? db_.server_statement(text_, types_) : "";
    result_ = db_.execute(text_, name, values_, types_);
    ran_ = true;
    row_ = -1;
  }
  ++row_;
  return row_ < PQntuples(result_.result.get());
}

void PgStatement::run() {
  while (step()) {
  }
}

bool PgStatement::is_null(int column) const {
  return PQgetisnull(result_.result.get(), row_, column) == 1;
}

std::string PgStatement::text(int column) const {
  if (is_null(column)) return {};
  const char* value = PQgetvalue(result_.result.get(), row_, column);
  return std::string(value,
                     static_cast<std::size_t>(PQgetlength(result_.result.get(), row_, column)));
}

std::int64_t PgStatement::int64(int column) const {
  if (is_null(column)) return 0;
  const char* value = PQgetvalue(result_.result.get(), row_, column);
  if (std::strcmp(value, "t") == 0) return 1;  // a boolean: SQLite's comparisons are 1 or 0
  if (std::strcmp(value, "f") == 0) return 0;
  std::int64_t number = 0;
  const char* end = value + std::strlen(value);
  const auto [stop, ec] = std::from_chars(value, end, number);
  if (ec == std::errc() && stop == end) return number;
  return static_cast<std::int64_t>(std::trunc(std::strtod(value, nullptr)));  // numeric, double
}

double PgStatement::real(int column) const {
  if (is_null(column)) return 0.0;
  return std::strtod(PQgetvalue(result_.result.get(), row_, column), nullptr);
}

std::optional<std::string> PgStatement::optional_text(int column) const {
  if (is_null(column)) return std::nullopt;
  return text(column);
}

std::optional<std::int64_t> PgStatement::optional_int64(int column) const {
  if (is_null(column)) return std::nullopt;
  return int64(column);
}

PgTransaction::PgTransaction(PgDatabase& db) : db_(db), lock_(db.lock()) { db_.exec("BEGIN"); }

PgTransaction::~PgTransaction() {
  if (!done_) {
    try {
      db_.exec("ROLLBACK");
    } catch (const DbError&) {
      // The connection is gone: PostgreSQL rolls back what it did not see committed.
    }
  }
}

void PgTransaction::commit() {
  db_.exec("COMMIT");
  done_ = true;
}

}  // namespace viktory::server
