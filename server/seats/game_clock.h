// Clocks of games: the creator's choice (none, or a time per move with an optional bank and
// vacation days per player) and each game's clock state, as pure functions of an injected
// time. GameClocks (game_clocks.h) stores them and acts on due deadlines.
//
// A seat's clock runs while that seat must act (the decider, also out of turn); it keeps
// running across the seat's own consecutive actions and stops when another seat must act.
// Time used beyond the time per move is taken from the seat's bank, then from its vacation
// days. When the deadline (the time per move plus what remains of bank and vacation) is near,
// a reminder is due; when it has passed the seat is over time: its opponents may skip its
// turn, and after `skips_before_expel` skips they may vote to expel it.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace viktory::server {

// Where the time comes from: the system clock, or a fake one in tests.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual std::int64_t now_ms() = 0;  // milliseconds since the Unix epoch
};

class SystemClock : public Clock {
 public:
  std::int64_t now_ms() override;
};

enum class ExpelTo { kConcede, kComputer };

struct ClockOptions {
  std::int64_t per_move_ms = 0;  // 0: no clock
  std::int64_t bank_ms = 0;      // extra time per seat for the whole game
  int vacation_days = 0;         // per seat for the whole game
  int skips_before_expel = 2;    // skipped turns before the opponents may vote to expel
  ExpelTo expel_to = ExpelTo::kConcede;
  bool enabled() const { return per_move_ms > 0; }
};

// The times per move a game may have: live (2 and 5 minutes) and asynchronous (days).
const std::vector<std::int64_t>& allowed_per_move_ms();

// Reads the `clock` field of game.create; throws std::invalid_argument with a message for
// people when it is not valid.
ClockOptions clock_options_from_json(const nlohmann::json& j);
nlohmann::json clock_options_to_json(const ClockOptions& o);

struct SeatClock {
  std::int64_t bank_ms = 0;
  std::int64_t vacation_ms = 0;
  int skips = 0;                 // turns of this seat skipped by its opponents
  std::vector<int> expel_votes;  // seats that voted to expel this seat (sorted)
  bool expelled = false;
  // A declared vacation (game.vacation): its end (ms since the epoch; 0: none) and the game's
  // seq when it was declared (it ends early when the seat acts after that).
  std::int64_t vacation_until = 0;
  int vacation_seq = 0;
};

enum class ClockStage { kIdle, kRunning, kReminded, kOverdue };

struct ClockState {
  int seat = -1;           // whose clock runs; -1: nobody's
  std::int64_t since = 0;  // when it started
  std::int64_t deadline = 0;
  std::int64_t remind_at = 0;
  ClockStage stage = ClockStage::kIdle;
  std::vector<SeatClock> seats;
  // When the next thing is due (a reminder or the deadline); 0: nothing.
  std::int64_t next_due() const;
};

nlohmann::json clock_state_to_json(const ClockState& s);
ClockState clock_state_from_json(const nlohmann::json& j);

ClockState new_clock_state(const ClockOptions& o, int seats);

// Who must act now changed, or may have: `seat` (-1: nobody, or a computer, who has no clock).
// Returns whether the state changed.
bool clock_on_change(const ClockOptions& o, ClockState& s, int seat, std::int64_t now);

// Declared vacation: `days` whole days taken from the seat's vacation days at once; while it
// lasts the seat's clock stands still (a clock that starts during it counts from its end; one
// that runs is moved on by its length, so the time used before stays used). Refused (a text
// for people) when the seat is already on vacation, over time, or has not that many days left.
std::optional<std::string> clock_declare_vacation(const ClockOptions& o, ClockState& s, int seat,
                                                  int days, int seq, std::int64_t now);
// Ends a seat's vacation at `now` (it acted, or the time is up): what is left of it goes back
// to its vacation days. Returns whether the seat was on vacation.
bool clock_end_vacation(const ClockOptions& o, ClockState& s, int seat, std::int64_t now);

enum class ClockDue { kNothing, kReminder, kOverdue };
// What became due at `now` (at most one step at a time: call again until kNothing).
ClockDue clock_sweep(ClockState& s, std::int64_t now);

// Text for people: "2 days", "5 minutes", "3 hours".
std::string duration_text(std::int64_t ms);

}  // namespace viktory::server
