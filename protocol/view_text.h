// Views and view deltas written as JSON text directly (protocol/json_writer.h), for the server's
// per-action messages: the same bytes as
//   view_to_json(view).dump(-1, ' ', false, json::error_handler_t::replace)
//   view_delta_to_json(delta, after).dump(-1, ' ', false, json::error_handler_t::replace)
// without building and freeing an nlohmann tree per view. view_to_json and view_delta_to_json
// stay the reference forms (replays, tests, tools); tests/protocol/view_text_test.cpp compares
// both over random games of every option.
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
