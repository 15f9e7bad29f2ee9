#include "random_play.h"

#include <stdexcept>

namespace viktory::testing {

Action random_action(const GameState& state, Chooser& chooser, int concede_one_in) {
  const int who = decider(state);
  auto actions = legal_actions(state, who);
  std::vector<Action> preferred;
  Action end_phase{};
  bool can_end = false;
  for (const Action& a : actions) {
    if (a.kind == ActionKind::kConcede) continue;
    if (a.kind == ActionKind::kEndPhase) {
      end_phase = a;
      can_end = true;
      continue;
    }
    preferred.push_back(a);
  }
  if (concede_one_in > 0 && chooser.below(static_cast<std::size_t>(concede_one_in)) == 0) {
    return act::concede(who);
  }
  // End the phase with some probability so turns advance; always when nothing else is left.
  if (can_end && (preferred.empty() || chooser.below(8) == 0)) return end_phase;
  if (preferred.empty()) return act::concede(who);
  return preferred[chooser.below(preferred.size())];
}

PlayStats play_random_game(GameState& state, Chooser& chooser, int max_actions,
                           const std::function<void(const GameState&, const Action&,
                                                    const std::vector<Event>&)>& after) {
  PlayStats stats;
  std::vector<Event> events;
  while (state.phase != Phase::kGameOver && stats.actions < max_actions) {
    const Action a = random_action(state, chooser);
    events.clear();
    if (auto err = apply_in_place(state, a, &events)) {
      throw std::logic_error("legal action refused: " + err->code + ": " + err->message);
    }
    ++stats.actions;
    if (after) after(state, a, events);
  }
  stats.finished = state.phase == Phase::kGameOver;
  return stats;
}

}  // namespace viktory::testing
