#include "state_check.h"

#include "game.h"

namespace viktory::protocol {

std::optional<std::string> state_problem(const GameState& s) {
  if (auto broken = check_invariants(s)) return "breaks an engine invariant: " + *broken;
  return std::nullopt;
}

}  // namespace viktory::protocol
