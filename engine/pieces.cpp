// Who stands where, who is an enemy, and units gained and lost.
#include "internal.h"

namespace viktory {
namespace detail {

int movement_allowance(UnitType t) {
  switch (t) {
    case UnitType::kCavalry:
      return 3;  // [9.11]
    case UnitType::kFrigate:
      return 5;  // [9.31]
    default:
      return 2;  // [9.11]
  }
}

std::vector<int> units_at(const GameState& s, int hex) {
  std::vector<int> out;
  for (const Unit& u : s.units) {
    if (u.place == UnitPlace::kMap && u.hex == hex && u.carrier < 0) out.push_back(u.id);
  }
  return out;
}

std::vector<int> units_of_at(const GameState& s, int player, int hex) {
  std::vector<int> out;
  for (const Unit& u : s.units) {
    if (u.place == UnitPlace::kMap && u.hex == hex && u.carrier < 0 && u.owner == player) {
      out.push_back(u.id);
    }
  }
  return out;
}

std::vector<int> cargo_of(const GameState& s, int frigate) {
  std::vector<int> out;
  for (const Unit& u : s.units) {
    if (u.place == UnitPlace::kMap && u.carrier == frigate) out.push_back(u.id);
  }
  return out;
}

bool allied(const GameState& s, int a, int b) {
  if (a == b || a < 0 || b < 0 || !subjugation_rules(s.options)) return false;
  const int ra = s.players[a].ruler;
  const int rb = s.players[b].ruler;
  // Alliances are flat [15.61, 15.65]: a Ruler and his Vassals, none of whom has Vassals.
  return ra == b || rb == a || (ra != kNoPlayer && ra == rb);
}

bool may_attack(const GameState& s, int player) {
  return s.players[player].reorganization != Reorganization::kThisTurn;  // [15.63]
}

int enemy_owner_at(const GameState& s, int player, int hex) {
  for (const Unit& u : s.units) {
    if (u.place == UnitPlace::kMap && u.hex == hex && u.carrier < 0 && u.owner != player &&
        !allied(s, player, u.owner)) {
      return u.owner;
    }
  }
  return kNoPlayer;
}

bool enemy_units_at(const GameState& s, int player, int hex) {
  return enemy_owner_at(s, player, hex) != kNoPlayer;
}

bool other_units_at(const GameState& s, int player, int hex) {
  for (const Unit& u : s.units) {
    if (u.place == UnitPlace::kMap && u.hex == hex && u.carrier < 0 && u.owner != player) {
      return true;
    }
  }
  return false;
}

bool enemy_town_at(const GameState& s, int player, int hex) {
  const int owner = s.hexes[hex].town_owner;
  return owner != kNoPlayer && owner != player && !allied(s, player, owner);
}

bool hostile_hex(const GameState& s, int player, int hex) {
  return enemy_units_at(s, player, hex) || enemy_town_at(s, player, hex);
}

int allied_owner_at(const GameState& s, int player, int hex) {
  if (!subjugation_rules(s.options)) return kNoPlayer;  // no Alliances without [15.6]
  const int town = s.hexes[hex].town_owner;
  if (allied(s, player, town)) return town;
  for (const Unit& u : s.units) {
    if (u.place == UnitPlace::kMap && u.hex == hex && u.carrier < 0 && allied(s, player, u.owner)) {
      return u.owner;
    }
  }
  return kNoPlayer;
}

bool foreign_pieces_at(const GameState& s, int player, int hex) {
  const int town = s.hexes[hex].town_owner;
  return (town != kNoPlayer && town != player) || other_units_at(s, player, hex);
}

bool owns_town(const GameState& s, int player, int hex) {
  return hex >= 0 && s.hexes[hex].town_owner == player;
}

bool friendly_town(const GameState& s, int player, int hex) {
  return owns_town(s, player, hex) || (hex >= 0 && allied(s, player, s.hexes[hex].town_owner));
}

bool holds_own_capital(const GameState& s, int player) {
  const int cap = s.players[player].capital_hex;
  return cap >= 0 && s.hexes[cap].town_owner == player;
}

int gain_unit(GameState& s, int player, UnitType type, Events& ev) {
  Unit u;
  u.id = static_cast<int>(s.units.size());
  u.owner = player;
  u.type = type;
  u.place = UnitPlace::kReserve;
  s.units.push_back(u);
  Event e = make_event(EventKind::kUnitGained);
  e.player = player;
  e.unit = u.id;
  e.unit_type = type;
  ev.push_back(e);
  return u.id;
}

void lose_unit(GameState& s, int unit, Events& ev) {
  for (int c : cargo_of(s, unit)) lose_unit(s, c, ev);  // cargo goes down with its Frigate [9.45]
  Unit& u = s.units[unit];
  Event e = make_event(EventKind::kUnitLost);
  e.player = u.owner;
  e.unit = u.id;
  e.unit_type = u.type;
  e.hex = u.hex;
  ev.push_back(e);
  u.place = UnitPlace::kReserve;
  u.hex = -1;
  u.carrier = -1;
  u.moves_left = 0;
  u.move_done = true;
  if (s.active_unit == unit) s.active_unit = -1;
}

void eliminate_unit(GameState& s, int unit, Events& ev) {
  for (int c : cargo_of(s, unit)) lose_unit(s, c, ev);
  Unit& u = s.units[unit];
  Event e = make_event(EventKind::kUnitEliminated);
  e.player = u.owner;
  e.unit = u.id;
  e.unit_type = u.type;
  e.hex = u.hex;
  ev.push_back(e);
  u.place = UnitPlace::kStock;
  u.hex = -1;
  u.carrier = -1;
  if (s.active_unit == unit) s.active_unit = -1;
}

int frigate_with_room(const GameState& s, int player, int hex) {
  for (int f : units_of_at(s, player, hex)) {
    if (s.units[f].type == UnitType::kFrigate &&
        static_cast<int>(cargo_of(s, f).size()) < kFrigateCapacity) {
      return f;
    }
  }
  return -1;
}

void go_aboard(GameState& s, int land, int frigate, bool new_unit) {
  s.units[land].carrier = frigate;
  if (new_unit) ++s.units[frigate].carried_this_turn;
}

void finish_active_unit(GameState& s, Events& ev) {
  if (s.active_unit < 0) return;
  const int unit = s.active_unit;
  Unit& u = s.units[unit];
  u.move_done = true;
  u.moves_left = 0;
  s.active_unit = -1;
  unit_stopped(s, unit, ev);
}

}  // namespace detail
}  // namespace viktory
