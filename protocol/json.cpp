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
  reject_unknown_keys(
      j,
      {"players", "victory", "tile_mix", "independent_exploration", "terrain_leveling",
       "no_exploration", "exploration_balancing", "luck_averaging", "town_relocation",
       "subjugation", "fog_of_war", "fog_city_sight"},
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
  // Fog of war (engine/sight.h): written only when on, so that other games' JSON stays as it was.
  if (auto* v = optional(j, "fog_of_war")) o.fog_of_war = as_bool(*v, join(path, "fog_of_war"));
  if (auto* v = optional(j, "fog_city_sight")) {
    o.fog_city_sight = static_cast<int>(
        as_int(*v, join(path, "fog_city_sight"), kMinFogCitySight, kMaxFogCitySight));
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
  if (o.fog_of_war) {  // absent when off: games without fog keep their JSON
    out["fog_of_war"] = true;
    out["fog_city_sight"] = o.fog_city_sight;
  }
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

ActionFields detail::action_fields(ActionKind kind) {
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

namespace {

ActionFields fields_of(ActionKind kind) { return action_fields(kind); }

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

}  // namespace viktory::protocol
