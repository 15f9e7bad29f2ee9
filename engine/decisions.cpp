#include "decisions.h"

#include <array>

#include "game.h"

namespace viktory {
namespace {

constexpr std::array<std::string_view, kDecisionKinds> kNames{"none",
                                                              "place_capital",
                                                              "play_turn",
                                                              "own_casualties",
                                                              "enemy_casualties",
                                                              "retreat_option",
                                                              "retreat_moves",
                                                              "luck_averaging",
                                                              "return_to_stock",
                                                              "exploration_balancing",
                                                              "rebuild_town",
                                                              "withdraw_from_capital",
                                                              "vassal_reinforcement"};

// The same questions decider() asks, in the same order, on the fields a GameState and a
// GameView share: whatever is pending comes before the phase's own play.
template <typename Situation>
DecisionKind kind_of(const Situation& s) {
  if (s.phase == Phase::kGameOver) return DecisionKind::kNone;
  if (s.elimination) return DecisionKind::kReturnToStock;
  if (s.bombard) {
    return s.bombard->picks_by_firer > 0 ? DecisionKind::kEnemyCasualties
                                         : DecisionKind::kOwnCasualties;
  }
  if (s.battle) {
    switch (s.battle->stage) {
      case BattleStage::kAssignPreFire:
      case BattleStage::kAssignAttackerFire:
      case BattleStage::kAssignDefenderFire:
      case BattleStage::kAssignDefenderPreFire:
        // [10.1] '1's first, picked by the firer; then the target's own choice.
        return s.battle->picks_by_firer > 0 ? DecisionKind::kEnemyCasualties
                                            : DecisionKind::kOwnCasualties;
      case BattleStage::kRetreatOption:
        return DecisionKind::kRetreatOption;
      case BattleStage::kRetreating:
        return DecisionKind::kRetreatMoves;
      case BattleStage::kAverageAttackerFire:
      case BattleStage::kAverageDefenderFire:
        return DecisionKind::kLuckAveraging;
    }
  }
  if (s.balance) return DecisionKind::kExplorationBalancing;
  if (s.capital_return) {
    return s.capital_return->stage == ReturnStage::kReinforce ? DecisionKind::kVassalReinforcement
                                                              : DecisionKind::kWithdrawFromCapital;
  }
  if (s.relocation) return DecisionKind::kRebuildTown;
  return s.phase == Phase::kSetup ? DecisionKind::kPlaceCapital : DecisionKind::kPlayTurn;
}

}  // namespace

std::string_view to_string(DecisionKind kind) {
  const auto i = static_cast<std::size_t>(kind);
  return i < kNames.size() ? kNames[i] : std::string_view("unknown");
}

std::optional<DecisionKind> decision_kind_from_string(std::string_view text) {
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == text) return static_cast<DecisionKind>(i);
  }
  return std::nullopt;
}

DecisionKind decision_kind(const GameState& state) { return kind_of(state); }
DecisionKind decision_kind(const GameView& view) { return kind_of(view); }

bool out_of_turn(const GameState& state) {
  const int who = decider(state);
  return who != kNoPlayer && who != state.current;
}

bool may_be_out_of_turn(DecisionKind kind) {
  switch (kind) {
    case DecisionKind::kOwnCasualties:        // the target of a Battle or Bombard [10.1]
    case DecisionKind::kEnemyCasualties:      // the defender's '1's, a Vassal's Frigates' [10.1]
    case DecisionKind::kLuckAveraging:        // the defender's Fire Round [15.4]
    case DecisionKind::kReturnToStock:        // the loser of a Town or City [10.2]
    case DecisionKind::kVassalReinforcement:  // the new Vassal [15.62]
      return true;
    // Only ever the current player's: the one attacker who is not (a Vassal whose placed
    // Frigates fight [15.62]) fights a placement Naval Battle, which has no retreat [13.5];
    // exploration [7.3, 9.2] (and so [15.3]) comes only of the current player's building and
    // movement; the Ruler who withdraws took the Capital in his own turn [15.62].
    case DecisionKind::kRetreatOption:
    case DecisionKind::kRetreatMoves:
    case DecisionKind::kExplorationBalancing:
    case DecisionKind::kWithdrawFromCapital:
    case DecisionKind::kNone:
    case DecisionKind::kPlaceCapital:
    case DecisionKind::kPlayTurn:
    case DecisionKind::kRebuildTown:
      return false;
  }
  return false;
}

}  // namespace viktory
