// The game's chance: tiles drawn from the bank and dice rolled, from the state's generator
// (or a scenario's scripted dice).
#include "internal.h"
#include "tiles.h"

namespace viktory {
namespace detail {

Terrain draw_tile(GameState& s) {
  int total = 0;
  for (int n : s.tile_bank) total += n;
  if (total == 0) {
    // Only a hand-made scenario can run the bank dry; fall back to an even draw.
    return terrain_of_bank_slot(static_cast<int>(s.rng.below(kTerrainKinds)));
  }
  auto pick = static_cast<int>(s.rng.below(static_cast<std::uint64_t>(total)));
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
  return s.rng.die();
}

std::vector<int> roll_dice(GameState& s, int count, int roller, int hex, RollPurpose purpose,
                           Events& ev, const FireDice* fire) {
  std::vector<int> dice;
  for (int i = 0; i < count; ++i) dice.push_back(roll_die(s));
  if (count > 0) {
    Event e = make_event(EventKind::kDiceRolled);
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
