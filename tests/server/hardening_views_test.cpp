// Hardening of what watchers get, without sockets: the per-viewer message cache and the cost
// of expensive requests, spectators (their chat, none allowed, delayed), and replays built
// outside the Hub's lock, compact, paged and limited.
#include "hardening_support.h"

namespace viktory::server {
namespace {

using namespace hardening;  // NOLINT: the shared fixtures

// ------------------------------------------------------------------ amplification [item 3]

TEST(Amplification, OneFullStatePerViewerAndSeqIsSharedByEveryWatcher) {
  TempDir dir;
  HubOptions options;
  options.messages_per_second = 1000;
  options.message_burst = 1000;
  HubFixture f(dir.file("cache.db"), options);
  FakeClient a, b;
  f.connect(a, "Alice");
  f.connect(b, "Bob");
  const std::int64_t id = f.start_game(a, b);
  f.act(a, b, id);
  std::vector<std::unique_ptr<FakeClient>> spectators;
  for (int i = 0; i < 5; ++i) {
    spectators.push_back(std::make_unique<FakeClient>());
    f.connect(*spectators.back(), "Watcher" + std::to_string(i));
    for (int k = 0; k < 3; ++k)
      f.send(*spectators.back(), {{"type", "game.watch"}, {"game_id", id}});
  }
  std::set<const std::string*> distinct;
  for (auto& s : spectators) {
    for (const Message& m : s->of_type("game.state")) distinct.insert(m.get());
  }
  EXPECT_EQ(distinct.size(), 1u) << "every spectator's full state at one seq is one message";
  // A stale action gets the cached state too, the same message as a watch at that seq.
  const json now = HubFixture::latest(a);
  f.send(
      a,
      {{"type", "game.action"}, {"game_id", id}, {"seq", 0}, {"action", {{"kind", "end_phase"}}}});
  f.send(a, {{"type", "game.watch"}, {"game_id", id}});
  const auto states = a.of_type("game.state");
  ASSERT_GE(states.size(), 2u);
  EXPECT_EQ(states[states.size() - 1].get(), states[states.size() - 2].get());
  EXPECT_EQ(a.last("error")["code"], "stale");
}

TEST(Amplification, ExpensiveRequestsCostMoreAndAnAddressSharesTheirBudget) {
  TempDir dir;
  // The default burst (40 per connection, twice that per address) with a refill slow enough that
  // a slow run (ThreadSanitizer, a loaded machine) does not earn the test extra watches: at the
  // default 20/s the address refills 8 watches a second, and a run under TSan took 0.6 s.
  HubOptions options;
  options.messages_per_second = 0.5;
  HubFixture f(dir.file("cost.db"), options);
  FakeClient a, b;
  f.connect(a, "Alice", "10.0.0.1");
  f.connect(b, "Bob", "10.0.0.2");
  const std::int64_t id = f.start_game(a, b);
  auto watches_until_limited = [&](FakeClient& c) {
    int accepted = 0;
    for (int i = 0; i < 60; ++i) {
      f.send(c, {{"type", "game.watch"}, {"game_id", id}, {"req", i}});
      if (c.messages.back().value("code", "") == "rate_limited") return accepted;
      ++accepted;
    }
    return accepted;
  };
  FakeClient one;
  f.connect(one, "Spectator", "10.0.0.9");
  const int alone = watches_until_limited(one);
  EXPECT_GE(alone, 6);
  EXPECT_LE(alone, 10);  // a watch costs 5 of the burst of 40, not 1
  // Many connections from one address share one budget for expensive requests.
  int from_one_address = alone;
  std::vector<std::unique_ptr<FakeClient>> more;
  for (int i = 0; i < 5; ++i) {
    more.push_back(std::make_unique<FakeClient>());
    f.connect(*more.back(), "Spectator" + std::to_string(i), "10.0.0.9");
    from_one_address += watches_until_limited(*more.back());
  }
  // The address's burst is 80 tokens, 4 for each watch beyond the connection's own token: 20
  // watches, where six connections alone would have had 42.
  EXPECT_LE(from_one_address, 22);
  // Another address is not affected; cheap requests of the same address neither.
  FakeClient other;
  f.connect(other, "Other", "10.0.0.10");
  f.send(other, {{"type", "game.watch"}, {"game_id", id}, {"req", 1}});
  EXPECT_EQ(other.messages.back(), json({{"type", "ack"}, {"req", 1}}));
  FakeClient cheap;
  f.connect(cheap, "Cheap", "10.0.0.9");
  f.send(cheap, {{"type", "ping"}});
  EXPECT_EQ(cheap.messages.back()["type"], "pong");
}

TEST(Amplification, AConnectionWatchesABoundedNumberOfGames) {
  TempDir dir;
  HubOptions options;
  options.messages_per_second = 1000;
  options.message_burst = 1000;
  options.max_watched_games = 3;
  HubFixture f(dir.file("pin.db"), options);
  FakeClient a, b;
  f.connect(a, "Alice");
  f.connect(b, "Bob");
  std::vector<std::int64_t> games;
  for (int i = 0; i < 4; ++i) {
    f.send(a, {{"type", "game.create"}, {"seats", 2}});
    games.push_back(a.last("game.created")["game_id"]);
    f.send(a, {{"type", "game.unwatch"}, {"game_id", games.back()}});
  }
  for (int i = 0; i < 3; ++i) f.send(b, {{"type", "game.watch"}, {"game_id", games[i]}});
  f.send(b, {{"type", "game.watch"}, {"game_id", games[3]}, {"req", 1}});
  EXPECT_EQ(b.last("error")["code"], "too_many_games");
  f.send(b, {{"type", "game.unwatch"}, {"game_id", games[0]}});
  f.send(b, {{"type", "game.watch"}, {"game_id", games[3]}, {"req", 2}});
  EXPECT_EQ(b.messages.back(), json({{"type", "ack"}, {"req", 2}}));
}

TEST(Amplification, AllConnectionsOfOneAddressPinABoundedNumberOfQueuedBytes) {
  ConnectionLimiter limiter(10, /*max_queued_bytes_per_address=*/1000);
  auto a = limiter.try_acquire("10.0.0.1");
  auto b = limiter.try_acquire("10.0.0.1");
  auto other = limiter.try_acquire("10.0.0.2");
  EXPECT_TRUE(a->reserve_bytes(600));
  EXPECT_FALSE(b->reserve_bytes(600));  // the two connections together would pass 1000
  EXPECT_TRUE(other->reserve_bytes(600));
  EXPECT_TRUE(b->reserve_bytes(400));
  a->release_bytes(600);
  EXPECT_TRUE(b->reserve_bytes(600));
  // A trusted proxy's own connections are counted but never refused.
  ConnectionLimiter one(1);
  auto first = one.try_acquire("127.0.0.1", /*unlimited=*/true);
  auto second = one.try_acquire("127.0.0.1", /*unlimited=*/true);
  EXPECT_TRUE(first && second);
  EXPECT_EQ(one.count("127.0.0.1"), 2);
  EXPECT_FALSE(one.try_acquire("127.0.0.1"));
}

// ------------------------------------------------------------------ spectators [item 2]

TEST(Spectators, HaveTheirOwnChatWhichPlayersNeverSee) {
  TempDir dir;
  HubFixture f(dir.file("chat.db"));
  FakeClient a, b, s;
  f.connect(a, "Alice");
  f.connect(b, "Bob");
  f.connect(s, "Sam");
  const std::int64_t id = f.start_game(a, b);
  f.send(s, {{"type", "game.watch"}, {"game_id", id}});
  f.send(s, {{"type", "chat.send"}, {"game_id", id}, {"text", "Bob, their capital is empty!"}});
  f.send(a, {{"type", "chat.send"}, {"game_id", id}, {"text", "good luck"}});
  EXPECT_EQ(s.last("chat")["text"], "good luck");  // spectators read the players' chat
  EXPECT_EQ(s.last("chat")["channel"], "players");
  for (FakeClient* p : {&a, &b}) {
    for (const json& m : p->messages) {
      if (m.value("type", "") == "chat") {
        EXPECT_EQ(m["channel"], "players");
      }
    }
  }
  // Also not in the chat a full state carries.
  f.send(b, {{"type", "game.watch"}, {"game_id", id}});
  // Held in a variable: a range-for over a member of a temporary reads a destroyed object.
  const json state = b.last("game.state");
  for (const json& line : state["chat"]) EXPECT_EQ(line["channel"], "players");
  f.send(s, {{"type", "game.watch"}, {"game_id", id}});
  EXPECT_EQ(s.last("game.state")["chat"].size(), 2u);
}

TEST(Spectators, TheCreatorMayAllowNone) {
  TempDir dir;
  HubFixture f(dir.file("none.db"));
  FakeClient a, b, s;
  f.connect(a, "Alice");
  f.connect(b, "Bob");
  f.connect(s, "Sam");
  f.send(a, {{"type", "game.create"}, {"seats", 2}, {"spectators", "none"}});
  const std::int64_t id = a.last("game.created")["game_id"];
  f.send(s, {{"type", "game.watch"}, {"game_id", id}, {"req", 1}});  // the waiting room: fine
  EXPECT_EQ(s.messages.back(), json({{"type", "ack"}, {"req", 1}}));
  f.send(b, {{"type", "game.join"}, {"game_id", id}});
  EXPECT_EQ(s.last("error")["code"], "no_spectators");  // dropped when the game starts
  EXPECT_TRUE(s.last("game.state").is_null());
  f.send(s, {{"type", "game.watch"}, {"game_id", id}});
  EXPECT_EQ(s.last("error")["code"], "no_spectators");
  f.send(s, {{"type", "chat.send"}, {"game_id", id}, {"text", "hello?"}});
  EXPECT_EQ(s.last("error")["code"], "no_spectators");
  f.send(a, {{"type", "game.create"}, {"seats", 2}, {"spectators", "sometimes"}});
  EXPECT_EQ(a.last("error")["code"], "bad_options");
}

TEST(Spectators, DelayedSpectatorsSeeTheGameTurnsBehind) {
  TempDir dir;
  HubOptions options;
  options.messages_per_second = 10000;
  options.message_burst = 10000;
  HubFixture f(dir.file("delay.db"), options);
  FakeClient a, b, s;
  f.connect(a, "Alice");
  f.connect(b, "Bob");
  f.connect(s, "Sam");
  const std::int64_t id = f.start_game(a, b, {{"spectators", "delayed"}, {"spectator_delay", 1}});
  f.send(s, {{"type", "game.watch"}, {"game_id", id}});
  ASSERT_EQ(s.last("game.state")["seq"], 0);
  // Play until turn 3: the spectator sees every action of the turns before the last one, and
  // none of the current turn.
  int most_behind = 0;
  for (int i = 0; i < 400 && HubFixture::latest_view(a)["turn"] < 3; ++i) {
    f.act(a, b, id);
    const int live_turn = HubFixture::latest_view(a)["turn"];
    int allowed = 0;
    for (const ActionRecord& r : f.store.actions(id)) allowed += r.turn <= live_turn - 1 ? 1 : 0;
    const int seen = HubFixture::latest(s)["seq"];
    EXPECT_EQ(seen, allowed) << "live turn " << live_turn;
    most_behind = std::max(most_behind, f.store.game(id)->seq - seen);
  }
  EXPECT_GT(most_behind, 2);
  ASSERT_GE(HubFixture::latest_view(a)["turn"], 3);
  // Updates came one seq at a time.
  int last_seq = 0;
  for (const json& m : s.messages) {
    if (m.value("type", "") != "game.update") continue;
    EXPECT_EQ(m["seq"], last_seq + 1);
    last_seq = m["seq"];
  }
  EXPECT_GT(last_seq, 0);
  // The players' chat is not live for delayed spectators.
  f.send(a, {{"type", "chat.send"}, {"game_id", id}, {"text", "attack now"}});
  EXPECT_TRUE(s.last("chat").is_null());
  f.send(a, {{"type", "game.create"}, {"seats", 2}, {"spectators", "delayed"}});
  EXPECT_EQ(a.last("error")["code"], "bad_options");  // a delay is needed
}

// ------------------------------------------------------------------ replays [item 1]

TEST(Replays, AreBuiltOutsideTheHubLock) {
  TempDir dir;
  HubFixture f(dir.file("lock.db"));
  FakeClient a, b;
  f.connect(a, "Alice");
  f.connect(b, "Bob");
  const std::int64_t id = f.start_game(a, b);
  f.send(a,
         {{"type", "game.action"}, {"game_id", id}, {"seq", 0}, {"action", {{"kind", "concede"}}}});
  ASSERT_EQ(f.store.game(id)->status, GameStatus::kFinished);

  std::mutex m;
  std::condition_variable cv;
  bool building = false, go_on = false, pinged = false;
  f.hub.replays().on_build_for_tests = [&] {
    std::unique_lock lock(m);
    building = true;
    cv.notify_all();
    cv.wait_for(lock, std::chrono::seconds(20), [&] { return go_on; });
  };
  std::thread replay([&] {
    const ApiResponse r =
        f.hub.handle_api("GET", "/api/games/" + std::to_string(id) + "/replay", "", "");
    EXPECT_EQ(r.status, 200) << r.body;
  });
  {
    std::unique_lock lock(m);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(20), [&] { return building; }));
  }
  // While the replay is being built, the game logic answers.
  std::thread other([&] {
    f.send(b, {{"type", "ping"}});
    std::lock_guard lock(m);
    pinged = true;
    cv.notify_all();
  });
  {
    std::unique_lock lock(m);
    EXPECT_TRUE(cv.wait_for(lock, std::chrono::seconds(10), [&] { return pinged; }))
        << "a ping waited for a replay being built";
  }
  // Another page is not built meanwhile: it is to be asked for again, not waited for on a
  // network thread.
  const ApiResponse busy =
      f.hub.handle_api("GET", "/api/games/" + std::to_string(id) + "/replay?from=1", "", "");
  EXPECT_EQ(busy.status, 503);
  EXPECT_EQ(busy.retry_after_seconds, 1);
  EXPECT_NE(busy.body.find("busy"), std::string::npos);
  {
    std::lock_guard lock(m);
    go_on = true;
    cv.notify_all();
  }
  replay.join();
  other.join();
}

class ReplayPages : public ::testing::Test {
 protected:
  void SetUp() override {
    HubOptions options;
    options.messages_per_second = 100000;
    options.message_burst = 100000;
    options.room.snapshot_every = 10;
    options.replay.page_steps = 25;
    options.replay.requests_per_minute = 30;
    f = std::make_unique<HubFixture>(dir.file("pages.db"), options);
    f->connect(a, "Alice");
    f->connect(b, "Bob");
    id = f->start_game(a, b, {{"independent_exploration", true}});
    for (int i = 0; i < 80; ++i) f->act(a, b, id);
    f->send(
        a,
        {{"type", "game.action"}, {"game_id", id}, {"seq", 0}, {"action", {{"kind", "concede"}}}});
    record = *f->store.game(id);
    ASSERT_EQ(record.status, GameStatus::kFinished);
  }
  ApiResponse get(const std::string& query, const std::string& address = "10.1.1.1",
                  const std::string& token = "") {
    return f->hub.handle_api("GET", "/api/games/" + std::to_string(id) + "/replay" + query, "",
                             token.empty() ? "" : "Bearer " + token, address);
  }

  TempDir dir;
  std::unique_ptr<HubFixture> f;
  FakeClient a, b;
  std::int64_t id = 0;
  GameRecord record;
};

TEST_F(ReplayPages, ApplyingTheDeltasGivesEachViewOfTheGame) {
  // The position at every seq, from the seed and the stored log.
  std::vector<GameState> states{new_game(record.options, record.seed, record.random_scheme)};
  for (const ActionRecord& r : f->store.actions(id)) {
    states.push_back(states.back());
    ASSERT_FALSE(apply_in_place(states.back(), r.action));
  }
  ASSERT_EQ(static_cast<int>(states.size()), record.seq + 1);
  int pages = 0;
  for (int from = 0; from < record.seq; from += 25) {
    const ApiResponse r = get("?from=" + std::to_string(from));
    ASSERT_EQ(r.status, 200) << r.body;
    const json page = json::parse(r.body);
    EXPECT_EQ(page["from"], from);
    EXPECT_EQ(page["to"], std::min(from + 25, record.seq));
    EXPECT_EQ(page["last_seq"], record.seq);
    EXPECT_TRUE(page["viewer"].is_null());  // no token: the spectator's views
    json view = page["view"];
    EXPECT_EQ(view,
              protocol::view_to_json(view_for(states[static_cast<std::size_t>(from)], kSpectator)));
    for (const json& step : page["steps"]) {
      view = protocol::apply_view_delta(view, step["delta"]);
      const int seq = step["seq"];
      ASSERT_EQ(view,
                protocol::view_to_json(view_for(states[static_cast<std::size_t>(seq)], kSpectator)))
          << "seq " << seq;
    }
    ++pages;
  }
  EXPECT_EQ(pages, (record.seq + 24) / 25);
}

TEST_F(ReplayPages, AreCompactPagedCachedAndRateLimited) {
  const ApiResponse first = get("?from=0&to=25");
  ASSERT_EQ(first.status, 200);
  EXPECT_EQ(f->metrics.replay_pages_built, 1);
  // A full view per step would be ~26 views; the page holds one and small deltas.
  const std::size_t one_view = json::parse(first.body)["view"].dump().size();
  EXPECT_LT(first.body.size(), 6 * one_view) << first.body.size() << " vs a view of " << one_view;
  EXPECT_EQ(get("?from=0&to=25").body, first.body);
  EXPECT_EQ(f->metrics.replay_cache_hits, 1);
  EXPECT_EQ(f->metrics.replay_pages_built, 1);
  // A page is at most 25 steps here; out-of-range pages are refused.
  EXPECT_EQ(json::parse(get("?from=3&to=60").body)["to"], 28);
  EXPECT_EQ(get("?from=-1").status, 400);
  EXPECT_EQ(get("?from=5&to=4").status, 400);
  EXPECT_EQ(get("?from=0&to=100000").status, 400);
  // 30 per minute per address (burst 30): five went out above.
  int ok = 0;
  for (int i = 0; i < 40; ++i) ok += get("?from=0&to=25").status == 200 ? 1 : 0;
  EXPECT_LE(ok, 26);
  EXPECT_EQ(get("?from=0&to=25").status, 429);
  EXPECT_EQ(get("?from=0&to=25", "10.1.1.2").status, 200);  // another address
}

TEST_F(ReplayPages, ASeatsOwnViewsOnlyForItsPlayer) {
  const std::string alice = f->sign_up("Alice2");
  const json mine = json::parse(get("?seat=0").body);
  EXPECT_TRUE(mine["viewer"].is_null());  // no token
  // Alice's token from her connection's sign-up is not at hand: sign her seat's player in
  // through a fresh token of the seat holder.
  const std::int64_t holder = record.seats[0].player_id;
  const std::string token = new_token();
  f->store.db().exec("UPDATE players SET token_hash = '" + token_hash(token) +
                     "' WHERE id = " + std::to_string(holder));
  const json own = json::parse(get("?seat=0", "10.1.1.3", token).body);
  EXPECT_EQ(own["viewer"], 0);
  EXPECT_EQ(own["view"]["viewer"], 0);
  const json other = json::parse(get("?seat=1", "10.1.1.3", token).body);
  EXPECT_TRUE(other["viewer"].is_null());
  const json stranger = json::parse(get("?seat=0", "10.1.1.3", alice).body);
  EXPECT_TRUE(stranger["viewer"].is_null());
}

}  // namespace
}  // namespace viktory::server
