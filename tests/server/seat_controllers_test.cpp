// Seat controllers' storage (migration, computer seats) and "who must act now"; with real
// rooms and the real bot: paused games of computers, and a hurried search.
#include "seat_controllers.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <random>

#include "game.h"
#include "lobby.h"
#include "reveal_round.h"
#include "store.h"
#include "test_support.h"
#include "view.h"

namespace viktory::server {
namespace {

using testing::Recorder;
using testing::TempDir;

TEST(SeatControllersStore, ComputerSeatsAreStoredWithTheirLevelAndFoundAfterARestart) {
  TempDir dir;
  const std::string file = dir.file("seats.db");
  std::int64_t id = 0;
  std::int64_t computer_id = 0;
  {
    Store store(file);
    const PlayerRecord alice = store.create_player("Alice", "a", 1);
    const PlayerRecord computer = store.create_player("Computer (search)", "c", 1);
    computer_id = computer.id;
    GameRecord g;
    g.options.players = 2;
    g.created = 1000;
    g.creator = alice;
    g.seats = {{0, alice.id, "Alice", ""}, {1, computer.id, computer.name, "search"}};
    id = store.create_game(g);
    EXPECT_TRUE(store.running_games_with_computers().empty());  // not running yet
    g.seed = 5;
    g.status = GameStatus::kRunning;
    store.start_game(g);
  }
  Store store(file);
  const auto loaded = store.game(id);
  ASSERT_TRUE(loaded);
  ASSERT_EQ(loaded->seats.size(), 2u);
  EXPECT_EQ(loaded->seats[0].computer, "");
  EXPECT_EQ(loaded->seats[1].computer, "search");
  EXPECT_EQ(loaded->seats[1].player_id, computer_id);
  EXPECT_EQ(store.running_games_with_computers(), std::vector<std::int64_t>{id});
}

TEST(SeatControllersStore, GamesStoredBeforeComputerSeatsLoadWithHumanSeats) {
  TempDir dir;
  const std::string file = dir.file("old.db");
  std::int64_t id = 0;
  {
    Store store(file);
    const PlayerRecord alice = store.create_player("Alice", "a", 1);
    GameRecord g;
    g.options.players = 2;
    g.created = 1000;
    g.creator = alice;
    g.seats = {{0, alice.id, "Alice", ""}};
    id = store.create_game(g);
    // Back to the schema before computer seats, as main stores it today.
    store.db().exec("DROP TABLE seat_controllers");
    store.db().exec("DROP TABLE game_clocks");
    store.db().exec("ALTER TABLE actions DROP COLUMN source");
    store.db().exec("ALTER TABLE games DROP COLUMN rated");          // migration 11 (ratings)
    store.db().exec("ALTER TABLE players DROP COLUMN language");     // migration 12 (server texts)
    store.db().exec("ALTER TABLE games DROP COLUMN random_scheme");  // 16 (fair play v2)
    store.db().exec("PRAGMA user_version = 4");
  }
  Store store(file);
  EXPECT_EQ(store.schema_version(), Store::kSchemaVersion);
  const auto loaded = store.game(id);
  ASSERT_TRUE(loaded);
  ASSERT_EQ(loaded->seats.size(), 1u);
  EXPECT_EQ(loaded->seats[0].computer, "");
}

TEST(SeatControllers, LevelsAreTheLibrarysOnly) {
  EXPECT_TRUE(valid_computer_level("random"));
  EXPECT_TRUE(valid_computer_level("heuristic"));
  EXPECT_TRUE(valid_computer_level("search"));
  EXPECT_FALSE(valid_computer_level("genius"));
  EXPECT_FALSE(valid_computer_level(""));
}

// Rooms of real games in a real store; no observer is registered, so the test tells the seat
// controllers itself when a room changed.
class SeatControllersRooms : public ::testing::Test {
 protected:
  SeatControllersRooms()
      : store(dir.file("rooms.db")),
        lobby(store, metrics, RoomLimits{}),
        alice(store.create_player("Alice", "a", 1)),
        bob(store.create_player("Bob", "b", 1)) {}

  GameRoom* create(const PlayerRecord& creator, std::map<int, std::string> computers,
                   bool creator_plays, int seat = 0) {
    CreateRequest req;
    req.options.players = 2;
    req.computers = std::move(computers);
    req.creator_plays = creator_plays;
    req.seat = seat;
    auto made = lobby.create(creator, req);
    EXPECT_TRUE(std::holds_alternative<GameRoom*>(made));
    GameRoom* room = std::get<GameRoom*>(made);
    {
      std::lock_guard lock(room->mutex());
      testing::complete_reveal_round(*room);  // the creator's seat contributes
    }
    EXPECT_EQ(room->status(), GameStatus::kRunning);
    return room;
  }
  static std::int64_t player_in_seat(const GameRoom& room, int seat) {
    for (const SeatRecord& s : room.record().seats) {
      if (s.seat == seat) return s.player_id;
    }
    return 0;
  }
  // Plays random legal actions (never concede) until `stop` says so.
  template <typename Stop>
  void play_until(GameRoom& room, Stop stop) {
    std::mt19937 rng(5);
    for (int i = 0; i < 2000 && !stop(*room.state()); ++i) {
      const int seat = decider(*room.state());
      std::vector<Action> moves;
      for (const Action& a : legal_actions(*room.state(), seat)) {
        if (a.kind != ActionKind::kConcede) moves.push_back(a);
      }
      ASSERT_FALSE(moves.empty());
      const Action pick =
          moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)];
      std::lock_guard lock(room.mutex());
      ASSERT_FALSE(room.act(player_in_seat(room, seat), room.seq(), pick));
    }
    ASSERT_TRUE(stop(*room.state())) << "no such position came";
  }

  // Decisions handed to `apply`, each checked against the legal actions of its game then.
  void applied(const ComputerDecision& d) {
    GameRoom* room = rooms.at(d.game_id);
    bool legal = false;
    {
      std::lock_guard lock(room->mutex());
      const int seat = decider(*room->state());
      for (const Action& a : legal_actions(*room->state(), seat)) legal = legal || a == d.action;
    }
    std::lock_guard lock(mutex);
    decisions.push_back({d.game_id, legal && !d.cancel->load()});
    changed.notify_all();
  }
  bool decided(std::int64_t game_id) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, std::chrono::seconds(20), [&] {
      for (const auto& [game, legal] : decisions) {
        if (game == game_id) return true;
      }
      return false;
    });
  }
  bool decided_legally(std::int64_t game_id) {
    std::lock_guard lock(mutex);
    for (const auto& [game, legal] : decisions) {
      if (game == game_id) return legal;
    }
    return false;
  }

  TempDir dir;
  Store store;
  Metrics metrics;
  Lobby lobby;
  PlayerRecord alice, bob;
  std::map<std::int64_t, GameRoom*> rooms;
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::pair<std::int64_t, bool>> decisions;  // game, legal
};

TEST_F(SeatControllersRooms, AGameOfComputersOnlyThatNobodyWatchesWaitsForAWatcher) {
  ComputerOptions options;
  options.pool.threads = 1;
  options.pool.nice = 0;
  SeatControllers seats(options, [this](const ComputerDecision& d) { applied(d); });
  GameRoom* room = create(alice, {{0, "random"}, {1, "random"}}, /*creator_plays=*/false);
  rooms[room->id()] = room;
  {
    std::lock_guard lock(room->mutex());
    seats.on_room_changed(*room);  // its creator is not watching (e.g. he went away)
  }
  const ComputerPool::Stats idle = seats.pool().stats();
  EXPECT_EQ(idle.waiting + idle.running + static_cast<std::size_t>(idle.started), 0u)
      << "a game nobody watches got computer time";
  EXPECT_EQ(seats.paused(), 1u);
  Recorder spectator;
  {
    std::lock_guard lock(room->mutex());
    room->watch(&spectator, alice.id);
    seats.on_watched(*room);
  }
  ASSERT_TRUE(decided(room->id()));
  EXPECT_TRUE(decided_legally(room->id()));
  EXPECT_EQ(seats.paused(), 0u);
}

TEST_F(SeatControllersRooms, ASearchHurriedForAPlayersComputerStillYieldsALegalAction) {
  ComputerOptions options;
  options.pool.threads = 1;
  options.pool.nice = 0;
  options.search_budget = std::chrono::minutes(1);  // only a hurry ends it within the test
  SeatControllers seats(options, [this](const ComputerDecision& d) { applied(d); });
  // Alice's game of computers only, which she watches, at a decision its search must weigh
  // (several candidates, with the seed the seat controllers give the bot).
  GameRoom* spectated = create(alice, {{0, "search"}, {1, "search"}}, /*creator_plays=*/false);
  rooms[spectated->id()] = spectated;
  play_until(*spectated, [&](const GameState& s) {
    const int seat = decider(s);
    ai::BotConfig probe;
    probe.seed = static_cast<std::uint64_t>(spectated->id()) * 0x9E3779B97F4A7C15ULL ^
                 (static_cast<std::uint64_t>(spectated->seq()) << 8) ^
                 static_cast<std::uint64_t>(seat);
    probe.iterations = 2;
    probe.time_budget = std::chrono::milliseconds(0);
    ai::DecisionInfo info;
    ai::choose_action(view_for(s, seat), legal_actions(s, seat), {}, probe, &info);
    return info.candidates > 1;
  });
  Recorder spectator;
  {
    std::lock_guard lock(spectated->mutex());
    spectated->watch(&spectator, alice.id);
    seats.on_room_changed(*spectated);
  }
  // Bob's game against a computer whose turn it is.
  GameRoom* played = create(bob, {{0, "search"}}, /*creator_plays=*/true, /*seat=*/1);
  rooms[played->id()] = played;
  play_until(*played, [](const GameState& s) { return decider(s) == 0; });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // well into its search
  ASSERT_EQ(seats.pool().stats().running, 1u);                  // the spectated game's search
  ASSERT_EQ(seats.decisions(), 0);
  {
    std::lock_guard lock(played->mutex());
    seats.on_room_changed(*played);  // Bob waits for this one
  }
  ASSERT_TRUE(decided(spectated->id())) << "the search of the spectated game was not hurried";
  EXPECT_TRUE(decided_legally(spectated->id()));
  EXPECT_EQ(seats.pool().stats().hurried, 1);
}

}  // namespace
}  // namespace viktory::server
