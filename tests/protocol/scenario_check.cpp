// The CLI test: runs viktory-scenario as a user would and checks what it prints.
//
//   scenario_check <path of viktory-scenario> <tests/scenarios/NAME.expected.json>
//
// The expectation file:
//   {"args": ["--view", "1", "NAME.json"],  // default: ["NAME.json"]; *.json paths are
//                                           // relative to the expectation's folder
//    "exit_code": 0,                        // default 0
//    "stderr_contains": "...",              // optional
//    "output": {...}}                       // optional: must match stdout (json_subset.h)
// Exits 0 when everything matches, 1 with a description of the first difference otherwise.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "json_subset.h"

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string shell_quote(const std::string& arg) {
  std::string out = "'";
  for (char c : arg) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

RunResult run(const std::string& command_line) {
  std::string err_template =
      (std::filesystem::temp_directory_path() / "scenario_check_stderr_XXXXXX").string();
  std::vector<char> err_path(err_template.begin(), err_template.end());
  err_path.push_back('\0');
  const int fd = mkstemp(err_path.data());
  if (fd < 0) throw std::runtime_error("mkstemp failed");
  close(fd);
  RunResult result;
  FILE* pipe = popen((command_line + " 2>" + shell_quote(err_path.data())).c_str(), "r");
  if (!pipe) throw std::runtime_error("popen failed");
  char buffer[4096];
  std::size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.out.append(buffer, n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.err = read_file(err_path.data());
  std::remove(err_path.data());
  return result;
}

int check(const std::string& cli, const std::string& expected_path) {
  const nlohmann::json expected = nlohmann::json::parse(read_file(expected_path));
  const auto slash = expected_path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : expected_path.substr(0, slash);
  std::string name = expected_path.substr(slash == std::string::npos ? 0 : slash + 1);
  name = name.substr(0, name.size() - std::string(".expected.json").size());

  std::vector<std::string> args = {name + ".json"};
  if (expected.contains("args")) args = expected["args"].get<std::vector<std::string>>();
  std::string command_line = shell_quote(cli);
  for (const std::string& arg : args) {
    const bool file = ends_with(arg, ".json") && arg[0] != '-' && arg[0] != '/';
    command_line += " " + shell_quote(file ? dir + "/" + arg : arg);
  }

  const RunResult result = run(command_line);
  const int want_exit = expected.value("exit_code", 0);
  bool ok = true;
  if (result.exit_code != want_exit) {
    std::cerr << "exit code " << result.exit_code << ", expected " << want_exit << "\n";
    ok = false;
  }
  if (expected.contains("stderr_contains")) {
    const auto wanted = expected["stderr_contains"].get<std::string>();
    if (result.err.find(wanted) == std::string::npos) {
      std::cerr << "stderr does not contain \"" << wanted << "\"\n";
      ok = false;
    }
  }
  if (expected.contains("output")) {
    nlohmann::json output;
    try {
      output = nlohmann::json::parse(result.out);
    } catch (const nlohmann::json::parse_error& e) {
      std::cerr << "stdout is not JSON: " << e.what() << "\n";
      ok = false;
    }
    if (ok) {
      const std::string mismatch =
          viktory::testing::json_subset_mismatch(expected["output"], output);
      if (!mismatch.empty()) {
        std::cerr << "output differs: " << mismatch << "\n";
        ok = false;
      }
    }
  }
  if (!ok) {
    std::cerr << "command: " << command_line << "\nstderr:\n" << result.err << "\n";
    return 1;
  }
  std::cout << "ok: " << command_line << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: scenario_check <viktory-scenario> <NAME.expected.json>\n";
    return 2;
  }
  try {
    return check(argv[1], argv[2]);
  } catch (const std::exception& e) {
    std::cerr << "scenario_check: " << e.what() << "\n";
    return 1;
  }
}
