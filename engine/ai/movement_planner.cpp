#include "movement_planner.h"

#include <algorithm>
#include <array>
#include <map>

#include "game.h"
#include "heuristic_parts.h"

namespace viktory::ai {
namespace {

using namespace heuristic_parts;

// ---------------------------------------------------------------------------------------------
// Movement & Combat [9.0-12.0]

enum class Job : std::uint8_t { kNone, kAttack, kDefend, kPosition, kGarrison, kFerry };

class MovementPlanner {
 public:
  MovementPlanner(const Analysis& a, const HeuristicParams& params)
      : a_(a), s_(a.state()), params_(params), me_(a.me()) {}

  std::vector<ScoredAction> rank(const std::vector<Action>& legal);

 private:
  struct Mobile {
    int unit = -1;
    Analysis::Reach reach;
    Job job = Job::kNone;
    int goal = -1;  // destination hex
    double gain = 0;
  };

  void collect_units();
  void keep_garrisons();
  void plan_attacks();
  void plan_defence();
  void plan_ferries();
  void choose_campaign();
  void plan_positions();
  double position_score(const Mobile& m, int hex);
  double danger_at(int hex);
  bool battle_ready(int hex) const;
  int first_step(const Mobile& m) const {
    return m.goal < 0 || m.goal == s_.units[static_cast<std::size_t>(m.unit)].hex
               ? -1
               : m.reach.first[static_cast<std::size_t>(m.goal)];
  }

  const Analysis& a_;
  const GameState& s_;
  const HeuristicParams& params_;
  int me_;
  std::vector<Mobile> mobile_;
  std::vector<int> attack_targets_;
  std::vector<double> danger_;       // by hex; negative until worked out
  std::map<int, int> pickup_;        // Frigate -> land hex whose units it takes aboard now [9.42]
  std::map<int, int> drop_;          // Frigate -> land hex its cargo lands on now [9.46]
  int campaign_ = -1;                // the enemy Town the army marches on
  std::vector<int> campaign_field_;  // land steps to it
};

void MovementPlanner::collect_units() {
  for (const Unit& u : s_.units) {
    if (u.owner != me_ || u.place != UnitPlace::kMap || u.carrier >= 0) continue;
    if (u.move_done || u.moves_left <= 0 || u.attacked) continue;
    if (is_land_unit(u.type) && u.transported) continue;
    Mobile m;
    m.unit = u.id;
    a_.reach(me_, u, m.reach);
    mobile_.push_back(std::move(m));
  }
}

// Units already in a Town that it cannot spare stay there (and may only join attacks that
// matter more: on a Capital, or a Battle already begun).
void MovementPlanner::keep_garrisons() {
  for (int town : a_.my_towns()) {
    std::vector<Mobile*> here;
    for (Mobile& m : mobile_) {
      if (s_.units[static_cast<std::size_t>(m.unit)].hex == town &&
          is_land_unit(s_.units[static_cast<std::size_t>(m.unit)].type)) {
        here.push_back(&m);
      }
    }
    if (here.empty()) continue;
    // Cavalry and Artillery are the best attackers: keep Infantry first.
    std::sort(here.begin(), here.end(), [&](const Mobile* x, const Mobile* y) {
      return unit_value(s_.units[static_cast<std::size_t>(x->unit)].type) <
             unit_value(s_.units[static_cast<std::size_t>(y->unit)].type);
    });
    Force fixed = land_only(a_.force(town, me_));
    for (const Mobile* m : here) fixed.add(s_.units[static_cast<std::size_t>(m->unit)].type, -1);
    const Force placed = expected_placement(a_, town, me_);
    fixed.infantry += placed.infantry;
    fixed.cavalry += placed.cavalry;
    fixed.artillery += placed.artillery;
    const double limit = defend_threshold(a_, params_, town);
    for (Mobile* m : here) {
      if (a_.capture_risk(town, me_, fixed) <= limit) break;
      fixed.add(s_.units[static_cast<std::size_t>(m->unit)].type);
      m->job = Job::kGarrison;
      m->goal = town;
    }
  }
}

void MovementPlanner::plan_attacks() {
  struct Target {
    int hex;
    double value;
    bool pending;
  };
  std::vector<Target> targets;
  const auto pending = pending_battles(s_);
  auto is_pending = [&](int h) {
    return std::find(pending.begin(), pending.end(), h) != pending.end();
  };
  std::vector<bool> seen(static_cast<std::size_t>(a_.board().size()), false);
  auto consider = [&](int h) {
    if (seen[static_cast<std::size_t>(h)] || !a_.hostile(h, me_)) return;
    seen[static_cast<std::size_t>(h)] = true;
    const bool pend = is_pending(h);
    if (!pend && !params_.attack) return;
    if (!pend && cell(s_, h).battle_this_turn) return;  // [12.2]
    double value = capture_value(s_, h, me_);
    const int owner = a_.enemy_units_owner(h, me_);
    if (owner != kNoPlayer) {
      const Force& f = a_.force(h, owner);
      value += f.infantry + 1.5 * f.cavalry + 1.4 * f.artillery + 1.3 * f.frigates;
    }
    targets.push_back({h, value, pend});
  };
  for (int h : pending) consider(h);
  for (const Mobile& m : mobile_) {
    for (int h = 0; h < a_.board().size(); ++h) {
      if (m.reach.dist[static_cast<std::size_t>(h)] > 0) consider(h);
    }
  }
  std::sort(targets.begin(), targets.end(), [](const Target& x, const Target& y) {
    if (x.pending != y.pending) return x.pending;
    return x.value > y.value;
  });

  for (const Target& t : targets) {
    const bool naval = terrain_at(s_, t.hex) == Terrain::kWater;
    const bool capital = cell(s_, t.hex).capital_of != kNoPlayer &&
                         cell(s_, t.hex).capital_of == cell(s_, t.hex).town_owner;
    Force force = a_.force(t.hex, me_);
    if (naval) {
      force = Force{0, 0, 0, force.frigates};
    } else {
      force.frigates = 0;
    }
    std::vector<Mobile*> pool;
    for (Mobile& m : mobile_) {
      const Unit& u = s_.units[static_cast<std::size_t>(m.unit)];
      if (m.job == Job::kAttack || m.job == Job::kDefend) continue;
      if (m.job == Job::kGarrison && !(capital || t.pending)) continue;
      if (naval != (u.type == UnitType::kFrigate)) continue;
      if (m.reach.dist[static_cast<std::size_t>(t.hex)] <= 0) continue;
      pool.push_back(&m);
    }
    std::sort(pool.begin(), pool.end(), [&](const Mobile* x, const Mobile* y) {
      if ((x->job == Job::kGarrison) != (y->job == Job::kGarrison)) return y->job == Job::kGarrison;
      return x->reach.dist[static_cast<std::size_t>(t.hex)] <
             y->reach.dist[static_cast<std::size_t>(t.hex)];
    });
    const bool present = naval ? force.frigates > 0 : force.land() > 0;
    BattleOdds odds = present ? a_.attack_odds(force, t.hex, me_) : BattleOdds{};
    std::vector<Mobile*> chosen;
    while (!pool.empty() && odds.attacker_wins < 0.92) {
      int best = -1;
      BattleOdds best_odds = odds;
      std::array<bool, kUnitTypes> tried{};
      for (std::size_t i = 0; i < pool.size(); ++i) {
        const UnitType type = s_.units[static_cast<std::size_t>(pool[i]->unit)].type;
        if (tried[static_cast<std::size_t>(type)]) continue;
        tried[static_cast<std::size_t>(type)] = true;
        Force more = force;
        more.add(type);
        const BattleOdds o = a_.attack_odds(more, t.hex, me_);
        if (best < 0 || o.attacker_wins > best_odds.attacker_wins + 1e-9) {
          best = static_cast<int>(i);
          best_odds = o;
        }
      }
      if (best < 0) break;
      const double gain = best_odds.attacker_wins - odds.attacker_wins;
      // Another unit joins while it adds a fair chance; spare bodies still soak hits.
      if (gain < 0.015 && odds.attacker_wins >= params_.attack_threshold) break;
      force.add(
          s_.units[static_cast<std::size_t>(pool[static_cast<std::size_t>(best)]->unit)].type);
      chosen.push_back(pool[static_cast<std::size_t>(best)]);
      pool.erase(pool.begin() + best);
      odds = best_odds;
    }
    const double threshold = capital ? params_.capital_attack_threshold : params_.attack_threshold;
    bool go = odds.attacker_wins >= threshold;
    if (!t.pending && go) {
      // Against units alone the trade must pay: their losses against ours [10.2].
      const double expected = odds.attacker_wins * capture_value(s_, t.hex, me_) +
                              1.1 * odds.defender_losses - 1.1 * odds.attacker_losses;
      go = expected > params_.trade_margin;
    }
    if (!go && !t.pending) continue;
    if (!go && t.pending && odds.attacker_wins < 0.2) chosen.clear();  // no use throwing more in
    for (Mobile* m : chosen) {
      m->job = Job::kAttack;
      m->goal = t.hex;
    }
    attack_targets_.push_back(t.hex);
  }
}

void MovementPlanner::plan_defence() {
  struct Need {
    int town;
    double risk;
  };
  std::vector<Need> needs;
  for (int town : a_.my_towns()) {
    Force g = land_only(a_.force(town, me_));
    for (const Mobile& m : mobile_) {
      if (m.job == Job::kAttack && s_.units[static_cast<std::size_t>(m.unit)].hex == town) {
        g.add(s_.units[static_cast<std::size_t>(m.unit)].type, -1);
      }
    }
    const Force placed = expected_placement(a_, town, me_);
    g.infantry += placed.infantry;
    g.cavalry += placed.cavalry;
    g.artillery += placed.artillery;
    const double risk = a_.capture_risk(town, me_, g);
    if (risk > defend_threshold(a_, params_, town)) needs.push_back({town, risk});
  }
  // Most valuable and most threatened first (capture_value for no one: what the Town is worth).
  std::sort(needs.begin(), needs.end(), [&](const Need& x, const Need& y) {
    return x.risk * (1 + capture_value(s_, x.town, -1)) >
           y.risk * (1 + capture_value(s_, y.town, -1));
  });
  for (const Need& n : needs) {
    Force g = land_only(a_.force(n.town, me_));
    for (const Mobile& m : mobile_) {
      if (m.job == Job::kAttack && s_.units[static_cast<std::size_t>(m.unit)].hex == n.town) {
        g.add(s_.units[static_cast<std::size_t>(m.unit)].type, -1);
      }
    }
    const Force placed = expected_placement(a_, n.town, me_);
    g.infantry += placed.infantry;
    g.cavalry += placed.cavalry;
    g.artillery += placed.artillery;
    const double limit = defend_threshold(a_, params_, n.town);
    for (int added = 0; added < 4; ++added) {
      if (a_.capture_risk(n.town, me_, g) <= limit) break;
      Mobile* best = nullptr;
      for (Mobile& m : mobile_) {
        const Unit& u = s_.units[static_cast<std::size_t>(m.unit)];
        if (m.job != Job::kNone || !is_land_unit(u.type)) continue;
        const int d = m.reach.dist[static_cast<std::size_t>(n.town)];
        if (d <= 0) continue;
        if (!best || d < best->reach.dist[static_cast<std::size_t>(n.town)]) best = &m;
      }
      if (!best) break;
      best->job = Job::kDefend;
      best->goal = n.town;
      g.add(s_.units[static_cast<std::size_t>(best->unit)].type);
    }
  }
}

double MovementPlanner::danger_at(int hex) {
  if (danger_.empty()) danger_.assign(static_cast<std::size_t>(a_.board().size()), -1.0);
  if (danger_[static_cast<std::size_t>(hex)] >= 0) return danger_[static_cast<std::size_t>(hex)];
  double danger = 0;
  const Force threat = a_.strongest_threat(hex, me_);
  if (threat.land() > 0 && cell(s_, hex).town_owner != me_) {
    BattleSetup setup;
    setup.defender_pre_fire = s_.options.defender_prefire;  // house rule
    setup.attacker = land_only(threat);
    setup.defender = land_only(a_.force(hex, me_));
    setup.defender.add(UnitType::kInfantry);
    setup.terrain_dice = terrain_at(s_, hex) == Terrain::kMountain ? 2
                         : terrain_at(s_, hex) == Terrain::kForest ? 1
                                                                   : 0;
    setup.naval_support = a_.naval_support(hex, me_);
    danger = battle_odds(setup).attacker_wins;
  }
  danger_[static_cast<std::size_t>(hex)] = danger;
  return danger;
}

double MovementPlanner::position_score(const Mobile& m, int hex) {
  const Unit& u = s_.units[static_cast<std::size_t>(m.unit)];
  double score = 0;
  if (u.type == UnitType::kFrigate) {
    for (int n : a_.board().neighbors(hex)) {
      if (n == Board::kNoHex) continue;
      if (cell(s_, n).town_owner == me_) {
        score += 0.3 + 2 * a_.capture_risk(n, me_, land_only(a_.force(n, me_)));
      }
      if (a_.enemy_units_owner(n, me_) != kNoPlayer) score += 0.2;
    }
    return score;
  }
  const int to_enemy = a_.enemy_town_land_distance(hex);
  if (campaign_ >= 0 && campaign_field_[static_cast<std::size_t>(hex)] < Analysis::kFar) {
    score -= 0.5 * std::min(campaign_field_[static_cast<std::size_t>(hex)], 12);
  } else if (to_enemy < Analysis::kFar) {
    score -= 6 + 0.3 * std::min(to_enemy, 12);
  } else {
    score -= 10;
  }
  const HexCell& c = cell(s_, hex);
  if (c.town_owner == me_) {
    score += 0.3;
  } else {
    if (is_rough(c.terrain)) score += 0.3;
    score -= params_.danger_weight * danger_at(hex) * unit_value(u.type);
    for (int n : a_.board().neighbors(hex)) {
      if (n != Board::kNoHex && cell(s_, n).town_owner != kNoPlayer &&
          cell(s_, n).town_owner != me_) {
        score += 0.3;  // next to an enemy Town: he cannot place units there [13.2]
        break;
      }
    }
  }
  if (params_.explore > 0) {
    int unknown = 0;
    for (int n : a_.board().neighbors(hex)) {
      if (n != Board::kNoHex && !a_.knows(n, me_)) ++unknown;
    }
    const double early = a_.my_towns().size() < 8 ? 1.0 : 0.3;
    score += params_.explore * early * 0.35 * unknown;
  }
  return score;
}

// Naval transport [9.4]: units with no land route to any enemy Town are carried by Frigates
// to a landing spot that has one (or straight into an enemy hex worth attacking [9.47]).
void MovementPlanner::plan_ferries() {
  if (a_.enemy_towns().empty()) return;
  const Board& board = a_.board();
  auto mobile_of = [&](int unit) -> Mobile* {
    for (Mobile& m : mobile_) {
      if (m.unit == unit) return &m;
    }
    return nullptr;
  };
  auto water_next_to = [&](int hex) {
    std::vector<int> out;
    for (int n : board.neighbors(hex)) {
      if (n != Board::kNoHex && a_.known_water(n, me_)) out.push_back(n);
    }
    return out;
  };
  // Moves Frigate `m` towards `water`, the sea hex it wants to reach.
  auto steer = [&](Mobile& m, int water) {
    const auto field = a_.water_distance_from({water});
    const int here = s_.units[static_cast<std::size_t>(m.unit)].hex;
    int best = -1;
    int best_d = field[static_cast<std::size_t>(here)];
    for (int h = 0; h < board.size(); ++h) {
      if (m.reach.dist[static_cast<std::size_t>(h)] <= 0 || a_.hostile(h, me_)) continue;
      if (!a_.known_water(h, me_)) continue;  // never stop in a port [9.32]
      if (field[static_cast<std::size_t>(h)] < best_d) {
        best_d = field[static_cast<std::size_t>(h)];
        best = h;
      }
    }
    if (best < 0) return false;
    m.job = Job::kFerry;
    m.goal = best;
    return true;
  };
  // A loaded ship with no landing worth making waits next to the nearest enemy Town it can
  // sail to, where other ships join it (landing_cargo below).
  auto stage_next_to_enemy = [&](Mobile& m, int here, const std::vector<int>& wd) {
    int stage = -1;  // its own hex counts: 0 away
    for (int town : a_.enemy_towns()) {
      for (int w : water_next_to(town)) {
        if (wd[static_cast<std::size_t>(w)] >= Analysis::kFar) continue;
        if (stage < 0 || wd[static_cast<std::size_t>(w)] < wd[static_cast<std::size_t>(stage)])
          stage = w;
      }
    }
    if (stage < 0) return;
    if (stage != here) {
      steer(m, stage);
    } else {
      m.job = Job::kFerry;  // it stays: no other plan may sail it away
      m.goal = here;
    }
  };
  // Stranded: free land units that have not moved, with no land route to an enemy Town.
  std::vector<int> stranded;
  for (const Mobile& m : mobile_) {
    const Unit& u = s_.units[static_cast<std::size_t>(m.unit)];
    if (!is_land_unit(u.type) || m.job != Job::kNone || u.has_moved) continue;
    if (a_.enemy_town_land_distance(u.hex) < Analysis::kFar) continue;
    if (std::find(stranded.begin(), stranded.end(), u.hex) == stranded.end())
      stranded.push_back(u.hex);
  }
  // The cargo each enemy hex could receive now: every loaded Frigate next to it that may still
  // land there [9.46]. Frigates land together (a Battle waits for them: battle_ready), so an
  // island Town too strong for one ship's three units [9.41] is not out of reach for two.
  auto cargo_of = [&](int frigate) {
    Force cargo;
    for (const Unit& c : s_.units) {
      if (c.place == UnitPlace::kMap && c.carrier == frigate) cargo.add(c.type);
    }
    return cargo;
  };
  std::map<int, Force> landing_cargo;
  for (const Unit& f : s_.units) {
    if (f.owner != me_ || f.type != UnitType::kFrigate || f.place != UnitPlace::kMap) continue;
    if (terrain_at(s_, f.hex) != Terrain::kWater) continue;
    const Force cargo = cargo_of(f.id);
    if (cargo.land() == 0) continue;
    for (int l : board.neighbors(f.hex)) {
      if (l == Board::kNoHex || !a_.hostile(l, me_)) continue;
      if (f.disembark_hex >= 0 && f.disembark_hex != l) continue;
      Force& sum = landing_cargo[l];
      sum.infantry += cargo.infantry;
      sum.cavalry += cargo.cavalry;
      sum.artillery += cargo.artillery;
    }
  }
  for (const Unit& f : s_.units) {
    if (f.owner != me_ || f.type != UnitType::kFrigate || f.place != UnitPlace::kMap) continue;
    // In port [9.32] it can neither land nor take units aboard, only sail on.
    const bool in_port = terrain_at(s_, f.hex) != Terrain::kWater;
    Mobile* mf = mobile_of(f.id);
    if (in_port && !mf) continue;
    if (mf && mf->job != Job::kNone) continue;
    const Force cargo = cargo_of(f.id);
    const int aboard = cargo.land();  // cargo is land units only [9.41]
    const auto wd = a_.water_distance_from({f.hex});
    if (aboard > 0) {
      int best_land = -1, best_water = -1;
      double best = -1e9;
      for (int l = 0; l < board.size(); ++l) {
        if (!a_.known_land(l, me_)) continue;
        if (f.disembark_hex >= 0 && f.disembark_hex != l) continue;  // one landing hex [9.46]
        const int to_enemy = a_.enemy_town_land_distance(l);
        if (to_enemy >= Analysis::kFar) continue;
        int water = -1;
        for (int w : water_next_to(l)) {
          if (wd[static_cast<std::size_t>(w)] < Analysis::kFar &&
              (water < 0 ||
               wd[static_cast<std::size_t>(w)] < wd[static_cast<std::size_t>(water)])) {
            water = w;
          }
        }
        if (water < 0) continue;
        const bool landing_now = !in_port && board.distance(f.hex, l) == 1;
        if (!landing_now && !mf) continue;
        double score = -0.5 * to_enemy - 1.0 * ((wd[static_cast<std::size_t>(water)] + 4) / 5);
        if (a_.hostile(l, me_)) {
          if (cell(s_, l).battle_this_turn) continue;  // [12.2]
          Force force = land_only(a_.force(l, me_));
          // Its own cargo, and what the other ships next to it can land now (its own cargo is
          // among those when it is next to it already).
          const auto waiting = landing_cargo.find(l);
          Force joining = waiting != landing_cargo.end() ? waiting->second : Force{};
          if (!landing_now) {
            joining.infantry += cargo.infantry;
            joining.cavalry += cargo.cavalry;
            joining.artillery += cargo.artillery;
          }
          force.infantry += joining.infantry;
          force.cavalry += joining.cavalry;
          force.artillery += joining.artillery;
          const double p = a_.attack_odds(force, l, me_).attacker_wins;
          if (p < params_.attack_threshold || !params_.attack) continue;
          score += p * capture_value(s_, l, me_);
        } else {
          score -= 2 * danger_at(l);
          if (cell(s_, l).town_owner == me_) score += 0.5;
        }
        if (score > best) {
          best = score;
          best_land = l;
          best_water = water;
        }
      }
      if (best_land >= 0) {
        if (!in_port && board.distance(f.hex, best_land) == 1) {
          drop_[f.id] = best_land;
        } else if (mf) {
          steer(*mf, best_water);
        }
        continue;
      }
      // No landing worth making with this cargo (an enemy Town on an island, say): take more
      // units aboard first [9.41], rather than sail about with one for ever. A full ship waits
      // next to the nearest enemy Town it can sail to, where the others join it.
      if (aboard >= kFrigateCapacity) {
        if (mf) stage_next_to_enemy(*mf, f.hex, wd);
        continue;
      }
    }
    if (!mf) continue;
    if (stranded.empty() || f.carried_this_turn >= kFrigateCapacity) {
      if (aboard > 0) stage_next_to_enemy(*mf, f.hex, wd);
      continue;
    }
    int pick = -1, pick_water = -1;
    for (int x : stranded) {
      for (int w : water_next_to(x)) {
        if (wd[static_cast<std::size_t>(w)] >= Analysis::kFar) continue;
        if (pick_water < 0 ||
            wd[static_cast<std::size_t>(w)] < wd[static_cast<std::size_t>(pick_water)]) {
          pick = x;
          pick_water = w;
        }
      }
    }
    if (pick < 0) {
      if (aboard > 0) stage_next_to_enemy(*mf, f.hex, wd);
      continue;
    }
    const bool here = !in_port && board.distance(f.hex, pick) == 1;
    if (here) {
      pickup_[f.id] = pick;
      mf->job = Job::kFerry;
      mf->goal = f.hex;
    } else if (!steer(*mf, pick_water) ||
               mf->reach.dist[static_cast<std::size_t>(pick_water)] < 0) {
      continue;  // it cannot get there this turn: the units may do something else meanwhile
    }
    for (Mobile& m : mobile_) {
      const Unit& u = s_.units[static_cast<std::size_t>(m.unit)];
      if (is_land_unit(u.type) && u.hex == pick && m.job == Job::kNone) {
        m.job = Job::kFerry;  // waits for its ship
        m.goal = u.hex;
      }
    }
  }
}

void MovementPlanner::choose_campaign() {
  std::vector<int> army;
  for (const Unit& u : s_.units) {
    if (u.owner == me_ && u.place == UnitPlace::kMap && u.carrier < 0 && is_land_unit(u.type)) {
      army.push_back(u.hex);
    }
  }
  double best = 0;
  for (int town : a_.enemy_towns()) {
    auto field = a_.land_distance_from({town});
    int d = Analysis::kFar;
    for (int h : army) d = std::min(d, field[static_cast<std::size_t>(h)]);
    if (d >= Analysis::kFar) continue;
    const int owner = cell(s_, town).town_owner;
    const Force& f = a_.force(town, owner);
    const double defence = f.land() + a_.terrain_dice(town, owner);
    const double score = capture_value(s_, town, me_) / (1 + defence) / (1 + 0.4 * d);
    if (score > best) {
      best = score;
      campaign_ = town;
      campaign_field_ = std::move(field);
    }
  }
}

void MovementPlanner::plan_positions() {
  choose_campaign();
  for (Mobile& m : mobile_) {
    if (m.job != Job::kNone) continue;
    const Unit& u = s_.units[static_cast<std::size_t>(m.unit)];
    const double stay = position_score(m, u.hex);
    double best = stay;
    int goal = -1;
    for (int h = 0; h < a_.board().size(); ++h) {
      if (m.reach.dist[static_cast<std::size_t>(h)] <= 0 || a_.hostile(h, me_)) continue;
      const double sc = position_score(m, h);
      if (sc > best + 1e-9) {
        best = sc;
        goal = h;
      }
    }
    if (goal >= 0 && best > stay + 0.15) {
      m.job = Job::kPosition;
      m.goal = goal;
      m.gain = best - stay;
    }
  }
}

bool MovementPlanner::battle_ready(int hex) const {
  for (const Mobile& m : mobile_) {
    if (m.job == Job::kAttack && m.goal == hex &&
        s_.units[static_cast<std::size_t>(m.unit)].hex != hex) {
      return false;  // someone is still on his way
    }
  }
  for (const auto& [frigate, land] : drop_) {
    if (land == hex) return false;  // a ship still lands its cargo there [9.47]
  }
  return true;
}

std::vector<ScoredAction> MovementPlanner::rank(const std::vector<Action>& legal) {
  collect_units();
  keep_garrisons();
  plan_attacks();
  plan_ferries();
  plan_defence();
  plan_positions();

  std::vector<ScoredAction> out;
  out.reserve(legal.size());
  auto job_of = [&](int unit) -> const Mobile* {
    for (const Mobile& m : mobile_) {
      if (m.unit == unit) return &m;
    }
    return nullptr;
  };
  for (const Action& act : legal) {
    double score = 0;
    switch (act.kind) {
      case ActionKind::kStartBattle:
        score = battle_ready(act.hex) ? 90 : 3;
        break;
      case ActionKind::kBombard: {
        const Mobile* m = job_of(act.unit);
        if (m && m->job == Job::kAttack) {
          score = -1;  // it will fight in the Battle instead [10.6]
          break;
        }
        if ((m && m->job == Job::kFerry) || drop_.count(act.unit)) {
          score = -1;  // a Bombard would end the ferry's movement [9.46]
          break;
        }
        const int owner = a_.enemy_units_owner(act.hex, me_);
        double best = 0;
        if (owner != kNoPlayer) {
          const Force& f = a_.force(act.hex, owner);
          if (f.cavalry) best = std::max(best, 1.5);
          if (f.artillery) best = std::max(best, 1.4);
          if (f.frigates) best = std::max(best, 1.3);
          if (f.infantry) best = std::max(best, 1.0);
        }
        const bool target = std::find(attack_targets_.begin(), attack_targets_.end(), act.hex) !=
                            attack_targets_.end();
        score = 80 + best + (target ? 2 : 0);
        break;
      }
      case ActionKind::kMove: {
        const Mobile* m = job_of(act.unit);
        if (!m || m->job == Job::kNone || m->job == Job::kGarrison || first_step(*m) != act.hex) {
          score = -1;
          break;
        }
        switch (m->job) {
          case Job::kAttack:
            score = 70;
            break;
          case Job::kFerry:
            score = 65;
            break;
          case Job::kDefend:
            score = 60;
            break;
          default:
            score = 40 + std::min(m->gain, 9.0);
            break;
        }
        if (act.unit == s_.active_unit) score += 8;
        break;
      }
      case ActionKind::kEndPhase:
        score = 10;
        break;
      case ActionKind::kDisembark: {
        const int frigate = s_.units[static_cast<std::size_t>(act.unit)].carrier;
        const auto it = drop_.find(frigate);
        score = it != drop_.end() && it->second == act.hex ? 75 : -2;
        break;
      }
      case ActionKind::kEmbark: {
        const auto it = pickup_.find(act.carrier);
        const bool planned =
            it != pickup_.end() && it->second == s_.units[static_cast<std::size_t>(act.unit)].hex;
        score = planned ? 72 : -2;
        break;
      }
      case ActionKind::kConcede:
        score = kConcedeScore;
        break;
      default:
        score = 0;
        break;
    }
    out.push_back({act, score});
  }
  return out;
}

}  // namespace

std::vector<ScoredAction> rank_movement(const Analysis& a, const HeuristicParams& params,
                                        const std::vector<Action>& legal) {
  return MovementPlanner(a, params).rank(legal);
}

}  // namespace viktory::ai
