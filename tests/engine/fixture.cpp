#include "fixture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "tiles.h"

namespace viktory::testing {
namespace {

[[noreturn]] void builder_error(const std::string& what) {
  throw std::logic_error("test position: " + what);
}

}  // namespace

Position::Position(int players, int radius, Options options, std::uint64_t seed) {
  options.players = players;
  // new_game gives the options, players and generator; the map is then laid afresh.
  state = new_game(options, seed);
  if (radius != 0) state.radius = radius;
  const Board& b = board();
  state.hexes.assign(static_cast<std::size_t>(b.size()), HexCell{});
  int interior = 0;
  for (int h = 0; h < b.size(); ++h) {
    if (b.is_perimeter(h)) {
      state.hexes[h].terrain = Terrain::kWater;  // face up from the start [3.2]
      state.hexes[h].revealed = true;
      state.hexes[h].known_by = everyone_mask(state.options.players);
    } else {
      ++interior;
    }
  }
  state.tile_bank = tile_bank_for(options.tile_mix, interior);
  state.units.clear();
  state.capital_choices.clear();
  state.players.assign(static_cast<std::size_t>(players), PlayerState{});
  state.first_player = 0;
  state.current = 0;
  state.turn = 0;
  state.phase = Phase::kBuild;
}

int Position::at(const std::string& label) const {
  const int h = board().from_label(label);
  if (h == Board::kNoHex) builder_error("no hex labelled " + label);
  return h;
}

int Position::at(int q, int r) const {
  const int h = board().index_of({q, r});
  if (h == Board::kNoHex) {
    builder_error("no hex at (" + std::to_string(q) + ", " + std::to_string(r) + ")");
  }
  return h;
}

Position& Position::terrain(int hex, Terrain t) {
  if (board().is_perimeter(hex) && t != Terrain::kWater) builder_error("the perimeter is water");
  HexCell& c = state.hexes[hex];
  c.terrain = t;
  c.revealed = true;
  c.known_by = everyone_mask(state.options.players);
  return *this;
}

Position& Position::terrain(const std::vector<int>& hexes, Terrain t) {
  for (int h : hexes) terrain(h, t);
  return *this;
}

Position& Position::face_down(int hex, Terrain t) {
  if (board().is_perimeter(hex)) builder_error("perimeter hexes are always face up");
  HexCell& c = state.hexes[hex];
  c.terrain = t;
  c.revealed = false;
  c.known_by = 0;
  return *this;
}

Position& Position::fill(Terrain t) {
  for (int h = 0; h < board().size(); ++h) {
    if (!board().is_perimeter(h)) terrain(h, t);
  }
  return *this;
}

int Position::add_supported(int player, UnitType type) {
  Unit u;
  u.id = static_cast<int>(state.units.size());
  u.owner = player;
  u.type = type;
  u.place = UnitPlace::kReserve;
  state.units.push_back(u);
  return u.id;
}

Position& Position::town(int player, int hex) {
  HexCell& c = state.hexes[hex];
  if (!is_land(c.terrain) || !c.revealed) builder_error("a Town needs a face-up land hex");
  if (c.town_owner != kNoPlayer) builder_error("two Towns on " + label(hex));
  c.town_owner = player;
  c.city = false;
  add_supported(player, UnitType::kInfantry);  // [8.1]
  return *this;
}

Position& Position::city(int player, int hex) {
  town(player, hex);
  state.hexes[hex].city = true;
  add_supported(player, city_unit_for(state.hexes[hex].terrain));  // [8.2]
  return *this;
}

Position& Position::capital(int player, int hex, bool is_city) {
  if (is_city) {
    city(player, hex);
  } else {
    town(player, hex);
  }
  return capital_marker(player, hex);
}

Position& Position::capital_marker(int player, int hex) {
  if (state.hexes[hex].town_owner == kNoPlayer) builder_error("a Capital marker needs a Town");
  state.hexes[hex].capital_of = player;
  state.players[player].capital_hex = hex;
  return *this;
}

int Position::unit(int player, UnitType type, int hex) {
  for (Unit& u : state.units) {
    if (u.owner != player || u.type != type || u.place != UnitPlace::kReserve) continue;
    const Terrain t = state.hexes[hex].terrain;
    if (is_land_unit(type) ? !is_land(t) : t != Terrain::kWater) {
      builder_error(std::string(to_string(type)) + " cannot stand on " + label(hex));
    }
    u.place = UnitPlace::kMap;
    u.hex = hex;
    return u.id;
  }
  builder_error("player " + std::to_string(player) + " has no " + std::string(to_string(type)) +
                " in his Reserve: add the Town or City that supports it [8.2]");
}

int Position::cargo(int player, UnitType type, int frigate) {
  const Unit& ship = state.units.at(static_cast<std::size_t>(frigate));
  if (ship.type != UnitType::kFrigate || ship.owner != player || ship.place != UnitPlace::kMap) {
    builder_error("cargo needs one of the player's Frigates on the map");
  }
  for (Unit& u : state.units) {
    if (u.owner != player || u.type != type || u.place != UnitPlace::kReserve) continue;
    if (!is_land_unit(type)) builder_error("only land units are cargo [9.4]");
    u.place = UnitPlace::kMap;
    u.hex = ship.hex;
    u.carrier = frigate;
    return u.id;
  }
  builder_error("player " + std::to_string(player) + " has no " + std::string(to_string(type)) +
                " in his Reserve for cargo");
}

Position& Position::dice(std::vector<int> faces) {
  state.scripted_dice = std::move(faces);
  return *this;
}

std::vector<Event> Position::start_turn(int player, Phase phase) {
  const int n = static_cast<int>(state.players.size());
  int previous = player;
  do {
    previous = (previous + n - 1) % n;
  } while (previous != player && !state.players[previous].in_game());
  state.current = previous;
  state.phase = Phase::kReserve;
  state.ending_turn = false;
  std::vector<Event> events = apply_ok(act::end_phase(previous));
  if (state.phase == Phase::kGameOver) return events;  // e.g. [5.4, 5.5] at the turn's start
  if (state.current != player) builder_error("the turn did not pass to the requested player");
  if (phase == Phase::kMovement && state.phase == Phase::kBuild) {
    const auto more = apply_ok(act::end_phase(player));
    events.insert(events.end(), more.begin(), more.end());
  }
  const bool skipped_build = phase == Phase::kBuild && state.phase == Phase::kMovement &&
                             !state.players[player].held_capital_at_turn_start;  // [7.1]
  if (state.phase != phase && !skipped_build) {
    builder_error("could not reach the requested phase");
  }
  return events;
}

std::vector<Event> Position::apply_ok(const Action& action) {
  std::vector<Event> events;
  if (auto error = apply_in_place(state, action, &events)) {
    throw std::logic_error("action " + std::string(to_string(action.kind)) + " by player " +
                           std::to_string(action.player) + " refused: " + error->code + ": " +
                           error->message);
  }
  const auto broken = check_invariants(state);
  EXPECT_FALSE(broken.has_value()) << "after " << to_string(action.kind) << ": " << *broken;
  return events;
}

std::string Position::apply_error(const Action& action) {
  GameState copy = state;
  std::vector<Event> events;
  const auto error = apply_in_place(copy, action, &events);
  if (!error) return "accepted";
  EXPECT_TRUE(copy == state) << "a refused action changed the state";
  EXPECT_TRUE(events.empty()) << "a refused action produced events";
  EXPECT_FALSE(error->message.empty()) << "error " << error->code << " without a message";
  return error->code;
}

int Position::reserve_count(int player, UnitType type) const {
  return static_cast<int>(std::count_if(state.units.begin(), state.units.end(), [&](const Unit& u) {
    return u.owner == player && u.type == type && u.place == UnitPlace::kReserve;
  }));
}

int Position::stock_count(int player, UnitType type) const {
  return static_cast<int>(std::count_if(state.units.begin(), state.units.end(), [&](const Unit& u) {
    return u.owner == player && u.type == type && u.place == UnitPlace::kStock;
  }));
}

std::vector<int> Position::units_on(int hex, int player) const {
  std::vector<int> out;
  for (const Unit& u : state.units) {
    if (u.place == UnitPlace::kMap && u.hex == hex && u.carrier < 0 &&
        (player == kNoPlayer || u.owner == player)) {
      out.push_back(u.id);
    }
  }
  return out;
}

int Position::count_on(int hex, int player, UnitType type) const {
  const auto ids = units_on(hex, player);
  return static_cast<int>(
      std::count_if(ids.begin(), ids.end(), [&](int id) { return u(id).type == type; }));
}

std::vector<Event> events_of(const std::vector<Event>& events, EventKind kind) {
  std::vector<Event> out;
  std::copy_if(events.begin(), events.end(), std::back_inserter(out),
               [&](const Event& e) { return e.kind == kind; });
  return out;
}

int count_of(const std::vector<Event>& events, EventKind kind) {
  return static_cast<int>(events_of(events, kind).size());
}

std::vector<std::vector<int>> rolls(const std::vector<Event>& events, RollPurpose purpose) {
  std::vector<std::vector<int>> out;
  for (const Event& e : events) {
    if (e.kind == EventKind::kDiceRolled && e.value == static_cast<int>(purpose)) {
      out.push_back(e.dice);
    }
  }
  return out;
}

}  // namespace viktory::testing
