// Helpers shared by the server's unit tests: a temporary directory and a subscriber that
// records every message it receives.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "common.h"
#include "support/postgresql_stand_in.h"
#include "view_delta.h"

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
  // A file in the folder; a database file ("x.db") is a PostgreSQL database instead when the
  // tests run on PostgreSQL (support/postgresql_stand_in.h).
  std::string file(const std::string& name) const {
    if (auto database = postgresql_stand_in(path_, name)) return *database;
    return (path_ / name).string();
  }

 private:
  std::filesystem::path path_;
};

// What a client holds of each game's view, as the browser client keeps it: a game.state (or a
// game.update with a whole view) sets it, a game.update's delta changes the view of the seq
// before. A delta that does not follow the seq held is a test failure (throws).
class ViewTracker {
 public:
  void absorb(const nlohmann::json& m) {
    const std::string type = m.value("type", "");
    if (type != "game.state" && type != "game.update") return;
    const std::int64_t game = m.at("game_id");
    const int seq = m.at("seq");
    Held& held = held_[game];
    if (m.contains("view")) {
      held.view = m.at("view");
    } else {
      if (held.seq != seq - 1) {
        throw std::runtime_error("a delta for seq " + std::to_string(seq) + " while holding " +
                                 std::to_string(held.seq));
      }
      held.view = protocol::apply_view_delta(std::move(held.view), m.at("delta"));
    }
    held.seq = seq;
    latest_game_ = game;
  }
  // The view held of a game (null when none), or of the game of the latest message.
  nlohmann::json view(std::int64_t game) const {
    auto it = held_.find(game);
    return it == held_.end() ? nlohmann::json() : it->second.view;
  }
  nlohmann::json latest() const { return view(latest_game_); }

 private:
  struct Held {
    int seq = -1;
    nlohmann::json view;
  };
  std::map<std::int64_t, Held> held_;
  std::int64_t latest_game_ = -1;
};

class Recorder : public Subscriber {
 public:
  void deliver(Message message) override {
    raw.push_back(*message);
    messages.push_back(nlohmann::json::parse(*message));
    views.absorb(messages.back());
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
  ViewTracker views;  // not cleared by clear(): a client keeps its views
};

}  // namespace viktory::server::testing
