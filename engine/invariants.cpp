// Invariants every reachable state keeps; the property test checks them after every action.
#include <array>
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
    if (have[p] != supported[p]) {
      return "units do not match Towns and Cities for player " + std::to_string(p) + " [8.2]";
    }
  }
  return std::nullopt;
}

}  // namespace viktory
