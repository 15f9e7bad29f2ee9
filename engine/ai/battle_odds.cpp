#include "battle_odds.h"

#include <algorithm>
#include <vector>

namespace viktory::ai {

void Force::add(UnitType t, int n) {
  switch (t) {
    case UnitType::kInfantry:
      infantry += n;
      break;
    case UnitType::kCavalry:
      cavalry += n;
      break;
    case UnitType::kArtillery:
      artillery += n;
      break;
    case UnitType::kFrigate:
      frigates += n;
      break;
  }
}

namespace {

// P(exactly k hits among n dice), each die hitting on 1-3 [10.1].
double hit_probability(int n, int k) {
  if (k < 0 || k > n) return 0;
  double c = 1;
  for (int i = 1; i <= k; ++i) c = c * (n - k + i) / i;
  double p = c;
  for (int i = 0; i < n; ++i) p *= 0.5;
  return p;
}

// The order in which a side loses its units: spare copies first, then the last Infantry, the
// last Artillery and the last Cavalry (which rolls two dice when attacking).
std::vector<UnitType> loss_order(const Force& f, bool naval) {
  std::vector<UnitType> order;
  if (naval) {
    order.assign(static_cast<std::size_t>(f.frigates), UnitType::kFrigate);
    return order;
  }
  for (int i = 1; i < f.infantry; ++i) order.push_back(UnitType::kInfantry);
  for (int i = 1; i < f.artillery; ++i) order.push_back(UnitType::kArtillery);
  for (int i = 1; i < f.cavalry; ++i) order.push_back(UnitType::kCavalry);
  if (f.infantry > 0) order.push_back(UnitType::kInfantry);
  if (f.artillery > 0) order.push_back(UnitType::kArtillery);
  if (f.cavalry > 0) order.push_back(UnitType::kCavalry);
  return order;
}

// Dice a side rolls for its units when `left` of them remain (the last `left` of the order).
std::vector<int> dice_by_size(const std::vector<UnitType>& order, bool attacker) {
  std::vector<int> dice(order.size() + 1, 0);
  std::array<bool, kUnitTypes> present{};
  for (std::size_t left = 1; left <= order.size(); ++left) {
    present[static_cast<std::size_t>(order[order.size() - left])] = true;
    int d = 0;
    if (present[static_cast<std::size_t>(UnitType::kInfantry)]) d += 1;
    if (present[static_cast<std::size_t>(UnitType::kCavalry)]) d += attacker ? 2 : 1;
    if (present[static_cast<std::size_t>(UnitType::kArtillery)]) d += 1;
    if (present[static_cast<std::size_t>(UnitType::kFrigate)]) d += 1;
    dice[left] = d;
  }
  return dice;
}

struct Outcome {
  double win = 0;        // attacker wins
  double attackers = 0;  // expected attackers left at the end
  double defenders = 0;  // expected defenders left at the end
};

}  // namespace

BattleOdds battle_odds(const BattleSetup& in) {
  const bool naval = in.naval;
  const auto att_order = loss_order(in.attacker, naval);
  const auto def_order = loss_order(in.defender, naval);
  const int na0 = static_cast<int>(att_order.size());
  const int nd0 = static_cast<int>(def_order.size());
  BattleOdds out;
  if (na0 == 0) {
    out.defender_losses = 0;
    return out;
  }
  const auto att_dice = dice_by_size(att_order, true);
  const auto def_dice = dice_by_size(def_order, false);
  const int extra = naval ? 0 : in.terrain_dice + (in.naval_support ? 1 : 0);

  // Rounds with defenders present: table over (attackers left, defenders left).
  const int width = nd0 + 1;
  std::vector<Outcome> table(static_cast<std::size_t>((na0 + 1) * width));
  auto at = [&](int na, int nd) -> Outcome& {
    return table[static_cast<std::size_t>(na * width + nd)];
  };
  for (int na = 0; na <= na0; ++na) {
    for (int nd = 0; nd <= nd0; ++nd) {
      Outcome& o = at(na, nd);
      if (na == 0) {
        o = {0, 0, static_cast<double>(nd)};
        continue;
      }
      if (nd == 0) {
        o = {1, static_cast<double>(na), 0};
        continue;
      }
      const int a = att_dice[static_cast<std::size_t>(na)];
      double stay = 0;  // probability that nobody is hit: the same state again
      Outcome sum;
      for (int ha = 0; ha <= a; ++ha) {
        const double pa = hit_probability(a, ha);
        const int suppression = std::max(0, ha - nd);  // [12.31]
        const int d = std::max(0, def_dice[static_cast<std::size_t>(nd)] - suppression) + extra;
        for (int hd = 0; hd <= d; ++hd) {
          const double p = pa * hit_probability(d, hd);
          const int na2 = na - std::min(hd, na);
          const int nd2 = nd - std::min(ha, nd);
          if (na2 == na && nd2 == nd) {
            stay += p;
            continue;
          }
          Outcome next;
          if (na2 == 0) {
            next = {0, 0, static_cast<double>(nd2)};  // the defender holds, also if both fell
          } else {
            next = at(na2, nd2);
          }
          sum.win += p * next.win;
          sum.attackers += p * next.attackers;
          sum.defenders += p * next.defenders;
        }
      }
      const double go_on = 1 - stay;
      if (go_on <= 1e-12) {
        o = {0, static_cast<double>(na), static_cast<double>(nd)};  // nobody can ever hit
      } else {
        o = {sum.win / go_on, sum.attackers / go_on, sum.defenders / go_on};
      }
    }
  }

  // An empty Town or City: one round of its Defensive Terrain and Naval Support dice [12.3].
  auto empty_town = [&](int na) -> Outcome {
    Outcome o;
    for (int hd = 0; hd <= extra; ++hd) {
      const double p = hit_probability(extra, hd);
      const int left = na - std::min(hd, na);
      if (left > 0) o.win += p;
      o.attackers += p * left;
    }
    return o;
  };

  auto after_pre_fire = [&](int na, int nd) -> Outcome {
    if (na == 0) return {0, 0, static_cast<double>(nd)};  // the defender holds [12.3 step 4]
    if (nd == 0) return in.town ? empty_town(na) : Outcome{1, static_cast<double>(na), 0};
    return at(na, nd);
  };

  // [12.3 step 0] Pre-Battle Fire: one die per attacking Artillery; losses leave before the
  // rounds. Under the house rule Defending Artillery Pre-fire the defender's Artillery answers,
  // less one die per attacker's hit beyond the defenders' number [12.31].
  Outcome total;
  const bool pre = !naval && in.pre_fire;
  const int artillery = pre && nd0 > 0 ? in.attacker.artillery : 0;
  const int answering = pre && in.defender_pre_fire ? in.defender.artillery : 0;
  for (int h = 0; h <= artillery; ++h) {
    const double p = hit_probability(artillery, h);
    const int d = std::max(0, answering - std::max(0, h - nd0));
    for (int hd = 0; hd <= d; ++hd) {
      const double q = p * hit_probability(d, hd);
      const Outcome o = after_pre_fire(na0 - std::min(hd, na0), nd0 - std::min(h, nd0));
      total.win += q * o.win;
      total.attackers += q * o.attackers;
      total.defenders += q * o.defenders;
    }
  }
  out.attacker_wins = total.win;
  out.attacker_losses = na0 - total.attackers;
  out.defender_losses = nd0 - total.defenders;
  return out;
}

}  // namespace viktory::ai
