#include "heuristic_parts.h"

#include "evaluate.h"
#include "game.h"

namespace viktory::ai::heuristic_parts {

bool holds_capital(const GameState& s, int p) {
  const int cap = s.players[static_cast<std::size_t>(p)].capital_hex;
  return cap >= 0 && s.hexes[static_cast<std::size_t>(cap)].town_owner == p;
}

const HexCell& cell(const GameState& s, int hex) { return s.hexes[static_cast<std::size_t>(hex)]; }

int reserve_of(const GameState& s, int p, UnitType t) {
  int n = 0;
  for (const Unit& u : s.units)
    n += (u.owner == p && u.type == t && u.place == UnitPlace::kReserve);
  return n;
}

Force land_only(Force f) {
  f.frigates = 0;
  return f;
}

// How much a player cares about his Capital, and an enemy's, under the victory condition.
double capital_stake(const GameState& s) {
  switch (planning_victory(s.options.victory)) {
    case VictoryCondition::kShorter:
      return 40;  // [5.3] the first captured Capital ends the game
    case VictoryCondition::kStandard:
      return 8;  // [14.0] no building, Cities act as Towns, Reserve stuck
    default:
      return 4;
  }
}

// Points for taking a Town/City: its victory points and units change hands [10.2, 10.3].
double capture_value(const GameState& s, int hex, int me) {
  const HexCell& c = cell(s, hex);
  if (c.town_owner == kNoPlayer || c.town_owner == me) return 0;
  const double vp = c.city ? 2 : 1;
  const bool race = s.options.victory.has(VictoryCondition::kRace) ||
                    s.options.victory.has(VictoryCondition::kDoomsday);
  double v = vp * (race ? 4.0 : 3.0) + vp * 1.0;
  if (c.capital_of == c.town_owner) v += capital_stake(s);
  return v;
}

Terrain terrain_at(const GameState& s, int hex) { return cell(s, hex).terrain; }

bool adjacent_known_water(const Analysis& a, int hex, int p) {
  for (int n : a.board().neighbors(hex)) {
    if (n != Board::kNoHex && a.known_water(n, p)) return true;
  }
  return false;
}

bool enemy_unit_adjacent(const Analysis& a, int hex, int p) {
  for (int n : a.board().neighbors(hex)) {
    if (n != Board::kNoHex && a.enemy_units_owner(n, p) != kNoPlayer) return true;
  }
  return false;
}

// Units the Reserve Placement Phase will most likely add to a Town of `p` this turn [13.0].
Force expected_placement(const Analysis& a, int hex, int p) {
  const GameState& s = a.state();
  Force f;
  if (s.current != p) return f;
  const bool capital =
      s.players[static_cast<std::size_t>(p)].capital_hex == hex && holds_capital(s, p);
  if (capital) {
    for (UnitType t : {UnitType::kInfantry, UnitType::kCavalry, UnitType::kArtillery}) {
      f.add(t, reserve_of(s, p, t));
    }
    return f;
  }
  if (enemy_unit_adjacent(a, hex, p)) return f;  // [13.2]
  if (reserve_of(s, p, UnitType::kInfantry) > 0) f.add(UnitType::kInfantry);
  return f;
}

double defend_threshold(const Analysis& a, const HeuristicParams& params, int hex) {
  const GameState& s = a.state();
  const bool capital = cell(s, hex).capital_of == a.me();
  return capital ? params.capital_defend_risk : params.defend_risk;
}

}  // namespace viktory::ai::heuristic_parts
