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

#include <map>
#include <random>

#include "fair.h"

namespace viktory::server::testing {

// Answers fair play's reveal round for the fake clients of a Hub test as the browser client
// does (web-client/js/contribution.js): a game.commit_request with a fresh commitment
// (game.commit), a game.reveal_request with the contribution of the commitment it names
// (game.contribute). A fixture adds its clients when they connect and settles after each
// message it sends (the answers cannot be sent from inside deliver(): the room's lock is held);
// send() does both. A client must outlive the answerer, or be forgotten first.
// `C` is any client with a `messages` vector of parsed JSON (or a `recorder` that has one).
template <class C>
class RoundAnswerer {
 public:
  void add(C& client) { seen_.emplace(&client, messages_of(client).size()); }
  // A fixture's send(): the client is known from its first message on (its sign-in).
  void send(Hub& hub, C& client, const nlohmann::json& m) {
    add(client);
    hub.on_message(&client, m.dump());
    settle(hub);
  }
  void forget(C& client) { seen_.erase(&client); }
  // Turns it off: the test answers (or does not) itself.
  bool enabled = true;

  void settle(Hub& hub) {
    for (bool again = enabled; again;) {
      again = false;
      for (auto& [client, seen] : seen_) {
        while (seen < messages_of(*client).size()) {
          const nlohmann::json m = messages_of(*client)[seen++];
          if (auto answer = answer_for(m)) {
            hub.on_message(client, answer->dump());
            again = true;
          }
        }
      }
    }
  }

  // The contribution a client committed to with `commitment` (hex), or "".
  std::string contribution_for(const std::string& commitment) const {
    const auto it = contributions_.find(commitment);
    return it == contributions_.end() ? "" : it->second;
  }

 private:
  static const std::vector<nlohmann::json>& messages_of(const C& client) {
    if constexpr (requires { client.recorder.messages; }) {
      return client.recorder.messages;
    } else {
      return client.messages;
    }
  }

  std::optional<nlohmann::json> answer_for(const nlohmann::json& m) {
    const std::string type = m.value("type", "");
    if (type == "game.commit_request") {
      protocol::fair::Contribution contribution{};
      for (auto& byte : contribution) byte = static_cast<std::uint8_t>(random_());
      const std::string commitment =
          protocol::fair::to_hex(protocol::fair::contribution_commitment(contribution));
      contributions_[commitment] = protocol::fair::to_hex(contribution);
      return nlohmann::json{{"type", "game.commit"},
                            {"game_id", m["game_id"]},
                            {"contribution_commitment", commitment}};
    }
    if (type == "game.reveal_request") {
      const std::string contribution = contribution_for(m.value("contribution_commitment", ""));
      if (contribution.empty()) return std::nullopt;
      return nlohmann::json{
          {"type", "game.contribute"}, {"game_id", m["game_id"]}, {"contribution", contribution}};
    }
    return std::nullopt;
  }

  std::map<C*, std::size_t> seen_;
  std::map<std::string, std::string> contributions_;
  std::mt19937_64 random_{std::random_device{}()};
};

}  // namespace viktory::server::testing
