// What turn messages say (server/seats/turn_notifications.h), end to end on loopback with the
// fixture of turn_notifications_fixture.h: what happened since the recipient last acted, in his
// language, nothing hidden; the daily digest; a friend's invitation.
#include "turn_notifications_fixture.h"

namespace viktory::server {
namespace {

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

}  // namespace

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
  viktory::server::testing::complete_reveal_round(*room);  // fair play: both reveal, it starts

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
  // A second server on the same database (several servers, docs/postgresql.md) finds the
  // same digest due while this one is about to send it: one of them sends it.
  TurnNotifications other_server(path, second, options);  // the same clock
  bool raced = false;
  options.digests_listed_for_tests = [&] {
    if (raced) return;
    raced = true;
    other_server.send_digests();
  };
  turns = std::make_unique<TurnNotifications>(path, second, options);
  now = 1'795'746'600'000;  // 08:00 in Kolkata
  turns->send_digests();
  EXPECT_TRUE(raced);
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

// Issue 22: a friend's invitation into an open game (game.invite_friend, server/players/friends.h)
// goes to the invited player alone, through his own settings (his browser, his mail), in his
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

}  // namespace viktory::server
