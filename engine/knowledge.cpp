// What each player knows of the map, and revealing hexes [3.2, 8.0].
#include "internal.h"

namespace viktory {
namespace detail {

bool knows(const GameState& s, int player, int hex) {
  const HexCell& c = s.hexes[hex];
  if (s.board().is_perimeter(hex)) return true;
  if (!s.options.independent_exploration || player == kSpectator) return c.revealed;
  return (c.known_by & bit(player)) != 0;
}

bool known_land(const GameState& s, int player, int hex) {
  return knows(s, player, hex) && is_land(s.hexes[hex].terrain);
}

bool known_water(const GameState& s, int player, int hex) {
  return knows(s, player, hex) && s.hexes[hex].terrain == Terrain::kWater;
}

bool reveal(GameState& s, int hex, int by, Events& ev) {
  HexCell& c = s.hexes[hex];
  if (s.board().is_perimeter(hex)) return false;  // face up from the start [3.2]
  const bool independent = s.options.independent_exploration;
  if (independent ? (c.known_by & bit(by)) != 0 : c.revealed) return false;
  const bool first_time = !c.revealed;
  std::int64_t draw = -1;  // a re-reveal (or a scenario's laid tile) draws nothing
  if (c.terrain == Terrain::kNone) {
    draw = next_draw(s, tile_stream(s));
    c.terrain = draw_tile(s);  // drawn now from the bank
  }
  c.revealed = true;
  c.known_by = independent ? static_cast<std::uint8_t>(c.known_by | bit(by))
                           : everyone_mask(s.options.players);
  Event e = make_event(EventKind::kTileRevealed);
  e.player = by;
  e.hex = hex;
  e.terrain = c.terrain;
  e.draw = draw;
  ev.push_back(e);
  return first_time;
}

std::vector<int> reveal_neighbors(GameState& s, int hex, int by, Events& ev) {
  std::vector<int> fresh;
  for (int n : s.board().neighbors(hex)) {
    if (n != Board::kNoHex && reveal(s, n, by, ev)) fresh.push_back(n);
  }
  return fresh;
}

}  // namespace detail
}  // namespace viktory
