// Internal helpers shared by the protocol's JSON files (json_detail.cpp, json.cpp,
// state_parts_json.cpp, view_text.cpp, state_json.cpp) and protocol/scenario.cpp: strict
// readers that name the offending field in their JsonError, and enum <-> string tables the
// engine headers do not provide. Not part of the protocol API.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "json.h"
#include "state.h"

namespace viktory::protocol::detail {

using nlohmann::json;

[[noreturn]] void fail(const std::string& path, const std::string& message);

// An unsigned 64-bit integer written in decimal or as 0x-hex; nullopt for anything else.
std::optional<std::uint64_t> parse_u64(std::string_view text);

// "a.b" or "a[3]" built from a parent path.
std::string join(const std::string& path, std::string_view key);
std::string join(const std::string& path, std::size_t index);

// A short, escaped echo of a client-supplied value for error texts (never used for values
// read from a state, which may be secret).
std::string echo(const json& value);
// A key of client-supplied JSON made safe for an error path: printable ASCII, truncated.
std::string printable_key(const std::string& key);

// Which fields each action kind carries besides "kind" and "player" (action_to_json, and the
// legal actions' text, protocol/legal_text.h).
struct ActionFields {
  bool hex = false;
  bool unit = false;
  bool carrier = false;
  bool unit_type = false;
  bool pairs = false;
};
ActionFields action_fields(ActionKind kind);

void expect_object(const json& j, const std::string& path);
void expect_array(const json& j, const std::string& path);
// Throws for any key of `j` not in `allowed`.
void reject_unknown_keys(const json& j, std::initializer_list<std::string_view> allowed,
                         const std::string& path);
void reject_unknown_keys(const json& j, std::span<const std::string_view> allowed,
                         const std::string& path);

const json& require(const json& obj, std::string_view key, const std::string& path);
const json* optional(const json& obj, std::string_view key);  // nullptr when absent

std::int64_t as_int(const json& j, const std::string& path, std::int64_t min, std::int64_t max);
bool as_bool(const json& j, const std::string& path);
const std::string& as_string(const json& j, const std::string& path);
// A uint64 written as a decimal string or a "0x" hex string (JSON numbers lose precision in
// JavaScript beyond 2^53).
std::uint64_t as_u64_string(const json& j, const std::string& path);
std::string u64_to_hex(std::uint64_t value);

// Enum tables. `secret` = do not echo the unknown value in the error text.
Terrain terrain_from(const json& j, const std::string& path, bool secret);
UnitType unit_type_from(const json& j, const std::string& path);
Phase phase_from(const json& j, const std::string& path);
VictoryCondition victory_from(const json& j, const std::string& path);
TileMix tile_mix_from(const json& j, const std::string& path);
UnitPlace unit_place_from(const json& j, const std::string& path);
BattleStage battle_stage_from(const json& j, const std::string& path);

std::string_view unit_place_name(UnitPlace place);
std::string_view battle_stage_name(BattleStage stage);
std::string_view reorganization_name(Reorganization r);
std::string_view return_stage_name(ReturnStage stage);
Reorganization reorganization_from(const json& j, const std::string& path);
ReturnStage return_stage_from(const json& j, const std::string& path);

// How hex and unit references are read. State JSON uses plain indices; scenarios also accept
// hex labels ("D4") and unit names.
struct RefReader {
  int hex_count = 0;
  int unit_count = 0;
  int players = 2;
  std::function<int(const std::string&, const std::string&)> hex_label;  // label, path -> hex
  std::function<int(const std::string&, const std::string&)> unit_name;  // name, path -> id

  int hex(const json& j, const std::string& path, bool allow_none) const;
  int unit(const json& j, const std::string& path, bool allow_none) const;
  int player(const json& j, const std::string& path, bool allow_none) const;
};

// Lists of hex or unit references (see RefReader).
std::vector<int> hex_list_from(const json& j, const std::string& path, const RefReader& refs);
std::vector<int> unit_list_from(const json& j, const std::string& path, const RefReader& refs);

// State sub-objects, shared with the scenario reader (which lets hexes be labels).
json battle_to_json(const Battle& battle);
Battle battle_from_json(const json& j, const std::string& path, const RefReader& refs);
json bombard_to_json(const PendingBombard& bombard);
PendingBombard bombard_from_json(const json& j, const std::string& path, const RefReader& refs);
json elimination_to_json(const PendingElimination& elimination);
PendingElimination elimination_from_json(const json& j, const std::string& path,
                                         const RefReader& refs);
json balance_to_json(const PendingBalance& balance);
PendingBalance balance_from_json(const json& j, const std::string& path, const RefReader& refs);
json relocation_to_json(const PendingRelocation& relocation);
PendingRelocation relocation_from_json(const json& j, const std::string& path,
                                       const RefReader& refs);
json capital_return_to_json(const CapitalReturn& capital_return);
CapitalReturn capital_return_from_json(const json& j, const std::string& path,
                                       const RefReader& refs);
// [4.0, 15.2] A seating of all `players`.
std::vector<int> turn_order_from_json(const json& j, const std::string& path, int players);
json entry_to_json(const BattleEntry& entry);
BattleEntry entry_from_json(const json& j, const std::string& path, const RefReader& refs);
json tile_bank_to_json(const std::array<int, kTerrainKinds>& bank);
std::array<int, kTerrainKinds> tile_bank_from_json(const json& j, const std::string& path);
std::vector<int> dice_from_json(const json& j, const std::string& path);
Options options_from_json_at(const json& j, const std::string& path);
// action_from_json with the path its errors name (e.g. "actions[3].action").
Action action_from_json_at(const json& j, const std::string& path);
json options_to_json_impl(const Options& options);
void reject_unknown_option_keys(const json& j, const std::string& path);
VictorySet victory_set_from(const json& j, const std::string& path);
json victory_set_to_json(VictorySet set);

}  // namespace viktory::protocol::detail
