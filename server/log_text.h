// Human-readable game log lines ("Red's Cavalry moves from E5 to F6.") made per viewer from the
// events already filtered for him. Terrain is named only where the viewer knows it.
#pragma once

#include <string>
#include <vector>

#include "event.h"
#include "state.h"

namespace viktory::server {

// `state`: the state after the events (or later: knowledge of terrain only grows).
// `viewer`: a seat or kSpectator. Events that say nothing worth a line give none.
std::vector<std::string> log_lines(const GameState& state, const std::vector<Event>& events,
                                   int viewer);

std::string player_label(int player);  // "Red", "Yellow", ...

}  // namespace viktory::server
