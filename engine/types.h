// Small value types shared by the whole engine: terrain, unit types, phases, options.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace viktory {

// Terrain of a map tile [3.1]. kNone means "no tile drawn yet": an unrevealed interior hex
// normally has no terrain at all until the moment it is revealed (see tiles.h).
enum class Terrain : std::uint8_t { kNone, kWater, kPlains, kGrassland, kForest, kMountain };
constexpr int kTerrainKinds = 5;  // kWater..kMountain
inline bool is_land(Terrain t) {
  return t == Terrain::kPlains || t == Terrain::kGrassland || t == Terrain::kForest ||
         t == Terrain::kMountain;
}
// Forest and Mountain: slow terrain [9.12] and blocking terrain for line of sight [11.2].
inline bool is_rough(Terrain t) { return t == Terrain::kForest || t == Terrain::kMountain; }

enum class UnitType : std::uint8_t { kInfantry, kCavalry, kArtillery, kFrigate };
constexpr int kUnitTypes = 4;
inline bool is_land_unit(UnitType u) { return u != UnitType::kFrigate; }

// The extra unit a City supports by the terrain of its hex [8.2]; Plains -> a second Infantry.
UnitType city_unit_for(Terrain t);

enum class Phase : std::uint8_t {
  kSetup,     // [4.0] players in turn place their Capitals
  kBuild,     // [7.0]
  kMovement,  // Movement & Combat [9.0-12.0]
  kReserve,   // Reserve Placement [13.0]
  kGameOver,
};

enum class VictoryCondition : std::uint8_t {
  kStandard,     // [5.1] all others eliminated or conceded
  kShorter,      // [5.3] ends at the first captured Capital
  kRace,         // [5.4] 20 points at the start of one's turn
  kDoomsday,     // [5.5] the Doomsday Clock
  kSubjugation,  // [5.2, 15.66] all others are one's Vassals or conceded (needs [15.6])
};
constexpr int kVictoryConditions = 5;

// The Victory Condition(s) the players agreed on [5.0]: a non-empty set; the first one met
// ends the game (docs/rules-notes.md). Converts from a single condition, so code and stored
// data that know only one condition keep working.
class VictorySet {
 public:
  constexpr VictorySet(VictoryCondition v = VictoryCondition::kStandard)  // NOLINT: implicit
      : bits_(static_cast<std::uint8_t>(1u << static_cast<unsigned>(v))) {}
  static constexpr VictorySet from_bits(std::uint8_t bits) {
    VictorySet s;
    s.bits_ = bits;
    return s;
  }
  constexpr bool has(VictoryCondition v) const {
    return (bits_ >> static_cast<unsigned>(v) & 1u) != 0;
  }
  constexpr void add(VictoryCondition v) {
    bits_ = static_cast<std::uint8_t>(bits_ | 1u << static_cast<unsigned>(v));
  }
  constexpr std::uint8_t bits() const { return bits_; }
  constexpr int size() const {
    int n = 0;
    for (int i = 0; i < kVictoryConditions; ++i) n += (bits_ >> i) & 1;
    return n;
  }
  // The conditions in enum order.
  std::vector<VictoryCondition> list() const {
    std::vector<VictoryCondition> out;
    for (int i = 0; i < kVictoryConditions; ++i) {
      if ((bits_ >> i) & 1) out.push_back(static_cast<VictoryCondition>(i));
    }
    return out;
  }
  friend constexpr bool operator==(const VictorySet&, const VictorySet&) = default;

 private:
  std::uint8_t bits_;
};

// Which documented tile bank the interior of the board is drawn from (see tiles.h).
enum class TileMix : std::uint8_t { kStandard, kLandRich, kIslands };

struct Options {
  int players = 2;  // 2..6
  VictorySet victory = VictoryCondition::kStandard;
  TileMix tile_mix = TileMix::kStandard;
  // Each player sees only the terrain of hexes revealed by his own building and movement,
  // plus the perimeter; rules that depend on "revealed" use his own knowledge.
  bool independent_exploration = false;
  // Optional rules [15.0], all off by default.
  bool terrain_leveling = false;       // [15.1]
  bool no_exploration = false;         // [15.2] face-up map, random seating and start corners
  bool exploration_balancing = false;  // [15.3]
  bool luck_averaging = false;         // [15.4]
  bool town_relocation = false;        // [15.5]
  bool subjugation = false;            // [15.6]; implied by the Subjugation victory [5.2]
  // Fog of war (GamesByEmail's "dark" game, not the rulebook's; docs/rules-notes.md): a player
  // sees other players' units only within his sight (engine/sight.h); a City sees
  // fog_city_sight hexes far (1..3), normalized to 2 when fog_of_war is off.
  bool fog_of_war = false;
  int fog_city_sight = 2;
  friend bool operator==(const Options&, const Options&) = default;
};

// Whether the Subjugation rules [15.6] are in play: chosen, or implied by [5.2].
inline bool subjugation_rules(const Options& o) {
  return o.subjugation || o.victory.has(VictoryCondition::kSubjugation);
}

constexpr int kRaceVictoryPoints = 20;  // [5.4]
constexpr int kFrigateCapacity = 3;     // [9.41]
constexpr int kMaxPlayers = 6;
constexpr int kNoPlayer = -1;
constexpr int kSpectator = -1;  // a viewer who holds no seat

// Options::fog_city_sight: how far a City sees under fog of war.
constexpr int kMinFogCitySight = 1;
constexpr int kMaxFogCitySight = 3;
constexpr int kDefaultFogCitySight = 2;

std::string_view to_string(Terrain t);
std::string_view to_string(UnitType u);
std::string_view to_string(Phase p);
std::string_view to_string(VictoryCondition v);
// "race+doomsday": the conditions joined by '+' (for logs and test names).
std::string to_string(VictorySet v);
std::string_view to_string(TileMix m);
std::optional<Terrain> terrain_from_string(std::string_view s);
std::optional<UnitType> unit_type_from_string(std::string_view s);
std::optional<Phase> phase_from_string(std::string_view s);
std::optional<VictoryCondition> victory_from_string(std::string_view s);
std::optional<TileMix> tile_mix_from_string(std::string_view s);

}  // namespace viktory
