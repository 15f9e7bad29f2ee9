// The legal actions a decider is sent with every state and update, written as JSON text
// directly (protocol/json_writer.h): the same bytes as
//   nlohmann::json(actions_to_json(actions)).dump()
// without building and freeing an nlohmann tree per viewer and action. actions_to_json stays
// the reference form; tests/protocol/legal_text_test.cpp compares both over random games.
#pragma once

#include <string>
#include <vector>

#include "action.h"

namespace viktory::protocol {

// Appends the list's JSON text (an array of action objects) to `out`.
void append_actions_json(std::string& out, const std::vector<Action>& actions);
std::string actions_json_text(const std::vector<Action>& actions);

}  // namespace viktory::protocol
