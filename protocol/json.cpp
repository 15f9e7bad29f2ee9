// JSON forms of engine values. See protocol/json.h for which forms are safe to send to whom,
// and docs/scenario-format.md for the field-by-field description.
#include "json.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <limits>

#include "game.h"
#include "json_detail.h"
#include "state_check.h"

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
  return by_name<BattleStage>(s, static_cast<int>(BattleStage::kAverageDefenderFire) + 1,
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

namespace {
json int_list(const std::vector<int>& values) { return json(values); }

std::vector<int> hex_list_from(const json& j, const std::string& path, const RefReader& refs) {
  expect_array(j, path);
  std::vector<int> out;
  for (std::size_t i = 0; i < j.size(); ++i) out.push_back(refs.hex(j[i], join(path, i), false));
  return out;
}

std::vector<int> unit_list_from(const json& j, const std::string& path, const RefReader& refs) {
  expect_array(j, path);
  std::vector<int> out;
  for (std::size_t i = 0; i < j.size(); ++i) out.push_back(refs.unit(j[i], join(path, i), false));
  return out;
}
}  // namespace

std::vector<int> dice_from_json(const json& j, const std::string& path) {
  expect_array(j, path);
  std::vector<int> out;
  for (std::size_t i = 0; i < j.size(); ++i) {
    out.push_back(static_cast<int>(as_int(j[i], join(path, i), 1, 6)));
  }
  return out;
}

json battle_to_json(const Battle& b) {
  return {{"hex", b.hex},
          {"attacker", b.attacker},
          {"defender", b.defender},
          {"naval", b.naval},
          {"placement", b.placement},
          {"round", b.round},
          {"stage", battle_stage_name(b.stage)},
          {"picks_by_firer", b.picks_by_firer},
          {"picks_by_target", b.picks_by_target},
          {"marked", int_list(b.marked)},
          {"suppression", b.suppression},
          {"attacker_dice", int_list(b.attacker_dice)},
          {"defender_dice", int_list(b.defender_dice)},
          {"dice_due", b.dice_due},
          {"attacker_pairs", b.attacker_pairs},
          {"defender_pairs", b.defender_pairs}};
}

Battle battle_from_json(const json& j, const std::string& path, const RefReader& refs) {
  expect_object(j, path);
  reject_unknown_keys(
      j,
      {"hex", "attacker", "defender", "naval", "placement", "round", "stage", "picks_by_firer",
       "picks_by_target", "marked", "suppression", "attacker_dice", "defender_dice", "dice_due",
       "attacker_pairs", "defender_pairs"},
      path);
  Battle b;
  b.hex = refs.hex(require(j, "hex", path), join(path, "hex"), false);
  b.attacker = refs.player(require(j, "attacker", path), join(path, "attacker"), false);
  b.defender = refs.player(require(j, "defender", path), join(path, "defender"), true);
  if (auto* v = optional(j, "naval")) b.naval = as_bool(*v, join(path, "naval"));
  if (auto* v = optional(j, "placement")) b.placement = as_bool(*v, join(path, "placement"));
  if (auto* v = optional(j, "round")) {
    b.round = static_cast<int>(as_int(*v, join(path, "round"), 0, 1000000));
  }
  if (auto* v = optional(j, "stage")) b.stage = battle_stage_from(*v, join(path, "stage"));
  if (auto* v = optional(j, "picks_by_firer")) {
    b.picks_by_firer = static_cast<int>(as_int(*v, join(path, "picks_by_firer"), 0, 1000));
  }
  if (auto* v = optional(j, "picks_by_target")) {
    b.picks_by_target = static_cast<int>(as_int(*v, join(path, "picks_by_target"), 0, 1000));
  }
  if (auto* v = optional(j, "marked")) b.marked = unit_list_from(*v, join(path, "marked"), refs);
  if (auto* v = optional(j, "suppression")) {
    b.suppression = static_cast<int>(as_int(*v, join(path, "suppression"), 0, 1000));
  }
  if (auto* v = optional(j, "attacker_dice")) {
    b.attacker_dice = dice_from_json(*v, join(path, "attacker_dice"));
  }
  if (auto* v = optional(j, "defender_dice")) {
    b.defender_dice = dice_from_json(*v, join(path, "defender_dice"));
  }
  // [15.4] Luck Averaging (absent from states saved before it existed).
  if (auto* v = optional(j, "dice_due")) {
    b.dice_due = static_cast<int>(as_int(*v, join(path, "dice_due"), 0, 100));
  }
  if (auto* v = optional(j, "attacker_pairs")) {
    b.attacker_pairs = static_cast<int>(as_int(*v, join(path, "attacker_pairs"), 0, 50));
  }
  if (auto* v = optional(j, "defender_pairs")) {
    b.defender_pairs = static_cast<int>(as_int(*v, join(path, "defender_pairs"), 0, 50));
  }
  return b;
}

json balance_to_json(const PendingBalance& b) {
  return {{"player", b.player}, {"water", int_list(b.water)}, {"land", to_string(b.land)}};
}

PendingBalance balance_from_json(const json& j, const std::string& path, const RefReader& refs) {
  expect_object(j, path);
  reject_unknown_keys(j, {"player", "water", "land"}, path);
  PendingBalance b;
  b.player = refs.player(require(j, "player", path), join(path, "player"), false);
  b.water = hex_list_from(require(j, "water", path), join(path, "water"), refs);
  b.land = terrain_from(require(j, "land", path), join(path, "land"), true);
  if (!is_land(b.land)) fail(join(path, "land"), "expected a land terrain");
  return b;
}

json relocation_to_json(const PendingRelocation& r) {
  return {{"player", r.player}, {"from_hex", r.from_hex}, {"city", r.city}};
}

PendingRelocation relocation_from_json(const json& j, const std::string& path,
                                       const RefReader& refs) {
  expect_object(j, path);
  reject_unknown_keys(j, {"player", "from_hex", "city"}, path);
  PendingRelocation r;
  r.player = refs.player(require(j, "player", path), join(path, "player"), false);
  r.from_hex = refs.hex(require(j, "from_hex", path), join(path, "from_hex"), false);
  r.city = as_bool(require(j, "city", path), join(path, "city"));
  return r;
}

json capital_return_to_json(const CapitalReturn& r) {
  return {{"hex", r.hex},
          {"ruler", r.ruler},
          {"vassal", r.vassal},
          {"stage", return_stage_name(r.stage)},
          {"naval_battles", int_list(r.naval_battles)}};
}

CapitalReturn capital_return_from_json(const json& j, const std::string& path,
                                       const RefReader& refs) {
  expect_object(j, path);
  reject_unknown_keys(j, {"hex", "ruler", "vassal", "stage", "naval_battles"}, path);
  CapitalReturn r;
  r.hex = refs.hex(require(j, "hex", path), join(path, "hex"), false);
  r.ruler = refs.player(require(j, "ruler", path), join(path, "ruler"), false);
  r.vassal = refs.player(require(j, "vassal", path), join(path, "vassal"), false);
  r.stage = return_stage_from(require(j, "stage", path), join(path, "stage"));
  if (auto* v = optional(j, "naval_battles")) {
    r.naval_battles = hex_list_from(*v, join(path, "naval_battles"), refs);
  }
  return r;
}

std::vector<int> turn_order_from_json(const json& j, const std::string& path, int players) {
  expect_array(j, path);
  if (static_cast<int>(j.size()) != players) {
    fail(path, "expected one entry per player (" + std::to_string(players) + ")");
  }
  std::vector<int> order;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const int p = static_cast<int>(as_int(j[i], join(path, i), 0, players - 1));
    if (std::find(order.begin(), order.end(), p) != order.end()) {
      fail(join(path, i), "a player is seated twice");
    }
    order.push_back(p);
  }
  return order;
}

json bombard_to_json(const PendingBombard& b) {
  return {{"hex", b.hex},
          {"firer", b.firer},
          {"target", b.target},
          {"picks_by_firer", b.picks_by_firer},
          {"picks_by_target", b.picks_by_target}};
}

PendingBombard bombard_from_json(const json& j, const std::string& path, const RefReader& refs) {
  expect_object(j, path);
  reject_unknown_keys(j, {"hex", "firer", "target", "picks_by_firer", "picks_by_target"}, path);
  PendingBombard b;
  b.hex = refs.hex(require(j, "hex", path), join(path, "hex"), false);
  b.firer = refs.player(require(j, "firer", path), join(path, "firer"), false);
  b.target = refs.player(require(j, "target", path), join(path, "target"), false);
  if (auto* v = optional(j, "picks_by_firer")) {
    b.picks_by_firer = static_cast<int>(as_int(*v, join(path, "picks_by_firer"), 0, 1000));
  }
  if (auto* v = optional(j, "picks_by_target")) {
    b.picks_by_target = static_cast<int>(as_int(*v, join(path, "picks_by_target"), 0, 1000));
  }
  return b;
}

json elimination_to_json(const PendingElimination& e) {
  json owed = json::array();
  for (UnitType t : e.owed) owed.push_back(to_string(t));
  return {{"player", e.player}, {"owed", owed}};
}

PendingElimination elimination_from_json(const json& j, const std::string& path,
                                         const RefReader& refs) {
  expect_object(j, path);
  reject_unknown_keys(j, {"player", "owed"}, path);
  PendingElimination e;
  e.player = refs.player(require(j, "player", path), join(path, "player"), false);
  const json& owed = require(j, "owed", path);
  expect_array(owed, join(path, "owed"));
  for (std::size_t i = 0; i < owed.size(); ++i) {
    e.owed.push_back(unit_type_from(owed[i], join(join(path, "owed"), i)));
  }
  return e;
}

json entry_to_json(const BattleEntry& e) {
  return {{"battle_hex", e.battle_hex}, {"from_hex", e.from_hex}};
}

BattleEntry entry_from_json(const json& j, const std::string& path, const RefReader& refs) {
  expect_object(j, path);
  reject_unknown_keys(j, {"battle_hex", "from_hex"}, path);
  BattleEntry e;
  e.battle_hex = refs.hex(require(j, "battle_hex", path), join(path, "battle_hex"), false);
  e.from_hex = refs.hex(require(j, "from_hex", path), join(path, "from_hex"), false);
  return e;
}

// Tile bank index i holds Terrain(i + 1): water first, as in engine/state.h.
json tile_bank_to_json(const std::array<int, kTerrainKinds>& bank) {
  json out = json::object();
  for (int i = 0; i < kTerrainKinds; ++i) {
    out[std::string(to_string(static_cast<Terrain>(i + 1)))] = bank[static_cast<std::size_t>(i)];
  }
  return out;
}

std::array<int, kTerrainKinds> tile_bank_from_json(const json& j, const std::string& path) {
  expect_object(j, path);
  std::array<int, kTerrainKinds> bank{};
  for (const auto& [key, value] : j.items()) {
    const Terrain t = terrain_from(json(key), join(path, key), false);
    bank[static_cast<std::size_t>(static_cast<int>(t) - 1)] =
        static_cast<int>(as_int(value, join(path, key), 0, 100000));
  }
  return bank;
}

namespace {
// The optional rules [15.0] by their JSON names.
struct RuleFlag {
  const char* key;
  bool Options::*field;
};
constexpr RuleFlag kRuleFlags[] = {
    {"independent_exploration", &Options::independent_exploration},
    {"terrain_leveling", &Options::terrain_leveling},
    {"no_exploration", &Options::no_exploration},
    {"exploration_balancing", &Options::exploration_balancing},
    {"luck_averaging", &Options::luck_averaging},
    {"town_relocation", &Options::town_relocation},
    {"subjugation", &Options::subjugation},
};
}  // namespace

void reject_unknown_option_keys(const json& j, const std::string& path) {
  reject_unknown_keys(j,
                      {"players", "victory", "tile_mix", "independent_exploration",
                       "terrain_leveling", "no_exploration", "exploration_balancing",
                       "luck_averaging", "town_relocation", "subjugation"},
                      path);
}

// [5.0] One condition as a string (the only form stored before several could be chosen), or
// a non-empty list of distinct conditions.
VictorySet victory_set_from(const json& j, const std::string& path) {
  if (j.is_string()) return victory_from(j, path);
  if (!j.is_array()) fail(path, "expected a victory condition or a list of them");
  if (j.empty()) fail(path, "choose at least one victory condition [5.0]");
  VictorySet set = victory_from(j[0], join(path, 0));
  for (std::size_t i = 1; i < j.size(); ++i) {
    const VictoryCondition v = victory_from(j[i], join(path, i));
    if (set.has(v)) fail(join(path, i), "victory condition listed twice");
    set.add(v);
  }
  return set;
}

json victory_set_to_json(VictorySet set) {
  const auto list = set.list();
  if (list.size() == 1) return to_string(list.front());
  json out = json::array();
  for (VictoryCondition v : list) out.push_back(to_string(v));
  return out;
}

Options options_from_json_at(const json& j, const std::string& path) {
  expect_object(j, path);
  Options o;
  if (auto* v = optional(j, "players")) {
    o.players = static_cast<int>(as_int(*v, join(path, "players"), 2, kMaxPlayers));
  }
  if (auto* v = optional(j, "victory")) o.victory = victory_set_from(*v, join(path, "victory"));
  if (auto* v = optional(j, "tile_mix")) o.tile_mix = tile_mix_from(*v, join(path, "tile_mix"));
  for (const RuleFlag& flag : kRuleFlags) {
    if (auto* v = optional(j, flag.key)) o.*flag.field = as_bool(*v, join(path, flag.key));
  }
  // [5.2] Subjugation Conquest needs the Subjugation rules [15.6]: choosing it turns them on.
  o = normalized(o);
  if (auto problem = options_problem(o)) fail(path, *problem);
  return o;
}

json options_to_json_impl(const Options& o) {
  json out = {{"players", o.players},
              {"victory", victory_set_to_json(o.victory)},
              {"tile_mix", to_string(o.tile_mix)}};
  for (const RuleFlag& flag : kRuleFlags) out[flag.key] = o.*flag.field;
  return out;
}

}  // namespace detail

using namespace detail;

// ---------------------------------------------------------------------------------------------
// Battle fire breakdowns

json fire_to_json(const FireDice& fire) {
  json sources = json::array();
  for (const DiceFrom& d : fire.sources) {
    sources.push_back({{"source", to_string(d.source)}, {"dice", d.dice}});
  }
  return {{"sources", sources},
          {"suppressed", fire.suppressed},
          {"averaged_pairs", fire.averaged_pairs},
          {"entitled", fire.entitled()},
          {"rolled", fire.rolled()}};
}

FireDice fire_from_json(const json& j, const std::string& path) {
  expect_object(j, path);
  reject_unknown_keys(j, {"sources", "suppressed", "averaged_pairs", "entitled", "rolled"}, path);
  FireDice fire;
  const json& sources = require(j, "sources", path);
  expect_array(sources, join(path, "sources"));
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const std::string item = join(join(path, "sources"), i);
    expect_object(sources[i], item);
    reject_unknown_keys(sources[i], {"source", "dice"}, item);
    const json& name = require(sources[i], "source", item);
    const auto source = die_source_from_string(as_string(name, join(item, "source")));
    if (!source) fail(join(item, "source"), "unknown die source " + echo(name));
    fire.sources.push_back({*source, static_cast<int>(as_int(require(sources[i], "dice", item),
                                                             join(item, "dice"), 0, 100))});
  }
  fire.suppressed =
      static_cast<int>(as_int(require(j, "suppressed", path), join(path, "suppressed"), 0, 100));
  fire.averaged_pairs = static_cast<int>(
      as_int(require(j, "averaged_pairs", path), join(path, "averaged_pairs"), 0, 50));
  // "entitled" and "rolled" follow from the rest; they are written for readers only.
  return fire;
}

json battle_preview_to_json(const BattlePreview& p) {
  return {{"hex", p.hex},
          {"attacker", p.attacker},
          {"defender", p.defender},
          {"naval", p.naval},
          {"terrain_known", p.terrain_known},
          {"pre_battle_fire", fire_to_json(p.pre_battle_fire)},
          {"attacker_fire", fire_to_json(p.attacker_fire)},
          {"defender_fire", fire_to_json(p.defender_fire)},
          {"odds",
           {{"attacker_wins", p.attacker_wins},
            {"defender_holds", p.defender_holds},
            {"undecided", p.undecided},
            {"average_rounds", p.average_rounds},
            {"trials", p.trials},
            {"method", "monte_carlo"},
            {"seed", u64_to_hex(p.seed)}}}};
}

// ---------------------------------------------------------------------------------------------
// Options

json options_to_json(const Options& o) { return options_to_json_impl(o); }

// Unknown keys are ignored here (callers such as game.create carry other fields alongside);
// known keys of the wrong type or value are errors.
Options options_from_json(const json& j) { return options_from_json_at(j, "options"); }

// ---------------------------------------------------------------------------------------------
// Actions

namespace {
// Which fields each action kind carries besides "kind" and "player".
struct ActionFields {
  bool hex = false;
  bool unit = false;
  bool carrier = false;
  bool unit_type = false;
  bool pairs = false;
};

ActionFields fields_of(ActionKind kind) {
  switch (kind) {
    case ActionKind::kPlaceCapital:
    case ActionKind::kBuildTown:
    case ActionKind::kUpgradeCity:
    case ActionKind::kStartBattle:
    case ActionKind::kReplaceWater:
    case ActionKind::kRemoveTown:
    case ActionKind::kRebuildTown:
      return {.hex = true};
    case ActionKind::kEndPhase:
    case ActionKind::kContinueBattle:
    case ActionKind::kConcede:
    case ActionKind::kKeepWater:
      return {};
    case ActionKind::kAverageDice:
      return {.pairs = true};
    case ActionKind::kMove:
    case ActionKind::kDisembark:
    case ActionKind::kBombard:
    case ActionKind::kRetreat:
    case ActionKind::kWithdraw:
      return {.hex = true, .unit = true};
    case ActionKind::kEmbark:
      return {.unit = true, .carrier = true};
    case ActionKind::kChooseCasualty:
    case ActionKind::kEliminateUnit:
      return {.unit = true};
    case ActionKind::kPlaceReserve:
      return {.hex = true, .unit_type = true};
  }
  return {};
}

// Hex and unit numbers are checked against the game by the engine; this only keeps them in a
// range where int arithmetic is safe.
constexpr std::int64_t kMaxReference = 1'000'000;

}  // namespace

json action_to_json(const Action& a) {
  json out = {{"kind", to_string(a.kind)}};
  if (a.player != kNoPlayer) out["player"] = a.player;
  const ActionFields f = fields_of(a.kind);
  if (f.hex) out["hex"] = a.hex;
  if (f.unit) out["unit"] = a.unit;
  if (f.carrier) out["carrier"] = a.carrier;
  if (f.unit_type) out["unit_type"] = to_string(a.unit_type);
  if (f.pairs) out["pairs"] = a.pairs;
  return out;
}

Action action_from_json(const json& j) { return detail::action_from_json_at(j, "action"); }

Action detail::action_from_json_at(const json& j, const std::string& path) {
  expect_object(j, path);
  const json& kind_json = require(j, "kind", path);
  const std::string& kind_name = as_string(kind_json, join(path, "kind"));
  const auto kind = action_kind_from_string(kind_name);
  if (!kind) fail(join(path, "kind"), "unknown action kind " + echo(kind_json));

  Action a;
  a.kind = *kind;
  const ActionFields f = fields_of(a.kind);
  for (const auto& [key, value] : j.items()) {
    const bool used = key == "kind" || key == "player" || (key == "hex" && f.hex) ||
                      (key == "unit" && f.unit) || (key == "carrier" && f.carrier) ||
                      (key == "unit_type" && f.unit_type) || (key == "pairs" && f.pairs);
    if (!used) {
      fail(join(path, printable_key(key)),
           "field not used by action kind \"" + std::string(to_string(a.kind)) + "\"");
    }
  }
  // The server overwrites "player" with the sender's seat; it is read for scenarios and logs.
  if (auto* v = optional(j, "player")) {
    a.player = static_cast<int>(as_int(*v, join(path, "player"), 0, kMaxPlayers - 1));
  }
  if (f.hex) {
    a.hex = static_cast<int>(as_int(require(j, "hex", path), join(path, "hex"), 0, kMaxReference));
  }
  if (f.unit) {
    a.unit =
        static_cast<int>(as_int(require(j, "unit", path), join(path, "unit"), 0, kMaxReference));
  }
  if (f.carrier) {
    a.carrier = static_cast<int>(
        as_int(require(j, "carrier", path), join(path, "carrier"), 0, kMaxReference));
  }
  if (f.unit_type) {
    a.unit_type = unit_type_from(require(j, "unit_type", path), join(path, "unit_type"));
  }
  if (f.pairs) {
    a.pairs = static_cast<int>(as_int(require(j, "pairs", path), join(path, "pairs"), 0, 3));
  }
  return a;
}

std::vector<json> actions_to_json(const std::vector<Action>& actions) {
  std::vector<json> out;
  out.reserve(actions.size());
  for (const Action& a : actions) out.push_back(action_to_json(a));
  return out;
}

json error_to_json(const ActionError& error) {
  return {{"code", error.code}, {"message", error.message}};
}

// ---------------------------------------------------------------------------------------------
// Events

namespace {
enum EventField : unsigned {
  kPlayer = 1u << 0,
  kOtherPlayer = 1u << 1,
  kHex = 1u << 2,
  kFromHex = 1u << 3,
  kUnit = 1u << 4,
  kOtherUnit = 1u << 5,
  kUnitType = 1u << 6,
  kValue = 1u << 7,
  kDice = 1u << 8,
};

constexpr int kRollPurposes = static_cast<int>(RollPurpose::kDoomsday) + 1;

// The fields each kind documents in engine/event.h; they are always written. Any other field
// that differs from its default is written too, so nothing the engine says is lost.
unsigned documented_fields(EventKind kind) {
  switch (kind) {
    case EventKind::kTurnStarted:
      return kPlayer | kValue;
    case EventKind::kPhaseChanged:
      return kPlayer | kValue;
    case EventKind::kTileRevealed:
      return kPlayer | kHex;  // terrain only when known
    case EventKind::kCapitalPlaced:
    case EventKind::kTownBuilt:
    case EventKind::kCityUpgraded:
      return kPlayer | kHex;
    case EventKind::kUnitGained:
      return kPlayer | kUnit | kUnitType;
    case EventKind::kUnitMoved:
      return kPlayer | kUnit | kFromHex | kHex | kValue;
    case EventKind::kUnitEmbarked:
      return kPlayer | kUnit | kOtherUnit | kFromHex;
    case EventKind::kUnitDisembarked:
      return kPlayer | kUnit | kOtherUnit | kHex;
    case EventKind::kDiceRolled:
      return kPlayer | kHex | kDice | kValue;
    case EventKind::kBombarded:
      return kPlayer | kUnit | kFromHex | kHex;
    case EventKind::kBattleStarted:
      return kPlayer | kOtherPlayer | kHex;
    case EventKind::kUnitHit:
      return kPlayer | kUnit | kUnitType | kHex | kValue;
    case EventKind::kUnitLost:
      return kPlayer | kUnit | kUnitType | kHex;
    case EventKind::kUnitRetreated:
      return kPlayer | kUnit | kFromHex | kHex;
    case EventKind::kBattleEnded:
      return kHex | kPlayer | kOtherPlayer;
    case EventKind::kTownCaptured:
      return kPlayer | kOtherPlayer | kHex | kValue;
    case EventKind::kUnitEliminated:
      return kPlayer | kUnit | kUnitType;
    case EventKind::kUnitPlaced:
      return kPlayer | kUnit | kUnitType | kHex;
    case EventKind::kCapitalLost:
      return kPlayer | kOtherPlayer | kHex;
    case EventKind::kCapitalRetaken:
      return kPlayer | kHex;
    case EventKind::kPlayerEliminated:
    case EventKind::kPlayerConceded:
      return kPlayer;
    case EventKind::kDoomsdayStarted:
      return kHex;
    case EventKind::kDoomsdayCoin:
      return kPlayer;
    case EventKind::kGameOver:
      return kDice | kValue;
    case EventKind::kLandDrawn:
    case EventKind::kWaterKept:
      return kPlayer;  // kLandDrawn: terrain too
    case EventKind::kTileReplaced:
      return kPlayer | kHex;  // terrain only when known, as for reveals
    case EventKind::kDiceAveraged:
      return kPlayer | kHex | kValue;
    case EventKind::kTownRemoved:
      return kPlayer | kHex | kValue;
    case EventKind::kTownRelocated:
      return kPlayer | kFromHex | kHex | kValue;
    case EventKind::kSubjugated:
      return kPlayer | kOtherPlayer | kHex;
    case EventKind::kAllianceBroken:
      return kPlayer | kOtherPlayer | kValue;
    case EventKind::kUnitWithdrawn:
      return kPlayer | kUnit | kUnitType | kFromHex | kHex;
  }
  return 0;
}

std::string_view alliance_end_name(int value) {
  switch (static_cast<AllianceEnd>(value)) {
    case AllianceEnd::kAttackedByRuler:
      return "attacked_by_ruler";
    case AllianceEnd::kRulerLostCapital:
      return "ruler_lost_capital";
    case AllianceEnd::kTookCapital:
      return "took_capital";
    case AllianceEnd::kRulerLeft:
      return "ruler_left";
  }
  return "";
}

}  // namespace

json event_to_json(const Event& e) {
  const Event defaults;
  const unsigned fields = documented_fields(e.kind);
  json out = {{"kind", to_string(e.kind)}};
  auto wants = [&](EventField f, bool differs) { return (fields & f) != 0 || differs; };
  if (wants(kPlayer, e.player != defaults.player)) out["player"] = e.player;
  if (wants(kOtherPlayer, e.other_player != defaults.other_player)) {
    out["other_player"] = e.other_player;
  }
  if (wants(kHex, e.hex != defaults.hex)) out["hex"] = e.hex;
  if (wants(kFromHex, e.from_hex != defaults.from_hex)) out["from_hex"] = e.from_hex;
  if (wants(kUnit, e.unit != defaults.unit)) out["unit"] = e.unit;
  if (wants(kOtherUnit, e.other_unit != defaults.other_unit)) out["other_unit"] = e.other_unit;
  if (wants(kUnitType, e.unit_type != defaults.unit_type)) {
    out["unit_type"] = to_string(e.unit_type);
  }
  // A filtered reveal carries Terrain::kNone: then there is no "terrain" key at all.
  if (e.terrain != Terrain::kNone) out["terrain"] = to_string(e.terrain);
  if (wants(kValue, e.value != defaults.value)) out["value"] = e.value;
  if (wants(kDice, !e.dice.empty())) out["dice"] = e.dice;
  if (e.fire) out["fire"] = fire_to_json(*e.fire);  // a Battle's fire, die by die source

  // Readable names for the kinds whose "value" is an enum.
  if (e.kind == EventKind::kPhaseChanged && e.value >= 0 &&
      e.value <= static_cast<int>(Phase::kGameOver)) {
    out["phase"] = to_string(static_cast<Phase>(e.value));
  }
  if (e.kind == EventKind::kDiceRolled && e.value >= 0 && e.value < kRollPurposes) {
    out["purpose"] = to_string(static_cast<RollPurpose>(e.value));
  }
  if (e.kind == EventKind::kAllianceBroken && !alliance_end_name(e.value).empty()) {
    out["reason"] = alliance_end_name(e.value);
  }
  if (e.kind == EventKind::kGameOver) {
    out["winners"] = e.dice;
    if (e.value >= 0 && e.value < kVictoryConditions) {
      out["victory"] = to_string(static_cast<VictoryCondition>(e.value));
    }
  }
  return out;
}

std::vector<json> events_to_json(const std::vector<Event>& events) {
  std::vector<json> out;
  out.reserve(events.size());
  for (const Event& e : events) out.push_back(event_to_json(e));
  return out;
}

Event event_from_json(const json& j) {
  const std::string path = "event";
  expect_object(j, path);
  reject_unknown_keys(
      j,
      {"kind", "player", "other_player", "hex", "from_hex", "unit", "other_unit", "unit_type",
       "terrain", "value", "dice", "phase", "purpose", "winners", "victory", "reason", "fire"},
      path);
  const json& kind_json = require(j, "kind", path);
  const auto kind = event_kind_from_string(as_string(kind_json, join(path, "kind")));
  if (!kind) fail(join(path, "kind"), "unknown event kind " + echo(kind_json));
  Event e;
  e.kind = *kind;
  auto read_int = [&](const char* key, int& field, std::int64_t min) {
    if (auto* v = optional(j, key)) {
      field = static_cast<int>(as_int(*v, join(path, key), min, kMaxReference));
    }
  };
  read_int("player", e.player, kNoPlayer);
  read_int("other_player", e.other_player, kNoPlayer);
  read_int("hex", e.hex, -1);
  read_int("from_hex", e.from_hex, -1);
  read_int("unit", e.unit, -1);
  read_int("other_unit", e.other_unit, -1);
  read_int("value", e.value, -kMaxReference);
  if (auto* v = optional(j, "unit_type")) e.unit_type = unit_type_from(*v, join(path, "unit_type"));
  if (auto* v = optional(j, "terrain")) e.terrain = terrain_from(*v, join(path, "terrain"), false);
  if (auto* v = optional(j, "dice")) {
    expect_array(*v, join(path, "dice"));
    for (std::size_t i = 0; i < v->size(); ++i) {
      e.dice.push_back(
          static_cast<int>(as_int((*v)[i], join(join(path, "dice"), i), -1, kMaxReference)));
    }
  }
  if (auto* v = optional(j, "fire")) e.fire = fire_from_json(*v, join(path, "fire"));
  // "phase", "purpose", "winners", "victory" and "reason" repeat "value"/"dice" for readers; the
  // numbers are authoritative, so those keys are accepted and not read.
  return e;
}

// ---------------------------------------------------------------------------------------------
// Views: what one viewer may know. No generator, no tile bank, no unknown terrain.

json hex_view_to_json(const HexView& h) {
  json out = {{"hex", h.hex},
              {"q", h.coord.q},
              {"r", h.coord.r},
              {"label", h.label},
              {"perimeter", h.perimeter},
              {"known", h.known},
              {"city", h.city},
              {"built_this_turn", h.built_this_turn},
              {"battle_this_turn", h.battle_this_turn},
              {"placed_infantry", h.placed_infantry},
              {"placed_other", h.placed_other},
              {"began_turn_with_land_unit", h.began_turn_with_land_unit}};
  // The key is absent, not null, for a hex whose terrain the viewer does not know.
  if (h.known && h.terrain != Terrain::kNone) out["terrain"] = to_string(h.terrain);
  if (h.town_owner != kNoPlayer) out["town_owner"] = h.town_owner;
  if (h.capital_of != kNoPlayer) out["capital_of"] = h.capital_of;
  return out;
}

json unit_view_to_json(const UnitView& u) {
  return {{"id", u.id},
          {"owner", u.owner},
          {"type", to_string(u.type)},
          {"place", unit_place_name(u.place)},
          {"hex", u.hex},
          {"carrier", u.carrier},
          {"moves_left", u.moves_left},
          {"move_done", u.move_done},
          {"attacked", u.attacked},
          {"transported", u.transported},
          {"has_moved", u.has_moved},
          {"carried_this_turn", u.carried_this_turn},
          {"disembark_hex", u.disembark_hex}};
}

namespace {
json reserve_to_json(const std::array<int, kUnitTypes>& reserve) {
  json out = json::object();
  for (int i = 0; i < kUnitTypes; ++i) {
    out[std::string(to_string(static_cast<UnitType>(i)))] = reserve[static_cast<std::size_t>(i)];
  }
  return out;
}
}  // namespace

json player_view_to_json(const PlayerView& p) {
  return {{"index", p.index},
          {"eliminated", p.eliminated},
          {"conceded", p.conceded},
          {"capital_hex", p.capital_hex},
          {"holds_capital", p.holds_capital},
          {"doomsday_coin", p.doomsday_coin},
          {"victory_points", p.victory_points},
          {"reserve", reserve_to_json(p.reserve)},
          {"ruler", p.ruler},
          {"vassals", p.vassals},
          {"reorganization", reorganization_name(p.reorganization)}};
}

json view_to_json(const GameView& v) {
  json hexes = json::array();
  for (const HexView& h : v.hexes) hexes.push_back(hex_view_to_json(h));
  json units = json::array();
  for (const UnitView& u : v.units) units.push_back(unit_view_to_json(u));
  json players = json::array();
  for (const PlayerView& p : v.players) players.push_back(player_view_to_json(p));

  json out = {{"viewer", v.viewer},
              {"options", options_to_json(v.options)},
              {"radius", v.radius},
              {"turn", v.turn},
              {"current", v.current},
              {"first_player", v.first_player},
              {"phase", to_string(v.phase)},
              {"decider", v.decider},
              {"active_unit", v.active_unit},
              {"hexes", hexes},
              {"units", units},
              {"players", players},
              {"capital_choices", v.capital_choices},
              {"pending_battles", v.pending_battles},
              {"turn_order", v.turn_order},
              {"doomsday_started", v.doomsday_started},
              {"winners", v.winners},
              {"ended_by", to_string(v.ended_by)},
              {"action_count", v.action_count}};
  json entries = json::array();
  for (const BattleEntry& e : v.battle_entries) entries.push_back(entry_to_json(e));
  out["battle_entries"] = entries;
  out["placement_battles"] = v.placement_battles;
  out["ending_turn"] = v.ending_turn;
  if (v.battle) out["battle"] = battle_to_json(*v.battle);
  if (v.bombard) out["bombard"] = bombard_to_json(*v.bombard);
  if (v.elimination) out["elimination"] = elimination_to_json(*v.elimination);
  if (v.balance) out["exploration_choice"] = balance_to_json(*v.balance);
  if (v.relocation) out["relocation"] = relocation_to_json(*v.relocation);
  if (v.capital_return) out["capital_return"] = capital_return_to_json(*v.capital_return);
  return out;
}

// ---------------------------------------------------------------------------------------------
// The whole state (secret-bearing).

namespace {
// Version 2 added the optional rules [15.x]: seating, Rulers and Vassals, and the choices
// they open. Version 1 states (saved before) still load, with those at their defaults.
constexpr int kStateFormatVersion = 2;
constexpr int kOldestStateFormatVersion = 1;
constexpr int kMinRadius = Board::kMinRadius;
constexpr int kMaxRadius = Board::kMaxRadius;

int hex_count_for_radius(int radius) { return 3 * radius * (radius + 1) + 1; }

json hex_cell_to_json(const HexCell& h) {
  json out = {{"revealed", h.revealed},
              {"known_by", h.known_by},
              {"town_owner", h.town_owner},
              {"city", h.city},
              {"capital_of", h.capital_of},
              {"built_this_turn", h.built_this_turn},
              {"battle_this_turn", h.battle_this_turn},
              {"placed_infantry", h.placed_infantry},
              {"placed_other", h.placed_other},
              {"began_turn_with_land_unit", h.began_turn_with_land_unit}};
  if (h.terrain != Terrain::kNone) out["terrain"] = to_string(h.terrain);
  return out;
}

std::uint8_t byte_from(const json& j, const std::string& path) {
  return static_cast<std::uint8_t>(as_int(j, path, 0, 255));
}

HexCell hex_cell_from_json(const json& j, const std::string& path, const RefReader& refs) {
  expect_object(j, path);
  reject_unknown_keys(
      j,
      {"terrain", "revealed", "known_by", "town_owner", "city", "capital_of", "built_this_turn",
       "battle_this_turn", "placed_infantry", "placed_other", "began_turn_with_land_unit"},
      path);
  HexCell h;
  // Terrain may be a face-down tile: never echo it in an error.
  if (auto* v = optional(j, "terrain")) h.terrain = terrain_from(*v, join(path, "terrain"), true);
  h.revealed = as_bool(require(j, "revealed", path), join(path, "revealed"));
  h.known_by = byte_from(require(j, "known_by", path), join(path, "known_by"));
  h.town_owner = refs.player(require(j, "town_owner", path), join(path, "town_owner"), true);
  h.city = as_bool(require(j, "city", path), join(path, "city"));
  h.capital_of = refs.player(require(j, "capital_of", path), join(path, "capital_of"), true);
  h.built_this_turn = as_bool(require(j, "built_this_turn", path), join(path, "built_this_turn"));
  h.battle_this_turn =
      as_bool(require(j, "battle_this_turn", path), join(path, "battle_this_turn"));
  h.placed_infantry = byte_from(require(j, "placed_infantry", path), join(path, "placed_infantry"));
  h.placed_other = byte_from(require(j, "placed_other", path), join(path, "placed_other"));
  h.began_turn_with_land_unit = byte_from(require(j, "began_turn_with_land_unit", path),
                                          join(path, "began_turn_with_land_unit"));
  return h;
}

json unit_to_json(const Unit& u) {
  return {{"id", u.id},
          {"owner", u.owner},
          {"type", to_string(u.type)},
          {"place", unit_place_name(u.place)},
          {"hex", u.hex},
          {"carrier", u.carrier},
          {"moves_left", u.moves_left},
          {"has_moved", u.has_moved},
          {"move_done", u.move_done},
          {"attacked", u.attacked},
          {"transported", u.transported},
          {"carried_this_turn", u.carried_this_turn},
          {"disembark_hex", u.disembark_hex}};
}

Unit unit_from_json(const json& j, const std::string& path, const RefReader& refs) {
  expect_object(j, path);
  reject_unknown_keys(
      j,
      {"id", "owner", "type", "place", "hex", "carrier", "moves_left", "has_moved", "move_done",
       "attacked", "transported", "carried_this_turn", "disembark_hex"},
      path);
  Unit u;
  u.id = refs.unit(require(j, "id", path), join(path, "id"), false);
  u.owner = refs.player(require(j, "owner", path), join(path, "owner"), false);
  u.type = unit_type_from(require(j, "type", path), join(path, "type"));
  u.place = unit_place_from(require(j, "place", path), join(path, "place"));
  u.hex = refs.hex(require(j, "hex", path), join(path, "hex"), true);
  u.carrier = refs.unit(require(j, "carrier", path), join(path, "carrier"), true);
  u.moves_left =
      static_cast<int>(as_int(require(j, "moves_left", path), join(path, "moves_left"), 0, 1000));
  u.has_moved = as_bool(require(j, "has_moved", path), join(path, "has_moved"));
  u.move_done = as_bool(require(j, "move_done", path), join(path, "move_done"));
  u.attacked = as_bool(require(j, "attacked", path), join(path, "attacked"));
  u.transported = as_bool(require(j, "transported", path), join(path, "transported"));
  u.carried_this_turn = static_cast<int>(
      as_int(require(j, "carried_this_turn", path), join(path, "carried_this_turn"), 0, 1000));
  u.disembark_hex = refs.hex(require(j, "disembark_hex", path), join(path, "disembark_hex"), true);
  return u;
}

json player_state_to_json(const PlayerState& p) {
  return {{"eliminated", p.eliminated},
          {"conceded", p.conceded},
          {"capital_hex", p.capital_hex},
          {"held_capital_at_turn_start", p.held_capital_at_turn_start},
          {"doomsday_coin", p.doomsday_coin},
          {"ruler", p.ruler},
          {"reorganization", reorganization_name(p.reorganization)}};
}

PlayerState player_state_from_json(const json& j, const std::string& path, const RefReader& refs,
                                   int version) {
  expect_object(j, path);
  reject_unknown_keys(j,
                      {"eliminated", "conceded", "capital_hex", "held_capital_at_turn_start",
                       "doomsday_coin", "ruler", "reorganization"},
                      path);
  PlayerState p;
  if (version >= 2) {
    p.ruler = refs.player(require(j, "ruler", path), join(path, "ruler"), true);
    p.reorganization =
        reorganization_from(require(j, "reorganization", path), join(path, "reorganization"));
  } else if (j.contains("ruler") || j.contains("reorganization")) {
    fail(path, "\"ruler\" and \"reorganization\" belong to version 2 states");
  }
  p.eliminated = as_bool(require(j, "eliminated", path), join(path, "eliminated"));
  p.conceded = as_bool(require(j, "conceded", path), join(path, "conceded"));
  p.capital_hex = refs.hex(require(j, "capital_hex", path), join(path, "capital_hex"), true);
  p.held_capital_at_turn_start = as_bool(require(j, "held_capital_at_turn_start", path),
                                         join(path, "held_capital_at_turn_start"));
  p.doomsday_coin = as_bool(require(j, "doomsday_coin", path), join(path, "doomsday_coin"));
  return p;
}
}  // namespace

json state_to_json(const GameState& s) {
  json hexes = json::array();
  for (const HexCell& h : s.hexes) hexes.push_back(hex_cell_to_json(h));
  json units = json::array();
  for (const Unit& u : s.units) units.push_back(unit_to_json(u));
  json players = json::array();
  for (const PlayerState& p : s.players) players.push_back(player_state_to_json(p));
  json rng = json::array();
  for (std::uint64_t word : s.rng.words()) rng.push_back(u64_to_hex(word));
  json entries = json::array();
  for (const BattleEntry& e : s.entries) entries.push_back(entry_to_json(e));
  json winners = s.winners;

  return {{"format", "viktory-state"},
          {"version", kStateFormatVersion},
          {"options", options_to_json(s.options)},
          {"radius", s.radius},
          {"hexes", hexes},
          {"units", units},
          {"players", players},
          {"tile_bank", tile_bank_to_json(s.tile_bank)},
          {"rng", rng},
          {"scripted_dice", s.scripted_dice},
          {"turn", s.turn},
          {"first_player", s.first_player},
          {"current", s.current},
          {"phase", to_string(s.phase)},
          {"capital_choices", s.capital_choices},
          {"active_unit", s.active_unit},
          {"entries", entries},
          {"battle", s.battle ? battle_to_json(*s.battle) : json(nullptr)},
          {"bombard", s.bombard ? bombard_to_json(*s.bombard) : json(nullptr)},
          {"elimination", s.elimination ? elimination_to_json(*s.elimination) : json(nullptr)},
          {"placement_battles", s.placement_battles},
          {"ending_turn", s.ending_turn},
          {"turn_order", s.turn_order},
          {"balance", s.balance ? balance_to_json(*s.balance) : json(nullptr)},
          {"relocation", s.relocation ? relocation_to_json(*s.relocation) : json(nullptr)},
          {"capital_return",
           s.capital_return ? capital_return_to_json(*s.capital_return) : json(nullptr)},
          {"doomsday_started", s.doomsday_started},
          {"capital_loser", s.capital_loser},
          {"winners", winners},
          {"ended_by", to_string(s.ended_by)},
          {"action_count", s.action_count}};
}

GameState state_from_json(const json& j) {
  const std::string path = "state";
  expect_object(j, path);
  reject_unknown_keys(j, {"format",        "version",        "options",
                          "radius",        "hexes",          "units",
                          "players",       "tile_bank",      "rng",
                          "scripted_dice", "turn",           "first_player",
                          "current",       "phase",          "capital_choices",
                          "active_unit",   "entries",        "battle",
                          "bombard",       "elimination",    "placement_battles",
                          "ending_turn",   "turn_order",     "balance",
                          "relocation",    "capital_return", "doomsday_started",
                          "capital_loser", "winners",        "ended_by",
                          "action_count"},
                      path);
  if (as_string(require(j, "format", path), join(path, "format")) != "viktory-state") {
    fail(join(path, "format"), "expected \"viktory-state\"");
  }
  const int version = static_cast<int>(as_int(require(j, "version", path), join(path, "version"),
                                              kOldestStateFormatVersion, kStateFormatVersion));
  if (version < 2) {
    for (const char* key : {"turn_order", "balance", "relocation", "capital_return"}) {
      if (j.contains(key)) fail(join(path, key), "belongs to version 2 states");
    }
  }

  GameState s;
  s.options = options_from_json_at(require(j, "options", path), join(path, "options"));
  reject_unknown_option_keys(require(j, "options", path), join(path, "options"));
  s.radius = static_cast<int>(
      as_int(require(j, "radius", path), join(path, "radius"), kMinRadius, kMaxRadius));

  const json& hexes = require(j, "hexes", path);
  const json& units = require(j, "units", path);
  const json& players = require(j, "players", path);
  expect_array(hexes, join(path, "hexes"));
  expect_array(units, join(path, "units"));
  expect_array(players, join(path, "players"));
  const int hex_count = hex_count_for_radius(s.radius);
  if (static_cast<int>(hexes.size()) != hex_count) {
    fail(join(path, "hexes"), "a board of radius " + std::to_string(s.radius) + " has " +
                                  std::to_string(hex_count) + " hexes, got " +
                                  std::to_string(hexes.size()));
  }
  if (static_cast<int>(players.size()) != s.options.players) {
    fail(join(path, "players"), "expected one entry per player (" +
                                    std::to_string(s.options.players) + "), got " +
                                    std::to_string(players.size()));
  }

  RefReader refs;
  refs.hex_count = hex_count;
  refs.unit_count = static_cast<int>(units.size());
  refs.players = s.options.players;

  for (std::size_t i = 0; i < hexes.size(); ++i) {
    s.hexes.push_back(hex_cell_from_json(hexes[i], join(join(path, "hexes"), i), refs));
  }
  for (std::size_t i = 0; i < units.size(); ++i) {
    const std::string unit_path = join(join(path, "units"), i);
    Unit u = unit_from_json(units[i], unit_path, refs);
    if (u.id != static_cast<int>(i)) fail(join(unit_path, "id"), "must equal the unit's index");
    s.units.push_back(u);
  }
  for (std::size_t i = 0; i < players.size(); ++i) {
    s.players.push_back(
        player_state_from_json(players[i], join(join(path, "players"), i), refs, version));
  }
  s.tile_bank = tile_bank_from_json(require(j, "tile_bank", path), join(path, "tile_bank"));

  const json& rng = require(j, "rng", path);
  expect_array(rng, join(path, "rng"));
  if (rng.size() != 4) fail(join(path, "rng"), "expected 4 generator words");
  std::array<std::uint64_t, 4> words{};
  for (std::size_t i = 0; i < 4; ++i) words[i] = as_u64_string(rng[i], join(join(path, "rng"), i));
  if (words == std::array<std::uint64_t, 4>{}) {
    fail(join(path, "rng"), "the generator state may not be all zero");
  }
  s.rng = Rng::from_words(words);
  s.scripted_dice = dice_from_json(require(j, "scripted_dice", path), join(path, "scripted_dice"));

  s.turn = static_cast<int>(as_int(require(j, "turn", path), join(path, "turn"), 0, 100'000'000));
  s.first_player = refs.player(require(j, "first_player", path), join(path, "first_player"), false);
  s.current = refs.player(require(j, "current", path), join(path, "current"), false);
  s.phase = phase_from(require(j, "phase", path), join(path, "phase"));
  s.capital_choices =
      hex_list_from(require(j, "capital_choices", path), join(path, "capital_choices"), refs);
  s.active_unit = refs.unit(require(j, "active_unit", path), join(path, "active_unit"), true);

  const json& entries = require(j, "entries", path);
  expect_array(entries, join(path, "entries"));
  for (std::size_t i = 0; i < entries.size(); ++i) {
    s.entries.push_back(entry_from_json(entries[i], join(join(path, "entries"), i), refs));
  }
  if (const json& b = require(j, "battle", path); !b.is_null()) {
    s.battle = battle_from_json(b, join(path, "battle"), refs);
  }
  if (const json& b = require(j, "bombard", path); !b.is_null()) {
    s.bombard = bombard_from_json(b, join(path, "bombard"), refs);
  }
  if (const json& e = require(j, "elimination", path); !e.is_null()) {
    s.elimination = elimination_from_json(e, join(path, "elimination"), refs);
  }
  s.placement_battles =
      hex_list_from(require(j, "placement_battles", path), join(path, "placement_battles"), refs);
  s.ending_turn = as_bool(require(j, "ending_turn", path), join(path, "ending_turn"));
  if (version >= 2) {
    s.turn_order = turn_order_from_json(require(j, "turn_order", path), join(path, "turn_order"),
                                        s.options.players);
    if (const json& b = require(j, "balance", path); !b.is_null()) {
      s.balance = balance_from_json(b, join(path, "balance"), refs);
    }
    if (const json& r = require(j, "relocation", path); !r.is_null()) {
      s.relocation = relocation_from_json(r, join(path, "relocation"), refs);
    }
    if (const json& r = require(j, "capital_return", path); !r.is_null()) {
      s.capital_return = capital_return_from_json(r, join(path, "capital_return"), refs);
    }
  } else {
    for (int p = 0; p < s.options.players; ++p) s.turn_order.push_back(p);  // seat order
  }
  s.doomsday_started =
      as_bool(require(j, "doomsday_started", path), join(path, "doomsday_started"));
  s.capital_loser =
      refs.player(require(j, "capital_loser", path), join(path, "capital_loser"), true);
  const json& winners = require(j, "winners", path);
  expect_array(winners, join(path, "winners"));
  for (std::size_t i = 0; i < winners.size(); ++i) {
    s.winners.push_back(refs.player(winners[i], join(join(path, "winners"), i), false));
  }
  s.ended_by = victory_from(require(j, "ended_by", path), join(path, "ended_by"));
  s.action_count = static_cast<int>(
      as_int(require(j, "action_count", path), join(path, "action_count"), 0, 1'000'000'000));
  if (auto problem = state_problem(s)) fail(path, "the state " + *problem);
  return s;
}

}  // namespace viktory::protocol
