// Turn notifications against a failing disk and against other connections' commits (issue 19),
// through the failing VFS of tests/server: every SQLite file of these tests goes through it.
//
// - The worker thread survives a storage error in every part of its loop (the idle round that
//   deletes gone subscriptions used to let DbError("disk I/O error") leave the thread:
//   std::terminate, the whole server gone).
// - Every request that reads and then writes does it in one transaction: a SELECT left open
//   before the write failed with SQLITE_BUSY_SNAPSHOT as soon as another connection (the
//   group-commit writer) had committed since the read began, and no busy timeout helps.
#include <gtest/gtest.h>

#include "base64url.h"
#include "ec_key.h"
#include "failing_vfs.h"
#include "store.h"
#include "support/loopback_server.h"
#include "test_support.h"
#include "token.h"
#include "turn_notifications.h"

namespace viktory::server {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using notify::testing::HttpReceiver;
using notify::testing::ReceivedRequest;
using notify::testing::Reply;
using testing::FailingVfs;
using testing::TempDir;

// A browser's subscription whose endpoint is `url`: real P-256 keys, so the request is built.
json subscription_at(const std::string& url) {
  const notify::EcKey browser = notify::EcKey::generate();
  return json{{"endpoint", url},
              {"keys",
               {{"p256dh", notify::base64url_encode(browser.public_point())},
                {"auth", notify::base64url_encode(notify::random_bytes(16))}}}};
}

template <typename Predicate>
bool eventually(Predicate done) {
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(10ms);
  }
  return true;
}

class NotifyStorage : public ::testing::Test {
 protected:
  void SetUp() override {
    store = std::make_unique<Store>(path);
    TurnNotificationOptions options;
    options.public_url = "https://viktory.example.org";
    options.endpoints = notify::EndpointPolicy::local_testing();
    turns = std::make_unique<TurnNotifications>(path, notifier, options);
    alice = store->create_player("Alice", token_hash(alice_token), 1);
    bob = store->create_player("Bob", token_hash(bob_token), 1);
  }
  void TearDown() override {
    vfs.fail_writes(false);
    turns.reset();
    notifier.shutdown(0ms);
  }

  ApiResponse api(std::string_view method, std::string_view target, const json& body,
                  const std::string& token) {
    return turns->handle_api(method, target, body.is_null() ? "" : body.dump(), "Bearer " + token);
  }
  std::int64_t subscriptions(const std::string& token) {
    return json::parse(api("GET", "/api/notify/settings", nullptr, token).body)
        .value("push_subscriptions", -1);
  }
  // A running two-player game of Alice (its creator) and Bob, straight into the tables.
  std::int64_t game_of_alice_and_bob() {
    GameRecord game;
    game.options.players = 2;
    game.status = GameStatus::kRunning;
    game.created = 1;
    game.creator = alice;
    game.seats = {SeatRecord{0, alice.id, "Alice", ""}, SeatRecord{1, bob.id, "Bob", ""}};
    return store->create_game(game);
  }
  static TurnChange turn_of(std::int64_t game, const PlayerRecord& player, int turn) {
    TurnChange change;
    change.kind = TurnChange::Kind::turn;
    change.game_id = game;
    change.turn = turn;
    change.round = 1;
    change.decider_seat = 0;
    change.decider_player = player.id;
    change.seats = {{0, player.id, player.name}};
    return change;
  }
  // Another connection commits a write: what the group-commit writer does all the time.
  void commit_elsewhere() {
    Database other(path);
    other.exec("INSERT INTO server_keys(name, value, created) VALUES('other-" +
               std::to_string(++other_commits) + "', 'x', 1)");
  }

  FailingVfs vfs;  // registered before any database is opened
  TempDir dir;
  std::string path = dir.file("notify.db");
  notify::Notifier notifier{notify::NotifierOptions{}};
  std::unique_ptr<Store> store;
  std::unique_ptr<TurnNotifications> turns;
  std::string alice_token = new_token();
  std::string bob_token = new_token();
  PlayerRecord alice;
  PlayerRecord bob;
  int other_commits = 0;
};

// Issue 19: with the disk failing, the idle round's DELETE of a gone subscription threw out of
// TurnNotifications::run (SIGABRT). Now it is logged, kept for the next round, done once the
// disk works again, and the thread goes on telling players whose turn it is.
TEST_F(NotifyStorage, TheWorkerSurvivesAFailingDiskWhenItDropsGoneSubscriptions) {
  HttpReceiver expired([](const ReceivedRequest&) { return Reply{410, {}, ""}; });
  HttpReceiver live;
  ASSERT_EQ(
      api("POST", "/api/push/subscription", subscription_at(expired.url("/push/bob")), bob_token)
          .status,
      200);
  ASSERT_EQ(
      api("POST", "/api/push/subscription", subscription_at(live.url("/push/alice")), alice_token)
          .status,
      200);
  const std::int64_t game = game_of_alice_and_bob();

  vfs.fail_writes(true);
  turns->post(turn_of(game, bob, 1));  // Bob's push service answers 410: gone
  ASSERT_TRUE(eventually([&] { return notifier.stats()[notify::Channel::push].gone == 1; }));
  // The worker's next idle round tries to delete the subscription and fails.
  ASSERT_TRUE(eventually([&] { return vfs.failures() > 0; }));
  vfs.fail_writes(false);

  // Still alive: the delete is done on a later round, and the next turn is told.
  ASSERT_TRUE(eventually([&] { return subscriptions(bob_token) == 0; }));
  turns->post(turn_of(game, alice, 2));
  turns->wait_idle();
  EXPECT_TRUE(live.wait_for(1, 20s));
}

// Every part of the loop: a turn change whose handling fails (the database refuses to be read)
// costs that change's notifications, and the thread handles the next one.
TEST_F(NotifyStorage, TheWorkerSurvivesAStorageErrorWhileHandlingATurn) {
  HttpReceiver live;
  ASSERT_EQ(
      api("POST", "/api/push/subscription", subscription_at(live.url("/push/alice")), alice_token)
          .status,
      200);
  const std::int64_t game = game_of_alice_and_bob();
  // A database that cannot be read: the connection's file replaced by garbage would do; here
  // the table the worker reads first is gone.
  Database(path).exec("ALTER TABLE notify_settings RENAME TO notify_settings_away");
  turns->post(turn_of(game, alice, 1));
  turns->wait_idle();
  EXPECT_EQ(notifier.stats()[notify::Channel::push].accepted, 0);
  Database(path).exec("ALTER TABLE notify_settings_away RENAME TO notify_settings");
  turns->post(turn_of(game, alice, 2));
  turns->wait_idle();
  EXPECT_TRUE(live.wait_for(1, 20s));
}

// Issue 19: "database is locked" under load. The mute handler stepped its SELECT of the seat,
// kept it open and wrote on the same connection; another connection's commit in between made
// the write fail at once with SQLITE_BUSY_SNAPSHOT (HTTP 500). The failing VFS runs that
// commit exactly between this connection's read and its write.
TEST_F(NotifyStorage, AMuteWithACommitOfAnotherConnectionBetweenItsReadAndWriteSucceeds) {
  const std::int64_t game = game_of_alice_and_bob();
  for (const bool muted : {true, false}) {
    vfs.before_next_write_lock([&] { commit_elsewhere(); });
    const ApiResponse r =
        api("POST", "/api/notify/mute", json{{"game_id", game}, {"muted", muted}}, bob_token);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body)["muted"].size(), muted ? 1u : 0u);
  }
  EXPECT_EQ(other_commits, 2);  // the other connection did commit in between, twice
}

TEST_F(NotifyStorage, AWebhookWithACommitOfAnotherConnectionBetweenItsReadAndWriteSucceeds) {
  const std::int64_t game = game_of_alice_and_bob();
  HttpReceiver chat;
  for (const json& url : {json(chat.url("/chat")), json(nullptr)}) {
    vfs.before_next_write_lock([&] { commit_elsewhere(); });
    const ApiResponse r =
        api("POST", "/api/notify/webhook",
            json{{"game_id", game}, {"url", url}, {"format", "slack"}}, alice_token);
    ASSERT_EQ(r.status, 200) << r.body;
  }
  EXPECT_EQ(other_commits, 2);
}

TEST_F(NotifyStorage, SettingsAndSubscriptionsWithACommitOfAnotherConnectionInBetweenSucceed) {
  HttpReceiver service;
  vfs.before_next_write_lock([&] { commit_elsewhere(); });
  const ApiResponse settings =
      api("POST", "/api/notify/settings", json{{"push", false}}, bob_token);
  ASSERT_EQ(settings.status, 200) << settings.body;
  EXPECT_EQ(json::parse(settings.body)["push"], false);
  vfs.before_next_write_lock([&] { commit_elsewhere(); });
  const ApiResponse subscribed =
      api("POST", "/api/push/subscription", subscription_at(service.url("/push/bob")), bob_token);
  ASSERT_EQ(subscribed.status, 200) << subscribed.body;
  EXPECT_EQ(other_commits, 2);
}

}  // namespace
}  // namespace viktory::server
