// Replaying every game a database holds, as a check after moving it (viktory-move-db) or
// restoring a backup: each game's stored actions are applied from its seed (or its stored start),
// every stored snapshot must equal the state replayed to its action, and no action may lie past
// the game's count. What does not hold is listed, one line per game; nothing is written.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "store.h"

namespace viktory::server {

struct StoredCheck {
  int games = 0;               // games read (every status)
  std::int64_t actions = 0;    // actions replayed
  std::int64_t snapshots = 0;  // snapshots compared with the replayed state
  std::vector<std::string> problems;
};

StoredCheck check_every_game(Store& store);

}  // namespace viktory::server
