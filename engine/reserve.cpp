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

// [13.3] Adjacent water hexes, or if there are none the nearest water hexes.
std::vector<int> frigate_spots_for_forest_city(const GameState& s, int city_hex) {
  const Board& b = s.board();
  const int owner = s.hexes[city_hex].town_owner;
  std::vector<int> spots;
  int best = INT_MAX;
  for (int h = 0; h < b.size(); ++h) {
    if (!known_water(s, owner, h)) continue;
    const int d = b.distance(city_hex, h);
    if (d < best) {
      best = d;
      spots.clear();
    }
    if (d == best) spots.push_back(h);
  }
  return spots;
}

Check check_place_reserve(const GameState& s, const Action& a) {
  const int p = a.player;
  const Board& b = s.board();
  if (reserve_unit_of(s, p, a.unit_type) < 0) {
    return error("not_in_reserve", "You have no such unit in your Reserve [13.0].");
  }
  if (a.hex < 0 || a.hex >= b.size()) return error("bad_hex", "No such hex.");
  const bool have_capital = holds_own_capital(s, p);
  if (a.unit_type == UnitType::kFrigate) {
    if (!known_water(s, p, a.hex))
      return error("not_water", "Frigates are placed on water hexes [13.3].");
    const int cap = s.players[p].capital_hex;
    if (have_capital && b.distance(cap, a.hex) == 1) return std::nullopt;  // [13.4]
    if (forest_city_for(s, p, a.hex) >= 0) return std::nullopt;            // [13.3]
    return error("bad_frigate_spot",
                 "A Frigate is placed next to your Forest City (or the nearest water if it has "
                 "none), at most one per City per turn, not while an enemy unit is next to that "
                 "City, or next to your Capital [13.2-13.4].");
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

void do_place_reserve(GameState& s, const Action& a, Events& ev) {
  const int p = a.player;
  const int id = reserve_unit_of(s, p, a.unit_type);
  if (a.unit_type == UnitType::kFrigate) {
    const int cap = s.players[p].capital_hex;
    const bool by_capital = holds_own_capital(s, p) && s.board().distance(cap, a.hex) == 1;
    if (!by_capital) s.hexes[forest_city_for(s, p, a.hex)].placed_other += 1;
    if (enemy_units_at(s, p, a.hex) &&
        std::find(s.placement_battles.begin(), s.placement_battles.end(), a.hex) ==
            s.placement_battles.end()) {
      s.placement_battles.push_back(a.hex);  // fought once everything is placed [13.5]
    }
  } else if (!is_held_capital(s, p, a.hex)) {
    HexCell& c = s.hexes[a.hex];
    if (a.unit_type == UnitType::kInfantry) {
      ++c.placed_infantry;
    } else {
      ++c.placed_other;
    }
  }
  Unit& u = s.units[id];
  u.place = UnitPlace::kMap;
  u.hex = a.hex;
  u.moves_left = 0;
  u.move_done = true;
  Event e = make_event(EventKind::kUnitPlaced);
  e.player = p;
  e.unit = id;
  e.unit_type = a.unit_type;
  e.hex = a.hex;
  ev.push_back(e);
  reveal_neighbors(s, a.hex, p, ev);  // a placed unit enters its hex [9.2]
}

}  // namespace viktory::detail
