// The server's persistent data in SQLite: schema, numbered migrations (PRAGMA user_version) and
// every query. Tables: players, games, seats, actions (the append-only action log), snapshots
// (whole states every N actions so a long game loads fast) and chat.
//
// Secret-bearing columns (games.seed, snapshots.state, players.token_hash) never leave the
// server: nothing here is sent to clients as is.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "action.h"
#include "database.h"
#include "state.h"

namespace viktory::server {

enum class GameStatus { kOpen, kRunning, kFinished, kCancelled };
const char* to_string(GameStatus s);
std::optional<GameStatus> game_status_from_string(std::string_view s);

struct PlayerRecord {
  std::int64_t id = 0;
  std::string name;
};

struct SeatRecord {
  int seat = 0;
  std::int64_t player_id = 0;
  std::string name;
  friend bool operator==(const SeatRecord&, const SeatRecord&) = default;
};

struct GameRecord {
  std::int64_t id = 0;
  Options options;         // options.players: the number of seats
  std::uint64_t seed = 0;  // chosen when the game starts
  GameStatus status = GameStatus::kOpen;
  std::int64_t created = 0;
  PlayerRecord creator;
  bool is_private = false;
  std::string invite_code;  // empty for public games
  std::optional<nlohmann::json> result;
  std::vector<SeatRecord> seats;  // the seated players, by seat
  std::optional<std::int64_t> last_move_at;
  int current_seat = -1;  // who must decide (running games)
  int seq = 0;            // actions in the log
};

struct ActionRecord {
  int seq = 0;  // 1-based: the state after this action has action_count == seq
  Action action;
  bool sealed = false;
  int turn = 0;  // the turn number when the action was taken
  std::int64_t at = 0;
};

struct ChatRecord {
  std::int64_t at = 0;
  std::int64_t player_id = 0;
  std::optional<int> seat;
  std::string name;
  std::string text;
};

// What one committed action changes, written in one transaction.
struct ActionCommit {
  std::int64_t game_id = 0;
  ActionRecord record;
  int current_seat = -1;                   // the decider afterwards
  const GameState* snapshot = nullptr;     // the state after the action, to store as well
  std::optional<nlohmann::json> finished;  // result, when the action ended the game
};

class Store {
 public:
  static constexpr int kSchemaVersion = 1;

  explicit Store(const std::string& path);
  int schema_version();

  PlayerRecord create_player(const std::string& name, const std::string& token_hash,
                             std::int64_t now);
  std::optional<PlayerRecord> player_by_token_hash(const std::string& token_hash);

  // Inserts the game with its seats; returns the new id (also set in `game`).
  std::int64_t create_game(GameRecord& game);
  void replace_seats(std::int64_t game_id, const std::vector<SeatRecord>& seats, std::int64_t now);
  // Open -> running: the final options (players shrunk to the seated count), seats and seed.
  void start_game(const GameRecord& game);
  void cancel_game(std::int64_t game_id);

  std::optional<GameRecord> game(std::int64_t game_id);
  std::vector<GameRecord> games_with_status(GameStatus status);
  std::vector<GameRecord> games_of_player(std::int64_t player_id);

  void commit_action(const ActionCommit& commit);
  // Removes the last action (seq) and any snapshot after the state it leaves.
  void remove_last_action(std::int64_t game_id, int seq, int current_seat);
  std::vector<ActionRecord> actions(std::int64_t game_id, int after_seq = 0);
  // The latest snapshot with seq <= max_seq.
  std::optional<std::pair<int, GameState>> latest_snapshot(std::int64_t game_id, int max_seq);

  void add_chat(std::int64_t game_id, const ChatRecord& chat);
  std::vector<ChatRecord> recent_chat(std::int64_t game_id, int limit);

  Database& db() { return db_; }

 private:
  void migrate();
  GameRecord read_game_row(Statement& s);
  void load_seats(GameRecord& game);

  Database db_;
};

}  // namespace viktory::server
