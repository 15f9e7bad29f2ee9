// Actions: everything a player can decide, as plain values.
//
// Every action names the player who takes it; the engine checks that he is the one who must
// decide now (see Game::decider). Hexes are board indices (Board), units are unit ids.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "types.h"

namespace viktory {

enum class ActionKind : std::uint8_t {
  kPlaceCapital,    // hex: a revealed land hex of one's start area [4.0]
  kBuildTown,       // hex [7.21, 7.22]
  kUpgradeCity,     // hex: one's own Town [7.23]
  kEndPhase,        // Build -> Movement -> Reserve -> next player's turn
  kMove,            // unit -> hex: one step to an adjacent hex, or a road move [9.13]
  kEmbark,          // unit (land) boards carrier (own Frigate in an adjacent water hex) [9.42]
  kDisembark,       // unit (cargo) lands on hex, adjacent to its Frigate [9.46, 9.47]
  kBombard,         // unit (Artillery/Frigate) fires at hex [11.0]
  kStartBattle,     // hex: fight the Battle there [12.0]
  kChooseCasualty,  // unit: one hit lands on this unit [10.1]
  kRetreat,         // unit -> hex: during a retreat [12.3 step 3]
  kContinueBattle,  // waive the retreat option, fight another round [12.3 step 3]
  kEliminateUnit,   // unit: returned to stock after losing a Town/City [10.2]
  kPlaceReserve,    // unit_type -> hex [13.0]
  kConcede,         // [5.1]; allowed at any time, also out of turn
  kReplaceWater,    // hex: [15.3] the drawn land tile replaces this freshly revealed water
  kKeepWater,       // [15.3] decline: the drawn land tile goes back unused
  kAverageDice,     // pairs: [15.4] not rolled, each pair one hit of the opponent's choice
  kRemoveTown,      // hex: [15.5] remove one's Town/City to rebuild it next door
  kRebuildTown,     // hex: [15.5] the removed Town/City, rebuilt adjacent to where it stood
  kWithdraw,        // unit -> hex: [15.62] a Ruler's unit leaves his new Vassal's Capital
  kRedeploy,        // unit -> hex: house rule Redeployment, in the Reserve phase [13.0]
};

struct Action {
  ActionKind kind = ActionKind::kEndPhase;
  int player = kNoPlayer;
  int hex = -1;
  int unit = -1;
  int carrier = -1;                          // kEmbark only
  UnitType unit_type = UnitType::kInfantry;  // kPlaceReserve only
  int pairs = 0;                             // kAverageDice only
  friend bool operator==(const Action&, const Action&) = default;
};

std::string_view to_string(ActionKind k);
std::optional<ActionKind> action_kind_from_string(std::string_view s);

// Constructors that read well in tests and bots.
namespace act {
inline Action make(ActionKind kind, int player, int hex = -1, int unit = -1) {
  Action a;
  a.kind = kind;
  a.player = player;
  a.hex = hex;
  a.unit = unit;
  return a;
}
inline Action place_capital(int p, int hex) { return make(ActionKind::kPlaceCapital, p, hex); }
inline Action build_town(int p, int hex) { return make(ActionKind::kBuildTown, p, hex); }
inline Action upgrade_city(int p, int hex) { return make(ActionKind::kUpgradeCity, p, hex); }
inline Action end_phase(int p) { return make(ActionKind::kEndPhase, p); }
inline Action move(int p, int unit, int hex) { return make(ActionKind::kMove, p, hex, unit); }
inline Action embark(int p, int unit, int frigate) {
  Action a = make(ActionKind::kEmbark, p, -1, unit);
  a.carrier = frigate;
  return a;
}
inline Action disembark(int p, int unit, int hex) {
  return make(ActionKind::kDisembark, p, hex, unit);
}
inline Action bombard(int p, int unit, int hex) { return make(ActionKind::kBombard, p, hex, unit); }
inline Action start_battle(int p, int hex) { return make(ActionKind::kStartBattle, p, hex); }
inline Action choose_casualty(int p, int unit) {
  return make(ActionKind::kChooseCasualty, p, -1, unit);
}
inline Action retreat(int p, int unit, int hex) { return make(ActionKind::kRetreat, p, hex, unit); }
inline Action continue_battle(int p) { return make(ActionKind::kContinueBattle, p); }
inline Action eliminate_unit(int p, int unit) {
  return make(ActionKind::kEliminateUnit, p, -1, unit);
}
inline Action place_reserve(int p, UnitType t, int hex) {
  Action a = make(ActionKind::kPlaceReserve, p, hex);
  a.unit_type = t;
  return a;
}
inline Action concede(int p) { return make(ActionKind::kConcede, p); }
inline Action replace_water(int p, int hex) { return make(ActionKind::kReplaceWater, p, hex); }
inline Action keep_water(int p) { return make(ActionKind::kKeepWater, p); }
inline Action average_dice(int p, int pairs) {
  Action a = make(ActionKind::kAverageDice, p);
  a.pairs = pairs;
  return a;
}
inline Action remove_town(int p, int hex) { return make(ActionKind::kRemoveTown, p, hex); }
inline Action rebuild_town(int p, int hex) { return make(ActionKind::kRebuildTown, p, hex); }
inline Action withdraw(int p, int unit, int hex) {
  return make(ActionKind::kWithdraw, p, hex, unit);
}
inline Action redeploy(int p, int unit, int hex) {
  return make(ActionKind::kRedeploy, p, hex, unit);
}
}  // namespace act

// Why an action was refused. `code` is stable (for clients and tests); `message` is for people
// and cites the rule case that forbids the action.
struct ActionError {
  std::string code;
  std::string message;
};

}  // namespace viktory
