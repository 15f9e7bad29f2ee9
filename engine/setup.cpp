// The first turn: each player in turn builds his Capital [4.0].
#include <algorithm>

#include "internal.h"

namespace viktory::detail {

Check check_place_capital(const GameState& s, const Action& a) {
  if (s.players[a.player].capital_hex >= 0) {
    return error("capital_exists", "Your Capital is already placed [4.0].");
  }
  if (std::find(s.capital_choices.begin(), s.capital_choices.end(), a.hex) ==
      s.capital_choices.end()) {
    return error("bad_capital_hex",
                 "The Capital must go on a revealed land hex of your start area, not next to "
                 "another Town or City [4.0, 7.21].");
  }
  return std::nullopt;
}

void do_place_capital(GameState& s, const Action& a, Events& ev) {
  const int p = a.player;
  HexCell& c = s.hexes[a.hex];
  c.town_owner = p;
  c.capital_of = p;
  s.players[p].capital_hex = a.hex;
  s.capital_choices.clear();
  Event e = make_event(EventKind::kCapitalPlaced);
  e.player = p;
  e.hex = a.hex;
  ev.push_back(e);
  const auto fresh = reveal_neighbors(s, a.hex, p, ev);  // [7.3]
  // [4.0 steps 3-4] The Capital's Infantry goes to the Reserve and straight onto the Capital.
  const int id = gain_unit(s, p, UnitType::kInfantry, ev);
  Unit& u = s.units[id];
  u.place = UnitPlace::kMap;
  u.hex = a.hex;
  Event placed = make_event(EventKind::kUnitPlaced);
  placed.player = p;
  placed.unit = id;
  placed.unit_type = UnitType::kInfantry;
  placed.hex = a.hex;
  ev.push_back(placed);

  offer_balancing(s, p, fresh, ev);  // [15.3] building the Capital is an act of building
  if (!s.balance) advance_setup(s, ev);
}

// [4.0 step 5] The next player clockwise builds his Capital; after the last, the first player
// begins the first real Player Turn [4.0 step 6].
void advance_setup(GameState& s, Events& ev) {
  for (int next = player_after(s, s.current); next != s.first_player;
       next = player_after(s, next)) {
    if (s.players[next].in_game() && s.players[next].capital_hex < 0) {
      begin_setup(s, next, ev);
      return;
    }
  }
  begin_turn(s, next_in_game(s, player_before(s, s.first_player)), ev);
}

}  // namespace viktory::detail
