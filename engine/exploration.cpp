// The optional exploration rules: No Exploration [15.2] and Exploration Balancing [15.3].
#include <algorithm>
#include <utility>

#include "internal.h"
#include "tiles.h"

namespace viktory::detail {

// [15.2] "Randomly assign the seating and starting corners": a random order of the players
// round the table. Play passes along it and the player at position k starts in start group k,
// so the turn order still goes round the board as in a game without this rule.
void draw_seating(GameState& s) {
  for (std::size_t i = s.turn_order.size(); i > 1; --i) {  // Fisher-Yates
    const auto j = static_cast<std::size_t>(draw_below(s, RandomStream::kSetup, i));
    std::swap(s.turn_order[i - 1], s.turn_order[j]);
  }
}

}  // namespace viktory::detail

namespace viktory {

// [15.2] "Set up the map with the hexes face up": every interior tile is drawn now, in hex
// order, and known to everyone.
void lay_map_face_up(GameState& s) { detail::lay_map_face_up(s, nullptr); }

namespace detail {

void lay_map_face_up(GameState& s, Events* drawn) {
  const Board& b = s.board();
  for (int h = 0; h < b.size(); ++h) {
    HexCell& c = s.hexes[h];
    if (b.is_perimeter(h)) continue;
    if (c.terrain == Terrain::kNone) {
      const std::int64_t draw = next_draw(s, tile_stream(s));
      c.terrain = draw_tile(s);
      if (drawn) {
        Event e = make_event(EventKind::kTileRevealed);
        e.player = kNoPlayer;  // nobody explored it: the map is laid face up
        e.hex = h;
        e.terrain = c.terrain;
        e.draw = draw;
        drawn->push_back(e);
      }
    }
    c.revealed = true;
    c.known_by = everyone_mask(s.options.players);
  }
}

}  // namespace detail

}  // namespace viktory

namespace viktory::detail {

// [15.3] When one act of building [7.3] or movement [9.2] turns two or more water hexes face
// up, the player draws from the unused tiles until a land tile comes up; he may then put it
// on one of those water hexes. Drawing until the first land tile is the same as drawing one
// of the unused land tiles at random (the water tiles drawn on the way go back unused).
void offer_balancing(GameState& s, int player, const std::vector<int>& fresh, Events& ev) {
  if (!s.options.exploration_balancing || s.phase == Phase::kGameOver) return;
  std::vector<int> water;
  for (int h : fresh) {
    if (s.hexes[h].terrain == Terrain::kWater) water.push_back(h);
  }
  if (water.size() < 2) return;
  int land_left = 0;
  for (int slot = 0; slot < kTerrainKinds; ++slot) {
    if (is_land(terrain_of_bank_slot(slot))) land_left += s.tile_bank[slot];
  }
  if (land_left == 0) return;  // no land tile is left to draw
  const std::int64_t draw = next_draw(s, RandomStream::kTiles);
  auto pick =
      static_cast<int>(draw_below(s, RandomStream::kTiles, static_cast<std::uint64_t>(land_left)));
  Terrain land = Terrain::kNone;
  for (int slot = 0; slot < kTerrainKinds && land == Terrain::kNone; ++slot) {
    if (!is_land(terrain_of_bank_slot(slot))) continue;
    if (pick < s.tile_bank[slot]) {
      land = terrain_of_bank_slot(slot);
      --s.tile_bank[slot];
    } else {
      pick -= s.tile_bank[slot];
    }
  }
  std::sort(water.begin(), water.end());
  s.balance = PendingBalance{player, water, land};
  Event e = make_event(EventKind::kLandDrawn);
  e.player = player;
  e.terrain = land;
  e.draw = draw;
  ev.push_back(e);
}

namespace {

// After the choice: the setup goes on to the next player once a Capital was placed [4.0].
void after_balancing(GameState& s, Events& ev) {
  s.balance.reset();
  if (s.phase == Phase::kSetup && s.players[s.current].capital_hex >= 0) advance_setup(s, ev);
}

}  // namespace

Check check_replace_water(const GameState& s, const Action& a) {
  const auto& water = s.balance->water;
  if (std::find(water.begin(), water.end(), a.hex) == water.end()) {
    return error("bad_water_hex",
                 "Choose one of the water hexes that this exploration turned up [15.3].");
  }
  return std::nullopt;
}

void do_replace_water(GameState& s, const Action& a, Events& ev) {
  const PendingBalance b = *s.balance;
  s.hexes[a.hex].terrain = b.land;
  ++s.tile_bank[bank_slot_of(Terrain::kWater)];  // the water tile is no longer in use
  Event e = make_event(EventKind::kTileReplaced);
  e.player = b.player;
  e.hex = a.hex;
  e.terrain = b.land;
  ev.push_back(e);
  after_balancing(s, ev);
}

void do_keep_water(GameState& s, const Action& a, Events& ev) {
  ++s.tile_bank[bank_slot_of(s.balance->land)];  // the land tile goes back unused
  Event e = make_event(EventKind::kWaterKept);
  e.player = a.player;
  ev.push_back(e);
  after_balancing(s, ev);
}

}  // namespace viktory::detail
