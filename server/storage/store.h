// The server's persistent data in SQLite: schema, numbered migrations (PRAGMA user_version) and
// every query. Tables: players, games, seats, actions (the append-only action log), snapshots
// (whole states every N actions so a long game loads fast) and chat.
//
// Secret-bearing columns (games.seed, game_secrets, snapshots.state, players.token_hash) never
// leave the server: nothing here is sent to clients as is (fair_play.h reveals a game's secret
// once it is over).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "action.h"
#include "action_source.h"
#include "database.h"
#include "rng.h"
#include "state.h"

namespace viktory::server {

enum class GameStatus { kOpen, kRunning, kFinished, kCancelled };
const char* to_string(GameStatus s);
std::optional<GameStatus> game_status_from_string(std::string_view s);

// Who may watch a running game without a seat (the creator's choice). Finished games may be
// watched and replayed by anyone who may see them.
enum class SpectatorMode {
  kLive,     // spectators see the game as it happens (only what every player knows, under
             // independent exploration)
  kNone,     // no spectators until the game is over
  kDelayed,  // spectators see the game as it stood `spectator_delay` turns ago
};
const char* to_string(SpectatorMode m);
// What the store keeps of an invite code: its SHA-256 in hex.
std::string invite_hash(std::string_view invite_code);
std::optional<SpectatorMode> spectator_mode_from_string(std::string_view s);
constexpr int kMaxSpectatorDelay = 20;  // turns

// Stored data of a game that cannot be read or does not add up (a malformed column, a gap in
// the action log). The game cannot be opened; the rest of the server goes on.
class GameLeases;

// The error of an action whose game another server took (Store::set_leases): not a storage
// failure; the action was not written, and this process should let the game go.
inline constexpr const char* kLeaseLost =
    "another server serves this game now; this action was not saved";
inline bool lease_lost(const DbError& error) { return error.what() == std::string(kLeaseLost); }

struct DamagedGame : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct PlayerRecord {
  std::int64_t id = 0;
  std::string name;
};

struct SeatRecord {
  int seat = 0;
  std::int64_t player_id = 0;
  std::string name;
  // A computer player's level (ai::to_string), empty for a human (seat_controllers.h).
  std::string computer;
  // Fair play (docs/fair-play.md): the seat's contribution commitment (hex; empty: none yet)
  // and its contribution once revealed (hex; never sent to anyone while the game runs), and
  // whether the seat is the server operator's (--operator).
  std::string contribution_commitment = {};
  std::string contribution = {};
  bool host = false;
  friend bool operator==(const SeatRecord&, const SeatRecord&) = default;
};

struct GameRecord {
  std::int64_t id = 0;
  Options options;         // options.players: the number of seats
  std::uint64_t seed = 0;  // chosen when the game starts
  // The generator the seed drives (engine/rng.h, docs/fair-play.md): the lobby creates every
  // new game with scheme 2; games stored before schema 17 read scheme 1.
  RandomScheme random_scheme = RandomScheme::kSingleStream;
  GameStatus status = GameStatus::kOpen;
  std::int64_t created = 0;
  PlayerRecord creator;
  bool is_private = false;
  // SHA-256 (hex) of the invite code of a private game; the code itself is never stored.
  std::string invite_hash;
  SpectatorMode spectators = SpectatorMode::kLive;
  int spectator_delay = 0;  // turns, for SpectatorMode::kDelayed
  std::optional<nlohmann::json> result;
  std::vector<SeatRecord> seats;  // the seated players, by seat
  std::optional<std::int64_t> last_move_at;
  int current_seat = -1;  // who must decide (running games)
  int seq = 0;            // actions in the log
  // Fair play: SHA-256 commitment to the game's secret (hex), published; empty for a game
  // created before fair play. The secret and salt are in game_secrets (fair_play.h).
  std::string commitment;
  // The creator's clock options (clock_options_to_json, game_clock.h; from the table
  // game_clocks), or null for a game without a clock. Shown in every list of games.
  nlohmann::json clock;
  // Rated (docs/server.md, "Ratings"): chosen at creation; once the game is over, whether it
  // counted for the ratings.
  bool rated = false;
  // An open game whose seats are final waits until every human seat has revealed its
  // contribution, at most until this moment (ms since the epoch; fair_play.h). None: no round.
  std::optional<std::int64_t> reveal_deadline;
};

struct ActionRecord {
  int seq = 0;  // 1-based: the state after this action has action_count == seq
  Action action;
  bool sealed = false;
  int turn = 0;  // the turn number when the action was taken
  std::int64_t at = 0;
  ActionSource source = ActionSource::kPlayer;
};

struct ChatRecord {
  std::int64_t at = 0;
  std::int64_t player_id = 0;
  std::optional<int> seat;
  std::string name;
  std::string text;
  std::int64_t id = 0;  // the chat line's row id (returned by add_chat; last, for aggregates)
};

// How the seats placed when a game ended (player_records.h: places_at_end), written with the
// result in the same transaction: the players' records and the ratings.
struct SeatPlaces {
  std::vector<int> places;            // by seat: 1 = a winner, a lower number placed higher
  bool first_round_complete = false;  // every seat's first Player Turn was over
};

// What one committed action changes, written in one transaction.
struct ActionCommit {
  std::int64_t game_id = 0;
  ActionRecord record;
  int current_seat = -1;                   // the decider afterwards
  const GameState* snapshot = nullptr;     // the state after the action, to store as well
  std::optional<nlohmann::json> finished;  // result, when the action ended the game
  SeatPlaces places;                       // with `finished`: the players' records and ratings
};

class Store {
 public:
  static constexpr int kSchemaVersion = 19;
  ~Store();

  // Opens (creating it if missing), migrates, and proves with a real write that the database
  // can be written: throws DbError otherwise. `readers`: read-only connections for reads that
  // need no transaction of the writer (a database file only), so that one slow read never makes
  // a sign-in wait (docs/server.md, "Readers").
  static constexpr int kDefaultReaders = 3;
  // `shared`: several servers serve this PostgreSQL database, each game by one at a time (game
  // leases, game_leases.h; set_leases) instead of the whole database by one server.
  explicit Store(const std::string& path, int readers = kDefaultReaders, bool shared = false);
  // A second, read-only connection to a database another Store has opened (and migrated): for
  // work outside the game lock, such as replays (WAL lets it read while the other writes).
  struct ReadOnly {};
  Store(const std::string& path, ReadOnly);
  int schema_version();
  // A real write (a committed transaction) to prove the database can be written; throws
  // DbError otherwise.
  void check_writable();
  // After a storage failure: moves every committed page into the database file and empties
  // the WAL, so that frames of a transaction that failed cannot come back after a crash.
  // Returns false when SQLite could not do it now.
  bool checkpoint_truncate();

  PlayerRecord create_player(const std::string& name, const std::string& token_hash,
                             std::int64_t now);
  std::optional<PlayerRecord> player_by_token_hash(const std::string& token_hash);

  // Inserts the game with its seats; returns the new id (also set in `game`).
  std::int64_t create_game(GameRecord& game);
  void replace_seats(std::int64_t game_id, const std::vector<SeatRecord>& seats, std::int64_t now);
  // Open -> running: the final options (players shrunk to the seated count), seats and seed.
  // `start_position` (a guided game's, tutorial.h) is kept as the snapshot of seq 0.
  void start_game(const GameRecord& game, const GameState* start_position = nullptr);
  void cancel_game(std::int64_t game_id);
  // The reveal round of an open game (fair_play.h): its deadline, or none to end it. Seats and
  // their contributions are written by replace_seats.
  void set_reveal_round(std::int64_t game_id, std::optional<std::int64_t> deadline);
  // Every game's reveal round: (game id, deadline), for the sweep of deadlines.
  std::vector<std::pair<std::int64_t, std::int64_t>> reveal_rounds();
  // The games in a reveal round where `player_id` holds a seat (a few at most).
  std::vector<std::int64_t> reveal_rounds_of(std::int64_t player_id);

  void set_invite_hash(std::int64_t game_id, const std::string& invite_hash);

  // Throws DamagedGame when the game's row cannot be read.
  std::optional<GameRecord> game(std::int64_t game_id);
  // Lists skip games whose row cannot be read; `damaged` (if given) gets their ids and why.
  using DamagedList = std::vector<std::pair<std::int64_t, std::string>>;
  std::vector<GameRecord> games_with_status(GameStatus status, DamagedList* damaged = nullptr);
  std::vector<GameRecord> games_of_player(std::int64_t player_id, DamagedList* damaged = nullptr);
  // Of `ids`, the players seated with `player_id` in a game that was not cancelled (presence:
  // who may see whom).
  std::vector<std::int64_t> players_sharing_a_game(std::int64_t player_id,
                                                   const std::vector<std::int64_t>& ids);
  // "Your games" (my_games): the player's open and running games (at most `active`) and his
  // finished ones (at most `finished`), newest first, cancelled ones never. Walks the index
  // seats_by_player_game: the time grows with the player's own games, not with all games.
  std::vector<GameRecord> recent_games_of_player(std::int64_t player_id, int active, int finished,
                                                 DamagedList* damaged = nullptr);
  // "Games to watch" (lobby.running): running public games that allow spectators, the most
  // recently played first, at most `limit`, none with a seat of `viewer` (0: nobody). Walks
  // the partial index games_to_watch: `limit` rows, whatever the number of running games.
  std::vector<GameRecord> games_to_watch(std::int64_t viewer, int limit,
                                         DamagedList* damaged = nullptr);

  // Running games with a computer seat (resumed at start-up).
  std::vector<std::int64_t> running_games_with_computers();
  // Open games in all, and those a player holds a seat in (several servers count the lobby's
  // caps on the database: lobby.h).
  int open_games_count();
  int open_seats_of(std::int64_t player_id);
  // Open and running games created with a computer seat (kind 'computer', not a takeover),
  // oldest first, each with its creator: what the caps on computer games count
  // (computer_caps.h).
  struct ComputerGame {
    std::int64_t game_id = 0;
    std::int64_t creator = 0;
  };
  std::vector<ComputerGame> live_computer_games();
  // The player's running guided game (its computer is the passive one, tutorial.h), if any.
  std::optional<std::int64_t> running_tutorial_of(std::int64_t player_id);

  // Durable when it returns (its COMMIT was fsynced), or throws. With group commit started, it
  // waits for the writer thread, which writes every action queued meanwhile (of any game) in
  // one transaction: one COMMIT and one fsync for all, each caller released only after it. A
  // failed COMMIT fails every action of the group with the same error.
  void commit_action(const ActionCommit& commit);
  // The same in a transaction of its own, never waiting for the writer thread (which may
  // wait for a lock the caller holds: see docs/server.md, "Threads and ordering").
  void commit_action_direct(const ActionCommit& commit);
  // The same without waiting (group commit started): queues the action for the writer thread
  // and returns. `done` is called once, on the writer thread, after the group's COMMIT is
  // durable (no error) or failed (the error), holding none of the Store's locks, in the order
  // the actions were queued. `commit` (and the state its snapshot points to) must stay valid
  // until then: the caller keeps them in `done`.
  using CommitDone = std::function<void(const std::optional<DbError>& error)>;
  void commit_action_async(const ActionCommit& commit, CommitDone done);
  bool group_commit_started() const { return group_ != nullptr; }
  // Waits until the writer has nothing queued and no completion running (at shutdown, before
  // whatever the completions reference goes away).
  void drain_group_commit();
  // Starts the writer thread of group commit (the server does; unit tests commit directly).
  void start_group_commit();
  // With several servers on one database: every action's write holds its game's lease in the
  // same transaction (GameLeases::hold), and an action of a game this process no longer holds
  // fails with a DbError (not a storage failure) that says so; nothing of it is written.
  void set_leases(GameLeases* leases) { leases_ = leases; }
  // Group commit so far: transactions committed, actions the writer took, actions waiting.
  struct GroupCommitStats {
    std::int64_t groups = 0;
    std::int64_t taken = 0;
    std::size_t queued = 0;
  };
  GroupCommitStats group_commit_stats() const;
  // The same in the Prometheus text format, for GET /metrics (viktory_commit_groups_total,
  // viktory_commit_group_actions_total: their ratio is the actions per fsync).
  std::string group_commit_metrics() const;
  // Removes the last action (seq) and any snapshot after the state it leaves.
  void remove_last_action(std::int64_t game_id, int seq, int current_seat);
  // Marks a running game finished with its result (a game whose stored log reaches the end
  // while its row still says running: stored before the concession fix, docs/rules-notes.md).
  void finish_game(std::int64_t game_id, const nlohmann::json& result,
                   const SeatPlaces& places = {});
  std::vector<ActionRecord> actions(std::int64_t game_id, int after_seq = 0);
  // The latest snapshot with seq <= max_seq.
  std::optional<std::pair<int, GameState>> latest_snapshot(std::int64_t game_id, int max_seq);

  // Returns the new line's id.
  std::int64_t add_chat(std::int64_t game_id, const ChatRecord& chat);
  // The latest `limit` lines of the players' chat (seat set) or of the spectators' (no seat),
  // without the lines an operator hid (chat_hidden).
  std::vector<ChatRecord> recent_chat(std::int64_t game_id, int limit, bool spectators = false);

  // Runs `read` on a connection of the readers (see reading()), held until it returns: for
  // the reads of other files (player_records.cpp). `read` must not call the Store's reads.
  void with_reader(const std::function<void(Database&)>& read) {
    const Reading reader = reading();
    read(reader.db);
  }

  // The connection that writes (and reads inside its own transactions).
  Database& db() { return db_; }
  // Holds one read-only connection (or the write connection without any) until the returned
  // object dies, as a long read does (tests).
  std::shared_ptr<void> hold_reader_for_testing();

 private:
  void migrate();
  // Where reads that need no transaction of the writer go: the read-only connection when
  // there is one (a database file: WAL lets it read while the writer holds a transaction, so
  // sign-ins, lobby lists, chat and game loads never wait for a group commit's fsync).
  // The read-only connection, except inside a transaction of this thread on the write
  // connection (a read there must see that transaction's own writes).
  // A connection to read on, held (its lock) until the Reading dies: a free read-only
  // connection of the pool (waiting for the first one freed when all are busy), or the write
  // connection inside a transaction of this thread, or when there is no pool (in memory).
  struct Pool;
  struct Reading {
    Database& db;
    std::unique_lock<std::recursive_mutex> guard;
    Pool* pool = nullptr;
    int index = -1;
    Reading(Database& d, std::unique_lock<std::recursive_mutex> g, Pool* p, int i)
        : db(d), guard(std::move(g)), pool(p), index(i) {}
    Reading(const Reading&) = delete;
    Reading& operator=(const Reading&) = delete;
    ~Reading();
  };
  Reading reading();
  GameRecord read_game_row(Statement& s);
  void load_seats(Database& db, GameRecord& game);
  std::vector<GameRecord> read_games(Database& db, Statement& s, DamagedList* damaged);
  void write_action(const ActionCommit& commit);  // its rows, inside a transaction
  struct GroupCommit;
  void run_group_commit();

  Database db_;
  std::unique_ptr<Pool> readers_;  // read-only; absent for an in-memory database
  GameLeases* leases_ = nullptr;
  std::unique_ptr<GroupCommit> group_;  // after db_: the writer stops before the database closes
};

}  // namespace viktory::server
