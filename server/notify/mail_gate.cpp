#include "mail_gate.h"

namespace viktory::notify {

bool TurnMailGate::admit(std::int64_t player, std::int64_t game, int turn, bool on_game_page) {
  if (on_game_page) return false;
  std::lock_guard lock(mutex_);
  const auto [it, inserted] = last_mailed_turn_.try_emplace({game, player}, turn);
  if (inserted) return true;
  if (turn <= it->second) return false;
  it->second = turn;
  return true;
}

void TurnMailGate::forget_game(std::int64_t game) {
  std::lock_guard lock(mutex_);
  last_mailed_turn_.erase(last_mailed_turn_.lower_bound({game, INT64_MIN}),
                          last_mailed_turn_.upper_bound({game, INT64_MAX}));
}

std::size_t TurnMailGate::size() const {
  std::lock_guard lock(mutex_);
  return last_mailed_turn_.size();
}

}  // namespace viktory::notify
