#include "state_check.h"

#include "game.h"

namespace viktory::protocol {

std::optional<std::string> state_problem(const GameState& s) {
  if (auto broken = check_invariants(s)) return "breaks an engine invariant: " + *broken;
  // The engine clears both when a unit leaves the map (and a new unit has neither); it reads
  // them again when the unit comes back. Found by tests/fuzz/scenario_fuzzer: a Reserve unit
  // with a carrier was placed on the map aboard another player's Infantry.
  for (const Unit& u : s.units) {
    if (u.place != UnitPlace::kMap && (u.hex != -1 || u.carrier != -1)) {
      return "has unit " + std::to_string(u.id) + " off the map with a hex or a carrier";
    }
  }
  return std::nullopt;
}

}  // namespace viktory::protocol
