// JSON forms of the engine's values (nlohmann::json). Enums are lower_snake_case strings,
// hexes are board indices, units are ids. See docs/protocol.md and docs/scenario-format.md.
//
// Two kinds of function live here, and they must not be confused:
//  - view/event/action/options forms: safe to send to the player they were made for;
//  - state_to_json / state_from_json: the whole state with every secret (generator words,
//    face-down tiles, tile bank). For snapshots on the server and for scenarios only. Never
//    send it to a client.
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "action.h"
#include "battle_preview.h"
#include "event.h"
#include "state.h"
#include "view.h"

namespace viktory::protocol {

// Thrown by the *_from_json functions for input of the wrong shape; what() says which field.
struct JsonError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

nlohmann::json options_to_json(const Options& options);
// Every key of the options object, as read and written (docs/protocol.md, "Game options"): one
// list for the options reader and for game.create, which takes the same keys beside its own.
std::span<const std::string_view> option_keys();
Options options_from_json(const nlohmann::json& j);  // missing fields take defaults

nlohmann::json action_to_json(const Action& action);
Action action_from_json(const nlohmann::json& j);  // strict: unknown kind or bad types -> JsonError

nlohmann::json event_to_json(const Event& event);
// The view as a tree, for tests and tools only: parsed from its text (protocol/view_text.h,
// the one writer of a view's shape). Whatever sends a view appends its text directly.
nlohmann::json view_to_json(const GameView& view);
std::vector<nlohmann::json> actions_to_json(const std::vector<Action>& actions);

// Extensions (protocol helper):
std::vector<nlohmann::json> events_to_json(const std::vector<Event>& events);
// The inverse of event_to_json, for replays and tests (strict like action_from_json).
Event event_from_json(const nlohmann::json& j);
// {"code": ..., "message": ...}
nlohmann::json error_to_json(const ActionError& error);

// The dice of one Battle fire by source [12.3, 12.31, 15.4] (events, battle previews).
nlohmann::json fire_to_json(const FireDice& fire);
FireDice fire_from_json(const nlohmann::json& j, const std::string& path = "fire");

// A Battle preview (engine/battle_preview.h): made from a view, so safe for that viewer.
nlohmann::json battle_preview_to_json(const BattlePreview& preview);

// Secret-bearing; server storage and scenarios only. state_from_json also refuses a state the
// engine cannot use (protocol/state_check.h: e.g. one that breaks check_invariants).
nlohmann::json state_to_json(const GameState& state);
GameState state_from_json(const nlohmann::json& j);

}  // namespace viktory::protocol
