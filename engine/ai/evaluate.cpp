#include "evaluate.h"

#include <algorithm>
#include <vector>

#include "analysis.h"
#include "game.h"

namespace viktory::ai {
namespace {

struct Weights {
  double vp = 2.0;        // per victory point (Town 1, City 2)
  double material = 1.0;  // per Infantry-equivalent, map and Reserve
  double capital = 6.0;   // holding one's own Capital [14.0]
  double risk = 1.0;      // times the value of each Town at risk next turn
};

Weights weights_for(VictoryCondition v) {
  Weights w;
  switch (v) {
    case VictoryCondition::kStandard:
      break;
    case VictoryCondition::kShorter:
      w.capital = 30;  // [5.3] losing it ends the game against its owner
      w.vp = 2.5;
      break;
    case VictoryCondition::kRace:
      w.vp = 4.0;  // [5.4]
      w.material = 0.8;
      w.capital = 3;
      break;
    case VictoryCondition::kDoomsday:
      w.vp = 3.5;  // [5.5] scored when the clock runs out
      w.material = 0.8;
      w.capital = 3;
      break;
  }
  return w;
}

}  // namespace

double evaluate(const GameState& s, int me) {
  const int n = static_cast<int>(s.players.size());
  if (s.phase == Phase::kGameOver) {
    const auto& w = s.winners;
    if (std::find(w.begin(), w.end(), me) != w.end()) return kWin / static_cast<double>(w.size());
    return -kWin;
  }
  const Weights w = weights_for(s.options.victory);
  std::vector<double> score(static_cast<std::size_t>(n), 0.0);
  for (const Unit& u : s.units) {
    if (u.place == UnitPlace::kStock) continue;
    score[static_cast<std::size_t>(u.owner)] += w.material * unit_value(u.type);
  }
  const Analysis a(s, me);
  for (int h = 0; h < a.board().size(); ++h) {
    const HexCell& c = s.hexes[static_cast<std::size_t>(h)];
    if (c.town_owner == kNoPlayer) continue;
    const int owner = c.town_owner;
    const double vp = c.city ? 2 : 1;
    double worth = w.vp * vp;
    const bool capital = c.capital_of == owner;
    if (capital) {
      score[static_cast<std::size_t>(owner)] += w.capital;
      worth += w.capital;
    }
    score[static_cast<std::size_t>(owner)] += w.vp * vp;
    Force garrison = a.force(h, owner);
    garrison.frigates = 0;
    const double risk = a.capture_risk(h, owner, garrison);
    // At risk: the owner may lose it, and whoever threatens it gains about as much.
    score[static_cast<std::size_t>(owner)] -= w.risk * risk * (worth + vp);
  }
  if (s.options.victory == VictoryCondition::kRace) {
    for (int p = 0; p < n; ++p) {
      const int vp = victory_points(s, p);
      if (vp > 12) score[static_cast<std::size_t>(p)] += 0.5 * (vp - 12) * (vp - 12);
    }
  }
  double best_other = -1e18;
  for (int p = 0; p < n; ++p) {
    if (p == me || !s.players[static_cast<std::size_t>(p)].in_game()) continue;
    best_other = std::max(best_other, score[static_cast<std::size_t>(p)]);
  }
  if (best_other < -1e17) best_other = 0;
  return score[static_cast<std::size_t>(me)] - best_other;
}

}  // namespace viktory::ai
