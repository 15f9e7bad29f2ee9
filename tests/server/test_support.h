// Helpers shared by the server's unit tests: a temporary directory and a subscriber that
// records every message it receives.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common.h"

namespace viktory::server::testing {

class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "viktory-test-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

class Recorder : public Subscriber {
 public:
  void deliver(Message message) override {
    raw.push_back(*message);
    messages.push_back(nlohmann::json::parse(*message));
  }
  std::vector<nlohmann::json> of_type(const std::string& type) const {
    std::vector<nlohmann::json> out;
    for (const auto& m : messages) {
      if (m.value("type", "") == type) out.push_back(m);
    }
    return out;
  }
  // The last message of a type; a null json when there is none.
  nlohmann::json last(const std::string& type) const {
    for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
      if (it->value("type", "") == type) return *it;
    }
    return nullptr;
  }
  void clear() {
    messages.clear();
    raw.clear();
  }
  std::vector<nlohmann::json> messages;
  std::vector<std::string> raw;
};

}  // namespace viktory::server::testing
