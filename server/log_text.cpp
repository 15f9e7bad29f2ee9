#include "log_text.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include "common.h"
#include "view.h"

namespace viktory::server {
namespace {

std::string capitalized(std::string_view word) {
  std::string out(word);
  if (!out.empty() && out[0] >= 'a' && out[0] <= 'z') out[0] = static_cast<char>(out[0] - 32);
  return out;
}

const char* unit_name(UnitType t) {
  switch (t) {
    case UnitType::kInfantry:
      return "Infantry";
    case UnitType::kCavalry:
      return "Cavalry";
    case UnitType::kArtillery:
      return "Artillery";
    case UnitType::kFrigate:
      return "Frigate";
  }
  return "unit";
}

const char* terrain_name(Terrain t) {
  switch (t) {
    case Terrain::kWater:
      return "Water";
    case Terrain::kPlains:
      return "Plains";
    case Terrain::kGrassland:
      return "Grassland";
    case Terrain::kForest:
      return "Forest";
    case Terrain::kMountain:
      return "Mountain";
    case Terrain::kNone:
      break;
  }
  return "";
}

const char* phase_name(int phase) {
  switch (static_cast<Phase>(phase)) {
    case Phase::kSetup:
      return "Setup";
    case Phase::kBuild:
      return "Build";
    case Phase::kMovement:
      return "Movement & Combat";
    case Phase::kReserve:
      return "Reserve Placement";
    case Phase::kGameOver:
      return "Game Over";
  }
  return "?";
}

const char* roll_name(int purpose) {
  switch (static_cast<RollPurpose>(purpose)) {
    case RollPurpose::kBombard:
      return "bombard";
    case RollPurpose::kPreBattleFire:
      return "pre-battle fire";
    case RollPurpose::kAttackerFire:
      return "attacker fire";
    case RollPurpose::kDefenderFire:
      return "defender fire";
    case RollPurpose::kDoomsday:
      return "Doomsday Clock";
  }
  return "dice";
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
  // The terrain word with a trailing space, only when the viewer knows it.
  std::string terrain_of(int h) const {
    if (h < 0 || h >= static_cast<int>(state_.hexes.size())) return "";
    if (!viewer_knows(state_, viewer_, h)) return "";
    const Terrain t = state_.hexes[h].terrain;
    return t == Terrain::kNone ? "" : std::string(terrain_name(t)) + " ";
  }
  std::string unit(int id, UnitType fallback) const {
    if (id >= 0 && id < static_cast<int>(state_.units.size())) {
      return unit_name(state_.units[id].type);
    }
    return unit_name(fallback);
  }
  std::string whose_unit(const Event& e) const {
    return player_label(e.player) + "'s " + unit(e.unit, e.unit_type);
  }
  // "the Mountain City at F6", "Yellow's units at F6".
  std::string target(int h, int defender) const {
    if (h >= 0 && h < static_cast<int>(state_.hexes.size()) &&
        state_.hexes[h].town_owner != kNoPlayer) {
      return "the " + terrain_of(h) + (state_.hexes[h].city ? "City" : "Town") + " at " + hex(h);
    }
    if (defender != kNoPlayer) return player_label(defender) + "'s units at " + hex(h);
    return hex(h);
  }

  std::string line(const Event& e) const {
    const std::string who = player_label(e.player);
    switch (e.kind) {
      case EventKind::kTurnStarted:
        return "Turn " + std::to_string(e.value) + ": " + who + " to play.";
      case EventKind::kPhaseChanged:
        if (static_cast<Phase>(e.value) == Phase::kGameOver) return "";
        return who + ": " + phase_name(e.value) + " phase.";
      case EventKind::kTileRevealed:
        if (e.terrain != Terrain::kNone) {
          return who + " reveals " + terrain_name(e.terrain) + " at " + hex(e.hex) + ".";
        }
        return who + " explores " + hex(e.hex) + ".";
      case EventKind::kCapitalPlaced:
        return who + " places the Capital on the " + terrain_of(e.hex) + "hex " + hex(e.hex) + ".";
      case EventKind::kTownBuilt:
        return who + " builds a Town on the " + terrain_of(e.hex) + "hex " + hex(e.hex) + ".";
      case EventKind::kCityUpgraded:
        return who + " upgrades the Town at " + hex(e.hex) + " to a City.";
      case EventKind::kUnitGained:
        return who + " gains " + unit(e.unit, e.unit_type) + " (to the Reserve).";
      case EventKind::kUnitMoved:
        return whose_unit(e) + " moves from " + hex(e.from_hex) + " to " + hex(e.hex) +
               (e.value == 1 ? " by road." : ".");
      case EventKind::kUnitEmbarked:
        return whose_unit(e) + " boards the Frigate at " +
               hex(e.other_unit >= 0 && e.other_unit < static_cast<int>(state_.units.size())
                       ? state_.units[e.other_unit].hex
                       : e.hex) +
               ".";
      case EventKind::kUnitDisembarked:
        return whose_unit(e) + " lands at " + hex(e.hex) + ".";
      case EventKind::kDiceRolled: {
        std::string faces;
        for (std::size_t i = 0; i < e.dice.size(); ++i) {
          faces += (i ? ", " : "") + std::to_string(e.dice[i]);
        }
        return who + " rolls " + (faces.empty() ? "no dice" : faces) + " (" + roll_name(e.value) +
               ").";
      }
      case EventKind::kBombarded:
        return whose_unit(e) + " bombards " + target(e.hex, kNoPlayer) + " from " +
               hex(e.from_hex) + ".";
      case EventKind::kBattleStarted:
        return who + " attacks " + target(e.hex, e.other_player) + ".";
      case EventKind::kUnitHit:
        return whose_unit(e) + " at " + hex(e.hex) + " is hit.";
      case EventKind::kUnitLost:
        return whose_unit(e) + " at " + hex(e.hex) + " is lost.";
      case EventKind::kUnitRetreated:
        return whose_unit(e) + " retreats from " + hex(e.from_hex) + " to " + hex(e.hex) + ".";
      case EventKind::kBattleEnded:
        if (e.player == kNoPlayer) return "The defenders hold " + hex(e.hex) + ".";
        return who + " wins the Battle at " + hex(e.hex) + ".";
      case EventKind::kTownCaptured:
        return who + " captures " + player_label(e.other_player) + "'s " +
               (e.value == 1 ? "City" : "Town") + " at " + hex(e.hex) + ".";
      case EventKind::kUnitEliminated:
        return who + " returns " + unit(e.unit, e.unit_type) + " to stock.";
      case EventKind::kUnitPlaced:
        return who + " places " + unit(e.unit, e.unit_type) + " at " + hex(e.hex) + ".";
      case EventKind::kCapitalLost:
        return who + "'s Capital at " + hex(e.hex) + " falls to " + player_label(e.other_player) +
               ".";
      case EventKind::kCapitalRetaken:
        return who + " retakes the Capital at " + hex(e.hex) + ".";
      case EventKind::kPlayerEliminated:
        return who + " is eliminated.";
      case EventKind::kPlayerConceded:
        return who + " concedes.";
      case EventKind::kDoomsdayStarted:
        return "The Doomsday Clock starts: the first City fell at " + hex(e.hex) + ".";
      case EventKind::kDoomsdayCoin:
        return "A Doomsday coin now lies next to " + who + "'s Capital.";
      case EventKind::kGameOver: {
        if (e.dice.empty()) return "Game over: nobody wins.";
        std::string names;
        for (std::size_t i = 0; i < e.dice.size(); ++i) {
          names += (i ? " and " : "") + player_label(e.dice[i]);
        }
        return "Game over: " + names + (e.dice.size() == 1 ? " wins." : " win.");
      }
      case EventKind::kLandDrawn:
        if (e.terrain == Terrain::kNone) return who + " draws a land tile.";
        return who + " draws a " + terrain_name(e.terrain) + " tile to replace some water.";
      case EventKind::kTileReplaced:
        if (e.terrain == Terrain::kNone) return who + " replaces the water at " + hex(e.hex) + ".";
        return who + " replaces the water at " + hex(e.hex) + " with " + terrain_name(e.terrain) +
               ".";
      case EventKind::kWaterKept:
        return who + " keeps the water.";
      case EventKind::kDiceAveraged:
        return who + " averages " + std::to_string(e.value) +
               (e.value == 1 ? " pair of dice" : " pairs of dice") + " at " + hex(e.hex) + ": " +
               std::to_string(e.value) + (e.value == 1 ? " hit." : " hits.");
      case EventKind::kTownRemoved:
        return who + " removes the " + (e.value == 1 ? "City" : "Town") + " at " + hex(e.hex) +
               " to relocate it.";
      case EventKind::kTownRelocated:
        return who + " rebuilds the " + (e.value == 1 ? "City" : "Town") + " from " +
               hex(e.from_hex) + " at " + hex(e.hex) + ".";
      case EventKind::kSubjugated:
        return who + " becomes " + player_label(e.other_player) + "'s Vassal.";
      case EventKind::kAllianceBroken:
        return who + " is no longer " + player_label(e.other_player) + "'s Vassal.";
      case EventKind::kUnitWithdrawn:
        return whose_unit(e) + " leaves the Capital at " + hex(e.from_hex) + " for " + hex(e.hex) +
               ".";
    }
    return "";
  }

 private:
  const GameState& state_;
  int viewer_;
  mutable std::vector<int> named_;
};

}  // namespace

std::string player_label(int player) {
  if (player == kNoPlayer) return "Nobody";
  return capitalized(seat_color(player));
}

std::vector<LogLine> log_entries(const GameState& state, const std::vector<Event>& events,
                                 int viewer) {
  LineMaker maker(state, viewer);
  std::vector<LogLine> out;
  for (const Event& e : events) {
    std::string line = maker.line(e);
    std::vector<int> hexes = maker.take_named();
    if (line.empty()) continue;
    // In the order the text names them (the parts of a line may be made in any order).
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
    out.push_back(LogLine{std::move(line), std::move(hexes)});
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
    nlohmann::json entry{
        {"seq", seq}, {"text", std::move(line.text)}, {"hexes", std::move(line.hexes)}};
    if (source != ActionSource::kPlayer) entry["by"] = to_string(source);
    out.push_back(std::move(entry));
  }
}

}  // namespace viktory::server
