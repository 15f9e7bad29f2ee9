#include "random_play.h"

#include <algorithm>
#include <climits>
#include <stdexcept>

namespace viktory::testing {
namespace {

// Distance from each hex to the nearest enemy Town/City or enemy unit on the map, worked out
// on demand (most hexes are never asked about).
class EnemyDistance {
 public:
  EnemyDistance(const GameState& s, int player)
      : board_(s.board()), known_(static_cast<std::size_t>(board_.size()), -1) {
    for (int h = 0; h < board_.size(); ++h) {
      const int owner = s.hexes[h].town_owner;
      if (owner != kNoPlayer && owner != player) targets_.push_back(h);
    }
    for (const Unit& u : s.units) {
      if (u.place == UnitPlace::kMap && u.owner != player) targets_.push_back(u.hex);
    }
  }

  int operator()(int hex) {
    int& d = known_[static_cast<std::size_t>(hex)];
    if (d < 0) {
      d = INT_MAX;
      for (int t : targets_) d = std::min(d, board_.distance(hex, t));
    }
    return d;
  }

 private:
  const Board& board_;
  std::vector<int> targets_;
  std::vector<int> known_;
};

// Relative odds of picking an action (End Phase and the retreat decision are handled apart).
int weight_of(const GameState& s, const Action& a, EnemyDistance& distance) {
  switch (a.kind) {
    case ActionKind::kStartBattle:
      return 40;  // it must be fought before the phase ends anyway
    case ActionKind::kBombard:
      return 20;
    case ActionKind::kMove:
    case ActionKind::kDisembark: {
      const int before = distance(s.units[a.unit].hex);
      const int after = distance(a.hex);
      if (after < before) return 6;
      return after == before ? 2 : 1;
    }
    default:
      return 1;
  }
}

// Odds (one in N) of ending the phase while something else could still be done.
std::size_t end_phase_one_in(Phase phase) {
  switch (phase) {
    case Phase::kBuild:
      return 6;
    case Phase::kMovement:
      return 20;
    case Phase::kReserve:
      return 20;
    default:
      return 8;
  }
}

}  // namespace

Action choose_action(const GameState& state, const std::vector<Action>& legal, Chooser& chooser,
                     int concede_one_in) {
  const int who = decider(state);
  std::vector<Action> options;
  const Action* end_phase = nullptr;
  const Action* continue_battle = nullptr;
  for (const Action& a : legal) {
    if (a.kind == ActionKind::kConcede) continue;
    // [15.5] Every Town could be relocated instead of building; a player who did that as
    // often as he builds would hardly grow. (No draw at all in games without the rule.)
    if (a.kind == ActionKind::kRemoveTown && chooser.below(8) != 0) continue;
    if (a.kind == ActionKind::kEndPhase) {
      end_phase = &a;
    } else if (a.kind == ActionKind::kContinueBattle) {
      continue_battle = &a;
    } else {
      options.push_back(a);
    }
  }
  if (concede_one_in > 0 && chooser.below(static_cast<std::size_t>(concede_one_in)) == 0) {
    return act::concede(who);
  }
  // [12.3 step 3] Fight on three times in four, however many ways there are to retreat.
  if (continue_battle && (options.empty() || chooser.below(4) != 0)) return *continue_battle;
  // End the phase now and then so turns advance; always when nothing else is left.
  if (end_phase && (options.empty() || chooser.below(end_phase_one_in(state.phase)) == 0)) {
    return *end_phase;
  }
  if (options.empty()) return act::concede(who);

  const bool weighted =
      state.phase == Phase::kMovement && !state.battle && !state.bombard && !state.elimination;
  if (!weighted) return options[chooser.below(options.size())];
  EnemyDistance distance(state, who);
  std::vector<int> weights;
  weights.reserve(options.size());
  std::size_t total = 0;
  for (const Action& a : options) {
    weights.push_back(weight_of(state, a, distance));
    total += static_cast<std::size_t>(weights.back());
  }
  std::size_t pick = chooser.below(total);
  for (std::size_t i = 0; i < options.size(); ++i) {
    const auto w = static_cast<std::size_t>(weights[i]);
    if (pick < w) return options[i];
    pick -= w;
  }
  return options.back();
}

Action random_action(const GameState& state, Chooser& chooser, int concede_one_in) {
  return choose_action(state, legal_actions(state, decider(state)), chooser, concede_one_in);
}

PlayStats play_random_game(
    GameState& state, Chooser& chooser, int max_actions,
    const std::function<void(const GameState&, const Action&, const std::vector<Event>&)>& after) {
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
