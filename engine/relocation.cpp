// Town/City Relocation [15.5]: instead of building, remove one Town or City (its units are
// eliminated) and rebuild it, whole, in an adjacent hex in the same Building Phase.
#include <algorithm>

#include "internal.h"

namespace viktory::detail {

// Where the Town/City removed from `from_hex` may stand again: an adjacent land hex the player
// knows, free of Towns and Cities and not next to one (the removed one aside) [7.21], with no
// other player's unit on it [7.22].
bool rebuild_site_ok(const GameState& s, int player, int hex, int from_hex) {
  const Board& b = s.board();
  if (hex < 0 || hex >= b.size() || b.distance(hex, from_hex) != 1) return false;
  if (!known_land(s, player, hex) || s.hexes[hex].town_owner != kNoPlayer) return false;
  for (int n : b.neighbors(hex)) {
    if (n != Board::kNoHex && n != from_hex && s.hexes[n].town_owner != kNoPlayer) return false;
  }
  return !other_units_at(s, player, hex);
}

Check check_remove_town(const GameState& s, const Action& a) {
  if (!s.options.town_relocation) {
    return error("not_in_play", "Town/City Relocation [15.5] is not in play in this game.");
  }
  if (auto e = can_build_at_all(s, a.player)) return e;
  if (a.hex < 0 || a.hex >= s.board().size()) return error("bad_hex", "No such hex.");
  if (s.hexes[a.hex].town_owner != a.player) {
    return error("not_your_town", "You can only relocate your own Towns and Cities [15.5].");
  }
  for (int n : s.board().neighbors(a.hex)) {
    if (n != Board::kNoHex && rebuild_site_ok(s, a.player, n, a.hex)) return std::nullopt;
  }
  return error("no_rebuild_site",
               "It must be rebuilt in an adjacent hex this phase, and no adjacent hex can take "
               "it [15.5, 7.21, 7.22].");
}

void do_remove_town(GameState& s, const Action& a, Events& ev) {
  HexCell& c = s.hexes[a.hex];
  const bool city = c.city;
  // Its supported units go back to stock [15.5, 10.2]; the player picks them, as after a loss.
  std::vector<UnitType> owed{UnitType::kInfantry};
  if (city) owed.push_back(city_unit_for(c.terrain));
  c.town_owner = kNoPlayer;
  c.city = false;
  s.relocation = PendingRelocation{a.player, a.hex, city};
  Event e = make_event(EventKind::kTownRemoved);
  e.player = a.player;
  e.hex = a.hex;
  e.value = city ? 1 : 0;
  ev.push_back(e);
  s.elimination = PendingElimination{a.player, owed};
  auto_eliminate(s, ev);
}

Check check_rebuild_town(const GameState& s, const Action& a) {
  if (!rebuild_site_ok(s, a.player, a.hex, s.relocation->from_hex)) {
    return error("bad_rebuild_site",
                 "Rebuild it on an adjacent land hex you know, not next to another Town or City "
                 "and without another player's unit [15.5, 7.21, 7.22].");
  }
  return std::nullopt;
}

void do_rebuild_town(GameState& s, const Action& a, Events& ev) {
  const PendingRelocation r = *s.relocation;
  s.relocation.reset();
  HexCell& from = s.hexes[r.from_hex];
  HexCell& c = s.hexes[a.hex];
  c.town_owner = a.player;
  c.city = r.city;
  c.built_this_turn = true;            // not yet a road or a port [9.13, 9.32]
  if (from.capital_of != kNoPlayer) {  // the Capital marker moves with its Town or City
    c.capital_of = from.capital_of;
    s.players[from.capital_of].capital_hex = a.hex;
    from.capital_of = kNoPlayer;
  }
  Event e = make_event(EventKind::kTownRelocated);
  e.player = a.player;
  e.from_hex = r.from_hex;
  e.hex = a.hex;
  e.value = r.city ? 1 : 0;
  ev.push_back(e);
  // Built anew: a Town reveals its neighbours, a City also the ring two hexes away [7.3]; its
  // units come back by the new hex's terrain [7.4, 8.2].
  auto fresh = reveal_neighbors(s, a.hex, a.player, ev);
  if (r.city) {
    for (int h : s.board().ring_around(a.hex, 2)) {
      if (reveal(s, h, a.player, ev)) fresh.push_back(h);
    }
  }
  gain_unit(s, a.player, UnitType::kInfantry, ev);
  if (r.city) gain_unit(s, a.player, city_unit_for(c.terrain), ev);
  set_phase(s, Phase::kMovement, ev);       // that was his build for the turn [7.2]
  offer_balancing(s, a.player, fresh, ev);  // [15.3]
}

}  // namespace viktory::detail
