// Field-by-field comparison of two views, for the AI tests: the first difference, or "".
#pragma once

#include <string>

#include "view.h"

namespace viktory::ai_testing {

inline std::string view_difference(const GameView& a, const GameView& b) {
  if (a.viewer != b.viewer || !(a.options == b.options) || a.radius != b.radius ||
      a.turn != b.turn || a.current != b.current || a.first_player != b.first_player ||
      a.phase != b.phase || a.decider != b.decider || a.active_unit != b.active_unit) {
    return "header";
  }
  if (a.hexes.size() != b.hexes.size()) return "hex count";
  for (std::size_t i = 0; i < a.hexes.size(); ++i) {
    const HexView& x = a.hexes[i];
    const HexView& y = b.hexes[i];
    if (x.known != y.known || x.terrain != y.terrain || x.town_owner != y.town_owner ||
        x.city != y.city || x.capital_of != y.capital_of ||
        x.built_this_turn != y.built_this_turn || x.battle_this_turn != y.battle_this_turn ||
        x.placed_infantry != y.placed_infantry || x.placed_other != y.placed_other ||
        x.began_turn_with_land_unit != y.began_turn_with_land_unit || x.label != y.label) {
      return "hex " + x.label;
    }
  }
  if (a.units.size() != b.units.size()) return "unit count";
  for (std::size_t i = 0; i < a.units.size(); ++i) {
    const UnitView& x = a.units[i];
    const UnitView& y = b.units[i];
    if (x.id != y.id || x.owner != y.owner || x.type != y.type || x.place != y.place ||
        x.hex != y.hex || x.carrier != y.carrier || x.moves_left != y.moves_left ||
        x.move_done != y.move_done || x.attacked != y.attacked || x.transported != y.transported ||
        x.has_moved != y.has_moved || x.carried_this_turn != y.carried_this_turn ||
        x.disembark_hex != y.disembark_hex) {
      return "unit " + std::to_string(x.id);
    }
  }
  if (a.players.size() != b.players.size()) return "player count";
  for (std::size_t i = 0; i < a.players.size(); ++i) {
    const PlayerView& x = a.players[i];
    const PlayerView& y = b.players[i];
    if (x.eliminated != y.eliminated || x.conceded != y.conceded ||
        x.capital_hex != y.capital_hex || x.holds_capital != y.holds_capital ||
        x.doomsday_coin != y.doomsday_coin || x.victory_points != y.victory_points ||
        x.reserve != y.reserve) {
      return "player " + std::to_string(i);
    }
  }
  if (a.capital_choices != b.capital_choices) return "capital choices";
  if (a.battle != b.battle) return "battle";
  if (a.bombard != b.bombard) return "bombard";
  if (a.elimination != b.elimination) return "elimination";
  if (a.pending_battles != b.pending_battles) return "pending battles";
  if (a.doomsday_started != b.doomsday_started || a.winners != b.winners ||
      a.ended_by != b.ended_by || a.action_count != b.action_count) {
    return "result";
  }
  if (a.battle_entries != b.battle_entries) return "battle entries";
  if (a.placement_battles != b.placement_battles || a.ending_turn != b.ending_turn) {
    return "placement battles";
  }
  // Any field the checks above do not name (the optional rules' seating, alliances, pending
  // choices, and fields added later).
  if (!(a == b)) return "another field";
  return "";
}

}  // namespace viktory::ai_testing
