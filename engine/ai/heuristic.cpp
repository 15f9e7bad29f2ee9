#include "heuristic.h"

#include <algorithm>

#include "analysis.h"
#include "game.h"
#include "heuristic_parts.h"
#include "movement_planner.h"

namespace viktory::ai {
namespace {

using namespace heuristic_parts;

// ---------------------------------------------------------------------------------------------
// Setup [4.0]

double score_capital(const Analysis& a, int hex) {
  double score = 0;
  switch (terrain_at(a.state(), hex)) {
    case Terrain::kMountain:
      score = 3;  // two Defensive Terrain dice even as a Town [12.3]
      break;
    case Terrain::kGrassland:
      score = 2.5;
      break;
    case Terrain::kPlains:
      score = 2;
      break;
    case Terrain::kForest:
      score = 1.5;
      break;
    default:
      break;
  }
  for (int n : a.board().neighbors(hex)) {
    if (n == Board::kNoHex) continue;
    if (a.known_land(n, a.me())) score += 0.5;
    if (!a.knows(n, a.me())) score += 0.25;  // may be land
  }
  return score;
}

// ---------------------------------------------------------------------------------------------
// Building [7.x]

// Whether `me` has a Town or City on a Forest hex by water: a Forest City is the only source of
// Frigates [8.2], and without one an enemy on an island can never be reached (most stand-offs
// at the turn limit were such games: every building site gone, no Forest City).
// `cities_only`: count Cities alone (a Town must still be upgraded to support a Frigate).
bool has_frigate_base(const Analysis& a, int me, bool cities_only) {
  const GameState& s = a.state();
  for (int h = 0; h < a.board().size(); ++h) {
    if (cell(s, h).town_owner == me && (cell(s, h).city || !cities_only) &&
        terrain_at(s, h) == Terrain::kForest && adjacent_known_water(a, h, me)) {
      return true;
    }
  }
  return false;
}

double city_unit_bonus(const Analysis& a, int hex) {
  switch (terrain_at(a.state(), hex)) {
    case Terrain::kGrassland:
      return 2.0;  // Cavalry: two attack dice
    case Terrain::kMountain:
      return 1.6;  // Artillery
    case Terrain::kPlains:
      return 1.0;
    case Terrain::kForest:
      if (!adjacent_known_water(a, hex, a.me())) return 0.4;
      // A Frigate; the first Forest base by water matters most (see has_frigate_base).
      // Building here (no Town yet) or upgrading the Town here: see has_frigate_base.
      return has_frigate_base(a, a.me(), cell(a.state(), hex).town_owner == a.me()) ? 1.2 : 3.7;
    default:
      return 0;
  }
}

double score_town(const Analysis& a, const HeuristicParams& params, int hex) {
  const GameState& s = a.state();
  const int me = a.me();
  double score = 10 + params.town_preference + 0.6 * city_unit_bonus(a, hex);
  if (terrain_at(s, hex) == Terrain::kMountain) score += 0.6;
  int room = 0;
  int unknown = 0;
  for (int d = 1; d <= 3; ++d) {
    for (int h : a.board().ring_around(hex, d)) {
      if (!a.knows(h, me)) {
        ++unknown;
      } else if (d >= 2 && a.known_land(h, me) && cell(s, h).town_owner == kNoPlayer) {
        ++room;
      }
    }
  }
  score += std::min(1.5, 0.1 * room) + std::min(1.0, 0.05 * unknown);
  const int cap = s.players[static_cast<std::size_t>(me)].capital_hex;
  if (cap >= 0) score -= 0.1 * a.board().distance(cap, hex);
  Force garrison;
  if (!enemy_unit_adjacent(a, hex, me)) garrison.add(UnitType::kInfantry);
  const double risk = a.capture_risk(hex, me, garrison);
  score -= risk * 9;
  return score;
}

double score_upgrade(const Analysis& a, int hex) {
  const GameState& s = a.state();
  const int me = a.me();
  double score = 10 + city_unit_bonus(a, hex);
  const Force garrison = land_only(a.force(hex, me));
  const double risk = a.capture_risk(hex, me, garrison);
  score += 4 * risk;  // a City defends with two dice [12.3]
  if (cell(s, hex).capital_of == me) score += 1.0;
  return score;
}

// ---------------------------------------------------------------------------------------------
// Reserve Placement [13.x]

double score_placement(const Analysis& a, const Action& act) {
  const GameState& s = a.state();
  const int me = a.me();
  const int hex = act.hex;
  if (act.unit_type == UnitType::kFrigate) {
    double score = 2;
    for (int n : a.board().neighbors(hex)) {
      if (n == Board::kNoHex || cell(s, n).town_owner != me) continue;
      score += 3 * a.capture_risk(n, me, land_only(a.force(n, me)));
    }
    const int enemy = a.enemy_units_owner(hex, me);
    if (enemy != kNoPlayer) {
      Force mine = a.force(hex, me);
      mine.frigates += 1;
      const double p = a.attack_odds(mine, hex, me).attacker_wins;
      score += (p - 0.6) * 6;  // a Frigate placement Naval Battle [13.5]
    }
    score += 1.0 / (1 + a.enemy_town_distance(hex));
    return score;
  }
  const Force garrison = land_only(a.force(hex, me));
  const double risk = a.capture_risk(hex, me, garrison);
  double score = 3 + 8 * risk + 2.0 / (1 + a.enemy_town_land_distance(hex));
  if (cell(s, hex).city) score += 0.3;
  if (cell(s, hex).capital_of == me) {
    score += 0.3;
    if (s.options.victory.has(VictoryCondition::kShorter)) score += 6 * risk;
  }
  return score;
}

// House rule Redeployment: worth it when the unit does more good where a Reserve unit would go
// than where it stands. A Reserve placement of the same slot adds a unit, so it ranks above
// (score_placement starts at 3); a redeployment only moves one, and only for a clear gain.
double score_redeploy(const Analysis& a, const Action& act) {
  const GameState& s = a.state();
  const int me = a.me();
  const Unit& u = s.units[static_cast<std::size_t>(act.unit)];
  Action as_placement = act;
  as_placement.unit_type = u.type;
  const double gain = score_placement(a, as_placement) - 3;
  double keep = 0;
  if (is_land_unit(u.type)) {
    if (cell(s, u.hex).town_owner == me) {
      const Force garrison = land_only(a.force(u.hex, me));
      Force without = garrison;
      without.add(u.type, -1);
      keep += 8 * (a.capture_risk(u.hex, me, without) - a.capture_risk(u.hex, me, garrison));
      if (cell(s, u.hex).capital_of == me) keep += 1;
    }
    keep += 2.0 / (1 + a.enemy_town_land_distance(u.hex));
  } else {
    keep += 1.0 / (1 + a.enemy_town_distance(u.hex));
  }
  return gain - keep - 1.0;
}

// ---------------------------------------------------------------------------------------------
// Casualties [10.1], eliminations [10.2], retreats [12.3]

double casualty_worth(const GameState& s, const std::vector<Action>& legal, int unit) {
  const Unit& u = s.units[static_cast<std::size_t>(unit)];
  double worth = unit_value(u.type);
  int same = 0;
  for (const Action& a : legal) {
    if (a.kind != ActionKind::kChooseCasualty) continue;
    const Unit& other = s.units[static_cast<std::size_t>(a.unit)];
    same += other.type == u.type;
  }
  if (same == 1 && is_land_unit(u.type)) worth += u.type == UnitType::kCavalry ? 1.2 : 0.8;
  for (const Unit& c : s.units) {
    if (c.place == UnitPlace::kMap && c.carrier == unit) worth += unit_value(c.type);
  }
  return worth;
}

BattleOdds current_battle_odds(const Analysis& a) {
  const GameState& s = a.state();
  const Battle& b = *s.battle;
  BattleSetup setup;
  setup.naval = b.naval;
  setup.defender_pre_fire = s.options.defender_prefire;  // house rule
  setup.attacker = a.force(b.hex, b.attacker);
  setup.defender = a.force(b.hex, b.defender);
  if (!setup.naval) {
    setup.attacker.frigates = setup.defender.frigates = 0;
    setup.town = cell(s, b.hex).town_owner == b.defender;
    setup.terrain_dice = a.terrain_dice(b.hex, b.defender);
    setup.naval_support = a.naval_support(b.hex, b.defender);
  } else {
    setup.attacker = Force{0, 0, 0, setup.attacker.frigates};
    setup.defender = Force{0, 0, 0, setup.defender.frigates};
  }
  setup.pre_fire = false;
  return battle_odds(setup);
}

}  // namespace

double stalemate_pressure(const HeuristicParams& params, const GameState& s) {
  if (s.turn <= 0 || params.pressure_full_round <= params.pressure_from_round) return 0;
  const int round = (s.turn - 1) / std::max(1, s.options.players);
  const double x = static_cast<double>(round - params.pressure_from_round) /
                   static_cast<double>(params.pressure_full_round - params.pressure_from_round);
  return std::clamp(x, 0.0, 1.0);
}

HeuristicParams under_pressure(const HeuristicParams& params, double pressure) {
  if (pressure <= 0) return params;
  HeuristicParams p = params;
  p.attack_threshold =
      std::min(p.attack_threshold, std::max(0.40, p.attack_threshold - 0.30 * pressure));
  p.capital_attack_threshold = std::min(
      p.capital_attack_threshold, std::max(0.30, p.capital_attack_threshold - 0.20 * pressure));
  p.defend_risk = std::max(p.defend_risk, std::min(0.60, p.defend_risk + 0.25 * pressure));
  p.capital_defend_risk =
      std::max(p.capital_defend_risk, std::min(0.35, p.capital_defend_risk + 0.15 * pressure));
  p.danger_weight *= 1 - 0.75 * pressure;
  p.trade_margin -= 2.0 * pressure;
  return p;
}

std::vector<ScoredAction> HeuristicPlayer::rank(const GameState& s, int me,
                                                const std::vector<Action>& legal) const {
  const HeuristicParams params = under_pressure(params_, stalemate_pressure(params_, s));
  Analysis a(s, me);
  std::vector<ScoredAction> out;
  if (s.phase == Phase::kMovement && !s.battle && !s.bombard && !s.elimination) {
    out = rank_movement(a, params, legal);
  } else {
    out.reserve(legal.size());
    std::optional<BattleOdds> odds;
    for (const Action& act : legal) {
      double score = 0;
      switch (act.kind) {
        case ActionKind::kConcede:
          score = kConcedeScore;
          break;
        case ActionKind::kPlaceCapital:
          score = score_capital(a, act.hex);
          break;
        case ActionKind::kBuildTown:
          score = score_town(a, params, act.hex);
          break;
        case ActionKind::kUpgradeCity:
          score = score_upgrade(a, act.hex);
          break;
        case ActionKind::kPlaceReserve:
          score = score_placement(a, act);
          break;
        case ActionKind::kRedeploy:
          score = score_redeploy(a, act);
          break;
        case ActionKind::kEndPhase:
          score = 0;
          break;
        case ActionKind::kChooseCasualty: {
          const double worth = casualty_worth(s, legal, act.unit);
          score = s.units[static_cast<std::size_t>(act.unit)].owner == me ? -worth : worth;
          break;
        }
        case ActionKind::kEliminateUnit: {
          const Unit& u = s.units[static_cast<std::size_t>(act.unit)];
          if (u.place == UnitPlace::kReserve) {
            score = 10;
          } else {
            score = 0.1 * std::min(a.enemy_town_distance(u.hex), 10);
            if (cell(s, u.hex).town_owner == me) score -= 1;
            if (u.carrier >= 0) score -= 0.5;
          }
          break;
        }
        case ActionKind::kContinueBattle:
        case ActionKind::kRetreat: {
          if (!s.battle) break;
          if (!odds) odds = current_battle_odds(a);
          const double stake = capture_value(s, s.battle->hex, me);
          const double limit = stake > 20 ? 0.2 : 0.35;
          if (act.kind == ActionKind::kContinueBattle) {
            score = odds->attacker_wins - limit;
          } else {
            score = limit - odds->attacker_wins;
            if (is_land(terrain_at(s, act.hex))) score += 0.01;
            if (cell(s, act.hex).town_owner == me) score += 0.01;
          }
          break;
        }
        default:
          score = 0;
          break;
      }
      out.push_back({act, score});
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const ScoredAction& x, const ScoredAction& y) { return x.score > y.score; });
  return out;
}

Action HeuristicPlayer::choose(const GameState& s, int me, const std::vector<Action>& legal) const {
  const auto ranked = rank(s, me, legal);
  if (ranked.empty()) return act::concede(me);
  return ranked.front().action;
}

}  // namespace viktory::ai
