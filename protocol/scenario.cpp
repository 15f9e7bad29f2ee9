// The scenario reader: hand-written positions -> GameState. See docs/scenario-format.md.
#include "scenario.h"

#include <algorithm>
#include <cctype>
#include <numeric>
#include <set>
#include <sstream>
#include <vector>

#include "game.h"
#include "json_detail.h"
#include "sight.h"
#include "state_check.h"

namespace viktory::protocol {

using namespace detail;

int movement_allowance(UnitType type) {
  switch (type) {
    case UnitType::kInfantry:
      return 2;  // [9.11]
    case UnitType::kCavalry:
      return 3;  // [9.11]
    case UnitType::kArtillery:
      return 2;  // [9.11]
    case UnitType::kFrigate:
      return 5;  // [9.31]
  }
  return 0;
}

namespace {

constexpr std::uint64_t kDefaultSeed = 1;

bool all_digits(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::uint64_t seed_from(const json& j, const std::string& path) {
  if (j.is_string()) return as_u64_string(j, path);
  if (j.is_number_unsigned()) return j.get<std::uint64_t>();
  return static_cast<std::uint64_t>(as_int(j, path, 0, std::numeric_limits<std::int64_t>::max()));
}

// A hex written as an index or a label such as "D4" (Board::label).
int hex_from_text(const Board& board, const std::string& text, const std::string& path) {
  if (all_digits(text)) {
    if (text.size() <= 6) {
      const int index = std::stoi(text);
      if (index < board.size()) return index;
    }
    fail(path, "hex index out of range [0, " + std::to_string(board.size() - 1) + "]");
  }
  const int hex = board.from_label(text);
  if (hex == Board::kNoHex) fail(path, "unknown hex label " + echo(json(text)));
  return hex;
}

RefReader refs_for(const Board& board, int players, int unit_count,
                   const std::map<std::string, int>* names) {
  RefReader refs;
  refs.hex_count = board.size();
  refs.unit_count = unit_count;
  refs.players = players;
  refs.hex_label = [&board](const std::string& label, const std::string& path) {
    return hex_from_text(board, label, path);
  };
  if (names) {
    refs.unit_name = [names](const std::string& name, const std::string& path) {
      const auto it = names->find(name);
      if (it == names->end()) fail(path, "no unit is named " + echo(json(name)));
      return it->second;
    };
  }
  return refs;
}

// Who knows a face-up tile: every player. Without independent exploration the engine marks
// everyone_mask's bits (engine/state.h), so a scenario does the same.
std::uint8_t everyone_mask(const Options& options) {
  if (!options.independent_exploration) return viktory::everyone_mask(options.players);
  return static_cast<std::uint8_t>((1u << options.players) - 1);
}

std::uint8_t player_mask_from(const json& j, const std::string& path, int players) {
  expect_array(j, path);
  unsigned mask = 0;
  for (std::size_t i = 0; i < j.size(); ++i) {
    mask |= 1u << as_int(j[i], join(path, i), 0, players - 1);
  }
  return static_cast<std::uint8_t>(mask);
}

// The complete tile bank of a fresh game with these options: what is still in the bank after
// new_game plus whatever new_game already laid on the interior.
std::array<int, kTerrainKinds> full_tile_bank(const GameState& fresh) {
  std::array<int, kTerrainKinds> bank = fresh.tile_bank;
  const Board& board = fresh.board();
  for (int hex = 0; hex < board.size(); ++hex) {
    const Terrain t = fresh.hexes[static_cast<std::size_t>(hex)].terrain;
    if (!board.is_perimeter(hex) && t != Terrain::kNone) {
      ++bank[static_cast<std::size_t>(static_cast<int>(t) - 1)];
    }
  }
  return bank;
}

std::size_t bank_index(Terrain t) { return static_cast<std::size_t>(static_cast<int>(t) - 1); }

struct UnitSpec {
  Unit unit;
  std::string name;
  const json* carrier = nullptr;  // resolved once every unit has its id
  std::string carrier_path;
  bool moves_given = false;  // else: as the engine sets them at the start of a turn
  bool carried_given = false;
};

// "<owner> <type> <hex>" or "<owner> <type> reserve", optionally followed by "x<count>".
std::vector<UnitSpec> units_from_text(const std::string& text, const std::string& path,
                                      const Board& board, int players) {
  std::istringstream words(text);
  std::vector<std::string> parts;
  for (std::string w; words >> w;) parts.push_back(w);
  int count = 1;
  if (parts.size() == 4 && parts[3].size() > 1 && parts[3].size() <= 4 && parts[3][0] == 'x' &&
      all_digits(parts[3].substr(1))) {
    count = static_cast<int>(as_int(json(std::stoll(parts[3].substr(1))), path, 1, 100));
    parts.pop_back();
  }
  if (parts.size() != 3) {
    fail(path, "expected \"<owner> <type> <hex>|reserve [x<count>]\", got " + echo(json(text)));
  }
  if (!all_digits(parts[0]) || parts[0].size() > 2) fail(path, "owner must be a player index");
  UnitSpec spec;
  spec.unit.owner = static_cast<int>(as_int(json(std::stoi(parts[0])), path, 0, players - 1));
  spec.unit.type = unit_type_from(json(parts[1]), path);
  if (parts[2] == "reserve") {
    spec.unit.place = UnitPlace::kReserve;
  } else {
    spec.unit.place = UnitPlace::kMap;
    spec.unit.hex = hex_from_text(board, parts[2], path);
  }
  return std::vector<UnitSpec>(static_cast<std::size_t>(count), spec);
}

std::vector<UnitSpec> units_from_object(const json& j, const std::string& path,
                                        const RefReader& refs) {
  reject_unknown_keys(
      j,
      {"owner", "type", "hex", "place", "carrier", "name", "count", "moves_left", "has_moved",
       "move_done", "attacked", "transported", "carried_this_turn", "disembark_hex"},
      path);
  UnitSpec spec;
  Unit& u = spec.unit;
  u.owner = refs.player(require(j, "owner", path), join(path, "owner"), false);
  u.type = unit_type_from(require(j, "type", path), join(path, "type"));
  const json* hex = optional(j, "hex");
  spec.carrier = optional(j, "carrier");
  spec.carrier_path = join(path, "carrier");
  if (hex && spec.carrier) {
    fail(join(path, "hex"), "cargo takes its Frigate's hex; give one of hex, carrier");
  }
  u.place = (hex || spec.carrier) ? UnitPlace::kMap : UnitPlace::kReserve;
  if (auto* v = optional(j, "place")) {
    u.place = unit_place_from(*v, join(path, "place"));
    if (u.place == UnitPlace::kMap && !hex && !spec.carrier) {
      fail(join(path, "hex"), "a unit on the map needs a hex or a carrier");
    }
    if (u.place != UnitPlace::kMap && (hex || spec.carrier)) {
      fail(join(path, "place"), "a unit off the map has no hex or carrier");
    }
  }
  if (hex) u.hex = refs.hex(*hex, join(path, "hex"), false);
  if (auto* v = optional(j, "name")) {
    spec.name = as_string(*v, join(path, "name"));
    if (spec.name.empty() || all_digits(spec.name)) {
      fail(join(path, "name"), "a unit name must not be empty or a number");
    }
  }
  if (auto* v = optional(j, "moves_left")) {
    u.moves_left = static_cast<int>(as_int(*v, join(path, "moves_left"), 0, 1000));
    spec.moves_given = true;
  }
  auto flag = [&](const char* key, bool& field) {
    if (auto* v = optional(j, key)) field = as_bool(*v, join(path, key));
  };
  flag("has_moved", u.has_moved);
  flag("move_done", u.move_done);
  flag("attacked", u.attacked);
  flag("transported", u.transported);
  if (auto* v = optional(j, "carried_this_turn")) {
    u.carried_this_turn = static_cast<int>(as_int(*v, join(path, "carried_this_turn"), 0, 1000));
    spec.carried_given = true;
  }
  if (auto* v = optional(j, "disembark_hex")) {
    u.disembark_hex = refs.hex(*v, join(path, "disembark_hex"), true);
  }
  int count = 1;
  if (auto* v = optional(j, "count")) {
    count = static_cast<int>(as_int(*v, join(path, "count"), 1, 100));
  }
  if (count > 1 && !spec.name.empty()) fail(join(path, "count"), "a named unit is a single unit");
  return std::vector<UnitSpec>(static_cast<std::size_t>(count), spec);
}

void read_hexes(const json& j, const std::string& path, const Board& board, int players,
                const RefReader& refs, GameState& s, std::vector<bool>& listed,
                std::vector<bool>& began_listed) {
  expect_object(j, path);
  const std::uint8_t everyone = everyone_mask(s.options);
  // Not a structured binding: the lambda below uses `spec`, and clang before 16 cannot
  // capture structured bindings (a C++20 feature).
  for (const auto& item : j.items()) {
    const std::string& key = item.key();
    const json& spec = item.value();
    const std::string hex_path = join(path, printable_key(key));
    const int hex = hex_from_text(board, key, hex_path);
    if (listed[static_cast<std::size_t>(hex)]) fail(hex_path, "this hex is listed twice");
    listed[static_cast<std::size_t>(hex)] = true;
    HexCell& cell = s.hexes[static_cast<std::size_t>(hex)];
    const bool perimeter = board.is_perimeter(hex);

    if (spec.is_string()) {  // shorthand: a face-up tile of this terrain
      cell.terrain = terrain_from(spec, hex_path, false);
      cell.revealed = true;
      cell.known_by = everyone;
    } else {
      expect_object(spec, hex_path);
      reject_unknown_keys(
          spec,
          {"terrain", "revealed", "known_by", "town", "city", "capital", "built_this_turn",
           "battle_this_turn", "placed_infantry", "placed_other", "began_turn_with_land_unit"},
          hex_path);
      if (auto* v = optional(spec, "terrain")) {
        cell.terrain = terrain_from(*v, join(hex_path, "terrain"), false);
        cell.revealed = true;
      }
      if (auto* v = optional(spec, "revealed")) {
        cell.revealed = as_bool(*v, join(hex_path, "revealed"));
      }
      if (cell.revealed && cell.terrain == Terrain::kNone) {
        fail(join(hex_path, "revealed"), "a revealed hex needs a terrain");
      }
      cell.known_by = cell.revealed ? everyone : 0;
      if (auto* v = optional(spec, "known_by")) {
        cell.known_by = player_mask_from(*v, join(hex_path, "known_by"), players);
        if (cell.known_by != 0 && cell.terrain == Terrain::kNone) {
          fail(join(hex_path, "known_by"), "a hex without a terrain cannot be known");
        }
      }
      if (auto* v = optional(spec, "town")) {
        cell.town_owner = refs.player(*v, join(hex_path, "town"), false);
        if (!is_land(cell.terrain) || !cell.revealed) {
          fail(join(hex_path, "town"), "a Town stands on a revealed land hex");
        }
      }
      if (auto* v = optional(spec, "city")) {
        cell.city = as_bool(*v, join(hex_path, "city"));
        if (cell.city && cell.town_owner == kNoPlayer) {
          fail(join(hex_path, "city"), "a City needs an owner: give \"town\": <player>");
        }
      }
      if (auto* v = optional(spec, "capital")) {
        cell.capital_of = refs.player(*v, join(hex_path, "capital"), false);
        if (cell.town_owner == kNoPlayer) {
          fail(join(hex_path, "capital"), "a Capital marker lies under a Town or City");
        }
        s.players[static_cast<std::size_t>(cell.capital_of)].capital_hex = hex;
      }
      auto flag = [&](const char* name, bool& field) {
        if (auto* v = optional(spec, name)) field = as_bool(*v, join(hex_path, name));
      };
      flag("built_this_turn", cell.built_this_turn);
      flag("battle_this_turn", cell.battle_this_turn);
      if (auto* v = optional(spec, "placed_infantry")) {
        cell.placed_infantry =
            static_cast<std::uint8_t>(as_int(*v, join(hex_path, "placed_infantry"), 0, 255));
      }
      if (auto* v = optional(spec, "placed_other")) {
        cell.placed_other =
            static_cast<std::uint8_t>(as_int(*v, join(hex_path, "placed_other"), 0, 255));
      }
      if (auto* v = optional(spec, "began_turn_with_land_unit")) {
        cell.began_turn_with_land_unit =
            player_mask_from(*v, join(hex_path, "began_turn_with_land_unit"), players);
        began_listed[static_cast<std::size_t>(hex)] = true;
      }
    }
    if (perimeter && (cell.terrain != Terrain::kWater || !cell.revealed)) {
      fail(hex_path, "the perimeter is face-up water [3.2]");
    }
  }
}

// Removes the scenario's own interior tiles from the bank so a reveal never draws more tiles
// of a terrain than the mix has. A terrain the scenario over-uses is paid for by the most
// plentiful others, and the bank is topped up with water if it could not cover every hex that
// is still without a tile.
std::array<int, kTerrainKinds> bank_after_laying(std::array<int, kTerrainKinds> bank,
                                                 const GameState& s) {
  const Board& board = s.board();
  int without_tile = 0;
  int deficit = 0;
  for (int hex = 0; hex < board.size(); ++hex) {
    if (board.is_perimeter(hex)) continue;
    const Terrain t = s.hexes[static_cast<std::size_t>(hex)].terrain;
    if (t == Terrain::kNone) {
      ++without_tile;
    } else if (bank[bank_index(t)] > 0) {
      --bank[bank_index(t)];
    } else {
      ++deficit;
    }
  }
  while (deficit > 0) {
    auto most = std::max_element(bank.begin(), bank.end());
    if (*most == 0) break;
    --*most;
    --deficit;
  }
  const int total = std::accumulate(bank.begin(), bank.end(), 0);
  if (total < without_tile) bank[bank_index(Terrain::kWater)] += without_tile - total;
  return bank;
}

GameState position_from_json(const json& j, std::optional<std::uint64_t> seed_override,
                             std::map<std::string, int>& names) {
  const std::string path = "scenario";
  reject_unknown_keys(
      j, {"description",       "options",          "seed",          "radius",  "turn",
          "first_player",      "current",          "phase",         "hexes",   "units",
          "reserves",          "players",          "tile_bank",     "dice",    "capital_choices",
          "active_unit",       "entries",          "battle",        "bombard", "elimination",
          "placement_battles", "doomsday_started", "capital_loser", "winners", "ended_by",
          "action_count",      "actions",          "turn_order",    "balance", "relocation",
          "capital_return"},
      path);
  GameState s;
  if (auto* v = optional(j, "options")) {
    reject_unknown_option_keys(*v, join(path, "options"));
    s.options = options_from_json_at(*v, join(path, "options"));
  }
  const int players = s.options.players;
  std::uint64_t seed = kDefaultSeed;
  if (auto* v = optional(j, "seed")) seed = seed_from(*v, join(path, "seed"));
  if (seed_override) seed = *seed_override;

  // A fresh game with the same options supplies the engine's conventions for the perimeter
  // and the full tile bank of the chosen mix.
  const GameState fresh = new_game(s.options, seed);
  s.radius = fresh.radius;
  if (auto* v = optional(j, "radius")) {
    s.radius =
        static_cast<int>(as_int(*v, join(path, "radius"), Board::kMinRadius, Board::kMaxRadius));
    if (s.options.board_hexes != 0 && s.radius != fresh.radius) {
      fail(join(path, "radius"), "the options choose a board of " +
                                     std::to_string(s.options.board_hexes) + " hexes (radius " +
                                     std::to_string(fresh.radius) + ")");
    }
  }
  const Board& board = Board::for_radius(s.radius);
  s.rng = Rng(seed);
  s.players.assign(static_cast<std::size_t>(players), PlayerState{});

  // Unlisted interior hexes: no tile yet, drawn from the bank when revealed. The perimeter is
  // face-up water known to everyone [3.2].
  s.hexes.assign(static_cast<std::size_t>(board.size()), HexCell{});
  HexCell perimeter_cell;
  perimeter_cell.terrain = Terrain::kWater;
  perimeter_cell.revealed = true;
  perimeter_cell.known_by = everyone_mask(s.options);
  for (int hex = 0; hex < fresh.board().size(); ++hex) {
    if (fresh.board().is_perimeter(hex)) {
      perimeter_cell = fresh.hexes[static_cast<std::size_t>(hex)];
      break;
    }
  }
  for (int hex = 0; hex < board.size(); ++hex) {
    if (board.is_perimeter(hex)) s.hexes[static_cast<std::size_t>(hex)] = perimeter_cell;
  }

  // Units first (so that hex specs may refer to nothing else), then hexes.
  std::vector<UnitSpec> specs;
  if (auto* v = optional(j, "units")) {
    expect_array(*v, join(path, "units"));
    const RefReader refs = refs_for(board, players, 0, nullptr);
    for (std::size_t i = 0; i < v->size(); ++i) {
      const json& entry = (*v)[i];
      const std::string unit_path = join(join(path, "units"), i);
      std::vector<UnitSpec> more;
      if (entry.is_string()) {
        more = units_from_text(entry.get<std::string>(), unit_path, board, players);
      } else {
        expect_object(entry, unit_path);
        more = units_from_object(entry, unit_path, refs);
      }
      specs.insert(specs.end(), more.begin(), more.end());
    }
  }
  if (auto* v = optional(j, "reserves")) {
    const std::string reserves_path = join(path, "reserves");
    expect_array(*v, reserves_path);
    if (static_cast<int>(v->size()) > players) fail(reserves_path, "more entries than players");
    for (std::size_t p = 0; p < v->size(); ++p) {
      const std::string player_path = join(reserves_path, p);
      expect_object((*v)[p], player_path);
      for (const auto& [type_name, count] : (*v)[p].items()) {
        UnitSpec spec;
        spec.unit.owner = static_cast<int>(p);
        spec.unit.type = unit_type_from(json(type_name), join(player_path, type_name));
        spec.unit.place = UnitPlace::kReserve;
        const auto n = as_int(count, join(player_path, type_name), 0, 100);
        for (std::int64_t k = 0; k < n; ++k) specs.push_back(spec);
      }
    }
  }
  for (std::size_t i = 0; i < specs.size(); ++i) {
    specs[i].unit.id = static_cast<int>(i);
    if (!specs[i].name.empty() && !names.emplace(specs[i].name, static_cast<int>(i)).second) {
      fail(join(path, "units"), "two units are named " + echo(json(specs[i].name)));
    }
  }
  const RefReader refs = refs_for(board, players, static_cast<int>(specs.size()), &names);
  for (UnitSpec& spec : specs) {
    if (!spec.carrier) continue;
    const int carrier = refs.unit(*spec.carrier, spec.carrier_path, false);
    const Unit& frigate = specs[static_cast<std::size_t>(carrier)].unit;
    if (frigate.type != UnitType::kFrigate || frigate.place != UnitPlace::kMap ||
        frigate.carrier != -1 || frigate.owner != spec.unit.owner ||
        !is_land_unit(spec.unit.type)) {
      fail(spec.carrier_path, "cargo is a land unit aboard its owner's Frigate on the map [9.4]");
    }
    spec.unit.carrier = carrier;
  }
  for (UnitSpec& spec : specs) {
    if (spec.unit.carrier != -1) {
      spec.unit.hex = specs[static_cast<std::size_t>(spec.unit.carrier)].unit.hex;
    }
  }

  std::vector<bool> listed(static_cast<std::size_t>(board.size()), false);
  std::vector<bool> began_listed(static_cast<std::size_t>(board.size()), false);
  if (auto* v = optional(j, "hexes")) {
    read_hexes(*v, join(path, "hexes"), board, players, refs, s, listed, began_listed);
  }

  if (auto* v = optional(j, "players")) {
    const std::string players_path = join(path, "players");
    expect_array(*v, players_path);
    if (static_cast<int>(v->size()) > players) fail(players_path, "more entries than players");
    for (std::size_t p = 0; p < v->size(); ++p) {
      const std::string player_path = join(players_path, p);
      const json& spec = (*v)[p];
      expect_object(spec, player_path);
      reject_unknown_keys(spec,
                          {"capital", "eliminated", "conceded", "doomsday_coin", "doomsday_roll",
                           "held_capital_at_turn_start", "ruler", "reorganization"},
                          player_path);
      PlayerState& ps = s.players[p];
      if (auto* c = optional(spec, "capital")) {
        const int hex = refs.hex(*c, join(player_path, "capital"), true);
        if (ps.capital_hex != -1 && ps.capital_hex != hex) {
          fail(join(player_path, "capital"), "disagrees with the hex marked \"capital\"");
        }
        ps.capital_hex = hex;
        if (hex != -1) s.hexes[static_cast<std::size_t>(hex)].capital_of = static_cast<int>(p);
      }
      if (auto* f = optional(spec, "eliminated")) {
        ps.eliminated = as_bool(*f, join(player_path, "eliminated"));
      }
      if (auto* f = optional(spec, "conceded")) {
        ps.conceded = as_bool(*f, join(player_path, "conceded"));
      }
      if (auto* f = optional(spec, "doomsday_coin")) {
        ps.doomsday_coin = as_bool(*f, join(player_path, "doomsday_coin"));
      }
      if (auto* f = optional(spec, "doomsday_roll")) {  // [5.5] his last roll
        ps.doomsday_roll = static_cast<int>(as_int(*f, join(player_path, "doomsday_roll"), 1, 6));
      }
      if (auto* f = optional(spec, "ruler")) {  // [15.61]
        ps.ruler = refs.player(*f, join(player_path, "ruler"), true);
      }
      if (auto* f = optional(spec, "reorganization")) {  // [15.63]
        ps.reorganization = reorganization_from(*f, join(player_path, "reorganization"));
      }
    }
  }
  // [7.1] by default a player held his Capital at the start of the turn if he holds it now.
  for (int p = 0; p < players; ++p) {
    PlayerState& ps = s.players[static_cast<std::size_t>(p)];
    ps.held_capital_at_turn_start =
        ps.capital_hex != -1 && s.hexes[static_cast<std::size_t>(ps.capital_hex)].town_owner == p;
  }
  if (auto* v = optional(j, "players")) {
    for (std::size_t p = 0; p < v->size(); ++p) {
      if (auto* f = optional((*v)[p], "held_capital_at_turn_start")) {
        s.players[p].held_capital_at_turn_start =
            as_bool(*f, join(join(join(path, "players"), p), "held_capital_at_turn_start"));
      }
    }
  }

  for (int p = 0; p < players; ++p) s.turn_order.push_back(p);  // seat order [4.0]
  if (auto* v = optional(j, "turn_order")) {
    s.turn_order = turn_order_from_json(*v, join(path, "turn_order"), players);
  }
  s.first_player = 0;
  if (auto* v = optional(j, "first_player")) {
    s.first_player = refs.player(*v, join(path, "first_player"), false);
  }
  s.current = s.first_player;
  if (auto* v = optional(j, "current")) s.current = refs.player(*v, join(path, "current"), false);
  s.phase = Phase::kBuild;
  if (auto* v = optional(j, "phase")) s.phase = phase_from(*v, join(path, "phase"));
  s.turn = s.phase == Phase::kSetup ? 0 : 1;
  if (auto* v = optional(j, "turn")) {
    s.turn = static_cast<int>(as_int(*v, join(path, "turn"), 0, 100'000'000));
  }

  // Per-turn unit fields default to what the engine sets at the start of the current
  // player's turn (engine/game.cpp, begin_turn): his units have their full Movement
  // Allowance, everyone else's none; a Frigate has already "carried" the cargo it starts with.
  for (const UnitSpec& spec : specs) {
    Unit u = spec.unit;
    if (!spec.moves_given) u.moves_left = u.owner == s.current ? movement_allowance(u.type) : 0;
    if (!spec.carried_given && u.type == UnitType::kFrigate) {
      u.carried_this_turn = static_cast<int>(std::count_if(
          specs.begin(), specs.end(), [&](const UnitSpec& c) { return c.unit.carrier == u.id; }));
    }
    s.units.push_back(u);
  }

  // [9.12 exception B] by default the current player's land units began the turn where they
  // stand now.
  for (const Unit& u : s.units) {
    if (u.owner == s.current && u.place == UnitPlace::kMap && u.carrier == -1 &&
        is_land_unit(u.type) && !began_listed[static_cast<std::size_t>(u.hex)]) {
      s.hexes[static_cast<std::size_t>(u.hex)].began_turn_with_land_unit |=
          static_cast<std::uint8_t>(1u << s.current);
    }
  }

  if (auto* v = optional(j, "tile_bank")) {
    s.tile_bank = tile_bank_from_json(*v, join(path, "tile_bank"));
  } else {
    s.tile_bank = bank_after_laying(full_tile_bank(fresh), s);
  }
  if (s.options.no_exploration) lay_map_face_up(s);  // [15.2] the unlisted tiles too
  if (auto* v = optional(j, "dice")) s.scripted_dice = dice_from_json(*v, join(path, "dice"));
  if (auto* v = optional(j, "capital_choices")) {
    expect_array(*v, join(path, "capital_choices"));
    for (std::size_t i = 0; i < v->size(); ++i) {
      s.capital_choices.push_back(refs.hex((*v)[i], join(join(path, "capital_choices"), i), false));
    }
  }
  if (auto* v = optional(j, "active_unit")) {
    s.active_unit = refs.unit(*v, join(path, "active_unit"), true);
  }
  if (auto* v = optional(j, "entries")) {
    expect_array(*v, join(path, "entries"));
    for (std::size_t i = 0; i < v->size(); ++i) {
      s.entries.push_back(entry_from_json((*v)[i], join(join(path, "entries"), i), refs));
    }
  }
  if (auto* v = optional(j, "battle")) s.battle = battle_from_json(*v, join(path, "battle"), refs);
  if (auto* v = optional(j, "bombard")) {
    s.bombard = bombard_from_json(*v, join(path, "bombard"), refs);
  }
  if (auto* v = optional(j, "elimination")) {
    s.elimination = elimination_from_json(*v, join(path, "elimination"), refs);
  }
  if (auto* v = optional(j, "placement_battles")) {
    expect_array(*v, join(path, "placement_battles"));
    for (std::size_t i = 0; i < v->size(); ++i) {
      s.placement_battles.push_back(
          refs.hex((*v)[i], join(join(path, "placement_battles"), i), false));
    }
  }
  if (auto* v = optional(j, "balance")) {
    s.balance = balance_from_json(*v, join(path, "balance"), refs);
  }
  if (auto* v = optional(j, "relocation")) {
    s.relocation = relocation_from_json(*v, join(path, "relocation"), refs);
  }
  if (auto* v = optional(j, "capital_return")) {
    s.capital_return = capital_return_from_json(*v, join(path, "capital_return"), refs);
  }
  if (auto* v = optional(j, "doomsday_started")) {
    s.doomsday_started = as_bool(*v, join(path, "doomsday_started"));
  }
  if (auto* v = optional(j, "capital_loser")) {
    s.capital_loser = refs.player(*v, join(path, "capital_loser"), true);
  }
  if (auto* v = optional(j, "winners")) {
    expect_array(*v, join(path, "winners"));
    for (std::size_t i = 0; i < v->size(); ++i) {
      s.winners.push_back(refs.player((*v)[i], join(join(path, "winners"), i), false));
    }
  }
  if (auto* v = optional(j, "ended_by")) s.ended_by = victory_from(*v, join(path, "ended_by"));
  if (auto* v = optional(j, "action_count")) {
    s.action_count = static_cast<int>(as_int(*v, join(path, "action_count"), 0, 1'000'000'000));
  }
  // Fog of war: one memory per player, of what he sees in the position as laid (as after an
  // action); without it a fog position stored before its first action could not be read back.
  update_last_seen(s);
  return s;
}

GameState new_game_from_json(const json& j, std::optional<std::uint64_t> seed_override) {
  const std::string path = "scenario";
  reject_unknown_keys(j, {"description", "from_new_game", "dice", "actions"}, path);
  const std::string game_path = join(path, "from_new_game");
  const json& game = require(j, "from_new_game", path);
  expect_object(game, game_path);
  reject_unknown_keys(game, {"options", "seed"}, game_path);
  Options options;
  if (auto* v = optional(game, "options")) {
    reject_unknown_option_keys(*v, join(game_path, "options"));
    options = options_from_json_at(*v, join(game_path, "options"));
  }
  std::uint64_t seed = kDefaultSeed;
  if (auto* v = optional(game, "seed")) seed = seed_from(*v, join(game_path, "seed"));
  if (seed_override) seed = *seed_override;
  GameState s = new_game(options, seed);
  if (auto* v = optional(j, "dice")) s.scripted_dice = dice_from_json(*v, join(path, "dice"));
  return s;
}

GameState saved_state_from_json(const json& j) {
  const std::string path = "scenario";
  reject_unknown_keys(j, {"description", "state", "dice", "actions"}, path);
  GameState s = state_from_json(require(j, "state", path));
  if (auto* v = optional(j, "dice")) s.scripted_dice = dice_from_json(*v, join(path, "dice"));
  return s;
}

}  // namespace

Scenario scenario_from_json(const json& j, std::optional<std::uint64_t> seed) {
  expect_object(j, "scenario");
  Scenario scenario;
  if (j.contains("from_new_game")) {
    scenario.state = new_game_from_json(j, seed);
  } else if (j.contains("state")) {
    scenario.state = saved_state_from_json(j);
  } else {
    scenario.state = position_from_json(j, seed, scenario.unit_names);
  }
  if (auto* v = optional(j, "actions")) {
    expect_array(*v, "scenario.actions");
    scenario.actions = *v;
  }
  if (auto problem = state_problem(scenario.state)) {
    fail("scenario", "the position " + *problem);
  }
  return scenario;
}

Action scenario_action(const json& j, const GameState& state,
                       const std::map<std::string, int>& unit_names) {
  const std::string path = "action";
  json resolved = j.is_string() ? json{{"kind", j}} : j;
  expect_object(resolved, path);
  const Board& board = state.board();
  if (auto it = resolved.find("hex"); it != resolved.end() && it->is_string()) {
    *it = hex_from_text(board, it->get<std::string>(), join(path, "hex"));
  }
  for (const char* key : {"unit", "carrier"}) {
    if (auto it = resolved.find(key); it != resolved.end() && it->is_string()) {
      const std::string name = it->get<std::string>();
      const auto found = unit_names.find(name);
      if (found != unit_names.end()) {
        *it = found->second;
      } else if (all_digits(name) && name.size() <= 6) {
        *it = std::stoi(name);
      } else {
        fail(join(path, key), "no unit is named " + echo(json(name)));
      }
    }
  }
  if (!resolved.contains("player")) {
    const int who = decider(state);
    resolved["player"] = who == kNoPlayer ? state.current : who;
  }
  return action_from_json(resolved);
}

}  // namespace viktory::protocol
