// Fair play's reveal round at the room level (server/games/game_room_reveal.cpp), for tests about
// something else: every human seat commits (if it has no commitment yet) and reveals, as the
// browser client does by itself; the last reveal starts the game.
#pragma once

#include <cstdint>

#include "fair.h"
#include "game_room.h"

namespace viktory::server::testing {

// A contribution made from the player's id (tests only: a browser draws 32 random bytes).
inline protocol::fair::Contribution test_contribution(std::int64_t player_id) {
  protocol::fair::Contribution c{};
  for (std::size_t i = 0; i < c.size(); ++i) {
    c[i] = static_cast<std::uint8_t>((player_id >> (8 * (i % 8))) ^ (0x5a + i));
  }
  return c;
}

inline std::string test_commitment(std::int64_t player_id) {
  return protocol::fair::to_hex(
      protocol::fair::contribution_commitment(test_contribution(player_id)));
}

// Under the room's lock (the caller holds it, as for join).
inline void complete_reveal_round(GameRoom& room) {
  if (!room.reveal_deadline()) return;
  const std::vector<SeatRecord> seats = room.record().seats;
  for (const SeatRecord& s : seats) {
    if (s.computer.empty() && s.contribution_commitment.empty()) {
      room.commit(s.player_id, test_commitment(s.player_id));
    }
  }
  for (const SeatRecord& s : seats) {
    if (s.computer.empty() && room.reveal_deadline()) {
      room.contribute(s.player_id, protocol::fair::to_hex(test_contribution(s.player_id)));
    }
  }
}

}  // namespace viktory::server::testing
