// Standing orders: how a player decides ahead, per kind of decision (engine/decisions.h), and
// the action they take for him when he is not there to decide (the server applies them to
// out-of-turn decisions of an absent player, and to the decisions of a skipped turn).
//
// The rules let the decider choose: which of his units a '2' or '3' kills [10.1], which enemy
// unit his '1's kill [10.1], whether to retreat [12.3 step 3], how many pairs of dice to
// average [15.4], which units return to stock [10.2], how a new Vassal reinforces his Capital
// [15.62], where a drawn land tile goes [15.3]. A standing order is that choice, made ahead
// (docs/rules-notes.md).
//
// standing_order_action is a pure function of the seat's view and legal actions: like the
// computer players (bot.h) it never sees hidden state, so it tells nothing the seat could not
// know. Its result is always one of the legal actions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "action.h"
#include "decisions.h"
#include "view.h"

namespace viktory::ai {

// [10.1] Which of his own units takes a hit he assigns (a '2' or '3', or an averaged pair).
enum class CasualtyOrder : std::uint8_t {
  kCheapest,       // the loss that costs least: see standing_orders.cpp
  kKeepArtillery,  // as kCheapest, but Artillery last
  kKeepCavalry,    // ... Cavalry last
  // (No "keep Frigates": Frigates stand on water, so they never share a list of candidates
  // with land units; among Frigates the cheapest loss is the one with less cargo aboard.)
};
// [10.1] Which enemy unit each of his '1's kills (also as a defender, out of turn).
enum class EnemyCasualtyOrder : std::uint8_t {
  kCostliest,       // the loss that costs the enemy most
  kArtilleryFirst,  // Artillery first, then as kCostliest
  kCavalryFirst,
};
// [12.3 step 3] The attacker's option after an exchange of fire.
enum class RetreatOrder : std::uint8_t { kWhenOutnumbered, kNever };
// [15.4] Luck Averaging: every pair he may average, or none.
enum class AveragingOrder : std::uint8_t { kNever, kAlways };
// [10.2] Units returned to stock after losing a Town or City.
enum class ReturnOrder : std::uint8_t { kReserveFirst, kMapFirst };
// [15.62] A new Vassal's reinforcement of his Capital.
enum class ReinforceOrder : std::uint8_t { kAll, kNone };
// [15.3] Exploration Balancing.
enum class BalancingOrder : std::uint8_t { kReplace, kKeepWater };

// The defaults are what a new account starts with.
struct StandingOrders {
  CasualtyOrder casualties = CasualtyOrder::kCheapest;
  EnemyCasualtyOrder enemy_casualties = EnemyCasualtyOrder::kCostliest;
  RetreatOrder retreat = RetreatOrder::kWhenOutnumbered;
  AveragingOrder averaging = AveragingOrder::kNever;
  ReturnOrder return_to_stock = ReturnOrder::kReserveFirst;
  ReinforceOrder reinforce = ReinforceOrder::kAll;
  BalancingOrder balancing = BalancingOrder::kReplace;
  friend bool operator==(const StandingOrders&, const StandingOrders&) = default;
};

// The orders by name, for storage and the protocol: "casualties", "enemy_casualties",
// "retreat", "averaging", "return_to_stock", "reinforce", "balancing"; each with its choices
// ("cheapest", "keep_artillery", ...) in the order of its enum.
struct OrderField {
  std::string_view name;
  std::vector<std::string_view> choices;
  std::vector<DecisionKind> kinds;  // the decisions it settles
};
const std::vector<OrderField>& order_fields();
// A field's choice in `orders` (nullopt: no such field).
std::optional<std::string_view> order_choice(const StandingOrders& orders, std::string_view field);
// Sets a field by names; false (nothing changed) for an unknown field or choice.
bool set_order(StandingOrders& orders, std::string_view field, std::string_view choice);

// Whether standing orders settle this kind of decision (every kind that may fall out of turn,
// and the retreat and Exploration Balancing of a skipped turn).
bool covered_by_standing_orders(DecisionKind kind);

// The action `view.viewer`'s standing orders take now: one of `legal` (his legal actions),
// never a concession. nullopt when he is not the decider, or the decision is not one the
// orders cover (his own play, his Capital, a relocation, a withdrawal).
std::optional<Action> standing_order_action(const GameView& view, const std::vector<Action>& legal,
                                            const StandingOrders& orders);

}  // namespace viktory::ai
