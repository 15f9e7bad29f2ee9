// GameRoom::notify_turn lives here, beside the hook's value, so the room's own file only calls
// it after a commit.
#include "game_room.h"

namespace viktory::server {

void GameRoom::notify_turn(TurnChange::Kind kind) {
  if (!limits_.on_turn || !state_) return;
  limits_.on_turn(turn_change(kind));
}

TurnChange GameRoom::turn_change(TurnChange::Kind kind) const {
  TurnChange change;
  if (!state_) return change;
  change.kind = kind;
  change.game_id = record_.id;
  change.seq = record_.seq;
  change.turn = state_->turn;
  const int players = std::max(1, record_.options.players);
  change.round = state_->turn <= 0 ? 0 : (state_->turn - 1) / players + 1;
  change.decider_seat = kind == TurnChange::Kind::finished ? -1 : record_.current_seat;
  change.turn_seat = state_->current;
  for (const SeatRecord& seat : record_.seats) {
    change.seats.push_back(TurnChange::Seat{seat.seat, seat.player_id, seat.name});
    if (seat.seat == change.decider_seat) change.decider_player = seat.player_id;
  }
  if (kind == TurnChange::Kind::finished) change.winners = state_->winners;
  for (const auto& [subscriber, player] : subscribers_) {
    if (player != 0) change.on_the_page.insert(player);
  }
  return change;
}

}  // namespace viktory::server
