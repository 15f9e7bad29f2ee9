#include "bot.h"

#include <stdexcept>

#include "heuristic.h"
#include "rng.h"
#include "search.h"

namespace viktory::ai {

std::string_view to_string(Level level) {
  switch (level) {
    case Level::kRandom:
      return "random";
    case Level::kHeuristic:
      return "heuristic";
    case Level::kSearch:
      return "search";
    case Level::kPassive:
      return "passive";
  }
  return "unknown";
}

std::optional<Level> level_from_string(std::string_view name) {
  for (Level l : {Level::kRandom, Level::kHeuristic, Level::kSearch, Level::kPassive}) {
    if (to_string(l) == name) return l;
  }
  return std::nullopt;
}

Action choose_action(const GameView& view, const std::vector<Action>& legal,
                     const PublicHistory& history, const BotConfig& config, DecisionInfo* info) {
  if (legal.empty()) throw std::invalid_argument("choose_action: no legal action to choose from");
  if (view.viewer < 0 || view.viewer >= static_cast<int>(view.players.size())) {
    throw std::invalid_argument("choose_action: the view must be a seat's");
  }
  if (info) *info = DecisionInfo{};
  std::vector<const Action*> playable;
  for (const Action& a : legal) {
    if (a.kind != ActionKind::kConcede) playable.push_back(&a);
  }
  if (playable.empty()) return legal.front();  // conceding is all that is left
  if (playable.size() == 1) return *playable.front();

  switch (config.level) {
    case Level::kRandom: {
      Rng rng(config.seed ^ (0x51ED2701ULL * static_cast<std::uint64_t>(view.action_count + 1)));
      return *playable[static_cast<std::size_t>(rng.below(playable.size()))];
    }
    case Level::kHeuristic: {
      const GameState own = determinize(view, history, config.seed);
      const Action a = HeuristicPlayer().choose(own, view.viewer, legal);
      return a.kind == ActionKind::kConcede ? *playable.front() : a;
    }
    case Level::kPassive: {
      for (const Action* a : playable) {
        if (a->kind == ActionKind::kEndPhase) return *a;
      }
      return *playable.front();
    }
    case Level::kSearch:
      break;
  }
  SearchLimits limits;
  limits.seed = config.seed;
  limits.cancel = config.cancel;
  limits.iterations = config.iterations;
  limits.time = config.time_budget;
  limits.horizon = config.horizon;
  limits.min_gain = config.min_gain;
  if (limits.iterations <= 0 && config.time_budget.count() <= 0) {
    limits.iterations = kDefaultIterations;
  }
  const SearchResult r = search_decision(view, legal, history, limits);
  if (info) {
    info->candidates = r.candidates;
    info->rollouts = r.rollouts;
    info->overrode = r.overrode;
  }
  for (const Action& a : legal) {
    if (a == r.action && a.kind != ActionKind::kConcede) return a;
  }
  return *playable.front();  // defensive: the search only proposes legal actions
}

}  // namespace viktory::ai
