// Spectators of a game shown some turns behind (SpectatorMode::kDelayed): the delayed state,
// rebuilt from the log and advanced as turns pass. Part of GameRoom (game_room.h).
#include <stdexcept>

#include "game_room.h"
#include "view.h"

namespace viktory::server {

bool GameRoom::spectators_delayed() const {
  return record_.status == GameStatus::kRunning && delayed_.has_value();
}

const GameState& GameRoom::spectator_state() const {
  return spectators_delayed() ? *delayed_ : *state_;
}

int GameRoom::spectator_seq() const { return spectators_delayed() ? delayed_seq_ : record_.seq; }

bool GameRoom::spectators_hear_players() const { return !spectators_delayed(); }

void GameRoom::rebuild_delayed() {
  delayed_.reset();
  delayed_seq_ = 0;
  if (record_.status != GameStatus::kRunning || record_.spectators != SpectatorMode::kDelayed ||
      !state_) {
    return;
  }
  // Actions of turns at most `delay` behind the live turn; the log's turns never decrease.
  const int limit = state_->turn - record_.spectator_delay;
  int target = 0;
  while (target < static_cast<int>(log_.size()) &&
         log_[static_cast<std::size_t>(target)].turn <= limit) {
    ++target;
  }
  std::optional<std::pair<int, GameState>> snapshot = store_.latest_snapshot(record_.id, target);
  GameState state = snapshot ? std::move(snapshot->second)
                             : new_game(record_.options, record_.seed, record_.random_scheme);
  for (int i = snapshot ? snapshot->first : 0; i < target; ++i) {
    if (auto error = apply_in_place(state, log_[static_cast<std::size_t>(i)].action)) {
      throw DamagedGame("game " + std::to_string(record_.id) + ": stored action " +
                        std::to_string(i + 1) + " no longer applies: " + error->code);
    }
  }
  delayed_ = std::move(state);
  delayed_seq_ = target;
}

void GameRoom::advance_delayed() {
  if (!spectators_delayed()) return;
  const int limit = state_->turn - record_.spectator_delay;
  std::vector<Subscriber*> spectators;
  for (auto& [subscriber, player] : subscribers_) {
    if (viewer_for(player) == kSpectator) spectators.push_back(subscriber);
  }
  while (delayed_seq_ < static_cast<int>(log_.size()) &&
         log_[static_cast<std::size_t>(delayed_seq_)].turn <= limit) {
    std::vector<Event> events;
    if (auto error = apply_in_place(*delayed_, log_[static_cast<std::size_t>(delayed_seq_)].action,
                                    &events)) {
      throw std::runtime_error("delayed replay failed at action " +
                               std::to_string(delayed_seq_ + 1) + ": " + error->code);
    }
    ++delayed_seq_;
    if (spectators.empty()) continue;
    const Message update =
        update_message(kSpectator, *delayed_, Step{delayed_seq_, std::move(events)});
    for (Subscriber* s : spectators) board_.deliver(s, update, record_.id, *state_);
  }
}

}  // namespace viktory::server
