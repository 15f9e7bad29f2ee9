// Game options for the serializer equivalence tests (view_text_test, legal_text_test): a
// spread of the optional rules, tile mixes and victory conditions over many random games.
#pragma once

#include "game.h"

namespace viktory::testing {

// Options for game number `n`: each optional rule alone, all of them, and mixtures; the tile
// mixes and victory conditions in turn. Invalid mixtures are made valid by dropping
// independent exploration (it excludes some of the optional rules).
inline Options option_mix(int players, int n) {
  Options o;
  o.players = players;
  const TileMix mixes[] = {TileMix::kStandard, TileMix::kLandRich, TileMix::kIslands};
  o.tile_mix = mixes[static_cast<std::size_t>(n % 3)];
  bool* flags[] = {
      &o.independent_exploration, &o.terrain_leveling, &o.no_exploration, &o.exploration_balancing,
      &o.luck_averaging,          &o.town_relocation,  &o.subjugation};
  constexpr int kFlags = 7;
  const int variant = (n + players) % (kFlags + 3);
  if (variant < kFlags) {
    *flags[variant] = true;
  } else if (variant == kFlags) {
    for (bool* f : flags) *f = true;
  } else if (variant == kFlags + 1) {
    for (int i = 0; i < kFlags; i += 2) *flags[i] = true;
  }  // else none
  const VictoryCondition single[] = {VictoryCondition::kStandard, VictoryCondition::kShorter,
                                     VictoryCondition::kRace, VictoryCondition::kDoomsday};
  o.victory = single[static_cast<std::size_t>(n % 4)];
  if (n % 3 == 1) o.victory.add(VictoryCondition::kDoomsday);  // several conditions [5.0]
  if (o.subjugation && n % 2 == 0) o.victory.add(VictoryCondition::kSubjugation);
  if (n % 4 == 3) {  // fog of war, with every City sight, combined with the mixes above
    o.fog_of_war = true;
    o.fog_city_sight = 1 + (n / 4) % 3;
  }
  o = normalized(o);
  if (options_problem(o)) o.independent_exploration = false;
  if (options_problem(o)) o.no_exploration = false;
  return normalized(o);
}

}  // namespace viktory::testing
