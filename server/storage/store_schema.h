// The database's schema as numbered migrations, kept apart from the queries (store.cpp).
#pragma once

namespace viktory::server {

// The SQL that brings the schema from version - 1 to `version` (1 to Store::kSchemaVersion).
// Migrations are appended, never edited: a database keeps its version (PRAGMA user_version).
const char* schema_migration(int version);

}  // namespace viktory::server
