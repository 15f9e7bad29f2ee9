#include "hex.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace viktory {
namespace {

// East, north-east, north-west, west, south-west, south-east (pointy-top, r grows downwards).
constexpr std::array<Axial, 6> kDirections{{{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}}};

int axial_distance(Axial a, Axial b) {
  const int dq = a.q - b.q;
  const int dr = a.r - b.r;
  return (std::abs(dq) + std::abs(dr) + std::abs(dq + dr)) / 2;
}

}  // namespace

int board_radius_for_players(int players) {
  if (players < 2 || players > 8) throw std::invalid_argument("players must be 2..8");
  if (players <= 4) return players + 2;
  return players <= 6 ? 7 : 8;
}

int board_radius_for(int players, int board_hexes) {
  if (board_hexes == 0) return board_radius_for_players(players);
  for (int r = kSmallestBoardRadius; r <= kLargestBoardRadius; ++r) {
    if (board_hexes_for_radius(r) == board_hexes) return r;
  }
  return -1;
}

Board::Board(int radius) : radius_(radius) {
  if (radius < kMinRadius || radius > kMaxRadius)
    throw std::invalid_argument("board radius out of range");
  const int width = 2 * radius + 1;
  index_.assign(static_cast<std::size_t>(width * width), kNoHex);
  // Row-major from the top row (r = -R) so indices and labels read like a printed map.
  for (int r = -radius; r <= radius; ++r) {
    int col = 0;
    for (int q = -radius; q <= radius; ++q) {
      if (std::abs(q) > radius || std::abs(r) > radius || std::abs(q + r) > radius) continue;
      index_[static_cast<std::size_t>((q + radius) * width + (r + radius))] = size();
      coords_.push_back({q, r});
      row_.push_back(r + radius);
      col_.push_back(col++);
    }
  }
  neighbors_.resize(coords_.size());
  for (int h = 0; h < size(); ++h) {
    for (int d = 0; d < 6; ++d) {
      neighbors_[h][d] =
          index_of({coords_[h].q + kDirections[d].q, coords_[h].r + kDirections[d].r});
    }
  }
}

int Board::index_of(Axial a) const {
  if (std::abs(a.q) > radius_ || std::abs(a.r) > radius_ || std::abs(a.q + a.r) > radius_) {
    return kNoHex;
  }
  const int width = 2 * radius_ + 1;
  return index_[static_cast<std::size_t>((a.q + radius_) * width + (a.r + radius_))];
}

int Board::distance(int a, int b) const { return axial_distance(coords_[a], coords_[b]); }

int Board::distance_from_centre(int hex) const { return axial_distance(coords_[hex], {0, 0}); }

std::vector<int> Board::ring_around(int hex, int d) const {
  std::vector<int> out;
  if (d <= 0) {
    if (d == 0) out.push_back(hex);
    return out;
  }
  // Walk the 6 * d positions of the ring instead of testing every hex of the board; sorted,
  // so callers see the hexes in index order as before.
  Axial cur{coords_[hex].q + kDirections[4].q * d, coords_[hex].r + kDirections[4].r * d};
  for (int side = 0; side < 6; ++side) {
    for (int step = 0; step < d; ++step) {
      if (const int h = index_of(cur); h != kNoHex) out.push_back(h);
      cur = {cur.q + kDirections[side].q, cur.r + kDirections[side].r};
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<int> Board::common_neighbors(int a, int b) const {
  std::vector<int> out;
  for (int n : neighbors_[a]) {
    if (n == kNoHex) continue;
    const auto& nb = neighbors_[b];
    if (std::find(nb.begin(), nb.end(), n) != nb.end()) out.push_back(n);
  }
  return out;
}

std::string Board::label(int hex) const {
  std::string out(1, static_cast<char>('A' + row_[hex]));
  out += std::to_string(col_[hex] + 1);
  return out;
}

int Board::from_label(const std::string& label) const {
  if (label.size() < 2) return kNoHex;
  const char letter =
      static_cast<char>(label[0] >= 'a' && label[0] <= 'z' ? label[0] - 32 : label[0]);
  const int row = letter - 'A';
  if (row < 0 || row > 2 * radius_) return kNoHex;
  int col = 0;
  for (std::size_t i = 1; i < label.size(); ++i) {
    if (label[i] < '0' || label[i] > '9') return kNoHex;
    col = col * 10 + (label[i] - '0');
    if (col > 100) return kNoHex;
  }
  for (int h = 0; h < size(); ++h) {
    if (row_[h] == row && col_[h] + 1 == col) return h;
  }
  return kNoHex;
}

// Start groups [3.3]: walk the ring just inside the perimeter (distance R-1), pick n positions
// spaced as evenly as the ring allows, starting at a corner; at each position take that hex,
// the next hex along the ring, and the hex inside that touches both. For 2, 3 and 6 players
// every group sits in a corner of the map; for 4 and 5 the spacing is as even as 6(R-1)
// positions allow (4 players: point-symmetric).
std::vector<std::array<int, 3>> Board::start_groups(int players) const {
  const int k = radius_ - 1;
  std::vector<int> ring;
  Axial cur{kDirections[4].q * k, kDirections[4].r * k};
  for (int side = 0; side < 6; ++side) {
    for (int step = 0; step < k; ++step) {
      ring.push_back(index_of(cur));
      cur = {cur.q + kDirections[side].q, cur.r + kDirections[side].r};
    }
  }
  const int len = static_cast<int>(ring.size());
  std::vector<std::array<int, 3>> groups;
  for (int i = 0; i < players; ++i) {
    const int pos = (2 * i * len + players) / (2 * players);  // round(i * len / players)
    const int a = ring[pos % len];
    const int b = ring[(pos + 1) % len];
    int inner = kNoHex;
    for (int c : common_neighbors(a, b)) {
      if (inner == kNoHex || distance_from_centre(c) < distance_from_centre(inner)) inner = c;
    }
    groups.push_back({a, b, inner});
  }
  return groups;
}

// Geometry tables are immutable, so one per radius is built on first use (thread-safe
// static initialisation) and shared; this is constant data, not game state.
const Board& Board::for_radius(int radius) {
  static const std::vector<Board> boards = [] {
    std::vector<Board> all;
    for (int r = kMinRadius; r <= kMaxRadius; ++r) all.emplace_back(r);
    return all;
  }();
  if (radius < kMinRadius || radius > kMaxRadius)
    throw std::invalid_argument("board radius out of range");
  return boards[static_cast<std::size_t>(radius - kMinRadius)];
}

}  // namespace viktory
