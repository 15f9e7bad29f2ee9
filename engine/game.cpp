// The engine's entry points, shared helpers and the flow of turns.
#include "game.h"

#include <algorithm>
#include <stdexcept>

#include "internal.h"
#include "tiles.h"

namespace viktory {
namespace detail {

bool knows(const GameState& s, int player, int hex) {
  const HexCell& c = s.hexes[hex];
  if (s.board().is_perimeter(hex)) return true;
  if (!s.options.independent_exploration || player == kSpectator) return c.revealed;
  return (c.known_by & bit(player)) != 0;
}

bool known_land(const GameState& s, int player, int hex) {
  return knows(s, player, hex) && is_land(s.hexes[hex].terrain);
}

bool known_water(const GameState& s, int player, int hex) {
  return knows(s, player, hex) && s.hexes[hex].terrain == Terrain::kWater;
}

Terrain draw_tile(GameState& s) {
  int total = 0;
  for (int n : s.tile_bank) total += n;
  if (total == 0) {
    // Only a hand-made scenario can run the bank dry; fall back to an even draw.
    return terrain_of_bank_slot(static_cast<int>(s.rng.below(kTerrainKinds)));
  }
  auto pick = static_cast<int>(s.rng.below(static_cast<std::uint64_t>(total)));
  for (int slot = 0; slot < kTerrainKinds; ++slot) {
    if (pick < s.tile_bank[slot]) {
      --s.tile_bank[slot];
      return terrain_of_bank_slot(slot);
    }
    pick -= s.tile_bank[slot];
  }
  return Terrain::kWater;  // not reached: pick < total
}

bool reveal(GameState& s, int hex, int by, Events& ev) {
  HexCell& c = s.hexes[hex];
  if (s.board().is_perimeter(hex)) return false;  // face up from the start [3.2]
  const bool independent = s.options.independent_exploration;
  if (independent ? (c.known_by & bit(by)) != 0 : c.revealed) return false;
  const bool first_time = !c.revealed;
  if (c.terrain == Terrain::kNone) c.terrain = draw_tile(s);  // drawn now from the bank
  c.revealed = true;
  c.known_by =
      static_cast<std::uint8_t>(independent ? (c.known_by | bit(by)) : (1 << kMaxPlayers) - 1);
  Event e = make_event(EventKind::kTileRevealed);
  e.player = by;
  e.hex = hex;
  e.terrain = c.terrain;
  ev.push_back(e);
  return first_time;
}

std::vector<int> reveal_neighbors(GameState& s, int hex, int by, Events& ev) {
  std::vector<int> fresh;
  for (int n : s.board().neighbors(hex)) {
    if (n != Board::kNoHex && reveal(s, n, by, ev)) fresh.push_back(n);
  }
  return fresh;
}

int roll_die(GameState& s) {
  if (!s.scripted_dice.empty()) {
    const int face = s.scripted_dice.front();
    s.scripted_dice.erase(s.scripted_dice.begin());
    return face;
  }
  return s.rng.die();
}

std::vector<int> roll_dice(GameState& s, int count, int roller, int hex, RollPurpose purpose,
                           Events& ev, const FireDice* fire) {
  std::vector<int> dice;
  for (int i = 0; i < count; ++i) dice.push_back(roll_die(s));
  if (count > 0) {
    Event e = make_event(EventKind::kDiceRolled);
    e.player = roller;
    e.hex = hex;
    e.dice = dice;
    e.value = static_cast<int>(purpose);
    if (fire) e.fire = *fire;
    ev.push_back(e);
  }
  return dice;
}

int movement_allowance(UnitType t) {
  switch (t) {
    case UnitType::kCavalry:
      return 3;  // [9.11]
    case UnitType::kFrigate:
      return 5;  // [9.31]
    default:
      return 2;  // [9.11]
  }
}

std::vector<int> units_at(const GameState& s, int hex) {
  std::vector<int> out;
  for (const Unit& u : s.units) {
    if (u.place == UnitPlace::kMap && u.hex == hex && u.carrier < 0) out.push_back(u.id);
  }
  return out;
}

std::vector<int> units_of_at(const GameState& s, int player, int hex) {
  std::vector<int> out;
  for (const Unit& u : s.units) {
    if (u.place == UnitPlace::kMap && u.hex == hex && u.carrier < 0 && u.owner == player) {
      out.push_back(u.id);
    }
  }
  return out;
}

std::vector<int> cargo_of(const GameState& s, int frigate) {
  std::vector<int> out;
  for (const Unit& u : s.units) {
    if (u.place == UnitPlace::kMap && u.carrier == frigate) out.push_back(u.id);
  }
  return out;
}

bool allied(const GameState& s, int a, int b) {
  if (a == b || a < 0 || b < 0 || !subjugation_rules(s.options)) return false;
  const int ra = s.players[a].ruler;
  const int rb = s.players[b].ruler;
  // Alliances are flat [15.61, 15.65]: a Ruler and his Vassals, none of whom has Vassals.
  return ra == b || rb == a || (ra != kNoPlayer && ra == rb);
}

bool may_attack(const GameState& s, int player) {
  return s.players[player].reorganization != Reorganization::kThisTurn;  // [15.63]
}

int enemy_owner_at(const GameState& s, int player, int hex) {
  for (const Unit& u : s.units) {
    if (u.place == UnitPlace::kMap && u.hex == hex && u.carrier < 0 && u.owner != player &&
        !allied(s, player, u.owner)) {
      return u.owner;
    }
  }
  return kNoPlayer;
}

bool enemy_units_at(const GameState& s, int player, int hex) {
  return enemy_owner_at(s, player, hex) != kNoPlayer;
}

bool other_units_at(const GameState& s, int player, int hex) {
  for (const Unit& u : s.units) {
    if (u.place == UnitPlace::kMap && u.hex == hex && u.carrier < 0 && u.owner != player) {
      return true;
    }
  }
  return false;
}

bool enemy_town_at(const GameState& s, int player, int hex) {
  const int owner = s.hexes[hex].town_owner;
  return owner != kNoPlayer && owner != player && !allied(s, player, owner);
}

bool hostile_hex(const GameState& s, int player, int hex) {
  return enemy_units_at(s, player, hex) || enemy_town_at(s, player, hex);
}

int allied_owner_at(const GameState& s, int player, int hex) {
  if (!subjugation_rules(s.options)) return kNoPlayer;  // no Alliances without [15.6]
  const int town = s.hexes[hex].town_owner;
  if (allied(s, player, town)) return town;
  for (const Unit& u : s.units) {
    if (u.place == UnitPlace::kMap && u.hex == hex && u.carrier < 0 && allied(s, player, u.owner)) {
      return u.owner;
    }
  }
  return kNoPlayer;
}

bool foreign_pieces_at(const GameState& s, int player, int hex) {
  const int town = s.hexes[hex].town_owner;
  return (town != kNoPlayer && town != player) || other_units_at(s, player, hex);
}

bool owns_town(const GameState& s, int player, int hex) {
  return hex >= 0 && s.hexes[hex].town_owner == player;
}

bool friendly_town(const GameState& s, int player, int hex) {
  return owns_town(s, player, hex) || (hex >= 0 && allied(s, player, s.hexes[hex].town_owner));
}

bool holds_own_capital(const GameState& s, int player) {
  const int cap = s.players[player].capital_hex;
  return cap >= 0 && s.hexes[cap].town_owner == player;
}

int gain_unit(GameState& s, int player, UnitType type, Events& ev) {
  Unit u;
  u.id = static_cast<int>(s.units.size());
  u.owner = player;
  u.type = type;
  u.place = UnitPlace::kReserve;
  s.units.push_back(u);
  Event e = make_event(EventKind::kUnitGained);
  e.player = player;
  e.unit = u.id;
  e.unit_type = type;
  ev.push_back(e);
  return u.id;
}

void lose_unit(GameState& s, int unit, Events& ev) {
  for (int c : cargo_of(s, unit)) lose_unit(s, c, ev);  // cargo goes down with its Frigate [9.45]
  Unit& u = s.units[unit];
  Event e = make_event(EventKind::kUnitLost);
  e.player = u.owner;
  e.unit = u.id;
  e.unit_type = u.type;
  e.hex = u.hex;
  ev.push_back(e);
  u.place = UnitPlace::kReserve;
  u.hex = -1;
  u.carrier = -1;
  u.moves_left = 0;
  u.move_done = true;
  if (s.active_unit == unit) s.active_unit = -1;
}

void eliminate_unit(GameState& s, int unit, Events& ev) {
  for (int c : cargo_of(s, unit)) lose_unit(s, c, ev);
  Unit& u = s.units[unit];
  Event e = make_event(EventKind::kUnitEliminated);
  e.player = u.owner;
  e.unit = u.id;
  e.unit_type = u.type;
  e.hex = u.hex;
  ev.push_back(e);
  u.place = UnitPlace::kStock;
  u.hex = -1;
  u.carrier = -1;
  if (s.active_unit == unit) s.active_unit = -1;
}

void finish_active_unit(GameState& s, Events& ev) {
  if (s.active_unit < 0) return;
  const int unit = s.active_unit;
  Unit& u = s.units[unit];
  u.move_done = true;
  u.moves_left = 0;
  s.active_unit = -1;
  unit_stopped(s, unit, ev);
}

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

using namespace detail;

std::optional<std::string> options_problem(const Options& o) {
  if (o.players < 2 || o.players > kMaxPlayers) return "a game has 2 to 6 players";
  if (o.victory.bits() == 0 || (o.victory.bits() >> kVictoryConditions) != 0) {
    return "choose at least one victory condition [5.0]";
  }
  if (o.victory.has(VictoryCondition::kSubjugation) && !o.subjugation) {
    return "Subjugation Conquest [5.2] needs the Subjugation rules [15.6]";
  }
  if (o.independent_exploration && o.exploration_balancing) {
    // The Exploration Balancing decision itself would tell the others that at least two
    // water hexes came up where they cannot see (docs/rules-notes.md).
    return "Exploration Balancing [15.3] cannot be combined with independent exploration";
  }
  return std::nullopt;
}

Options normalized(Options o) {
  if (o.victory.has(VictoryCondition::kSubjugation)) o.subjugation = true;  // [5.2] -> [15.6]
  return o;
}

GameState new_game(const Options& requested, std::uint64_t seed) {
  const Options options = normalized(requested);
  if (auto problem = options_problem(options)) throw std::invalid_argument(*problem);
  GameState s;
  s.options = options;
  s.radius = board_radius_for_players(options.players);
  const Board& b = s.board();
  s.hexes.assign(static_cast<std::size_t>(b.size()), HexCell{});
  int interior = 0;
  for (int h = 0; h < b.size(); ++h) {
    if (b.is_perimeter(h)) {
      s.hexes[h].terrain = Terrain::kWater;
      s.hexes[h].revealed = true;
      s.hexes[h].known_by = (1 << kMaxPlayers) - 1;
    } else {
      ++interior;
    }
  }
  s.tile_bank = tile_bank_for(options.tile_mix, interior);
  s.players.assign(static_cast<std::size_t>(options.players), PlayerState{});
  s.turn_order.resize(static_cast<std::size_t>(options.players));
  for (int p = 0; p < options.players; ++p) s.turn_order[static_cast<std::size_t>(p)] = p;
  s.rng = Rng(seed);
  // [15.2] Random seating and start corners; drawn only under this rule, so that games
  // without it use the generator exactly as before.
  if (options.no_exploration) draw_seating(s);
  s.first_player =
      static_cast<int>(s.rng.below(static_cast<std::uint64_t>(options.players)));  // [4.0 step 1]
  if (options.no_exploration) lay_map_face_up(s);                                  // [15.2]
  Events ignored;
  begin_setup(s, s.first_player, ignored);
  return s;
}

int decider(const GameState& s) {
  if (s.phase == Phase::kGameOver) return kNoPlayer;
  if (s.elimination) return s.elimination->player;
  if (s.bombard) return s.bombard->picks_by_firer > 0 ? s.bombard->firer : s.bombard->target;
  if (s.battle) {
    const Battle& b = *s.battle;
    switch (b.stage) {
      case BattleStage::kAssignPreFire:
      case BattleStage::kAssignAttackerFire:
        return b.picks_by_firer > 0 ? b.attacker : b.defender;
      case BattleStage::kAssignDefenderFire:
        return b.picks_by_firer > 0 ? b.defender : b.attacker;
      case BattleStage::kRetreatOption:
      case BattleStage::kRetreating:
      case BattleStage::kAverageAttackerFire:
        return b.attacker;
      case BattleStage::kAverageDefenderFire:
        return b.defender;
    }
  }
  if (s.balance) return s.balance->player;
  if (s.capital_return) {
    return s.capital_return->stage == ReturnStage::kReinforce ? s.capital_return->vassal
                                                              : s.capital_return->ruler;
  }
  if (s.relocation) return s.relocation->player;
  return s.current;
}

namespace {

std::string_view phase_words(Phase p) {
  switch (p) {
    case Phase::kSetup:
      return "the setup";
    case Phase::kBuild:
      return "the Building Phase";
    case Phase::kMovement:
      return "the Movement & Combat Phase";
    case Phase::kReserve:
      return "the Reserve Placement Phase";
    case Phase::kGameOver:
      return "a finished game";
  }
  return "this phase";
}

Check wrong_phase(const GameState& s, const Action& a) {
  // Built in steps: g++ 12 reports a false -Wrestrict on one long chain of + here.
  std::string message = "'";
  message += to_string(a.kind);
  message += "' is not possible during ";
  message += phase_words(s.phase);
  message += " [6.0].";
  return error("wrong_phase", std::move(message));
}

}  // namespace

std::optional<ActionError> check_action(const GameState& s, const Action& a) {
  if (s.phase == Phase::kGameOver) return error("game_over", "The game is over.");
  if (a.player < 0 || a.player >= static_cast<int>(s.players.size())) {
    return error("bad_player", "No such player in this game.");
  }
  if (!s.players[a.player].in_game()) {
    return error("not_in_game", "You are no longer in this game.");
  }
  if (a.kind == ActionKind::kConcede) return std::nullopt;  // [5.1] at any time
  if (a.player != decider(s)) {
    return error("not_your_decision", "It is not your decision now; player " +
                                          std::to_string(decider(s)) + " must act.");
  }
  auto only = [&](std::initializer_list<ActionKind> kinds, const char* what) -> Check {
    if (std::find(kinds.begin(), kinds.end(), a.kind) == kinds.end()) {
      return error("decision_pending", std::string("First ") + what + ".");
    }
    return std::nullopt;
  };
  if (s.elimination) {
    if (auto e = only({ActionKind::kEliminateUnit}, "choose the units to eliminate [10.2]"))
      return e;
    return check_eliminate(s, a);
  }
  if (s.bombard || (s.battle && (s.battle->stage == BattleStage::kAssignPreFire ||
                                 s.battle->stage == BattleStage::kAssignAttackerFire ||
                                 s.battle->stage == BattleStage::kAssignDefenderFire))) {
    if (auto e = only({ActionKind::kChooseCasualty}, "choose who takes the hits [10.1]")) return e;
    return check_choose_casualty(s, a);
  }
  if (s.battle && (s.battle->stage == BattleStage::kAverageAttackerFire ||
                   s.battle->stage == BattleStage::kAverageDefenderFire)) {
    if (auto e =
            only({ActionKind::kAverageDice}, "decide how many pairs of dice to average [15.4]")) {
      return e;
    }
    return check_average_dice(s, a);
  }
  if (s.battle) {
    if (auto e = only({ActionKind::kRetreat, ActionKind::kContinueBattle},
                      "decide whether to retreat or fight on [12.3]")) {
      return e;
    }
    return a.kind == ActionKind::kRetreat ? check_retreat(s, a) : check_continue_battle(s, a);
  }
  if (s.balance) {
    if (auto e = only({ActionKind::kReplaceWater, ActionKind::kKeepWater},
                      "decide which water hex the land tile replaces, or keep the water [15.3]")) {
      return e;
    }
    return a.kind == ActionKind::kReplaceWater ? check_replace_water(s, a) : std::nullopt;
  }
  if (s.capital_return) {
    if (s.capital_return->stage == ReturnStage::kWithdraw) {
      if (auto e = only({ActionKind::kWithdraw},
                        "move your units out of your new Vassal's Capital [15.62]")) {
        return e;
      }
      return check_withdraw(s, a);
    }
    if (auto e = only({ActionKind::kPlaceReserve, ActionKind::kEndPhase},
                      "reinforce your Capital, or end the reinforcement [15.62]")) {
      return e;
    }
    return a.kind == ActionKind::kPlaceReserve ? check_reinforcement(s, a) : std::nullopt;
  }
  if (s.relocation) {
    if (auto e = only({ActionKind::kRebuildTown},
                      "rebuild the removed Town or City next to where it stood [15.5]")) {
      return e;
    }
    return check_rebuild_town(s, a);
  }
  switch (a.kind) {
    case ActionKind::kPlaceCapital:
      return s.phase == Phase::kSetup ? check_place_capital(s, a) : wrong_phase(s, a);
    case ActionKind::kBuildTown:
      return s.phase == Phase::kBuild ? check_build_town(s, a) : wrong_phase(s, a);
    case ActionKind::kUpgradeCity:
      return s.phase == Phase::kBuild ? check_upgrade_city(s, a) : wrong_phase(s, a);
    case ActionKind::kEndPhase:
      return check_end_phase(s, a);
    case ActionKind::kMove:
      return s.phase == Phase::kMovement ? check_move(s, a) : wrong_phase(s, a);
    case ActionKind::kEmbark:
      return s.phase == Phase::kMovement ? check_embark(s, a) : wrong_phase(s, a);
    case ActionKind::kDisembark:
      return s.phase == Phase::kMovement ? check_disembark(s, a) : wrong_phase(s, a);
    case ActionKind::kBombard:
      return s.phase == Phase::kMovement ? check_bombard(s, a) : wrong_phase(s, a);
    case ActionKind::kStartBattle:
      return s.phase == Phase::kMovement ? check_start_battle(s, a) : wrong_phase(s, a);
    case ActionKind::kPlaceReserve:
      return s.phase == Phase::kReserve ? check_place_reserve(s, a) : wrong_phase(s, a);
    case ActionKind::kChooseCasualty:
      return error("no_hits_pending", "There are no hits to assign now.");
    case ActionKind::kRetreat:
    case ActionKind::kContinueBattle:
      return error("no_battle", "No Battle is waiting for a retreat decision.");
    case ActionKind::kEliminateUnit:
      return error("no_elimination", "No units are owed for a lost Town or City.");
    case ActionKind::kReplaceWater:
    case ActionKind::kKeepWater:
      return error("no_balancing", "No Exploration Balancing choice is open [15.3].");
    case ActionKind::kAverageDice:
      return error("no_averaging", "No Fire Round is waiting for a Luck Averaging choice [15.4].");
    case ActionKind::kRemoveTown:
      return s.phase == Phase::kBuild ? check_remove_town(s, a) : wrong_phase(s, a);
    case ActionKind::kRebuildTown:
      return error("no_relocation", "No Town or City is waiting to be rebuilt [15.5].");
    case ActionKind::kWithdraw:
      return error("no_withdrawal", "No Capital is being returned to a Vassal [15.62].");
    case ActionKind::kConcede:
      break;
  }
  return error("unknown_action", "Unknown action.");
}

std::optional<ActionError> apply_in_place(GameState& s, const Action& a, std::vector<Event>* out) {
  if (auto e = check_action(s, a)) return e;
  Events ev;
  if (a.kind == ActionKind::kConcede) {
    do_concede(s, a.player, ev);
  } else {
    switch (a.kind) {
      case ActionKind::kPlaceCapital:
        do_place_capital(s, a, ev);
        break;
      case ActionKind::kBuildTown:
        do_build_town(s, a, ev);
        break;
      case ActionKind::kUpgradeCity:
        do_upgrade_city(s, a, ev);
        break;
      case ActionKind::kEndPhase:
        if (s.capital_return) {
          end_reinforcement(s, ev);
        } else {
          do_end_phase(s, ev);
        }
        break;
      case ActionKind::kMove:
        do_move(s, a, ev);
        break;
      case ActionKind::kEmbark:
        do_embark(s, a, ev);
        break;
      case ActionKind::kDisembark:
        do_disembark(s, a, ev);
        break;
      case ActionKind::kBombard:
        do_bombard(s, a, ev);
        break;
      case ActionKind::kStartBattle:
        do_start_battle(s, a, ev);
        break;
      case ActionKind::kChooseCasualty:
        do_choose_casualty(s, a, ev);
        break;
      case ActionKind::kRetreat:
        do_retreat(s, a, ev);
        break;
      case ActionKind::kContinueBattle:
        do_continue_battle(s, a, ev);
        break;
      case ActionKind::kEliminateUnit:
        do_eliminate(s, a, ev);
        break;
      case ActionKind::kPlaceReserve:
        if (s.capital_return) {
          do_reinforce(s, a, ev);
        } else {
          do_place_reserve(s, a, ev);
        }
        break;
      case ActionKind::kReplaceWater:
        do_replace_water(s, a, ev);
        break;
      case ActionKind::kKeepWater:
        do_keep_water(s, a, ev);
        break;
      case ActionKind::kAverageDice:
        do_average_dice(s, a, ev);
        break;
      case ActionKind::kRemoveTown:
        do_remove_town(s, a, ev);
        break;
      case ActionKind::kRebuildTown:
        do_rebuild_town(s, a, ev);
        break;
      case ActionKind::kWithdraw:
        do_withdraw(s, a, ev);
        break;
      case ActionKind::kConcede:
        break;
    }
  }
  settle(s, ev);
  ++s.action_count;
  if (out) out->insert(out->end(), ev.begin(), ev.end());
  return std::nullopt;
}

ApplyResult apply(const GameState& state, const Action& action) {
  ApplyResult r{state, {}, std::nullopt};
  r.error = apply_in_place(r.state, action, &r.events);
  return r;
}

bool seals_turn(const std::vector<Event>& events) {
  return std::any_of(events.begin(), events.end(), [](const Event& e) {
    return e.kind == EventKind::kTileRevealed || e.kind == EventKind::kDiceRolled;
  });
}

int victory_points(const GameState& s, int player) {
  int vp = 0;
  for (const HexCell& c : s.hexes) {
    if (c.town_owner == player) vp += c.city ? 2 : 1;
  }
  return vp;
}

std::vector<int> pending_battles(const GameState& s) {
  std::vector<int> out;
  if (s.phase != Phase::kMovement) return out;
  for (const Unit& u : s.units) {
    if (u.place != UnitPlace::kMap || u.carrier >= 0 || u.owner != s.current) continue;
    // A Ruler's unit passing over his Vassal's pieces attacks them if it stops there
    // [15.64]: start_battle (or stopping it by acting with another unit) does that. A unit
    // that is not moving has stopped: one that had moved in to attack a player who became its
    // owner's Vassal before that Battle was fought (his Capital fell in another Battle) still
    // owes it, "an immediate Battle ensues" [15.64] (docs/rules-notes.md).
    const int ally = allied_owner_at(s, u.owner, u.hex);
    const bool on_own_vassal = ally != kNoPlayer && s.players[ally].ruler == u.owner;
    const bool stopping_on_vassal =
        u.id == s.active_unit ? may_attack_ally_at(s, u.owner, u.hex) : on_own_vassal;
    if (!hostile_hex(s, s.current, u.hex) && !stopping_on_vassal) continue;
    if (std::find(out.begin(), out.end(), u.hex) == out.end()) out.push_back(u.hex);
  }
  if (s.battle) out.erase(std::remove(out.begin(), out.end(), s.battle->hex), out.end());
  if (s.capital_return) {  // the Ruler's units are leaving that Capital [15.62]
    out.erase(std::remove(out.begin(), out.end(), s.capital_return->hex), out.end());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace viktory
