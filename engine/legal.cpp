// legal_actions: candidate actions by the situation, each filtered through check_action, so
// the list and apply() can never disagree.
#include <algorithm>

#include "internal.h"

namespace viktory {
using namespace detail;

std::vector<Action> legal_actions(const GameState& s, int player) {
  std::vector<Action> out;
  if (s.phase == Phase::kGameOver || player < 0 || player >= static_cast<int>(s.players.size()) ||
      !s.players[player].in_game()) {
    return out;
  }
  auto consider = [&](const Action& a) {
    if (!check_action(s, a)) out.push_back(a);
  };
  if (player == decider(s)) {
    const Board& b = s.board();
    if (s.elimination) {
      for (int u : elimination_candidates(s)) consider(act::eliminate_unit(player, u));
    } else if (s.battle && (s.battle->stage == BattleStage::kAverageAttackerFire ||
                            s.battle->stage == BattleStage::kAverageDefenderFire)) {
      for (int pairs = 0; pairs <= max_averaged_pairs(s.battle->dice_due); ++pairs) {
        consider(act::average_dice(player, pairs));  // [15.4]
      }
    } else if (s.bombard || (s.battle && s.battle->stage != BattleStage::kRetreatOption &&
                             s.battle->stage != BattleStage::kRetreating)) {
      for (int u : hit_candidates(s)) consider(act::choose_casualty(player, u));
    } else if (s.battle) {
      consider(act::continue_battle(player));
      for (int u : units_of_at(s, s.battle->attacker, s.battle->hex)) {
        for (int h : retreat_destinations(s, u)) consider(act::retreat(player, u, h));
      }
    } else if (s.balance) {
      for (int h : s.balance->water) consider(act::replace_water(player, h));  // [15.3]
      consider(act::keep_water(player));
    } else if (s.capital_return && s.capital_return->stage == ReturnStage::kWithdraw) {
      for (int u : units_of_at(s, player, s.capital_return->hex)) {  // [15.62]
        for (int h : withdraw_destinations(s, u)) consider(act::withdraw(player, u, h));
      }
    } else if (s.capital_return) {
      const int cap = s.capital_return->hex;  // the Vassal reinforces his Capital [15.62]
      for (int t = 0; t < kUnitTypes; ++t) {
        const auto type = static_cast<UnitType>(t);
        if (type != UnitType::kFrigate) {
          consider(act::place_reserve(player, type, cap));
          continue;
        }
        for (int h : capital_frigate_spots(s, player))
          consider(act::place_reserve(player, type, h));
      }
      consider(act::end_phase(player));
    } else if (s.relocation) {
      for (int n : b.neighbors(s.relocation->from_hex)) {  // [15.5]
        if (n != Board::kNoHex) consider(act::rebuild_town(player, n));
      }
    } else {
      switch (s.phase) {
        case Phase::kSetup:
          for (int h : s.capital_choices) consider(act::place_capital(player, h));
          break;
        case Phase::kBuild:
          for (int h = 0; h < b.size(); ++h) {
            if (s.hexes[h].town_owner == player) {
              consider(act::upgrade_city(player, h));
              if (s.options.town_relocation) consider(act::remove_town(player, h));  // [15.5]
            } else if (s.hexes[h].town_owner == kNoPlayer && known_land(s, player, h)) {
              consider(act::build_town(player, h));
            }
          }
          consider(act::end_phase(player));
          break;
        case Phase::kMovement:
          for (const Unit& u : s.units) {
            if (u.owner != player || u.place != UnitPlace::kMap) continue;
            if (u.carrier >= 0) {
              for (int n : b.neighbors(s.units[u.carrier].hex)) {
                if (n != Board::kNoHex) consider(act::disembark(player, u.id, n));
              }
              continue;
            }
            if (!u.move_done && u.moves_left > 0) {
              for (int n : b.neighbors(u.hex)) {
                if (n != Board::kNoHex) consider(act::move(player, u.id, n));
              }
              if (is_land_unit(u.type) && friendly_town(s, player, u.hex)) {
                // Road moves [9.13] end in one of his own (or Alliance [15.64]) Towns/Cities:
                // try only those.
                for (int d = 2; d <= 3; ++d) {
                  for (int h : b.ring_around(u.hex, d)) {
                    if (friendly_town(s, player, h)) consider(act::move(player, u.id, h));
                  }
                }
              }
            }
            if (is_land_unit(u.type) && !u.has_moved) {
              for (int n : b.neighbors(u.hex)) {
                if (n == Board::kNoHex) continue;
                for (int f : units_of_at(s, player, n)) {
                  if (s.units[f].type == UnitType::kFrigate) consider(act::embark(player, u.id, f));
                }
              }
            }
            if ((u.type == UnitType::kArtillery || u.type == UnitType::kFrigate) && !u.attacked) {
              // A Bombard needs enemy units in the target hex [11.0]: try only those hexes.
              for (int d = 1; d <= 2; ++d) {
                for (int h : b.ring_around(u.hex, d)) {
                  if (other_units_at(s, player, h)) consider(act::bombard(player, u.id, h));
                }
              }
            }
          }
          for (int h : pending_battles(s)) consider(act::start_battle(player, h));
          consider(act::end_phase(player));
          break;
        case Phase::kReserve: {
          for (int t = 0; t < kUnitTypes; ++t) {
            const auto type = static_cast<UnitType>(t);
            const bool have = std::any_of(s.units.begin(), s.units.end(), [&](const Unit& u) {
              return u.owner == player && u.type == type && u.place == UnitPlace::kReserve;
            });
            if (!have) continue;
            for (int h = 0; h < b.size(); ++h) {
              const bool candidate = type == UnitType::kFrigate ? known_water(s, player, h)
                                                                : s.hexes[h].town_owner == player;
              if (candidate) consider(act::place_reserve(player, type, h));
            }
          }
          if (s.options.redeployment) {  // house rule Redeployment
            for (int t = 0; t < kUnitTypes; ++t) {
              const auto type = static_cast<UnitType>(t);
              std::vector<int> spots;
              for (const Unit& u : s.units) {
                if (u.type != type || !may_redeploy_unit(s, player, u.id)) continue;
                if (spots.empty()) {
                  for (int h = 0; h < b.size(); ++h) {
                    const bool candidate = type == UnitType::kFrigate
                                               ? known_water(s, player, h)
                                               : s.hexes[h].town_owner == player;
                    if (candidate && !check_placement_spot(s, player, type, h)) spots.push_back(h);
                  }
                  if (spots.empty()) break;
                }
                for (int h : spots) consider(act::redeploy(player, u.id, h));
              }
            }
          }
          consider(act::end_phase(player));
          break;
        }
        case Phase::kGameOver:
          break;
      }
    }
  }
  out.push_back(act::concede(player));
  return out;
}

}  // namespace viktory
