// How many dice each side rolls in a Battle, and where each die comes from [12.3, 12.31,
// 12.32]. Pure functions of what stands on the table, so the engine's Battles and the battle
// preview (battle_preview.h) count dice the same way.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "types.h"

namespace viktory {

enum class DieSource : std::uint8_t {
  kInfantry,      // at least one Infantry in the Battle [12.3 steps 1, 2]
  kCavalry,       // at least one Cavalry: two dice attacking, one defending
  kArtillery,     // at least one Artillery; in the Pre-Battle Fire, one die per Artillery unit
  kFrigate,       // Naval Battle: at least one Frigate
  kNavalSupport,  // a defending Frigate next to the land Battle hex [12.32]
  kMountain,      // Defensive Terrain: the single best of these four [12.3 step 2]
  kForest,
  kCity,
  kTown,  // also a City of a player without his Capital [14.0]
};
constexpr int kDieSources = 9;

struct DiceFrom {
  DieSource source = DieSource::kInfantry;
  int dice = 0;
  friend bool operator==(const DiceFrom&, const DiceFrom&) = default;
};

// The dice of one fire: what the firer is entitled to, by source, less Defender Suppression
// [12.31] (which takes unit dice only), less the pairs he chose not to roll [15.4].
struct FireDice {
  std::vector<DiceFrom> sources;
  int suppressed = 0;
  int averaged_pairs = 0;
  int entitled() const;  // dice after suppression, before averaging
  int rolled() const { return entitled() - 2 * averaged_pairs; }
  friend bool operator==(const FireDice&, const FireDice&) = default;
};

// Units of one side in the Battle hex, by type.
using UnitCounts = std::array<int, kUnitTypes>;

// What the defender's hex gives him besides his units [12.3 step 2, 12.32, 14.0, 15.1].
struct Defences {
  Terrain terrain = Terrain::kNone;
  bool town = false;              // his Town or City stands there
  bool full_city = false;         // a City that counts as one (he holds his Capital [14.0])
  bool naval_support = false;     // one of his Frigates is next to the hex [12.32, 12.33]
  bool terrain_leveling = false;  // [15.1] terrain gives no dice
};

// [12.3 step 0] one die per attacking Artillery unit.
FireDice pre_battle_fire_dice(const UnitCounts& attackers);
// House rule Defending Artillery Pre-fire (docs/rules-notes.md): one die per defending
// Artillery unit, less one for each pre-battle hit beyond the defenders' number [12.31].
FireDice defender_pre_battle_fire_dice(const UnitCounts& defenders, int suppression);
// [12.3 step 1] Infantry 1, Cavalry 2, Artillery 1; a Naval Battle: Frigate 1.
FireDice attacker_fire_dice(bool naval, const UnitCounts& attackers);
// [12.3 step 2] one die per unit type, less `suppression` [12.31], plus Naval Support and the
// best Defensive Terrain (land Battles only).
FireDice defender_fire_dice(bool naval, const UnitCounts& defenders, const Defences& defences,
                            int suppression);
// [15.4] The most pairs a firer may average: an odd die is always rolled.
inline int max_averaged_pairs(int dice) { return dice / 2; }

std::string_view to_string(DieSource source);
std::optional<DieSource> die_source_from_string(std::string_view s);

}  // namespace viktory
