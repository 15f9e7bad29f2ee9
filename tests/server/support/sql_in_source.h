// The SQL the server's source hands to the database: every call of Database::prepare, ::cached
// and ::exec in server/ whose argument is a string literal (adjacent literals joined, raw strings
// read as written). A call whose SQL is built at run time is counted, not read. The dialect tests
// translate each statement found (sql_dialect_test.cpp) and prepare it on a real PostgreSQL
// (postgresql_dialect_test.cpp), so a statement written for SQLite alone fails a test.
#pragma once

#include <string>
#include <vector>

namespace viktory::test {

struct SqlInSource {
  std::string where;  // "players/accounts.cpp:119"
  std::string sql;
};

struct SqlScan {
  std::vector<SqlInSource> literal;
  std::vector<std::string> built_at_run_time;  // where, for each call whose SQL is not literal
};

// Reads every .cpp under the folder (server/), skipping storage/sql_dialect.cpp and
// storage/store_schema.cpp (the migrations are read through schema_migration()).
SqlScan scan_sql(const std::string& server_folder);

}  // namespace viktory::test
