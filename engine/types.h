// Small value types shared by the whole engine: terrain, unit types, phases, options.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

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
  kStandard,  // [5.1] all others eliminated or conceded
  kShorter,   // [5.3] ends at the first captured Capital
  kRace,      // [5.4] 20 points at the start of one's turn
  kDoomsday,  // [5.5] the Doomsday Clock
};

// Which documented tile bank the interior of the board is drawn from (see tiles.h).
enum class TileMix : std::uint8_t { kStandard, kLandRich, kIslands };

struct Options {
  int players = 2;  // 2..6
  VictoryCondition victory = VictoryCondition::kStandard;
  TileMix tile_mix = TileMix::kStandard;
  // Each player sees only the terrain of hexes revealed by his own building and movement,
  // plus the perimeter; rules that depend on "revealed" use his own knowledge.
  bool independent_exploration = false;
  friend bool operator==(const Options&, const Options&) = default;
};

constexpr int kRaceVictoryPoints = 20;  // [5.4]
constexpr int kFrigateCapacity = 3;     // [9.41]
constexpr int kMaxPlayers = 6;
constexpr int kNoPlayer = -1;
constexpr int kSpectator = -1;  // a viewer who holds no seat

std::string_view to_string(Terrain t);
std::string_view to_string(UnitType u);
std::string_view to_string(Phase p);
std::string_view to_string(VictoryCondition v);
std::string_view to_string(TileMix m);
std::optional<Terrain> terrain_from_string(std::string_view s);
std::optional<UnitType> unit_type_from_string(std::string_view s);
std::optional<Phase> phase_from_string(std::string_view s);
std::optional<VictoryCondition> victory_from_string(std::string_view s);
std::optional<TileMix> tile_mix_from_string(std::string_view s);

}  // namespace viktory
