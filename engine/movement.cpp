// Movement [9.0-9.4]: land moves, slow terrain, roads, Frigates, ports and naval transport.
#include <algorithm>
#include <deque>

#include "internal.h"
#include "sight.h"

namespace viktory::detail {
namespace {

bool is_port_for(const GameState& s, int player, int hex) {
  // [9.32] A port is a land hex holding one of the player's Towns or Cities, adjacent to water;
  // a Town built this turn is not a port yet.
  const HexCell& c = s.hexes[hex];
  if (!is_land(c.terrain) || c.town_owner != player || c.built_this_turn) return false;
  for (int n : s.board().neighbors(hex)) {
    if (n != Board::kNoHex && known_water(s, player, n)) return true;
  }
  return false;
}

bool in_port(const GameState& s, const Unit& u) {
  return u.type == UnitType::kFrigate && u.place == UnitPlace::kMap &&
         is_land(s.hexes[u.hex].terrain);
}

Check own_unit_on_map(const GameState& s, const Action& a, const char* verb) {
  if (a.unit < 0 || a.unit >= static_cast<int>(s.units.size()))
    return error("bad_unit", "No such unit.");
  const Unit& u = s.units[a.unit];
  if (u.owner != a.player) return error("not_your_unit", "That unit is not yours.");
  if (u.place != UnitPlace::kMap)
    return error("not_on_map", std::string("Only units on the map can ") + verb + ".");
  return std::nullopt;
}

}  // namespace

// A unit in a port, or on Alliance pieces it may not stop on, must move on before anything
// else happens [9.32, 15.64].
Check transit_blocks(const GameState& s, int acting_unit) {
  if (s.active_unit < 0 || s.active_unit == acting_unit) return std::nullopt;
  if (in_port(s, s.units[s.active_unit])) {
    return error("frigate_in_port", "The Frigate in port must sail out first [9.32].");
  }
  if (must_move_on(s)) {
    return error("must_move_on",
                 "The unit passing through Alliance pieces must move on first: it may not stop "
                 "there [15.64].");
  }
  return std::nullopt;
}

bool rough_terrain(const GameState& s, Terrain t) {
  return !s.options.terrain_leveling && is_rough(t);  // [15.1]
}

// [9.12] A land unit of `player` entering `hex` must stop there: Forest or Mountain, unless
// the hex holds his Town/City or one of his land units began the turn there. Alliance Towns,
// Cities and land units count as his own [15.64].
bool slow_stop(const GameState& s, int player, int hex) {
  const HexCell& c = s.hexes[hex];
  if (!rough_terrain(s, c.terrain) || friendly_town(s, player, hex)) return false;
  for (int p = 0; p < static_cast<int>(s.players.size()); ++p) {
    if ((p == player || allied(s, player, p)) && (c.began_turn_with_land_unit & bit(p)) != 0) {
      return false;
    }
  }
  return true;
}

bool road_connected(const GameState& s, int player, int from, int to) {
  // [9.13] Two of the player's Towns/Cities (neither built this turn) 2 or 3 land hexes apart
  // along some path of land hexes free of enemy units. Alliance Towns and Cities serve as his
  // own, and Alliance units do not block [15.64].
  const Board& b = s.board();
  if (from == to || !friendly_town(s, player, from) || !friendly_town(s, player, to)) {
    return false;
  }
  if (s.hexes[from].built_this_turn || s.hexes[to].built_this_turn) return false;
  const int d = b.distance(from, to);
  if (d < 2 || d > 3) return false;
  // Fog of war: a road runs only through hexes in his sight (to the end), so that whether it
  // is open never tells of enemy units he cannot see (docs/rules-notes.md, "Fog of war").
  const bool fog = fog_applies(s, player);
  const std::vector<bool> seen = fog ? sight_of(s, player) : std::vector<bool>{};
  auto unseen = [&](int hex) { return fog && !seen[static_cast<std::size_t>(hex)]; };
  if (unseen(to)) return false;
  std::vector<int> depth(static_cast<std::size_t>(b.size()), -1);
  std::deque<int> queue{from};
  depth[from] = 0;
  while (!queue.empty()) {
    const int h = queue.front();
    queue.pop_front();
    if (depth[h] == 3) continue;
    for (int n : b.neighbors(h)) {
      if (n == Board::kNoHex || depth[n] >= 0 || !known_land(s, player, n)) continue;
      if (unseen(n)) continue;
      if (n == to) return depth[h] + 1 >= 2;
      if (enemy_units_at(s, player, n)) continue;
      depth[n] = depth[h] + 1;
      queue.push_back(n);
    }
  }
  return false;
}

namespace {

// What ending a move on `hex` would mean for a unit of `player`.
enum class Stop {
  kFree,          // nothing of anybody else's there
  kBattle,        // enemy pieces (or his Vassal's, which he may attack): a Battle [12.0, 15.64]
  kPassOnly,      // Alliance pieces he may pass but not stop on [15.64]
  kBattleFought,  // a second Battle in the hex this turn [12.2]
  kNoAttack,      // he may not attack this turn [15.63]
};

Stop stop_kind(const GameState& s, int player, int hex) {
  if (hostile_hex(s, player, hex)) {
    if (s.hexes[hex].battle_this_turn) return Stop::kBattleFought;
    return may_attack(s, player) ? Stop::kBattle : Stop::kNoAttack;
  }
  if (allied_owner_at(s, player, hex) != kNoPlayer) {
    return may_attack_ally_at(s, player, hex) ? Stop::kBattle : Stop::kPassOnly;
  }
  return Stop::kFree;
}

Check refused_stop(Stop stop) {
  switch (stop) {
    case Stop::kBattleFought:
      return error("battle_fought", "Only one Battle may be fought in a hex per turn [12.2].");
    case Stop::kNoAttack:
      return error("reorganization",
                   "You lost your Capital: you may not attack anybody on this Player Turn "
                   "[15.63].");
    case Stop::kPassOnly:
      return error("alliance_stop",
                   "You may pass through Alliance units, Towns and Cities, but not stop there "
                   "[15.64].");
    default:
      return std::nullopt;
  }
}

// The hexes a unit standing on `hex` can reach with its next move, ignoring what stands there.
std::vector<int> next_steps(const GameState& s, const Unit& u, int hex) {
  const Board& b = s.board();
  std::vector<int> out;
  for (int n : b.neighbors(hex)) {
    if (n == Board::kNoHex) continue;
    if (u.type == UnitType::kFrigate ? known_water(s, u.owner, n) : known_land(s, u.owner, n)) {
      out.push_back(n);
    }
  }
  if (is_land_unit(u.type) && friendly_town(s, u.owner, hex)) {
    for (int d = 2; d <= 3; ++d) {
      for (int h : b.ring_around(hex, d)) {
        if (road_connected(s, u.owner, hex, h)) out.push_back(h);
      }
    }
  }
  return out;
}

// Whether `u`, standing on `hex` with `mp` Movement Points, can still reach a hex where it may
// end its move, passing only over Alliance pieces on the way [15.64]. Ports are not counted
// as a way on (a Frigate passing Alliance Frigates keeps to the water).
bool can_move_on(const GameState& s, const Unit& u, int hex, int mp) {
  if (mp <= 0) return false;
  for (int next : next_steps(s, u, hex)) {
    const Stop stop = stop_kind(s, u.owner, next);
    if (stop == Stop::kFree || stop == Stop::kBattle) return true;
    if (stop != Stop::kPassOnly) continue;
    const bool forced = mp - 1 <= 0 || (is_land_unit(u.type) && slow_stop(s, u.owner, next));
    if (!forced && can_move_on(s, u, next, mp - 1)) return true;
  }
  return false;
}

// Entering `hex` is allowed as far as who stands there goes: a Battle he may fight, or Alliance
// pieces he may pass over and still get off in this move.
Check may_enter(const GameState& s, const Unit& u, int hex) {
  // Without Subjugation there are no Alliances or reorganizations, and a second Battle in a
  // hex is refused before this is asked [12.2].
  if (!subjugation_rules(s.options)) return std::nullopt;
  const Stop stop = stop_kind(s, u.owner, hex);
  if (stop == Stop::kBattleFought || stop == Stop::kNoAttack) return refused_stop(stop);
  if (stop != Stop::kPassOnly) return std::nullopt;
  const int left = u.moves_left - 1;
  const bool forced = left <= 0 || (is_land_unit(u.type) && slow_stop(s, u.owner, hex));
  if (forced || !can_move_on(s, u, hex, left)) return refused_stop(stop);
  return std::nullopt;
}

}  // namespace

Check check_move(const GameState& s, const Action& a) {
  if (auto e = own_unit_on_map(s, a, "move")) return e;
  if (auto e = transit_blocks(s, a.unit)) return e;
  const Board& b = s.board();
  const Unit& u = s.units[a.unit];
  if (a.hex < 0 || a.hex >= b.size()) return error("bad_hex", "No such hex.");
  if (u.carrier >= 0) {
    return error("cargo", "Cargo moves with its Frigate; disembark it instead [9.45].");
  }
  if (u.attacked) return error("attacked", "A unit that attacked cannot move further [10.7].");
  if (u.move_done || u.moves_left <= 0) {
    return error("move_finished", "This unit's movement is over for this turn [9.0].");
  }
  if (u.transported) {
    return error("transported", "A transported land unit cannot move this turn [9.43].");
  }
  if (!in_sight(s, a.player, a.hex)) {
    // Fog of war: every hex a unit can step into is next to it, hence in sight; a road's end
    // must be too (road_connected). One refusal whatever stands there.
    return error("unseen", "You cannot see into that hex (fog of war).");
  }
  if (s.hexes[a.hex].battle_this_turn && hostile_hex(s, a.player, a.hex)) {
    return error("battle_fought", "Only one Battle may be fought in a hex per turn [12.2].");
  }
  const int d = b.distance(u.hex, a.hex);
  if (u.type == UnitType::kFrigate) {
    if (d != 1) return error("not_adjacent", "Frigates move one hex at a time [9.3].");
    if (known_water(s, a.player, a.hex)) return may_enter(s, u, a.hex);
    if (in_port(s, u))
      return error("must_leave_port", "From a port a Frigate must sail into water [9.32].");
    if (!is_port_for(s, a.player, a.hex)) {
      return error("not_water",
                   "Frigates must stay on water hexes, except through a port [9.3, 9.32].");
    }
    if (u.moves_left < 2) {
      return error("port_needs_two",
                   "Entering and leaving a port costs two Movement Points [9.32].");
    }
    return may_enter(s, u, a.hex);
  }
  if (d == 1) {
    if (!known_land(s, a.player, a.hex)) {
      return error("not_land", "Land units must stay on land hexes [9.1].");
    }
    return may_enter(s, u, a.hex);
  }
  if (road_connected(s, a.player, u.hex, a.hex)) return may_enter(s, u, a.hex);  // [9.13]
  return error("not_adjacent",
               "Units move to an adjacent hex, or by road between your Towns and Cities 2-3 land "
               "hexes apart with no enemy units on the way [9.0, 9.13].");
}

void do_move(GameState& s, const Action& a, Events& ev) {
  if (s.active_unit >= 0 && s.active_unit != a.unit) finish_active_unit(s, ev);  // [9.0]
  Unit& u = s.units[a.unit];
  const int from = u.hex;
  const bool road = s.board().distance(from, a.hex) > 1;
  s.active_unit = a.unit;
  u.has_moved = true;
  u.moves_left -= 1;
  u.hex = a.hex;
  for (int c : cargo_of(s, a.unit)) s.units[c].hex = a.hex;
  Event e = make_event(EventKind::kUnitMoved);
  e.player = a.player;
  e.unit = a.unit;
  e.unit_type = u.type;
  e.from_hex = from;
  e.hex = a.hex;
  e.value = road ? 1 : 0;
  ev.push_back(e);
  if (foreign_pieces_at(s, a.player, a.hex)) {
    s.entries.push_back({a.hex, from});  // for the retreat limitation [12.3 step 3]
  }
  const auto fresh = reveal_neighbors(s, a.hex, a.player, ev);  // [9.2]
  bool stop = u.moves_left <= 0;
  if (hostile_hex(s, a.player, a.hex)) stop = true;  // entering an enemy hex [9.0 Prohibitions]
  if (is_land_unit(u.type) && slow_stop(s, a.player, a.hex)) stop = true;  // [9.12]
  if (stop && !in_port(s, u)) {
    u.moves_left = 0;
    u.move_done = true;
    s.active_unit = -1;
    unit_stopped(s, a.unit, ev);
  }
  offer_balancing(s, a.player, fresh, ev);  // [15.3]
}

Check check_embark(const GameState& s, const Action& a) {
  if (auto e = own_unit_on_map(s, a, "embark")) return e;
  if (auto e = transit_blocks(s, a.carrier)) return e;
  const Unit& u = s.units[a.unit];
  if (!is_land_unit(u.type)) return error("not_land_unit", "Only land units can be carried [9.4].");
  if (u.carrier >= 0) return error("already_cargo", "That unit is already aboard a Frigate.");
  if (u.has_moved || u.attacked || u.move_done) {
    return error("moved", "Land units may not move before being transported [9.43].");
  }
  if (a.carrier < 0 || a.carrier >= static_cast<int>(s.units.size())) {
    return error("bad_carrier", "No such Frigate.");
  }
  const Unit& f = s.units[a.carrier];
  if (f.owner != a.player || f.type != UnitType::kFrigate || f.place != UnitPlace::kMap) {
    return error("bad_carrier", "Units can only board one of your Frigates on the map [9.4].");
  }
  if (in_port(s, f)) return error("in_port", "A Frigate in port cannot pick up units [9.32].");
  if (s.board().distance(u.hex, f.hex) != 1) {
    return error("not_adjacent", "The Frigate must be in a water hex next to the unit [9.42].");
  }
  if (static_cast<int>(cargo_of(s, a.carrier).size()) >= kFrigateCapacity ||
      f.carried_this_turn >= kFrigateCapacity) {
    return error("frigate_full", "A Frigate carries at most 3 land units, and 3 in a turn [9.41].");
  }
  if (hostile_hex(s, a.player, u.hex)) {
    return error("in_battle", "Units facing the enemy cannot leave the hex [12.3].");
  }
  return std::nullopt;
}

void do_embark(GameState& s, const Action& a, Events& ev) {
  // Naval transport is the one exception to moving units one at a time [9.0]: the Frigate's
  // movement goes on while it picks units up.
  if (s.active_unit >= 0 && s.active_unit != a.carrier) finish_active_unit(s, ev);
  Unit& f = s.units[a.carrier];
  Unit& u = s.units[a.unit];
  const int from = u.hex;
  u.carrier = a.carrier;
  u.hex = f.hex;
  u.has_moved = true;
  u.transported = true;
  u.moves_left = 0;
  u.move_done = true;  // embarking uses its whole allowance [9.43]
  ++f.carried_this_turn;
  f.has_moved = true;
  if (!f.move_done) s.active_unit = a.carrier;
  Event e = make_event(EventKind::kUnitEmbarked);
  e.player = a.player;
  e.unit = a.unit;
  e.unit_type = u.type;
  e.other_unit = a.carrier;
  e.from_hex = from;
  e.hex = f.hex;
  ev.push_back(e);
}

Check check_disembark(const GameState& s, const Action& a) {
  if (auto e = own_unit_on_map(s, a, "disembark")) return e;
  const Unit& u = s.units[a.unit];
  if (u.carrier < 0) return error("not_cargo", "That unit is not aboard a Frigate.");
  if (auto e = transit_blocks(s, u.carrier)) return e;
  const Unit& f = s.units[u.carrier];
  const Board& b = s.board();
  if (a.hex < 0 || a.hex >= b.size()) return error("bad_hex", "No such hex.");
  if (in_port(s, f)) return error("in_port", "A Frigate in port cannot drop off units [9.32].");
  if (b.distance(f.hex, a.hex) != 1 || !known_land(s, a.player, a.hex)) {
    return error("bad_landing", "Units land on a land hex next to their Frigate [9.46].");
  }
  if (f.disembark_hex >= 0 && f.disembark_hex != a.hex) {
    return error("one_landing_hex",
                 "A Frigate can drop off units into a single hex per turn [9.46].");
  }
  if (s.hexes[a.hex].battle_this_turn && hostile_hex(s, a.player, a.hex)) {
    return error("battle_fought", "Only one Battle may be fought in a hex per turn [12.2].");
  }
  if (hostile_hex(s, a.player, f.hex)) {
    return error("in_battle", "A Frigate facing an enemy Frigate cannot land units [12.0].");
  }
  // Landing ends the Frigate's move where it is and the landed unit's on the landing hex; on
  // Alliance pieces only a Ruler attacking his Vassal may stop [15.64].
  for (int hex : {f.hex, a.hex}) {
    const Stop stop = stop_kind(s, a.player, hex);
    if (stop != Stop::kFree && stop != Stop::kBattle) return refused_stop(stop);
  }
  return std::nullopt;
}

void do_disembark(GameState& s, const Action& a, Events& ev) {
  Unit& u = s.units[a.unit];
  const int frigate = u.carrier;
  if (s.active_unit >= 0 && s.active_unit != frigate) finish_active_unit(s, ev);
  Unit& f = s.units[frigate];
  const int from = f.hex;
  u.carrier = -1;
  u.hex = a.hex;
  u.transported = true;
  u.has_moved = true;
  u.moves_left = 0;
  u.move_done = true;
  f.disembark_hex = a.hex;
  f.moves_left = 0;  // disembarking ends the Frigate's movement [9.46]
  f.move_done = true;
  f.has_moved = true;
  s.active_unit = -1;
  Event e = make_event(EventKind::kUnitDisembarked);
  e.player = a.player;
  e.unit = a.unit;
  e.unit_type = u.type;
  e.other_unit = frigate;
  e.from_hex = from;
  e.hex = a.hex;
  ev.push_back(e);
  if (foreign_pieces_at(s, a.player, a.hex)) s.entries.push_back({a.hex, from});  // [9.47]
  const auto fresh = reveal_neighbors(s, a.hex, a.player, ev);                    // [9.2]
  unit_stopped(s, frigate, ev);
  unit_stopped(s, a.unit, ev);
  offer_balancing(s, a.player, fresh, ev);  // [15.3]
}

}  // namespace viktory::detail
