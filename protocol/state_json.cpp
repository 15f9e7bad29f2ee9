// The whole state as JSON (secret-bearing): snapshots on the server and scenarios only. See
// protocol/json.h.
#include "game.h"
#include "json.h"
#include "json_detail.h"
#include "state_check.h"

namespace viktory::protocol {

using namespace detail;

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
  json out{{"eliminated", p.eliminated},
           {"conceded", p.conceded},
           {"capital_hex", p.capital_hex},
           {"held_capital_at_turn_start", p.held_capital_at_turn_start},
           {"doomsday_coin", p.doomsday_coin},
           {"ruler", p.ruler},
           {"reorganization", reorganization_name(p.reorganization)}};
  // Only once he has rolled, so that states written before the field existed read the same.
  if (p.doomsday_roll != 0) out["doomsday_roll"] = p.doomsday_roll;
  return out;
}

PlayerState player_state_from_json(const json& j, const std::string& path, const RefReader& refs,
                                   int version) {
  expect_object(j, path);
  reject_unknown_keys(j,
                      {"eliminated", "conceded", "capital_hex", "held_capital_at_turn_start",
                       "doomsday_coin", "doomsday_roll", "ruler", "reorganization"},
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
  if (const auto it = j.find("doomsday_roll"); it != j.end()) {  // absent: not rolled yet
    p.doomsday_roll = static_cast<int>(as_int(*it, join(path, "doomsday_roll"), 1, 6));
  }
  return p;
}
// Fog of war: each player's memory of units last seen (engine/sight.h), one list per player;
// a unit count list in the UnitType order (infantry, cavalry, artillery, frigate).
json last_seen_to_json(const std::vector<std::vector<LastSeen>>& memory) {
  json out = json::array();
  for (const auto& entries : memory) {
    json list = json::array();
    for (const LastSeen& e : entries) {
      list.push_back({{"hex", e.hex}, {"owner", e.owner}, {"turn", e.turn}, {"units", e.units}});
    }
    out.push_back(list);
  }
  return out;
}

std::vector<std::vector<LastSeen>> last_seen_from_json(const json& j, const std::string& path,
                                                       const RefReader& refs) {
  expect_array(j, path);
  if (static_cast<int>(j.size()) != refs.players) {
    fail(path, "expected one list per player (" + std::to_string(refs.players) + ")");
  }
  std::vector<std::vector<LastSeen>> out;
  for (std::size_t p = 0; p < j.size(); ++p) {
    const std::string list_path = join(path, p);
    expect_array(j[p], list_path);
    std::vector<LastSeen> entries;
    for (std::size_t i = 0; i < j[p].size(); ++i) {
      const json& e = j[p][i];
      const std::string at = join(list_path, i);
      expect_object(e, at);
      reject_unknown_keys(e, {"hex", "owner", "turn", "units"}, at);
      LastSeen entry;
      entry.hex = refs.hex(require(e, "hex", at), join(at, "hex"), false);
      entry.owner = refs.player(require(e, "owner", at), join(at, "owner"), false);
      entry.turn =
          static_cast<int>(as_int(require(e, "turn", at), join(at, "turn"), 0, 100'000'000));
      const json& units = require(e, "units", at);
      expect_array(units, join(at, "units"));
      if (units.size() != kUnitTypes) fail(join(at, "units"), "expected one count per unit type");
      for (std::size_t t = 0; t < units.size(); ++t) {
        entry.units[t] = static_cast<int>(as_int(units[t], join(join(at, "units"), t), 0, 1000));
      }
      if (entry.owner == static_cast<int>(p)) fail(join(at, "owner"), "a player's own units");
      if (!entries.empty() && std::pair(entries.back().hex, entries.back().owner) >=
                                  std::pair(entry.hex, entry.owner)) {
        fail(at, "entries must be sorted by hex then owner, each once");
      }
      entries.push_back(entry);
    }
    out.push_back(std::move(entries));
  }
  return out;
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

  json out = {{"format", "viktory-state"},
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
  // Fog of war only, so that other games' snapshots stay as they were.
  if (s.options.fog_of_war) out["last_seen"] = last_seen_to_json(s.last_seen);
  // Random scheme 2 (engine/rng.h): the seed and the three streams' counters instead of the
  // single stream's words; scheme 1 states keep exactly their former JSON.
  if (s.random_scheme == RandomScheme::kStreams) {
    out.erase("rng");
    json drawn = json::array();
    for (std::uint64_t n : s.streams.drawn) drawn.push_back(n);
    out["streams"] = {{"seed", u64_to_hex(s.streams.seed)}, {"drawn", drawn}};
  }
  return out;
}

GameState state_from_json(const json& j) {
  const std::string path = "state";
  expect_object(j, path);
  reject_unknown_keys(j,
                      {"format",
                       "version",
                       "options",
                       "radius",
                       "hexes",
                       "units",
                       "players",
                       "tile_bank",
                       "rng",
                       "streams",
                       "scripted_dice",
                       "turn",
                       "first_player",
                       "current",
                       "phase",
                       "capital_choices",
                       "active_unit",
                       "entries",
                       "battle",
                       "bombard",
                       "elimination",
                       "placement_battles",
                       "ending_turn",
                       "turn_order",
                       "balance",
                       "relocation",
                       "capital_return",
                       "doomsday_started",
                       "capital_loser",
                       "winners",
                       "ended_by",
                       "action_count",
                       "last_seen"},
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

  if (const json* streams = optional(j, "streams")) {
    // Random scheme 2: the seed and the counters of the setup, tiles and dice streams.
    const std::string spath = join(path, "streams");
    if (optional(j, "rng")) fail(path, "either \"rng\" (scheme 1) or \"streams\" (scheme 2)");
    expect_object(*streams, spath);
    reject_unknown_keys(*streams, {"seed", "drawn"}, spath);
    s.random_scheme = RandomScheme::kStreams;
    s.streams.seed = as_u64_string(require(*streams, "seed", spath), join(spath, "seed"));
    const json& drawn = require(*streams, "drawn", spath);
    expect_array(drawn, join(spath, "drawn"));
    if (drawn.size() != kRandomStreams) fail(join(spath, "drawn"), "expected 3 counters");
    for (std::size_t i = 0; i < drawn.size(); ++i) {
      s.streams.drawn[i] = static_cast<std::uint64_t>(
          as_int(drawn[i], join(join(spath, "drawn"), i), 0, std::int64_t{1} << 53));
    }
  } else {
    const json& rng = require(j, "rng", path);
    expect_array(rng, join(path, "rng"));
    if (rng.size() != 4) fail(join(path, "rng"), "expected 4 generator words");
    std::array<std::uint64_t, 4> words{};
    for (std::size_t i = 0; i < 4; ++i) {
      words[i] = as_u64_string(rng[i], join(join(path, "rng"), i));
    }
    if (words == std::array<std::uint64_t, 4>{}) {
      fail(join(path, "rng"), "the generator state may not be all zero");
    }
    s.rng = Rng::from_words(words);
  }
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
  if (const json* memory = optional(j, "last_seen")) {
    if (!s.options.fog_of_war) fail(join(path, "last_seen"), "belongs to fog of war games");
    s.last_seen = last_seen_from_json(*memory, join(path, "last_seen"), refs);
  } else if (s.options.fog_of_war) {
    s.last_seen.assign(static_cast<std::size_t>(s.options.players), {});
  }
  if (auto problem = state_problem(s)) fail(path, "the state " + *problem);
  return s;
}

}  // namespace viktory::protocol
