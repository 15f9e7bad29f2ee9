// Human-readable game log lines ("Red's Cavalry moves from E5 to F6.") made per viewer from the
// events already filtered for him. Terrain is named only where the viewer knows it.
//
// Each line is a message of the catalogs (server/text/catalog.h, docs/protocol.md "log line"):
// a `log.` key and its parameters, so that every reader reads it in his own language; its
// English text is that message written from the English catalog.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "action_source.h"
#include "event.h"
#include "state.h"

namespace viktory::server {

// `state`: the state after the events (or later: knowledge of terrain only grows).
// `viewer`: a seat or kSpectator. Events that say nothing worth a line give none.
std::vector<std::string> log_lines(const GameState& state, const std::vector<Event>& events,
                                   int viewer);

// One line and the hexes it names (exactly the hex labels in its text, in order), so a client
// can point them out on the map without parsing the text.
struct LogLine {
  std::string text;    // English
  nlohmann::json msg;  // {"key": "log....", "params": {...}}
  std::vector<int> hexes;
};
std::vector<LogLine> log_entries(const GameState& state, const std::vector<Event>& events,
                                 int viewer);
// Appends {"seq","text","msg","hexes"} per line to `out` (a JSON array): the form of the `log` of
// game.state, game.update, replay pages and game.since (docs/protocol.md). When the action was
// not its seat player's own (`source`), each line also has "by": "computer", "standing_order"
// or "clock".
void append_log_json(nlohmann::json& out, int seq, const GameState& state,
                     const std::vector<Event>& events, int viewer,
                     ActionSource source = ActionSource::kPlayer);

std::string player_label(int player);  // "Red", "Yellow", ...
// A seat as a message of the catalogs ({"key": "seat.red"}), a parameter of log lines.
nlohmann::json seat_message(int seat);
// A message's English text (the English catalog's): a log line's or a clock line's "text".
std::string english(const nlohmann::json& msg);

}  // namespace viktory::server
