// Combat [10.0-12.0]: hits and who chooses them, Bombard Attacks, Battles, retreats,
// conquest and the economic exchange.
#include <algorithm>

#include "internal.h"

namespace viktory::detail {
namespace {

// Two units are interchangeable as a casualty when nothing but their id tells them apart.
bool interchangeable(const GameState& s, int a, int b) {
  const Unit& x = s.units[a];
  const Unit& y = s.units[b];
  if (x.owner != y.owner || x.type != y.type || x.place != y.place) return false;
  if (x.place == UnitPlace::kReserve) return true;
  if (x.hex != y.hex || x.carrier != y.carrier) return false;
  if (x.type == UnitType::kFrigate) return cargo_of(s, a).empty() && cargo_of(s, b).empty();
  return true;
}

bool all_interchangeable(const GameState& s, const std::vector<int>& units) {
  return std::all_of(units.begin(), units.end(),
                     [&](int u) { return interchangeable(s, units.front(), u); });
}

int* picks_by_firer(GameState& s) {
  return s.bombard ? &s.bombard->picks_by_firer : &s.battle->picks_by_firer;
}
int* picks_by_target(GameState& s) {
  return s.bombard ? &s.bombard->picks_by_target : &s.battle->picks_by_target;
}

void hit_unit(GameState& s, int unit, bool chosen_by_firer, Events& ev) {
  Event e = make_event(EventKind::kUnitHit);
  e.player = s.units[unit].owner;
  e.unit = unit;
  e.unit_type = s.units[unit].type;
  e.hex = s.units[unit].hex;
  e.value = chosen_by_firer ? 1 : 0;
  ev.push_back(e);
  // Bombardment and pre-battle fire casualties go straight to the Reserve [11.0, 12.3 step 0];
  // fire-round casualties are only noted, they fire back first [12.3 step 1].
  if (s.bombard || s.battle->stage == BattleStage::kAssignPreFire) {
    lose_unit(s, unit, ev);
  } else {
    s.battle->marked.push_back(unit);
  }
}

// Assigns every hit whose target does not matter; stops where a player must choose [10.1].
void auto_assign(GameState& s, Events& ev) {
  while (true) {
    int* by_firer = picks_by_firer(s);
    int* by_target = picks_by_target(s);
    if (*by_firer + *by_target == 0) return;
    const auto candidates = hit_candidates(s);
    if (candidates.empty()) {
      *by_firer = *by_target = 0;
      return;
    }
    if (*by_firer + *by_target >= static_cast<int>(candidates.size())) {
      const bool firer = *by_firer > 0;
      *by_firer = *by_target = 0;
      for (int u : candidates) hit_unit(s, u, firer, ev);
      return;
    }
    if (!all_interchangeable(s, candidates)) return;
    const bool firer = *by_firer > 0;
    (firer ? *by_firer : *by_target) -= 1;
    hit_unit(s, candidates.front(), firer, ev);
  }
}

void set_picks(int* by_firer, int* by_target, const std::vector<int>& dice, int targets,
               int averaged_pairs = 0) {
  // [10.1] Each roll of 3 or less hits; for each '1' the firer picks the loss, then the target
  // picks his own losses for each '2' or '3'. An averaged pair is a hit of the target's
  // choice, as a '3' and a '4' would be [15.4].
  const int ones = static_cast<int>(std::count(dice.begin(), dice.end(), 1));
  const int others =
      averaged_pairs + static_cast<int>(std::count_if(dice.begin(), dice.end(),
                                                      [](int d) { return d == 2 || d == 3; }));
  *by_firer = std::min(ones, targets);
  *by_target = std::min(others, targets - *by_firer);
}

void announce_averaging(GameState&, int firer, int hex, const FireDice& fire, Events& ev) {
  Event e = make_event(EventKind::kDiceAveraged);
  e.player = firer;
  e.hex = hex;
  e.value = fire.averaged_pairs;
  e.fire = fire;
  ev.push_back(e);
}

int hits_in(const std::vector<int>& dice) {
  return static_cast<int>(std::count_if(dice.begin(), dice.end(), [](int d) { return d <= 3; }));
}

std::vector<int> retreat_hexes(const GameState& s) {
  std::vector<int> out;
  for (const BattleEntry& e : s.entries) {
    if (e.battle_hex == s.battle->hex &&
        std::find(out.begin(), out.end(), e.from_hex) == out.end()) {
      out.push_back(e.from_hex);
    }
  }
  return out;
}

// [9.41] A Frigate carries 3 land units at once and 3 *different* ones a turn: a unit it
// landed in the Battle hex that climbs back aboard in a retreat [12.3 step 3] is no new unit,
// so only the at-once limit applies to it.
bool landed_by(const GameState& s, int land, int frigate) {
  return s.units[land].transported && s.units[frigate].disembark_hex == s.units[land].hex;
}

bool may_board(const GameState& s, int land, int frigate) {
  if (static_cast<int>(cargo_of(s, frigate).size()) >= kFrigateCapacity) return false;
  return landed_by(s, land, frigate) || s.units[frigate].carried_this_turn < kFrigateCapacity;
}

// The Frigate in `hex` a retreating land unit boards, or -1: preferably the one that landed it.
int boarding_frigate(const GameState& s, int land, int hex) {
  int chosen = -1;
  for (int f : units_of_at(s, s.units[land].owner, hex)) {
    if (s.units[f].type != UnitType::kFrigate || !may_board(s, land, f)) continue;
    if (chosen < 0 || (landed_by(s, land, f) && !landed_by(s, land, chosen))) chosen = f;
  }
  return chosen;
}

// Places aboard the player's Frigates in `hex` for the attackers retreating from the Battle.
int frigate_room(const GameState& s, int player, int hex) {
  int room = 0;
  for (int f : units_of_at(s, player, hex)) {
    const Unit& u = s.units[f];
    if (u.type != UnitType::kFrigate) continue;
    int new_units = kFrigateCapacity - u.carried_this_turn;
    for (int a : units_of_at(s, player, s.battle->hex)) new_units += landed_by(s, a, f) ? 1 : 0;
    room += std::max(
        0, std::min(kFrigateCapacity - static_cast<int>(cargo_of(s, f).size()), new_units));
  }
  return room;
}

void capture(GameState& s, int hex, int attacker, int defender, Events& ev);

void conclude(GameState& s, bool attacker_won, Events& ev) {
  const Battle b = *s.battle;
  s.battle.reset();
  Event e = make_event(EventKind::kBattleEnded);
  e.hex = b.hex;
  e.player = attacker_won ? b.attacker : kNoPlayer;
  e.other_player = attacker_won ? b.defender : b.attacker;
  ev.push_back(e);
  // [12.3 step 4] The attacker takes any Town or City there.
  if (attacker_won && s.hexes[b.hex].town_owner == b.defender)
    capture(s, b.hex, b.attacker, b.defender, ev);
}

}  // namespace

void auto_eliminate(GameState& s, Events& ev) {
  PendingElimination& pe = *s.elimination;
  bool progress = true;
  while (progress && !pe.owed.empty()) {
    progress = false;
    for (std::size_t i = 0; i < pe.owed.size(); ++i) {
      std::vector<int> candidates;
      for (const Unit& u : s.units) {
        if (u.owner == pe.player && u.type == pe.owed[i] && u.place != UnitPlace::kStock) {
          candidates.push_back(u.id);
        }
      }
      if (!candidates.empty() && !all_interchangeable(s, candidates)) continue;  // his choice
      if (!candidates.empty()) eliminate_unit(s, candidates.front(), ev);
      pe.owed.erase(pe.owed.begin() + static_cast<std::ptrdiff_t>(i));
      progress = true;
      break;
    }
  }
  if (pe.owed.empty()) s.elimination.reset();
}

namespace {

void capture(GameState& s, int hex, int attacker, int defender, Events& ev) {
  HexCell& c = s.hexes[hex];
  if (subjugation_rules(s.options) && c.capital_of == defender) {
    // [15.6] The Capital is not taken over [14.0]: its owner becomes the captor's Vassal and
    // keeps it; no units change hands. It still counts as a captured Capital [5.3] (and
    // City [5.5]).
    Event lost = make_event(EventKind::kCapitalLost);
    lost.player = defender;
    lost.other_player = attacker;
    lost.hex = hex;
    ev.push_back(lost);
    if (s.capital_loser == kNoPlayer) s.capital_loser = defender;  // [5.3]
    if (c.city && !s.doomsday_started && s.options.victory.has(VictoryCondition::kDoomsday)) {
      s.doomsday_started = true;  // [5.5]
      Event d = make_event(EventKind::kDoomsdayStarted);
      d.hex = hex;
      ev.push_back(d);
    }
    subjugate(s, attacker, defender, hex, ev);
    return;
  }
  c.town_owner = attacker;
  Event e = make_event(EventKind::kTownCaptured);
  e.player = attacker;
  e.other_player = defender;
  e.hex = hex;
  e.value = c.city ? 1 : 0;
  ev.push_back(e);
  if (c.capital_of == defender) {  // [14.0]
    Event lost = make_event(EventKind::kCapitalLost);
    lost.player = defender;
    lost.other_player = attacker;
    lost.hex = hex;
    ev.push_back(lost);
  } else if (c.capital_of == attacker) {
    Event back = make_event(EventKind::kCapitalRetaken);
    back.player = attacker;
    back.hex = hex;
    ev.push_back(back);
  }
  if (c.capital_of != kNoPlayer && c.capital_of != attacker && s.capital_loser == kNoPlayer) {
    s.capital_loser = defender;  // [5.3]
  }
  if (c.city && !s.doomsday_started && s.options.victory.has(VictoryCondition::kDoomsday)) {
    s.doomsday_started = true;  // [5.5]
    Event d = make_event(EventKind::kDoomsdayStarted);
    d.hex = hex;
    ev.push_back(d);
  }
  // [10.2, 10.3] The loser eliminates the units the Town/City supported; the winner gains them.
  std::vector<UnitType> owed{UnitType::kInfantry};
  if (c.city) owed.push_back(city_unit_for(c.terrain));
  for (UnitType t : owed) gain_unit(s, attacker, t, ev);
  s.elimination = PendingElimination{defender, owed};
  auto_eliminate(s, ev);
}

UnitCounts counts_of(const GameState& s, const std::vector<int>& units) {
  UnitCounts counts{};
  for (int u : units) ++counts[static_cast<std::size_t>(s.units[u].type)];
  return counts;
}

Defences defences_of(const GameState& s, const Battle& b) {
  Defences d;
  const HexCell& c = s.hexes[b.hex];
  d.terrain = c.terrain;
  d.town = c.town_owner == b.defender;
  // A player without his Capital has Cities that act as Towns [14.0].
  d.full_city = d.town && c.city && holds_own_capital(s, b.defender);
  // [12.3 step 2, 12.32, 12.33] Naval Support: a defending Frigate next to the hex (which
  // always holds defending land units or his Town/City, or there is no Battle).
  for (int n : s.board().neighbors(b.hex)) {
    if (n == Board::kNoHex) continue;
    for (int f : units_of_at(s, b.defender, n)) {
      d.naval_support = d.naval_support || s.units[f].type == UnitType::kFrigate;
    }
  }
  d.terrain_leveling = s.options.terrain_leveling;  // [15.1]
  return d;
}

FireDice attacker_fire_of(const GameState& s, const Battle& b) {
  return attacker_fire_dice(b.naval, counts_of(s, units_of_at(s, b.attacker, b.hex)));
}

FireDice defender_fire_of(const GameState& s, const Battle& b) {
  // Hit defenders still fire back [12.3 step 1].
  return defender_fire_dice(b.naval, counts_of(s, units_of_at(s, b.defender, b.hex)),
                            defences_of(s, b), b.suppression);
}

// The attacker's Fire Round with `pairs` pairs of his dice averaged [12.3 step 1, 15.4].
void roll_attacker_fire(GameState& s, int pairs, Events& ev) {
  Battle& b = *s.battle;
  FireDice fire = attacker_fire_of(s, b);
  fire.averaged_pairs = pairs;
  b.stage = BattleStage::kAssignAttackerFire;
  b.dice_due = 0;
  b.attacker_pairs = pairs;
  if (pairs > 0) announce_averaging(s, b.attacker, b.hex, fire, ev);
  b.attacker_dice =
      roll_dice(s, fire.rolled(), b.attacker, b.hex, RollPurpose::kAttackerFire, ev, &fire);
  const int targets = static_cast<int>(units_of_at(s, b.defender, b.hex).size());
  b.suppression = std::max(0, hits_in(b.attacker_dice) + pairs - targets);  // [12.31]
  set_picks(&b.picks_by_firer, &b.picks_by_target, b.attacker_dice, targets, pairs);
  auto_assign(s, ev);
}

void roll_defender_fire(GameState& s, int pairs, Events& ev) {
  Battle& b = *s.battle;
  FireDice fire = defender_fire_of(s, b);
  fire.averaged_pairs = pairs;
  b.stage = BattleStage::kAssignDefenderFire;
  b.dice_due = 0;
  b.defender_pairs = pairs;
  if (pairs > 0) announce_averaging(s, b.defender, b.hex, fire, ev);
  b.defender_dice =
      roll_dice(s, fire.rolled(), b.defender, b.hex, RollPurpose::kDefenderFire, ev, &fire);
  const auto attackers = units_of_at(s, b.attacker, b.hex);
  set_picks(&b.picks_by_firer, &b.picks_by_target, b.defender_dice,
            static_cast<int>(attackers.size()), pairs);
  auto_assign(s, ev);
}

void attacker_fire(GameState& s, Events& ev) {
  Battle& b = *s.battle;
  ++b.round;
  b.marked.clear();
  b.suppression = 0;
  b.attacker_dice.clear();
  b.defender_dice.clear();
  b.attacker_pairs = 0;
  b.defender_pairs = 0;
  b.stage = BattleStage::kAssignAttackerFire;
  const auto defenders = units_of_at(s, b.defender, b.hex);
  if (defenders.empty()) return;  // an empty Town/City: only its defences fire [12.3 step 2]
  const int dice = attacker_fire_of(s, b).entitled();
  if (s.options.luck_averaging && max_averaged_pairs(dice) > 0) {
    b.stage = BattleStage::kAverageAttackerFire;  // his choice before rolling [15.4]
    b.dice_due = dice;
    return;
  }
  roll_attacker_fire(s, 0, ev);
}

void defender_fire(GameState& s, Events& ev) {
  Battle& b = *s.battle;
  b.stage = BattleStage::kAssignDefenderFire;
  const int dice = defender_fire_of(s, b).entitled();
  if (s.options.luck_averaging && max_averaged_pairs(dice) > 0) {
    b.stage = BattleStage::kAverageDefenderFire;  // the defender's choice, out of turn [15.4]
    b.dice_due = dice;
    return;
  }
  roll_defender_fire(s, 0, ev);
}

}  // namespace

std::vector<int> hit_candidates(const GameState& s) {
  if (s.bombard) return units_of_at(s, s.bombard->target, s.bombard->hex);
  if (!s.battle) return {};
  const Battle& b = *s.battle;
  const int side = b.stage == BattleStage::kAssignDefenderFire ? b.attacker : b.defender;
  auto units = units_of_at(s, side, b.hex);
  std::erase_if(units, [&](int u) {
    return std::find(b.marked.begin(), b.marked.end(), u) != b.marked.end();
  });
  return units;
}

std::vector<int> retreat_destinations(const GameState& s, int unit) {
  std::vector<int> out;
  const Unit& u = s.units[unit];
  for (int h : retreat_hexes(s)) {
    if (foreign_pieces_at(s, u.owner, h)) continue;  // enemy or Alliance pieces [15.64]
    const Terrain t = s.hexes[h].terrain;
    if (u.type == UnitType::kFrigate) {
      if (t == Terrain::kWater) out.push_back(h);
    } else if (is_land(t)) {
      out.push_back(h);
    } else if (t == Terrain::kWater && boarding_frigate(s, unit, h) >= 0) {
      out.push_back(h);  // land units retreat by boarding adjacent Frigates [12.3 step 3]
    }
  }
  return out;
}

bool can_retreat_all(const GameState& s) {
  const Battle& b = *s.battle;
  if (b.placement) return false;
  int needs_ship = 0;
  int room = 0;
  std::vector<int> counted;
  for (int u : units_of_at(s, b.attacker, b.hex)) {
    const auto dest = retreat_destinations(s, u);
    if (dest.empty()) return false;
    const bool by_land =
        std::any_of(dest.begin(), dest.end(), [&](int h) { return is_land(s.hexes[h].terrain); });
    if (is_land_unit(s.units[u].type) && !by_land) ++needs_ship;
    for (int h : dest) {
      if (s.hexes[h].terrain == Terrain::kWater &&
          std::find(counted.begin(), counted.end(), h) == counted.end()) {
        counted.push_back(h);
        room += frigate_room(s, b.attacker, h);
      }
    }
  }
  return needs_ship <= room;
}

std::vector<int> elimination_candidates(const GameState& s) {
  std::vector<int> out;
  if (!s.elimination) return out;
  for (const Unit& u : s.units) {
    if (u.owner != s.elimination->player || u.place == UnitPlace::kStock) continue;
    const auto& owed = s.elimination->owed;
    if (std::find(owed.begin(), owed.end(), u.type) != owed.end()) out.push_back(u.id);
  }
  return out;
}

int bombard_target(const GameState& s, int player, int hex) {
  const int enemy = enemy_owner_at(s, player, hex);
  if (enemy != kNoPlayer) return enemy;
  // A Ruler may Bombard his Vassal's units [15.64]; a Vassal may not fire at the Alliance.
  for (const Unit& u : s.units) {
    if (u.place == UnitPlace::kMap && u.hex == hex && u.carrier < 0 && allied(s, player, u.owner) &&
        s.players[u.owner].ruler == player) {
      return u.owner;
    }
  }
  return kNoPlayer;
}

bool line_of_sight(const GameState& s, int player, int from, int to) {
  const Board& b = s.board();
  const int d = b.distance(from, to);
  if (d <= 1) return true;
  // [11.2] Forest, Mountain and Town/City hexes block; at range two the bombarding player
  // chooses the path, so one clear hex between is enough (this covers the hexside case).
  // A hex whose terrain he does not know cannot be traced across.
  for (int c : b.common_neighbors(from, to)) {
    if (knows(s, player, c) && !rough_terrain(s, s.hexes[c].terrain) &&  // [15.1]
        s.hexes[c].town_owner == kNoPlayer) {
      return true;
    }
  }
  return false;
}

void start_battle(GameState& s, int hex, int attacker, int defender, bool placement, Events& ev) {
  Battle b;
  b.hex = hex;
  b.attacker = attacker;
  b.defender = defender;
  b.naval = s.hexes[hex].terrain == Terrain::kWater;
  b.placement = placement;
  b.stage = BattleStage::kAssignPreFire;
  s.battle = b;
  s.hexes[hex].battle_this_turn = true;  // [12.2]
  for (int u : units_of_at(s, attacker, hex)) {
    Unit& unit = s.units[u];
    unit.attacked = true;  // [10.6, 10.7]
    unit.move_done = true;
    unit.moves_left = 0;
  }
  Event e = make_event(EventKind::kBattleStarted);
  e.player = attacker;
  e.other_player = defender;
  e.hex = hex;
  ev.push_back(e);
  // [12.3 step 0] Pre-Battle Fire: one die per attacking Artillery; losses leave at once.
  const auto attackers = units_of_at(s, attacker, hex);
  const auto defenders = units_of_at(s, defender, hex);
  const FireDice pre_fire = pre_battle_fire_dice(counts_of(s, attackers));
  const int artillery = pre_fire.entitled();
  if (!b.naval && artillery > 0 && !defenders.empty()) {
    const auto dice =
        roll_dice(s, artillery, attacker, hex, RollPurpose::kPreBattleFire, ev, &pre_fire);
    s.battle->attacker_dice = dice;
    set_picks(&s.battle->picks_by_firer, &s.battle->picks_by_target, dice,
              static_cast<int>(defenders.size()));
    auto_assign(s, ev);
  }
  advance_battle(s, ev);
}

void advance_battle(GameState& s, Events& ev) {
  while (s.battle) {
    Battle& b = *s.battle;
    if (b.picks_by_firer + b.picks_by_target > 0) return;  // a player must choose
    switch (b.stage) {
      case BattleStage::kAssignPreFire: {
        const bool town = s.hexes[b.hex].town_owner == b.defender;
        if (units_of_at(s, b.defender, b.hex).empty() && !town) {
          conclude(s, true, ev);  // all defenders fell to pre-battle fire outside a Town
          return;
        }
        attacker_fire(s, ev);
        break;
      }
      case BattleStage::kAssignAttackerFire:
        defender_fire(s, ev);
        break;
      case BattleStage::kAssignDefenderFire: {
        // Remove Casualties: both sides at once [12.3 step 2].
        const auto marked = b.marked;
        b.marked.clear();
        for (int u : marked) lose_unit(s, u, ev);
        const bool attackers_left = !units_of_at(s, b.attacker, b.hex).empty();
        const bool defenders_left = !units_of_at(s, b.defender, b.hex).empty();
        if (!attackers_left) {
          conclude(s, false, ev);  // [12.3 step 4] the defender prevails (also if both fell)
          return;
        }
        if (!defenders_left) {
          conclude(s, true, ev);
          return;
        }
        if (!can_retreat_all(s)) {
          attacker_fire(s, ev);  // no way out: the Battle goes on
          break;
        }
        b.stage = BattleStage::kRetreatOption;
        return;
      }
      case BattleStage::kRetreatOption:
      case BattleStage::kRetreating:
      case BattleStage::kAverageAttackerFire:  // a player decides [12.3 step 3, 15.4]
      case BattleStage::kAverageDefenderFire:
        return;
    }
  }
}

Check check_average_dice(const GameState& s, const Action& a) {
  const int most = max_averaged_pairs(s.battle->dice_due);
  if (a.pairs < 0 || a.pairs > most) {
    return error("bad_pairs", "You may average from 0 to " + std::to_string(most) +
                                  " pairs of your " + std::to_string(s.battle->dice_due) +
                                  " dice; an odd die is always rolled [15.4].");
  }
  return std::nullopt;
}

void do_average_dice(GameState& s, const Action& a, Events& ev) {
  if (s.battle->stage == BattleStage::kAverageAttackerFire) {
    roll_attacker_fire(s, a.pairs, ev);
  } else {
    roll_defender_fire(s, a.pairs, ev);
  }
  advance_battle(s, ev);
}

Check check_start_battle(const GameState& s, const Action& a) {
  if (auto e = transit_blocks(s, -1)) return e;
  const auto pending = pending_battles(s);
  if (std::find(pending.begin(), pending.end(), a.hex) == pending.end()) {
    return error("no_battle_here", "You have no units facing an enemy in that hex [12.0].");
  }
  return std::nullopt;
}

void do_start_battle(GameState& s, const Action& a, Events& ev) {
  // A Ruler's unit stopping on his Vassal's pieces attacks him: that frees the Vassal first,
  // so he is the defender [15.64, 15.65].
  finish_active_unit(s, ev);
  const int ally = allied_owner_at(s, a.player, a.hex);
  if (ally != kNoPlayer) free_vassal(s, ally, AllianceEnd::kAttackedByRuler, ev);
  int defender = enemy_owner_at(s, a.player, a.hex);
  if (defender == kNoPlayer) defender = s.hexes[a.hex].town_owner;
  start_battle(s, a.hex, a.player, defender, false, ev);
}

Check check_choose_casualty(const GameState& s, const Action& a) {
  const auto candidates = hit_candidates(s);
  if (std::find(candidates.begin(), candidates.end(), a.unit) == candidates.end()) {
    return error("bad_casualty",
                 "That unit cannot take this hit; choose one of the units under fire [10.1].");
  }
  return std::nullopt;
}

void do_choose_casualty(GameState& s, const Action& a, Events& ev) {
  int* by_firer = picks_by_firer(s);
  const bool firer = *by_firer > 0;
  (firer ? *by_firer : *picks_by_target(s)) -= 1;
  hit_unit(s, a.unit, firer, ev);
  auto_assign(s, ev);
  if (s.bombard) {
    if (s.bombard->picks_by_firer + s.bombard->picks_by_target == 0) s.bombard.reset();
    return;
  }
  advance_battle(s, ev);
}

Check check_retreat(const GameState& s, const Action& a) {
  const Battle& b = *s.battle;
  if (a.unit < 0 || a.unit >= static_cast<int>(s.units.size()))
    return error("bad_unit", "No such unit.");
  const auto mine = units_of_at(s, b.attacker, b.hex);
  if (std::find(mine.begin(), mine.end(), a.unit) == mine.end()) {
    return error("not_in_battle", "Only your units in the Battle hex can retreat [12.3].");
  }
  if (b.stage == BattleStage::kRetreatOption && !can_retreat_all(s)) {
    return error("no_retreat", "Not all of your units have a hex to retreat to [12.3].");
  }
  const auto dest = retreat_destinations(s, a.unit);
  if (std::find(dest.begin(), dest.end(), a.hex) == dest.end()) {
    return error("bad_retreat",
                 "Retreats go only to adjacent hexes your attacking units entered from, land "
                 "units by land or aboard your Frigates [12.3].");
  }
  return std::nullopt;
}

void do_retreat(GameState& s, const Action& a, Events& ev) {
  Battle& b = *s.battle;
  b.stage = BattleStage::kRetreating;
  Unit& u = s.units[a.unit];
  const int from = u.hex;
  if (is_land_unit(u.type) && s.hexes[a.hex].terrain == Terrain::kWater) {
    const int ship = boarding_frigate(s, a.unit, a.hex);
    go_aboard(s, a.unit, ship, /*new_unit=*/!landed_by(s, a.unit, ship));
  }
  u.hex = a.hex;
  for (int c : cargo_of(s, a.unit)) s.units[c].hex = a.hex;  // cargo sails with its Frigate [9.45]
  Event e = make_event(EventKind::kUnitRetreated);
  e.player = u.owner;
  e.unit = a.unit;
  e.unit_type = u.type;
  e.from_hex = from;
  e.hex = a.hex;
  ev.push_back(e);
  if (units_of_at(s, b.attacker, b.hex).empty()) conclude(s, false, ev);
}

Check check_continue_battle(const GameState& s, const Action&) {
  if (s.battle->stage != BattleStage::kRetreatOption) {
    return error("retreat_started", "Once a retreat has begun every unit must leave [12.3].");
  }
  return std::nullopt;
}

void do_continue_battle(GameState& s, const Action&, Events& ev) {
  attacker_fire(s, ev);  // [12.3] another Battle Round
  advance_battle(s, ev);
}

Check check_bombard(const GameState& s, const Action& a) {
  if (a.unit < 0 || a.unit >= static_cast<int>(s.units.size()))
    return error("bad_unit", "No such unit.");
  const Unit& u = s.units[a.unit];
  const Board& b = s.board();
  if (u.owner != a.player || u.place != UnitPlace::kMap)
    return error("not_your_unit", "That unit is not yours on the map.");
  if (auto e = transit_blocks(s, a.unit)) return e;
  if (u.type != UnitType::kArtillery && u.type != UnitType::kFrigate) {
    return error("cannot_bombard", "Only Artillery and Frigates can Bombard [10.4].");
  }
  if (u.carrier >= 0) return error("cargo", "Cargo cannot Bombard [9.45].");
  if (u.attacked) return error("attacked", "A unit may make only one attack per turn [10.6].");
  if (u.type == UnitType::kArtillery && u.transported) {
    return error("transported", "Artillery transported this turn cannot Bombard [9.44].");
  }
  if (u.type == UnitType::kFrigate && is_land(s.hexes[u.hex].terrain)) {
    return error("in_port", "A Frigate cannot Bombard from a port [9.32].");
  }
  if (foreign_pieces_at(s, a.player, u.hex)) {
    return error("in_battle",
                 "A unit sharing its hex with another player's pieces cannot Bombard from there "
                 "[12.0, 15.64].");
  }
  if (!may_attack(s, a.player)) {
    return error("reorganization",
                 "You lost your Capital: you may not attack anybody on this Player Turn [15.63].");
  }
  if (a.hex < 0 || a.hex >= b.size()) return error("bad_hex", "No such hex.");
  const int d = b.distance(u.hex, a.hex);
  if (d < 1 || d > 2) return error("out_of_range", "Bombardment reaches one or two hexes [11.0].");
  if (!in_sight(s, a.player, a.hex)) {
    // Fog of war: one refusal for every hex he cannot see, whatever stands there [11.0].
    return error("unseen", "You cannot see into that hex (fog of war).");
  }
  if (bombard_target(s, a.player, a.hex) == kNoPlayer) {
    if (other_units_at(s, a.player, a.hex)) {
      return error("alliance_target", "A Vassal may not attack Alliance units [15.64].");
    }
    return error("no_target", "Bombard a hex holding enemy military units [11.0, 10.5].");
  }
  if (!line_of_sight(s, a.player, u.hex, a.hex)) {
    return error("blocked", "Forest, Mountain and Town/City hexes block the line of fire [11.2].");
  }
  return std::nullopt;
}

void do_bombard(GameState& s, const Action& a, Events& ev) {
  if (s.active_unit >= 0 && s.active_unit != a.unit) finish_active_unit(s, ev);
  Unit& u = s.units[a.unit];
  u.attacked = true;   // [10.6]
  u.move_done = true;  // [10.7]
  u.moves_left = 0;
  u.has_moved = true;
  if (s.active_unit == a.unit) s.active_unit = -1;
  Event e = make_event(EventKind::kBombarded);
  e.player = a.player;
  e.unit = a.unit;
  e.unit_type = u.type;
  e.from_hex = u.hex;
  e.hex = a.hex;
  ev.push_back(e);
  const int target = bombard_target(s, a.player, a.hex);
  // Bombarding his Vassal frees him [15.65 #1, "Stabbed in the Back"].
  if (allied(s, a.player, target)) free_vassal(s, target, AllianceEnd::kAttackedByRuler, ev);
  const auto dice = roll_dice(s, 1, a.player, a.hex, RollPurpose::kBombard, ev);  // one shot [11.0]
  s.bombard = PendingBombard{a.hex, a.player, target, 0, 0};
  set_picks(&s.bombard->picks_by_firer, &s.bombard->picks_by_target, dice,
            static_cast<int>(units_of_at(s, target, a.hex).size()));
  auto_assign(s, ev);
  if (s.bombard->picks_by_firer + s.bombard->picks_by_target == 0) s.bombard.reset();
}

Check check_eliminate(const GameState& s, const Action& a) {
  const auto candidates = elimination_candidates(s);
  if (std::find(candidates.begin(), candidates.end(), a.unit) == candidates.end()) {
    return error("bad_elimination",
                 "Choose one of your units of a type the lost Town/City supported [10.2].");
  }
  return std::nullopt;
}

void do_eliminate(GameState& s, const Action& a, Events& ev) {
  auto& owed = s.elimination->owed;
  owed.erase(std::find(owed.begin(), owed.end(), s.units[a.unit].type));
  eliminate_unit(s, a.unit, ev);
  auto_eliminate(s, ev);
}

}  // namespace viktory::detail
