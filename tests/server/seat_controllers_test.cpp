// Seat controllers' storage (migration, computer seats) and "who must act now".
#include "seat_controllers.h"

#include <gtest/gtest.h>

#include "store.h"
#include "test_support.h"

namespace viktory::server {
namespace {

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

}  // namespace
}  // namespace viktory::server
