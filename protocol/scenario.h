// Scenarios: game positions written by hand (tests, rule checks, bug reports) and the actions
// to play from them. The format is described in docs/scenario-format.md. Like state_to_json,
// a scenario holds every secret of a game: never accept one from, or send one to, a client.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "json.h"

namespace viktory::protocol {

struct Scenario {
  GameState state;
  std::map<std::string, int> unit_names;             // "name" of a unit -> its id
  nlohmann::json actions = nlohmann::json::array();  // as written; see scenario_action
};

// Reads any of the three scenario forms: a position, {"from_new_game": ...} or {"state": ...}.
// `seed` overrides the scenario's own seed. Throws JsonError naming the bad field, also when
// the position breaks one of the engine's invariants (check_invariants).
Scenario scenario_from_json(const nlohmann::json& j,
                            std::optional<std::uint64_t> seed = std::nullopt);

// Turns one scenario action into an engine Action against the state it will apply to: a bare
// string is an action kind without fields, "hex" may be a label ("D4"), "unit" and "carrier"
// may be unit names, and a missing "player" means the player who must decide now.
Action scenario_action(const nlohmann::json& j, const GameState& state,
                       const std::map<std::string, int>& unit_names);

// The Movement Allowance of a unit type [9.11, 9.31].
int movement_allowance(UnitType type);

}  // namespace viktory::protocol
