// What the hardening tests share (hardening_test.cpp, hardening_views_test.cpp): a fake
// connection that keeps every message, and a Hub over a real database file with helpers to
// sign up and play.
#pragma once

#include <gtest/gtest.h>

#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <thread>

#include "connections.h"
#include "failing_vfs.h"
#include "fake_clients.h"
#include "game.h"
#include "hub.h"
#include "json.h"
#include "reveal_round.h"
#include "test_support.h"
#include "token.h"
#include "view.h"
#include "view_delta.h"

namespace viktory::server::hardening {

using nlohmann::json;
using testing::FailingVfs;
using testing::TempDir;
using testing::ViewTracker;

// A connection as the Hub sees it, remembering every message (also as the shared pointer, to
// see which messages are one and the same).
struct FakeClient : Client {
  void deliver(Message m) override {
    raw.push_back(m);
    messages.push_back(json::parse(*m));
    views.absorb(messages.back());
  }
  void close(std::string_view) override { closed = true; }
  json last(const std::string& type) const {
    for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
      if (it->value("type", "") == type) return *it;
    }
    return nullptr;
  }
  std::vector<Message> of_type(const std::string& type) const {
    std::vector<Message> out;
    for (std::size_t i = 0; i < messages.size(); ++i) {
      if (messages[i].value("type", "") == type) out.push_back(raw[i]);
    }
    return out;
  }
  std::vector<Message> raw;
  std::vector<json> messages;
  ViewTracker views;
  bool closed = false;
};

// A Hub over a real database file, with helpers to sign up and play.
class HubFixture {
 public:
  explicit HubFixture(const std::string& file, HubOptions options = {})
      : store(file), hub(store, metrics, std::move(options)) {}

  std::string sign_up(const std::string& name, const std::string& address = "") {
    const ApiResponse r =
        hub.handle_api("POST", "/api/session", json{{"name", name}}.dump(), "", address);
    EXPECT_EQ(r.status, 200) << r.body;
    return json::parse(r.body).value("token", "");
  }
  void connect(FakeClient& c, const std::string& name, const std::string& address = "") {
    hub.on_open(&c, address);
    send(c, {{"type", "auth"}, {"token", sign_up(name)}});
    EXPECT_FALSE(c.last("welcome").is_null());
  }
  // Fair play's reveal round is answered as the browser does (fake_clients.h).
  void send(FakeClient& c, const json& m) { round.send(hub, c, m); }
  testing::RoundAnswerer<FakeClient> round;
  // Alice creates (with `fields`), Bob joins: a running two-player game.
  std::int64_t start_game(FakeClient& a, FakeClient& b, json fields = json::object()) {
    json create{{"type", "game.create"}, {"seats", 2}};
    create.update(fields);
    send(a, create);
    const std::int64_t id = a.last("game.created")["game_id"];
    json join{{"type", "game.join"}, {"game_id", id}};
    if (a.last("game.created").contains("invite"))
      join["invite"] = a.last("game.created")["invite"];
    send(b, join);
    EXPECT_FALSE(b.last("game.state").is_null());
    return id;
  }
  // The decider (Alice is seat 0, Bob seat 1) sends his first legal action other than
  // conceding; returns his client.
  FakeClient& act(FakeClient& a, FakeClient& b, std::int64_t id) {
    const int decider = latest_view(a)["decider"].get<int>();
    FakeClient& mover = decider == 0 ? a : b;
    const json mine = latest(mover);
    json action;
    for (const json& candidate : mine["legal"]) {
      if (candidate["kind"] != "concede") {
        action = candidate;
        break;
      }
    }
    send(mover, {{"type", "game.action"},
                 {"game_id", id},
                 {"seq", mine["seq"]},
                 {"action", action},
                 {"req", 1}});
    return mover;
  }
  static json latest(const FakeClient& c) {
    for (auto it = c.messages.rbegin(); it != c.messages.rend(); ++it) {
      const std::string type = it->value("type", "");
      if (type == "game.state" || type == "game.update") return *it;
    }
    return nullptr;
  }
  static json latest_view(const FakeClient& c) { return c.views.latest(); }

  Metrics metrics;
  Store store;
  Hub hub;
};

inline std::int64_t column(Store& store, const std::string& sql) {
  Statement s = store.db().prepare(sql);
  EXPECT_TRUE(s.step());
  return s.int64(0);
}

}  // namespace viktory::server::hardening
