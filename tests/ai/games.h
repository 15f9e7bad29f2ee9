// Games between computer players, for the AI tests: every seat decides through
// ai::choose_action from its own view, legal actions and the events it was shown, as a server
// would call it.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "bot.h"
#include "game.h"

namespace viktory::ai_testing {

struct Table {
  GameState state;
  std::vector<ai::PublicHistory> history;  // per seat
};

// Called before each decision with the table and the deciding seat; return false to stop.
using Visit = std::function<bool(const Table&, int seat)>;
// Called after each decision with the table (after the action), the seat and the action.
using Played = std::function<void(const Table&, int seat, const Action&)>;

// Plays from a new game of `options` and `game_seed` with one config per seat until the game
// ends, `max_actions` were played or `visit` returns false. Returns the final table.
Table play(const Options& options, std::uint64_t game_seed, const std::vector<ai::BotConfig>& seats,
           int max_actions, const Visit& visit = {}, const Played& played = {});

// A config of `level` with a small search budget (tests must stay fast).
ai::BotConfig config(ai::Level level, std::uint64_t seed, int iterations = 8);

Options options(int players, VictoryCondition victory = VictoryCondition::kStandard,
                bool independent = false, TileMix mix = TileMix::kStandard);

}  // namespace viktory::ai_testing
