// `game.preview_battle`: the dice and odds of a Battle before it is fought [12.3], for the
// player weighing an attack. Answered from the engine's preview (engine/battle_preview.h) over
// the asking seat's own view, so the answer can only carry what that seat may know: the public
// pieces, the terrain he knows, the options. Never the hidden tiles or the game's generator.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <variant>

#include "common.h"
#include "state.h"

namespace viktory::server {

// The reply ({"type":"battle.preview","game_id",...,"preview":{...}}) to `request` (fields
// `hex`, optional `units`: ids of the seat's units that would attack; the seat's units
// already on the hex always join them) from `seat` in a running game at `state`, or why not:
// `bad_message` (hex or units malformed), `unknown_hex` (a hex the seat does not know: his
// view has no terrain for it), `no_battle` (nothing of another player there, or units that
// are not his on the map).
std::variant<nlohmann::json, Failure> battle_preview_reply(const GameState& state, int seat,
                                                           std::int64_t game_id,
                                                           const nlohmann::json& request);

}  // namespace viktory::server
