// The dialect layer (server/storage/sql_dialect.h) against a real PostgreSQL: every migration's
// translated text runs on a throwaway cluster and gives the tables, columns and indexes that
// SQLite gives; and the statements whose meaning differs most between the two (REPLACE, IGNORE,
// upserts, numbered placeholders) leave the same rows in both. docs/postgresql-plan.md.
#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "database.h"
#include "sql_dialect.h"
#include "store.h"
#include "store_schema.h"
#include "support/postgresql_fixture.h"
#include "support/sql_in_source.h"

namespace viktory::server {
namespace {
namespace fs = std::filesystem;
using Row = std::vector<std::optional<std::string>>;
using Rows = std::vector<Row>;

// A parameter as the store binds it: an integer, a text or NULL. PostgreSQL is told the type, as
// the libpq store will tell it (bigint or text), so that a parameter used in two places (?2 as a
// player's id and in a concatenation) has one type.
struct Param {
  std::optional<std::string> value;
  bool integer = false;
};
Param integer(std::int64_t v) { return {std::to_string(v), true}; }
Param text(std::string v) { return {std::move(v), false}; }
const Param null{};
using Params = std::vector<Param>;

// One libpq connection; every call fails the test with PostgreSQL's message.
class Postgresql {
 public:
  explicit Postgresql(const std::string& conninfo) : conn_(PQconnectdb(conninfo.c_str())) {
    if (PQstatus(conn_) != CONNECTION_OK)
      throw std::runtime_error(std::string("connect: ") + PQerrorMessage(conn_));
    PQsetNoticeProcessor(
        conn_, [](void*, const char*) {}, nullptr);  // "does not exist, skipping"
  }
  ~Postgresql() { PQfinish(conn_); }
  Postgresql(const Postgresql&) = delete;
  Postgresql& operator=(const Postgresql&) = delete;

  // Runs one statement with text parameters; the rows as text. Throws with the server's message.
  Rows query(const std::string& sql, const Params& params = {}) {
    std::vector<const char*> values;
    std::vector<Oid> types;
    for (const Param& p : params) {
      values.push_back(p.value ? p.value->c_str() : nullptr);
      // bigint and text (pg_type.h's INT8OID and TEXTOID); NULL left to PostgreSQL to infer.
      types.push_back(!p.value ? 0 : p.integer ? 20 : 25);
    }
    std::unique_ptr<PGresult, decltype(&PQclear)> result(
        PQexecParams(conn_, sql.c_str(), static_cast<int>(values.size()), types.data(),
                     values.data(), nullptr, nullptr, 0),
        &PQclear);
    const auto status = PQresultStatus(result.get());
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
      throw std::runtime_error(PQresultErrorMessage(result.get()) + ("in: " + sql));
    Rows rows;
    for (int r = 0; r < PQntuples(result.get()); ++r) {
      Row row;
      for (int c = 0; c < PQnfields(result.get()); ++c) {
        if (PQgetisnull(result.get(), r, c))
          row.push_back(std::nullopt);
        else
          row.push_back(PQgetvalue(result.get(), r, c));
      }
      rows.push_back(std::move(row));
    }
    return rows;
  }

  // Prepares (parses, plans and types) a statement without running it: the empty string when
  // PostgreSQL accepts it, else its message's first line.
  std::string prepare_error(const std::string& sql) {
    std::unique_ptr<PGresult, decltype(&PQclear)> result(
        PQprepare(conn_, "", sql.c_str(), 0, nullptr), &PQclear);
    if (PQresultStatus(result.get()) == PGRES_COMMAND_OK) return "";
    const std::string message = PQresultErrorMessage(result.get());
    return message.substr(0, message.find('\n'));
  }

 private:
  PGconn* conn_;
};

Rows sqlite_rows(Database& db, const std::string& sql, int columns, const Params& params = {}) {
  Statement statement = db.prepare(sql);
  for (std::size_t i = 0; i < params.size(); ++i) {
    const int index = static_cast<int>(i) + 1;
    if (!params[i].value)
      statement.bind_null(index);
    else if (params[i].integer)
      statement.bind(index, std::int64_t{std::stoll(*params[i].value)});
    else
      statement.bind(index, *params[i].value);
  }
  Rows rows;
  while (statement.step()) {
    Row row;
    for (int c = 0; c < columns; ++c) {
      if (statement.is_null(c))
        row.push_back(std::nullopt);
      else
        row.push_back(statement.text(c));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

class PostgresqlDialect : public test::PostgresqlTest {
 protected:
  void SetUp() override {
    test::PostgresqlTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    pg_ = std::make_unique<Postgresql>(conninfo());
    sqlite_path_ = fs::temp_directory_path() / ("viktory-dialect-" + database_ + ".sqlite");
    fs::remove(sqlite_path_);
    sqlite_ = std::make_unique<Database>(sqlite_path_.string());
  }
  void TearDown() override {
    sqlite_.reset();
    pg_.reset();
    if (!sqlite_path_.empty()) fs::remove(sqlite_path_);
  }

  // The same SQLite statement on both databases; the PostgreSQL side through the dialect.
  void both(const std::string& sql, const Params& params = {}) {
    sqlite_rows(*sqlite_, sql, 0, params);
    pg_->query(dialect_.to_postgresql(sql), params);
  }
  void schema(const std::string& sql) {
    sqlite_->exec(sql);
    pg_->query(dialect_.to_postgresql(sql));
    dialect_.learn(sql);
  }

  std::unique_ptr<Postgresql> pg_;
  std::unique_ptr<Database> sqlite_;
  fs::path sqlite_path_;
  SqlDialect dialect_;
};

TEST_F(PostgresqlDialect, EveryMigrationRunsAndGivesSqlitesTablesColumnsAndIndexes) {
  int ran = 0;
  std::vector<std::string> skipped;
  for (int version = 1; version <= Store::kSchemaVersion; ++version) {
    sqlite_->exec(schema_migration(version));
    for (const std::string& statement : split_statements(schema_migration(version))) {
      std::string text;
      try {
        text = dialect_.to_postgresql(statement);
      } catch (const SqlDialectError& e) {
        // The known refusals (sql_dialect_test.cpp) are data backfills of an empty database.
        skipped.push_back(e.what());
        dialect_.learn(statement);
        continue;
      }
      ASSERT_NO_THROW(pg_->query(text)) << "migration " << version << ":\n" << text;
      dialect_.learn(statement);
      ++ran;
    }
  }
  EXPECT_GT(ran, 50);
  EXPECT_EQ(skipped.size(), 1u);

  // Every table with its columns in order, as each database reports them.
  std::map<std::string, std::vector<std::string>> in_sqlite, in_postgresql;
  for (const Row& table : sqlite_rows(*sqlite_,
                                      "SELECT name FROM sqlite_master WHERE type = 'table' AND "
                                      "name NOT LIKE 'sqlite_%' ORDER BY name",
                                      1)) {
    for (const Row& column : sqlite_rows(
             *sqlite_, "SELECT name FROM pragma_table_info(?) ORDER BY cid", 1, {text(*table[0])}))
      in_sqlite[*table[0]].push_back(*column[0]);
  }
  for (const Row& column : pg_->query(
           "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = "
           "'public' ORDER BY table_name, ordinal_position"))
    in_postgresql[*column[0]].push_back(*column[1]);
  EXPECT_GT(in_sqlite.size(), 20u);
  EXPECT_EQ(in_postgresql, in_sqlite);

  // Every index the migrations name exists under that name, on the same table.
  std::set<std::pair<std::string, std::string>> named_sqlite, named_postgresql;
  for (const Row& index : sqlite_rows(*sqlite_,
                                      "SELECT name, tbl_name FROM sqlite_master WHERE type = "
                                      "'index' AND sql IS NOT NULL",
                                      2))
    named_sqlite.insert({*index[0], *index[1]});
  for (const Row& index :
       pg_->query("SELECT indexname, tablename FROM pg_indexes WHERE schemaname = 'public'")) {
    if (named_sqlite.count({*index[0], *index[1]})) named_postgresql.insert({*index[0], *index[1]});
  }
  EXPECT_GT(named_sqlite.size(), 10u);
  EXPECT_EQ(named_postgresql, named_sqlite);
}

TEST_F(PostgresqlDialect, ConflictsAndPlaceholdersLeaveTheSameRowsInBoth) {
  schema(
      "CREATE TABLE prefs(player INTEGER NOT NULL, name TEXT NOT NULL, value TEXT, "
      "set_by TEXT NOT NULL DEFAULT 'player', PRIMARY KEY(player, name)) WITHOUT ROWID");
  schema("CREATE TABLE log(id INTEGER PRIMARY KEY, player INTEGER NOT NULL, line TEXT)");
  both("INSERT INTO prefs(player, name, value, set_by) VALUES(?, ?, ?, ?)",
       {integer(1), text("lang"), text("de"), text("admin")});
  both("INSERT OR IGNORE INTO prefs(player, name, value) VALUES(?, ?, ?)",
       {integer(1), text("lang"), text("en")});
  // REPLACE deletes the old row: set_by, not listed, is back to its default in both.
  both("INSERT OR REPLACE INTO prefs(player, name, value) VALUES(?1, ?2, ?3)",
       {integer(1), text("theme"), text("dark")});
  both("INSERT OR REPLACE INTO prefs(player, name, value) VALUES(?1, ?2, ?3)",
       {integer(1), text("lang"), text("fr")});
  both("REPLACE INTO prefs(name, player, value) VALUES(?, ?, ?)",
       {text("clock"), integer(2), null});
  both(
      "INSERT INTO prefs(player, name, value) VALUES(?, ?, ?) ON CONFLICT(player, name) DO "
      "UPDATE SET value = excluded.value || '!'",
      {integer(1), text("theme"), text("light")});
  // ?2 used twice and ?1 after it: SQLite's numbering, kept by $N.
  both("INSERT INTO log(player, line) VALUES(?2, ?1 || ':' || ?2)", {text("hello"), integer(7)});
  both("INSERT INTO log(player, line) VALUES(?, IFNULL(?, 'none'))", {integer(8), null});
  both("UPDATE prefs SET value = IFNULL(value, 'unset') WHERE player == ?", {integer(2)});
  both("DELETE FROM log WHERE player = ? AND line IS NULL", {integer(8)});

  const std::string prefs = "SELECT player, name, value, set_by FROM prefs ORDER BY player, name";
  const Rows expected = sqlite_rows(*sqlite_, prefs, 4);
  ASSERT_EQ(expected.size(), 3u);
  EXPECT_EQ(expected[0], (Row{"1", "lang", "fr", "player"}));  // the admin's set_by is gone
  EXPECT_EQ(pg_->query(dialect_.to_postgresql(prefs)), expected);
  const std::string log = "SELECT id, player, line FROM log ORDER BY id";
  const Rows log_rows = sqlite_rows(*sqlite_, log, 3);
  ASSERT_EQ(log_rows.size(), 2u);
  EXPECT_EQ(pg_->query(dialect_.to_postgresql(log)), log_rows);
}

// Every statement of the server's source (support/sql_in_source.h) prepared on PostgreSQL after
// the migrations: parsed, its names resolved against the schema, its parameters typed. What fails
// is the work left for the libpq store, listed by PostgreSQL's message.
TEST_F(PostgresqlDialect, EveryStatementInTheServersSourcePreparesAfterTheMigrations) {
  for (int version = 1; version <= Store::kSchemaVersion; ++version) {
    for (const std::string& statement : split_statements(schema_migration(version))) {
      try {
        pg_->query(dialect_.to_postgresql(statement));
      } catch (const SqlDialectError&) {
        // The known refusal: a backfill, nothing to fill in an empty database.
      }
      dialect_.learn(statement);
    }
  }
  const test::SqlScan scan = test::scan_sql(VIKTORY_SERVER_DIR);
  std::map<std::string, std::vector<std::string>> failed;  // PostgreSQL's message -> where
  int prepared = 0;
  for (const test::SqlInSource& found : scan.literal) {
    for (const std::string& statement : split_statements(found.sql)) {
      std::string text;
      try {
        text = dialect_.to_postgresql(statement);
      } catch (const SqlDialectError&) {
        continue;  // listed by sql_dialect_test.cpp
      }
      // A transaction's own statements have nothing to prepare.
      if (text == "BEGIN" || text == "COMMIT" || text == "ROLLBACK") continue;
      const std::string error = pg_->prepare_error(text);
      if (error.empty()) {
        ++prepared;
      } else {
        failed[error].push_back(found.where);
        std::printf("[ refused     ] %s: %s\n  %s\n", found.where.c_str(), error.c_str(),
                    text.c_str());
      }
    }
  }
  std::printf("[ prepared    ] %d statements\n", prepared);
  EXPECT_GT(prepared, 150);
  std::map<std::string, std::vector<std::string>> known = {};
  EXPECT_EQ(failed, known);
}

}  // namespace
}  // namespace viktory::server
