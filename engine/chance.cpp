// The game's chance: tiles drawn from the bank and dice rolled, from the state's generator
// (or a scenario's scripted dice).
#include "internal.h"
#include "tiles.h"

namespace viktory {
namespace detail {

std::uint64_t draw_below(GameState& s, RandomStream stream, std::uint64_t n) {
  if (s.random_scheme == RandomScheme::kStreams) return s.streams.below(stream, n);
  return s.rng.below(n);
}

std::int64_t next_draw(const GameState& s, RandomStream stream) {
  if (s.random_scheme != RandomScheme::kStreams) return -1;
  return static_cast<std::int64_t>(s.streams.next_draw(stream));
}

RandomStream tile_stream(const GameState& s) {
  return s.drawing_setup ? RandomStream::kSetup : RandomStream::kTiles;
}

// One value below the number of tiles left picks a tile, counting through the bank in its
// order (water, plains, grassland, forest, mountain).
Terrain draw_tile(GameState& s) {
  const RandomStream stream = tile_stream(s);
  int total = 0;
  for (int n : s.tile_bank) total += n;
  if (total == 0) {
    // Only a hand-made scenario can run the bank dry; fall back to an even draw.
    return terrain_of_bank_slot(static_cast<int>(draw_below(s, stream, kTerrainKinds)));
  }
  auto pick = static_cast<int>(draw_below(s, stream, static_cast<std::uint64_t>(total)));
  for (int slot = 0; slot < kTerrainKinds; ++slot) {
    if (pick < s.tile_bank[slot]) {
      --s.tile_bank[slot];
      return terrain_of_bank_slot(slot);
    }
    pick -= s.tile_bank[slot];
  }
  return Terrain::kWater;  // not reached: pick < total
}

int roll_die(GameState& s) {
  if (!s.scripted_dice.empty()) {
    const int face = s.scripted_dice.front();
    s.scripted_dice.erase(s.scripted_dice.begin());
    return face;
  }
  return static_cast<int>(draw_below(s, RandomStream::kDice, 6)) + 1;
}

std::vector<int> roll_dice(GameState& s, int count, int roller, int hex, RollPurpose purpose,
                           Events& ev, const FireDice* fire) {
  const std::int64_t first_draw =
      s.scripted_dice.empty() ? next_draw(s, RandomStream::kDice) : std::int64_t{-1};
  std::vector<int> dice;
  for (int i = 0; i < count; ++i) dice.push_back(roll_die(s));
  if (count > 0) {
    Event e = make_event(EventKind::kDiceRolled);
    e.draw = first_draw;
    e.player = roller;
    e.hex = hex;
    e.dice = dice;
    e.value = static_cast<int>(purpose);
    if (fire) e.fire = *fire;
    ev.push_back(e);
  }
  return dice;
}

}  // namespace detail
}  // namespace viktory
