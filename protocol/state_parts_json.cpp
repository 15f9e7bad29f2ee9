// JSON forms of the state's sub-objects that views share (Battle, pending choices, entries)
// and the tile bank: see protocol/json_detail.h.
#include <algorithm>

#include "json_detail.h"

namespace viktory::protocol::detail {

namespace {
json int_list(const std::vector<int>& values) { return json(values); }
}  // namespace

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

}  // namespace viktory::protocol::detail
