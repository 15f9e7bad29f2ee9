#include "games.h"

#include <stdexcept>

#include "view.h"

namespace viktory::ai_testing {

Table play(const Options& options, std::uint64_t game_seed, const std::vector<ai::BotConfig>& seats,
           int max_actions, const Visit& visit, const Played& played) {
  Table t{new_game(options, game_seed), {}};
  t.history.resize(static_cast<std::size_t>(options.players));
  std::vector<Event> events;
  for (int n = 0; n < max_actions && t.state.phase != Phase::kGameOver; ++n) {
    const int who = decider(t.state);
    if (visit && !visit(t, who)) break;
    const Action a = ai::choose_action(view_for(t.state, who), legal_actions(t.state, who),
                                       t.history[static_cast<std::size_t>(who)],
                                       seats[static_cast<std::size_t>(who)]);
    events.clear();
    if (auto err = apply_in_place(t.state, a, &events)) {
      throw std::logic_error("a computer player's action was refused: " + err->code);
    }
    for (int p = 0; p < options.players; ++p) {
      auto seen = filter_events_for(t.state, events, p);
      auto& h = t.history[static_cast<std::size_t>(p)].events;
      h.insert(h.end(), seen.begin(), seen.end());
    }
    if (played) played(t, who, a);
  }
  return t;
}

ai::BotConfig config(ai::Level level, std::uint64_t seed, int iterations) {
  ai::BotConfig c;
  c.level = level;
  c.seed = seed;
  c.iterations = iterations;
  c.time_budget = std::chrono::milliseconds(0);
  return c;
}

Options options(int players, VictoryCondition victory, bool independent, TileMix mix) {
  Options o;
  o.players = players;
  o.victory = victory;
  o.independent_exploration = independent;
  o.tile_mix = mix;
  return o;
}

}  // namespace viktory::ai_testing
