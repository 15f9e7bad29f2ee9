// The clocks of all games (game_clock.h): stored per game in the database as absolute times
// (so they survive restarts), advanced after every change of a game (RoomObserver), and acted
// upon by sweep() when due: a reminder (the hook), then "over time", after which opponents may
// skip the late seat's turn (game.skip_turn) and, after enough skips, vote to expel it
// (game.vote_expel): it concedes [5.1] or a computer takes its seat, per the game's option.
// Every step is told to the game's watchers (game.clock) with a line for the game log.
//
// Not thread-safe: the Hub serialises all calls (as for rooms).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common.h"
#include "game_clock.h"
#include "game_room.h"
#include "store.h"

namespace viktory::server {

class Lobby;

class GameClocks : public RoomObserver {
 public:
  // The reminder hook: a seat's deadline is near (notifications can use it).
  using Reminder = std::function<void(std::int64_t game_id, int seat, std::int64_t deadline)>;
  GameClocks(Store& store, Clock& clock);

  void set_reminder(Reminder reminder) { reminder_ = std::move(reminder); }
  // Called whenever something new becomes due (the sweeper re-arms its timer).
  void set_due_changed(std::function<void(std::int64_t due)> f) { due_changed_ = std::move(f); }

  // Stores a new game's clock options (nothing for a game without a clock).
  void create(GameRoom& room, const ClockOptions& options);
  void on_room_changed(GameRoom& room) override;

  // Acts on every due reminder and deadline; returns when the next one is due (0: none).
  std::int64_t sweep(Lobby& lobby);

  Outcome skip_turn(GameRoom& room, std::int64_t player_id);
  Outcome vote_expel(GameRoom& room, std::int64_t player_id, int seat);

  // The game's clock as told to clients (game.clock's `clock`), or null without a clock.
  nlohmann::json clock_json(std::int64_t game_id);
  // Sends game.clock to one subscriber (after game.state), if the game has a clock.
  void send(std::int64_t game_id, Subscriber* subscriber);

 private:
  struct Entry {
    ClockOptions options;
    ClockState state;
    std::vector<nlohmann::json> log;  // {"at", "text"}: the clock's lines of the game log
  };
  Entry* entry(std::int64_t game_id);
  void save(std::int64_t game_id, const Entry& e);
  void tell(GameRoom& room, const std::string& line);
  Outcome act_for(GameRoom& room, int seat, const Action& action);

  Store& store_;
  Clock& clock_;
  Reminder reminder_;
  std::function<void(std::int64_t)> due_changed_;
  std::map<std::int64_t, std::optional<Entry>> cache_;  // nullopt: no clock
};

}  // namespace viktory::server
