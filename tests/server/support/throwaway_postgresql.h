// A PostgreSQL cluster of the test's own: `initdb` in a temporary folder, `postgres` listening on
// a Unix socket in that folder only (no TCP port), stopped and deleted by the destructor. No
// service of the machine is used. The server's binaries come from Debian's `postgresql` package
// (scripts/install-deps.sh --test installs it). PostgreSQL refuses to run as root, so under root
// the folder is given to the `postgres` user the package creates and the commands run as him.
#pragma once

#include <optional>
#include <string>

namespace viktory::test {

class ThrowawayPostgresql {
 public:
  // Starts the cluster; throws std::runtime_error with the command's log when it cannot.
  ThrowawayPostgresql();
  ~ThrowawayPostgresql();
  ThrowawayPostgresql(const ThrowawayPostgresql&) = delete;
  ThrowawayPostgresql& operator=(const ThrowawayPostgresql&) = delete;

  // libpq's connection string for a database of the cluster (`postgres` always exists).
  std::string conninfo(const std::string& database = "postgres") const;
  // The folder of the cluster's socket (libpq's host).
  const std::string& folder() const { return folder_; }

  // The folder of PostgreSQL's programs (initdb, pg_ctl), or nothing when it is not installed.
  static std::optional<std::string> programs();

 private:
  std::string run_as_owner(const std::string& command) const;

  std::string bin_;
  std::string folder_;  // holds data/, the socket and the log
  bool as_postgres_user_ = false;
  bool started_ = false;
};

}  // namespace viktory::test
