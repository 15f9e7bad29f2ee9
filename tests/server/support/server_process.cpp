#include "support/server_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <regex>
#include <sstream>
#include <stdexcept>

// The integration tests are built with their binary's path; other programs (bench/abuse) name
// the binary in ServerLaunch.
#ifndef VIKTORY_SERVER_BINARY
#define VIKTORY_SERVER_BINARY ""
#endif

namespace viktory::server::testing {

ServerProcess::ServerProcess(const std::string& db, const std::string& web_root,
                             std::vector<std::string> extra_args, const ServerLaunch& launch) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  std::vector<std::string> args = {
      launch.binary.empty() ? std::string(VIKTORY_SERVER_BINARY) : launch.binary,
      "--port",
      "0",
      "--bind",
      "127.0.0.1",
      "--db",
      db,
      "--web-root",
      web_root};
  if (launch.test_defaults) {
    args.push_back("--log-level");
    args.push_back("debug");
    // Bots act far faster than people: lift the per-connection rate limit unless a test sets it.
    bool sets_rate = false;
    for (const auto& a : extra_args) sets_rate = sets_rate || a == "--rate-limit";
    if (!sets_rate) {
      args.push_back("--rate-limit");
      args.push_back("100000");
    }
    args.push_back("--signups-per-minute");
    args.push_back("600");
  }
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  // Built before fork: the child of a threaded process only calls what is async-signal-safe.
  std::vector<std::string> environment = launch.environment;
  for (char** entry = environ; *entry != nullptr; ++entry) environment.emplace_back(*entry);
  std::vector<char*> envp;
  for (auto& e : environment) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    close(fds[0]);
    close(fds[1]);
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  close(fds[1]);
  out_fd_ = fds[0];
  reader_ = std::thread([this] {
    char buf[4096];
    while (true) {
      const ssize_t n = read(out_fd_, buf, sizeof buf);
      if (n <= 0) break;
      std::lock_guard lock(mutex_);
      log_.append(buf, static_cast<std::size_t>(n));
    }
  });
  const std::regex listening("listening on 127\\.0\\.0\\.1:([0-9]+)");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    {
      std::lock_guard lock(mutex_);
      std::smatch m;
      if (std::regex_search(log_, m, listening)) {
        port_ = std::stoi(m[1]);
        return;
      }
    }
    if (waitpid(pid_, &exit_status_, WNOHANG) == pid_) {
      pid_ = -1;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (pid_ > 0) kill9();
  // A joinable thread left in a member would end the program when the constructor throws.
  if (reader_.joinable()) reader_.join();
  throw std::runtime_error("viktory-server did not start: " + log());
}

ServerProcess::~ServerProcess() {
  if (pid_ > 0) terminate();
  if (reader_.joinable()) reader_.join();
  if (out_fd_ >= 0) close(out_fd_);
  // The server's errors go to stderr, which CTest shows for a failing test only: what the
  // client saw (a timeout) rarely says why.
  std::istringstream lines(log());
  for (std::string line; std::getline(lines, line);) {
    if (line.find(" error ") != std::string::npos || line.find(" critical ") != std::string::npos)
      std::cerr << "server: " << line << "\n";
  }
}

void ServerProcess::wait_exit() {
  int status = 0;
  if (waitpid(pid_, &status, 0) == pid_) exit_status_ = status;
  pid_ = -1;
  if (reader_.joinable()) reader_.join();
}

void ServerProcess::kill9() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  wait_exit();
}

int ServerProcess::terminate() {
  if (pid_ <= 0) return exit_status_;
  ::kill(pid_, SIGTERM);
  wait_exit();
  return WIFEXITED(exit_status_) ? WEXITSTATUS(exit_status_) : -1;
}

std::string ServerProcess::log() const {
  std::lock_guard lock(mutex_);
  return log_;
}

}  // namespace viktory::server::testing
