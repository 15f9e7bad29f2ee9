#include "lookback.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "evaluate.h"
#include "game.h"
#include "heuristic.h"
#include "rng.h"
#include "search.h"
#include "view.h"

namespace viktory::ai {
namespace {

void apply_or_throw(GameState& s, const Action& a, int seq, std::vector<Event>* events) {
  if (auto error = apply_in_place(s, a, events)) {
    throw std::invalid_argument("look_back: action " + std::to_string(seq) +
                                " does not apply: " + error->code);
  }
}

// A finished game: the winners' shares (1/k each), 0 for the others.
std::vector<double> result_of(const GameState& s) {
  std::vector<double> out(s.players.size(), 0.0);
  for (int w : s.winners) out[static_cast<std::size_t>(w)] = 1.0 / double(s.winners.size());
  return out;
}

// One continuation's outcome for every seat, summing to 1: the winners' shares when the game
// ends; else, after `rounds` rounds, each player still in is judged by the evaluation at the
// start of his next turn (the moment it was fitted for: judged at another player's turn start,
// a player who has just had his turn looks better than he is), and the estimates are scaled.
std::vector<double> play_out(GameState s, int rounds, const HeuristicPlayer& player) {
  const std::size_t n = s.players.size();
  const auto in_game = [&] {
    return static_cast<int>(std::count_if(s.players.begin(), s.players.end(),
                                          [](const auto& p) { return p.in_game(); }));
  };
  const int judge_from = s.turn + std::max(1, rounds) * std::max(1, in_game());
  std::vector<double> judged(n, -1.0);
  int turn_seen = s.turn;
  // A Player Turn takes a few dozen actions; the bound only guards against a loop.
  for (int k = 0; k < 50000 && s.phase != Phase::kGameOver; ++k) {
    if (s.turn != turn_seen) {
      turn_seen = s.turn;
      if (s.turn >= judge_from) {
        const auto me = static_cast<std::size_t>(s.current);
        if (judged[me] >= 0) break;  // a whole round judged
        judged[me] = evaluate(s, s.current);
      }
    }
    const int who = decider(s);
    if (who == kNoPlayer) break;
    if (apply_in_place(s, player.choose(s, who, legal_actions(s, who)))) break;
  }
  if (s.phase == Phase::kGameOver) return result_of(s);
  std::vector<double> out(n, 0.0);
  double sum = 0;
  for (std::size_t p = 0; p < n; ++p) {
    if (!s.players[p].in_game()) continue;
    // Not judged at a turn start of his own (the loop's guard): judged here.
    out[p] = judged[p] >= 0 ? judged[p] : evaluate(s, static_cast<int>(p));
    sum += out[p];
  }
  if (sum > 0) {
    for (double& v : out) v /= sum;
  }
  return out;
}

std::vector<double> chances_at(const GameState& at, int seq, const LookbackSettings& settings,
                               const HeuristicPlayer& player) {
  const std::size_t n = at.players.size();
  std::vector<double> sum(n, 0.0);
  const int playouts = std::max(1, settings.playouts);
  for (int i = 0; i < playouts; ++i) {
    GameState s = at;
    use_own_dice(s, mix_seed(mix_seed(settings.seed, static_cast<std::uint64_t>(seq)),
                             static_cast<std::uint64_t>(i)));
    const std::vector<double> o = play_out(std::move(s), settings.playout_rounds, player);
    for (std::size_t p = 0; p < n; ++p) sum[p] += o[p];
  }
  for (double& v : sum) v /= playouts;
  return sum;
}

bool cancelled(const std::atomic<bool>* cancel) {
  return cancel && cancel->load(std::memory_order_relaxed);
}

// The largest drops of each player between two of his anchor points: with a point at every
// turn, the starts of his own turns (a drop covers his turn and the others' replies); with a
// stride, every point.
std::vector<LookbackDrop> find_drops(const Lookback& lb, std::size_t players,
                                     const LookbackSettings& settings) {
  std::vector<LookbackDrop> out;
  for (std::size_t p = 0; p < players; ++p) {
    std::vector<int> anchors;
    for (std::size_t i = 0; i < lb.points.size(); ++i) {
      const LookbackPoint& pt = lb.points[i];
      if (lb.stride > 1 || pt.final || pt.current == static_cast<int>(p)) {
        anchors.push_back(static_cast<int>(i));
      }
    }
    std::vector<LookbackDrop> mine;
    for (std::size_t k = 0; k + 1 < anchors.size(); ++k) {
      const LookbackPoint& a = lb.points[static_cast<std::size_t>(anchors[k])];
      const LookbackPoint& b = lb.points[static_cast<std::size_t>(anchors[k + 1])];
      const double fall = a.chances[p] - b.chances[p];
      if (fall < settings.min_drop) continue;
      LookbackDrop d;
      d.player = static_cast<int>(p);
      d.from_point = anchors[k];
      d.to_point = anchors[k + 1];
      d.before = a.chances[p];
      d.after = b.chances[p];
      mine.push_back(d);
    }
    std::stable_sort(mine.begin(), mine.end(), [](const LookbackDrop& x, const LookbackDrop& y) {
      return x.before - x.after > y.before - y.after;
    });
    if (mine.size() > static_cast<std::size_t>(std::max(0, settings.drops_per_player))) {
      mine.resize(static_cast<std::size_t>(std::max(0, settings.drops_per_player)));
    }
    out.insert(out.end(), mine.begin(), mine.end());
  }
  return out;
}

}  // namespace

// The one place that sets a state's generator (determinize.cpp builds its own states).
void use_own_dice(GameState& s, std::uint64_t seed) {
  // Its own luck whatever the game's random scheme (as a determinized world's, determinize.cpp):
  // one stream of its own seed.
  s.random_scheme = RandomScheme::kSingleStream;
  s.rng = Rng(seed);
  s.streams = StreamCounters{};
  s.scripted_dice.clear();
}

Lookback look_back(const GameState& start, const std::vector<Action>& actions,
                   const LookbackSettings& settings, const std::atomic<bool>* cancel) {
  // First the whole game once: it must end, and its length sets the stride.
  GameState end = start;
  for (std::size_t i = 0; i < actions.size(); ++i) {
    apply_or_throw(end, actions[i], static_cast<int>(i + 1), nullptr);
  }
  if (end.phase != Phase::kGameOver) {
    throw std::invalid_argument("look_back: the game is not over after its actions");
  }
  Lookback lb;
  const int max_points = std::max(1, settings.max_points);
  lb.stride = std::max(1, (end.turn + max_points - 1) / max_points);

  // The chances at each sampled turn start, then the result.
  const HeuristicPlayer heuristic;
  GameState s = start;
  for (std::size_t i = 0; i < actions.size(); ++i) {
    const int before_turn = s.turn;
    apply_or_throw(s, actions[i], static_cast<int>(i + 1), nullptr);
    if (s.phase == Phase::kGameOver || s.turn == before_turn || s.turn < 1) continue;
    if ((s.turn - 1) % lb.stride != 0) continue;
    if (cancelled(cancel)) {
      lb.complete = false;
      return lb;
    }
    LookbackPoint pt;
    pt.seq = static_cast<int>(i + 1);
    pt.turn = s.turn;
    pt.current = s.current;
    pt.chances = chances_at(s, pt.seq, settings, heuristic);
    lb.points.push_back(std::move(pt));
  }
  LookbackPoint last;
  last.seq = static_cast<int>(actions.size());
  last.turn = end.turn;
  last.current = end.current;
  last.final = true;
  last.chances = result_of(end);
  lb.points.push_back(std::move(last));

  lb.drops = find_drops(lb, end.players.size(), settings);
  if (lb.drops.empty()) return lb;

  // The turn of each drop to search: the player's first turn at or after its start point.
  // Then one walk through the game, with every seat's public history (the events it was
  // shown), asking the search at the player's decisions of that turn.
  const std::size_t n = end.players.size();
  std::vector<PublicHistory> history(n);
  s = start;
  std::vector<int> searched_turn(lb.drops.size(), 0);
  for (std::size_t i = 0; i < actions.size(); ++i) {
    const Action& played = actions[i];
    const int who = decider(s);
    for (std::size_t d = 0; d < lb.drops.size(); ++d) {
      LookbackDrop& drop = lb.drops[d];
      if (drop.differs || who != drop.player || s.current != drop.player) continue;
      const LookbackPoint& from = lb.points[static_cast<std::size_t>(drop.from_point)];
      const LookbackPoint& to = lb.points[static_cast<std::size_t>(drop.to_point)];
      if (static_cast<int>(i) < from.seq || static_cast<int>(i) >= to.seq) continue;
      if (searched_turn[d] == 0) searched_turn[d] = s.turn;
      if (s.turn != searched_turn[d] || drop.decisions_searched >= settings.max_decisions) continue;
      const std::vector<Action> legal = legal_actions(s, who);
      const auto choices = std::count_if(legal.begin(), legal.end(), [](const Action& a) {
        return a.kind != ActionKind::kConcede;
      });
      if (choices < 2) continue;
      if (cancelled(cancel)) {
        lb.complete = false;
        return lb;
      }
      SearchLimits limits;
      limits.seed = mix_seed(settings.seed, static_cast<std::uint64_t>(i + 1));
      limits.iterations = std::max(1, settings.search_iterations);
      limits.cancel = cancel;
      const SearchResult r =
          search_decision(view_for(s, who), legal, history[static_cast<std::size_t>(who)], limits);
      drop.turn = s.turn;
      ++drop.decisions_searched;
      if (!(r.action == played) && r.action.kind != ActionKind::kConcede) {
        drop.differs = true;
        drop.seq = static_cast<int>(i + 1);
        drop.played = played;
        drop.suggested = r.action;
      }
    }
    std::vector<Event> events;
    apply_or_throw(s, played, static_cast<int>(i + 1), &events);
    for (std::size_t p = 0; p < n; ++p) {
      const std::vector<Event> shown = filter_events_for(s, events, static_cast<int>(p));
      history[p].events.insert(history[p].events.end(), shown.begin(), shown.end());
    }
  }
  if (cancelled(cancel)) lb.complete = false;
  return lb;
}

}  // namespace viktory::ai
