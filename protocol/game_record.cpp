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
// Draw numbers stay exact in any JSON reader (doubles hold integers up to 2^53).
constexpr std::int64_t kMaxDraw = std::int64_t{1} << 53;

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

// How a list of outcomes is written: version 1 (and the witness) without draw numbers and
// positions; version 2 with both, or in its setup with draw numbers only.
enum class Form { kV1, kV2, kV2Setup };

json roll_to_json(const RecordedRoll& r, Form form) {
  json out = {
      {"player", r.player}, {"purpose", to_string(r.purpose)}, {"hex", r.hex}, {"dice", r.dice}};
  if (form != Form::kV1) {
    out["draw"] = r.draw;
    out["at"] = r.at;
  }
  return out;
}

json tile_to_json(const RecordedTile& t, Form form) {
  json out = {{"hex", t.hex}, {"terrain", to_string(t.terrain)}};
  // Version 2: a tile of the face-up map [15.2] was revealed by nobody.
  if (form == Form::kV1 || t.by != kNoPlayer) out["by"] = t.by;
  if (form != Form::kV1) out["draw"] = t.draw;
  if (form == Form::kV2) out["at"] = t.at;
  return out;
}

json rolls_to_json(const std::vector<RecordedRoll>& rolls, Form form) {
  json out = json::array();
  for (const RecordedRoll& r : rolls) out.push_back(roll_to_json(r, form));
  return out;
}

json tiles_to_json(const std::vector<RecordedTile>& tiles, Form form) {
  json out = json::array();
  for (const RecordedTile& t : tiles) out.push_back(tile_to_json(t, form));
  return out;
}

json balance_to_json(const std::vector<RecordedBalance>& draws) {
  json out = json::array();
  for (const RecordedBalance& b : draws) {
    out.push_back(
        {{"player", b.player}, {"terrain", to_string(b.terrain)}, {"draw", b.draw}, {"at", b.at}});
  }
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

std::int64_t draw_from(const json& j, const std::string& path) {
  return as_int(require(j, "draw", path), join(path, "draw"), 0, kMaxDraw);
}

int at_from(const json& j, const std::string& path) {
  return static_cast<int>(as_int(require(j, "at", path), join(path, "at"), 0, kMaxCount));
}

RecordedRoll roll_from(const json& j, const std::string& path, const Limits& limits, Form form) {
  expect_object(j, path);
  if (form == Form::kV1) {
    reject_unknown_keys(j, {"player", "purpose", "hex", "dice"}, path);
  } else {
    reject_unknown_keys(j, {"player", "purpose", "hex", "dice", "draw", "at"}, path);
  }
  RecordedRoll r;
  r.player = player_from(require(j, "player", path), join(path, "player"), limits);
  const json& purpose = require(j, "purpose", path);
  const auto value = roll_purpose_from_string(as_string(purpose, join(path, "purpose")));
  if (!value) fail(join(path, "purpose"), "unknown roll purpose " + echo(purpose));
  r.purpose = *value;
  r.hex = hex_from(require(j, "hex", path), join(path, "hex"), limits);
  r.dice = dice_from_json(require(j, "dice", path), join(path, "dice"));
  if (r.dice.empty()) fail(join(path, "dice"), "a roll has at least one die");
  if (form != Form::kV1) {
    r.draw = draw_from(j, path);
    r.at = at_from(j, path);
  }
  return r;
}

RecordedTile tile_from(const json& j, const std::string& path, const Limits& limits, Form form) {
  expect_object(j, path);
  switch (form) {
    case Form::kV1:
      reject_unknown_keys(j, {"hex", "terrain", "by"}, path);
      break;
    case Form::kV2:
      reject_unknown_keys(j, {"hex", "terrain", "by", "draw", "at"}, path);
      break;
    case Form::kV2Setup:
      reject_unknown_keys(j, {"hex", "terrain", "by", "draw"}, path);
      break;
  }
  RecordedTile t;
  t.hex = hex_from(require(j, "hex", path), join(path, "hex"), limits);
  t.terrain = terrain_from(require(j, "terrain", path), join(path, "terrain"), false);
  // Only a version-2 setup tile may go without: the face-up map [15.2] was laid by nobody.
  const json* by = form == Form::kV2Setup ? optional(j, "by") : &require(j, "by", path);
  if (by) t.by = player_from(*by, join(path, "by"), limits);
  if (form != Form::kV1) t.draw = draw_from(j, path);
  if (form == Form::kV2) t.at = at_from(j, path);
  return t;
}

RecordedBalance balance_from(const json& j, const std::string& path, const Limits& limits) {
  expect_object(j, path);
  reject_unknown_keys(j, {"player", "terrain", "draw", "at"}, path);
  RecordedBalance b;
  b.player = player_from(require(j, "player", path), join(path, "player"), limits);
  b.terrain = terrain_from(require(j, "terrain", path), join(path, "terrain"), false);
  if (!is_land(b.terrain)) fail(join(path, "terrain"), "the balancing draw is a land tile [15.3]");
  b.draw = draw_from(j, path);
  b.at = at_from(j, path);
  return b;
}

std::vector<RecordedRoll> rolls_from(const json* j, const std::string& path, const Limits& limits,
                                     Form form) {
  std::vector<RecordedRoll> out;
  if (!j) return out;
  expect_array(*j, path);
  for (std::size_t i = 0; i < j->size(); ++i)
    out.push_back(roll_from((*j)[i], join(path, i), limits, form));
  return out;
}

std::vector<RecordedTile> tiles_from(const json* j, const std::string& path, const Limits& limits,
                                     Form form) {
  std::vector<RecordedTile> out;
  if (!j) return out;
  expect_array(*j, path);
  for (std::size_t i = 0; i < j->size(); ++i)
    out.push_back(tile_from((*j)[i], join(path, i), limits, form));
  return out;
}

std::vector<RecordedBalance> balance_list_from(const json* j, const std::string& path,
                                               const Limits& limits) {
  std::vector<RecordedBalance> out;
  if (!j) return out;
  expect_array(*j, path);
  for (std::size_t i = 0; i < j->size(); ++i)
    out.push_back(balance_from((*j)[i], join(path, i), limits));
  return out;
}

// Version 1: the options are complete (every field options_to_json writes for default
// options); a missing field would silently take a default.
Options strict_options_from(const json& j, const std::string& path) {
  expect_object(j, path);
  reject_unknown_option_keys(j, path);
  // Every field options_to_json writes, so the list follows the options as they grow.
  const json complete = options_to_json(Options{});
  for (auto it = complete.begin(); it != complete.end(); ++it) require(j, it.key(), path);
  return options_from_json_at(j, path);
}

// Version 2: every key of the protocol's options (option_keys), each optional with the
// protocol's default (docs/fair-play.md, the options table); unknown keys are errors.
Options record_options_from(const json& j, const std::string& path) {
  expect_object(j, path);
  reject_unknown_option_keys(j, path);
  return options_from_json_at(j, path);
}

std::optional<std::int64_t> game_id_from(const json& j) {
  const json* v = optional(j, "game_id");
  if (!v || v->is_null()) return std::nullopt;
  return as_int(*v, "game_id", 0, std::numeric_limits<std::int64_t>::max());
}

// The format's name, and a version from `oldest` to `newest`, which it returns.
int expect_format(const json& j, std::string_view format, int oldest, int newest) {
  const std::string& name = as_string(require(j, "format", ""), "format");
  if (name != format) {
    fail("format", "expected \"" + std::string(format) + "\", got " + echo(json(name)));
  }
  const auto v = as_int(require(j, "version", ""), "version", 0, kMaxCount);
  if (v < oldest || v > newest) {
    const std::string known =
        oldest == newest ? "version " + std::to_string(newest)
                         : "versions " + std::to_string(oldest) + " to " + std::to_string(newest);
    fail("version", "this reader knows " + known + ", the file is version " + std::to_string(v));
  }
  return static_cast<int>(v);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Record

int record_version(const GameRecord& r) {
  return r.scheme == RandomScheme::kStreams ? kRecordVersion : 1;
}

json record_to_json(const GameRecord& r) {
  const bool v2 = record_version(r) == 2;
  const Form form = v2 ? Form::kV2 : Form::kV1;
  json seats = json::array();
  for (std::size_t i = 0; i < r.seats.size(); ++i) {
    const RecordSeat& seat = r.seats[i];
    json entry = {{"seat", i},
                  {"name", seat.name},
                  {"contribution_commitment", hex_or_null(seat.contribution_commitment)},
                  {"contribution", hex_or_null(seat.contribution)}};
    if (seat.computer) entry["computer"] = true;
    if (seat.host) entry["host"] = true;
    seats.push_back(std::move(entry));
  }
  json actions = json::array();
  for (const RecordedAction& a : r.actions) {
    json entry = {{"seq", a.seq}, {"turn", a.turn}, {"action", action_to_json(a.action)}};
    if (!a.dice.empty()) entry["dice"] = rolls_to_json(a.dice, form);
    if (!a.tiles.empty()) entry["tiles"] = tiles_to_json(a.tiles, form);
    if (v2 && !a.balance.empty()) entry["balance"] = balance_to_json(a.balance);
    actions.push_back(std::move(entry));
  }
  json setup = {{"first_player", r.first_player},
                {"tiles", tiles_to_json(r.setup_tiles, v2 ? Form::kV2Setup : Form::kV1)}};
  if (v2) {
    setup["first_player_draw"] = r.first_player_draw;
    if (r.options.no_exploration) setup["seating"] = r.seating;
  }
  json out = {{"format", kRecordFormat},
              {"version", record_version(r)},
              {"options", options_to_json(r.options)},
              {"seats", seats},
              {"commitment", hex_or_null(r.commitment)},
              {"setup", setup},
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
  const int version = expect_format(j, kRecordFormat, 1, kRecordVersion);
  const bool v2 = version == 2;
  const Form form = v2 ? Form::kV2 : Form::kV1;
  GameRecord r;
  r.scheme = v2 ? RandomScheme::kStreams : RandomScheme::kSingleStream;
  r.game_id = game_id_from(j);
  r.options = v2 ? record_options_from(require(j, "options", ""), "options")
                 : strict_options_from(require(j, "options", ""), "options");
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
    reject_unknown_keys(
        s, {"seat", "name", "contribution_commitment", "contribution", "computer", "host"}, path);
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
    if (const json* v = optional(s, "computer"))
      seat.computer = as_bool(*v, join(path, "computer"));
    if (const json* v = optional(s, "host")) seat.host = as_bool(*v, join(path, "host"));
    r.seats.push_back(std::move(seat));
  }
  r.commitment = optional_bytes_from<32>(require(j, "commitment", ""), "commitment");

  const json& setup = require(j, "setup", "");
  expect_object(setup, "setup");
  if (v2) {
    reject_unknown_keys(setup, {"seating", "first_player", "first_player_draw", "tiles"}, "setup");
  } else {
    reject_unknown_keys(setup, {"first_player", "tiles"}, "setup");
  }
  r.first_player =
      player_from(require(setup, "first_player", "setup"), "setup.first_player", limits);
  r.setup_tiles = tiles_from(&require(setup, "tiles", "setup"), "setup.tiles", limits,
                             v2 ? Form::kV2Setup : Form::kV1);
  if (v2) {
    r.first_player_draw = as_int(require(setup, "first_player_draw", "setup"),
                                 "setup.first_player_draw", 0, kMaxDraw);
    // [15.2] The seating is drawn under No Exploration only, and then recorded.
    const json* seating = optional(setup, "seating");
    if (r.options.no_exploration && !seating) fail("setup", "missing required field \"seating\"");
    if (!r.options.no_exploration && seating) {
      fail("setup.seating", "only a game with No Exploration [15.2] draws the seating");
    }
    if (seating) {
      expect_array(*seating, "setup.seating");
      if (static_cast<int>(seating->size()) != r.options.players) {
        fail("setup.seating", "expected one entry per player");
      }
      for (std::size_t i = 0; i < seating->size(); ++i) {
        r.seating.push_back(player_from((*seating)[i], join("setup.seating", i), limits));
      }
    }
  }

  const json& actions = require(j, "actions", "");
  expect_array(actions, "actions");
  for (std::size_t i = 0; i < actions.size(); ++i) {
    const std::string path = join("actions", i);
    const json& a = actions[i];
    expect_object(a, path);
    if (v2) {
      reject_unknown_keys(a, {"seq", "turn", "action", "dice", "tiles", "balance"}, path);
    } else {
      reject_unknown_keys(a, {"seq", "turn", "action", "dice", "tiles"}, path);
    }
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
    entry.dice = rolls_from(optional(a, "dice"), join(path, "dice"), limits, form);
    entry.tiles = tiles_from(optional(a, "tiles"), join(path, "tiles"), limits, form);
    entry.balance = balance_list_from(optional(a, "balance"), join(path, "balance"), limits);
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
  return fair::derive_seed(*r.reveal->secret, contributions, r.scheme);
}

// ---------------------------------------------------------------------------------------------
// Outcomes and the builder

std::vector<RecordedRoll> rolls_of(const std::vector<Event>& events) {
  std::vector<RecordedRoll> out;
  for (const Event& e : events) {
    if (e.kind != EventKind::kDiceRolled) continue;
    out.push_back({e.player, static_cast<RollPurpose>(e.value), e.hex, e.dice, e.draw, -1});
  }
  return out;
}

std::vector<RecordedTile> tiles_of(const std::vector<Event>& events) {
  std::vector<RecordedTile> out;
  for (const Event& e : events) {
    if (e.kind == EventKind::kTileRevealed) {
      out.push_back({e.hex, e.terrain, e.player, e.draw, -1});
    }
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

Outcomes outcomes_of(const std::vector<Event>& events, std::vector<std::int64_t>& tile_draws) {
  Outcomes out;
  int at = 0;
  for (const Event& e : events) {
    switch (e.kind) {
      case EventKind::kDiceRolled:
        out.dice.push_back(
            {e.player, static_cast<RollPurpose>(e.value), e.hex, e.dice, e.draw, at++});
        break;
      case EventKind::kTileRevealed: {
        auto& known = tile_draws.at(static_cast<std::size_t>(e.hex));
        if (e.draw >= 0) known = e.draw;  // drawn now; a re-reveal shows the earlier draw
        out.tiles.push_back({e.hex, e.terrain, e.player, known, at++});
        break;
      }
      case EventKind::kLandDrawn:
        out.balance.push_back({e.player, e.terrain, e.draw, at++});
        break;
      default:
        break;
    }
  }
  return out;
}

SetupOutcomes setup_outcomes_of(const GameState& s, const SetupDraws& drawn,
                                std::vector<std::int64_t>& tile_draws) {
  SetupOutcomes out;
  if (s.options.no_exploration) out.seating = s.turn_order;  // [15.2]
  out.first_player = s.first_player;
  out.first_player_draw = drawn.first_player_draw;
  for (const Event& e : drawn.tiles) {
    tile_draws.at(static_cast<std::size_t>(e.hex)) = e.draw;
    out.tiles.push_back({e.hex, e.terrain, e.player, e.draw, -1});
  }
  return out;
}

GameRecord build_record(GameRecord base, const std::vector<Action>& actions) {
  if (static_cast<int>(base.seats.size()) != base.options.players) {
    throw std::invalid_argument("build_record: one seat per player is needed");
  }
  const auto seed = record_seed(base);
  if (!seed) throw std::invalid_argument("build_record: the reveal is needed to replay the game");
  const bool v2 = base.scheme == RandomScheme::kStreams;
  SetupDraws drawn;
  GameState state = new_game(base.options, *seed, base.scheme, &drawn);
  std::vector<std::int64_t> tile_draws(state.hexes.size(), -1);
  base.seating.clear();
  base.first_player_draw = -1;
  if (v2) {
    SetupOutcomes setup = setup_outcomes_of(state, drawn, tile_draws);
    base.seating = std::move(setup.seating);
    base.first_player = setup.first_player;
    base.first_player_draw = setup.first_player_draw;
    base.setup_tiles = std::move(setup.tiles);
  } else {
    base.first_player = state.first_player;
    base.setup_tiles = setup_tiles_of(state);
  }
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
    if (v2) {
      Outcomes outcomes = outcomes_of(events, tile_draws);
      entry.dice = std::move(outcomes.dice);
      entry.tiles = std::move(outcomes.tiles);
      entry.balance = std::move(outcomes.balance);
    } else {
      entry.dice = rolls_of(events);
      entry.tiles = tiles_of(events);
    }
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
    if (!e.dice.empty()) entry["dice"] = rolls_to_json(e.dice, Form::kV1);
    if (!e.tiles.empty()) entry["tiles"] = tiles_to_json(e.tiles, Form::kV1);
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
  expect_format(j, kWitnessFormat, kWitnessVersion, kWitnessVersion);
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
    entry.dice = rolls_from(optional(s, "dice"), join(path, "dice"), limits, Form::kV1);
    entry.tiles = tiles_from(optional(s, "tiles"), join(path, "tiles"), limits, Form::kV1);
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
