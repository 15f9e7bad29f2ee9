// Hand-made positions for the rule-by-rule engine tests.
//
// A Position owns a GameState and builds it directly (its fields are public), keeping it
// economically consistent [8.2 Key Concept]: every Town or City brings the units it supports
// into its owner's Reserve, and units are put on the map by taking them out of that Reserve.
// Turns are started through the engine itself (the previous player ends his Reserve Placement
// Phase), so every per-turn field is what begin_turn makes it.
//
//   Position p(2);
//   p.fill(Terrain::kPlains).capital(0, p.at("E3")).capital(1, p.at("E7"));
//   const int inf = p.unit(0, UnitType::kInfantry, p.at("E3"));
//   p.start_turn(0, Phase::kMovement);
//   p.apply_ok(act::move(0, inf, p.at("E4")));
//
// Labels of the 2-player board (radius 4); the outer ring is the perimeter water:
//
//             A1    A2    A3    A4    A5
//          B1    B2    B3    B4    B5    B6
//       C1    C2    C3    C4    C5    C6    C7
//    D1    D2    D3    D4    D5    D6    D7    D8
// E1    E2    E3    E4    E5    E6    E7    E8    E9
//    F1    F2    F3    F4    F5    F6    F7    F8
//       G1    G2    G3    G4    G5    G6    G7
//          H1    H2    H3    H4    H5    H6
//             I1    I2    I3    I4    I5
//
// Builder mistakes (an unknown label, a unit nobody supports, a unit on the wrong terrain)
// throw std::logic_error, which GoogleTest reports as a failure of the test.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "game.h"

namespace viktory::testing {

class Position {
 public:
  // `players` seats; `radius` 0 means the board of that player count [3.2]. A larger board
  // leaves room for positions with many Towns.
  explicit Position(int players = 2, int radius = 0, Options options = {}, std::uint64_t seed = 1);

  GameState state;

  const Board& board() const { return state.board(); }
  int at(const std::string& label) const;  // a hex by its label, e.g. "E5"
  int at(int q, int r) const;              // a hex by axial coordinates
  std::string label(int hex) const { return board().label(hex); }

  // --- terrain ---
  // Lays a face-up tile, known to every player.
  Position& terrain(int hex, Terrain t);
  Position& terrain(const std::vector<int>& hexes, Terrain t);
  // Lays a face-down tile: the hex stays unrevealed, and the engine will show this terrain
  // instead of drawing from the tile bank when it is revealed.
  Position& face_down(int hex, Terrain t);
  // Every interior hex face up with terrain t.
  Position& fill(Terrain t);

  // --- Towns and Cities, each with the units it supports put into the Reserve [7.4, 8.2] ---
  Position& town(int player, int hex);
  Position& city(int player, int hex);
  // A Town (or City) that is the player's Capital [4.0, 14.0].
  Position& capital(int player, int hex, bool is_city = false);
  // Lays `player`'s Capital marker on an existing Town/City, whoever holds it now [14.0].
  Position& capital_marker(int player, int hex);

  // --- units ---
  // Takes a unit of this type out of the player's Reserve and stands it on `hex`; returns its
  // id. Build the whole position before start_turn, which sets the per-turn fields.
  int unit(int player, UnitType type, int hex);
  // Takes a land unit out of the Reserve and puts it aboard one of his Frigates [9.45].
  int cargo(int player, UnitType type, int frigate);

  // --- dice and turns ---
  // The next dice the engine rolls, in order (before its generator) [10.1].
  Position& dice(std::vector<int> faces);
  // Starts `player`'s Player Turn the way the engine does (the previous in-game player ends
  // his Reserve Placement Phase), then ends phases until `phase` (kBuild or kMovement).
  // A player without his Capital lands in kMovement (the engine skips his Building Phase);
  // stops early if the game ended as the turn began (Race, Doomsday Clock).
  std::vector<Event> start_turn(int player, Phase phase = Phase::kBuild);

  // --- actions ---
  // Applies an action that must be accepted (throws otherwise) and checks the invariants.
  std::vector<Event> apply_ok(const Action& action);
  // Applies an action that must be refused: returns the error code ("accepted" if it was not
  // refused) and checks that the state did not change at all.
  std::string apply_error(const Action& action);

  // --- queries ---
  int reserve_count(int player, UnitType type) const;
  int stock_count(int player, UnitType type) const;  // units eliminated back to stock
  // Units standing on a hex (not cargo), of one player or of anybody.
  std::vector<int> units_on(int hex, int player = kNoPlayer) const;
  int count_on(int hex, int player, UnitType type) const;
  const Unit& u(int id) const { return state.units.at(static_cast<std::size_t>(id)); }

 private:
  int add_supported(int player, UnitType type);
};

// --- event helpers ---
std::vector<Event> events_of(const std::vector<Event>& events, EventKind kind);
int count_of(const std::vector<Event>& events, EventKind kind);
// The dice of every kDiceRolled event for this purpose, in order.
std::vector<std::vector<int>> rolls(const std::vector<Event>& events, RollPurpose purpose);

}  // namespace viktory::testing

// Asserts that the engine's invariants hold (economy, positions, adjacency ...).
#define EXPECT_CONSISTENT(position)                                              \
  do {                                                                           \
    const auto broken_invariant = ::viktory::check_invariants((position).state); \
    EXPECT_FALSE(broken_invariant.has_value()) << *broken_invariant;             \
  } while (false)
