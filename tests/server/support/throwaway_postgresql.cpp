#include "throwaway_postgresql.h"

#include <pwd.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace viktory::test {
namespace fs = std::filesystem;

std::optional<std::string> ThrowawayPostgresql::programs() {
  // Debian keeps each major version's programs in /usr/lib/postgresql/<major>/bin; the newest wins.
  std::vector<fs::path> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/usr/lib/postgresql", ec)) {
    if (fs::exists(entry.path() / "bin" / "initdb") && fs::exists(entry.path() / "bin" / "pg_ctl"))
      found.push_back(entry.path() / "bin");
  }
  if (found.empty()) return std::nullopt;
  std::sort(found.begin(), found.end(), [](const fs::path& a, const fs::path& b) {
    return std::stoi(a.parent_path().filename().string()) <
           std::stoi(b.parent_path().filename().string());
  });
  return found.back().string();
}

ThrowawayPostgresql::ThrowawayPostgresql() {
  const auto bin = programs();
  if (!bin) throw std::runtime_error("PostgreSQL is not installed (Debian's postgresql package)");
  bin_ = *bin;
  std::string pattern = (fs::temp_directory_path() / "viktory-pg-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  folder_ = pattern;
  if (geteuid() == 0) {
    const passwd* owner = getpwnam("postgres");
    if (!owner) throw std::runtime_error("running as root and there is no postgres user");
    if (chown(folder_.c_str(), owner->pw_uid, owner->pw_gid) != 0)
      throw std::runtime_error("chown of the cluster's folder failed");
    as_postgres_user_ = true;
  }
  // -N and fsync=off: a throwaway cluster needs no durability, and the tests run faster.
  run_as_owner("'" + bin_ + "/initdb' -D '" + folder_ +
               "/data' -A trust -U viktory -E UTF8 --locale=C -N");
  run_as_owner("'" + bin_ + "/pg_ctl' -D '" + folder_ + "/data' -l '" + folder_ +
               "/log' -w -t 60 -o \"-k '" + folder_ +
               "' -c listen_addresses='' -c fsync=off -c max_connections=40\" start");
  started_ = true;
}

ThrowawayPostgresql::~ThrowawayPostgresql() {
  if (started_) {
    try {
      run_as_owner("'" + bin_ + "/pg_ctl' -D '" + folder_ + "/data' -m immediate -w stop");
    } catch (const std::exception&) {
      // Nothing more to do: the folder goes below; a server left running is named in its log.
    }
  }
  std::error_code ec;
  fs::remove_all(folder_, ec);
}

std::string ThrowawayPostgresql::conninfo(const std::string& database) const {
  return "host=" + folder_ + " user=viktory dbname=" + database;
}

std::string ThrowawayPostgresql::run_as_owner(const std::string& command) const {
  const std::string output = folder_ + "/command.out";
  const std::string line =
      (as_postgres_user_ ? "runuser -u postgres -- " : "") + command + " >'" + output + "' 2>&1";
  const int status = std::system(line.c_str());
  if (status != 0) {
    std::ifstream in(output);
    std::stringstream text;
    text << in.rdbuf();
    std::ifstream log(folder_ + "/log");
    if (log) text << "\n--- server log ---\n" << log.rdbuf();
    throw std::runtime_error("`" + command + "` failed (" + std::to_string(status) + "):\n" +
                             text.str());
  }
  return output;
}

}  // namespace viktory::test
