#include "log_text.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include "catalog.h"
#include "common.h"
#include "view.h"

namespace viktory::server {
namespace {

using nlohmann::json;
using text::operator""_key;

// A message: a catalog key and its parameters (docs/protocol.md, "log line"). Parameters are
// hex labels (strings), numbers, or messages themselves (a seat, a unit type, a terrain), so
// that each reader's language words them all.
json message(text::Key key, json params = json::object()) {
  json out{{"key", std::string(key.name)}};
  if (!params.empty()) out["params"] = std::move(params);
  return out;
}

json unit_message(UnitType t) {
  switch (t) {
    case UnitType::kInfantry:
      return message("log.unit.infantry"_key);
    case UnitType::kCavalry:
      return message("log.unit.cavalry"_key);
    case UnitType::kArtillery:
      return message("log.unit.artillery"_key);
    case UnitType::kFrigate:
      return message("log.unit.frigate"_key);
  }
  return message("log.unit.infantry"_key);
}

json terrain_message(Terrain t) {
  switch (t) {
    case Terrain::kWater:
      return message("log.terrain.water"_key);
    case Terrain::kPlains:
      return message("log.terrain.plains"_key);
    case Terrain::kGrassland:
      return message("log.terrain.grassland"_key);
    case Terrain::kForest:
      return message("log.terrain.forest"_key);
    case Terrain::kMountain:
      return message("log.terrain.mountain"_key);
    case Terrain::kNone:
      break;
  }
  return json();
}

// The phase with its word for "phase" ("Build phase", "Bauphase"); null for the end of the
// game, which has a line of its own.
json phase_message(int phase) {
  switch (static_cast<Phase>(phase)) {
    case Phase::kSetup:
      return message("log.phase.setup"_key);
    case Phase::kBuild:
      return message("log.phase.build"_key);
    case Phase::kMovement:
      return message("log.phase.movement"_key);
    case Phase::kReserve:
      return message("log.phase.reserve"_key);
    case Phase::kGameOver:
      break;
  }
  return json();
}

json roll_message(int purpose) {
  switch (static_cast<RollPurpose>(purpose)) {
    case RollPurpose::kBombard:
      return message("log.roll.bombard"_key);
    case RollPurpose::kPreBattleFire:
      return message("log.roll.preBattleFire"_key);
    case RollPurpose::kAttackerFire:
      return message("log.roll.attackerFire"_key);
    case RollPurpose::kDefenderFire:
      return message("log.roll.defenderFire"_key);
    case RollPurpose::kDoomsday:
      return message("log.roll.doomsday"_key);
    case RollPurpose::kDefenderPreFire:
      return message("log.roll.defenderPreFire"_key);
  }
  return message("log.roll.dice"_key);
}

class LineMaker {
 public:
  LineMaker(const GameState& state, int viewer) : state_(state), viewer_(viewer) {}

  // A hex's label; every hex named this way is remembered for the line under way.
  std::string hex(int h) const {
    if (h < 0 || h >= static_cast<int>(state_.hexes.size())) return "?";
    if (std::find(named_.begin(), named_.end(), h) == named_.end()) named_.push_back(h);
    return state_.board().label(h);
  }
  // The hexes named since the last call.
  std::vector<int> take_named() const { return std::exchange(named_, {}); }
  // The terrain of a hex as a message, only when the viewer knows it (else null).
  json terrain_of(int h) const {
    if (h < 0 || h >= static_cast<int>(state_.hexes.size())) return json();
    if (!viewer_knows(state_, viewer_, h)) return json();
    return terrain_message(state_.hexes[h].terrain);
  }
  json unit(int id, UnitType fallback) const {
    if (id >= 0 && id < static_cast<int>(state_.units.size())) {
      return unit_message(state_.units[id].type);
    }
    return unit_message(fallback);
  }
  // "Red's Cavalry": the parameters {player}, {unit} of a line about one unit.
  json whose_unit(const Event& e, json more = json::object()) const {
    more["player"] = seat_message(e.player);
    more["unit"] = unit(e.unit, e.unit_type);
    return more;
  }
  // "the Mountain City at F6", "Yellow's units at F6", "F6".
  json target(int h, int defender) const {
    if (h >= 0 && h < static_cast<int>(state_.hexes.size()) &&
        state_.hexes[h].town_owner != kNoPlayer) {
      const bool city = state_.hexes[h].city;
      json terrain = terrain_of(h);
      if (terrain.is_null()) {
        return message(city ? "log.target.city"_key : "log.target.town"_key, {{"hex", hex(h)}});
      }
      return message(city ? "log.target.cityOn"_key : "log.target.townOn"_key,
                     {{"terrain", std::move(terrain)}, {"hex", hex(h)}});
    }
    if (defender != kNoPlayer) {
      return message("log.target.units"_key, {{"owner", seat_message(defender)}, {"hex", hex(h)}});
    }
    return hex(h);
  }
  // A Town or a City built on a hex: "on the Forest hex F6" where the viewer knows the terrain.
  json built_on(text::Key plain, text::Key with_terrain, const Event& e) const {
    json terrain = terrain_of(e.hex);
    if (terrain.is_null())
      return message(plain, {{"player", seat_message(e.player)}, {"hex", hex(e.hex)}});
    return message(
        with_terrain,
        {{"player", seat_message(e.player)}, {"terrain", std::move(terrain)}, {"hex", hex(e.hex)}});
  }

  // The line's message, or null for an event that says nothing worth a line.
  json line(const Event& e) const {
    const json who = seat_message(e.player);
    switch (e.kind) {
      case EventKind::kTurnStarted:
        return message("log.turnStarted"_key, {{"turn", e.value}, {"player", who}});
      case EventKind::kPhaseChanged: {
        json phase = phase_message(e.value);
        if (phase.is_null()) return json();
        return message("log.phaseChanged"_key, {{"player", who}, {"phase", std::move(phase)}});
      }
      case EventKind::kTileRevealed:
        if (e.terrain != Terrain::kNone) {
          return message(
              "log.tileRevealed"_key,
              {{"player", who}, {"terrain", terrain_message(e.terrain)}, {"hex", hex(e.hex)}});
        }
        return message("log.tileExplored"_key, {{"player", who}, {"hex", hex(e.hex)}});
      case EventKind::kCapitalPlaced:
        return built_on("log.capitalPlaced"_key, "log.capitalPlacedOn"_key, e);
      case EventKind::kTownBuilt:
        return built_on("log.townBuilt"_key, "log.townBuiltOn"_key, e);
      case EventKind::kCityUpgraded:
        return message("log.cityUpgraded"_key, {{"player", who}, {"hex", hex(e.hex)}});
      case EventKind::kUnitGained:
        return message("log.unitGained"_key,
                       {{"player", who}, {"unit", unit(e.unit, e.unit_type)}});
      case EventKind::kUnitMoved:
        return message(e.value == 1 ? "log.unitMovedByRoad"_key : "log.unitMoved"_key,
                       whose_unit(e, {{"from", hex(e.from_hex)}, {"to", hex(e.hex)}}));
      case EventKind::kUnitEmbarked:
        // The Frigate's hex then (the event's), not now: under fog of war it may be hidden now.
        return message("log.unitEmbarked"_key, whose_unit(e, {{"hex", hex(e.hex)}}));
      case EventKind::kUnitDisembarked:
        return message("log.unitDisembarked"_key, whose_unit(e, {{"hex", hex(e.hex)}}));
      case EventKind::kDiceRolled: {
        if (e.dice.empty()) {
          return message("log.noDiceRolled"_key,
                         {{"player", who}, {"purpose", roll_message(e.value)}});
        }
        std::string faces;
        for (std::size_t i = 0; i < e.dice.size(); ++i) {
          faces += (i ? ", " : "") + std::to_string(e.dice[i]);
        }
        return message("log.diceRolled"_key,
                       {{"player", who}, {"dice", faces}, {"purpose", roll_message(e.value)}});
      }
      case EventKind::kBombarded:
        return message("log.bombarded"_key, whose_unit(e, {{"target", target(e.hex, kNoPlayer)},
                                                           {"from", hex(e.from_hex)}}));
      case EventKind::kBattleStarted:
        return message("log.battleStarted"_key,
                       {{"player", who}, {"target", target(e.hex, e.other_player)}});
      case EventKind::kUnitHit:
        return message("log.unitHit"_key, whose_unit(e, {{"hex", hex(e.hex)}}));
      case EventKind::kUnitLost:
        return message("log.unitLost"_key, whose_unit(e, {{"hex", hex(e.hex)}}));
      case EventKind::kUnitRetreated:
        return message("log.unitRetreated"_key,
                       whose_unit(e, {{"from", hex(e.from_hex)}, {"to", hex(e.hex)}}));
      case EventKind::kBattleEnded:
        if (e.player == kNoPlayer) return message("log.defendersHold"_key, {{"hex", hex(e.hex)}});
        return message("log.battleWon"_key, {{"player", who}, {"hex", hex(e.hex)}});
      case EventKind::kTownCaptured:
        return message(
            e.value == 1 ? "log.cityCaptured"_key : "log.townCaptured"_key,
            {{"player", who}, {"owner", seat_message(e.other_player)}, {"hex", hex(e.hex)}});
      case EventKind::kUnitEliminated:
        return message("log.unitEliminated"_key,
                       {{"player", who}, {"unit", unit(e.unit, e.unit_type)}});
      case EventKind::kUnitPlaced:
        return message("log.unitPlaced"_key,
                       {{"player", who}, {"unit", unit(e.unit, e.unit_type)}, {"hex", hex(e.hex)}});
      case EventKind::kCapitalLost:
        return message(
            "log.capitalLost"_key,
            {{"player", who}, {"hex", hex(e.hex)}, {"captor", seat_message(e.other_player)}});
      case EventKind::kCapitalRetaken:
        return message("log.capitalRetaken"_key, {{"player", who}, {"hex", hex(e.hex)}});
      case EventKind::kPlayerEliminated:
        return message("log.playerEliminated"_key, {{"player", who}});
      case EventKind::kPlayerConceded:
        return message("log.playerConceded"_key, {{"player", who}});
      case EventKind::kDoomsdayStarted:
        return message("log.doomsdayStarted"_key, {{"hex", hex(e.hex)}});
      case EventKind::kDoomsdayCoin:
        return message("log.doomsdayCoin"_key, {{"player", who}});
      case EventKind::kGameOver: {
        if (e.dice.empty()) return message("log.gameOverNobody"_key);
        // "Red and Blue and Green": each further winner joined to the list so far.
        json winners = seat_message(e.dice[0]);
        for (std::size_t i = 1; i < e.dice.size(); ++i) {
          winners = message("log.and"_key,
                            {{"first", std::move(winners)}, {"second", seat_message(e.dice[i])}});
        }
        return message("log.gameOver"_key,
                       {{"count", e.dice.size()}, {"winners", std::move(winners)}});
      }
      case EventKind::kLandDrawn:
        if (e.terrain == Terrain::kNone) return message("log.landDrawn"_key, {{"player", who}});
        return message("log.landDrawnTerrain"_key,
                       {{"player", who}, {"terrain", terrain_message(e.terrain)}});
      case EventKind::kTileReplaced:
        if (e.terrain == Terrain::kNone) {
          return message("log.waterReplaced"_key, {{"player", who}, {"hex", hex(e.hex)}});
        }
        return message(
            "log.waterReplacedWith"_key,
            {{"player", who}, {"hex", hex(e.hex)}, {"terrain", terrain_message(e.terrain)}});
      case EventKind::kWaterKept:
        return message("log.waterKept"_key, {{"player", who}});
      case EventKind::kDiceAveraged:
        return message("log.diceAveraged"_key,
                       {{"player", who}, {"count", e.value}, {"hex", hex(e.hex)}});
      case EventKind::kTownRemoved:
        return message(e.value == 1 ? "log.cityRemoved"_key : "log.townRemoved"_key,
                       {{"player", who}, {"hex", hex(e.hex)}});
      case EventKind::kTownRelocated:
        return message(e.value == 1 ? "log.cityRelocated"_key : "log.townRelocated"_key,
                       {{"player", who}, {"from", hex(e.from_hex)}, {"hex", hex(e.hex)}});
      case EventKind::kSubjugated:
        return message("log.subjugated"_key,
                       {{"player", who}, {"ruler", seat_message(e.other_player)}});
      case EventKind::kAllianceBroken:
        return message("log.allianceBroken"_key,
                       {{"player", who}, {"ruler", seat_message(e.other_player)}});
      case EventKind::kUnitWithdrawn:
        return message("log.unitWithdrawn"_key,
                       whose_unit(e, {{"from", hex(e.from_hex)}, {"to", hex(e.hex)}}));
      case EventKind::kUnitRedeployed:  // house rule Redeployment
        return message("log.unitRedeployed"_key,
                       whose_unit(e, {{"from", hex(e.from_hex)}, {"to", hex(e.hex)}}));
    }
    return json();
  }

 private:
  const GameState& state_;
  int viewer_;
  mutable std::vector<int> named_;
};

}  // namespace

nlohmann::json seat_message(int seat) {
  switch (seat) {
    case 0:
      return message("seat.red"_key);
    case 1:
      return message("seat.yellow"_key);
    case 2:
      return message("seat.blue"_key);
    case 3:
      return message("seat.green"_key);
    case 4:
      return message("seat.white"_key);
    case 5:
      return message("seat.black"_key);
    case 6:  // 7 and 8 players (docs/rules-notes.md)
      return message("seat.orange"_key);
    case 7:
      return message("seat.purple"_key);
  }
  return message("log.nobody"_key);
}

std::string player_label(int player) {
  return text::catalogs().text_of("en", seat_message(player)["key"].get<std::string>());
}

std::string english(const nlohmann::json& msg) {
  if (!msg.is_object() || !msg.contains("key") || !msg["key"].is_string()) return "";
  const auto params = msg.find("params");
  return text::catalogs().text_of("en", msg["key"].get<std::string>(),
                                  params != msg.end() ? *params : json::object());
}

std::vector<LogLine> log_entries(const GameState& state, const std::vector<Event>& events,
                                 int viewer) {
  LineMaker maker(state, viewer);
  std::vector<LogLine> out;
  for (const Event& e : events) {
    json msg = maker.line(e);
    std::vector<int> hexes = maker.take_named();
    if (msg.is_null()) continue;
    // The English text from the English catalog: one source of words for every language.
    std::string line = english(msg);
    // In the order the English text names them (the parts of a line may be made in any order).
    auto at = [&](int hex) {
      const std::string label = state.board().label(hex);
      for (std::size_t pos = line.find(label); pos != std::string::npos;
           pos = line.find(label, pos + 1)) {
        const std::size_t end = pos + label.size();
        if (end == line.size() || line[end] < '0' || line[end] > '9') return pos;
      }
      return std::string::npos;
    };
    std::stable_sort(hexes.begin(), hexes.end(), [&](int a, int b) { return at(a) < at(b); });
    out.push_back(LogLine{std::move(line), std::move(msg), std::move(hexes)});
  }
  return out;
}

std::vector<std::string> log_lines(const GameState& state, const std::vector<Event>& events,
                                   int viewer) {
  std::vector<std::string> out;
  for (LogLine& line : log_entries(state, events, viewer)) out.push_back(std::move(line.text));
  return out;
}

void append_log_json(nlohmann::json& out, int seq, const GameState& state,
                     const std::vector<Event>& events, int viewer, ActionSource source) {
  for (LogLine& line : log_entries(state, events, viewer)) {
    nlohmann::json entry{{"seq", seq},
                         {"text", std::move(line.text)},
                         {"msg", std::move(line.msg)},
                         {"hexes", std::move(line.hexes)}};
    if (source != ActionSource::kPlayer) entry["by"] = to_string(source);
    out.push_back(std::move(entry));
  }
}

}  // namespace viktory::server
