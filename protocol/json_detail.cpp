// The strict readers and enum tables of protocol/json_detail.h, shared by every JSON form of
// the protocol (json.cpp, state_parts_json.cpp, view_text.cpp, state_json.cpp, scenario.cpp).
#include "json_detail.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <limits>

namespace viktory::protocol {

namespace detail {

void fail(const std::string& path, const std::string& message) {
  throw JsonError(path + ": " + message);
}

std::string join(const std::string& path, std::string_view key) {
  std::string out = path;
  if (!out.empty()) out += '.';
  out += key;
  return out;
}

std::string join(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

std::string echo(const json& value) {
  constexpr std::size_t kMaxEcho = 40;
  std::string text = value.dump(-1, ' ', true, json::error_handler_t::replace);
  if (text.size() > kMaxEcho) text = text.substr(0, kMaxEcho) + "...";
  return text;
}

namespace {
std::string type_of(const json& j) {
  if (j.is_number_integer()) return "an integer";
  if (j.is_number_float()) return "a non-integer number";
  if (j.is_string()) return "a string";
  if (j.is_boolean()) return "a boolean";
  if (j.is_null()) return "null";
  if (j.is_array()) return "an array";
  if (j.is_object()) return "an object";
  return "a value of another type";
}
}  // namespace

std::string printable_key(const std::string& key) {
  constexpr std::size_t kMaxKey = 40;
  std::string out;
  for (char c : key.substr(0, kMaxKey)) {
    const auto byte = static_cast<unsigned char>(c);
    out += (byte >= 0x20 && byte < 0x7f) ? c : '?';
  }
  if (key.size() > kMaxKey) out += "...";
  return out;
}

void expect_object(const json& j, const std::string& path) {
  if (!j.is_object()) fail(path, "expected an object, got " + type_of(j));
}

void expect_array(const json& j, const std::string& path) {
  if (!j.is_array()) fail(path, "expected an array, got " + type_of(j));
}

void reject_unknown_keys(const json& j, std::initializer_list<std::string_view> allowed,
                         const std::string& path) {
  reject_unknown_keys(j, std::span<const std::string_view>(allowed.begin(), allowed.size()), path);
}

void reject_unknown_keys(const json& j, std::span<const std::string_view> allowed,
                         const std::string& path) {
  for (const auto& [key, value] : j.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      fail(join(path, printable_key(key)), "unknown field");
    }
  }
}

const json& require(const json& obj, std::string_view key, const std::string& path) {
  const auto it = obj.find(key);
  if (it == obj.end()) fail(join(path, key), "missing required field");
  return *it;
}

const json* optional(const json& obj, std::string_view key) {
  const auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

std::int64_t as_int(const json& j, const std::string& path, std::int64_t min, std::int64_t max) {
  if (!j.is_number_integer()) fail(path, "expected an integer, got " + type_of(j));
  std::int64_t value = 0;
  if (j.is_number_unsigned()) {
    const auto u = j.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      fail(path, "integer out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
    }
    value = static_cast<std::int64_t>(u);
  } else {
    value = j.get<std::int64_t>();
  }
  if (value < min || value > max) {
    fail(path, "integer out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  }
  return value;
}

bool as_bool(const json& j, const std::string& path) {
  if (!j.is_boolean()) fail(path, "expected a boolean, got " + type_of(j));
  return j.get<bool>();
}

const std::string& as_string(const json& j, const std::string& path) {
  if (!j.is_string()) fail(path, "expected a string, got " + type_of(j));
  return j.get_ref<const std::string&>();
}

std::optional<std::uint64_t> parse_u64(std::string_view text) {
  std::string_view digits = text;
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    digits.remove_prefix(2);
    base = 16;
  }
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) {
    return std::nullopt;
  }
  return value;
}

std::uint64_t as_u64_string(const json& j, const std::string& path) {
  const auto value = parse_u64(as_string(j, path));
  if (!value) fail(path, "expected an unsigned 64-bit integer as a decimal or 0x-hex string");
  return *value;
}

std::string u64_to_hex(std::uint64_t value) {
  char buffer[19];
  std::snprintf(buffer, sizeof buffer, "0x%016llx", static_cast<unsigned long long>(value));
  return buffer;
}

namespace {
// The value of E among 0..count-1 whose name is `name`.
template <typename E>
std::optional<E> by_name(std::string_view name, int count, std::string_view (*namer)(E)) {
  for (int i = 0; i < count; ++i) {
    const auto value = static_cast<E>(i);
    if (namer(value) == name) return value;
  }
  return std::nullopt;
}

template <typename E>
E enum_from(const json& j, const std::string& path, std::optional<E> (*parse)(std::string_view),
            const char* what, bool secret) {
  const std::string& name = as_string(j, path);
  if (const auto value = parse(name)) return *value;
  if (secret) fail(path, std::string("unknown ") + what);
  fail(path, std::string("unknown ") + what + " " + echo(j));
}

// The engine's parsers; "none" is not a tile, so it is not a terrain a reader may set.
std::optional<Terrain> parse_terrain(std::string_view s) {
  const auto t = terrain_from_string(s);
  if (t == Terrain::kNone) return std::nullopt;
  return t;
}
std::optional<UnitType> parse_unit_type(std::string_view s) { return unit_type_from_string(s); }
std::optional<Phase> parse_phase(std::string_view s) { return phase_from_string(s); }
std::optional<VictoryCondition> parse_victory(std::string_view s) { return victory_from_string(s); }
std::optional<TileMix> parse_tile_mix(std::string_view s) { return tile_mix_from_string(s); }
// The engine has no names for UnitPlace and BattleStage; these are the protocol's.
std::optional<UnitPlace> parse_unit_place(std::string_view s) {
  return by_name<UnitPlace>(s, static_cast<int>(UnitPlace::kStock) + 1, unit_place_name);
}
std::optional<BattleStage> parse_battle_stage(std::string_view s) {
  return by_name<BattleStage>(s, static_cast<int>(BattleStage::kAssignDefenderPreFire) + 1,
                              battle_stage_name);
}
std::optional<Reorganization> parse_reorganization(std::string_view s) {
  return by_name<Reorganization>(s, static_cast<int>(Reorganization::kThisTurn) + 1,
                                 reorganization_name);
}
std::optional<ReturnStage> parse_return_stage(std::string_view s) {
  return by_name<ReturnStage>(s, static_cast<int>(ReturnStage::kNavalBattles) + 1,
                              return_stage_name);
}
}  // namespace

Terrain terrain_from(const json& j, const std::string& path, bool secret) {
  return enum_from<Terrain>(j, path, parse_terrain, "terrain", secret);
}
UnitType unit_type_from(const json& j, const std::string& path) {
  return enum_from<UnitType>(j, path, parse_unit_type, "unit type", false);
}
Phase phase_from(const json& j, const std::string& path) {
  return enum_from<Phase>(j, path, parse_phase, "phase", false);
}
VictoryCondition victory_from(const json& j, const std::string& path) {
  return enum_from<VictoryCondition>(j, path, parse_victory, "victory condition", false);
}
TileMix tile_mix_from(const json& j, const std::string& path) {
  return enum_from<TileMix>(j, path, parse_tile_mix, "tile mix", false);
}
UnitPlace unit_place_from(const json& j, const std::string& path) {
  return enum_from<UnitPlace>(j, path, parse_unit_place, "unit place", false);
}
BattleStage battle_stage_from(const json& j, const std::string& path) {
  return enum_from<BattleStage>(j, path, parse_battle_stage, "battle stage", false);
}
Reorganization reorganization_from(const json& j, const std::string& path) {
  return enum_from<Reorganization>(j, path, parse_reorganization, "reorganization", false);
}
ReturnStage return_stage_from(const json& j, const std::string& path) {
  return enum_from<ReturnStage>(j, path, parse_return_stage, "capital return stage", false);
}

// The engine has no names for these two enums; these are the protocol's.
std::string_view unit_place_name(UnitPlace place) {
  switch (place) {
    case UnitPlace::kMap:
      return "map";
    case UnitPlace::kReserve:
      return "reserve";
    case UnitPlace::kStock:
      return "stock";
  }
  return "?";
}

std::string_view battle_stage_name(BattleStage stage) {
  switch (stage) {
    case BattleStage::kAssignPreFire:
      return "assign_pre_fire";
    case BattleStage::kAssignAttackerFire:
      return "assign_attacker_fire";
    case BattleStage::kAssignDefenderFire:
      return "assign_defender_fire";
    case BattleStage::kRetreatOption:
      return "retreat_option";
    case BattleStage::kRetreating:
      return "retreating";
    case BattleStage::kAverageAttackerFire:
      return "average_attacker_fire";
    case BattleStage::kAverageDefenderFire:
      return "average_defender_fire";
    case BattleStage::kAssignDefenderPreFire:
      return "assign_defender_pre_fire";
  }
  return "?";
}

std::string_view reorganization_name(Reorganization r) {
  switch (r) {
    case Reorganization::kNone:
      return "none";
    case Reorganization::kNextTurn:
      return "next_turn";
    case Reorganization::kThisTurn:
      return "this_turn";
  }
  return "?";
}

std::string_view return_stage_name(ReturnStage stage) {
  switch (stage) {
    case ReturnStage::kWithdraw:
      return "withdraw";
    case ReturnStage::kReinforce:
      return "reinforce";
    case ReturnStage::kNavalBattles:
      return "naval_battles";
  }
  return "?";
}

int RefReader::hex(const json& j, const std::string& path, bool allow_none) const {
  if (j.is_string() && hex_label) return hex_label(j.get<std::string>(), path);
  return static_cast<int>(as_int(j, path, allow_none ? -1 : 0, hex_count - 1));
}

int RefReader::unit(const json& j, const std::string& path, bool allow_none) const {
  if (j.is_string() && unit_name) return unit_name(j.get<std::string>(), path);
  return static_cast<int>(as_int(j, path, allow_none ? -1 : 0, unit_count - 1));
}

int RefReader::player(const json& j, const std::string& path, bool allow_none) const {
  return static_cast<int>(as_int(j, path, allow_none ? kNoPlayer : 0, players - 1));
}

std::vector<int> dice_from_json(const json& j, const std::string& path) {
  expect_array(j, path);
  std::vector<int> out;
  for (std::size_t i = 0; i < j.size(); ++i) {
    out.push_back(static_cast<int>(as_int(j[i], join(path, i), 1, 6)));
  }
  return out;
}

}  // namespace detail

}  // namespace viktory::protocol
