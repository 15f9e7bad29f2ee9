// SQLite's SQL into PostgreSQL's (server/storage/sql_dialect.h): the first piece of a second
// store (docs/postgresql-plan.md). No PostgreSQL here: these check the text; the statements'
// run against a real cluster is the plan's third piece.
#include "sql_dialect.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>

#include "store.h"
#include "store_schema.h"
#include "support/sql_in_source.h"

namespace viktory::server {
namespace {

std::string pg(std::string_view sql, const SqlDialect& dialect = SqlDialect{}) {
  return dialect.to_postgresql(sql);
}

TEST(SqlDialect, PlaceholdersAreNumberedAsSqliteNumbersThem) {
  EXPECT_EQ(pg("SELECT a FROM t WHERE b = ? AND c = ?"), "SELECT a FROM t WHERE b = $1 AND c = $2");
  // A bare ? takes one more than the largest number so far, as in SQLite.
  EXPECT_EQ(pg("UPDATE t SET a = ?2, b = ?1, c = ? WHERE d = ?1"),
            "UPDATE t SET a = $2, b = $1, c = $3 WHERE d = $1");
  // Nothing inside a string, a quoted name or a comment is a placeholder.
  EXPECT_EQ(pg("SELECT '?', \"a?\" FROM t -- why?\nWHERE x = ? /* ?1 */"),
            "SELECT '?', \"a?\" FROM t -- why?\nWHERE x = $1 /* ?1 */");
  EXPECT_EQ(pg("SELECT 'it''s ?' WHERE a = ?"), "SELECT 'it''s ?' WHERE a = $1");
  EXPECT_THROW(pg("SELECT a FROM t WHERE b = :name"), SqlDialectError);
  EXPECT_THROW(pg("SELECT a FROM t WHERE b = ?0"), SqlDialectError);
  EXPECT_THROW(pg("SELECT 'not closed"), SqlDialectError);
}

TEST(SqlDialect, SmallFormsAreRewritten) {
  EXPECT_EQ(pg("BEGIN IMMEDIATE"), "BEGIN");
  EXPECT_EQ(pg("SELECT IFNULL(a, 0) FROM t WHERE b == 1"),
            "SELECT COALESCE(a, 0) FROM t WHERE b = 1");
  EXPECT_EQ(pg("SELECT id FROM games INDEXED BY games_by_status WHERE status = ?"),
            "SELECT id FROM games WHERE status = $1");
  EXPECT_EQ(pg("SELECT id FROM games NOT INDEXED WHERE id > ?"),
            "SELECT id FROM games WHERE id > $1");
  // An upsert SQLite and PostgreSQL write alike passes unchanged but for its placeholders.
  EXPECT_EQ(pg("INSERT INTO c(k, n) VALUES(?, 1) ON CONFLICT(k) DO UPDATE SET n = n + 1"),
            "INSERT INTO c(k, n) VALUES($1, 1) ON CONFLICT(k) DO UPDATE SET n = n + 1");
  // A column named like a function is not a call.
  EXPECT_EQ(pg("SELECT date, time FROM t"), "SELECT date, time FROM t");
}

// Found by running the migrations on a real PostgreSQL (postgresql_dialect_test.cpp): a sum of
// comparisons, and SQLite's two-argument min().
// Found by the integration tests run on PostgreSQL (tests/server/CMakeLists.txt, "pg."): forms
// built at run time, which the source scan below does not read.
TEST(SqlDialect, CrossJoinWithOnAndUnnamedSubqueriesHaveTheirTwins) {
  // SQLite's CROSS JOIN ... ON is an inner join in the written order; PostgreSQL allows no ON.
  EXPECT_EQ(pg("SELECT a.x FROM a CROSS JOIN b ON b.id = a.id WHERE a.y = ?"),
            "SELECT a.x FROM a JOIN b ON b.id = a.id WHERE a.y = $1");
  EXPECT_EQ(pg("SELECT a.x FROM a CROSS JOIN (SELECT id FROM c WHERE z = 1) k ON k.id = a.id"),
            "SELECT a.x FROM a JOIN (SELECT id FROM c WHERE z = 1) k ON k.id = a.id");
  // Without ON it stays a cross join.
  EXPECT_EQ(pg("SELECT a.x FROM a CROSS JOIN b WHERE b.id = a.id"),
            "SELECT a.x FROM a CROSS JOIN b WHERE b.id = a.id");
  // A subquery in FROM without a name gets one; a named one keeps its own.
  EXPECT_EQ(
      pg("SELECT id FROM (SELECT * FROM chat ORDER BY id DESC LIMIT ?) ORDER BY id"),
      "SELECT id FROM (SELECT * FROM chat ORDER BY id DESC LIMIT $1) AS subquery_1 ORDER BY id");
  EXPECT_EQ(pg("SELECT count(*) FROM (SELECT 1 FROM t)"),
            "SELECT count(*) FROM (SELECT 1 FROM t) AS subquery_1");
  EXPECT_EQ(pg("SELECT n FROM (SELECT 1 AS n) AS one"), "SELECT n FROM (SELECT 1 AS n) AS one");
  EXPECT_EQ(pg("SELECT n FROM (SELECT 1 AS n) one WHERE n = 1"),
            "SELECT n FROM (SELECT 1 AS n) one WHERE n = 1");
  // A subquery elsewhere (IN, EXISTS) needs no name.
  EXPECT_EQ(pg("SELECT 1 FROM t WHERE id IN (SELECT id FROM u)"),
            "SELECT 1 FROM t WHERE id IN (SELECT id FROM u)");
}

TEST(SqlDialect, ScalarMinAndMaxAndSumsOfComparisonsHaveTheirTwins) {
  EXPECT_EQ(pg("SELECT MIN(?3, COALESCE((SELECT MAX(id) FROM chat), 0))"),
            "SELECT LEAST($3, COALESCE((SELECT MAX(id) FROM chat), 0))");
  EXPECT_EQ(pg("SELECT max(a, b, c), min(d) FROM t"), "SELECT GREATEST(a, b, c), min(d) FROM t");
  EXPECT_EQ(pg("SELECT COUNT(*), SUM(place = 1), AVG(x IS NULL) FROM s"),
            "SELECT COUNT(*), SUM( (place = 1 )::int), AVG( (x IS NULL )::int) FROM s");
  // A sum of a function's result, or of arithmetic, stays as it is.
  EXPECT_EQ(pg("SELECT SUM(MAX(a, b)), SUM(a + 1) FROM t"),
            "SELECT SUM(GREATEST(a, b)), SUM(a + 1) FROM t");
}

// Found by preparing every statement of the server on a real PostgreSQL.
TEST(SqlDialect, IsWithAValueAndCollateNocaseHaveTheirTwins) {
  EXPECT_EQ(pg("UPDATE p SET l = ?1 WHERE id = ?2 AND l IS NOT ?1"),
            "UPDATE p SET l = $1 WHERE id = $2 AND l IS DISTINCT FROM $1");
  EXPECT_EQ(pg("SELECT 1 FROM p WHERE a IS b AND c IS NULL AND d IS NOT NULL AND e IS TRUE"),
            "SELECT 1 FROM p WHERE a IS NOT DISTINCT FROM b AND c IS NULL AND d IS NOT NULL AND e "
            "IS TRUE");
  EXPECT_EQ(pg("SELECT name FROM p ORDER BY p.name COLLATE NOCASE, id"),
            "SELECT name FROM p ORDER BY lower( p.name ) COLLATE \"C\", id");
  EXPECT_EQ(pg("SELECT name FROM p ORDER BY name COLLATE nocase DESC"),
            "SELECT name FROM p ORDER BY lower( name ) COLLATE \"C\" DESC");
  EXPECT_THROW(pg("SELECT 1 FROM p ORDER BY (a || b) COLLATE NOCASE"), SqlDialectError);
}

TEST(SqlDialect, InsertOrIgnoreEndsWithOnConflictDoNothing) {
  EXPECT_EQ(pg("INSERT OR IGNORE INTO friends(a, b) VALUES(?, ?);"),
            "INSERT INTO friends(a, b) VALUES($1, $2) ON CONFLICT DO NOTHING;");
  EXPECT_EQ(pg("INSERT OR IGNORE INTO t(a) VALUES(?) RETURNING id"),
            "INSERT INTO t(a) VALUES($1) ON CONFLICT DO NOTHING RETURNING id");
  EXPECT_EQ(
      pg("INSERT OR IGNORE INTO t(a) SELECT a FROM u WHERE (b) IN (SELECT b FROM v)"),
      "INSERT INTO t(a) SELECT a FROM u WHERE (b) IN (SELECT b FROM v) ON CONFLICT DO NOTHING");
  EXPECT_THROW(pg("INSERT OR ABORT INTO t(a) VALUES(1)"), SqlDialectError);
  EXPECT_THROW(pg("INSERT OR IGNORE INTO t(a) VALUES(1) ON CONFLICT(a) DO NOTHING"),
               SqlDialectError);
}

SqlDialect ratings_schema() {
  SqlDialect dialect;
  dialect.learn(
      "CREATE TABLE ratings(player_id INTEGER NOT NULL REFERENCES players(id), "
      "players INTEGER NOT NULL, mu REAL NOT NULL, sigma REAL NOT NULL DEFAULT 8.3, "
      "note TEXT DEFAULT 'a, b', PRIMARY KEY(player_id, players)) WITHOUT ROWID");
  dialect.learn("CREATE TABLE log(line TEXT)");
  return dialect;
}

TEST(SqlDialect, InsertOrReplaceSetsListedColumnsAndDefaultsTheOthersAsReplaceDoes) {
  const SqlDialect dialect = ratings_schema();
  const TableShape* shape = dialect.table("RATINGS");
  ASSERT_NE(shape, nullptr);
  EXPECT_EQ(shape->columns,
            (std::vector<std::string>{"player_id", "players", "mu", "sigma", "note"}));
  EXPECT_EQ(shape->key, (std::vector<std::string>{"player_id", "players"}));
  EXPECT_EQ(pg("INSERT OR REPLACE INTO ratings(player_id, players, mu) VALUES(?, ?, ?)", dialect),
            "INSERT INTO ratings(player_id, players, mu) VALUES($1, $2, $3) ON CONFLICT "
            "(player_id, players) DO UPDATE SET mu = excluded.mu, sigma = DEFAULT, note = DEFAULT");
  EXPECT_EQ(pg("REPLACE INTO ratings(players, player_id) VALUES(2, ?)", dialect),
            "INSERT INTO ratings(players, player_id) VALUES(2, $1) ON CONFLICT "
            "(player_id, players) DO UPDATE SET mu = DEFAULT, sigma = DEFAULT, note = DEFAULT");
  // What the upsert cannot be written for is refused, naming why.
  auto refusal = [&](std::string_view sql) {
    try {
      pg(sql, dialect);
    } catch (const SqlDialectError& e) {
      return std::string(e.what());
    }
    return std::string("translated");
  };
  EXPECT_NE(
      refusal("INSERT OR REPLACE INTO ratings VALUES(1, 2, 3, 4, 5)").find("lists no columns"),
      std::string::npos);
  EXPECT_NE(refusal("INSERT OR REPLACE INTO ratings(player_id, mu) VALUES(1, 2)")
                .find("does not give key column players"),
            std::string::npos);
  EXPECT_NE(refusal("INSERT OR REPLACE INTO log(line) VALUES('x')").find("no primary key"),
            std::string::npos);
  EXPECT_NE(refusal("INSERT OR REPLACE INTO elsewhere(a) VALUES(1)").find("not in the schema"),
            std::string::npos);
}

TEST(SqlDialect, TheSchemaIsFollowedThroughAlterAndDrop) {
  SqlDialect dialect = ratings_schema();
  dialect.learn("ALTER TABLE ratings ADD COLUMN games INTEGER NOT NULL DEFAULT 0");
  dialect.learn("ALTER TABLE ratings RENAME COLUMN note TO remark");
  dialect.learn("ALTER TABLE ratings RENAME TO ladder");
  EXPECT_EQ(dialect.table("ratings"), nullptr);
  ASSERT_NE(dialect.table("ladder"), nullptr);
  EXPECT_EQ(dialect.table("ladder")->columns,
            (std::vector<std::string>{"player_id", "players", "mu", "sigma", "remark", "games"}));
  dialect.learn("ALTER TABLE ladder DROP COLUMN remark");
  EXPECT_EQ(
      pg("INSERT OR REPLACE INTO ladder(player_id, players, games) VALUES(?, ?, ?)", dialect),
      "INSERT INTO ladder(player_id, players, games) VALUES($1, $2, $3) ON CONFLICT "
      "(player_id, players) DO UPDATE SET mu = DEFAULT, sigma = DEFAULT, games = excluded.games");
  dialect.learn("DROP TABLE IF EXISTS ladder");
  EXPECT_EQ(dialect.table("ladder"), nullptr);
  // A column's own PRIMARY KEY.
  dialect.learn("CREATE TABLE IF NOT EXISTS names(id INTEGER PRIMARY KEY, name TEXT NOT NULL)");
  ASSERT_NE(dialect.table("names"), nullptr);
  EXPECT_EQ(dialect.table("names")->key, (std::vector<std::string>{"id"}));
}

TEST(SqlDialect, TablesGetPostgresqlTypesAndIdentityKeys) {
  EXPECT_EQ(pg("CREATE TABLE players(\n  id INTEGER PRIMARY KEY,\n  name TEXT NOT NULL,\n"
               "  rating REAL,\n  avatar BLOB,\n  created INTEGER NOT NULL DEFAULT 0)"),
            "CREATE TABLE players(\n  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,\n"
            "  name TEXT NOT NULL,\n  rating DOUBLE PRECISION,\n  avatar BYTEA,\n"
            "  created BIGINT NOT NULL DEFAULT 0)");
  EXPECT_EQ(pg("CREATE TABLE a(g INTEGER NOT NULL, s INTEGER NOT NULL, t TEXT DEFAULT 'INTEGER', "
               "PRIMARY KEY(g, s)) WITHOUT ROWID;"),
            "CREATE TABLE a(g BIGINT NOT NULL, s BIGINT NOT NULL, t TEXT DEFAULT 'INTEGER', "
            "PRIMARY KEY(g, s));");
  EXPECT_EQ(pg("CREATE TABLE b(id INTEGER PRIMARY KEY AUTOINCREMENT, x INT) STRICT"),
            "CREATE TABLE b(id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, x BIGINT)");
  EXPECT_EQ(pg("ALTER TABLE games ADD COLUMN clock INTEGER"),
            "ALTER TABLE games ADD COLUMN clock BIGINT");
  EXPECT_EQ(pg("CREATE INDEX IF NOT EXISTS games_by_status ON games(status) WHERE status = 'open'"),
            "CREATE INDEX IF NOT EXISTS games_by_status ON games(status) WHERE status = 'open'");
  EXPECT_THROW(pg("CREATE VIRTUAL TABLE f USING fts5(body)"), SqlDialectError);
}

// One member of a JSON object and the elements of a JSON array: read as text in PostgreSQL, so
// the statements say CAST(... AS BIGINT) where they compare with a number (as they do in SQLite).
TEST(SqlDialect, JsonMembersAndArrayElementsHaveTheirTwins) {
  EXPECT_EQ(pg("SELECT max(seq) FROM actions WHERE game_id = ? AND "
               "CAST(json_extract(action, '$.player') AS BIGINT) = ?"),
            "SELECT max(seq) FROM actions WHERE game_id = $1 AND "
            "CAST(((action)::jsonb ->> 'player') AS BIGINT) = $2");
  EXPECT_EQ(pg("SELECT json_extract(g.result, '$.ended_by') FROM games g"),
            "SELECT ((g.result)::jsonb ->> 'ended_by') FROM games g");
  EXPECT_EQ(pg("SELECT a FROM t WHERE a IN (SELECT CAST(value AS BIGINT) FROM json_each(?2))"),
            "SELECT a FROM t WHERE a IN (SELECT CAST(value AS BIGINT) FROM "
            "jsonb_array_elements_text(($2)::jsonb) AS json_each(value))");
  EXPECT_EQ(pg("SELECT w.value FROM json_each(?) AS w WHERE w.value > 'a'"),
            "SELECT w.value FROM jsonb_array_elements_text(($1)::jsonb) AS w(value) WHERE "
            "w.value > 'a'");
  EXPECT_EQ(pg("SELECT w.value FROM json_each(?) w"),
            "SELECT w.value FROM jsonb_array_elements_text(($1)::jsonb) w(value)");
  // The parentheses still pair up for the rewrites that count them: SUM of a comparison.
  EXPECT_EQ(pg("SELECT SUM(json_extract(result, '$.ended_by') = 'race') FROM games"),
            "SELECT SUM( (((result)::jsonb ->> 'ended_by') = 'race' )::int) FROM games");
}

TEST(SqlDialect, FormsWithoutATwinAreRefusedWithTheReason) {
  for (const char* sql :
       {"PRAGMA user_version = 3", "SELECT json_extract(options, '$.seats[0]') FROM games",
        "SELECT json_extract(options, '$.a', '$.b') FROM games", "SELECT json_valid(options)",
        "SELECT changes()", "SELECT value FROM json_each(?, '$.a')", "SELECT strftime('%s', 'now')",
        "SELECT a FROM t WHERE a GLOB 'x*'", "SELECT a FROM t; SELECT b FROM t",
        "UPDATE OR IGNORE t SET a = 1", "SELECT options ->> '$.seats' FROM games",
        "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END"}) {
    EXPECT_THROW(pg(sql), SqlDialectError) << sql;
  }
  try {
    pg("SELECT group_concat(name) FROM players");
    ADD_FAILURE() << "group_concat translated";
  } catch (const SqlDialectError& e) {
    EXPECT_STREQ(e.what(), "SQL: SQLite's group_concat() has no PostgreSQL twin here");
  }
}

TEST(SqlDialect, ScriptsSplitAtSemicolonsOutsideStringsCommentsAndTriggers) {
  const auto statements = split_statements(
      "CREATE TABLE a(x TEXT DEFAULT ';');\n-- a comment; with a semicolon\n"
      "INSERT INTO a(x) VALUES('1;2');;\n"
      "CREATE TRIGGER t AFTER INSERT ON a BEGIN UPDATE a SET x = CASE WHEN x = '' THEN 'e' ELSE x "
      "END; DELETE FROM a WHERE 0; END;\nSELECT 1");
  ASSERT_EQ(statements.size(), 4u);
  EXPECT_EQ(statements[0], "CREATE TABLE a(x TEXT DEFAULT ';');");
  EXPECT_EQ(statements[1], "-- a comment; with a semicolon\nINSERT INTO a(x) VALUES('1;2');");
  EXPECT_EQ(statements[2].substr(0, 14), "CREATE TRIGGER");
  EXPECT_EQ(statements[2].substr(statements[2].size() - 5), " END;");
  EXPECT_EQ(statements[3], "SELECT 1");
}

// Every statement of every migration, read in order: what translates and what does not yet. The
// list of refusals is the work left for the migrations' PostgreSQL text (docs/postgresql-plan.md);
// a new migration that adds a SQLite-only form fails here until it is either written in the
// shared dialect or added to the list with its PostgreSQL twin planned.
TEST(SqlDialect, EveryMigrationStatementTranslatesOrIsAKnownRefusal) {
  SqlDialect dialect;
  std::map<std::string, int> refused;  // the refusal's reason -> how many statements
  int translated = 0;
  for (int version = 1; version <= Store::kSchemaVersion; ++version) {
    for (const std::string& statement : split_statements(schema_migration(version))) {
      try {
        const std::string text = dialect.to_postgresql(statement);
        EXPECT_EQ(text.find("WITHOUT ROWID"), std::string::npos) << text;
        EXPECT_EQ(text.find("INTEGER"), std::string::npos) << text;
        ++translated;
      } catch (const SqlDialectError& e) {
        ++refused[e.what()];
      }
      dialect.learn(statement);
    }
  }
  EXPECT_GT(translated, 50) << translated;
  std::printf("[ migrations  ] %d statements translate\n", translated);
  // The one backfill of the player records (store_schema.cpp) reads the games' JSON columns with
  // json_each(result, '$.winners') and json_valid(); it has nothing to fill in a database that
  // starts on PostgreSQL, where PgDatabase::migrate skips it.
  const std::map<std::string, int> known = {
      {"SQL: SQLite's json_each() with a path has no PostgreSQL twin here", 1}};
  EXPECT_EQ(refused, known);
}

// Every statement the server's source hands to the database, translated after the migrations
// taught the dialect the schema. What is refused is listed by reason with its count: the work left
// before the libpq store (docs/postgresql-plan.md). A new SQLite-only statement fails here.
TEST(SqlDialect, EveryStatementInTheServersSourceTranslatesOrIsAKnownRefusal) {
  SqlDialect dialect;
  for (int version = 1; version <= Store::kSchemaVersion; ++version) {
    for (const std::string& statement : split_statements(schema_migration(version)))
      dialect.learn(statement);
  }
  const test::SqlScan scan = test::scan_sql(VIKTORY_SERVER_DIR);
  std::map<std::string, int> refused;
  int translated = 0;
  for (const test::SqlInSource& found : scan.literal) {
    for (const std::string& statement : split_statements(found.sql)) {
      try {
        dialect.to_postgresql(statement);
        ++translated;
      } catch (const SqlDialectError& e) {
        ++refused[e.what()];
        std::printf("[ refused     ] %s: %s\n", found.where.c_str(), e.what());
      }
    }
  }
  for (const std::string& where : scan.built_at_run_time)
    std::printf("[ run time    ] %s\n", where.c_str());
  std::printf("[ source      ] %d statements translate, %zu calls build their SQL at run time\n",
              translated, scan.built_at_run_time.size());
  EXPECT_GT(translated, 150);
  // The PRAGMAs set up a SQLite connection (WAL, foreign keys, synchronous, the schema version):
  // the SQLite store's own, with no statement on PostgreSQL; one more reads the schema version of
  // the SQLite file viktory-move-db copies from (storage/move_db.cpp), never sent to PostgreSQL.
  const std::map<std::string, int> known = {
      {"SQL: PRAGMA is SQLite's own; PostgreSQL has no such statement", 6}};
  EXPECT_EQ(refused, known);
}

}  // namespace
}  // namespace viktory::server
