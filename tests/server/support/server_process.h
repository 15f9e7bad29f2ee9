// Runs the real viktory-server binary as a child process on a free loopback port (--port 0;
// the port is read from its "listening on" log line) and captures everything it prints.
#pragma once

#include <sys/types.h>

#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace viktory::server::testing {

// How to start it: which binary (empty: the one this test program was built with) and whether
// to add the integration tests' defaults (debug log, the rate limit and sign-ups lifted for
// bots). The abuse bench (bench/abuse) starts any build with the server's own defaults.
struct ServerLaunch {
  std::string binary;
  bool test_defaults = true;
  // NAME=value pairs added to the server's environment (e.g. LD_PRELOAD).
  std::vector<std::string> environment;
};

class ServerProcess {
 public:
  ServerProcess(const std::string& db, const std::string& web_root,
                std::vector<std::string> extra_args = {}, const ServerLaunch& launch = {});
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  void kill9();     // SIGKILL: no chance to clean up
  int terminate();  // SIGTERM and wait; returns the exit status (or -1)
  std::string log() const;

 private:
  void wait_exit();

  pid_t pid_ = -1;
  int port_ = 0;
  int out_fd_ = -1;
  std::thread reader_;
  mutable std::mutex mutex_;
  std::string log_;
  int exit_status_ = -1;
};

}  // namespace viktory::server::testing
