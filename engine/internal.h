// Helpers shared by the engine's source files. Not part of the public API.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "action.h"
#include "event.h"
#include "game.h"
#include "state.h"

namespace viktory::detail {

using Events = std::vector<Event>;
using Check = std::optional<ActionError>;

inline ActionError error(std::string code, std::string message) {
  return ActionError{std::move(code), std::move(message)};
}

inline int bit(int player) { return 1 << player; }

// Whether `player` knows the terrain of `hex` (kSpectator: whether anyone does).
bool knows(const GameState& s, int player, int hex);
// Known to `player` and land / water.
bool known_land(const GameState& s, int player, int hex);
bool known_water(const GameState& s, int player, int hex);

// Turns the tile face up for `by` (drawing it from the bank if it has no terrain yet) [3.2].
void reveal(GameState& s, int hex, int by, Events& ev);
void reveal_neighbors(GameState& s, int hex, int by, Events& ev);

// One die: the scripted dice first (tests and scenarios), then the generator.
int roll_die(GameState& s);
std::vector<int> roll_dice(GameState& s, int count, int roller, int hex, RollPurpose purpose,
                           Events& ev);

int movement_allowance(UnitType t);

// Military units standing in a hex (cargo excluded), optionally of one owner.
std::vector<int> units_at(const GameState& s, int hex);
std::vector<int> units_of_at(const GameState& s, int player, int hex);
std::vector<int> cargo_of(const GameState& s, int frigate);
bool enemy_units_at(const GameState& s, int player, int hex);
bool enemy_town_at(const GameState& s, int player, int hex);
// A hex where `player` would have to fight: enemy units, or an enemy Town/City.
bool hostile_hex(const GameState& s, int player, int hex);
int enemy_owner_at(const GameState& s, int player, int hex);  // kNoPlayer if none
bool owns_town(const GameState& s, int player, int hex);
bool holds_own_capital(const GameState& s, int player);

// Gains a unit into the Reserve [7.4, 10.3].
int gain_unit(GameState& s, int player, UnitType type, Events& ev);
// Sends a unit (and its cargo) to its owner's Reserve [10.2, 9.45].
void lose_unit(GameState& s, int unit, Events& ev);
// Returns a unit to stock [10.2]; its cargo goes to the Reserve.
void eliminate_unit(GameState& s, int unit, Events& ev);

// An error while a Frigate passing through a port (other than `acting_unit`) has not sailed
// out yet: nothing else may happen until it does [9.32]. Pass -1 for actions of no unit.
Check port_blocks(const GameState& s, int acting_unit);

// Ends the movement of the unit currently moving, if any [9.0 Procedure].
void finish_active_unit(GameState& s);

// Flow.
void begin_setup(GameState& s, int player, Events& ev);
void begin_turn(GameState& s, int player, Events& ev);
void finish_turn(GameState& s, Events& ev);
void enter_reserve_phase(GameState& s, Events& ev);
void settle(GameState& s, Events& ev);
int next_in_game(const GameState& s, int after);
void end_game(GameState& s, std::vector<int> winners, VictoryCondition by, Events& ev);
std::vector<int> highest_scores(const GameState& s, int excluded);

// Per-action checks and effects (validation never mutates; effects assume a passed check).
Check check_place_capital(const GameState& s, const Action& a);
void do_place_capital(GameState& s, const Action& a, Events& ev);
Check check_build_town(const GameState& s, const Action& a);
void do_build_town(GameState& s, const Action& a, Events& ev);
Check check_upgrade_city(const GameState& s, const Action& a);
void do_upgrade_city(GameState& s, const Action& a, Events& ev);
Check check_move(const GameState& s, const Action& a);
void do_move(GameState& s, const Action& a, Events& ev);
Check check_embark(const GameState& s, const Action& a);
void do_embark(GameState& s, const Action& a, Events& ev);
Check check_disembark(const GameState& s, const Action& a);
void do_disembark(GameState& s, const Action& a, Events& ev);
Check check_bombard(const GameState& s, const Action& a);
void do_bombard(GameState& s, const Action& a, Events& ev);
Check check_start_battle(const GameState& s, const Action& a);
void do_start_battle(GameState& s, const Action& a, Events& ev);
Check check_choose_casualty(const GameState& s, const Action& a);
void do_choose_casualty(GameState& s, const Action& a, Events& ev);
Check check_retreat(const GameState& s, const Action& a);
void do_retreat(GameState& s, const Action& a, Events& ev);
Check check_continue_battle(const GameState& s, const Action& a);
void do_continue_battle(GameState& s, const Action& a, Events& ev);
Check check_eliminate(const GameState& s, const Action& a);
void do_eliminate(GameState& s, const Action& a, Events& ev);
Check check_place_reserve(const GameState& s, const Action& a);
void do_place_reserve(GameState& s, const Action& a, Events& ev);
void do_concede(GameState& s, int player, Events& ev);

// Combat internals used by the flow.
void start_battle(GameState& s, int hex, int attacker, int defender, bool placement, Events& ev);
void advance_battle(GameState& s, Events& ev);
// Units that may receive the next hit of the pending bombard or battle fire.
std::vector<int> hit_candidates(const GameState& s);
bool can_retreat_all(const GameState& s);
std::vector<int> retreat_destinations(const GameState& s, int unit);
std::vector<int> elimination_candidates(const GameState& s);
bool road_connected(const GameState& s, int player, int from, int to);
bool line_of_sight(const GameState& s, int player, int from, int to);
std::vector<int> frigate_spots_for_forest_city(const GameState& s, int city_hex);

}  // namespace viktory::detail
