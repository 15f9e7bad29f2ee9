// Turn notifications wired into games (server/turn_notifications.h), end to end on loopback:
// real game rooms over a real SQLite file hand their turn changes to TurnNotifications, which
// delivers through the notifier to the local Web Push service (web-push-testing decrypts the
// message), an SMTP sink and an HTTP webhook receiver.
#include "turn_notifications.h"

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
#include "stored_walk.h"
#include "support/loopback_server.h"
#include "support/telltales.h"
#include "test_support.h"
#include "token.h"
#include "view.h"

#ifndef VIKTORY_PUSH_SERVICE_DIR
#error "VIKTORY_PUSH_SERVICE_DIR must name tests/notify/push-service"
#endif

namespace viktory::server {
namespace {

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

TEST_F(TurnNotificationsTest, TheVapidKeyIsMadeOnceAndKeptInTheDatabase) {
  const std::string key = turns->vapid_public_key();
  EXPECT_EQ(key.size(), 87u);
  TurnNotifications again(path, notifier, TurnNotificationOptions{});
  EXPECT_EQ(again.vapid_public_key(), key);
  const ApiResponse r = api("GET", "/api/push/key", nullptr, "");
  EXPECT_EQ(json::parse(r.body)["public_key"], key);
}

TEST_F(TurnNotificationsTest, WhenTheTurnPassesThePlayerGetsAPushAMailAndTheGroupAWebhook) {
  const std::string bob_browser = subscribe(bob_token);
  verified_email(bob, "bob@example.org");
  ASSERT_EQ(api("POST", "/api/notify/settings", json{{"email", true}}, bob_token).status, 200);
  GameRoom* room = two_player_game([&](GameRoom& open) {
    const ApiResponse hook =
        api("POST", "/api/notify/webhook",
            json{{"game_id", open.id()}, {"url", hook_receiver.url("/chat")}, {"format", "slack"}},
            alice_token);
    ASSERT_EQ(hook.status, 200) << hook.body;
  });

  // The start: a push "has started" to Bob (his browser), the webhook says who moves first.
  turns->wait_idle();
  if (player_of_seat(room, room->record().current_seat) == bob.id) {
    play_until_decider(room, alice.id);
  }
  play_until_decider(room, bob.id);
  turns->wait_idle();

  const auto got = wait_for_pushes(bob_browser, 2);
  const auto stats = notifier.stats()[notify::Channel::push];
  ASSERT_GE(got.size(), 2u) << "accepted " << stats.accepted << " delivered " << stats.delivered
                            << " failed " << stats.failed << " gone " << stats.gone;
  // Deliveries run side by side, so the push service may get them in any order.
  const auto of_kind = [&](const char* kind) {
    return std::find_if(got.begin(), got.end(), [&](const json& m) { return m["kind"] == kind; });
  };
  ASSERT_NE(of_kind("game_started"), got.end());
  ASSERT_NE(of_kind("your_turn"), got.end());
  const json& turn = *of_kind("your_turn");
  EXPECT_EQ(turn["game"], room->id());
  EXPECT_EQ(turn["url"], "https://viktory.example.org/#/game/" + std::to_string(room->id()));
  EXPECT_EQ(turn["tag"], "viktory-game-" + std::to_string(room->id()));
  // Nothing but public facts: no terrain, units or seed words in the payload.
  EXPECT_EQ(turn.size(), 6u) << turn.dump();

  ASSERT_TRUE(wait_for_mails(1));
  const auto mail = sink.mails().front();
  EXPECT_EQ(mail.recipients.front(), "TO:<bob@example.org>");
  EXPECT_NE(mail.data.find("Subject: Your turn in Game " + std::to_string(room->id())),
            std::string::npos)
      << mail.data;

  ASSERT_TRUE(hook_receiver.wait_for(2, 20s));
  const auto requests = hook_receiver.requests();
  // The notifier runs transfers side by side: the chat may get them in any order.
  bool started_said = false;
  bool bobs_turn_said = false;
  for (const auto& r : requests) {
    EXPECT_EQ(r.target, "/chat");
    const std::string text = json::parse(r.body)["text"];
    started_said |= text.find("has started") != std::string::npos;
    bobs_turn_said |= text.find("Bob's turn") != std::string::npos;
  }
  EXPECT_TRUE(started_said);
  EXPECT_TRUE(bobs_turn_said);
}

TEST_F(TurnNotificationsTest, NoMailWhileTheGameIsOpenOrMutedAndAtMostOnePerTurn) {
  GameRoom* room = two_player_game();
  turns->wait_idle();  // the start is told before Bob turns e-mail on
  verified_email(bob, "bob@example.org");
  api("POST", "/api/notify/settings", json{{"email", true}}, bob_token);
  testing::Recorder bobs_page;
  room->watch(&bobs_page, bob.id);  // Bob has the game open
  if (player_of_seat(room, room->record().current_seat) == bob.id) {
    play_until_decider(room, alice.id);
  }
  play_until_decider(room, bob.id);
  turns->wait_idle();
  room->unwatch(&bobs_page);

  // Muted: nothing either.
  ASSERT_EQ(
      api("POST", "/api/notify/mute", json{{"game_id", room->id()}, {"muted", true}}, bob_token)
          .status,
      200);
  play_until_decider(room, alice.id);
  play_until_decider(room, bob.id);
  turns->wait_idle();
  notifier.shutdown(10s);  // everything queued has been tried
  EXPECT_TRUE(sink.mails().empty());
  EXPECT_EQ(notifier.stats()[notify::Channel::email].accepted, 0);
}

TEST_F(TurnNotificationsTest, AnExpiredSubscriptionIsDropped) {
  const std::string bob_browser = subscribe(bob_token);
  EXPECT_EQ(json::parse(
                api("GET", "/api/notify/settings", nullptr, bob_token).body)["push_subscriptions"],
            1);
  ASSERT_EQ(post_json(service_url("/expire-subscription/" + bob_browser), "{}").first, 200);
  GameRoom* room = two_player_game();  // "has started" to Bob: gone
  (void)room;
  turns->wait_idle();
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  while (json::parse(
             api("GET", "/api/notify/settings", nullptr, bob_token).body)["push_subscriptions"] !=
             0 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(50ms);
  }
  EXPECT_EQ(json::parse(
                api("GET", "/api/notify/settings", nullptr, bob_token).body)["push_subscriptions"],
            0);
  EXPECT_EQ(notifier.stats()[notify::Channel::push].gone, 1);
}

TEST_F(TurnNotificationsTest, SettingsAndWebhooksRefuseBadInput) {
  GameRoom* room = two_player_game();
  const json game{{"game_id", room->id()}};
  EXPECT_EQ(api("GET", "/api/notify/settings", nullptr, "").status, 401);
  EXPECT_EQ(api("POST", "/api/push/subscription", json{{"endpoint", "x"}}, bob_token).status, 400);
  EXPECT_EQ(api("POST", "/api/notify/settings", json{{"push", "yes"}}, bob_token).status, 400);
  EXPECT_EQ(
      api("POST", "/api/notify/mute", json{{"game_id", room->id() + 1}, {"muted", true}}, bob_token)
          .status,
      404);
  // Only the creator sets the webhook, and only to an https URL of the right format.
  json hook{{"game_id", room->id()}, {"url", hook_receiver.url("/x")}, {"format", "json"}};
  EXPECT_EQ(api("POST", "/api/notify/webhook", hook, bob_token).status, 403);
  hook["format"] = "telegram";
  EXPECT_EQ(api("POST", "/api/notify/webhook", hook, alice_token).status, 400);
  hook["format"] = "discord";
  hook["url"] = "ftp://example.org/hook";
  EXPECT_EQ(api("POST", "/api/notify/webhook", hook, alice_token).status, 400);
  // Seated players see that there is none; the URL is never shown.
  const ApiResponse seen =
      api("GET", "/api/notify/webhook?game_id=" + std::to_string(room->id()), nullptr, bob_token);
  EXPECT_EQ(json::parse(seen.body)["webhook"], nullptr);
  const json settings = json::parse(api("GET", "/api/notify/settings", nullptr, bob_token).body);
  EXPECT_EQ(settings["push"], true);
  EXPECT_EQ(settings["email"], false);
  EXPECT_EQ(settings["muted"], json::array());
}

TEST_F(TurnNotificationsTest, WithoutTestingPolicyLoopbackEndpointsAreRefused) {
  TurnNotifications strict(path, notifier, TurnNotificationOptions{});
  const std::string body =
      json{{"endpoint", "http://127.0.0.1:9/push"}, {"keys", {{"p256dh", "x"}, {"auth", "y"}}}}
          .dump();
  EXPECT_EQ(strict.handle_api("POST", "/api/push/subscription", body, "Bearer " + bob_token).status,
            400);
}

// A clock's reminder (server/game_clocks.h) leaves through the same notifier as a turn: "your
// time runs out in Game N" to the player who must act, by push and e-mail per his settings,
// and to the game's webhook. The clock is a fake one: no waiting for a day.
TEST_F(TurnNotificationsTest, AClocksReminderReachesThePlayerByPushMailAndWebhook) {
  struct FakeClock : Clock {
    std::int64_t now_ms() override { return now; }
    std::int64_t now = 1'800'000'000'000;
  } clock;
  GameClocks clocks(*store, clock);
  clocks.set_reminder([this](TurnChange change) { turns->post(std::move(change)); });
  lobby->add_observer(&clocks);
  const std::string alice_browser = subscribe(alice_token);
  const std::string bob_browser = subscribe(bob_token);
  for (const auto& [player, token, address] : {std::tuple{alice, alice_token, "alice@example.org"},
                                               std::tuple{bob, bob_token, "bob@example.org"}}) {
    verified_email(player, address);
    ASSERT_EQ(api("POST", "/api/notify/settings", json{{"email", true}}, token).status, 200);
  }
  // The webhook is set while the game is open: it is told of the start, then of the reminder.
  GameRoom* room = two_player_game([&](GameRoom& open) {
    ASSERT_EQ(
        api("POST", "/api/notify/webhook",
            json{{"game_id", open.id()}, {"url", hook_receiver.url("/chat")}, {"format", "slack"}},
            alice_token)
            .status,
        200);
  });
  clocks.create(*room, clock_options_from_json(json{{"per_move_seconds", 86400}}));
  turns->wait_idle();
  const std::int64_t late = player_of_seat(room, room->record().current_seat);
  const std::string late_name = late == alice.id ? "Alice" : "Bob";
  const std::size_t mails_before = sink.mails().size();

  clock.now += 86400 * 1000 * 3 / 4;  // a quarter of the day left: the reminder is due
  EXPECT_EQ(clocks.due_games(), std::vector<std::int64_t>{room->id()});
  clocks.sweep_game(room->id(), room);
  EXPECT_TRUE(clocks.due_games().empty());
  turns->wait_idle();

  const std::string game = "Game " + std::to_string(room->id());
  const auto got = wait_for_pushes(late == alice.id ? alice_browser : bob_browser, 2);
  const auto reminder = std::find_if(got.begin(), got.end(),
                                     [](const json& m) { return m["kind"] == "time_running_out"; });
  ASSERT_NE(reminder, got.end());
  EXPECT_EQ((*reminder)["title"], "Your time runs out in " + game);
  EXPECT_NE((*reminder)["body"].get<std::string>().find("6 hours left"), std::string::npos);
  // Only the player who must act is reminded.
  for (const json& m : pushes(late == alice.id ? bob_browser : alice_browser)) {
    EXPECT_NE(m["kind"], "time_running_out");
  }

  ASSERT_TRUE(wait_for_mails(mails_before + 1));
  bool mailed = false;
  for (const auto& mail : sink.mails()) {
    mailed |= mail.data.find("Subject: Your time runs out in " + game) != std::string::npos;
  }
  EXPECT_TRUE(mailed);
  // The start and the reminder: the notifier runs deliveries side by side, in any order.
  ASSERT_TRUE(hook_receiver.wait_for(2, 20s));
  bool hooked = false;
  for (const auto& r : hook_receiver.requests()) {
    hooked |= json::parse(r.body)["text"].get<std::string>().find(
                  late_name + "'s time runs out in " + game) != std::string::npos;
  }
  EXPECT_TRUE(hooked);
  lobby.reset();  // before `clocks`, which it tells of changes
}

// A subscription a browser would make, with real keys, at `endpoint`.
json browser_subscription(const std::string& endpoint) {
  const notify::EcKey browser = notify::EcKey::generate();
  return json{{"endpoint", endpoint},
              {"keys",
               {{"p256dh", notify::base64url_encode(browser.public_point())},
                {"auth", notify::base64url_encode(notify::random_bytes(16))}}}};
}

// Issue 19: one player with ten push subscriptions to dead endpoints, playing fast against his
// own second account, filled the notifier's shared queue: other players' pushes, a webhook's
// game_started and account mails were dropped. With the budgets per player and per channel
// (and the account mails' reserve), everything of everybody else arrives, counted at the local
// push service, the SMTP sink and the webhook receiver, while his deliveries still hang.
// The notifier has smaller budgets than the server's defaults so that a few turns suffice.
TEST_F(TurnNotificationsTest, OnePlayersDeadEndpointsAndFastPlayDropNothingOfAnybodyElse) {
  notify::NotifierOptions small;
  small.queue_capacity = 100;
  small.max_in_flight = 16;
  small.max_pending_per_owner = 20;
  small.max_in_flight_per_owner = 4;
  small.shutdown_grace = 0ms;
  notify::Notifier busy(small);
  turns = std::make_unique<TurnNotifications>(path, busy, options_like_setup());
  AccountOptions account_options;
  account_options.public_url = "https://viktory.example.org";
  account_options.send_mail = account_mailer(busy, options_like_setup().smtp);
  Accounts accounts(path, account_options);

  // Mallory and his second account: ten subscriptions each, every one to a hung endpoint.
  const std::string mallory_token = new_token();
  const std::string mallory2_token = new_token();
  const PlayerRecord mallory = store->create_player("Mallory", token_hash(mallory_token), 1);
  const PlayerRecord mallory2 = store->create_player("Mallory2", token_hash(mallory2_token), 1);
  std::vector<std::unique_ptr<Blackhole>> dead;
  for (const std::string& token : {mallory_token, mallory2_token}) {
    for (int i = 0; i < 10; ++i) {
      dead.push_back(std::make_unique<Blackhole>());
      ASSERT_EQ(api("POST", "/api/push/subscription",
                    browser_subscription(dead.back()->url("/push/" + std::to_string(i))), token)
                    .status,
                200);
    }
  }
  // He plays fast: twenty changes of whose turn it is, each a push to ten dead endpoints.
  GameRoom* his = game_of(mallory, mallory2);
  for (int i = 0; i < 10; ++i) {
    play_until_decider(his, mallory2.id);
    play_until_decider(his, mallory.id);
  }
  turns->wait_idle();
  const notify::NotifierStats attacked = busy.stats();
  ASSERT_GT(attacked[notify::Channel::push].dropped_owner_budget, 0) << "no attack happened";
  ASSERT_GT(attacked.in_flight, 0);

  // The honest game: Bob's browser at the local push service, Alice's webhook to the chat.
  const std::string bob_browser = subscribe(bob_token);
  std::size_t expected = 0;  // the pushes Bob must get: "has started", and each turn of his
  seen_turn_change = [&](const TurnChange& change) {
    if (change.kind == TurnChange::Kind::started ||
        (change.kind == TurnChange::Kind::turn && change.decider_player == bob.id)) {
      ++expected;
    }
  };
  GameRoom* room = two_player_game([&](GameRoom& open) {
    ASSERT_EQ(
        api("POST", "/api/notify/webhook",
            json{{"game_id", open.id()}, {"url", hook_receiver.url("/chat")}, {"format", "slack"}},
            alice_token)
            .status,
        200);
  });
  for (int i = 0; i < 3; ++i) {
    if (player_of_seat(room, room->record().current_seat) == bob.id) {
      play_until_decider(room, alice.id);
    }
    play_until_decider(room, bob.id);
    turns->wait_idle();
  }
  seen_turn_change = nullptr;
  // Two new players confirm their addresses meanwhile.
  for (const char* name : {"Carol", "Dave"}) {
    const std::string token = new_token();
    store->create_player(name, token_hash(token), 1);
    const ApiResponse r = accounts.handle_api(
        "POST", "/api/account/email", json{{"address", std::string(name) + "@example.org"}}.dump(),
        "Bearer " + token, "192.0.2.1");
    ASSERT_EQ(r.status, 200) << r.body;
    ASSERT_EQ(json::parse(r.body)["sent"], true);
  }

  // "has started" and each of his turns, delivered by the push service.
  ASSERT_GE(expected, 4u);
  const std::vector<json> got = wait_for_pushes(bob_browser, expected);
  EXPECT_EQ(got.size(), expected);
  ASSERT_TRUE(wait_for_mails(2));
  EXPECT_EQ(sink.mails().size(), 2u);
  ASSERT_TRUE(hook_receiver.wait_for(1, 20s));
  bool started_said = false;
  for (const auto& r : hook_receiver.requests()) {
    started_said |=
        json::parse(r.body)["text"].get<std::string>().find("has started") != std::string::npos;
  }
  EXPECT_TRUE(started_said);
  // Not delayed behind him either: all of it came while his first deliveries still hang.
  const notify::NotifierStats after = busy.stats();
  EXPECT_EQ(after[notify::Channel::push].expired + after[notify::Channel::push].failed, 0);
  EXPECT_GT(after.in_flight, 0);
  EXPECT_EQ(after[notify::Channel::push].dropped_queue_full, 0);
  EXPECT_EQ(after[notify::Channel::email].dropped, 0);
  EXPECT_EQ(after[notify::Channel::webhook].dropped, 0);

  lobby.reset();
  turns.reset();
  busy.shutdown(0ms);
}

// Issue 19 (LOW): a webhook request for a game the player has nothing to do with answered 403
// `not_creator` for an existing (private) game and 404 for a missing one. Now one answer.
TEST_F(TurnNotificationsTest, AWebhookForSomebodyElsesGameGetsTheAnswerOfAMissingGame) {
  const std::string carol_token = new_token();
  store->create_player("Carol", token_hash(carol_token), 1);
  CreateRequest req;
  req.options.players = 2;
  req.is_private = true;
  std::string invite;
  GameRoom* hidden = std::get<GameRoom*>(lobby->create(alice, req, &invite));
  const json hook{{"url", hook_receiver.url("/x")}, {"format", "json"}};
  json existing = hook;
  existing["game_id"] = hidden->id();
  json missing = hook;
  missing["game_id"] = hidden->id() + 100;
  const ApiResponse a = api("POST", "/api/notify/webhook", existing, carol_token);
  const ApiResponse b = api("POST", "/api/notify/webhook", missing, carol_token);
  EXPECT_EQ(a.status, 404);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.body, b.body);
  // The creator still sets it.
  EXPECT_EQ(api("POST", "/api/notify/webhook", existing, alice_token).status, 200);
}

// Issue 19 (LOW): registering an endpoint another player holds moved it to the new player. A
// push endpoint is a capability of one browser: it moves only with that browser's keys (the
// same browser signed in as somebody else), never on the endpoint alone.
TEST_F(TurnNotificationsTest, AnotherPlayersPushEndpointDoesNotMoveWithoutItsKeys) {
  const json bobs = browser_subscription(hook_receiver.url("/push/bobs-browser"));
  ASSERT_EQ(api("POST", "/api/push/subscription", bobs, bob_token).status, 200);
  json stolen = browser_subscription(bobs["endpoint"]);  // the endpoint, other keys
  const ApiResponse refused = api("POST", "/api/push/subscription", stolen, alice_token);
  EXPECT_EQ(refused.status, 409) << refused.body;
  EXPECT_EQ(json::parse(refused.body)["error"]["code"], "endpoint_taken");
  const auto count = [&](const std::string& token) {
    return json::parse(
               api("GET", "/api/notify/settings", nullptr, token).body)["push_subscriptions"]
        .get<int>();
  };
  EXPECT_EQ(count(bob_token), 1);
  EXPECT_EQ(count(alice_token), 0);
  // The same browser (its keys) now signed in as Alice: it moves.
  ASSERT_EQ(api("POST", "/api/push/subscription", bobs, alice_token).status, 200);
  EXPECT_EQ(count(bob_token), 0);
  EXPECT_EQ(count(alice_token), 1);
}

// Issue 19 (LOW): turn notifications compiled their SQL again on every turn. After the first
// turn every statement of the worker is prepared; more turns compile nothing.
TEST_F(TurnNotificationsTest, TurnsReuseTheirPreparedStatements) {
  subscribe(bob_token);
  verified_email(bob, "bob@example.org");
  ASSERT_EQ(api("POST", "/api/notify/settings", json{{"email", true}}, bob_token).status, 200);
  GameRoom* room = two_player_game([&](GameRoom& open) {
    api("POST", "/api/notify/webhook",
        json{{"game_id", open.id()}, {"url", hook_receiver.url("/chat")}, {"format", "json"}},
        alice_token);
  });
  if (player_of_seat(room, room->record().current_seat) == bob.id) {
    play_until_decider(room, alice.id);
  }
  play_until_decider(room, bob.id);
  turns->wait_idle();
  const std::int64_t warm = turns->statements_prepared();
  for (int i = 0; i < 4; ++i) {
    play_until_decider(room, alice.id);
    play_until_decider(room, bob.id);
    turns->wait_idle();
  }
  EXPECT_EQ(turns->statements_prepared(), warm);
}

// The hex labels a viewer was shown in events that name a place (battles, captures), from the
// stored game replayed: what a message to him may name.
std::set<std::string> hexes_shown_to(Store& store, std::int64_t game_id, int viewer) {
  const GameRecord record = *store.game(game_id);
  StoredWalk walk(store, record, 0);
  std::set<std::string> out;
  while (walk.seq() < record.seq) {
    std::vector<Event> events;
    walk.step(&events);
    for (const Event& e : filter_events_for(walk.state(), events, viewer)) {
      if (e.hex >= 0) out.insert(walk.state().board().label(e.hex));
    }
  }
  return out;
}

// Nothing hidden in a message: no terrain word (messages never name terrain; under independent
// exploration a word would tell a hex the recipient has not seen), not the seed, and only hex
// labels the recipient was shown in the game's events.
void expect_nothing_hidden(const std::string& text, const std::set<std::string>& shown,
                           std::uint64_t seed) {
  // English and German terrain words (the catalogs' log.terrain.*).
  for (const char* word : {"Plains", "Grassland", "Forest", "Mountain", "Water", "seed", "Steppe",
                           "Weideland", "Wald", "Gebirge", "Wasser"}) {
    EXPECT_EQ(text.find(word), std::string::npos) << word << " in: " << text;
  }
  EXPECT_EQ(text.find(std::to_string(seed)), std::string::npos) << text;
  // A hex as the English ("at F6") and German ("auf F6") texts name it.
  const std::regex label(R"(\b(?:at|auf) ([A-Z]+[0-9]+)\b)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), label);
       it != std::sregex_iterator(); ++it) {
    EXPECT_TRUE(shown.contains((*it)[1].str())) << (*it)[1].str() << " in: " << text;
  }
}

// Issue 20: turn messages say what the opponents did (battles, Towns and Cities taken,
// eliminations), the deadline in the recipient's time zone, and the link; "you must decide"
// has its own subject. Checked where they arrive: the local push service (decrypted), the SMTP
// sink and the webhook receiver; and that they carry nothing hidden from the recipient, in a
// game under independent exploration.
TEST_F(TurnNotificationsTest, TurnMessagesTellWhatHappenedAndTheDeadlineAndNothingHidden) {
  struct FakeClock : Clock {
    std::int64_t now_ms() override { return now; }
    std::int64_t now = 1'795'750'200'000;
  } clock;
  GameClocks clocks(*store, clock);
  lobby->add_observer(&clocks);
  const std::string bob_browser = subscribe(bob_token);
  verified_email(bob, "bob@example.org");
  ASSERT_EQ(api("POST", "/api/notify/settings",
                json{{"email", true}, {"time_zone", "Asia/Kolkata"}}, bob_token)
                .status,
            200);
  EXPECT_EQ(json::parse(api("GET", "/api/notify/settings", nullptr, bob_token).body)["time_zone"],
            "Asia/Kolkata");
  EXPECT_EQ(
      api("POST", "/api/notify/settings", json{{"time_zone", "Mars/Olympus"}}, bob_token).status,
      400);
  CreateRequest req;
  req.options.players = 2;
  req.options.independent_exploration = true;
  std::string invite;
  GameRoom* room = std::get<GameRoom*>(lobby->create(alice, req, &invite));
  ASSERT_EQ(
      api("POST", "/api/notify/webhook",
          json{{"game_id", room->id()}, {"url", hook_receiver.url("/chat")}, {"format", "slack"}},
          alice_token)
          .status,
      200);
  clocks.create(*room, clock_options_from_json(json{{"per_move_seconds", 86400}}));
  ASSERT_FALSE(room->join(bob, std::nullopt, ""));

  // Twenty rounds of random play (a mail per turn: the gate lets one through per turn).
  for (int i = 0; i < 20 && room->status() == GameStatus::kRunning; ++i) {
    play_until_decider(room, bob.id);
    turns->wait_idle();
    play_until_decider(room, alice.id);
  }
  turns->wait_idle();
  const std::uint64_t seed = store->game(room->id())->seed;
  const std::set<std::string> bobs =
      hexes_shown_to(*store, room->id(), room->seat_of(bob.id).value_or(-1));
  const std::set<std::string> spectators = hexes_shown_to(*store, room->id(), kSpectator);

  // Mail: the subject says which kind; the deadline is the clock's, in Kolkata.
  ASSERT_TRUE(wait_for_mails(2));
  const std::string game = "Game " + std::to_string(room->id());
  int turn_mails = 0;
  for (const auto& mail : sink.mails()) {
    const std::size_t subject = mail.data.find("Subject: ");
    const std::string title =
        mail.data.substr(subject + 9, mail.data.find("\r\n", subject) - subject - 9);
    EXPECT_TRUE(title.rfind("Your turn in " + game, 0) == 0 ||
                title.rfind("You must decide in " + game, 0) == 0 || title == game + " has started")
        << title;
    turn_mails += title.rfind("Your turn in " + game, 0) == 0;
    expect_nothing_hidden(mail.data, bobs, seed);
  }
  EXPECT_GT(turn_mails, 0);

  // Push: the decrypted payloads, the same words.
  const std::vector<json> got = pushes(bob_browser);
  ASSERT_FALSE(got.empty());
  bool deadline_told = false;
  for (const json& m : got) {
    const std::string body = m["body"];
    expect_nothing_hidden(m.dump(), bobs, seed);
    if (m["kind"] == "your_turn" || m["kind"] == "must_decide") {
      deadline_told |= body.find("(Asia/Kolkata).") != std::string::npos;
      EXPECT_EQ(m["url"], "https://viktory.example.org/#/game/" + std::to_string(room->id()));
    }
    if (m["kind"] == "must_decide") {
      EXPECT_EQ(m["title"].get<std::string>().rfind("You must decide in " + game, 0), 0u);
      EXPECT_NE(body.find("Alice's turn waits for your decision."), std::string::npos) << body;
    }
  }
  EXPECT_TRUE(deadline_told);
  // The clock's deadline for Bob's seat, as a Kolkata wall clock shows it.
  const std::int64_t deadline = clock.now + 86400 * 1000;
  const std::string local =
      notify::deadline_text(notify::TimeZone::load("Asia/Kolkata")->local(deadline));
  bool exact = false;
  for (const json& m : got) exact |= m["body"].get<std::string>().find(local) != std::string::npos;
  EXPECT_TRUE(exact) << local;

  // The chat: what a spectator saw, the deadline in UTC, never "you".
  ASSERT_TRUE(hook_receiver.wait_for(2, 20s));
  bool utc_told = false;
  for (const auto& r : hook_receiver.requests()) {
    const std::string text = json::parse(r.body)["text"];
    expect_nothing_hidden(text, spectators, seed);
    EXPECT_EQ(text.find(" you"), std::string::npos) << text;
    EXPECT_EQ(text.find("You "), std::string::npos) << text;
    utc_told |= text.find(" UTC.") != std::string::npos;
  }
  EXPECT_TRUE(utc_told);
  lobby.reset();  // before `clocks`, which it tells of changes
}

// Issue 20: what happened since the recipient last acted, exactly from the events he was shown.
// A game straight in the store, played by a fixed sequence of random legal actions (fixed seed,
// fixed generator) until a battle or a capture happened after Bob's last action and Bob must
// act; then the turn change is handed over as a room would. Bob's push (decrypted by the local
// push service), his mail and the chat's webhook name every such battle and capture, at its
// hex, and no other hex; the chat by names only.
// Issue 21: the same in German, for players whose browser said so: every battle and capture at
// "auf <hex>", nothing hidden, and the chat never says "du".
void TurnNotificationsTest::battles_and_captures_told(const std::string& language) {
  const bool german = language == "de";
  for (const PlayerRecord& p : {alice, bob}) {
    store->db()
        .prepare("UPDATE players SET language = ? WHERE id = ?")
        .bind(1, language)
        .bind(2, p.id)
        .run();
  }
  const std::string at = german ? " auf " : " at ";
  const std::string bob_browser = subscribe(bob_token);
  verified_email(bob, "bob@example.org");
  ASSERT_EQ(api("POST", "/api/notify/settings", json{{"email", true}}, bob_token).status, 200);
  GameRecord g;
  g.options.players = 2;
  g.options.independent_exploration = true;
  g.options = normalized(g.options);
  g.created = 1;
  g.creator = alice;
  g.seats = {SeatRecord{0, alice.id, "Alice", ""}, SeatRecord{1, bob.id, "Bob", ""}};
  store->create_game(g);
  ASSERT_EQ(api("POST", "/api/notify/webhook",
                json{{"game_id", g.id}, {"url", hook_receiver.url("/chat")}, {"format", "json"}},
                alice_token)
                .status,
            200);
  g.seed = 20261126;
  g.status = GameStatus::kRunning;
  GameState state = new_game(g.options, g.seed);
  g.current_seat = decider(state);
  store->start_game(g);
  constexpr int kBob = 1;
  std::mt19937 rng(5);
  std::vector<Event> since_bob;  // every event after Bob's last action, unfiltered
  int seq = 0;
  const auto told = [&] {
    return std::any_of(since_bob.begin(), since_bob.end(), [](const Event& e) {
      return e.kind == EventKind::kBattleEnded || e.kind == EventKind::kTownCaptured;
    });
  };
  while (!(decider(state) == kBob && told())) {
    ASSERT_LT(seq, 20000) << "no battle in the fixed game";
    const int seat = decider(state);
    ASSERT_NE(seat, kNoPlayer) << "the fixed game ended first";
    std::vector<Action> moves;
    for (const Action& a : legal_actions(state, seat)) {
      if (a.kind != ActionKind::kConcede) moves.push_back(a);
    }
    const Action a = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)];
    std::vector<Event> events;
    ASSERT_FALSE(apply_in_place(state, a, &events));
    ++seq;
    ActionCommit commit;
    commit.game_id = g.id;
    commit.record = ActionRecord{seq, a, false, state.turn, 1000 + seq};
    commit.current_seat = decider(state);
    store->commit_action(commit);
    if (seat == kBob) since_bob.clear();
    since_bob.insert(since_bob.end(), events.begin(), events.end());
  }
  TurnChange change;
  change.kind = TurnChange::Kind::turn;
  change.game_id = g.id;
  change.seq = seq;
  change.turn = state.turn;
  change.round = state.turn <= 0 ? 0 : (state.turn - 1) / 2 + 1;
  change.decider_seat = kBob;
  change.decider_player = bob.id;
  change.turn_seat = state.current;
  change.seats = {{0, alice.id, "Alice"}, {1, bob.id, "Bob"}};
  turns->post(change);
  turns->wait_idle();

  // The hexes of the battles and captures since Bob's last action: each must be told.
  std::set<std::string> places;
  for (const Event& e : since_bob) {
    if (e.kind == EventKind::kBattleEnded || e.kind == EventKind::kTownCaptured) {
      places.insert(state.board().label(e.hex));
    }
  }
  ASSERT_FALSE(places.empty());
  const std::vector<json> got = wait_for_pushes(bob_browser, 1);
  ASSERT_EQ(got.size(), 1u);
  const std::string body = got[0]["body"];
  const std::string title = got[0]["title"];
  const std::string expected_title =
      german ? (state.current == kBob ? "Du bist am Zug in Partie " : "Du musst in Partie ")
             : (state.current == kBob ? "Your turn in Game " : "You must decide in Game ");
  EXPECT_EQ(title.rfind(expected_title, 0), 0u) << title;
  for (const std::string& hex : places) {
    EXPECT_NE(body.find(at + hex), std::string::npos) << hex << " not in: " << body;
  }
  const std::set<std::string> shown = hexes_shown_to(*store, g.id, kBob);
  expect_nothing_hidden(body, shown, g.seed);
  if (german) {
    EXPECT_TRUE(body.find("Schlacht") != std::string::npos ||
                body.find(" erobert.") != std::string::npos)
        << body;
  } else {
    EXPECT_TRUE(body.find("won a battle") != std::string::npos ||
                body.find(" took ") != std::string::npos)
        << body;
  }

  ASSERT_TRUE(wait_for_mails(1));
  const std::string mail = sink.mails().back().data;
  for (const std::string& hex : places) {
    EXPECT_NE(mail.find(at + hex), std::string::npos) << hex << " not in: " << mail;
  }
  ASSERT_TRUE(hook_receiver.wait_for(1, 20s));
  const json hook = json::parse(hook_receiver.requests().back().body);
  for (const std::string& hex : places) {
    bool named = false;
    for (const json& line : hook["happened"]) {
      named |= line.get<std::string>().find(at + hex) != std::string::npos;
    }
    EXPECT_TRUE(named) << hex << " not in: " << hook.dump();
  }
  expect_nothing_hidden(hook.dump(), hexes_shown_to(*store, g.id, kSpectator), g.seed);
  const std::string chat = hook["text"];
  const std::vector<std::string> yous =
      german ? std::vector<std::string>{"Du ", " du", " dich", " dein"}
             : std::vector<std::string>{"you"};
  for (const std::string& you : yous) {
    EXPECT_EQ(chat.find(you), std::string::npos) << hook.dump();
  }

  EXPECT_EQ(hook["language"], language);
}

TEST_F(TurnNotificationsTest, AMessageListsTheBattlesAndCapturesSinceTheRecipientLastActed) {
  battles_and_captures_told("en");
}

TEST_F(TurnNotificationsTest, AGermanMessageListsTheBattlesAndCapturesAndNothingHidden) {
  battles_and_captures_told("de");
}

// Issue 21: each player in his own language, told by his browser (POST /api/account/language):
// Alice reads German, Bob English. The start of the game goes to both, each in his language;
// a turn's push and mail to the decider in his; the group's webhook in the language of Alice,
// who set it up. Checked where they arrive (the decrypted pushes, the SMTP sink's mails, the
// webhook receiver), with no piece of the other language's catalog texts left.
TEST_F(TurnNotificationsTest, EachPlayerIsToldInHisLanguageAndTheWebhookInItsSetters) {
  Accounts accounts(path, AccountOptions{});
  ASSERT_EQ(accounts
                .handle_api("POST", "/api/account/language", R"({"language":"de"})",
                            "Bearer " + alice_token, "192.0.2.1")
                .status,
            200);
  const std::string alice_browser = subscribe(alice_token);
  const std::string bob_browser = subscribe(bob_token);
  verified_email(alice, "alice@example.org");
  verified_email(bob, "bob@example.org");
  for (const std::string& token : {alice_token, bob_token}) {
    ASSERT_EQ(api("POST", "/api/notify/settings", json{{"email", true}}, token).status, 200);
  }
  GameRoom* room = two_player_game([&](GameRoom& r) {
    ASSERT_EQ(
        api("POST", "/api/notify/webhook",
            json{{"game_id", r.id()}, {"url", hook_receiver.url("/chat")}, {"format", "json"}},
            alice_token)
            .status,
        200);
  });
  play_until_decider(room, bob.id);
  turns->wait_idle();
  play_until_decider(room, alice.id);
  turns->wait_idle();
  const std::string id = std::to_string(room->id());
  const auto english = notify::testing::telltales("en", "de", {"push.", "mail.", "webhook."});
  const auto german = notify::testing::telltales("de", "en", {"push.", "mail.", "webhook."});

  // Pushes: Alice's German (the start and her turn), Bob's English.
  const std::vector<json> alices = wait_for_pushes(alice_browser, 2);
  const std::vector<json> bobs = wait_for_pushes(bob_browser, 2);
  ASSERT_GE(alices.size(), 2u);
  ASSERT_GE(bobs.size(), 2u);
  bool alice_turn = false;
  for (const json& m : alices) {
    const std::string title = m["title"];
    EXPECT_TRUE(title == "Partie " + id + " hat begonnen" ||
                title.rfind("Du bist am Zug in Partie " + id, 0) == 0 ||
                title.rfind("Du musst in Partie " + id, 0) == 0)
        << title;
    alice_turn |= m["kind"] == "your_turn";
    EXPECT_EQ(notify::testing::telltales_in(m.dump(), english), std::vector<std::string>{})
        << m.dump();
  }
  EXPECT_TRUE(alice_turn);
  for (const json& m : bobs) {
    const std::string title = m["title"];
    EXPECT_TRUE(title == "Game " + id + " has started" ||
                title.rfind("Your turn in Game " + id, 0) == 0 ||
                title.rfind("You must decide in Game " + id, 0) == 0)
        << title;
    EXPECT_EQ(notify::testing::telltales_in(m.dump(), german), std::vector<std::string>{})
        << m.dump();
  }

  // Mails: to each address in its player's language (the body decoded from quoted-printable).
  ASSERT_TRUE(wait_for_mails(2));
  const auto decoded = [](const std::string& data) {
    std::string out;
    for (std::size_t i = 0; i < data.size(); ++i) {
      if (data.compare(i, 3, "=\r\n") == 0) {
        i += 2;
      } else if (data[i] == '=' && i + 2 < data.size() && std::isxdigit(data[i + 1]) &&
                 std::isxdigit(data[i + 2])) {
        out += static_cast<char>(std::stoi(data.substr(i + 1, 2), nullptr, 16));
        i += 2;
      } else {
        out += data[i];
      }
    }
    return out;
  };
  int to_alice = 0, to_bob = 0;
  for (const auto& mail : sink.mails()) {
    const std::string text = decoded(mail.data);
    if (mail.recipients.at(0).find("alice@") != std::string::npos) {
      ++to_alice;
      EXPECT_NE(text.find("Subject: Du bist am Zug in Partie " + id), std::string::npos) << text;
      EXPECT_NE(text.find("Zur Partie: https://viktory.example.org/#/game/" + id),
                std::string::npos)
          << text;
      EXPECT_NE(text.find("Zug-Benachrichtigungen eingeschaltet"), std::string::npos) << text;
      EXPECT_EQ(notify::testing::telltales_in(text, english), std::vector<std::string>{}) << text;
    } else {
      ++to_bob;
      EXPECT_NE(text.find("Subject: Your turn in Game " + id), std::string::npos) << text;
      EXPECT_NE(text.find("Open the game: https://viktory.example.org/#/game/" + id),
                std::string::npos);
      EXPECT_EQ(notify::testing::telltales_in(text, german), std::vector<std::string>{}) << text;
    }
  }
  EXPECT_GT(to_alice, 0);
  EXPECT_GT(to_bob, 0);

  // The chat: in Alice's German, Bob's turn too.
  ASSERT_TRUE(hook_receiver.wait_for(3, 20s));
  bool bobs_turn = false;
  for (const auto& r : hook_receiver.requests()) {
    const json hook = json::parse(r.body);
    EXPECT_EQ(hook["language"], "de");
    const std::string text = hook["text"];
    bobs_turn |= text.rfind("Bob ist am Zug in Partie " + id, 0) == 0;
    EXPECT_EQ(notify::testing::telltales_in(text, english), std::vector<std::string>{}) << text;
  }
  EXPECT_TRUE(bobs_turn);
}

// Issue 20: a daily digest instead of one mail per turn: once a day from 08:00 in the player's
// time zone, listing his games where he must act.
TEST_F(TurnNotificationsTest, TheDailyDigestComesOnceInHisMorningInsteadOfOneMailPerTurn) {
  std::atomic<std::int64_t> now{1'795'746'540'000};  // 2026-11-27 07:59 in Kolkata
  TurnNotificationOptions options = options_like_setup();
  options.now = [&now] { return now.load(); };
  turns = std::make_unique<TurnNotifications>(path, notifier, options);
  verified_email(bob, "bob@example.org");
  ASSERT_EQ(api("POST", "/api/notify/settings",
                json{{"email", true}, {"digest", true}, {"time_zone", "Asia/Kolkata"}}, bob_token)
                .status,
            200);
  GameRoom* room = two_player_game();
  if (player_of_seat(room, room->record().current_seat) == bob.id) {
    play_until_decider(room, alice.id);
  }
  play_until_decider(room, bob.id);
  turns->wait_idle();
  const auto digests = [&] {
    std::size_t n = 0;
    for (const auto& mail : sink.mails())
      n += mail.data.find("games wait for you") != std::string::npos ||
           mail.data.find("game waits for you") != std::string::npos;
    return n;
  };
  const auto turn_mails = [&] {
    std::size_t n = 0;
    for (const auto& mail : sink.mails())
      n += mail.data.find("Subject: Your turn") != std::string::npos;
    return n;
  };
  turns->send_digests();   // 07:59: not yet
  notifier.shutdown(10s);  // everything queued so far has been tried
  EXPECT_EQ(digests(), 0u);
  EXPECT_EQ(turn_mails(), 0u) << "the digest replaces the mails of each turn";

  notify::Notifier second;  // the first one is shut down
  turns = std::make_unique<TurnNotifications>(path, second, options);
  now = 1'795'746'600'000;  // 08:00 in Kolkata
  turns->send_digests();
  turns->send_digests();  // the same day: no second one
  second.shutdown(10s);
  ASSERT_EQ(digests(), 1u);
  for (const auto& mail : sink.mails()) {
    if (mail.data.find("waits for you") == std::string::npos) continue;
    EXPECT_NE(mail.data.find("Subject: VIKTORY II: 1 game waits for you"), std::string::npos);
    EXPECT_NE(mail.data.find("Your turn in Game " + std::to_string(room->id())), std::string::npos)
        << mail.data;
    EXPECT_NE(mail.data.find("#/game/" + std::to_string(room->id())), std::string::npos);
  }
  lobby.reset();
  turns.reset();
}

}  // namespace
}  // namespace viktory::server

namespace viktory::server {
namespace {

// Issue 22: a friend's invitation into an open game (game.invite_friend, server/friends.h) goes
// to the invited player alone, through his own settings (his browser, his mail), in his
// language, with the link that lets him join (a private game's with its code); never to the
// game's webhook, which is its players' group.
TEST_F(TurnNotificationsTest, AFriendsInvitationReachesHisBrowserAndMailboxInHisLanguage) {
  Accounts accounts(path, AccountOptions{});
  ASSERT_EQ(accounts
                .handle_api("POST", "/api/account/language", R"({"language":"de"})",
                            "Bearer " + alice_token, "192.0.2.1")
                .status,
            200);
  const std::string alice_browser = subscribe(alice_token);
  verified_email(alice, "alice@example.org");
  ASSERT_EQ(api("POST", "/api/notify/settings", json{{"email", true}}, alice_token).status, 200);
  CreateRequest req;
  req.options.players = 3;
  req.is_private = true;
  std::string code;
  GameRoom* room = std::get<GameRoom*>(lobby->create(bob, req, &code));
  ASSERT_EQ(api("POST", "/api/notify/webhook",
                json{{"game_id", room->id()}, {"url", hook_receiver.url("/chat")}}, bob_token)
                .status,
            200);
  TurnChange invited;
  invited.kind = TurnChange::Kind::invited;
  invited.game_id = room->id();
  invited.decider_player = alice.id;
  invited.inviter = "Bob";
  invited.invite = code;
  turns->post(invited);
  turns->wait_idle();

  const std::string link =
      "https://viktory.example.org/#/game/" + std::to_string(room->id()) + "?invite=" + code;
  const auto got = wait_for_pushes(alice_browser, 1);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0]["kind"], "friend_invite");
  EXPECT_EQ(got[0]["title"], "Bob lädt dich zu Partie " + std::to_string(room->id()) + " ein");
  EXPECT_EQ(got[0]["url"], link);
  ASSERT_TRUE(wait_for_mails(1));
  const auto mail = sink.mails().front();
  EXPECT_EQ(mail.recipients.front(), "TO:<alice@example.org>");
  // Quoted-printable: "=" is "=3D", long lines are broken; the code's start is on the link.
  EXPECT_NE(mail.data.find("?invite=3D" + code.substr(0, 10)), std::string::npos) << mail.data;
  EXPECT_NE(mail.data.find("Zur Partie"), std::string::npos) << mail.data;
  EXPECT_TRUE(hook_receiver.requests().empty());
}

}  // namespace
}  // namespace viktory::server
