#include "evaluate.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "position_features.h"

namespace viktory::ai {
namespace {

using Weights = std::array<double, kFeatureCount>;

// Fitted with viktory-fit-evaluation (the commands are in docs/ai.md): index [victory][0] for
// two players, [victory][1] for more (fitted on four). Feature order as in position_features.h.
constexpr std::array<std::array<Weights, 2>, 4> kWeights{{
    // standard [5.1]
    {{Weights{0.1116, 0.5382, 0.4647, -0.3813, -1.0575, 0.7981, 0.7717, -0.1051, -0.2612, 0.2960,
              1.5448, 0.6442, -0.7846, 0.0000},
      Weights{-0.3482, 0.2781, 0.2364, 1.9177, -0.3608, 0.1597, -0.1040, -0.1961, -0.0883, 0.1042,
              0.9026, -0.3421, 0.4166, -0.0658}}},
    // shorter [5.3]
    {{Weights{0.1420, 0.4629, 0.5720, 0.0000, -1.1019, 0.6128, 0.8401, -0.6652, -0.3916, 0.4601,
              1.5660, 0.3132, -0.3956, 0.0000},
      Weights{-0.6045, 0.8332, -0.0990, 0.0000, -0.4344, 0.2006, -0.1239, -0.3891, -0.0487, 0.0828,
              1.2223, -0.2506, 0.5629, 0.0000}}},
    // race [5.4]
    {{Weights{0.1527, 0.8999, 0.1039, 0.1399, -0.9626, 0.9182, 0.3536, 1.3394, -0.3274, 0.3581,
              2.8853, 0.2714, -0.3632, 0.0000},
      Weights{-0.3482, 0.0090, 0.5309, 0.0360, -0.5008, 0.1164, -0.1686, 0.0007, -0.1459, 0.1584,
              0.8522, 0.0620, 0.1152, -0.0510}}},
    // doomsday [5.5]
    {{Weights{0.1598, 0.9238, 0.0719, 1.1303, -0.9331, 0.8579, 0.1596, 1.3011, -0.2978, 0.3262,
              3.1066, 0.0966, -0.1890, 0.0000},
      Weights{-0.3523, 0.4720, 0.3393, 0.0636, -0.5058, 0.1439, -0.0525, -0.0294, -0.1475, 0.1276,
              0.6275, -0.0477, 0.1961, -0.0238}}},
}};

}  // namespace

VictoryCondition planning_victory(VictorySet victory) {
  for (VictoryCondition v :
       {VictoryCondition::kShorter, VictoryCondition::kRace, VictoryCondition::kDoomsday}) {
    if (victory.has(v)) return v;
  }
  return VictoryCondition::kStandard;
}

double evaluate(const GameState& s, int me) {
  if (s.phase == Phase::kGameOver) {
    const auto& w = s.winners;
    if (std::find(w.begin(), w.end(), me) != w.end()) return 1.0 / static_cast<double>(w.size());
    return 0;
  }
  const auto victory = static_cast<std::size_t>(planning_victory(s.options.victory));
  const Weights& w =
      kWeights[victory < kWeights.size() ? victory : 0][s.players.size() > 2 ? 1 : 0];
  const Features f = features(s, me);
  double z = 0;
  for (int i = 0; i < kFeatureCount; ++i) {
    z += w[static_cast<std::size_t>(i)] * f[static_cast<std::size_t>(i)];
  }
  return 1 / (1 + std::exp(-z));
}

}  // namespace viktory::ai
