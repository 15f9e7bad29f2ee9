// A GoogleTest fixture with a throwaway PostgreSQL cluster (throwaway_postgresql.h) for the suite
// and a fresh database per test. Skipped where PostgreSQL is not installed, unless
// VIKTORY_REQUIRE_POSTGRESQL is set (scripts/test.sh sets it): then a missing cluster fails.
#pragma once

#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>

#include "support/throwaway_postgresql.h"

namespace viktory::test {

class PostgresqlTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    failure_.clear();
    if (!ThrowawayPostgresql::programs()) {
      if (std::getenv("VIKTORY_REQUIRE_POSTGRESQL")) {
        failure_ = "PostgreSQL's programs are missing and VIKTORY_REQUIRE_POSTGRESQL is set";
      }
      return;
    }
    try {
      cluster_ = new ThrowawayPostgresql();
    } catch (const std::exception& e) {
      failure_ = e.what();
    }
  }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }
  void SetUp() override {
    ASSERT_TRUE(failure_.empty()) << failure_;
    if (!cluster_) GTEST_SKIP() << "PostgreSQL is not installed (scripts/install-deps.sh --test)";
    // PostgreSQL folds unquoted names to lower case, and keeps 63 bytes of them.
    database_ = std::string("t_") + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    for (char& c : database_) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    database_.resize(std::min<std::size_t>(database_.size(), 63));
    PGconn* admin = PQconnectdb(cluster_->conninfo().c_str());
    PQsetNoticeProcessor(
        admin, [](void*, const char*) {}, nullptr);
    for (const std::string& sql :
         {"DROP DATABASE IF EXISTS " + database_, "CREATE DATABASE " + database_}) {
      PGresult* result = PQexec(admin, sql.c_str());
      const bool ok = PQresultStatus(result) == PGRES_COMMAND_OK;
      const std::string message = PQresultErrorMessage(result);
      PQclear(result);
      if (!ok) {
        PQfinish(admin);
        FAIL() << sql << ": " << message;
      }
    }
    PQfinish(admin);
  }

  // The connection string of this test's own database.
  std::string conninfo() const { return cluster_->conninfo(database_); }

  static inline ThrowawayPostgresql* cluster_ = nullptr;
  static inline std::string failure_;
  std::string database_;
};

}  // namespace viktory::test
