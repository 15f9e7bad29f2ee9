// The libpq connection (server/storage/pg_database.h) against the SQLite one it mirrors: the same
// calls on the same migrated schema give the same answers, on a throwaway cluster.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "database.h"
#include "pg_database.h"
#include "store.h"
#include "store_schema.h"
#include "support/postgresql_fixture.h"

namespace viktory::server {
namespace {
namespace fs = std::filesystem;

// The same calls through either wrapper: what each observed, one line per observation.
template <class Db, class Tx>
std::vector<std::string> play_script(Db& db) {
  std::vector<std::string> seen;
  const auto note = [&](const std::string& what, const auto& value) {
    seen.push_back(what + " = " + std::to_string(value));
  };
  const std::string insert = "INSERT INTO players(name, token_hash, created) VALUES(?, ?, ?)";
  db.prepare(insert).bind(1, "Ada").bind(2, "hash-a").bind(3, std::int64_t{1000}).run();
  note("first id", db.last_insert_id());
  db.prepare(insert).bind(1, "Zoë ♞").bind(2, "hash-z").bind(3, 1001).run();
  note("second id", db.last_insert_id());
  note("inserted", db.changes());
  db.prepare("INSERT OR IGNORE INTO players(name, token_hash, created) VALUES(?, ?, ?)")
      .bind(1, "again")
      .bind(2, "hash-a")
      .bind(3, 1002)
      .run();
  note("ignored", db.changes());
  try {
    db.prepare(insert).bind(1, "twice").bind(2, "hash-a").bind(3, 1003).run();
    seen.push_back("a duplicate token was stored");
  } catch (const DbError&) {
    seen.push_back("a duplicate token is refused");
  }
  db.prepare("UPDATE players SET language = ?1 WHERE id = ?2 AND language IS NOT ?1")
      .bind(1, "de")
      .bind(2, 1)
      .run();
  note("language set", db.changes());
  db.prepare("UPDATE players SET language = ?1 WHERE id = ?2 AND language IS NOT ?1")
      .bind(1, "de")
      .bind(2, 1)
      .run();
  note("language set again", db.changes());
  {
    Tx rolled_back(db);
    db.prepare(insert).bind(1, "Ghost").bind(2, "hash-g").bind(3, 1004).run();
  }
  {
    Tx kept(db);
    db.prepare(insert).bind(1, "Cyd").bind(2, "hash-c").bind(3, 1005).run();
    kept.commit();
  }
  {
    Tx failed(db);
    db.prepare(insert).bind(1, "Eve").bind(2, "hash-e").bind(3, 1006).run();
    try {
      db.prepare(insert).bind(1, "Eve").bind(2, "hash-e").bind(3, 1007).run();
    } catch (const DbError&) {
      seen.push_back("the transaction's second insert is refused");
    }
  }  // rolled back: Eve is not kept either
  auto names = db.prepare("SELECT name FROM players ORDER BY name COLLATE NOCASE");
  while (names.step()) seen.push_back("name " + names.text(0));
  auto row = db.prepare(
      "SELECT id, name, language, created, id == 1, ?1 * 2, IFNULL(language, 'en') FROM players "
      "WHERE token_hash = ?2");
  row.bind_real(1, 1.25).bind(2, "hash-z");
  while (row.step()) {
    note("id", row.int64(0));
    seen.push_back("name " + row.text(1));
    seen.push_back(std::string("language ") + (row.is_null(2) ? "NULL" : row.text(2)));
    seen.push_back("language optional " + row.optional_text(2).value_or("none"));
    note("created", row.optional_int64(3).value_or(-1));
    note("is the first", row.int64(4));
    note("real", row.real(5));
    seen.push_back("language or en " + row.text(6));
  }
  // JSON read with the two forms the dialect translates: one member, and an array's elements.
  auto member = db.prepare(
      "SELECT CAST(json_extract(?1, '$.player') AS BIGINT) = ?2, json_extract(?1, '$.ended_by'), "
      "json_extract(?1, '$.missing') IS NULL");
  member.bind(1, R"({"player": 2, "ended_by": "race"})").bind(2, 2);
  while (member.step()) {
    note("player matches", member.int64(0));
    seen.push_back("ended by " + member.text(1));
    note("missing member is NULL", member.int64(2));
  }
  auto listed = db.prepare(
      "SELECT name FROM players WHERE id IN (SELECT CAST(value AS BIGINT) FROM json_each(?1)) "
      "ORDER BY name");
  listed.bind(1, "[1, 2, 99]");
  while (listed.step()) seen.push_back("listed " + listed.text(0));
  auto words = db.prepare("SELECT w.value FROM json_each(?) AS w ORDER BY w.value");
  words.bind(1, R"(["b", "a"])");
  while (words.step()) seen.push_back("word " + words.text(0));
  const std::int64_t before = db.statements_prepared();
  for (int i = 0; i < 3; ++i) {
    auto count = db.cached("SELECT COUNT(*), SUM(created > ?) FROM players");
    count.bind(1, 1000);
    while (count.step()) {
      note("players", count.int64(0));
      note("created after 1000", count.int64(1));
    }
  }
  note("compiled for three cached runs", db.statements_prepared() - before);
  return seen;
}

class PgDatabaseTest : public test::PostgresqlTest {};

TEST_F(PgDatabaseTest, MigratesAFreshDatabaseOnceAndRecordsTheVersion) {
  {
    PgDatabase db(conninfo());
    EXPECT_EQ(db.migrate(), 0);
    EXPECT_EQ(db.schema_version(), Store::kSchemaVersion);
    EXPECT_NE(db.dialect().table("players"), nullptr);
  }
  PgDatabase again(conninfo());
  EXPECT_EQ(again.migrate(), Store::kSchemaVersion);  // nothing to do, and nothing done twice
  EXPECT_EQ(again.schema_version(), Store::kSchemaVersion);
  // The dialect learned the schema that was already there (for INSERT OR REPLACE).
  EXPECT_NE(again.dialect().table("players"), nullptr);
  auto s = again.prepare("SELECT COUNT(*) FROM schema_version");
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.int64(0), 1);
}

TEST_F(PgDatabaseTest, TheSameCallsGiveTheSameAnswersAsOnSqlite) {
  const fs::path file = fs::temp_directory_path() / ("viktory-pg-twin-" + database_ + ".sqlite");
  fs::remove(file);
  std::vector<std::string> on_sqlite;
  {
    Database sqlite(file.string());
    for (int version = 1; version <= Store::kSchemaVersion; ++version)
      sqlite.exec(schema_migration(version));
    on_sqlite = play_script<Database, Transaction>(sqlite);
  }
  fs::remove(file);
  PgDatabase pg(conninfo());
  pg.migrate();
  const std::vector<std::string> on_postgresql = play_script<PgDatabase, PgTransaction>(pg);
  // What the script must have seen, so that two equally broken wrappers do not agree by chance.
  const std::vector<std::string> expected_in_part = {"first id = 1",
                                                     "second id = 2",
                                                     "inserted = 1",
                                                     "ignored = 0",
                                                     "a duplicate token is refused",
                                                     "language set = 1",
                                                     "language set again = 0",
                                                     "the transaction's second insert is refused",
                                                     "name Ada",
                                                     "name Cyd",
                                                     "name Zoë ♞",
                                                     "player matches = 1",
                                                     "ended by race",
                                                     "missing member is NULL = 1",
                                                     "listed Ada",
                                                     "listed Zoë ♞",
                                                     "word a",
                                                     "word b",
                                                     "players = 3",
                                                     "created after 1000 = 2",
                                                     "compiled for three cached runs = 1"};
  for (const std::string& line : expected_in_part) {
    EXPECT_NE(std::find(on_sqlite.begin(), on_sqlite.end(), line), on_sqlite.end()) << line;
  }
  EXPECT_EQ(on_postgresql, on_sqlite);
}

TEST_F(PgDatabaseTest, AStatementWithoutATwinOrWithBadSqlThrowsAndTheConnectionGoesOn) {
  PgDatabase db(conninfo());
  db.migrate();
  EXPECT_THROW(db.prepare("SELECT json_valid(options) FROM games"), DbError);
  EXPECT_THROW(db.prepare("SELECT json_extract(options, '$.seats[0]') FROM games"), DbError);
  EXPECT_THROW(db.prepare("SELECT nothing FROM nowhere").step(), DbError);
  EXPECT_THROW(db.exec("PRAGMA journal_mode = WAL"), DbError);
  auto s = db.prepare("SELECT COUNT(*) FROM games");
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.int64(0), 0);
}

// The server's Database (database.h) on a postgresql:// URI, its connection cut from the server's
// side (as a restarted or failed-over PostgreSQL would). What had done nothing yet is run again
// on a new connection: a read outside a transaction, and the BEGIN of one. A write outside a
// transaction may or may not have been done: a storage failure, as a failing disk is on SQLite
// (the hub then reloads the game); the next statement opens the connection again. A transaction
// cut in the middle keeps nothing.
TEST_F(PgDatabaseTest, ALostConnectionIsOpenedAgainAndOnlyAnUnsureWriteFails) {
  const std::string uri =
      "postgresql:///" + database_ + "?host=" + cluster_->folder() + "&user=viktory";
  Database db(uri);
  ASSERT_TRUE(db.postgresql());
  db.exec("CREATE TABLE t(x INTEGER)");
  db.prepare("INSERT INTO t VALUES(?)").bind(1, 1).run();
  const auto backend = [&] {
    Statement s = db.prepare("SELECT pg_backend_pid()");
    s.step();
    return s.int64(0);
  };
  const auto cut = [&] {
    const std::int64_t pid = backend();
    PGconn* admin = PQconnectdb(conninfo().c_str());
    PGresult* r =
        PQexec(admin, ("SELECT pg_terminate_backend(" + std::to_string(pid) + ")").c_str());
    const bool ok = PQresultStatus(r) == PGRES_TUPLES_OK;
    PQclear(r);
    PQfinish(admin);
    EXPECT_TRUE(ok);
    return pid;
  };
  const auto rows = [&] {
    std::vector<std::int64_t> kept;
    Statement s = db.cached("SELECT x FROM t ORDER BY x");  // prepared on the server
    while (s.step()) kept.push_back(s.int64(0));
    return kept;
  };
  EXPECT_EQ(rows(), std::vector<std::int64_t>{1});
  // A read: run again, unseen by the caller, its server-side statement prepared afresh.
  const std::int64_t first = cut();
  EXPECT_EQ(rows(), std::vector<std::int64_t>{1});
  EXPECT_NE(backend(), first);
  // A write outside a transaction: not run again.
  cut();
  try {
    db.prepare("INSERT INTO t VALUES(?)").bind(1, 2).run();
    ADD_FAILURE() << "a write on a cut connection succeeded";
  } catch (const DbError& e) {
    EXPECT_TRUE(e.storage_failure()) << e.what();
  }
  db.prepare("INSERT INTO t VALUES(?)").bind(1, 3).run();  // opened again
  // A transaction whose BEGIN meets the cut: begun again, and kept.
  cut();
  {
    Transaction tx(db);
    db.prepare("INSERT INTO t VALUES(?)").bind(1, 4).run();
    tx.commit();
  }
  // A transaction cut in the middle: its statement fails, nothing of it is kept.
  {
    Transaction tx(db);
    db.prepare("INSERT INTO t VALUES(?)").bind(1, 5).run();
    cut();
    try {
      db.prepare("INSERT INTO t VALUES(?)").bind(1, 6).run();
      ADD_FAILURE() << "a statement of a cut transaction succeeded";
    } catch (const DbError& e) {
      EXPECT_TRUE(e.storage_failure()) << e.what();
    }
  }  // the rollback fails quietly: the server rolled back already
  EXPECT_EQ(rows(), (std::vector<std::int64_t>{1, 3, 4}));
}

// Until games have leases, one server per PostgreSQL database: a second Store (a second server)
// on it is refused with the reason once the first has held it for 10 s; when the first goes,
// the database can be served again.
TEST_F(PgDatabaseTest, OneServerPerDatabaseASecondIsRefused) {
  const std::string uri =
      "postgresql:///" + database_ + "?host=" + cluster_->folder() + "&user=viktory";
  std::optional<Store> first(std::in_place, uri, 1);
  try {
    Store second(uri, 1);
    ADD_FAILURE() << "two servers on one database";
  } catch (const DbError& e) {
    EXPECT_NE(std::string(e.what()).find("another viktory-server"), std::string::npos) << e.what();
  }
  Store reader(uri, Store::ReadOnly{});  // a check reads beside the server
  EXPECT_EQ(reader.schema_version(), Store::kSchemaVersion);
  first.reset();
  Store again(uri, 1);
  EXPECT_EQ(again.schema_version(), Store::kSchemaVersion);
}

// The claim survives a lost connection only if nobody else took it meanwhile: a server whose
// writer connection was cut while a second server started is fenced (every write fails as a
// storage failure, with the reason); one whose connection was cut with nobody waiting takes
// its claim again and goes on.
TEST_F(PgDatabaseTest, AServerThatLostItsClaimWhileAnotherTookTheDatabaseWritesNoMore) {
  const std::string uri =
      "postgresql:///" + database_ + "?host=" + cluster_->folder() + "&user=viktory";
  const auto backend = [](Database& db) {
    Statement s = db.prepare("SELECT pg_backend_pid()");
    s.step();
    return s.int64(0);
  };
  const auto admin = [&](const std::string& sql) {
    PGconn* conn = PQconnectdb(conninfo().c_str());
    PGresult* r = PQexec(conn, sql.c_str());
    EXPECT_EQ(PQresultStatus(r), PGRES_TUPLES_OK) << PQresultErrorMessage(r);
    const std::string value = PQntuples(r) > 0 ? PQgetvalue(r, 0, 0) : "";
    PQclear(r);
    PQfinish(conn);
    return value;
  };
  const auto cut = [&](Database& db) {
    const std::int64_t pid = backend(db);
    admin("SELECT pg_terminate_backend(" + std::to_string(pid) + ")");
    // Until the old session has gone, its lock is held.
    for (int i = 0; i < 500 && admin("SELECT count(*) FROM pg_stat_activity WHERE pid = " +
                                     std::to_string(pid)) != "0";
         ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  };
  const auto write = [](Store& store) {
    Database& db = store.db();
    Transaction tx(db);
    db.prepare("INSERT INTO claim_probe VALUES(1)").run();
    tx.commit();
  };
  Database(uri).exec("CREATE TABLE claim_probe(x INTEGER)");
  {
    // Cut with nobody waiting: the claim is taken again, and the writes go on.
    Store alone(uri, 1);
    cut(alone.db());
    write(alone);
    const std::string holder =
        admin("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid = " +
              std::to_string(backend(alone.db())));
    EXPECT_EQ(holder, "1");
  }
  std::optional<Store> first(std::in_place, uri, 1);
  write(*first);
  cut(first->db());
  Store second(uri, 1);  // took the database while the first was away
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      write(*first);
      ADD_FAILURE() << "a server that lost its claim wrote";
    } catch (const DbError& e) {
      EXPECT_TRUE(e.storage_failure()) << e.what();
      EXPECT_NE(std::string(e.what()).find("another viktory-server took"), std::string::npos)
          << e.what();
    }
  }
  write(second);
  first.reset();
  write(second);
  EXPECT_EQ(admin("SELECT count(*) FROM claim_probe"), "4");
}

}  // namespace
}  // namespace viktory::server
