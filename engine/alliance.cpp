// Subjugation [15.6]: Rulers, Vassals and their forced Alliances. Losing the Capital does not
// cost its Town or City [14.0 does not apply]: its owner becomes the captor's Vassal, the
// captor's units leave it, and the Vassal may reinforce it at once [15.61, 15.62].
#include <algorithm>

#include "internal.h"

namespace viktory::detail {

bool may_attack_ally_at(const GameState& s, int player, int hex) {
  const int ally = allied_owner_at(s, player, hex);
  return ally != kNoPlayer && s.players[ally].ruler == player && may_attack(s, player) &&
         !s.hexes[hex].battle_this_turn;  // [15.64, 12.2]
}

bool must_move_on(const GameState& s) {
  if (s.active_unit < 0) return false;
  const Unit& u = s.units[s.active_unit];
  if (u.place != UnitPlace::kMap || u.carrier >= 0) return false;
  return allied_owner_at(s, u.owner, u.hex) != kNoPlayer && !may_attack_ally_at(s, u.owner, u.hex);
}

void free_vassal(GameState& s, int vassal, AllianceEnd why, Events& ev) {
  const int ruler = s.players[vassal].ruler;
  if (ruler == kNoPlayer) return;
  s.players[vassal].ruler = kNoPlayer;
  Event e = make_event(EventKind::kAllianceBroken);
  e.player = vassal;
  e.other_player = ruler;
  e.value = static_cast<int>(why);
  ev.push_back(e);
}

void leave_alliances(GameState& s, int player, Events& ev) {
  for (int p = 0; p < static_cast<int>(s.players.size()); ++p) {
    if (s.players[p].ruler == player) free_vassal(s, p, AllianceEnd::kRulerLeft, ev);
  }
  s.players[player].ruler = kNoPlayer;
}

void unit_stopped(GameState& s, int unit, Events& ev) {
  const Unit& u = s.units[unit];
  if (u.place != UnitPlace::kMap || u.carrier >= 0) return;
  const int ally = allied_owner_at(s, u.owner, u.hex);
  // [15.64] "If his military units stop in the same hex as his Vassal's units, Towns or
  // Cities, an immediate Battle ensues": the attack frees the Vassal at once [15.65 #1], so
  // the Alliance movement helps a Ruler against one hex of his Vassal only.
  if (ally != kNoPlayer && s.players[ally].ruler == u.owner) {
    free_vassal(s, ally, AllianceEnd::kAttackedByRuler, ev);
  }
}

void subjugate(GameState& s, int ruler, int vassal, int hex, Events& ev) {
  // [15.65 #2] The new Vassal's own Vassals go free; [15.65 #3] so does the captor.
  for (int p = 0; p < static_cast<int>(s.players.size()); ++p) {
    if (s.players[p].ruler == vassal) free_vassal(s, p, AllianceEnd::kRulerLostCapital, ev);
  }
  free_vassal(s, ruler, AllianceEnd::kTookCapital, ev);
  s.players[vassal].ruler = ruler;  // [15.61] (a Vassal of another Ruler changes sides)
  s.players[vassal].reorganization = Reorganization::kNextTurn;  // [15.63]
  Event e = make_event(EventKind::kSubjugated);
  e.player = vassal;
  e.other_player = ruler;
  e.hex = hex;
  ev.push_back(e);
  s.capital_return = CapitalReturn{hex, ruler, vassal, ReturnStage::kWithdraw, {}};
  advance_capital_return(s, ev);
}

std::vector<int> withdraw_destinations(const GameState& s, int unit) {
  std::vector<int> out;
  const Unit& u = s.units[unit];
  // [15.62] "to any adjacent hex(es) of his choice, including onto any of his adjacent
  // Frigates"; a hex with other players' pieces means a Battle there, unless one was fought
  // there this turn already [12.2].
  for (int n : s.board().neighbors(u.hex)) {
    if (n == Board::kNoHex) continue;
    if (s.hexes[n].battle_this_turn && foreign_pieces_at(s, u.owner, n)) continue;
    if (known_land(s, u.owner, n)) {
      out.push_back(n);
      continue;
    }
    if (frigate_with_room(s, u.owner, n) >= 0) out.push_back(n);
  }
  return out;
}

namespace {

bool has_reserve(const GameState& s, int player) {
  return std::any_of(s.units.begin(), s.units.end(), [&](const Unit& u) {
    return u.owner == player && u.place == UnitPlace::kReserve;
  });
}

}  // namespace

// Steps the return of a Capital along until somebody must decide.
void advance_capital_return(GameState& s, Events& ev) {
  while (s.capital_return && !s.battle && s.phase != Phase::kGameOver) {
    CapitalReturn& r = *s.capital_return;
    switch (r.stage) {
      case ReturnStage::kWithdraw: {
        const auto units = units_of_at(s, r.ruler, r.hex);
        bool waiting = false;
        for (int u : units) {
          if (withdraw_destinations(s, u).empty()) {
            lose_unit(s, u, ev);  // nowhere to go: back to the Reserve (docs/rules-notes.md)
          } else {
            waiting = true;
          }
        }
        if (waiting) return;
        r.stage = ReturnStage::kReinforce;
        break;
      }
      case ReturnStage::kReinforce:
        if (s.players[r.vassal].in_game() && has_reserve(s, r.vassal)) return;
        r.stage = ReturnStage::kNavalBattles;
        break;
      case ReturnStage::kNavalBattles: {
        if (r.naval_battles.empty()) {
          s.capital_return.reset();
          return;
        }
        const int hex = r.naval_battles.front();
        r.naval_battles.erase(r.naval_battles.begin());
        const int vassal = r.vassal;
        const int defender = enemy_owner_at(s, vassal, hex);
        if (defender == kNoPlayer || units_of_at(s, vassal, hex).empty()) break;
        start_battle(s, hex, vassal, defender, /*placement=*/true, ev);  // [15.62, 13.5]
        break;
      }
    }
  }
}

Check check_withdraw(const GameState& s, const Action& a) {
  const CapitalReturn& r = *s.capital_return;
  const auto units = units_of_at(s, r.ruler, r.hex);
  if (std::find(units.begin(), units.end(), a.unit) == units.end()) {
    return error("not_withdrawing",
                 "Only your units in your new Vassal's Capital are leaving it now [15.62].");
  }
  const auto dest = withdraw_destinations(s, a.unit);
  if (std::find(dest.begin(), dest.end(), a.hex) == dest.end()) {
    return error("bad_withdrawal",
                 "Move it to an adjacent land hex, or aboard one of your Frigates next to the "
                 "Capital; not where a Battle was fought this turn [15.62, 12.2].");
  }
  return std::nullopt;
}

void do_withdraw(GameState& s, const Action& a, Events& ev) {
  Unit& u = s.units[a.unit];
  const int from = u.hex;
  if (s.hexes[a.hex].terrain == Terrain::kWater) {
    const int f = frigate_with_room(s, u.owner, a.hex);
    if (f >= 0) go_aboard(s, a.unit, f, /*new_unit=*/true);
  }
  u.hex = a.hex;
  u.moves_left = 0;
  u.move_done = true;
  Event e = make_event(EventKind::kUnitWithdrawn);
  e.player = u.owner;
  e.unit = a.unit;
  e.unit_type = u.type;
  e.from_hex = from;
  e.hex = a.hex;
  ev.push_back(e);
  if (u.carrier < 0) {
    // Among other players' pieces a Battle ensues [15.62]: it waits, like any Battle the
    // Ruler's moves lead to, until he starts it this phase [12.0].
    if (foreign_pieces_at(s, u.owner, a.hex)) s.entries.push_back({a.hex, from});
    reveal_neighbors(s, a.hex, u.owner, ev);  // it enters the hex [9.2]
    unit_stopped(s, a.unit, ev);              // on his Vassal's pieces: an attack [15.62]
  }
  advance_capital_return(s, ev);
}

void end_reinforcement(GameState& s, Events& ev) {
  s.capital_return->stage = ReturnStage::kNavalBattles;
  advance_capital_return(s, ev);
}

}  // namespace viktory::detail
