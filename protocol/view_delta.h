// The difference between two views of the same viewer, for replays (and live updates): the
// first view is sent whole, then each step only what changed.
//
// The difference is found by comparing the view structs (engine/view.h), not by diffing their
// JSON. Changed hexes, units and players are sent whole (as the view's text has them); changed
// top-level fields are sent by key. A top-level field this file does not list is still never
// lost: the structs compare every field (defaulted operator==), and when the listed fields do
// not explain a difference, every top-level field is sent (`whole_head`). Tests assert that
// this fallback is never needed, so a field added to GameView without being listed here fails
// them instead of silently costing bytes.
//
// JSON form (every key is optional; an empty object means "nothing changed"):
//   {"set": {"<field>": <value>, ...},   top-level fields with their new value
//    "unset": ["<field>", ...],          optional fields that are gone (battle, bombard, ...)
//    "hexes": [<hex>, ...],              changed hexes, whole; each replaces hexes[hex.hex]
//    "hex_count": n,                     when the number of hexes changed (never in a game)
//    "units": [<unit>, ...],             added or changed units, whole (units stay sorted by id)
//    "units_removed": [id, ...],
//    "players": [<player>, ...],         changed players, whole; each replaces players[index]
//    "player_count": n}                  when the number of players changed
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "view.h"

namespace viktory::protocol {

struct ViewDelta {
  std::vector<std::string> fields;  // top-level keys that changed (set or unset)
  bool whole_head = false;          // a field not listed here changed: all top-level keys sent
  std::vector<int> hexes;           // indexes of changed hexes
  bool hex_count_changed = false;
  std::vector<int> units;  // ids of added or changed units
  std::vector<int> units_removed;
  std::vector<int> players;  // indexes of changed players
  bool player_count_changed = false;

  bool empty() const {
    return fields.empty() && !whole_head && hexes.empty() && !hex_count_changed && units.empty() &&
           units_removed.empty() && players.empty() && !player_count_changed;
  }
};

// What changed from `before` to `after` (views of the same viewer, usually one action apart).
ViewDelta diff_views(const GameView& before, const GameView& after);

// The JSON form above as a tree, for tests and tools only: parsed from the delta's text
// (protocol/view_text.h, the one writer); `after` is the view the delta leads to.
nlohmann::json view_delta_to_json(const ViewDelta& delta, const GameView& after);
nlohmann::json view_delta_to_json(const GameView& before, const GameView& after);

// Applies a delta to the JSON of the earlier view: the result equals view_to_json of the later
// one. Throws JsonError when the delta does not fit the view.
nlohmann::json apply_view_delta(nlohmann::json view, const nlohmann::json& delta);

}  // namespace viktory::protocol
