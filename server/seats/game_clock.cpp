#include "game_clock.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace viktory::server {
namespace {

using nlohmann::json;

constexpr std::int64_t kMinute = 60 * 1000;
constexpr std::int64_t kHour = 60 * kMinute;
constexpr std::int64_t kDay = 24 * kHour;

const char* stage_name(ClockStage s) {
  switch (s) {
    case ClockStage::kIdle:
      return "idle";
    case ClockStage::kRunning:
      return "running";
    case ClockStage::kReminded:
      return "reminded";
    case ClockStage::kOverdue:
      return "overdue";
  }
  return "idle";
}

ClockStage stage_from(const std::string& s) {
  if (s == "running") return ClockStage::kRunning;
  if (s == "reminded") return ClockStage::kReminded;
  if (s == "overdue") return ClockStage::kOverdue;
  return ClockStage::kIdle;
}

std::int64_t int_in(const json& j, const char* key, std::int64_t lo, std::int64_t hi,
                    std::int64_t fallback) {
  if (!j.contains(key) || j[key].is_null()) return fallback;
  if (!j[key].is_number_integer()) {
    throw std::invalid_argument(std::string("clock.") + key + " must be an integer");
  }
  const std::int64_t v = j[key].get<std::int64_t>();
  if (v < lo || v > hi) {
    throw std::invalid_argument(std::string("clock.") + key + " must be from " +
                                std::to_string(lo) + " to " + std::to_string(hi));
  }
  return v;
}

}  // namespace

std::int64_t SystemClock::now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

const std::vector<std::int64_t>& allowed_per_move_ms() {
  static const std::vector<std::int64_t> kAllowed = {2 * kMinute, 5 * kMinute, 1 * kDay, 2 * kDay,
                                                     3 * kDay,    5 * kDay,    7 * kDay, 14 * kDay};
  return kAllowed;
}

ClockOptions clock_options_from_json(const json& j) {
  ClockOptions o;
  if (j.is_null()) return o;
  if (!j.is_object()) throw std::invalid_argument("clock must be an object or null");
  const std::int64_t per_move_seconds = int_in(j, "per_move_seconds", 0, 14 * 86400, 0);
  o.per_move_ms = per_move_seconds * 1000;
  const auto& allowed = allowed_per_move_ms();
  if (o.per_move_ms != 0 &&
      std::find(allowed.begin(), allowed.end(), o.per_move_ms) == allowed.end()) {
    throw std::invalid_argument(
        "clock.per_move_seconds is 120, 300 (live) or 1, 2, 3, 5, 7 or 14 days");
  }
  o.bank_ms = int_in(j, "bank_seconds", 0, 30 * 86400, 0) * 1000;
  o.vacation_days = static_cast<int>(int_in(j, "vacation_days", 0, 30, 0));
  o.skips_before_expel = static_cast<int>(int_in(j, "skips_before_expel", 1, 10, 2));
  const std::string expel = j.value("expel", std::string("concede"));
  if (expel == "concede") {
    o.expel_to = ExpelTo::kConcede;
  } else if (expel == "computer") {
    o.expel_to = ExpelTo::kComputer;
  } else {
    throw std::invalid_argument("clock.expel is \"concede\" or \"computer\"");
  }
  if (!o.enabled() && (o.bank_ms != 0 || o.vacation_days != 0)) {
    throw std::invalid_argument("a bank or vacation days need a time per move");
  }
  return o;
}

json clock_options_to_json(const ClockOptions& o) {
  return json{{"per_move_seconds", o.per_move_ms / 1000},
              {"bank_seconds", o.bank_ms / 1000},
              {"vacation_days", o.vacation_days},
              {"skips_before_expel", o.skips_before_expel},
              {"expel", o.expel_to == ExpelTo::kComputer ? "computer" : "concede"}};
}

std::int64_t ClockState::next_due() const {
  switch (stage) {
    case ClockStage::kRunning:
      return remind_at;
    case ClockStage::kReminded:
      return deadline;
    default:
      return 0;
  }
}

json clock_state_to_json(const ClockState& s) {
  json seats = json::array();
  for (const SeatClock& c : s.seats) {
    seats.push_back(json{{"bank_ms", c.bank_ms},
                         {"vacation_ms", c.vacation_ms},
                         {"skips", c.skips},
                         {"expel_votes", c.expel_votes},
                         {"expelled", c.expelled},
                         {"vacation_until", c.vacation_until},
                         {"vacation_seq", c.vacation_seq}});
  }
  return json{{"seat", s.seat},
              {"since", s.since},
              {"deadline", s.deadline},
              {"remind_at", s.remind_at},
              {"stage", stage_name(s.stage)},
              {"seats", std::move(seats)}};
}

ClockState clock_state_from_json(const json& j) {
  ClockState s;
  s.seat = j.at("seat").get<int>();
  s.since = j.at("since").get<std::int64_t>();
  s.deadline = j.at("deadline").get<std::int64_t>();
  s.remind_at = j.at("remind_at").get<std::int64_t>();
  s.stage = stage_from(j.at("stage").get<std::string>());
  for (const json& c : j.at("seats")) {
    SeatClock seat;
    seat.bank_ms = c.at("bank_ms").get<std::int64_t>();
    seat.vacation_ms = c.at("vacation_ms").get<std::int64_t>();
    seat.skips = c.at("skips").get<int>();
    seat.expel_votes = c.at("expel_votes").get<std::vector<int>>();
    seat.expelled = c.at("expelled").get<bool>();
    // Clocks stored before declared vacations have neither.
    seat.vacation_until = c.value("vacation_until", std::int64_t{0});
    seat.vacation_seq = c.value("vacation_seq", 0);
    s.seats.push_back(std::move(seat));
  }
  return s;
}

ClockState new_clock_state(const ClockOptions& o, int seats) {
  ClockState s;
  for (int i = 0; i < seats; ++i) {
    SeatClock c;
    c.bank_ms = o.bank_ms;
    c.vacation_ms = o.vacation_days * kDay;
    s.seats.push_back(std::move(c));
  }
  return s;
}

bool clock_on_change(const ClockOptions& o, ClockState& s, int seat, std::int64_t now) {
  if (seat == s.seat) return false;  // the same seat acts on: its clock keeps running
  if (s.seat >= 0 && s.seat < static_cast<int>(s.seats.size())) {
    // The time used beyond the time per move comes from the bank, then the vacation days.
    SeatClock& prev = s.seats[static_cast<std::size_t>(s.seat)];
    std::int64_t over = std::max<std::int64_t>(0, now - s.since - o.per_move_ms);
    const std::int64_t from_bank = std::min(over, prev.bank_ms);
    prev.bank_ms -= from_bank;
    over -= from_bank;
    prev.vacation_ms -= std::min(over, prev.vacation_ms);
  }
  s.seat = seat;
  s.since = now;
  if (seat < 0 || seat >= static_cast<int>(s.seats.size())) {
    s.seat = -1;
    s.deadline = s.remind_at = 0;
    s.stage = ClockStage::kIdle;
    return true;
  }
  const SeatClock& c = s.seats[static_cast<std::size_t>(seat)];
  // On a declared vacation the clock starts when it ends.
  s.since = std::max(now, c.vacation_until);
  s.deadline = s.since + o.per_move_ms + c.bank_ms + c.vacation_ms;
  // The reminder: a quarter of the time per move before the deadline.
  s.remind_at = s.deadline - o.per_move_ms / 4;
  s.stage = ClockStage::kRunning;
  return true;
}

std::optional<std::string> clock_declare_vacation(const ClockOptions& o, ClockState& s, int seat,
                                                  int days, int seq, std::int64_t now) {
  if (seat < 0 || seat >= static_cast<int>(s.seats.size())) return "no such seat";
  SeatClock& c = s.seats[static_cast<std::size_t>(seat)];
  if (c.vacation_until > now) return "you are on vacation already";
  const std::int64_t length = std::int64_t{days} * kDay;
  if (days < 1 || length > c.vacation_ms) {
    return "you have " + std::to_string(c.vacation_ms / kDay) + " whole days of vacation left";
  }
  const bool running = s.seat == seat;
  if (running && s.stage == ClockStage::kOverdue) return "you are over time: play first";
  if (running && s.deadline - now < length) {
    return "your clock has less time left than that; play first";
  }
  (void)o;
  c.vacation_ms -= length;
  c.vacation_until = now + length;
  c.vacation_seq = seq;
  if (running) {
    // Taken from the vacation days, so the deadline stays; the time per move and the bank are
    // not used while it lasts.
    s.since += length;
    if (s.stage == ClockStage::kReminded && now < s.remind_at) s.stage = ClockStage::kRunning;
  }
  return std::nullopt;
}

bool clock_end_vacation(const ClockOptions& o, ClockState& s, int seat, std::int64_t now) {
  if (seat < 0 || seat >= static_cast<int>(s.seats.size())) return false;
  SeatClock& c = s.seats[static_cast<std::size_t>(seat)];
  if (c.vacation_until == 0) return false;
  const std::int64_t unused = std::max<std::int64_t>(0, c.vacation_until - now);
  c.vacation_ms += unused;
  c.vacation_until = 0;
  c.vacation_seq = 0;
  if (s.seat == seat && unused > 0) {
    // Its clock counts from now: as if the vacation had been this long (the deadline stays).
    s.since -= unused;
    s.deadline = s.since + o.per_move_ms + c.bank_ms + c.vacation_ms;
    s.deadline = std::max(s.deadline, now);
    s.remind_at = s.deadline - o.per_move_ms / 4;
  }
  return true;
}

ClockDue clock_sweep(ClockState& s, std::int64_t now) {
  if (s.stage == ClockStage::kRunning && now >= s.remind_at) {
    s.stage = ClockStage::kReminded;
    return ClockDue::kReminder;
  }
  if (s.stage == ClockStage::kReminded && now >= s.deadline) {
    s.stage = ClockStage::kOverdue;
    return ClockDue::kOverdue;
  }
  return ClockDue::kNothing;
}

std::string duration_text(std::int64_t ms) {
  const auto unit = [](std::int64_t n, const char* one) {
    return std::to_string(n) + " " + one + (n == 1 ? "" : "s");
  };
  if (ms >= kDay && ms % kDay == 0) return unit(ms / kDay, "day");
  if (ms >= kHour) return unit(ms / kHour, "hour");
  if (ms >= kMinute) return unit(ms / kMinute, "minute");
  return unit(ms / 1000, "second");
}

}  // namespace viktory::server
