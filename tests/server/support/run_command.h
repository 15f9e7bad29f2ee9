// Runs a shell command, as the tests run the project's own binaries (viktory-server
// --check-db, viktory-move-db): its exit status (-1 if it did not exit) and what it printed on
// both streams.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>

namespace viktory::server::testing {

inline std::pair<int, std::string> run_command(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen((command + " 2>&1").c_str(), "r"), &pclose);
  std::string output;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe.get())) output += buffer.data();
  const int status = pclose(pipe.release());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

}  // namespace viktory::server::testing
