#include "search.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>

#include "evaluate.h"
#include "game.h"
#include "heuristic.h"
#include "rng.h"

namespace viktory::ai {
namespace {

// Temperaments of the heuristic the search chooses between. The first is the default one,
// which also plays every other seat in the continuations.
std::vector<HeuristicPlayer> temperaments() {
  std::vector<HeuristicPlayer> out;
  out.emplace_back(HeuristicParams{});
  HeuristicParams bold;
  bold.attack_threshold = 0.55;
  bold.capital_attack_threshold = 0.40;
  bold.defend_risk = 0.45;
  out.emplace_back(bold);
  HeuristicParams careful;
  careful.attack_threshold = 0.85;
  careful.capital_attack_threshold = 0.70;
  careful.defend_risk = 0.18;
  careful.capital_defend_risk = 0.08;
  out.emplace_back(careful);
  HeuristicParams quiet;
  quiet.attack = false;
  out.emplace_back(quiet);
  HeuristicParams builder;
  builder.town_preference = -2;  // upgrades first
  out.emplace_back(builder);
  return out;
}

struct Candidate {
  Action action;
  std::size_t policy = 0;  // temperament that continues the seat's play
  double sum = 0;
  int samples = 0;
  bool alive = true;
  std::vector<double> values;  // by sample (NaN: not tried on it)
  double mean() const { return samples ? sum / samples : -std::numeric_limits<double>::infinity(); }
  void record(std::size_t sample, double v) {
    if (values.size() <= sample) {
      values.resize(sample + 1, std::numeric_limits<double>::quiet_NaN());
    }
    values[sample] = v;
    sum += v;
    ++samples;
  }
};

constexpr std::size_t kMaxCandidates = 8;

bool is_choice(const GameState& s) {
  return s.battle || s.bombard || s.elimination || s.phase == Phase::kSetup;
}

void add_candidate(std::vector<Candidate>& out, const Action& a, std::size_t policy) {
  if (a.kind == ActionKind::kConcede) return;
  for (const Candidate& c : out) {
    if (c.action == a) return;
  }
  Candidate c;
  c.action = a;
  c.policy = policy;
  out.push_back(std::move(c));
}

std::vector<Candidate> candidates(const GameState& det, int me, const std::vector<Action>& legal,
                                  const std::vector<HeuristicPlayer>& players) {
  std::vector<Candidate> out;
  const auto ranked = players[0].rank(det, me, legal);
  if (ranked.empty()) return out;
  add_candidate(out, ranked.front().action, 0);
  if (is_choice(det)) {
    for (const ScoredAction& sa : ranked) {
      if (out.size() >= 6) break;
      add_candidate(out, sa.action, 0);
    }
  } else if (det.phase == Phase::kBuild) {
    for (const ScoredAction& sa : ranked) {
      if (out.size() >= 3) break;
      add_candidate(out, sa.action, 0);
    }
    add_candidate(out, players[4].choose(det, me, legal), 4);
  } else if (det.phase == Phase::kMovement) {
    for (std::size_t v = 1; v < 4; ++v) add_candidate(out, players[v].choose(det, me, legal), v);
    // Tactical alternatives the temperaments may all pass over: each Battle to start now, a
    // Bombard per target, a move into each enemy hex, and stopping here.
    std::vector<int> targets;
    auto hostile = [&](int hex) {
      const HexCell& c = det.hexes[static_cast<std::size_t>(hex)];
      if (c.town_owner != kNoPlayer && c.town_owner != me) return true;
      for (const Unit& u : det.units) {
        if (u.place == UnitPlace::kMap && u.carrier < 0 && u.hex == hex && u.owner != me)
          return true;
      }
      return false;
    };
    for (const Action& a : legal) {
      if (out.size() >= kMaxCandidates) break;
      if (a.kind == ActionKind::kStartBattle) add_candidate(out, a, 0);
    }
    for (const Action& a : legal) {
      if (out.size() >= kMaxCandidates) break;
      if ((a.kind == ActionKind::kBombard || a.kind == ActionKind::kMove) &&
          std::find(targets.begin(), targets.end(), a.hex) == targets.end() && hostile(a.hex)) {
        targets.push_back(a.hex);
        add_candidate(out, a, 0);
      }
    }
    for (const Action& a : legal) {
      if (a.kind == ActionKind::kEndPhase && out.size() < kMaxCandidates) add_candidate(out, a, 0);
    }
  } else if (det.phase == Phase::kReserve && det.options.redeployment) {
    // House rule Redeployment: the best redeployment against the best of everything else.
    for (const bool redeploy : {true, false}) {
      for (const ScoredAction& sa : ranked) {
        if ((sa.action.kind == ActionKind::kRedeploy) != redeploy) continue;
        add_candidate(out, sa.action, 0);
        break;
      }
    }
  }
  // Actions of kinds the heuristic does not know (score 0) are played by its default choice
  // above; they are never dropped from the legal list, so a seat can always act.
  return out;
}

// Ends a continuation early when the time is up or the caller cancels.
struct Stop {
  bool timed = false;
  std::chrono::steady_clock::time_point deadline;
  const std::atomic<bool>* cancel = nullptr;
  bool now() const {
    if (cancel && cancel->load(std::memory_order_relaxed)) return true;
    return timed && std::chrono::steady_clock::now() >= deadline;
  }
};

constexpr double kAborted = -1;  // a continuation cut short by Stop (values are in [0, 1])

double rollout(GameState s, const Candidate& c, int me, int root_turn, int horizon,
               const std::vector<HeuristicPlayer>& players, int max_actions, const Stop& stop) {
  if (apply_in_place(s, c.action)) return std::numeric_limits<double>::quiet_NaN();
  int turn_seen = root_turn;
  int own_turns = 0;
  for (int n = 0; n < max_actions && s.phase != Phase::kGameOver; ++n) {
    if (n % 16 == 15 && stop.now()) return kAborted;
    if (s.turn != turn_seen) {
      turn_seen = s.turn;
      // The seat's turn number `horizon` after this one has begun: judge the position here.
      if (s.current == me && ++own_turns >= horizon) break;
    }
    const int who = decider(s);
    if (who == kNoPlayer) break;
    const auto legal = legal_actions(s, who);
    const HeuristicPlayer& player = who == me ? players[c.policy] : players[0];
    if (apply_in_place(s, player.choose(s, who, legal))) break;
  }
  return evaluate(s, me);
}

}  // namespace

SearchResult search_decision(const GameView& view, const std::vector<Action>& legal,
                             const PublicHistory& history, const SearchLimits& limits) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const int me = view.viewer;
  const auto players = temperaments();
  const std::uint64_t base = mix_seed(limits.seed, static_cast<std::uint64_t>(view.action_count));
  const GameState first = determinize(view, history, mix_seed(base, 0));
  std::vector<Candidate> cands = candidates(first, me, legal, players);
  SearchResult result;
  if (cands.empty()) {
    result.action = legal.front();
    return result;
  }
  result.action = cands.front().action;
  result.candidates = static_cast<int>(cands.size());
  if (cands.size() == 1) {
    result.candidates = 0;
    return result;
  }

  const bool timed = limits.time.count() > 0;
  const int budget = limits.iterations > 0 ? limits.iterations
                     : timed               ? std::numeric_limits<int>::max()
                                           : 96;
  int rounds = 0;
  while ((std::size_t{1} << rounds) < cands.size()) ++rounds;
  int used = 0;
  std::size_t sample = 0;
  bool stop = false;
  Stop stop_rule;
  stop_rule.timed = timed;
  stop_rule.deadline = start + limits.time;
  stop_rule.cancel = limits.cancel;
  auto out_of_time = [&] { return stop_rule.now(); };
  const int horizon = std::max(1, limits.horizon);
  for (int round = 0; round < rounds && !stop; ++round) {
    std::vector<Candidate*> alive;
    for (Candidate& c : cands) {
      if (c.alive) alive.push_back(&c);
    }
    if (alive.size() <= 1) break;
    const int rounds_left = rounds - round;
    const int round_budget =
        (budget == std::numeric_limits<int>::max())
            ? budget
            : std::max<int>(static_cast<int>(alive.size()), (budget - used) / rounds_left);
    const auto round_end = timed
                               ? Clock::now() + (limits.time - (Clock::now() - start)) / rounds_left
                               : Clock::time_point::max();
    int round_used = 0;
    do {
      const GameState det =
          sample == 0 ? first : determinize(view, history, mix_seed(base, sample));
      for (Candidate* c : alive) {
        const double v = rollout(det, *c, me, view.turn, horizon, players,
                                 limits.max_rollout_actions, stop_rule);
        if (v == kAborted) {
          stop = true;  // out of time mid-way: this sample does not count
          break;
        }
        ++used;
        ++round_used;
        if (std::isnan(v)) {
          c->alive = false;  // not playable in this sample (cannot happen with a true view)
          c->samples = 0;
        } else {
          c->record(sample, v);
        }
        if (out_of_time()) {
          stop = true;
          break;
        }
      }
      ++sample;
    } while (!stop && round_used + static_cast<int>(alive.size()) <= round_budget &&
             (!timed || Clock::now() < round_end));
    // The heuristic's own choice always stays in; of the others the better half goes on.
    std::vector<Candidate*> others;
    for (Candidate* c : alive) {
      if (c != &cands.front() && c->alive) others.push_back(c);
    }
    std::stable_sort(others.begin(), others.end(),
                     [](const Candidate* x, const Candidate* y) { return x->mean() > y->mean(); });
    for (std::size_t i = (others.size() + 1) / 2; i < others.size() && !stop; ++i) {
      others[i]->alive = false;
    }
  }
  // The best challenger replaces the heuristic's choice only if it is better on the same
  // samples by a clear margin (paired differences, in standard errors).
  const Candidate& base_choice = cands.front();
  const Candidate* best = nullptr;
  for (const Candidate& c : cands) {
    if (&c == &base_choice || !c.alive || c.samples == 0) continue;
    if (!best || c.mean() > best->mean()) best = &c;
  }
  if (best && base_choice.samples > 0) {
    double sum = 0, sum_sq = 0;
    int n = 0;
    const std::size_t common = std::min(best->values.size(), base_choice.values.size());
    for (std::size_t j = 0; j < common; ++j) {
      if (std::isnan(best->values[j]) || std::isnan(base_choice.values[j])) continue;
      const double d = best->values[j] - base_choice.values[j];
      sum += d;
      sum_sq += d * d;
      ++n;
    }
    if (n >= 2) {
      const double mean = sum / n;
      const double var = std::max(0.0, (sum_sq - n * mean * mean) / (n - 1));
      if (mean > 0 && mean > limits.min_gain * std::sqrt(var / n)) result.action = best->action;
    }
  } else if (best && base_choice.samples == 0) {
    result.action = best->action;  // the heuristic's choice was not playable
  }
  result.overrode = !(result.action == base_choice.action);
  result.rollouts = used;
  return result;
}

}  // namespace viktory::ai
