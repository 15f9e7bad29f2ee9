// The static board of a game: per hex its index, axial coordinates, label and whether it is on
// the perimeter. None of it changes during a game and none of it is hidden (no terrain, nothing
// of the seed), so the server sends it once per game and connection ("game.board",
// docs/protocol.md) and views and view deltas leave those fields out of their hexes.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "view.h"

namespace viktory::protocol {

// {"id": "<16 hex digits>", "hexes": [{"hex", "label", "perimeter", "q", "r"}, ...]}, one entry
// per hex in index order. `id` is a digest of the hexes, so that a client can tell whether the
// board it holds is this one. The same for every viewer of a game.
nlohmann::json board_to_json(const GameView& view);

// A view in the form view_to_json writes it with the board's fields put back into each hex (as
// views carried them before the board was sent on its own), for tools and programs that want
// one object. Throws JsonError when the board does not fit the view (another hex count).
nlohmann::json view_with_board(nlohmann::json view, const nlohmann::json& board);

}  // namespace viktory::protocol
