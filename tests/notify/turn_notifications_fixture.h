// The fixture of the turn-notification tests (turn_notifications_test.cpp,
// turn_notification_messages_test.cpp): real game rooms over a real SQLite file hand their turn
// changes to TurnNotifications, which delivers through the notifier to the local Web Push
// service (web-push-testing decrypts the message), an SMTP sink and an HTTP webhook receiver.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <functional>
#include <random>
#include <regex>
#include <set>
#include <tuple>

#include "accounts.h"
#include "base64url.h"
#include "ec_key.h"
#include "game.h"
#include "game_clocks.h"
#include "lobby.h"
#include "reveal_round.h"
#include "stored_walk.h"
#include "support/loopback_server.h"
#include "support/telltales.h"
#include "test_support.h"
#include "token.h"
#include "turn_notifications.h"
#include "view.h"

#ifndef VIKTORY_PUSH_SERVICE_DIR
#error "VIKTORY_PUSH_SERVICE_DIR must name tests/notify/push-service"
#endif

namespace viktory::server {

using namespace std::chrono_literals;
using nlohmann::json;
using notify::testing::Blackhole;
using notify::testing::ChildProcess;
using notify::testing::HttpReceiver;
using notify::testing::post_json;
using notify::testing::SmtpSink;
using notify::testing::SmtpSinkOptions;
using testing::TempDir;

class TurnNotificationsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::filesystem::path dir = VIKTORY_PUSH_SERVICE_DIR;
    if (!std::filesystem::exists(dir / "node_modules" / "web-push-testing")) {
      setup_error_ = "the local push service is not installed: run `npm ci` in " + dir.string();
      return;
    }
    process_ = new ChildProcess({"node", "start.js"}, dir.string());
    const auto output = process_->wait_for_output("\n", 30s);
    if (!output || output->find("listening ") == std::string::npos) {
      setup_error_ = "push service did not start: " + process_->output();
      return;
    }
    port_ = std::stoi(output->substr(output->find("listening ") + 10));
  }
  static void TearDownTestSuite() {
    delete process_;
    process_ = nullptr;
  }

  void SetUp() override {
    ASSERT_TRUE(setup_error_.empty()) << setup_error_;
    store = std::make_unique<Store>(path);
    auto smtp = std::make_shared<notify::SmtpSettings>();
    smtp->url = "smtp://127.0.0.1:" + std::to_string(sink.port());
    smtp->start_tls = notify::StartTls::off;
    smtp->from = {"turns@viktory.example.org", "VIKTORY II"};
    TurnNotificationOptions options;
    options.public_url = "https://viktory.example.org";
    options.smtp = smtp;
    options.endpoints = notify::EndpointPolicy::local_testing();
    turns = std::make_unique<TurnNotifications>(path, notifier, options);
    RoomLimits limits;
    limits.on_turn = [this](TurnChange change) {
      if (seen_turn_change) seen_turn_change(change);
      turns->post(std::move(change));
    };
    lobby = std::make_unique<Lobby>(*store, metrics, limits);
    alice = store->create_player("Alice", token_hash(alice_token), 1);
    bob = store->create_player("Bob", token_hash(bob_token), 1);
  }
  void TearDown() override {
    lobby.reset();
    if (turns) turns->wait_idle();
    notifier.shutdown(5s);
  }

  static std::string service_url(const std::string& path) {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }
  // A browser's subscription at the push service with our public key, stored for `token`.
  std::string subscribe(const std::string& token) {
    const auto [status, body] =
        post_json(service_url("/subscribe"),
                  json{{"applicationServerKey", turns->vapid_public_key()}}.dump());
    EXPECT_EQ(status, 200) << body;
    const json data = json::parse(body)["data"];
    const ApiResponse r = api("POST", "/api/push/subscription", data, token);
    EXPECT_EQ(r.status, 200) << r.body;
    return data["clientHash"];
  }
  std::vector<json> pushes(const std::string& client_hash) {
    const auto [status, body] =
        post_json(service_url("/get-notifications"), json{{"clientHash", client_hash}}.dump());
    std::vector<json> out;
    if (status != 200) ADD_FAILURE() << status << " " << body;
    if (status != 200) return out;
    const json parsed = json::parse(body);
    for (const auto& m : parsed["data"]["messages"])
      out.push_back(json::parse(m.get<std::string>()));
    return out;
  }
  // Polls the push service (it has no way to wait) until `count` messages arrived.
  std::vector<json> wait_for_pushes(const std::string& client_hash, std::size_t count) {
    const auto deadline = std::chrono::steady_clock::now() + 20s;
    for (;;) {
      const std::vector<json> got = pushes(client_hash);
      if (got.size() >= count || std::chrono::steady_clock::now() > deadline) return got;
      std::this_thread::sleep_for(50ms);
    }
  }
  bool wait_for_mails(std::size_t count) {
    const auto deadline = std::chrono::steady_clock::now() + 20s;
    while (sink.mails().size() < count) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(20ms);
    }
    return true;
  }
  ApiResponse api(std::string_view method, std::string_view target, const json& body,
                  const std::string& token) {
    return turns->handle_api(method, target, body.is_null() ? "" : body.dump(),
                             token.empty() ? "" : "Bearer " + token);
  }
  void verified_email(const PlayerRecord& player, const std::string& address) {
    store->db()
        .prepare(
            "INSERT INTO player_emails(player_id, address, verified, created) VALUES(?, ?, 1, 1)")
        .bind(1, player.id)
        .bind(2, address)
        .run();
  }

  TurnNotificationOptions options_like_setup() {
    auto smtp = std::make_shared<notify::SmtpSettings>();
    smtp->url = "smtp://127.0.0.1:" + std::to_string(sink.port());
    smtp->start_tls = notify::StartTls::off;
    smtp->from = {"turns@viktory.example.org", "VIKTORY II"};
    TurnNotificationOptions options;
    options.public_url = "https://viktory.example.org";
    options.smtp = smtp;
    options.endpoints = notify::EndpointPolicy::local_testing();
    return options;
  }
  // A game of `creator` and `joiner`, running.
  GameRoom* game_of(const PlayerRecord& creator, const PlayerRecord& joiner) {
    CreateRequest req;
    req.options.players = 2;
    std::string invite;
    GameRoom* room = std::get<GameRoom*>(lobby->create(creator, req, &invite));
    EXPECT_FALSE(room->join(joiner, std::nullopt, ""));
    viktory::server::testing::complete_reveal_round(*room);  // fair play: both reveal, it starts
    return room;
  }

  // `before_start` runs while the game is still open (e.g. to set its webhook, so that the
  // start is told to it whatever the notification thread's timing).
  GameRoom* two_player_game(const std::function<void(GameRoom&)>& before_start = {}) {
    CreateRequest req;
    req.options.players = 2;
    std::string invite;
    auto created = lobby->create(alice, req, &invite);
    GameRoom* room = std::get<GameRoom*>(created);
    if (before_start) before_start(*room);
    EXPECT_FALSE(room->join(bob, std::nullopt, ""));
    viktory::server::testing::complete_reveal_round(*room);  // fair play: both reveal, it starts
    EXPECT_EQ(room->status(), GameStatus::kRunning);
    return room;
  }
  std::int64_t player_of_seat(GameRoom* room, int seat) {
    for (const auto& s : room->record().seats) {
      if (s.seat == seat) return s.player_id;
    }
    return 0;
  }
  // Random legal actions (never a concession) until the decider is `player`.
  void play_until_decider(GameRoom* room, std::int64_t player) {
    std::mt19937 rng(7);
    for (int i = 0; i < 2000; ++i) {
      const int seat = room->record().current_seat;
      if (player_of_seat(room, seat) == player && i > 0) return;
      std::vector<Action> moves;
      for (const Action& a : legal_actions(*room->state(), seat)) {
        if (a.kind != ActionKind::kConcede) moves.push_back(a);
      }
      ASSERT_FALSE(moves.empty());
      const Action a = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)];
      ASSERT_FALSE(room->act(player_of_seat(room, seat), room->seq(), a));
    }
    FAIL() << "the decider never became player " << player;
  }

  void battles_and_captures_told(const std::string& language);

  static inline ChildProcess* process_ = nullptr;
  static inline int port_ = 0;
  static inline std::string setup_error_;

  TempDir dir;
  std::string path = dir.file("turns.db");
  SmtpSink sink{SmtpSinkOptions{}};
  HttpReceiver hook_receiver;
  notify::Notifier notifier{notify::NotifierOptions{}};
  Metrics metrics;
  std::unique_ptr<Store> store;
  std::unique_ptr<TurnNotifications> turns;
  std::unique_ptr<Lobby> lobby;
  std::function<void(const TurnChange&)> seen_turn_change;  // every change a room hands over
  std::string alice_token = new_token();
  std::string bob_token = new_token();
  PlayerRecord alice;
  PlayerRecord bob;
};

}  // namespace viktory::server
