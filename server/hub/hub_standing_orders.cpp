// The Hub's side of standing orders (standing_order_service.h): applying those that are due.
#include <spdlog/spdlog.h>

#include "hub.h"

namespace viktory::server {

void Hub::sweep_standing_orders() {
  // An order applied may bring the next decision of the same absent player (several
  // casualties in a row): again until nothing is due now, within a bound per sweep (the rest
  // is due at once, so the sweeper comes straight back).
  constexpr int kRoundsPerSweep = 64;
  for (int round = 0; round < kRoundsPerSweep; ++round) {
    const std::vector<StandingOrderService::Due> due = standing_->take_due();
    if (due.empty()) return;
    for (const StandingOrderService::Due& d : due) {
      std::optional<ComputerDecision> decision;
      try {
        // Like a request: the Lobby lock to find the room, then the room's lock alone.
        std::shared_ptr<GameRoom> room;
        std::unique_lock<std::mutex> room_lock;
        if (lock_room(d.game_id, room, room_lock)) continue;  // gone, damaged or unavailable
        decision = standing_->decide(*room, d);
      } catch (const std::exception& e) {
        spdlog::error("standing_order_failed game={} error=\"{}\"", d.game_id, e.what());
        continue;
      }
      // The path of a player's action, as his decision (ActionSource::kStandingOrder); dropped
      // there if the game moved on or he came back meanwhile.
      if (decision) apply_computer_decision(*decision);
    }
  }
}

}  // namespace viktory::server
