// The game record and the witness: JSON forms, the strict readers and the builder. The format
// is described field by field in docs/fair-play.md.
#include "game_record.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "game.h"
#include "json_detail.h"

namespace viktory::protocol {

using nlohmann::json;
using namespace detail;

namespace {

// Turn numbers and seq numbers stay far below this in any real game; it only keeps int
// arithmetic safe on hostile input.
constexpr std::int64_t kMaxCount = 10'000'000;

template <std::size_t N>
std::array<std::uint8_t, N> bytes_from(const json& j, const std::string& path) {
  const auto bytes = fair::from_hex<N>(as_string(j, path));
  if (!bytes) fail(path, "expected " + std::to_string(2 * N) + " hex digits");
  return *bytes;
}

template <std::size_t N>
std::optional<std::array<std::uint8_t, N>> optional_bytes_from(const json& j,
                                                               const std::string& path) {
  if (j.is_null()) return std::nullopt;
  return bytes_from<N>(j, path);
}

template <std::size_t N>
json hex_or_null(const std::optional<std::array<std::uint8_t, N>>& bytes) {
  return bytes ? json(fair::to_hex(*bytes)) : json(nullptr);
}

json roll_to_json(const RecordedRoll& r) {
  return {
      {"player", r.player}, {"purpose", to_string(r.purpose)}, {"hex", r.hex}, {"dice", r.dice}};
}

json tile_to_json(const RecordedTile& t) {
  return {{"hex", t.hex}, {"terrain", to_string(t.terrain)}, {"by", t.by}};
}

json rolls_to_json(const std::vector<RecordedRoll>& rolls) {
  json out = json::array();
  for (const RecordedRoll& r : rolls) out.push_back(roll_to_json(r));
  return out;
}

json tiles_to_json(const std::vector<RecordedTile>& tiles) {
  json out = json::array();
  for (const RecordedTile& t : tiles) out.push_back(tile_to_json(t));
  return out;
}

// Numbers of a game of `players` on its board, for range checks.
struct Limits {
  int players = 2;
  int hexes = 0;
};

Limits limits_for(const Options& options) {
  return {options.players,
          Board::for_radius(board_radius_for(options.players, options.board_hexes)).size()};
}

int player_from(const json& j, const std::string& path, const Limits& limits) {
  return static_cast<int>(as_int(j, path, 0, limits.players - 1));
}

int hex_from(const json& j, const std::string& path, const Limits& limits) {
  return static_cast<int>(as_int(j, path, 0, limits.hexes - 1));
}

RecordedRoll roll_from(const json& j, const std::string& path, const Limits& limits) {
  expect_object(j, path);
  reject_unknown_keys(j, {"player", "purpose", "hex", "dice"}, path);
  RecordedRoll r;
  r.player = player_from(require(j, "player", path), join(path, "player"), limits);
  const json& purpose = require(j, "purpose", path);
  const auto value = roll_purpose_from_string(as_string(purpose, join(path, "purpose")));
  if (!value) fail(join(path, "purpose"), "unknown roll purpose " + echo(purpose));
  r.purpose = *value;
  r.hex = hex_from(require(j, "hex", path), join(path, "hex"), limits);
  r.dice = dice_from_json(require(j, "dice", path), join(path, "dice"));
  if (r.dice.empty()) fail(join(path, "dice"), "a roll has at least one die");
  return r;
}

RecordedTile tile_from(const json& j, const std::string& path, const Limits& limits) {
  expect_object(j, path);
  reject_unknown_keys(j, {"hex", "terrain", "by"}, path);
  RecordedTile t;
  t.hex = hex_from(require(j, "hex", path), join(path, "hex"), limits);
  t.terrain = terrain_from(require(j, "terrain", path), join(path, "terrain"), false);
  t.by = player_from(require(j, "by", path), join(path, "by"), limits);
  return t;
}

std::vector<RecordedRoll> rolls_from(const json* j, const std::string& path, const Limits& limits) {
  std::vector<RecordedRoll> out;
  if (!j) return out;
  expect_array(*j, path);
  for (std::size_t i = 0; i < j->size(); ++i)
    out.push_back(roll_from((*j)[i], join(path, i), limits));
  return out;
}

std::vector<RecordedTile> tiles_from(const json* j, const std::string& path, const Limits& limits) {
  std::vector<RecordedTile> out;
  if (!j) return out;
  expect_array(*j, path);
  for (std::size_t i = 0; i < j->size(); ++i)
    out.push_back(tile_from((*j)[i], join(path, i), limits));
  return out;
}

// The record's options are complete: a missing field would silently take a default.
Options strict_options_from(const json& j, const std::string& path) {
  expect_object(j, path);
  reject_unknown_option_keys(j, path);
  // Every field options_to_json writes, so the list follows the options as they grow.
  const json complete = options_to_json(Options{});
  for (auto it = complete.begin(); it != complete.end(); ++it) require(j, it.key(), path);
  return options_from_json_at(j, path);
}

std::optional<std::int64_t> game_id_from(const json& j) {
  const json* v = optional(j, "game_id");
  if (!v || v->is_null()) return std::nullopt;
  return as_int(*v, "game_id", 0, std::numeric_limits<std::int64_t>::max());
}

void expect_format(const json& j, std::string_view format, int version) {
  const std::string& name = as_string(require(j, "format", ""), "format");
  if (name != format) {
    fail("format", "expected \"" + std::string(format) + "\", got " + echo(json(name)));
  }
  const auto v = as_int(require(j, "version", ""), "version", 0, kMaxCount);
  if (v != version) {
    fail("version", "this reader knows version " + std::to_string(version) +
                        ", the file is version " + std::to_string(v));
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Record

json record_to_json(const GameRecord& r) {
  json seats = json::array();
  for (std::size_t i = 0; i < r.seats.size(); ++i) {
    const RecordSeat& seat = r.seats[i];
    seats.push_back({{"seat", i},
                     {"name", seat.name},
                     {"contribution_commitment", hex_or_null(seat.contribution_commitment)},
                     {"contribution", hex_or_null(seat.contribution)}});
  }
  json actions = json::array();
  for (const RecordedAction& a : r.actions) {
    json entry = {{"seq", a.seq}, {"turn", a.turn}, {"action", action_to_json(a.action)}};
    if (!a.dice.empty()) entry["dice"] = rolls_to_json(a.dice);
    if (!a.tiles.empty()) entry["tiles"] = tiles_to_json(a.tiles);
    actions.push_back(std::move(entry));
  }
  json out = {
      {"format", kRecordFormat},
      {"version", kRecordVersion},
      {"options", options_to_json(r.options)},
      {"seats", seats},
      {"commitment", hex_or_null(r.commitment)},
      {"setup", {{"first_player", r.first_player}, {"tiles", tiles_to_json(r.setup_tiles)}}},
      {"actions", actions},
      {"result", nullptr}};
  if (r.game_id) out["game_id"] = *r.game_id;
  if (r.result) {
    out["result"] = {{"winners", r.result->winners}, {"ended_by", to_string(r.result->ended_by)}};
  }
  if (r.reveal) {
    json reveal = json::object();
    if (r.reveal->secret) reveal["secret"] = fair::to_hex(*r.reveal->secret);
    if (r.reveal->salt) reveal["salt"] = fair::to_hex(*r.reveal->salt);
    if (r.reveal->legacy_seed) reveal["seed"] = u64_to_hex(*r.reveal->legacy_seed);
    out["reveal"] = std::move(reveal);
  }
  return out;
}

GameRecord record_from_json(const json& j) {
  expect_object(j, "record");
  reject_unknown_keys(j,
                      {"format", "version", "game_id", "options", "seats", "commitment", "setup",
                       "actions", "result", "reveal"},
                      "");
  expect_format(j, kRecordFormat, kRecordVersion);
  GameRecord r;
  r.game_id = game_id_from(j);
  r.options = strict_options_from(require(j, "options", ""), "options");
  const Limits limits = limits_for(r.options);

  const json& seats = require(j, "seats", "");
  expect_array(seats, "seats");
  if (static_cast<int>(seats.size()) != r.options.players) {
    fail("seats", "expected one seat per player (" + std::to_string(r.options.players) + "), got " +
                      std::to_string(seats.size()));
  }
  for (std::size_t i = 0; i < seats.size(); ++i) {
    const std::string path = join("seats", i);
    const json& s = seats[i];
    expect_object(s, path);
    reject_unknown_keys(s, {"seat", "name", "contribution_commitment", "contribution"}, path);
    const auto index = as_int(require(s, "seat", path), join(path, "seat"), 0, kMaxPlayers - 1);
    if (index != static_cast<std::int64_t>(i)) {
      fail(join(path, "seat"), "seats must be listed in seat order, expected " + std::to_string(i));
    }
    RecordSeat seat;
    seat.name = as_string(require(s, "name", path), join(path, "name"));
    seat.contribution_commitment = optional_bytes_from<32>(
        require(s, "contribution_commitment", path), join(path, "contribution_commitment"));
    seat.contribution =
        optional_bytes_from<32>(require(s, "contribution", path), join(path, "contribution"));
    r.seats.push_back(std::move(seat));
  }
  r.commitment = optional_bytes_from<32>(require(j, "commitment", ""), "commitment");

  const json& setup = require(j, "setup", "");
  expect_object(setup, "setup");
  reject_unknown_keys(setup, {"first_player", "tiles"}, "setup");
  r.first_player =
      player_from(require(setup, "first_player", "setup"), "setup.first_player", limits);
  r.setup_tiles = tiles_from(&require(setup, "tiles", "setup"), "setup.tiles", limits);

  const json& actions = require(j, "actions", "");
  expect_array(actions, "actions");
  for (std::size_t i = 0; i < actions.size(); ++i) {
    const std::string path = join("actions", i);
    const json& a = actions[i];
    expect_object(a, path);
    reject_unknown_keys(a, {"seq", "turn", "action", "dice", "tiles"}, path);
    RecordedAction entry;
    entry.seq = static_cast<int>(as_int(require(a, "seq", path), join(path, "seq"), 1, kMaxCount));
    if (entry.seq != static_cast<int>(i) + 1) {
      fail(join(path, "seq"), "actions must be numbered 1, 2, 3, ...: expected " +
                                  std::to_string(i + 1) + ", got " + std::to_string(entry.seq));
    }
    entry.turn =
        static_cast<int>(as_int(require(a, "turn", path), join(path, "turn"), 0, kMaxCount));
    entry.action = action_from_json_at(require(a, "action", path), join(path, "action"));
    if (entry.action.player == kNoPlayer)
      fail(join(path, "action.player"), "missing required field");
    if (entry.action.player >= r.options.players) {
      fail(join(path, "action.player"), "no such seat in this game");
    }
    entry.dice = rolls_from(optional(a, "dice"), join(path, "dice"), limits);
    entry.tiles = tiles_from(optional(a, "tiles"), join(path, "tiles"), limits);
    r.actions.push_back(std::move(entry));
  }

  const json& result = require(j, "result", "");
  if (!result.is_null()) {
    expect_object(result, "result");
    reject_unknown_keys(result, {"winners", "ended_by"}, "result");
    RecordResult res;
    const json& winners = require(result, "winners", "result");
    expect_array(winners, "result.winners");
    for (std::size_t i = 0; i < winners.size(); ++i) {
      res.winners.push_back(player_from(winners[i], join("result.winners", i), limits));
    }
    res.ended_by = victory_from(require(result, "ended_by", "result"), "result.ended_by");
    r.result = std::move(res);
  }

  if (const json* reveal = optional(j, "reveal")) {
    expect_object(*reveal, "reveal");
    reject_unknown_keys(*reveal, {"secret", "salt", "seed"}, "reveal");
    RecordReveal rv;
    if (const json* seed = optional(*reveal, "seed")) {
      if (optional(*reveal, "secret") || optional(*reveal, "salt")) {
        fail("reveal",
             "either \"secret\" and \"salt\" or, for a game from before fair play, "
             "\"seed\"");
      }
      rv.legacy_seed = as_u64_string(*seed, "reveal.seed");
    } else {
      rv.secret = bytes_from<32>(require(*reveal, "secret", "reveal"), "reveal.secret");
      rv.salt = bytes_from<16>(require(*reveal, "salt", "reveal"), "reveal.salt");
    }
    r.reveal = rv;
  }
  return r;
}

GameRecord parse_record(std::string_view text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw JsonError(std::string("record: not valid JSON: ") + e.what());
  }
  return record_from_json(j);
}

std::optional<std::uint64_t> record_seed(const GameRecord& r) {
  if (!r.reveal) return std::nullopt;
  if (r.reveal->legacy_seed) return r.reveal->legacy_seed;
  if (!r.reveal->secret) return std::nullopt;
  std::vector<std::optional<fair::Contribution>> contributions;
  for (const RecordSeat& seat : r.seats) contributions.push_back(seat.contribution);
  return fair::derive_seed(*r.reveal->secret, contributions);
}

// ---------------------------------------------------------------------------------------------
// Outcomes and the builder

std::vector<RecordedRoll> rolls_of(const std::vector<Event>& events) {
  std::vector<RecordedRoll> out;
  for (const Event& e : events) {
    if (e.kind != EventKind::kDiceRolled) continue;
    out.push_back({e.player, static_cast<RollPurpose>(e.value), e.hex, e.dice});
  }
  return out;
}

std::vector<RecordedTile> tiles_of(const std::vector<Event>& events) {
  std::vector<RecordedTile> out;
  for (const Event& e : events) {
    if (e.kind == EventKind::kTileRevealed) out.push_back({e.hex, e.terrain, e.player});
  }
  return out;
}

std::vector<RecordedTile> setup_tiles_of(const GameState& s) {
  // new_game reveals only the first player's start area (begin_setup), for him.
  std::vector<RecordedTile> out;
  const Board& board = s.board();
  for (int h = 0; h < board.size(); ++h) {
    if (board.is_perimeter(h) || !s.hexes[h].revealed) continue;
    out.push_back({h, s.hexes[h].terrain, s.first_player});
  }
  return out;
}

GameRecord build_record(GameRecord base, const std::vector<Action>& actions) {
  if (static_cast<int>(base.seats.size()) != base.options.players) {
    throw std::invalid_argument("build_record: one seat per player is needed");
  }
  const auto seed = record_seed(base);
  if (!seed) throw std::invalid_argument("build_record: the reveal is needed to replay the game");
  GameState state = new_game(base.options, *seed);
  base.first_player = state.first_player;
  base.setup_tiles = setup_tiles_of(state);
  base.actions.clear();
  base.actions.reserve(actions.size());
  std::vector<Event> events;
  for (const Action& action : actions) {
    RecordedAction entry;
    entry.seq = static_cast<int>(base.actions.size()) + 1;
    entry.turn = state.turn;
    entry.action = action;
    events.clear();
    if (auto error = apply_in_place(state, action, &events)) {
      throw std::invalid_argument("build_record: action " + std::to_string(entry.seq) +
                                  " is refused by the engine: " + error->code);
    }
    entry.dice = rolls_of(events);
    entry.tiles = tiles_of(events);
    base.actions.push_back(std::move(entry));
  }
  if (state.phase == Phase::kGameOver) {
    base.result = RecordResult{state.winners, state.ended_by};
  } else {
    base.result.reset();
  }
  return base;
}

// ---------------------------------------------------------------------------------------------
// Witness

json witness_to_json(const Witness& w) {
  json out = {{"format", kWitnessFormat}, {"version", kWitnessVersion}};
  if (w.game_id) out["game_id"] = *w.game_id;
  out["seat"] = w.seat ? json(*w.seat) : json(nullptr);
  if (w.commitment) out["commitment"] = fair::to_hex(*w.commitment);
  if (w.contribution_commitments) {
    json list = json::array();
    for (const auto& c : *w.contribution_commitments) list.push_back(fair::to_hex(c));
    out["contribution_commitments"] = std::move(list);
  }
  if (w.contribution) out["contribution"] = fair::to_hex(*w.contribution);
  if (w.first_player) out["first_player"] = *w.first_player;
  json seen = json::array();
  for (const WitnessEntry& e : w.seen) {
    json entry = {{"seq", e.seq}};
    if (!e.dice.empty()) entry["dice"] = rolls_to_json(e.dice);
    if (!e.tiles.empty()) entry["tiles"] = tiles_to_json(e.tiles);
    seen.push_back(std::move(entry));
  }
  out["seen"] = std::move(seen);
  return out;
}

Witness witness_from_json(const json& j) {
  expect_object(j, "witness");
  reject_unknown_keys(j,
                      {"format", "version", "game_id", "seat", "commitment",
                       "contribution_commitments", "contribution", "first_player", "seen"},
                      "");
  expect_format(j, kWitnessFormat, kWitnessVersion);
  // The witness is read before the record's board is known: ranges here are the widest a
  // game may have; the verifier compares values, so an impossible one simply mismatches.
  const Limits limits{kMaxPlayers, Board::for_radius(Board::kMaxRadius).size()};
  Witness w;
  w.game_id = game_id_from(j);
  if (const json* seat = optional(j, "seat"); seat && !seat->is_null()) {
    w.seat = player_from(*seat, "seat", limits);
  }
  if (const json* c = optional(j, "commitment")) w.commitment = bytes_from<32>(*c, "commitment");
  if (const json* list = optional(j, "contribution_commitments")) {
    expect_array(*list, "contribution_commitments");
    std::vector<fair::Digest> digests;
    for (std::size_t i = 0; i < list->size(); ++i) {
      digests.push_back(bytes_from<32>((*list)[i], join("contribution_commitments", i)));
    }
    w.contribution_commitments = std::move(digests);
  }
  if (const json* c = optional(j, "contribution")) {
    w.contribution = bytes_from<32>(*c, "contribution");
  }
  if (const json* f = optional(j, "first_player")) {
    w.first_player = player_from(*f, "first_player", limits);
  }
  const json& seen = require(j, "seen", "");
  expect_array(seen, "seen");
  for (std::size_t i = 0; i < seen.size(); ++i) {
    const std::string path = join("seen", i);
    const json& s = seen[i];
    expect_object(s, path);
    reject_unknown_keys(s, {"seq", "dice", "tiles"}, path);
    WitnessEntry entry;
    entry.seq = static_cast<int>(as_int(require(s, "seq", path), join(path, "seq"), 1, kMaxCount));
    entry.dice = rolls_from(optional(s, "dice"), join(path, "dice"), limits);
    entry.tiles = tiles_from(optional(s, "tiles"), join(path, "tiles"), limits);
    w.seen.push_back(std::move(entry));
  }
  return w;
}

Witness parse_witness(std::string_view text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw JsonError(std::string("witness: not valid JSON: ") + e.what());
  }
  return witness_from_json(j);
}

}  // namespace viktory::protocol
