// viktory-move-db: copies a server's SQLite database into an empty PostgreSQL database and
// compares the two, table by table (storage/move_db.h). Stop the server first: the copy reads the
// file as it is.
//
//   viktory-move-db viktory.db postgresql://viktory@localhost/viktory
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>

#include "move_db.h"
#include "pg_database.h"
#include "store.h"

int main(int argc, char** argv) {
  using namespace viktory::server;
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s SQLITE_FILE POSTGRESQL_URI\n", argv[0]);
    return 2;
  }
  if (!std::filesystem::is_regular_file(argv[1])) {
    // Opening a Store would create an empty database there, and the copy would copy nothing.
    std::fprintf(stderr, "viktory-move-db: %s: no such database file\n", argv[1]);
    return 1;
  }
  try {
    Store store(argv[1]);  // migrates the file to the current schema, as the server would
    PgDatabase target(argv[2]);
    const MoveReport report = copy_sqlite_to_postgresql(store.db(), target);
    std::int64_t total = 0;
    for (const auto& [table, rows] : report.rows) {
      std::printf("%-28s %lld rows\n", table.c_str(), static_cast<long long>(rows));
      total += rows;
    }
    std::printf("copied %lld rows in %zu tables\n", static_cast<long long>(total),
                report.rows.size());
    for (const std::string& difference : report.differences) {
      std::fprintf(stderr, "differs: %s\n", difference.c_str());
    }
    if (!report.differences.empty()) return 1;
    std::printf("every table compares equal\n");
    return 0;
  } catch (const std::exception& e) {
    // The connection string is not printed: it may hold a password.
    std::fprintf(stderr, "viktory-move-db: %s\n", e.what());
    return 1;
  }
}
