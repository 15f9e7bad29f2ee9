// Reserve Placement [13.0-13.5], with the lost-Capital limits of [14.0].
#include <algorithm>
#include <climits>

#include "internal.h"

namespace viktory::detail {
namespace {

bool enemy_adjacent(const GameState& s, int player, int hex) {
  for (int n : s.board().neighbors(hex)) {
    if (n != Board::kNoHex && enemy_units_at(s, player, n)) return true;  // [13.2]
  }
  return false;
}

bool is_held_capital(const GameState& s, int player, int hex) {
  return s.players[player].capital_hex == hex && s.hexes[hex].town_owner == player;
}

int reserve_unit_of(const GameState& s, int player, UnitType t) {
  for (const Unit& u : s.units) {
    if (u.owner == player && u.type == t && u.place == UnitPlace::kReserve) return u.id;
  }
  return -1;
}

// The Forest City whose Frigate allowance a placement on `water` uses, or -1.
int forest_city_for(const GameState& s, int player, int water) {
  if (!holds_own_capital(s, player)) return -1;  // [14.0] only Infantry without the Capital
  for (int h = 0; h < s.board().size(); ++h) {
    const HexCell& c = s.hexes[h];
    if (c.town_owner != player || !c.city || c.terrain != Terrain::kForest) continue;
    if (c.placed_other > 0 || enemy_adjacent(s, player, h)) continue;
    const auto spots = frigate_spots_for_forest_city(s, h);
    if (std::find(spots.begin(), spots.end(), water) != spots.end()) return h;
  }
  return -1;
}

}  // namespace

bool alliance_frigate_at(const GameState& s, int player, int hex) {
  if (!subjugation_rules(s.options)) return false;
  for (int u : units_at(s, hex)) {
    if (s.units[u].type == UnitType::kFrigate && allied(s, player, s.units[u].owner)) return true;
  }
  return false;
}

namespace {

// The known water hexes nearest to `hex` that hold no Alliance Frigate [13.3, 15.64].
std::vector<int> nearest_free_water(const GameState& s, int player, int hex) {
  const Board& b = s.board();
  std::vector<int> spots;
  int best = INT_MAX;
  for (int h = 0; h < b.size(); ++h) {
    if (!known_water(s, player, h) || alliance_frigate_at(s, player, h)) continue;
    const int d = b.distance(hex, h);
    if (d < best) {
      best = d;
      spots.clear();
    }
    if (d == best) spots.push_back(h);
  }
  return spots;
}

}  // namespace

// [13.3] Adjacent water hexes, or if there are none the nearest water hexes; water holding an
// Alliance Frigate does not count, so the nearest free water takes its place [15.64].
std::vector<int> frigate_spots_for_forest_city(const GameState& s, int city_hex) {
  return nearest_free_water(s, s.hexes[city_hex].town_owner, city_hex);
}

// [13.4] Water next to the held Capital; if Alliance Frigates fill all of it, the nearest
// free water [15.64]. A Capital with no water next to it gives no Frigate spot.
std::vector<int> capital_frigate_spots(const GameState& s, int player) {
  if (!holds_own_capital(s, player)) return {};
  const int cap = s.players[player].capital_hex;
  std::vector<int> adjacent;
  std::vector<int> free;
  for (int n : s.board().neighbors(cap)) {
    if (n == Board::kNoHex || !known_water(s, player, n)) continue;
    adjacent.push_back(n);
    if (!alliance_frigate_at(s, player, n)) free.push_back(n);
  }
  if (adjacent.empty() || !free.empty()) return free;
  return nearest_free_water(s, player, cap);
}

namespace {

// A Frigate placed on `hex` meets another player's Frigate there: allowed only where that
// Naval Battle could be fought [13.5].
Check frigate_meeting(const GameState& s, int player, int hex) {
  if (alliance_frigate_at(s, player, hex)) {
    return error("alliance_frigate",
                 "A Frigate may not be placed on an Alliance Frigate: that would be a Naval "
                 "Battle among Alliance players [15.62, 15.64].");
  }
  if (!enemy_units_at(s, player, hex)) return std::nullopt;
  if (s.hexes[hex].battle_this_turn) {
    // "If otherwise allowable" [13.5]: a second Battle in the hex this turn is not [12.2].
    return error("battle_fought",
                 "A Battle was already fought in that hex this turn, so no Frigate may be placed "
                 "on the enemy Frigate there [12.2, 13.5].");
  }
  if (!may_attack(s, player)) {
    return error("reorganization",
                 "You lost your Capital: you may not attack anybody on this Player Turn, not "
                 "even with a placed Frigate [15.63, 13.5].");
  }
  return std::nullopt;
}

// Puts a unit of the Reserve on the map; returns whether a placed Frigate met an enemy there.
bool place_unit(GameState& s, int player, UnitType type, int hex, Events& ev) {
  Unit& u = s.units[reserve_unit_of(s, player, type)];
  u.place = UnitPlace::kMap;
  u.hex = hex;
  u.moves_left = 0;
  u.move_done = true;
  Event e = make_event(EventKind::kUnitPlaced);
  e.player = player;
  e.unit = u.id;
  e.unit_type = type;
  e.hex = hex;
  ev.push_back(e);
  reveal_neighbors(s, hex, player, ev);  // a placed unit enters its hex [9.2]
  return type == UnitType::kFrigate && enemy_units_at(s, player, hex);
}

void add_once(std::vector<int>& hexes, int hex) {
  if (std::find(hexes.begin(), hexes.end(), hex) == hexes.end()) hexes.push_back(hex);
}

}  // namespace

Check check_place_reserve(const GameState& s, const Action& a) {
  if (reserve_unit_of(s, a.player, a.unit_type) < 0) {
    return error("not_in_reserve", "You have no such unit in your Reserve [13.0].");
  }
  return check_placement_spot(s, a.player, a.unit_type, a.hex);
}

Check check_placement_spot(const GameState& s, int p, UnitType type, int hex) {
  const Board& b = s.board();
  Action a;  // the spot's checks read the type and hex as a placement would carry them
  a.unit_type = type;
  a.hex = hex;
  if (a.hex < 0 || a.hex >= b.size()) return error("bad_hex", "No such hex.");
  const bool have_capital = holds_own_capital(s, p);
  if (a.unit_type == UnitType::kFrigate) {
    if (!known_water(s, p, a.hex))
      return error("not_water", "Frigates are placed on water hexes [13.3].");
    if (alliance_frigate_at(s, p, a.hex)) return frigate_meeting(s, p, a.hex);
    const auto by_capital = capital_frigate_spots(s, p);
    if (std::find(by_capital.begin(), by_capital.end(), a.hex) == by_capital.end() &&
        forest_city_for(s, p, a.hex) < 0) {
      return error("bad_frigate_spot",
                   "A Frigate is placed next to your Forest City (or the nearest water if it has "
                   "none), at most one per City per turn, not while an enemy unit is next to "
                   "that City, or next to your Capital [13.2-13.4].");
    }
    return frigate_meeting(s, p, a.hex);
  }
  const HexCell& c = s.hexes[a.hex];
  if (c.town_owner != p)
    return error("not_your_town", "Units are placed in your Towns and Cities [13.1].");
  if (is_held_capital(s, p, a.hex)) return std::nullopt;  // [13.4] anything, any number
  if (enemy_adjacent(s, p, a.hex)) {
    return error(
        "enemy_adjacent",
        "You cannot place units in a Town or City while an enemy unit is next to it [13.2].");
  }
  if (!have_capital) {
    // [14.0] Without the Capital, Cities act as Towns and only Infantry leaves the Reserve.
    if (a.unit_type != UnitType::kInfantry || c.placed_infantry >= 1) {
      return error("capital_lost",
                   "Without your Capital each Town or City takes one Infantry and other units "
                   "stay in the Reserve [14.0].");
    }
    return std::nullopt;
  }
  if (a.unit_type == UnitType::kInfantry) {
    const int limit = c.city && c.terrain == Terrain::kPlains ? 2 : 1;  // [13.11]
    if (c.placed_infantry >= limit) {
      return error("full",
                   "That Town or City has taken all the Infantry it can this turn [13.11].");
    }
    return std::nullopt;
  }
  if (!c.city || city_unit_for(c.terrain) != a.unit_type) {
    return error("wrong_terrain",
                 "Cavalry goes to Grassland Cities, Artillery to Mountain Cities [13.11, 13.12].");
  }
  if (c.placed_other >= 1) return error("full", "That City has taken its unit this turn [13.11].");
  return std::nullopt;
}

namespace {

// Uses up the placement capacity a unit of `type` placed on `hex` takes [13.11, 13.3].
void count_placement(GameState& s, int p, UnitType type, int hex) {
  Action a;
  a.unit_type = type;
  a.hex = hex;
  if (a.unit_type == UnitType::kFrigate) {
    const auto by_capital = capital_frigate_spots(s, p);
    if (std::find(by_capital.begin(), by_capital.end(), a.hex) == by_capital.end()) {
      s.hexes[forest_city_for(s, p, a.hex)].placed_other += 1;
    }
  } else if (!is_held_capital(s, p, a.hex)) {
    HexCell& c = s.hexes[a.hex];
    if (a.unit_type == UnitType::kInfantry) {
      ++c.placed_infantry;
    } else {
      ++c.placed_other;
    }
  }
}

}  // namespace

void do_place_reserve(GameState& s, const Action& a, Events& ev) {
  const int p = a.player;
  count_placement(s, p, a.unit_type, a.hex);
  if (place_unit(s, p, a.unit_type, a.hex, ev)) {
    add_once(s.placement_battles, a.hex);  // fought once everything is placed [13.5]
  }
}

// House rule Redeployment (docs/rules-notes.md, "House rules"). A unit that has stayed put
// this turn -- not moved, carried, placed or in an attack [10.6, 10.7] -- and stands alone
// with its own side's pieces may be placed instead of a Reserve unit of its type: same spots,
// same capacities [13.11], so it competes with the Reserve for them. It may leave a Town or
// City empty. Cargo sails with its Frigate and a Frigate with cargo keeps it [9.45], so
// neither is taken. Each redeployed unit has then moved, so it goes once per turn.
bool may_redeploy_unit(const GameState& s, int player, int unit) {
  if (unit < 0 || unit >= static_cast<int>(s.units.size())) return false;
  const Unit& u = s.units[unit];
  return u.owner == player && u.place == UnitPlace::kMap && u.carrier < 0 && !u.has_moved &&
         !u.move_done && !u.attacked && !u.transported && cargo_of(s, unit).empty() &&
         !foreign_pieces_at(s, player, u.hex);
}

Check check_redeploy(const GameState& s, const Action& a) {
  if (!s.options.redeployment) {
    return error("house_rule_off", "Redeployment is a house rule this game does not use.");
  }
  if (a.unit < 0 || a.unit >= static_cast<int>(s.units.size()))
    return error("bad_unit", "No such unit.");
  const Unit& u = s.units[a.unit];
  if (u.owner != a.player || u.place != UnitPlace::kMap)
    return error("not_your_unit", "That unit is not yours on the map.");
  if (u.carrier >= 0) return error("cargo", "Cargo stays aboard its Frigate [9.45].");
  if (!cargo_of(s, a.unit).empty()) {
    return error("has_cargo", "A Frigate carrying units cannot be redeployed [9.45].");
  }
  if (u.has_moved || u.move_done || u.attacked || u.transported) {
    return error("not_idle",
                 "Only a unit that has not moved, been carried, been placed or fought this turn "
                 "can be redeployed [10.6, 10.7].");
  }
  if (foreign_pieces_at(s, a.player, u.hex)) {
    return error("in_battle",
                 "A unit sharing its hex with another player's pieces cannot be redeployed "
                 "[12.0, 15.64].");
  }
  if (a.hex == u.hex) return error("same_hex", "The unit already stands there.");
  return check_placement_spot(s, a.player, u.type, a.hex);
}

void do_redeploy(GameState& s, const Action& a, Events& ev) {
  Unit& u = s.units[a.unit];
  count_placement(s, a.player, u.type, a.hex);
  Event e = make_event(EventKind::kUnitRedeployed);
  e.player = a.player;
  e.unit = a.unit;
  e.unit_type = u.type;
  e.from_hex = u.hex;
  e.hex = a.hex;
  ev.push_back(e);
  u.hex = a.hex;
  u.has_moved = true;
  u.move_done = true;
  u.moves_left = 0;
  reveal_neighbors(s, a.hex, a.player, ev);  // it enters its hex as a placed unit does [9.2]
  if (u.type == UnitType::kFrigate && enemy_units_at(s, a.player, a.hex)) {
    add_once(s.placement_battles, a.hex);  // fought once everything is placed [13.5]
  }
}

// [15.62] The Vassal reinforces only his Capital: land units in it, Frigates next to it.
Check check_reinforcement(const GameState& s, const Action& a) {
  const int p = a.player;
  if (reserve_unit_of(s, p, a.unit_type) < 0) {
    return error("not_in_reserve", "You have no such unit in your Reserve [13.0].");
  }
  if (a.hex < 0 || a.hex >= s.board().size()) return error("bad_hex", "No such hex.");
  if (a.unit_type == UnitType::kFrigate) {
    const auto spots = capital_frigate_spots(s, p);
    if (known_water(s, p, a.hex) && alliance_frigate_at(s, p, a.hex)) {
      return frigate_meeting(s, p, a.hex);
    }
    if (!known_water(s, p, a.hex) || std::find(spots.begin(), spots.end(), a.hex) == spots.end()) {
      return error("bad_frigate_spot",
                   "Now you may only place Frigates next to your Capital [15.62, 13.4].");
    }
    return frigate_meeting(s, p, a.hex);
  }
  if (!is_held_capital(s, p, a.hex)) {
    return error("capital_only", "Now you may only reinforce your Capital [15.62].");
  }
  return std::nullopt;
}

void do_reinforce(GameState& s, const Action& a, Events& ev) {
  if (place_unit(s, a.player, a.unit_type, a.hex, ev)) {
    add_once(s.capital_return->naval_battles, a.hex);  // fought when he is done [13.5]
  }
  advance_capital_return(s, ev);  // with his Reserve empty there is nothing left to decide
}

}  // namespace viktory::detail
