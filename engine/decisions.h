// The kind of decision a seat faces now: what the decider (game.h) is asked to choose.
//
// Many decisions fall to a player outside his own Player Turn: the target of hits chooses his
// losses for each '2' or '3' [10.1], the defender picks the attacker's loss for each '1' he
// rolls [10.1], the loser of a Town chooses the units he returns to stock [10.2], the defender
// decides on Luck Averaging before his Fire Round [15.4], a new Vassal reinforces his Capital
// [15.62] (and his placed Frigates fight as the attacker [13.5]). The server applies a player's
// standing orders (engine/ai/standing_orders.h) to exactly these kinds when he is away; the
// property test (tests/engine/decisions_test.cpp) proves over random games of every size and
// optional rule that every position whose decider is not the current player is one of them.
//
// Computed from the public situation alone (the fields a view shares with the state), so a
// seat's view gives the same kind as the state it was made from.
#pragma once

#include <optional>
#include <string_view>

#include "state.h"
#include "view.h"

namespace viktory {

enum class DecisionKind : std::uint8_t {
  kNone,                  // nobody decides: the game is over
  kPlaceCapital,          // [4.0] setup: where the Capital goes
  kPlayTurn,              // the current player's Build, Movement & Combat or Reserve phase
  kOwnCasualties,         // [10.1] the target chooses his own loss for a '2' or '3' (and [15.4])
  kEnemyCasualties,       // [10.1] the firer picks the target's loss for each '1'
  kRetreatOption,         // [12.3 step 3] the attacker retreats or fights another round
  kRetreatMoves,          // [12.3 step 3] a retreat has begun: every attacking unit leaves
  kLuckAveraging,         // [15.4] how many pairs of dice not to roll
  kReturnToStock,         // [10.2] the units returned to stock after losing a Town or City
  kExplorationBalancing,  // [15.3] where the drawn land tile goes, or keep the water
  kRebuildTown,           // [15.5] where the removed Town or City is rebuilt
  kWithdrawFromCapital,   // [15.62] the Ruler moves his units out of his new Vassal's Capital
  kVassalReinforcement,   // [15.62] the Vassal places Reserve units in and next to his Capital
};
constexpr int kDecisionKinds = static_cast<int>(DecisionKind::kVassalReinforcement) + 1;

std::string_view to_string(DecisionKind kind);
std::optional<DecisionKind> decision_kind_from_string(std::string_view text);

// The kind of the decision decider(state) faces now.
DecisionKind decision_kind(const GameState& state);
// The same from a view (any viewer's: the situation is public).
DecisionKind decision_kind(const GameView& view);

// Whether the decider is not the player whose Player Turn (or setup step) it is.
bool out_of_turn(const GameState& state);

// The kinds the rules can ask of a player outside his own Player Turn: his own casualties,
// the firer's picks for '1's, Luck Averaging, the units returned to stock, a Vassal's
// reinforcement (the property test holds every out-of-turn position of random games to this
// list, and reaches each). Standing orders cover each of them.
bool may_be_out_of_turn(DecisionKind kind);

}  // namespace viktory
