// The store's readers and indexes against one hostile client (issue 19): a pool of read-only
// connections, so that a long read never makes a sign-in wait, and "Games to watch" and "your
// games" read from indexes (migration 9) with the same answers as the old queries, which read
// every running game (or every game of the player) and sorted them in memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <random>

#include "running_games.h"
#include "store.h"
#include "test_support.h"

namespace viktory::server {
namespace {

using testing::TempDir;
using namespace std::chrono_literals;

// ------------------------------------------------------------------------------- readers

TEST(StoreReaders, ASignInIsAnsweredWhileAnotherReadHoldsAConnection) {
  TempDir dir;
  Store store(dir.file("r.db"));
  const PlayerRecord alice = store.create_player("Alice", "hash-a", 1);
  // A long read (lobby.running over every running game took 62-73 ms at 10,000) holds a
  // read-only connection meanwhile.
  auto held = store.hold_reader_for_testing();
  auto sign_in =
      std::async(std::launch::async, [&] { return store.player_by_token_hash("hash-a"); });
  const std::future_status answered = sign_in.wait_for(5s);
  held.reset();  // the long read ends (the sign-in waits no longer, whatever happened)
  // Before, there was one read-only connection: the sign-in waited for the long read.
  ASSERT_EQ(answered, std::future_status::ready) << "a sign-in waited for a read";
  EXPECT_EQ(sign_in.get()->id, alice.id);
}

TEST(StoreReaders, WithEveryReaderHeldAReadWaitsForTheFirstOneFreed) {
  TempDir dir;
  Store store(dir.file("r.db"), /*readers=*/2);
  store.create_player("Alice", "hash-a", 1);
  auto first = store.hold_reader_for_testing();
  auto second = store.hold_reader_for_testing();
  auto sign_in =
      std::async(std::launch::async, [&] { return store.player_by_token_hash("hash-a"); });
  EXPECT_EQ(sign_in.wait_for(200ms), std::future_status::timeout);
  second.reset();
  ASSERT_EQ(sign_in.wait_for(5s), std::future_status::ready);
  EXPECT_TRUE(sign_in.get().has_value());
  // The pool is whole again: two reads at once while nothing is held.
  first.reset();
  auto a = store.hold_reader_for_testing();
  auto b = std::async(std::launch::async, [&] { return store.player_by_token_hash("hash-a"); });
  EXPECT_EQ(b.wait_for(5s), std::future_status::ready);
}

// ------------------------------------------------------------------------------- indexes

// Random games: open, running, finished and cancelled; public and private; every spectator
// mode; moves at random times (some never, some at the same time), seats among a few players.
struct Games {
  TempDir dir;
  Store store{dir.file("i.db")};
  std::vector<PlayerRecord> players;

  explicit Games(int count) {
    std::mt19937 rng(7);
    const auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
    for (int i = 0; i < 8; ++i) {
      players.push_back(store.create_player("P" + std::to_string(i), "h" + std::to_string(i), 1));
    }
    const char* statuses[] = {"open", "running", "running", "running", "finished", "cancelled"};
    const char* spectators[] = {"live", "none", "delayed"};
    for (int i = 0; i < count; ++i) {
      GameRecord g;
      g.options.players = 2 + pick(3);
      g.created = 1000 + pick(50);
      g.creator = players[static_cast<std::size_t>(pick(8))];
      std::vector<std::int64_t> seated = {g.creator.id};
      for (int s = 1; s < g.options.players; ++s) {
        const std::int64_t p = players[static_cast<std::size_t>(pick(8))].id;
        if (std::find(seated.begin(), seated.end(), p) == seated.end()) seated.push_back(p);
      }
      for (std::size_t s = 0; s < seated.size(); ++s) {
        g.seats.push_back(SeatRecord{static_cast<int>(s), seated[s], "", ""});
      }
      store.create_game(g);
      Statement u = store.db().prepare(
          "UPDATE games SET status = ?, private = ?, spectators = ?, last_move_at = ? WHERE id = "
          "?");
      u.bind(1, statuses[pick(6)]).bind(2, pick(4) == 0 ? 1 : 0).bind(3, spectators[pick(3)]);
      if (pick(5) == 0) {
        u.bind_null(4);
      } else {
        u.bind(4, 1000 + pick(80));
      }
      u.bind(5, g.id).run();
    }
  }
};

std::vector<std::int64_t> ids(const std::vector<GameRecord>& games) {
  std::vector<std::int64_t> out;
  for (const GameRecord& g : games) out.push_back(g.id);
  return out;
}

bool seated(const GameRecord& g, std::int64_t player) {
  return std::any_of(g.seats.begin(), g.seats.end(),
                     [&](const SeatRecord& s) { return s.player_id == player; });
}

// The old lobby.running (running_games.cpp before): every running game read and sorted, less
// the viewer's own games (which "Games to watch" listed before: issue 20).
std::vector<std::int64_t> old_games_to_watch(Store& store, std::int64_t viewer, std::size_t limit) {
  std::vector<GameRecord> games = store.games_with_status(GameStatus::kRunning);
  std::erase_if(games, [&](const GameRecord& g) {
    return g.is_private || g.spectators == SpectatorMode::kNone || seated(g, viewer);
  });
  const auto played = [](const GameRecord& g) { return g.last_move_at.value_or(g.created); };
  std::sort(games.begin(), games.end(), [&](const GameRecord& a, const GameRecord& b) {
    return played(a) != played(b) ? played(a) > played(b) : a.id > b.id;
  });
  if (games.size() > limit) games.resize(limit);
  return ids(games);
}

TEST(StoreIndexes, GamesToWatchAreTheOldQuerysAnswerFromTheIndex) {
  Games g(400);
  int compared = 0;
  for (std::int64_t viewer : {std::int64_t{0}, g.players[0].id, g.players[3].id}) {
    for (int limit : {1, 7, 50, 1000}) {
      const std::vector<std::int64_t> want = old_games_to_watch(g.store, viewer, limit);
      ASSERT_EQ(ids(g.store.games_to_watch(viewer, limit)), want)
          << "viewer " << viewer << ", limit " << limit;
      compared += static_cast<int>(want.size());
    }
  }
  EXPECT_GT(compared, 100);
  // Each listed game comes with its seats, as before.
  const std::vector<GameRecord> listed = g.store.games_to_watch(0, 5);
  ASSERT_FALSE(listed.empty());
  EXPECT_FALSE(listed[0].seats.empty());
  // The viewer's own games are never listed.
  for (const GameRecord& game : g.store.games_to_watch(g.players[0].id, 1000)) {
    EXPECT_FALSE(seated(game, g.players[0].id)) << game.id;
  }
}

// The old "your games": every game of the player, newest first, less the cancelled ones.
std::vector<std::int64_t> old_games_of(Store& store, std::int64_t player, std::size_t active,
                                       std::size_t finished) {
  std::vector<GameRecord> want;
  std::size_t a = 0;
  std::size_t f = 0;
  for (GameRecord& game : store.games_of_player(player)) {
    if (game.status == GameStatus::kCancelled) continue;
    const bool done = game.status == GameStatus::kFinished;
    if (done ? f++ < finished : a++ < active) want.push_back(std::move(game));
  }
  return ids(want);
}

TEST(StoreIndexes, YourGamesAreTheOldQuerysAnswerFromTheIndex) {
  Games g(300);
  for (const PlayerRecord& p : g.players) {
    for (auto [active, finished] : {std::pair{1000, 1000}, std::pair{5, 3}, std::pair{1, 0}}) {
      ASSERT_EQ(ids(g.store.recent_games_of_player(p.id, active, finished)),
                old_games_of(g.store, p.id, static_cast<std::size_t>(active),
                             static_cast<std::size_t>(finished)))
          << "player " << p.id << ", " << active << " active, " << finished << " finished";
    }
  }
  EXPECT_GT(g.store.recent_games_of_player(g.players[0].id, 1000, 1000).size(), 20u);
}

// lobby.running from the copy read once a second: the same list as a read of the store for
// each viewer, also for one who plays more of the latest games than the copy has to spare.
TEST(StoreIndexes, GamesToWatchFromTheCopyAreTheStoresAnswerForEachViewer) {
  Games g(400);
  GamesToWatch watch(g.store, 10, std::chrono::hours(1));
  // 40 of the 60 read: each player here sits in about a third of the games, so some viewers
  // need a read of their own.
  GamesToWatch wide(g.store, 40, std::chrono::hours(1));
  for (const PlayerRecord& p : g.players) {
    const nlohmann::json got = nlohmann::json::parse(watch.message_for(p.id));
    EXPECT_EQ(got["type"], "lobby.running");
    EXPECT_EQ(got["games"], running_public_games(g.store, p.id, 10)) << "viewer " << p.id;
    EXPECT_EQ(nlohmann::json::parse(wide.message_for(p.id))["games"],
              running_public_games(g.store, p.id, 40))
        << "viewer " << p.id;
  }
  GamesToWatch all(g.store, 1000, std::chrono::hours(1));
  for (std::int64_t viewer : {std::int64_t{0}, g.players[2].id}) {
    EXPECT_EQ(nlohmann::json::parse(all.message_for(viewer))["games"],
              running_public_games(g.store, viewer, 1000));
  }
  // Read once: a game that starts running now shows only once the copy is read again.
  const nlohmann::json before = nlohmann::json::parse(watch.message_for(0))["games"];
  g.store.db().exec(
      "UPDATE games SET status = 'running', private = 0, spectators = 'live', last_move_at = "
      "999999 WHERE id = 1");
  EXPECT_EQ(nlohmann::json::parse(watch.message_for(0))["games"], before);
  GamesToWatch fresh(g.store, 10, std::chrono::milliseconds(0));
  EXPECT_EQ(nlohmann::json::parse(fresh.message_for(0))["games"][0]["game_id"], 1);
}

// The plans SQLite chooses: an index walked in order, no table scanned and nothing sorted, so
// the time does not grow with the number of games.
TEST(StoreIndexes, TheListsWalkAnIndexInOrder) {
  Games g(50);
  const auto plan = [&](const std::string& sql) {
    std::string out;
    Statement s = g.store.db().prepare("EXPLAIN QUERY PLAN " + sql);
    while (s.step()) out += s.text(3) + "\n";
    return out;
  };
  // Store::games_to_watch names its index (without statistics SQLite would rather take
  // games_by_status and sort every running game).
  const std::string watch = plan(
      "SELECT g.id FROM games g INDEXED BY games_to_watch WHERE g.status = 'running' AND g.private "
      "= 0 AND "
      "g.spectators != 'none' ORDER BY COALESCE(g.last_move_at, g.created) DESC, g.id DESC "
      "LIMIT 50");
  EXPECT_NE(watch.find("games_to_watch"), std::string::npos) << watch;
  EXPECT_EQ(watch.find("TEMP B-TREE"), std::string::npos) << watch;
  const std::string mine = plan(
      "SELECT g.id FROM seats s CROSS JOIN games g ON g.id = s.game_id WHERE s.player_id = 1 "
      "AND g.status = 'finished' ORDER BY s.game_id DESC LIMIT 50");
  EXPECT_NE(mine.find("seats_by_player_game"), std::string::npos) << mine;
  EXPECT_EQ(mine.find("TEMP B-TREE"), std::string::npos) << mine;
}

}  // namespace
}  // namespace viktory::server
