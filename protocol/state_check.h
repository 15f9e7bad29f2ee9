// Whether a state read from JSON (a server snapshot, or a scenario) is one the rules engine can
// work on. The engine trusts its own states: every state it makes keeps check_invariants, and
// many fields agree with each other (a pending battle lies where units fight, a moving unit is
// on the map, ...). A state from a file or a database has made no such promise, so the readers
// check it before anyone calls the engine with it.
#pragma once

#include <optional>
#include <string>

#include "state.h"

namespace viktory::protocol {

// The first problem, said of the state ("breaks an engine invariant: ...", "has ..."), or
// nothing when the engine may use the state.
std::optional<std::string> state_problem(const GameState& state);

}  // namespace viktory::protocol
