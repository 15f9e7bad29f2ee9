// Invariants every reachable state keeps; the property test checks them after every action.
#include <algorithm>
#include <array>
#include <functional>
#include <string>

#include "internal.h"

namespace viktory {
using namespace detail;

std::optional<std::string> check_invariants(const GameState& s) {
  const Board& b = s.board();
  const int n = static_cast<int>(s.players.size());
  if (static_cast<int>(s.hexes.size()) != b.size()) return "hex table size";
  for (int h = 0; h < b.size(); ++h) {
    const HexCell& c = s.hexes[h];
    if (b.is_perimeter(h) && c.terrain != Terrain::kWater)
      return "perimeter hex not water at " + b.label(h);
    if (c.town_owner != kNoPlayer) {
      if (!is_land(c.terrain)) return "Town on non-land at " + b.label(h);
      for (int nb : b.neighbors(h)) {
        if (nb != Board::kNoHex && s.hexes[nb].town_owner != kNoPlayer) {
          return "adjacent Towns at " + b.label(h) + " and " + b.label(nb);  // [7.21]
        }
      }
    }
  }
  std::vector<std::array<int, kUnitTypes>> have(static_cast<std::size_t>(n)),
      supported(static_cast<std::size_t>(n));
  for (const Unit& u : s.units) {
    if (u.place == UnitPlace::kStock) continue;
    if (u.owner < 0 || u.owner >= n) return "unit with bad owner";
    ++have[u.owner][static_cast<int>(u.type)];
    if (u.place != UnitPlace::kMap) continue;
    if (u.hex < 0 || u.hex >= b.size()) return "unit off the board";
    const Terrain t = s.hexes[u.hex].terrain;
    if (u.carrier >= 0) {
      const Unit& f = s.units[u.carrier];
      if (f.type != UnitType::kFrigate || f.place != UnitPlace::kMap || f.hex != u.hex ||
          f.owner != u.owner) {
        return "cargo not aboard its own Frigate";
      }
      if (!is_land_unit(u.type)) return "Frigate as cargo";
    } else if (is_land_unit(u.type)) {
      if (!is_land(t)) return "land unit on water at " + b.label(u.hex);  // [9.1]
    } else if (t != Terrain::kWater) {
      // Only a Frigate passing through a port may stand on land, and only while it moves (or
      // when the game ended mid-move, e.g. because another player conceded).
      const bool in_own_port = s.hexes[u.hex].town_owner == u.owner;
      if (!(in_own_port && (s.active_unit == u.id || s.phase == Phase::kGameOver))) {
        return "Frigate on land at " + b.label(u.hex);
      }
    }
    if (u.type == UnitType::kFrigate &&
        static_cast<int>(cargo_of(s, u.id).size()) > kFrigateCapacity) {
      return "more than 3 cargo [9.41]";
    }
  }
  for (const HexCell& c : s.hexes) {
    if (c.town_owner == kNoPlayer) continue;
    ++supported[c.town_owner][static_cast<int>(UnitType::kInfantry)];
    if (c.city) ++supported[c.town_owner][static_cast<int>(city_unit_for(c.terrain))];
  }
  if (s.elimination) {
    for (UnitType t : s.elimination->owed) --have[s.elimination->player][static_cast<int>(t)];
  }
  for (int p = 0; p < n; ++p) {
    if (have[p] == supported[p]) continue;
    // A concession that leaves one player ends the game at once, also while a player still owed
    // units for a Town or City he lost [5.1, 10.2]: those units were never chosen and stay. A
    // finished game may show more units than Towns and Cities support, never fewer.
    const bool owed_at_the_end =
        s.phase == Phase::kGameOver &&
        std::equal(have[p].begin(), have[p].end(), supported[p].begin(), std::greater_equal<>());
    if (!owed_at_the_end) {
      return "units do not match Towns and Cities for player " + std::to_string(p) + " [8.2]";
    }
  }
  // Seating: a permutation of the players [4.0, 15.2].
  if (static_cast<int>(s.turn_order.size()) != n) return "turn order of the wrong size";
  for (int p = 0; p < n; ++p) {
    if (std::count(s.turn_order.begin(), s.turn_order.end(), p) != 1) {
      return "turn order is not a seating of the players";
    }
  }
  // Alliances are flat: a Vassal's Ruler is another player in the game who has no Ruler
  // himself [15.61, 15.65].
  for (int p = 0; p < n; ++p) {
    const int r = s.players[p].ruler;
    if (r == kNoPlayer) continue;
    if (!subjugation_rules(s.options)) return "a Vassal without the Subjugation rules";
    if (r == p || r < 0 || r >= n) return "bad Ruler of player " + std::to_string(p);
    if (!s.players[p].in_game() || !s.players[r].in_game()) return "a Vassal or Ruler out of play";
    if (s.players[r].ruler != kNoPlayer) return "a Ruler who is a Vassal himself [15.65]";
  }
  // Nobody stops on Alliance pieces [15.64]: only the unit passing through, or the Ruler's
  // units leaving his new Vassal's Capital [15.62], stand there (or stood there when the game
  // ended, e.g. by that very capture [15.66]).
  for (const Unit& u : s.units) {
    if (s.phase == Phase::kGameOver) break;
    if (u.place != UnitPlace::kMap || u.carrier >= 0 || u.id == s.active_unit) continue;
    bool allied_pieces = allied(s, u.owner, s.hexes[u.hex].town_owner);
    for (const Unit& other : s.units) {
      allied_pieces = allied_pieces ||
                      (other.place == UnitPlace::kMap && other.hex == u.hex && other.carrier < 0 &&
                       other.id != s.active_unit && allied(s, u.owner, other.owner));
    }
    if (!allied_pieces) continue;
    if (s.capital_return && s.capital_return->hex == u.hex && s.capital_return->ruler == u.owner) {
      continue;
    }
    // A Battle the Ruler owes his new Vassal there: it will be fought [15.64].
    const auto owed = pending_battles(s);
    if (std::find(owed.begin(), owed.end(), u.hex) != owed.end()) continue;
    if (s.battle && s.battle->hex == u.hex) continue;
    return "a unit stopped on Alliance pieces at " + b.label(u.hex) + " [15.64]";
  }
  if (s.balance) {  // [15.3]
    if (!is_land(s.balance->land)) return "Exploration Balancing without a land tile";
    for (int h : s.balance->water) {
      if (s.hexes[h].terrain != Terrain::kWater) return "Exploration Balancing offers land";
    }
  }
  return std::nullopt;
}

}  // namespace viktory
