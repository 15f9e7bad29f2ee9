// Caps on games with computer seats (docs/server.md, "Limits"): a computer player costs CPU on
// every one of its turns, so one player, one client address and the whole server may each have
// only so many such games open or running at once. The count comes from the database (open and
// running games with a computer seat chosen at creation, per creator), so it drops as soon as a
// game ends or is cancelled and it is the same after a restart. The database does not know
// client addresses: games are counted per address only if they were created since the start.
//
// A refusal is the error `too_many_computer_games` (docs/protocol.md) with `limit` and `scope`
// ("player", "address" or "server").
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common.h"
#include "store.h"

namespace viktory::server {

struct ComputerCapsOptions {
  int per_player = 4;   // open or running games with computer seats one player created
  int per_address = 8;  // the same, created from one client address (since the start)
  int total = 128;      // the same, on the whole server
};

class ComputerCaps {
 public:
  ComputerCaps(Store& store, ComputerCapsOptions options);

  // Whether `player`, from `address` (empty: unknown), may create one more game with computer
  // seats. When he may, `hold` is locked: the caller keeps it until the game is written and
  // then calls created(), so that two requests at once cannot both take the last place.
  Outcome admit(std::int64_t player, const std::string& address,
                std::unique_lock<std::mutex>& hold);
  // The game admitted under `hold` was written (id known).
  void created(std::int64_t game_id, const std::string& address);
  // The address a game was created from, if it was created since the start.
  std::string address_of(std::int64_t game_id) const;

  // At a start: the open and running games beyond today's caps (a cap may have been lowered
  // since they were created). The oldest games of each player within his cap, and then the
  // oldest within the server's cap, are within; the others play on, but only with the
  // computer time nobody else needs (JobClass::kBackground).
  std::set<std::int64_t> over_caps();

  const ComputerCapsOptions& options() const { return options_; }

 private:
  Store& store_;
  ComputerCapsOptions options_;
  std::mutex admitting_;  // one admission at a time, held until its game is written
  mutable std::mutex addresses_mutex_;
  std::map<std::int64_t, std::string> address_of_game_;  // games created since the start
};

}  // namespace viktory::server
