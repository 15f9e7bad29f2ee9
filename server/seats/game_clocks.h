// The clocks of all games (game_clock.h): stored per game in the database as absolute times
// (so they survive restarts), advanced after every change of a game (RoomObserver), and acted
// upon by sweep() when due: a reminder (the hook), then "over time", after which opponents may
// skip the late seat's turn (game.skip_turn) and, after enough skips, vote to expel it
// (game.vote_expel): it concedes [5.1] or a computer takes its seat, per the game's option.
// Every step is told to the game's watchers (game.clock) with a line for the game log.
//
// Thread-safe: its own (recursive) mutex guards the cache, taken after a room's mutex and before
// the database's (lock order: Hub, room, clocks, database); it is held while a skip acts for
// the late seat, whose commit calls back into on_room_changed. Every call about a room is made
// under that room's mutex (on_room_changed by the room itself; the Hub for the others); the
// database's lock is never held while a room acts (its commit waits for the writer thread).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common.h"
#include "game_clock.h"
#include "game_room.h"
#include "store.h"
#include "turn_hook.h"

namespace viktory::server {
class StandingOrderService;  // standing_order_service.h
}

namespace viktory::server {

class GameClocks : public RoomObserver {
 public:
  // The reminder hook: a seat's deadline is near. Gets a TurnChange of kind `reminder` (who
  // must act, his deadline, public facts only); the Hub hands it to the turn notifications.
  // Called under the room's mutex: it must only queue.
  using Reminder = std::function<void(TurnChange)>;
  GameClocks(Store& store, Clock& clock);

  void set_reminder(Reminder reminder) {
    std::lock_guard lock(mutex_);
    reminder_ = std::move(reminder);
  }
  // Called whenever something new becomes due (the sweeper re-arms its timer).
  void set_due_changed(std::function<void(std::int64_t due)> f) {
    std::lock_guard lock(mutex_);
    due_changed_ = std::move(f);
  }

  // Whose standing orders make a skipped turn's decisions where they cover them (the Hub's).
  void set_standing_orders(StandingOrderService* orders) {
    std::lock_guard lock(mutex_);
    orders_ = orders;
  }

  // Stores a new game's clock options (nothing for a game without a clock).
  void create(GameRoom& room, const ClockOptions& options);
  void on_room_changed(GameRoom& room) override;

  // The sweep, in three steps so that the caller locks each room between them: the games with
  // something due now; acting on one game's due reminder or deadline (`room` locked by the
  // caller, nullptr when the game cannot be opened); when the next thing is due (0: nothing).
  std::vector<std::int64_t> due_games();
  void sweep_game(std::int64_t game_id, GameRoom* room);
  std::int64_t next_due();

  Outcome skip_turn(GameRoom& room, std::int64_t player_id);
  Outcome vote_expel(GameRoom& room, std::int64_t player_id, int seat);
  // game.take_back: the owner of a seat the computer took over (after an expel vote) plays it
  // again; his skips and votes against him start from nothing.
  Outcome take_back(GameRoom& room, std::int64_t player_id);
  // game.vacation: a seated player declares `days` of vacation ahead (game_clock.h); it ends
  // early when he acts. Stored, in the clock's log, told to everyone.
  Outcome declare_vacation(GameRoom& room, std::int64_t player_id, int days);

  // The game's clock as told to clients (game.clock's `clock`), or null without a clock.
  nlohmann::json clock_json(std::int64_t game_id);
  // Sends game.clock to one subscriber (after game.state), if the game has a clock.
  void send(std::int64_t game_id, Subscriber* subscriber);

 private:
  struct Entry {
    ClockOptions options;
    ClockState state;
    // {"at", "text", "msg", "seq", "seat"}: the clock's lines of the game log, each with the
    // seat it is about (the late, skipped, voted against, expelled seat; the one on vacation);
    // "msg" is the line as a message of the catalogs, "text" its English.
    std::vector<nlohmann::json> log;
  };
  Entry* entry(std::int64_t game_id);
  void save(std::int64_t game_id, const Entry& e);
  void tell(GameRoom& room, const std::string& line);
  // A line of the clock's log about `seat` (a message of the catalogs: log_text.h), said at the
  // game's `seq` (-1: unknown); the last kLogKeep kept.
  void add_line(Entry& e, const nlohmann::json& line, int seq, int seat);
  // Ends declared vacations that are over, or whose seat acted since: returns the log lines.
  std::vector<nlohmann::json> end_vacations(GameRoom& room, Entry& e);
  Outcome act_for(GameRoom& room, int seat, const Action& action,
                  ActionSource source = ActionSource::kClock);

  std::recursive_mutex mutex_;
  Store& store_;
  Clock& clock_;
  Reminder reminder_;
  std::function<void(std::int64_t)> due_changed_;
  StandingOrderService* orders_ = nullptr;
  std::map<std::int64_t, std::optional<Entry>> cache_;  // nullopt: no clock
};

}  // namespace viktory::server
