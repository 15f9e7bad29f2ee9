// The heuristic player: fast, hand-tuned, no search.
//
// It reads the position through an Analysis (battle odds, threats, reach) and scores the legal
// actions: in the Building Phase Towns and upgrades by terrain, room and danger; in the
// Movement & Combat Phase a plan made afresh at every decision (Bombards first, then attacks
// that reach the wanted odds, then Towns that need defenders, then positional moves towards
// the front, or to explore early on: movement_planner.cpp); in the Reserve Placement Phase the
// most threatened Towns first; casualties, retreats and eliminations by the value of what is
// lost. As rounds go by without an end it grows bolder (stalemate_pressure). It works on any
// GameState it is given; the computer players only ever give it their own determinizations.
#pragma once

#include <vector>

#include "action.h"
#include "state.h"

namespace viktory::ai {

struct HeuristicParams {
  double attack_threshold = 0.70;          // least chance of winning to start an attack
  double capital_attack_threshold = 0.50;  // the same against an enemy Capital
  double defend_risk = 0.30;               // a Town is reinforced above this capture risk
  double capital_defend_risk = 0.15;       // the same for one's own Capital
  bool attack = true;                      // false: only the Battles already begun are fought
  double explore = 1.0;                    // weight of revealing hexes early in the game
  double town_preference = 1.5;            // new Towns over upgrades (in points)
  double danger_weight = 1.6;              // how much a march avoids hexes the enemy could attack
  double trade_margin = 0.2;  // least expected gain (points) of an attack on units alone
  // Stand-offs: fortified players that wait for good odds can wait for ever. From round
  // `pressure_from_round` on (a round is one turn of each player) the thresholds above slide
  // towards boldness, fully at `pressure_full_round` (stalemate_pressure, under_pressure).
  int pressure_from_round = 20;
  int pressure_full_round = 50;
};

// 0 before the stand-off rounds, growing to 1: how far `params` slide towards boldness at the
// position's turn. A public fact (the turn number), so the same for every determinization.
double stalemate_pressure(const HeuristicParams& params, const GameState& s);
// `params` with the pressure applied: lower attack thresholds and trade margin, higher
// tolerated risk for Towns (garrisons spare more units), less fear of danger when marching.
HeuristicParams under_pressure(const HeuristicParams& params, double pressure);

struct ScoredAction {
  Action action;
  double score = 0;
};

class HeuristicPlayer {
 public:
  explicit HeuristicPlayer(HeuristicParams params = {}) : params_(params) {}

  // The action it takes among `legal` (the legal actions of `me`, the decider). It concedes
  // only if nothing else is legal.
  Action choose(const GameState& s, int me, const std::vector<Action>& legal) const;

  // `legal` with scores, best first; concede always last. Scores only compare actions of
  // one decision.
  std::vector<ScoredAction> rank(const GameState& s, int me,
                                 const std::vector<Action>& legal) const;

  const HeuristicParams& params() const { return params_; }

 private:
  HeuristicParams params_;
};

}  // namespace viktory::ai
