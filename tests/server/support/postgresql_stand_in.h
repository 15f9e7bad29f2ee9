// The server's tests on PostgreSQL: when VIKTORY_TEST_POSTGRESQL names the socket folder of a
// running throwaway cluster (tests/server/support/pg_cluster.sh, started by CTest for the
// "pg." copies of the integration tests), each database file a test asks its TempDir for
// ("game.db") stands for a PostgreSQL database of its own, made on first use, and the test
// gets that database's URI instead of the file's path. The server under test, and every check
// the test makes through database.h, then run on PostgreSQL with nothing else changed.
#pragma once

#include <libpq-fe.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>

namespace viktory::server::testing {

// The socket folder of the cluster the tests run on, when they run on PostgreSQL: the setting
// names the folder, or a file that holds it (pg_cluster.sh writes one: the folder is made when
// CTest starts the cluster, after the tests' environment was written).
inline std::optional<std::string> postgresql_test_host() {
  const char* setting = std::getenv("VIKTORY_TEST_POSTGRESQL");
  if (setting == nullptr || *setting == '\0') return std::nullopt;
  std::string host = setting;
  if (std::filesystem::is_regular_file(host)) {
    std::ifstream in(host);
    std::getline(in, host);
    if (host.empty()) throw std::runtime_error("no cluster folder in " + std::string(setting));
  }
  return host;
}

inline std::optional<std::string> postgresql_stand_in(const std::filesystem::path& folder,
                                                      const std::string& name) {
  const auto found = postgresql_test_host();
  if (!found || !name.ends_with(".db")) return std::nullopt;
  const std::string& host = *found;
  // One database per file: the folder is a fresh mkdtemp, so its path and the name tell it apart.
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016zx", std::hash<std::string>{}((folder / name).string()));
  const std::string database = std::string("f_") + hex;
  static std::mutex mutex;
  static std::set<std::string> made;
  std::lock_guard lock(mutex);
  if (!made.contains(database)) {
    const std::string admin_info = "host=" + host + " user=viktory dbname=postgres";
    PGconn* admin = PQconnectdb(admin_info.c_str());
    PGresult* result = PQexec(admin, ("CREATE DATABASE " + database).c_str());
    const bool ok = PQresultStatus(result) == PGRES_COMMAND_OK;
    const std::string message = PQresultErrorMessage(result);
    PQclear(result);
    PQfinish(admin);
    if (!ok) throw std::runtime_error("CREATE DATABASE " + database + ": " + message);
    made.insert(database);
  }
  return "postgresql:///" + database + "?host=" + host + "&user=viktory";
}

}  // namespace viktory::server::testing
