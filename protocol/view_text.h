// Views and view deltas written as JSON text (protocol/json_writer.h): the one writer of their
// shape. The server's messages and replay pages append this text (no nlohmann tree is built and
// freed per view); view_to_json and view_delta_to_json (json.h, view_delta.h) are this text
// parsed, for tests and tools only (the scenario tool, which puts the board back into the
// hexes and prints the view indented). The text is what a tree of it
// dumps with nlohmann's dump(-1, ' ', false, error_handler_t::replace): keys in byte order,
// compact (tests/protocol/view_text_test.cpp).
#pragma once

#include <string>

#include "view.h"
#include "view_delta.h"

namespace viktory::protocol {

// Appends the view's JSON text to `out`.
void append_view_json(std::string& out, const GameView& view);
std::string view_json_text(const GameView& view);

// Appends the delta's JSON text to `out`; `after` is the view the delta leads to.
void append_view_delta_json(std::string& out, const ViewDelta& delta, const GameView& after);
std::string view_delta_json_text(const ViewDelta& delta, const GameView& after);
std::string view_delta_json_text(const GameView& before, const GameView& after);

}  // namespace viktory::protocol
