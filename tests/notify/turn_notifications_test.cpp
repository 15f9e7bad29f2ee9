// Turn notifications wired into games (server/seats/turn_notifications.h), end to end on loopback:
// real game rooms over a real SQLite file hand their turn changes to TurnNotifications, which
// delivers through the notifier to the local Web Push service (web-push-testing decrypts the
// message), an SMTP sink and an HTTP webhook receiver.
#include "turn_notifications_fixture.h"

namespace viktory::server {
namespace {

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

// A clock's reminder (server/seats/game_clocks.h) leaves through the same notifier as a turn: "your
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

}  // namespace
}  // namespace viktory::server
