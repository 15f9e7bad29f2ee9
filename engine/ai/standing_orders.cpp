#include "standing_orders.h"

#include <algorithm>
#include <climits>
#include <map>
#include <tuple>
#include <type_traits>

namespace viktory::ai {
namespace {

// The order of the computer player's unit values (analysis.cpp): Infantry is worth least,
// then Frigates, Artillery and Cavalry (two dice when attacking [12.3 step 1]).
int cheap_rank(UnitType t) {
  switch (t) {
    case UnitType::kInfantry:
      return 0;
    case UnitType::kFrigate:
      return 1;
    case UnitType::kArtillery:
      return 2;
    case UnitType::kCavalry:
      return 3;
  }
  return 0;
}

std::optional<UnitType> kept_type(CasualtyOrder o) {
  switch (o) {
    case CasualtyOrder::kCheapest:
      return std::nullopt;
    case CasualtyOrder::kKeepArtillery:
      return UnitType::kArtillery;
    case CasualtyOrder::kKeepCavalry:
      return UnitType::kCavalry;
  }
  return std::nullopt;
}

std::optional<UnitType> first_type(EnemyCasualtyOrder o) {
  switch (o) {
    case EnemyCasualtyOrder::kCostliest:
      return std::nullopt;
    case EnemyCasualtyOrder::kArtilleryFirst:
      return UnitType::kArtillery;
    case EnemyCasualtyOrder::kCavalryFirst:
      return UnitType::kCavalry;
  }
  return std::nullopt;
}

class Units {
 public:
  explicit Units(const GameView& v) {
    for (const UnitView& u : v.units) {
      by_id_[u.id] = &u;
      if (u.carrier >= 0) ++cargo_[u.carrier];
    }
  }
  const UnitView* find(int id) const {
    auto it = by_id_.find(id);
    return it == by_id_.end() ? nullptr : it->second;
  }
  int cargo(int id) const {
    auto it = cargo_.find(id);
    return it == cargo_.end() ? 0 : it->second;
  }

 private:
  std::map<int, const UnitView*> by_id_;
  std::map<int, int> cargo_;
};

// [10.1] A hit on one of the candidates. The loss that costs least is one of several of a
// type (the side keeps that type's die [12.3 steps 1-2]) before the last of a type, then by
// value (cheap_rank), then a Frigate with less cargo aboard; `kept` goes last of all. For an
// enemy's loss the same measure is taken the other way round, `first` first.
std::optional<Action> pick_casualty(const GameView& v, const std::vector<Action>& legal, bool own,
                                    std::optional<UnitType> kept, std::optional<UnitType> first) {
  const Units units(v);
  std::map<UnitType, int> of_type;
  for (const Action& a : legal) {
    if (a.kind != ActionKind::kChooseCasualty) continue;
    if (const UnitView* u = units.find(a.unit)) ++of_type[u->type];
  }
  std::optional<Action> best;
  std::tuple<int, int, int, int, int> best_key{INT_MAX, INT_MAX, INT_MAX, INT_MAX, INT_MAX};
  for (const Action& a : legal) {
    if (a.kind != ActionKind::kChooseCasualty) continue;
    const UnitView* u = units.find(a.unit);
    if (u == nullptr) continue;
    const bool last = of_type[u->type] == 1;
    const int cargo = units.cargo(u->id);
    const auto key = own ? std::make_tuple(kept == u->type ? 1 : 0, last ? 1 : 0,
                                           cheap_rank(u->type), cargo, u->id)
                         : std::make_tuple(first == u->type ? 0 : 1, last ? 0 : 1,
                                           3 - cheap_rank(u->type), -cargo, u->id);
    if (!best || key < best_key) {
      best = a;
      best_key = key;
    }
  }
  return best;
}

int units_in_battle(const GameView& v, int player) {
  int n = 0;
  for (const UnitView& u : v.units) {
    n += u.owner == player && u.place == UnitPlace::kMap && u.hex == v.battle->hex && u.carrier < 0;
  }
  return n;
}

std::optional<Action> first_of(const std::vector<Action>& legal, ActionKind kind) {
  for (const Action& a : legal) {
    if (a.kind == kind) return a;
  }
  return std::nullopt;
}

// [12.3 step 3] Retreat when his units in the Battle hex are fewer than the defender's.
std::optional<Action> retreat_option(const GameView& v, const std::vector<Action>& legal,
                                     RetreatOrder order) {
  const bool outnumbered =
      v.battle && units_in_battle(v, v.battle->attacker) < units_in_battle(v, v.battle->defender);
  if (order == RetreatOrder::kWhenOutnumbered && outnumbered) {
    if (auto retreat = first_of(legal, ActionKind::kRetreat)) return retreat;
  }
  return first_of(legal, ActionKind::kContinueBattle);
}

std::optional<Action> averaging(const std::vector<Action>& legal, AveragingOrder order) {
  std::optional<Action> pick;
  for (const Action& a : legal) {
    if (a.kind != ActionKind::kAverageDice) continue;
    const bool better =
        !pick || (order == AveragingOrder::kAlways ? a.pairs > pick->pairs : a.pairs < pick->pairs);
    if (better) pick = a;
  }
  return pick;
}

// [10.2] From the Reserve first (or last); on the map the unit farthest from any enemy piece
// (the one least needed where it stands) first.
std::optional<Action> return_to_stock(const GameView& v, const std::vector<Action>& legal,
                                      ReturnOrder order) {
  const Units units(v);
  const Board& board = Board::for_radius(v.radius);
  std::vector<int> enemy_hexes;
  for (const UnitView& u : v.units) {
    if (u.owner != v.viewer && u.place == UnitPlace::kMap) enemy_hexes.push_back(u.hex);
  }
  for (const HexView& h : v.hexes) {
    if (h.town_owner != kNoPlayer && h.town_owner != v.viewer) enemy_hexes.push_back(h.hex);
  }
  auto distance_to_enemy = [&](int hex) {
    int d = INT_MAX;
    for (int e : enemy_hexes) d = std::min(d, board.distance(hex, e));
    return d;
  };
  std::optional<Action> best;
  std::tuple<int, int, int> best_key{INT_MAX, INT_MAX, INT_MAX};
  for (const Action& a : legal) {
    if (a.kind != ActionKind::kEliminateUnit) continue;
    const UnitView* u = units.find(a.unit);
    if (u == nullptr) continue;
    const bool in_reserve = u->place == UnitPlace::kReserve;
    const bool wanted_first = (order == ReturnOrder::kReserveFirst) == in_reserve;
    const auto key =
        std::make_tuple(wanted_first ? 0 : 1, in_reserve ? 0 : -distance_to_enemy(u->hex), u->id);
    if (!best || key < best_key) {
      best = a;
      best_key = key;
    }
  }
  return best;
}

// [15.62] Every Reserve unit he may place: land units into the Capital, Frigates next to it
// where no other player's Frigate lies (so that no Naval Battle comes of it [13.5]); then done.
std::optional<Action> reinforce(const GameView& v, const std::vector<Action>& legal,
                                ReinforceOrder order) {
  if (order == ReinforceOrder::kAll) {
    for (const Action& a : legal) {
      if (a.kind == ActionKind::kPlaceReserve && a.unit_type != UnitType::kFrigate) return a;
    }
    for (const Action& a : legal) {
      if (a.kind != ActionKind::kPlaceReserve || a.unit_type != UnitType::kFrigate) continue;
      const bool contested = std::any_of(v.units.begin(), v.units.end(), [&](const UnitView& u) {
        return u.owner != v.viewer && u.place == UnitPlace::kMap && u.hex == a.hex &&
               u.type == UnitType::kFrigate;
      });
      if (!contested) return a;
    }
  }
  return first_of(legal, ActionKind::kEndPhase);
}

std::optional<Action> balancing(const std::vector<Action>& legal, BalancingOrder order) {
  if (order == BalancingOrder::kReplace) {
    if (auto replace = first_of(legal, ActionKind::kReplaceWater)) return replace;
  }
  return first_of(legal, ActionKind::kKeepWater);
}

}  // namespace

const std::vector<OrderField>& order_fields() {
  static const std::vector<OrderField> fields = {
      {"casualties",
       {"cheapest", "keep_artillery", "keep_cavalry"},
       {DecisionKind::kOwnCasualties}},
      {"enemy_casualties",
       {"costliest", "artillery_first", "cavalry_first"},
       {DecisionKind::kEnemyCasualties}},
      {"retreat",
       {"when_outnumbered", "never"},
       {DecisionKind::kRetreatOption, DecisionKind::kRetreatMoves}},
      {"averaging", {"never", "always"}, {DecisionKind::kLuckAveraging}},
      {"return_to_stock", {"reserve_first", "map_first"}, {DecisionKind::kReturnToStock}},
      {"reinforce", {"all", "none"}, {DecisionKind::kVassalReinforcement}},
      {"balancing", {"replace", "keep_water"}, {DecisionKind::kExplorationBalancing}},
  };
  return fields;
}

namespace {

// Calls `f` with the field of `o` named `name` (each an enum whose values index the field's
// choices); false for an unknown name.
template <typename Orders, typename F>
bool with_field(Orders& o, std::string_view name, F&& f) {
  if (name == "casualties") return f(o.casualties);
  if (name == "enemy_casualties") return f(o.enemy_casualties);
  if (name == "retreat") return f(o.retreat);
  if (name == "averaging") return f(o.averaging);
  if (name == "return_to_stock") return f(o.return_to_stock);
  if (name == "reinforce") return f(o.reinforce);
  if (name == "balancing") return f(o.balancing);
  return false;
}

const OrderField* find_field(std::string_view name) {
  for (const OrderField& f : order_fields()) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

}  // namespace

std::optional<std::string_view> order_choice(const StandingOrders& orders, std::string_view field) {
  const OrderField* f = find_field(field);
  std::optional<std::string_view> out;
  if (f == nullptr) return out;
  with_field(orders, field, [&](const auto& value) {
    const auto i = static_cast<std::size_t>(value);
    if (i < f->choices.size()) out = f->choices[i];
    return true;
  });
  return out;
}

bool set_order(StandingOrders& orders, std::string_view field, std::string_view choice) {
  const OrderField* f = find_field(field);
  if (f == nullptr) return false;
  const auto at = std::find(f->choices.begin(), f->choices.end(), choice);
  if (at == f->choices.end()) return false;
  return with_field(orders, field, [&](auto& value) {
    value = static_cast<std::remove_reference_t<decltype(value)>>(at - f->choices.begin());
    return true;
  });
}

bool covered_by_standing_orders(DecisionKind kind) {
  for (const OrderField& f : order_fields()) {
    if (std::find(f.kinds.begin(), f.kinds.end(), kind) != f.kinds.end()) return true;
  }
  return false;
}

std::optional<Action> standing_order_action(const GameView& view, const std::vector<Action>& legal,
                                            const StandingOrders& orders) {
  if (view.viewer == kSpectator || view.viewer != view.decider) return std::nullopt;
  std::optional<Action> pick;
  switch (decision_kind(view)) {
    case DecisionKind::kOwnCasualties:
      pick = pick_casualty(view, legal, true, kept_type(orders.casualties), std::nullopt);
      break;
    case DecisionKind::kEnemyCasualties:
      pick = pick_casualty(view, legal, false, std::nullopt, first_type(orders.enemy_casualties));
      break;
    case DecisionKind::kRetreatOption:
      pick = retreat_option(view, legal, orders.retreat);
      break;
    case DecisionKind::kRetreatMoves:  // once begun, every unit leaves [12.3 step 3]
      pick = first_of(legal, ActionKind::kRetreat);
      break;
    case DecisionKind::kLuckAveraging:
      pick = averaging(legal, orders.averaging);
      break;
    case DecisionKind::kReturnToStock:
      pick = return_to_stock(view, legal, orders.return_to_stock);
      break;
    case DecisionKind::kVassalReinforcement:
      pick = reinforce(view, legal, orders.reinforce);
      break;
    case DecisionKind::kExplorationBalancing:
      pick = balancing(legal, orders.balancing);
      break;
    case DecisionKind::kNone:
    case DecisionKind::kPlaceCapital:
    case DecisionKind::kPlayTurn:
    case DecisionKind::kRebuildTown:
    case DecisionKind::kWithdrawFromCapital:
      return std::nullopt;
  }
  // Always one of `legal` (each helper picks from it), and never a concession.
  if (pick && std::find(legal.begin(), legal.end(), *pick) == legal.end()) return std::nullopt;
  return pick;
}

}  // namespace viktory::ai
