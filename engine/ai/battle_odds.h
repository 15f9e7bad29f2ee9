// Battle odds for planning: the chance that an attacker wins a Battle, worked out exactly over a
// simplified model of the rules [10.1, 12.3].
//
// The model follows the engine's Battle procedure (Pre-Battle Artillery fire, Attacker's Fire,
// Defender Suppression [12.31], Defender's Fire with Naval Support and Defensive Terrain dice,
// casualties removed together, rounds until one side is gone) with two simplifications: each
// side loses its units in a fixed order (spare copies of a type first, so the number of unit
// types, and with it the dice, holds out longest), which ignores the firer's picks for '1's;
// and the attacker never retreats. It is only an estimate for deciding where to attack.
#pragma once

#include <array>

#include "types.h"

namespace viktory::ai {

// Land units of one side by type (Infantry, Cavalry, Artillery); Frigates for naval Battles.
struct Force {
  int infantry = 0;
  int cavalry = 0;
  int artillery = 0;
  int frigates = 0;
  int land() const { return infantry + cavalry + artillery; }
  void add(UnitType t, int n = 1);
};

struct BattleSetup {
  Force attacker;
  Force defender;
  // Defensive Terrain (0..2) and Naval Support (0..1) dice of the defender [12.3 step 2].
  int terrain_dice = 0;
  bool naval_support = false;
  bool town = false;     // a Town or City of the defender is in the hex (fights even when empty)
  bool naval = false;    // a Frigate Battle on water [12.3]
  bool pre_fire = true;  // the Pre-Battle Artillery Fire is still to come [12.3 step 0]
  // House rule Defending Artillery Pre-fire: the defender's Artillery answers in that step.
  bool defender_pre_fire = false;
};

struct BattleOdds {
  double attacker_wins = 0;    // the attacker ends with units in the hex
  double attacker_losses = 0;  // expected units the attacker loses
  double defender_losses = 0;  // expected units the defender loses
};

BattleOdds battle_odds(const BattleSetup& setup);

}  // namespace viktory::ai
