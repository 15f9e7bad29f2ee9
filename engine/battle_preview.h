// A Battle's dice and odds before it is fought, for the attacker to weigh it [12.3].
//
// Worked out from a GameView alone, so from what the viewer may know: the pieces (public),
// the terrain of the Battle hex as far as the viewer knows it, the options. Hidden terrain,
// the tile bank and the game's generator cannot change the answer; the odds come from a
// Monte Carlo run with its own fixed seed, so the same question always gets the same answer.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "fire.h"
#include "view.h"

namespace viktory {

struct BattlePreview {
  int hex = -1;
  int attacker = kNoPlayer;
  int defender = kNoPlayer;
  bool naval = false;
  // False when the viewer does not know the Battle hex's terrain: no terrain dice are counted.
  bool terrain_known = true;
  // The first Battle Round [12.3]: the attacker's Pre-Battle Fire (step 0), his Fire Round
  // (step 1; nothing against an empty Town/City) and the defender's (step 2, before any
  // Suppression, which depends on the attacker's hits). Luck Averaging [15.4] may lower the
  // dice rolled; the entitlement is shown.
  FireDice pre_battle_fire;
  FireDice attacker_fire;
  FireDice defender_fire;
  // Outcome if the attacker fights on to the end (no retreat) and every die is rolled: the
  // share of `trials` simulated Battles in which he takes the hex (and any Town/City there),
  // in which the defender holds it (every attacker lost, both sides lost included), and those
  // still going after kPreviewMaxRounds rounds.
  double attacker_wins = 0;
  double defender_holds = 0;
  double undecided = 0;
  double average_rounds = 0;
  int trials = 0;
  std::uint64_t seed = 0;
};

constexpr int kPreviewTrials = 4000;  // the odds' standard error is below 0.8 points
constexpr int kPreviewMaxRounds = 100;
constexpr std::uint64_t kPreviewSeed = 0x5EED0F0BA77115ULL;

// The preview of `attacking_units` (all of one player, on the map, cargo included: it would
// land) attacking `hex` in `view`. nullopt when there is nothing to attack there (no other
// player's units, Town or City), the units are not one player's units on the map, or the
// hex is outside the viewer's sight (fog of war: the view lacks what stands there).
std::optional<BattlePreview> preview_battle(const GameView& view, int hex,
                                            const std::vector<int>& attacking_units,
                                            int trials = kPreviewTrials,
                                            std::uint64_t seed = kPreviewSeed);

}  // namespace viktory
