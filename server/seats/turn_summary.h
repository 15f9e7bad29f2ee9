// What a turn notification tells beyond whose turn it is: what happened since the recipient
// last acted, and the deadline of the clock. Built per recipient from the events filtered for
// him (filter_events_for), replayed from the database like a catch-up (catch_up.h), never from
// the whole state: a seat is told what his own game view showed him, a group chat what a
// spectator sees (under independent exploration only the hexes every player knows). Only
// battles, captures and players leaving are told, by seat name and hex label: no terrain.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "notification_text.h"
#include "store.h"

namespace viktory::server {

// At most this many stored actions are replayed for one summary (the latest ones).
inline constexpr int kMaxSummarySteps = 200;

struct Summary {
  std::vector<notify::Happening> happened;
  int round = 0;       // of the state at `until`
  int turn_seat = -1;  // whose Player Turn it is then
};

// What `viewer` (a seat, or kSpectator) was shown of the actions after `since` up to `until`
// of the stored game `record`. Throws DamagedGame when the log does not replay.
Summary summarize(Store& reader, const GameRecord& record, int viewer, int since, int until);

// The seq of `seat`'s last action in the stored log (0: none yet).
int last_action_of(Store& reader, std::int64_t game_id, int seat);

// The deadline (ms since the epoch) of the game's clock while it runs for `seat`; nullopt
// without a clock or when it is not his.
std::optional<std::int64_t> clock_deadline(Store& reader, std::int64_t game_id, int seat);

}  // namespace viktory::server
