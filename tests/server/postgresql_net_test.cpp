// The real server on PostgreSQL when its database sessions end under it (PostgreSQL restarted,
// a failover, an administrator's pg_terminate_backend): the players do not notice. Runs only in
// the "pg." copy of the integration tests (tests/server/CMakeLists.txt), where the database
// files are PostgreSQL databases (support/postgresql_stand_in.h).
#include <gtest/gtest.h>
#include <libpq-fe.h>

#include "database.h"
#include "support/play.h"
#include "support/server_process.h"
#include "test_support.h"

namespace viktory::server::testing {
namespace {

using nlohmann::json;

// Ends every session on the database of `uri` (the server's), from a connection of its own.
int end_sessions(const std::string& uri) {
  const std::size_t from = std::string("postgresql:///").size();
  const std::string database = uri.substr(from, uri.find('?') - from);
  const std::string admin_info =
      "host=" + *postgresql_test_host() + " user=viktory dbname=postgres";
  PGconn* admin = PQconnectdb(admin_info.c_str());
  PGresult* r = PQexec(admin, ("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                               "WHERE datname = '" +
                               database + "' AND pid <> pg_backend_pid()")
                                  .c_str());
  const int ended = PQresultStatus(r) == PGRES_TUPLES_OK ? std::atoi(PQgetvalue(r, 0, 0)) : -1;
  PQclear(r);
  PQfinish(admin);
  return ended;
}

TEST(PostgresqlNet, EndedDatabaseSessionsCostThePlayersNothing) {
  if (!postgresql_test_host()) GTEST_SKIP() << "runs as pg.PostgresqlNet.* on a throwaway cluster";
  TempDir dir;
  const std::string db = dir.file("game.db");
  ASSERT_TRUE(is_postgresql_location(db));
  ServerProcess server(db, dir.path().string());
  const Account alice = sign_up(server.port(), "Alice");
  const Account bob = sign_up(server.port(), "Bob");
  WsClient a, b;
  a.connect(server.port());
  b.connect(server.port());
  sign_in(a, alice);
  sign_in(b, bob);
  std::vector<Seen> seen;
  const std::int64_t id = start_game({&a, &b}, seen);
  play_actions({&a, &b}, seen, id, 4);
  for (int round = 0; round < 3; ++round) {
    // The writer, the readers, accounts, notifications...: every session of the server (a
    // connection is opened again when next used: later rounds end fewer).
    EXPECT_GE(end_sessions(db), round == 0 ? 5 : 1) << "round " << round;
    // act_and_wait fails on any error: each action goes through at once.
    play_actions({&a, &b}, seen, id, 3);
    WsClient again;  // signing in reads through a reader too
    again.connect(server.port());
    sign_in(again, alice);
  }
  const int seq = seen[0].seq;
  EXPECT_GE(seq, 13);
  EXPECT_EQ(seen[1].seq, seq);
  Database check(db);
  Statement count = check.prepare("SELECT count(*), max(seq) FROM actions WHERE game_id = ?");
  count.bind(1, id);
  ASSERT_TRUE(count.step());
  EXPECT_EQ(count.int64(0), seq) << "every acknowledged action is in the database, once";
  EXPECT_EQ(count.int64(1), seq);
  EXPECT_EQ(server.terminate(), 0);
  EXPECT_EQ(server.log().find(" error "), std::string::npos) << server.log();
}

}  // namespace
}  // namespace viktory::server::testing
