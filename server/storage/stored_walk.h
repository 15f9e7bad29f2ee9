// Walking a stored game forward from the snapshot nearest a seq: what replay pages and
// catch-ups ("since your last turn") both do, outside every game lock, on a read-only Store.
#pragma once

#include <vector>

#include "game.h"
#include "store.h"

namespace viktory::server {

class StoredWalk {
 public:
  // Starts at the latest snapshot at or before `from` (the seed's new game without one) and
  // applies stored actions up to `from`. Throws DamagedGame when the log cannot be read, has a
  // gap, or an action no longer applies.
  StoredWalk(Store& store, const GameRecord& record, int from);

  // Applies the next stored action (its events into `events` when given).
  void step(std::vector<Event>* events);
  // The stored action step() applies next (a default Action past the end of the log).
  const Action& next_action() const;
  // Who took it for its seat (action_source.h); kPlayer past the end of the log.
  ActionSource next_source() const;

  const GameState& state() const { return state_; }
  int seq() const { return seq_; }

 private:
  std::string where_;
  GameState state_;
  int seq_ = 0;
  std::vector<ActionRecord> actions_;
  std::vector<ActionRecord>::const_iterator next_;
};

}  // namespace viktory::server
