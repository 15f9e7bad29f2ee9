// viktory-move-db: copies a server's database between SQLite and PostgreSQL, into an empty target,
// compares the two table by table (storage/move_db.h) and replays every game of the SQLite side
// (storage/stored_check.h) and verifies every finished game's record (fair_play.h): the source's
// when moving to PostgreSQL (the rows are the same), the copy's when moving back. Stop the server
// first: the copy reads the source as it is.
//
//   viktory-move-db viktory.db postgresql://viktory@localhost/viktory   (to PostgreSQL)
//   viktory-move-db postgresql://viktory@localhost/viktory viktory.db   (back; a new file)
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>

#include "fair_play.h"
#include "move_db.h"
#include "pg_database.h"
#include "store.h"
#include "stored_check.h"

int main(int argc, char** argv) {
  using namespace viktory::server;
  if (argc != 3 || is_postgresql_location(argv[1]) == is_postgresql_location(argv[2])) {
    std::fprintf(stderr,
                 "usage: %s SQLITE_FILE POSTGRESQL_URI   (to PostgreSQL)\n"
                 "       %s POSTGRESQL_URI SQLITE_FILE   (back to SQLite, a new file)\n",
                 argv[0], argv[0]);
    return 2;
  }
  const bool to_postgresql = is_postgresql_location(argv[2]);
  const std::string file = to_postgresql ? argv[1] : argv[2];
  const std::string uri = to_postgresql ? argv[2] : argv[1];
  if (to_postgresql && !std::filesystem::is_regular_file(file)) {
    // Opening a Store would create an empty database there, and the copy would copy nothing.
    std::fprintf(stderr, "viktory-move-db: %s: no such database file\n", file.c_str());
    return 1;
  }
  if (!to_postgresql && std::filesystem::exists(file)) {
    std::fprintf(stderr, "viktory-move-db: %s exists; the way back writes a new file only\n",
                 file.c_str());
    return 1;
  }
  try {
    Store store(file);  // migrates the file to the current schema (or creates it), as the server
    PgDatabase postgresql(uri);
    const MoveReport report = to_postgresql ? copy_sqlite_to_postgresql(store.db(), postgresql)
                                            : copy_postgresql_to_sqlite(postgresql, store.db());
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
    const StoredCheck check = check_every_game(store);
    for (const std::string& problem : check.problems) {
      std::fprintf(stderr, "does not replay: %s\n", problem.c_str());
    }
    std::printf("replayed %d games: %lld actions, %lld snapshots agree\n", check.games,
                static_cast<long long>(check.actions), static_cast<long long>(check.snapshots));
    const RecordsCheck records = verify_finished_records(store);
    for (const std::string& failure : records.failures) {
      std::fprintf(stderr, "record does not verify: %s\n", failure.c_str());
    }
    std::printf("%d finished games' records verify\n", records.verified);
    return check.problems.empty() && records.failures.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    // The connection string is not printed: it may hold a password.
    std::fprintf(stderr, "viktory-move-db: %s\n", e.what());
    if (!to_postgresql) {
      // Nothing was copied (one transaction): the new file holds an empty schema, not the data.
      for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(file + suffix);
    }
    return 1;
  }
}
