// Fakes the Hub's own unit tests share: a clock the test moves by hand and a client that keeps
// every message it is sent, parsed.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "game_clock.h"
#include "hub.h"

namespace viktory::server::testing {

class FakeClock : public Clock {
 public:
  std::int64_t now_ms() override { return now; }
  std::int64_t now = 1'800'000'000'000;
};

struct ListClient : Client {
  void deliver(Message m) override { messages.push_back(nlohmann::json::parse(*m)); }
  void close(std::string_view) override {}
  // The latest message of that type, or null.
  nlohmann::json last(const std::string& type) const {
    for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
      if (it->value("type", "") == type) return *it;
    }
    return nullptr;
  }
  std::vector<nlohmann::json> messages;
};

}  // namespace viktory::server::testing
