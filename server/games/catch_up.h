// `game.since`: what a seated player needs to catch up after being away ("since your last
// turn"): the steps of the game after a given seq (by default after his own last action), each
// with exactly the events and log lines he was shown live (or would have been), never more.
//
// Built like a replay: from the database through a read-only connection of its own (WAL lets
// it read while the game logic writes), outside the Hub's lock and every room's lock, by
// replaying the stored actions from the latest snapshot. Each step's events are filtered for
// the seat with the state after that step (filter_events_for), as live updates are, so under
// independent exploration it names no terrain he did not know then. At most `max_steps` steps
// (the latest); the earlier ones are counted in `skipped`. Every step says whose action it was
// (`player`) and, when that player did not take it himself, who did (`by`); the clock's lines
// about the seat come with them (`clock`), so that a player who was skipped or expelled reads
// his own seat's story too.
#pragma once

#include <cstdint>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>

#include "common.h"
#include "store.h"

namespace viktory::server {

struct CatchUpLimits {
  int max_steps = 200;
};

class CatchUps {
 public:
  // `db_path`: the database the Store of the game logic has opened and migrated.
  CatchUps(std::string db_path, CatchUpLimits limits);

  // The whole request: the reply message {"type":"game.since",...} or a failure (not_found,
  // not_seated, not_running, bad_message, game_damaged, internal). Never throws. Thread-safe
  // (one catch-up is built at a time; each is bounded by max_steps).
  std::variant<nlohmann::json, Failure> answer(std::int64_t player_id,
                                               const nlohmann::json& request);

  // The reply for `seat` of the game `record`: steps after `since` (default: the seat's own
  // last action) up to record.seq. Throws DamagedGame when the stored log does not add up.
  static nlohmann::json build(Store& store, const GameRecord& record, int seat,
                              std::optional<int> since, int max_steps);

  // The seq of the last action the seat's player took himself (not the computer, a standing
  // order or the clock for him) in the stored log, 0 if he has not acted yet.
  static int last_action_of(Store& store, std::int64_t game_id, int seat);

  // The clock's lines about `seat` (skips, votes, expulsion, takeover, taken back, vacation,
  // reminders) said at a seq from `from` to `to`, as stored in its log (game_clocks.h).
  static nlohmann::json clock_lines_of(Store& store, std::int64_t game_id, int seat, int from,
                                       int to);

 private:
  std::string db_path_;
  CatchUpLimits limits_;
  std::mutex mutex_;
  std::optional<Store> store_;  // opened on first use
};

}  // namespace viktory::server
