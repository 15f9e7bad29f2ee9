#include "tiles.h"

#include <algorithm>
#include <numeric>

namespace viktory {

std::array<int, kTerrainKinds> tile_mix_percentages(TileMix mix) {
  switch (mix) {
    case TileMix::kLandRich:
      return {15, 24, 24, 19, 18};
    case TileMix::kIslands:
      return {45, 16, 15, 12, 12};
    case TileMix::kStandard:
      break;
  }
  return {28, 20, 20, 16, 16};
}

// Largest-remainder rounding, so the counts add up to the interior exactly and ties break
// in a fixed order (water first).
std::array<int, kTerrainKinds> tile_bank_for(TileMix mix, int interior_hexes) {
  const auto pct = tile_mix_percentages(mix);
  std::array<int, kTerrainKinds> counts{};
  std::array<int, kTerrainKinds> remainder{};
  for (int i = 0; i < kTerrainKinds; ++i) {
    counts[i] = interior_hexes * pct[i] / 100;
    remainder[i] = interior_hexes * pct[i] % 100;
  }
  int missing = interior_hexes - std::accumulate(counts.begin(), counts.end(), 0);
  std::array<int, kTerrainKinds> order{0, 1, 2, 3, 4};
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return remainder[a] > remainder[b]; });
  for (int i = 0; missing > 0; i = (i + 1) % kTerrainKinds, --missing) ++counts[order[i]];
  return counts;
}

}  // namespace viktory
