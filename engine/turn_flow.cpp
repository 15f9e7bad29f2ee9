// The flow of play: setup, the phases of a Player Turn, passing the turn, conceding and the
// end of the game [4.0-6.0].
#include <algorithm>

#include "internal.h"
#include "tiles.h"

namespace viktory {
namespace detail {

int seat_position(const GameState& s, int player) {
  const auto it = std::find(s.turn_order.begin(), s.turn_order.end(), player);
  return it == s.turn_order.end() ? player : static_cast<int>(it - s.turn_order.begin());
}

int player_after(const GameState& s, int player) {
  const int n = static_cast<int>(s.players.size());
  if (static_cast<int>(s.turn_order.size()) != n) return (player + 1) % n;
  return s.turn_order[static_cast<std::size_t>((seat_position(s, player) + 1) % n)];
}

int player_before(const GameState& s, int player) {
  const int n = static_cast<int>(s.players.size());
  if (static_cast<int>(s.turn_order.size()) != n) return (player + n - 1) % n;
  return s.turn_order[static_cast<std::size_t>((seat_position(s, player) + n - 1) % n)];
}

int next_in_game(const GameState& s, int after) {
  const int n = static_cast<int>(s.players.size());
  int p = after;
  for (int i = 1; i <= n; ++i) {
    p = player_after(s, p);
    if (s.players[p].in_game()) return p;
  }
  return kNoPlayer;
}

// Setup step of one player [4.0 steps 2-4]: reveal his start hexes; while none of the
// revealed area is usable land, reveal the ring around it.
void begin_setup(GameState& s, int player, Events& ev) {
  const Board& b = s.board();
  s.current = player;
  s.phase = Phase::kSetup;
  // [3.3] The start group of his position round the table (his seat, unless [15.2] drew it).
  const auto group = b.start_groups(
      static_cast<int>(s.players.size()))[static_cast<std::size_t>(seat_position(s, player))];
  std::vector<int> area(group.begin(), group.end());
  auto usable = [&](int h) {
    if (!known_land(s, player, h) || s.hexes[h].town_owner != kNoPlayer) return false;
    for (int n : b.neighbors(h)) {
      if (n != Board::kNoHex && s.hexes[n].town_owner != kNoPlayer) return false;
    }
    return !other_units_at(s, player, h);
  };
  while (true) {
    for (int h : area) reveal(s, h, player, ev);
    s.capital_choices.clear();
    for (int h : area) {
      if (usable(h)) s.capital_choices.push_back(h);
    }
    if (!s.capital_choices.empty() || static_cast<int>(area.size()) >= b.size()) break;
    std::vector<int> grown = area;
    for (int h : area) {
      for (int n : b.neighbors(h)) {
        if (n != Board::kNoHex && std::find(grown.begin(), grown.end(), n) == grown.end()) {
          grown.push_back(n);
        }
      }
    }
    area = std::move(grown);
  }
  std::sort(s.capital_choices.begin(), s.capital_choices.end());
  Event e = make_event(EventKind::kPhaseChanged);
  e.player = player;
  e.value = static_cast<int>(Phase::kSetup);
  ev.push_back(e);
}

void set_phase(GameState& s, Phase p, Events& ev) {
  s.phase = p;
  Event e = make_event(EventKind::kPhaseChanged);
  e.player = s.current;
  e.value = static_cast<int>(p);
  ev.push_back(e);
}

void begin_turn(GameState& s, int player, Events& ev) {
  ++s.turn;
  s.current = player;
  s.ending_turn = false;
  s.active_unit = -1;
  s.entries.clear();
  s.capital_choices.clear();
  for (HexCell& c : s.hexes) {
    c.built_this_turn = false;
    c.battle_this_turn = false;
    c.placed_infantry = 0;
    c.placed_other = 0;
    c.began_turn_with_land_unit = 0;
  }
  // [15.64] Alliance land units help across slow terrain as if they were the mover's own, so
  // under Subjugation every player's land units are marked where they begin this turn.
  const bool mark_all = subjugation_rules(s.options);
  for (Unit& u : s.units) {
    const bool mine = u.owner == player;
    u.moves_left = mine ? movement_allowance(u.type) : 0;
    u.has_moved = false;
    u.move_done = false;
    u.attacked = false;
    u.transported = false;
    u.disembark_hex = -1;
    u.carried_this_turn = 0;
    if ((mine || mark_all) && u.place == UnitPlace::kMap && u.carrier < 0 && is_land_unit(u.type)) {
      s.hexes[u.hex].began_turn_with_land_unit |= static_cast<std::uint8_t>(bit(u.owner));
    }
  }
  // [15.63] A reorganization lasts for the one Player Turn after the Capital was lost.
  for (PlayerState& ps : s.players) {
    if (ps.reorganization == Reorganization::kThisTurn) ps.reorganization = Reorganization::kNone;
  }
  if (s.players[player].reorganization == Reorganization::kNextTurn) {
    s.players[player].reorganization = Reorganization::kThisTurn;
  }
  for (Unit& u : s.units) {
    if (u.place == UnitPlace::kMap && u.carrier >= 0) ++s.units[u.carrier].carried_this_turn;
  }
  s.players[player].held_capital_at_turn_start = holds_own_capital(s, player);
  Event e = make_event(EventKind::kTurnStarted);
  e.player = player;
  e.value = s.turn;
  ev.push_back(e);

  // [5.4] Race for Dominance: checked at the beginning of his turn, before building.
  if (s.options.victory.has(VictoryCondition::kRace) &&
      victory_points(s, player) >= kRaceVictoryPoints) {
    end_game(s, {player}, VictoryCondition::kRace, ev);
    return;
  }
  // [5.5] The Doomsday Clock: roll before building until a '1' puts a coin by his Capital.
  if (s.options.victory.has(VictoryCondition::kDoomsday) && s.doomsday_started &&
      !s.players[player].doomsday_coin) {
    const auto dice =
        roll_dice(s, 1, player, s.players[player].capital_hex, RollPurpose::kDoomsday, ev);
    s.players[player].doomsday_roll = dice[0];  // public: the view shows it after a reload
    if (dice[0] == 1) {
      s.players[player].doomsday_coin = true;
      Event c = make_event(EventKind::kDoomsdayCoin);
      c.player = player;
      c.hex = s.players[player].capital_hex;
      ev.push_back(c);
      settle(s, ev);
      if (s.phase == Phase::kGameOver) return;
    }
  }
  set_phase(s, Phase::kBuild, ev);
  // [7.1, 14.0] Without his Capital at the start of the turn he cannot build: skip ahead.
  if (!s.players[player].held_capital_at_turn_start) set_phase(s, Phase::kMovement, ev);
}

void enter_reserve_phase(GameState& s, Events& ev) {
  finish_active_unit(s, ev);
  set_phase(s, Phase::kReserve, ev);
  const int p = s.current;
  const bool any_reserve = std::any_of(s.units.begin(), s.units.end(), [&](const Unit& u) {
    return u.owner == p && u.place == UnitPlace::kReserve;
  });
  if (!any_reserve) finish_turn(s, ev);  // nothing to place: the turn is over
}

// End of the Reserve Placement Phase: fight the Frigate placement Naval Battles [13.5], then
// pass the turn clockwise.
void finish_turn(GameState& s, Events& ev) {
  s.ending_turn = true;
  while (!s.placement_battles.empty()) {
    if (s.battle) return;  // a placement battle is waiting for a decision
    const int hex = s.placement_battles.front();
    s.placement_battles.erase(s.placement_battles.begin());
    const int defender = enemy_owner_at(s, s.current, hex);
    if (defender == kNoPlayer || units_of_at(s, s.current, hex).empty()) continue;
    start_battle(s, hex, s.current, defender, /*placement=*/true, ev);
    if (s.battle || s.elimination || s.phase == Phase::kGameOver) return;
  }
  if (s.battle || s.phase == Phase::kGameOver) return;
  const int next = next_in_game(s, s.current);
  if (next == kNoPlayer) return;
  begin_turn(s, next, ev);
}

std::vector<int> highest_scores(const GameState& s, int excluded) {
  int best = -1;
  std::vector<int> winners;
  for (int p = 0; p < static_cast<int>(s.players.size()); ++p) {
    if (p == excluded || !s.players[p].in_game()) continue;
    const int vp = victory_points(s, p);
    if (vp > best) {
      best = vp;
      winners = {p};
    } else if (vp == best) {
      winners.push_back(p);
    }
  }
  return winners;
}

void end_game(GameState& s, std::vector<int> winners, VictoryCondition by, Events& ev) {
  s.phase = Phase::kGameOver;
  s.winners = std::move(winners);
  s.ended_by = by;
  s.battle.reset();
  s.bombard.reset();
  s.elimination.reset();
  s.balance.reset();
  s.relocation.reset();
  s.capital_return.reset();
  s.active_unit = -1;
  Event e = make_event(EventKind::kGameOver);
  e.dice = s.winners;
  e.value = static_cast<int>(by);
  ev.push_back(e);
}

// After every action: eliminations, victory, and passing on a turn that can no longer go on.
void settle(GameState& s, Events& ev) {
  if (s.phase == Phase::kGameOver) return;
  // [5.1] A concession that leaves one player ends the game at once, even while units are
  // still owed for a lost Town or City [10.2]: nobody is left to play against.
  std::vector<int> still_in;
  for (int p = 0; p < static_cast<int>(s.players.size()); ++p) {
    if (s.players[p].in_game()) still_in.push_back(p);
  }
  if (still_in.size() <= 1) {
    end_game(s, still_in, VictoryCondition::kStandard, ev);
    return;
  }
  if (s.elimination) return;  // accounting is mid-way; judge when it is done
  const int n = static_cast<int>(s.players.size());
  if (s.phase != Phase::kSetup) {
    for (int p = 0; p < n; ++p) {
      if (!s.players[p].in_game()) continue;
      const bool has_town = std::any_of(s.hexes.begin(), s.hexes.end(),
                                        [&](const HexCell& c) { return c.town_owner == p; });
      if (has_town) continue;
      if (s.relocation && s.relocation->player == p) continue;  // rebuilt this phase [15.5]
      // No Town or City: no units either (8.2 Key Concept); he is out of the game.
      for (Unit& u : s.units) {
        if (u.owner == p && u.place != UnitPlace::kStock) eliminate_unit(s, u.id, ev);
      }
      s.players[p].eliminated = true;
      s.players[p].doomsday_coin = true;  // he will never roll for the clock again
      Event e = make_event(EventKind::kPlayerEliminated);
      e.player = p;
      ev.push_back(e);
      leave_alliances(s, p, ev);
    }
  }
  std::vector<int> left;
  for (int p = 0; p < n; ++p) {
    if (s.players[p].in_game()) left.push_back(p);
  }
  if (left.size() <= 1) {  // [5.1]
    end_game(s, left, VictoryCondition::kStandard, ev);
    return;
  }
  if (subjugation_rules(s.options)) {  // [15.66, 5.2] everyone else is his Vassal
    for (int p : left) {
      const bool all_vassals = std::all_of(left.begin(), left.end(), [&](int other) {
        return other == p || s.players[other].ruler == p;
      });
      if (all_vassals) {
        end_game(s, {p}, VictoryCondition::kSubjugation, ev);
        return;
      }
    }
  }
  if (s.options.victory.has(VictoryCondition::kShorter) && s.capital_loser != kNoPlayer) {  // [5.3]
    end_game(s, highest_scores(s, s.capital_loser), VictoryCondition::kShorter, ev);
    return;
  }
  if (s.options.victory.has(VictoryCondition::kDoomsday) && s.doomsday_started) {  // [5.5]
    const bool all_coins = std::all_of(s.players.begin(), s.players.end(),
                                       [](const PlayerState& p) { return p.doomsday_coin; });
    if (all_coins) {
      end_game(s, highest_scores(s, kNoPlayer), VictoryCondition::kDoomsday, ev);
      return;
    }
  }
  if (s.battle || s.bombard) return;
  if (s.capital_return && s.capital_return->stage == ReturnStage::kNavalBattles) {
    advance_capital_return(s, ev);  // the next of the Vassal's Frigate battles [15.62, 13.5]
    if (s.battle || s.phase == Phase::kGameOver) return;
  }
  if (!s.players[s.current].in_game()) {
    // The player whose turn it was conceded.
    if (s.phase == Phase::kSetup) {
      advance_setup(s, ev);
    } else {
      s.placement_battles.clear();
      begin_turn(s, next_in_game(s, s.current), ev);
    }
    return;
  }
  if (s.phase == Phase::kReserve && s.ending_turn) finish_turn(s, ev);
}

void do_concede(GameState& s, int player, Events& ev) {
  PlayerState& ps = s.players[player];
  // A conceding player's pieces leave the map (docs/rules-notes.md); a Capital marker of his
  // that someone else holds stays where it is. Cargo is always its Frigate's owner's, so it
  // leaves with him.
  for (Unit& u : s.units) {
    if (u.owner == player && u.place != UnitPlace::kStock) {
      u.place = UnitPlace::kStock;
      u.hex = -1;
      u.carrier = -1;
    }
  }
  for (HexCell& c : s.hexes) {
    if (c.town_owner == player) {
      c.town_owner = kNoPlayer;
      c.city = false;
      if (c.capital_of == player) c.capital_of = kNoPlayer;
    }
  }
  ps.conceded = true;
  ps.doomsday_coin = true;
  if (s.active_unit >= 0 && s.units[s.active_unit].owner == player) s.active_unit = -1;
  if (s.battle && (s.battle->attacker == player || s.battle->defender == player)) s.battle.reset();
  if (s.bombard && (s.bombard->firer == player || s.bombard->target == player)) s.bombard.reset();
  if (s.elimination && s.elimination->player == player) s.elimination.reset();
  if (s.balance && s.balance->player == player) {
    ++s.tile_bank[bank_slot_of(s.balance->land)];  // the drawn land tile goes back [15.3]
    s.balance.reset();
  }
  if (s.relocation && s.relocation->player == player) {
    HexCell& from = s.hexes[s.relocation->from_hex];
    if (from.capital_of == player) from.capital_of = kNoPlayer;
    s.relocation.reset();
  }
  if (s.capital_return &&
      (s.capital_return->ruler == player || s.capital_return->vassal == player)) {
    s.capital_return.reset();
  }
  Event e = make_event(EventKind::kPlayerConceded);
  e.player = player;
  ev.push_back(e);
  leave_alliances(s, player, ev);
}

bool legacy_action_after_concession(const GameState& s, const Action& a) {
  if (s.phase != Phase::kGameOver || s.ended_by != VictoryCondition::kStandard) return false;
  if (s.winners.size() != 1 || s.winners.front() != a.player) return false;
  const bool someone_conceded = std::any_of(s.players.begin(), s.players.end(),
                                            [](const PlayerState& p) { return p.conceded; });
  if (!someone_conceded) return false;
  if (a.kind == ActionKind::kConcede) return true;
  if (a.kind != ActionKind::kEliminateUnit) return false;
  if (a.unit < 0 || a.unit >= static_cast<int>(s.units.size())) return false;
  const Unit& u = s.units[static_cast<std::size_t>(a.unit)];
  return u.owner == a.player && u.place != UnitPlace::kStock;
}

void do_end_phase(GameState& s, Events& ev) {
  switch (s.phase) {
    case Phase::kBuild:
      set_phase(s, Phase::kMovement, ev);
      break;
    case Phase::kMovement:
      enter_reserve_phase(s, ev);
      break;
    case Phase::kReserve:
      finish_turn(s, ev);
      break;
    default:
      break;
  }
}

Check check_end_phase(const GameState& s, const Action&) {
  if (s.phase == Phase::kSetup) {
    return error("capital_required", "Place your Capital before anything else [4.0].");
  }
  if (s.phase == Phase::kMovement) {
    if (!pending_battles(s).empty()) {
      return error("battle_pending",
                   "Units of yours share a hex with the enemy: start that Battle before ending "
                   "the phase [12.0].");
    }
    if (auto e = transit_blocks(s, -1)) return e;  // it cannot end its move in a port
  }
  return std::nullopt;
}

}  // namespace detail
}  // namespace viktory
