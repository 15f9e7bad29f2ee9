#include "fire.h"

#include <algorithm>

namespace viktory {
namespace {

constexpr std::array<std::string_view, kDieSources> kSourceNames{
    "infantry", "cavalry", "artillery", "frigate", "naval_support",
    "mountain", "forest",  "city",      "town"};

int count_of(const UnitCounts& units, UnitType t) { return units[static_cast<std::size_t>(t)]; }

void add(FireDice& fire, DieSource source, int dice) {
  if (dice > 0) fire.sources.push_back({source, dice});
}

}  // namespace

int FireDice::entitled() const {
  int total = 0;
  for (const DiceFrom& d : sources) total += d.dice;
  return std::max(0, total - suppressed);
}

FireDice pre_battle_fire_dice(const UnitCounts& attackers) {
  FireDice fire;
  add(fire, DieSource::kArtillery, count_of(attackers, UnitType::kArtillery));
  return fire;
}

FireDice defender_pre_battle_fire_dice(const UnitCounts& defenders, int suppression) {
  FireDice fire = pre_battle_fire_dice(defenders);
  fire.suppressed = std::min(count_of(defenders, UnitType::kArtillery), std::max(0, suppression));
  return fire;
}

FireDice attacker_fire_dice(bool naval, const UnitCounts& attackers) {
  FireDice fire;
  // Combined arms [12.0]: it is the unit types present that count, not how many units.
  if (naval) {
    add(fire, DieSource::kFrigate, count_of(attackers, UnitType::kFrigate) > 0 ? 1 : 0);
    return fire;
  }
  add(fire, DieSource::kInfantry, count_of(attackers, UnitType::kInfantry) > 0 ? 1 : 0);
  add(fire, DieSource::kCavalry, count_of(attackers, UnitType::kCavalry) > 0 ? 2 : 0);
  add(fire, DieSource::kArtillery, count_of(attackers, UnitType::kArtillery) > 0 ? 1 : 0);
  return fire;
}

FireDice defender_fire_dice(bool naval, const UnitCounts& defenders, const Defences& defences,
                            int suppression) {
  FireDice fire;
  int unit_dice = 0;
  if (naval) {
    add(fire, DieSource::kFrigate, count_of(defenders, UnitType::kFrigate) > 0 ? 1 : 0);
    unit_dice = count_of(defenders, UnitType::kFrigate) > 0 ? 1 : 0;
  } else {
    for (auto [type, source] : {std::pair{UnitType::kInfantry, DieSource::kInfantry},
                                std::pair{UnitType::kCavalry, DieSource::kCavalry},
                                std::pair{UnitType::kArtillery, DieSource::kArtillery}}) {
      const int dice = count_of(defenders, type) > 0 ? 1 : 0;
      add(fire, source, dice);
      unit_dice += dice;
    }
  }
  // [12.31] Suppression takes the defender's unit dice, never Naval Support or terrain dice.
  fire.suppressed = std::min(unit_dice, std::max(0, suppression));
  if (naval) return fire;  // no Naval Support or terrain in a Naval Battle [12.33]
  add(fire, DieSource::kNavalSupport, defences.naval_support ? 1 : 0);
  // Defensive Terrain: two dice for a Mountain or a City, else one for a Forest or a Town;
  // only the single best counts. Terrain Leveling [15.1] takes the terrain's part away.
  const bool mountain = !defences.terrain_leveling && defences.terrain == Terrain::kMountain;
  const bool forest = !defences.terrain_leveling && defences.terrain == Terrain::kForest;
  if (mountain) {
    add(fire, DieSource::kMountain, 2);
  } else if (defences.town && defences.full_city) {
    add(fire, DieSource::kCity, 2);
  } else if (forest) {
    add(fire, DieSource::kForest, 1);
  } else if (defences.town) {
    add(fire, DieSource::kTown, 1);
  }
  return fire;
}

std::string_view to_string(DieSource source) {
  const auto i = static_cast<std::size_t>(source);
  return i < kSourceNames.size() ? kSourceNames[i] : std::string_view("unknown");
}

std::optional<DieSource> die_source_from_string(std::string_view s) {
  for (std::size_t i = 0; i < kSourceNames.size(); ++i) {
    if (kSourceNames[i] == s) return static_cast<DieSource>(i);
  }
  return std::nullopt;
}

}  // namespace viktory
