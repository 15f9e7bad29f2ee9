// Moving a server's database between SQLite and PostgreSQL (docs/postgresql-plan.md, piece 6):
// every table copied row for row in one transaction of the target, parents before the tables that
// refer to them, new ids set to go on after the copied ones, and then every table compared, row
// for row, with the source. The target must be empty (a fresh database, or one migrated and never
// used); the source is only read. viktory-move-db then replays every game of the SQLite side
// (stored_check.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "database.h"
#include "pg_database.h"

namespace viktory::server {

struct MoveReport {
  std::map<std::string, std::int64_t> rows;  // table -> rows copied
  std::vector<std::string> differences;      // from the comparison: empty when the copy is true
};

// The source must be at Store::kSchemaVersion (open it with Store first, which migrates).
// Throws DbError (nothing written) when the target is not empty or a row cannot be written.
MoveReport copy_sqlite_to_postgresql(Database& from, PgDatabase& to);

// The way back: `from` must be at Store::kSchemaVersion (a PostgreSQL database the server or
// copy_sqlite_to_postgresql made), `to` a migrated SQLite database without rows (a new Store's).
// Throws DbError (nothing written) otherwise or when a row cannot be written.
MoveReport copy_postgresql_to_sqlite(PgDatabase& from, Database& to);

// Compares every table of the two databases, row for row, in any order (rows are compared by
// their values: integers, text, reals as numbers, NULL); one line per table that differs.
std::vector<std::string> compare_databases(Database& sqlite, PgDatabase& postgresql);

}  // namespace viktory::server
