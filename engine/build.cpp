// Building Phase: one new Town or one upgrade to a City per turn [7.0-7.4].
#include <algorithm>
#include <deque>

#include "internal.h"

namespace viktory::detail {

Check can_build_at_all(const GameState& s, int player) {
  if (!s.players[player].held_capital_at_turn_start) {
    return error("no_capital",
                 "You did not hold your Capital at the start of your turn, so you cannot "
                 "build [7.1, 14.0].");
  }
  return std::nullopt;
}

namespace {

// [7.21] A contiguous path of 2-3 revealed hexes links `hex` to one of the player's Towns or
// Cities. Every hex on the path must be revealed (to him, under independent exploration).
bool linked_by_revealed_path(const GameState& s, int player, int hex) {
  const Board& b = s.board();
  std::vector<int> depth(static_cast<std::size_t>(b.size()), -1);
  std::deque<int> queue{hex};
  depth[hex] = 0;
  while (!queue.empty()) {
    const int h = queue.front();
    queue.pop_front();
    if (depth[h] >= 2 && s.hexes[h].town_owner == player) return true;
    if (depth[h] == 3) continue;
    for (int n : b.neighbors(h)) {
      if (n == Board::kNoHex || depth[n] >= 0 || !knows(s, player, n)) continue;
      depth[n] = depth[h] + 1;
      queue.push_back(n);
    }
  }
  return false;
}

}  // namespace

Check check_build_town(const GameState& s, const Action& a) {
  if (auto e = can_build_at_all(s, a.player)) return e;
  const Board& b = s.board();
  if (a.hex < 0 || a.hex >= b.size()) return error("bad_hex", "No such hex.");
  if (!knows(s, a.player, a.hex)) {
    return error("unexplored", "Towns can only be built on explored hexes [7.21].");
  }
  if (!is_land(s.hexes[a.hex].terrain)) {
    return error("not_land", "Towns can only be built on land hexes [7.21].");
  }
  if (s.hexes[a.hex].town_owner != kNoPlayer) {
    return error("occupied", "There is already a Town or City there [7.21].");
  }
  for (int n : b.neighbors(a.hex)) {
    if (n != Board::kNoHex && s.hexes[n].town_owner != kNoPlayer) {
      return error("adjacent_town", "No two Towns or Cities may be in adjacent hexes [7.21].");
    }
  }
  // Fog of war: whether another player's unit stands on a hex he cannot see is not his to
  // know; such a hex is refused below, after the checks that depend on public facts alone.
  const bool seen = in_sight(s, a.player, a.hex);
  if (seen && other_units_at(s, a.player, a.hex)) {
    return error("enemy_units", "No Town may be built on a hex with another player's unit [7.22].");
  }
  bool in_range = false;
  for (int h = 0; h < b.size() && !in_range; ++h) {
    if (s.hexes[h].town_owner != a.player) continue;
    const int d = b.distance(h, a.hex);
    in_range = d == 2 || d == 3;
  }
  if (!in_range) {
    return error("out_of_range",
                 "New Towns must be 2 or 3 hexes from one of your Towns or Cities [7.21].");
  }
  if (!linked_by_revealed_path(s, a.player, a.hex)) {
    return error("not_contiguous",
                 "The hex must be linked to one of your Towns or Cities by a contiguous 2-3 hex "
                 "path of revealed hexes [7.21].");
  }
  if (!seen) {
    return error("unseen", "Under fog of war Towns are built only on hexes in your sight [7.22].");
  }
  return std::nullopt;
}

void do_build_town(GameState& s, const Action& a, Events& ev) {
  HexCell& c = s.hexes[a.hex];
  c.town_owner = a.player;
  c.city = false;
  c.built_this_turn = true;  // not yet a road or a port [9.13, 9.32]
  Event e = make_event(EventKind::kTownBuilt);
  e.player = a.player;
  e.hex = a.hex;
  ev.push_back(e);
  const auto fresh = reveal_neighbors(s, a.hex, a.player, ev);  // [7.3]
  gain_unit(s, a.player, UnitType::kInfantry, ev);              // [7.4, 8.1]
  s.phase = Phase::kMovement;                                   // one build per turn [7.2]
  Event ph = make_event(EventKind::kPhaseChanged);
  ph.player = a.player;
  ph.value = static_cast<int>(Phase::kMovement);
  ev.push_back(ph);
  offer_balancing(s, a.player, fresh, ev);  // [15.3]
}

Check check_upgrade_city(const GameState& s, const Action& a) {
  if (auto e = can_build_at_all(s, a.player)) return e;
  if (a.hex < 0 || a.hex >= s.board().size()) return error("bad_hex", "No such hex.");
  const HexCell& c = s.hexes[a.hex];
  if (c.town_owner != a.player)
    return error("not_your_town", "You can only upgrade your own Towns [7.23].");
  if (c.city) return error("already_city", "That is already a City [7.23].");
  return std::nullopt;
}

void do_upgrade_city(GameState& s, const Action& a, Events& ev) {
  HexCell& c = s.hexes[a.hex];
  c.city = true;
  Event e = make_event(EventKind::kCityUpgraded);
  e.player = a.player;
  e.hex = a.hex;
  ev.push_back(e);
  std::vector<int> fresh;
  for (int h : s.board().ring_around(a.hex, 2)) {
    if (reveal(s, h, a.player, ev)) fresh.push_back(h);  // [7.3]
  }
  gain_unit(s, a.player, city_unit_for(c.terrain), ev);  // [7.4, 8.2]
  s.phase = Phase::kMovement;
  Event ph = make_event(EventKind::kPhaseChanged);
  ph.player = a.player;
  ph.value = static_cast<int>(Phase::kMovement);
  ev.push_back(ph);
  offer_balancing(s, a.player, fresh, ev);  // [15.3]
}

}  // namespace viktory::detail
