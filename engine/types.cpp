#include "types.h"

#include <array>
#include <utility>

#include "action.h"
#include "event.h"

namespace viktory {
namespace {

template <typename E, std::size_t N>
std::string_view name_of(E value, const std::array<std::string_view, N>& names) {
  const auto i = static_cast<std::size_t>(value);
  return i < N ? names[i] : std::string_view("unknown");
}

template <typename E, std::size_t N>
std::optional<E> value_of(std::string_view s, const std::array<std::string_view, N>& names) {
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == s) return static_cast<E>(i);
  }
  return std::nullopt;
}

constexpr std::array<std::string_view, 6> kTerrainNames{"none",      "water",  "plains",
                                                        "grassland", "forest", "mountain"};
constexpr std::array<std::string_view, 4> kUnitNames{"infantry", "cavalry", "artillery", "frigate"};
constexpr std::array<std::string_view, 5> kPhaseNames{"setup", "build", "movement", "reserve",
                                                      "game_over"};
constexpr std::array<std::string_view, 5> kVictoryNames{"standard", "shorter", "race", "doomsday",
                                                        "subjugation"};
constexpr std::array<std::string_view, 3> kMixNames{"standard", "land_rich", "islands"};
constexpr std::array<std::string_view, 22> kActionNames{
    "place_capital", "build_town",      "upgrade_city",   "end_phase",     "move",
    "embark",        "disembark",       "bombard",        "start_battle",  "choose_casualty",
    "retreat",       "continue_battle", "eliminate_unit", "place_reserve", "concede",
    "replace_water", "keep_water",      "average_dice",   "remove_town",   "rebuild_town",
    "withdraw",      "redeploy"};
constexpr std::array<std::string_view, 37> kEventNames{
    "turn_started",   "phase_changed",   "tile_revealed",     "capital_placed",  "town_built",
    "city_upgraded",  "unit_gained",     "unit_moved",        "unit_embarked",   "unit_disembarked",
    "dice_rolled",    "bombarded",       "battle_started",    "unit_hit",        "unit_lost",
    "unit_retreated", "battle_ended",    "town_captured",     "unit_eliminated", "unit_placed",
    "capital_lost",   "capital_retaken", "player_eliminated", "player_conceded", "doomsday_started",
    "doomsday_coin",  "game_over",       "land_drawn",        "tile_replaced",   "water_kept",
    "dice_averaged",  "town_removed",    "town_relocated",    "subjugated",      "alliance_broken",
    "unit_withdrawn", "unit_redeployed"};
constexpr std::array<std::string_view, 6> kRollNames{"bombard",       "pre_battle_fire",
                                                     "attacker_fire", "defender_fire",
                                                     "doomsday",      "defender_pre_fire"};

}  // namespace

UnitType city_unit_for(Terrain t) {
  switch (t) {
    case Terrain::kGrassland:
      return UnitType::kCavalry;
    case Terrain::kMountain:
      return UnitType::kArtillery;
    case Terrain::kForest:
      return UnitType::kFrigate;
    default:
      return UnitType::kInfantry;  // Plains: a second Infantry [8.2]
  }
}

std::string_view to_string(Terrain t) { return name_of(t, kTerrainNames); }
std::string_view to_string(UnitType u) { return name_of(u, kUnitNames); }
std::string_view to_string(Phase p) { return name_of(p, kPhaseNames); }
std::string_view to_string(VictoryCondition v) { return name_of(v, kVictoryNames); }
std::string_view to_string(TileMix m) { return name_of(m, kMixNames); }
std::string to_string(VictorySet v) {
  std::string out;
  for (VictoryCondition c : v.list()) {
    if (!out.empty()) out += '+';
    out += to_string(c);
  }
  return out;
}
std::string_view to_string(ActionKind k) { return name_of(k, kActionNames); }
std::string_view to_string(EventKind k) { return name_of(k, kEventNames); }
std::string_view to_string(RollPurpose p) { return name_of(p, kRollNames); }

std::optional<Terrain> terrain_from_string(std::string_view s) {
  return value_of<Terrain>(s, kTerrainNames);
}
std::optional<UnitType> unit_type_from_string(std::string_view s) {
  return value_of<UnitType>(s, kUnitNames);
}
std::optional<Phase> phase_from_string(std::string_view s) {
  return value_of<Phase>(s, kPhaseNames);
}
std::optional<VictoryCondition> victory_from_string(std::string_view s) {
  return value_of<VictoryCondition>(s, kVictoryNames);
}
std::optional<TileMix> tile_mix_from_string(std::string_view s) {
  return value_of<TileMix>(s, kMixNames);
}
std::optional<ActionKind> action_kind_from_string(std::string_view s) {
  return value_of<ActionKind>(s, kActionNames);
}
std::optional<EventKind> event_kind_from_string(std::string_view s) {
  return value_of<EventKind>(s, kEventNames);
}
std::optional<RollPurpose> roll_purpose_from_string(std::string_view s) {
  return value_of<RollPurpose>(s, kRollNames);
}

}  // namespace viktory
