// `game.reach`: every hex a unit can still get to this turn, by one move or several [9.0],
// worked out from the engine's own legal moves (no rule of movement is repeated here), so the
// client can show a unit's whole reach and not only its next step.
//
// The walk tries the unit's legal moves on copies of the state and goes on from where each
// leads. It never goes on from a move that turns tiles over [9.2] (what they are is not known
// yet, and the copy's draw must not tell): such a hex is listed as one that explores, and
// nothing beyond it. So the answer depends only on what the player may know.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <variant>

#include "common.h"
#include "state.h"

namespace viktory::server {

// The reply {"type":"game.reach","game_id","unit","hexes":[{"hex","moves","explores"}]} to
// `request` (field `unit`) from `seat`: `moves` is the fewest move actions to get there,
// `explores` that the last of them turns tiles over (the walk stops there). Empty when the
// unit cannot move now (not his, not his decision, no Movement Points left). `bad_message`
// when `unit` is not a unit id.
std::variant<nlohmann::json, Failure> reach_reply(const GameState& state, int seat,
                                                  std::int64_t game_id,
                                                  const nlohmann::json& request);

}  // namespace viktory::server
