// Hex geometry of the VIKTORY II map: a hexagon of hexes in axial coordinates.
//
// The board is every hex (q, r) with max(|q|, |r|, |q + r|) <= radius. The outer ring
// (distance == radius from the centre) is the perimeter water ring [3.2]. Hexes are
// addressed by a dense index 0..size()-1 so game state can live in flat vectors.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace viktory {

struct Axial {
  int q = 0;
  int r = 0;
  friend bool operator==(const Axial&, const Axial&) = default;
};

// Radius of the board for a player count: 2 -> 4 (61 hexes), 3 -> 5 (91), 4 -> 6 (127),
// 5 or 6 -> 7 (169), the rules' board-size table [3.2]; 7 or 8 -> 8 (217), one ring past the
// rules' largest board (docs/rules-notes.md, "Board sizes").
int board_radius_for_players(int players);
// Hexes of a board of this radius: 3R(R+1) + 1.
constexpr int board_hexes_for_radius(int radius) { return 3 * radius * (radius + 1) + 1; }
// The board sizes a game may choose (game option board_hexes): 61, 91, 127, 169, 217.
constexpr int kSmallestBoardRadius = 4;
constexpr int kLargestBoardRadius = 8;
// The radius of a chosen board size: board_hexes 0 is the rules' size for the player count;
// -1 when board_hexes is no board size.
int board_radius_for(int players, int board_hexes);

class Board {
 public:
  static constexpr int kNoHex = -1;
  static constexpr int kMinRadius = 2;
  static constexpr int kMaxRadius = 8;

  explicit Board(int radius);

  int radius() const { return radius_; }
  int size() const { return static_cast<int>(coords_.size()); }
  Axial coord(int hex) const { return coords_[hex]; }
  int index_of(Axial a) const;  // kNoHex when off the board
  // Neighbours in a fixed order (east, then counter-clockwise); kNoHex where off the board.
  const std::array<int, 6>& neighbors(int hex) const { return neighbors_[hex]; }
  int distance(int a, int b) const;
  int distance_from_centre(int hex) const;
  bool is_perimeter(int hex) const { return distance_from_centre(hex) == radius_; }
  // All hexes at exactly distance d from hex (on the board).
  std::vector<int> ring_around(int hex, int d) const;
  // Hexes adjacent to both a and b.
  std::vector<int> common_neighbors(int a, int b) const;
  // Human-readable name: a row letter from the top (A...) and a column number from the
  // left (1...), e.g. "F6". Stable for a board size; used in the game log.
  std::string label(int hex) const;
  int from_label(const std::string& label) const;  // kNoHex when unknown

  // Each player's group of three mutually adjacent interior hexes touching the perimeter
  // ring [3.3]; see docs/rules-notes.md for how they are placed for 2..8 players on each
  // board size.
  std::vector<std::array<int, 3>> start_groups(int players) const;

  // The board object for a radius, built once and shared (boards are immutable).
  static const Board& for_radius(int radius);

 private:
  int radius_;
  std::vector<Axial> coords_;
  std::vector<int> index_;  // (q + R) * (2R + 1) + (r + R) -> hex index or kNoHex
  std::vector<std::array<int, 6>> neighbors_;
  std::vector<int> row_, col_;
};

}  // namespace viktory
