// Moving a database between SQLite and PostgreSQL (move_db.h).
#include "move_db.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <set>

#include "store.h"

namespace viktory::server {
namespace {

// SQLite's own statement, for the storage class of each value (Statement hides it).
class RawRows {
 public:
  RawRows(Database& db, const std::string& sql) {
    if (sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK) {
      throw DbError(std::string("prepare failed: ") + sqlite3_errmsg(db.handle()));
    }
  }
  ~RawRows() { sqlite3_finalize(stmt_); }
  RawRows(const RawRows&) = delete;
  RawRows& operator=(const RawRows&) = delete;
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw DbError(std::string("step failed: ") + sqlite3_errmsg(sqlite3_db_handle(stmt_)));
  }
  int columns() const { return sqlite3_column_count(stmt_); }
  int type(int c) const { return sqlite3_column_type(stmt_, c); }
  std::int64_t int64(int c) const { return sqlite3_column_int64(stmt_, c); }
  double real(int c) const { return sqlite3_column_double(stmt_, c); }
  std::string text(int c) const {
    const auto* p = sqlite3_column_text(stmt_, c);
    return p ? std::string(reinterpret_cast<const char*>(p),
                           static_cast<std::size_t>(sqlite3_column_bytes(stmt_, c)))
             : std::string();
  }

 private:
  sqlite3_stmt* stmt_ = nullptr;
};

std::vector<std::string> sqlite_tables(Database& db) {
  std::vector<std::string> tables;
  RawRows rows(db,
               "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
               "ORDER BY name");
  while (rows.step()) tables.push_back(rows.text(0));
  return tables;
}

std::vector<std::string> sqlite_columns(Database& db, const std::string& table) {
  std::vector<std::string> columns;
  RawRows rows(db, "SELECT name FROM pragma_table_info('" + table + "') ORDER BY cid");
  while (rows.step()) columns.push_back(rows.text(0));
  return columns;
}

// Parents first: a table comes after every table its foreign keys name.
std::vector<std::string> parents_first(Database& db, const std::vector<std::string>& tables) {
  std::map<std::string, std::set<std::string>> parents;
  for (const std::string& table : tables) {
    RawRows rows(db, "SELECT \"table\" FROM pragma_foreign_key_list('" + table + "')");
    while (rows.step()) {
      if (rows.text(0) != table) parents[table].insert(rows.text(0));
    }
  }
  std::vector<std::string> order;
  std::set<std::string> placed;
  std::function<void(const std::string&, int)> place = [&](const std::string& table, int depth) {
    if (placed.contains(table)) return;
    if (depth > static_cast<int>(tables.size())) throw DbError("the foreign keys form a cycle");
    for (const std::string& parent : parents[table]) place(parent, depth + 1);
    placed.insert(table);
    order.push_back(table);
  };
  for (const std::string& table : tables) place(table, 0);
  return order;
}

std::string quoted(const std::string& name) { return "\"" + name + "\""; }

std::string column_list(const std::vector<std::string>& columns) {
  std::string list;
  for (const std::string& column : columns) list += (list.empty() ? "" : ", ") + quoted(column);
  return list;
}

// One row's values in a form both databases give alike, hashed (FNV-1a, 64 bits).
struct RowHash {
  std::uint64_t h = 1469598103934665603ull;
  void add(std::string_view kind, std::string_view bytes) {
    for (std::string_view part : {kind, bytes, std::string_view("\x1f", 1)}) {
      for (unsigned char c : part) h = (h ^ c) * 1099511628211ull;
    }
  }
  void add_real(double value) {
    char buffer[32];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    add("r", std::string_view(buffer, static_cast<std::size_t>(end - buffer)));
  }
};

std::vector<std::uint64_t> sqlite_row_hashes(Database& db, const std::string& table,
                                             const std::vector<std::string>& columns) {
  std::vector<std::uint64_t> hashes;
  RawRows rows(db, "SELECT " + column_list(columns) + " FROM " + quoted(table));
  while (rows.step()) {
    RowHash row;
    for (int c = 0; c < rows.columns(); ++c) {
      switch (rows.type(c)) {
        case SQLITE_NULL:
          row.add("n", "");
          break;
        case SQLITE_INTEGER:
          row.add("i", std::to_string(rows.int64(c)));
          break;
        case SQLITE_FLOAT:
          row.add_real(rows.real(c));
          break;
        default:
          row.add("t", rows.text(c));
          break;
      }
    }
    hashes.push_back(row.h);
  }
  std::sort(hashes.begin(), hashes.end());
  return hashes;
}

// PostgreSQL's type oids (pg_type.h) of the columns the dialect makes.
constexpr Oid kInt2 = 21, kInt4 = 23, kInt8 = 20, kFloat8 = 701, kNumeric = 1700;

std::vector<std::uint64_t> postgresql_row_hashes(PgDatabase& db, const std::string& table,
                                                 const std::vector<std::string>& columns) {
  std::vector<std::uint64_t> hashes;
  PgStatement rows = db.prepare("SELECT " + column_list(columns) + " FROM " + quoted(table));
  while (rows.step()) {
    RowHash row;
    for (int c = 0; c < static_cast<int>(columns.size()); ++c) {
      const Oid type = rows.column_type(c);
      if (rows.is_null(c)) {
        row.add("n", "");
      } else if (type == kInt2 || type == kInt4 || type == kInt8 || type == kNumeric) {
        row.add("i", std::to_string(rows.int64(c)));
      } else if (type == kFloat8) {
        row.add_real(rows.real(c));
      } else {
        row.add("t", rows.text(c));
      }
    }
    hashes.push_back(row.h);
  }
  std::sort(hashes.begin(), hashes.end());
  return hashes;
}

}  // namespace

MoveReport copy_sqlite_to_postgresql(Database& from, PgDatabase& to) {
  {
    Statement version = from.prepare("PRAGMA user_version");
    if (!version.step() || version.int64(0) != Store::kSchemaVersion) {
      throw DbError("the SQLite database is not at schema version " +
                    std::to_string(Store::kSchemaVersion) + "; open it with the server first");
    }
  }
  to.migrate();
  const std::vector<std::string> tables = parents_first(from, sqlite_tables(from));
  for (const std::string& table : tables) {
    PgStatement any = to.prepare("SELECT 1 FROM " + quoted(table) + " LIMIT 1");
    if (any.step()) {
      throw DbError("the PostgreSQL database is not empty (table " + table +
                    " has rows); moving writes only into an empty one");
    }
  }
  MoveReport report;
  PgTransaction transaction(to);
  for (const std::string& table : tables) {
    const std::vector<std::string> columns = sqlite_columns(from, table);
    std::string insert = "INSERT INTO " + quoted(table) + "(" + column_list(columns) + ") VALUES(";
    for (std::size_t c = 0; c < columns.size(); ++c) insert += (c ? ", ?" : "?");
    insert += ")";
    RawRows rows(from, "SELECT " + column_list(columns) + " FROM " + quoted(table));
    std::int64_t copied = 0;
    while (rows.step()) {
      PgStatement put = to.cached(insert);
      for (int c = 0; c < rows.columns(); ++c) {
        switch (rows.type(c)) {
          case SQLITE_NULL:
            put.bind_null(c + 1);
            break;
          case SQLITE_INTEGER:
            put.bind(c + 1, rows.int64(c));
            break;
          case SQLITE_FLOAT:
            put.bind_real(c + 1, rows.real(c));
            break;
          case SQLITE_BLOB:
            throw DbError("table " + table + " holds a BLOB; none is expected");
          default:
            put.bind(c + 1, rows.text(c));
            break;
        }
      }
      put.run();
      ++copied;
    }
    report.rows[table] = copied;
  }
  // The identity columns (SQLite's INTEGER PRIMARY KEY) go on after the largest copied id.
  std::vector<std::pair<std::string, std::string>> identities;
  {
    PgStatement found = to.prepare(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = "
        "current_schema() AND is_identity = 'YES'");
    while (found.step()) identities.emplace_back(found.text(0), found.text(1));
  }
  for (const auto& [table, column] : identities) {
    PgStatement set = to.prepare("SELECT setval(pg_get_serial_sequence('" + quoted(table) + "', '" +
                                 column + "'), COALESCE(MAX(" + quoted(column) +
                                 "), 0) + 1, false) FROM " + quoted(table));
    set.run();
  }
  transaction.commit();
  report.differences = compare_databases(from, to);
  return report;
}

MoveReport copy_postgresql_to_sqlite(PgDatabase& from, Database& to) {
  {
    // Read without creating anything: the source is only read.
    PgStatement kept = from.prepare(
        "SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND "
        "table_name = 'schema_version'");
    if (!kept.step()) throw DbError("the PostgreSQL database holds no server's data");
    if (from.schema_version() != Store::kSchemaVersion) {
      throw DbError("the PostgreSQL database is not at schema version " +
                    std::to_string(Store::kSchemaVersion));
    }
  }
  const std::vector<std::string> tables = parents_first(to, sqlite_tables(to));
  for (const std::string& table : tables) {
    RawRows any(to, "SELECT 1 FROM " + quoted(table) + " LIMIT 1");
    if (any.step()) {
      throw DbError("the SQLite database is not empty (table " + table +
                    " has rows); moving writes only into an empty one");
    }
  }
  MoveReport report;
  // SQLite's INTEGER PRIMARY KEY goes on after the largest id in the table by itself.
  Transaction transaction(to);
  for (const std::string& table : tables) {
    const std::vector<std::string> columns = sqlite_columns(to, table);
    std::string insert = "INSERT INTO " + quoted(table) + "(" + column_list(columns) + ") VALUES(";
    for (std::size_t c = 0; c < columns.size(); ++c) insert += (c ? ", ?" : "?");
    insert += ")";
    PgStatement rows = from.prepare("SELECT " + column_list(columns) + " FROM " + quoted(table));
    std::int64_t copied = 0;
    while (rows.step()) {
      Statement put = to.cached(insert);
      for (int c = 0; c < static_cast<int>(columns.size()); ++c) {
        const Oid type = rows.column_type(c);
        if (rows.is_null(c)) {
          put.bind_null(c + 1);
        } else if (type == kInt2 || type == kInt4 || type == kInt8 || type == kNumeric) {
          put.bind(c + 1, rows.int64(c));
        } else if (type == kFloat8) {
          put.bind_real(c + 1, rows.real(c));
        } else {
          put.bind(c + 1, rows.text(c));
        }
      }
      put.run();
      ++copied;
    }
    report.rows[table] = copied;
  }
  transaction.commit();
  report.differences = compare_databases(to, from);
  return report;
}

std::vector<std::string> compare_databases(Database& sqlite, PgDatabase& postgresql) {
  std::vector<std::string> differences;
  for (const std::string& table : sqlite_tables(sqlite)) {
    const std::vector<std::string> columns = sqlite_columns(sqlite, table);
    const std::vector<std::uint64_t> a = sqlite_row_hashes(sqlite, table, columns);
    const std::vector<std::uint64_t> b = postgresql_row_hashes(postgresql, table, columns);
    if (a.size() != b.size()) {
      differences.push_back(table + ": " + std::to_string(a.size()) + " rows in SQLite, " +
                            std::to_string(b.size()) + " in PostgreSQL");
    } else if (a != b) {
      std::size_t differ = 0;
      std::vector<std::uint64_t> only;
      std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(),
                                    std::back_inserter(only));
      differ = only.size() / 2;
      differences.push_back(table + ": " + std::to_string(differ) + " of " +
                            std::to_string(a.size()) + " rows differ");
    }
  }
  return differences;
}

}  // namespace viktory::server
