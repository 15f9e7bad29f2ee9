// Helpers shared by the engine's source files. Not part of the public API.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "action.h"
#include "event.h"
#include "fire.h"
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

// Uniform in [0, n) from the game's generator: scheme 1's single stream, or `stream` under
// scheme 2 (docs/fair-play.md).
std::uint64_t draw_below(GameState& s, RandomStream stream, std::uint64_t n);
// Scheme 2: the number of the next value of `stream` (for the record); -1 under scheme 1.
std::int64_t next_draw(const GameState& s, RandomStream stream);
// Where tiles come from now: the setup stream inside new_game, the tiles stream after it.
RandomStream tile_stream(const GameState& s);

// A tile drawn at random from what is left of the bank [3.2].
Terrain draw_tile(GameState& s);
// Turns the tile face up for `by` (drawing it from the bank if it has no terrain yet) [3.2].
// True when the tile was face down until now (not merely new to `by`).
bool reveal(GameState& s, int hex, int by, Events& ev);
// Reveals the neighbours; returns those turned face up for the first time.
std::vector<int> reveal_neighbors(GameState& s, int hex, int by, Events& ev);

// One die: the scripted dice first (tests and scenarios), then the generator.
int roll_die(GameState& s);
// `fire`: a Battle's fire, whose breakdown goes into the event.
std::vector<int> roll_dice(GameState& s, int count, int roller, int hex, RollPurpose purpose,
                           Events& ev, const FireDice* fire = nullptr);

int movement_allowance(UnitType t);

// Military units standing in a hex (cargo excluded), optionally of one owner.
std::vector<int> units_at(const GameState& s, int hex);
std::vector<int> units_of_at(const GameState& s, int player, int hex);
std::vector<int> cargo_of(const GameState& s, int frigate);
// "Enemy" means another player outside one's Alliance [15.61]; without Subjugation [15.6]
// that is every other player.
bool enemy_units_at(const GameState& s, int player, int hex);
bool enemy_town_at(const GameState& s, int player, int hex);
// A hex where `player` would have to fight: enemy units, or an enemy Town/City.
bool hostile_hex(const GameState& s, int player, int hex);
int enemy_owner_at(const GameState& s, int player, int hex);  // kNoPlayer if none
// Units of any other player, Alliance members included [7.22].
bool other_units_at(const GameState& s, int player, int hex);
// Another player's units or Town/City, enemy or allied.
bool foreign_pieces_at(const GameState& s, int player, int hex);
bool owns_town(const GameState& s, int player, int hex);
// His own Town/City or an Alliance member's (roads, slow terrain [15.64]).
bool friendly_town(const GameState& s, int player, int hex);
bool holds_own_capital(const GameState& s, int player);

// --- Subjugation [15.6] ---
// a and b are different players of one Alliance (a Ruler and his Vassals).
bool allied(const GameState& s, int a, int b);
// The Alliance member whose units or Town/City stand in `hex`, or kNoPlayer.
int allied_owner_at(const GameState& s, int player, int hex);
// Not in his reorganization turn [15.63].
bool may_attack(const GameState& s, int player);
// `player` is the Ruler of the Alliance pieces in `hex` and may attack them there now (his
// unit stopping there would start that Battle) [15.64, 15.65].
bool may_attack_ally_at(const GameState& s, int player, int hex);
// The active unit stands on Alliance pieces it may not stop on: it must move on [15.64].
bool must_move_on(const GameState& s);
// A unit's movement ended where it stands: a Ruler stopping on his Vassal's pieces attacks
// him, which frees the Vassal [15.64, 15.65].
void unit_stopped(GameState& s, int unit, Events& ev);
void free_vassal(GameState& s, int vassal, AllianceEnd why, Events& ev);
// A player leaving the game (conceding, eliminated): his Vassals go free.
void leave_alliances(GameState& s, int player, Events& ev);
// `ruler` took `vassal`'s Capital at `hex` [15.61, 15.62].
void subjugate(GameState& s, int ruler, int vassal, int hex, Events& ev);
void advance_capital_return(GameState& s, Events& ev);
std::vector<int> withdraw_destinations(const GameState& s, int unit);
Check check_withdraw(const GameState& s, const Action& a);
void do_withdraw(GameState& s, const Action& a, Events& ev);
Check check_reinforcement(const GameState& s, const Action& a);
void do_reinforce(GameState& s, const Action& a, Events& ev);
void end_reinforcement(GameState& s, Events& ev);
// Frigate spots next to the capital [13.4], with the Alliance fallback [15.64].
std::vector<int> capital_frigate_spots(const GameState& s, int player);
bool alliance_frigate_at(const GameState& s, int player, int hex);

// --- seating [4.0, 3.3, 15.2] ---
int seat_position(const GameState& s, int player);  // index in turn_order = start group
int player_after(const GameState& s, int player);   // clockwise, in game or not
int player_before(const GameState& s, int player);
void draw_seating(GameState& s);  // [15.2] random turn order and start corners
// [15.2] lays the face-up map; `drawn` (if given) gets a kTileRevealed event per tile drawn.
void lay_map_face_up(GameState& s, Events* drawn);

// --- Exploration Balancing [15.3] ---
// After an act of building or movement turned the `fresh` hexes face up.
void offer_balancing(GameState& s, int player, const std::vector<int>& fresh, Events& ev);
Check check_replace_water(const GameState& s, const Action& a);
void do_replace_water(GameState& s, const Action& a, Events& ev);
void do_keep_water(GameState& s, const Action& a, Events& ev);

// [7.1] Building needs the Capital held at the start of the turn.
Check can_build_at_all(const GameState& s, int player);

// --- Town/City Relocation [15.5] ---
Check check_remove_town(const GameState& s, const Action& a);
void do_remove_town(GameState& s, const Action& a, Events& ev);
Check check_rebuild_town(const GameState& s, const Action& a);
void do_rebuild_town(GameState& s, const Action& a, Events& ev);
bool rebuild_site_ok(const GameState& s, int player, int hex, int from_hex);

// --- Luck Averaging [15.4] ---
Check check_average_dice(const GameState& s, const Action& a);
void do_average_dice(GameState& s, const Action& a, Events& ev);

// [15.1] Forest and Mountain slow movement [9.12], block the line of fire [11.2] and add
// defence dice [12.3] unless Terrain Leveling is in play.
bool rough_terrain(const GameState& s, Terrain t);

// Gains a unit into the Reserve [7.4, 10.3].
int gain_unit(GameState& s, int player, UnitType type, Events& ev);
// Sends a unit (and its cargo) to its owner's Reserve [10.2, 9.45].
void lose_unit(GameState& s, int unit, Events& ev);
// Returns a unit to stock [10.2]; its cargo goes to the Reserve.
void eliminate_unit(GameState& s, int unit, Events& ev);

// An error while a unit passing through (other than `acting_unit`) has not moved on yet: a
// Frigate in a port [9.32], or a unit on Alliance pieces it may not stop on [15.64]. Nothing
// else may happen until it does. Pass -1 for actions of no unit.
Check transit_blocks(const GameState& s, int acting_unit);

// Frigate boarding, shared by retreats [12.3] and withdrawals [15.62]. The first of
// `player`'s Frigates in `hex` with room for one more land unit aboard [9.41], or -1.
int frigate_with_room(const GameState& s, int player, int hex);
// Puts land unit `land` aboard `frigate` as its cargo [9.45]; `new_unit`: it counts towards
// the three land units a Frigate may carry in a turn [9.41].
void go_aboard(GameState& s, int land, int frigate, bool new_unit);

// Ends the movement of the unit currently moving, if any [9.0 Procedure].
void finish_active_unit(GameState& s, Events& ev);

// Flow.
void begin_setup(GameState& s, int player, Events& ev);
// After a Capital is placed: the next player's setup step, or the first Player Turn [4.0].
void advance_setup(GameState& s, Events& ev);
void set_phase(GameState& s, Phase p, Events& ev);
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
// Whether a unit of `type` may be placed on `hex` now, as a Reserve unit [13.0-13.5, 14.0].
Check check_placement_spot(const GameState& s, int player, UnitType type, int hex);
// House rule Redeployment (docs/rules-notes.md): a board unit placed like a Reserve unit.
bool may_redeploy_unit(const GameState& s, int player, int unit);
Check check_redeploy(const GameState& s, const Action& a);
void do_redeploy(GameState& s, const Action& a, Events& ev);
void do_concede(GameState& s, int player, Events& ev);
// Logs stored before a concession that left one player ended the game at once [5.1] go on
// after it: that player chose the units he still owed [10.2], or conceded too. Those actions
// replay as no-ops on the finished game (docs/rules-notes.md).
bool legacy_action_after_concession(const GameState& s, const Action& a);
Check check_end_phase(const GameState& s, const Action& a);
void do_end_phase(GameState& s, Events& ev);

// Combat internals used by the flow.
void start_battle(GameState& s, int hex, int attacker, int defender, bool placement, Events& ev);
void advance_battle(GameState& s, Events& ev);
// Units that may receive the next hit of the pending bombard or battle fire.
std::vector<int> hit_candidates(const GameState& s);
bool can_retreat_all(const GameState& s);
std::vector<int> retreat_destinations(const GameState& s, int unit);
std::vector<int> elimination_candidates(const GameState& s);
// Eliminates owed units where the choice cannot matter; clears the elimination when done.
void auto_eliminate(GameState& s, Events& ev);
bool road_connected(const GameState& s, int player, int from, int to);
// Fog of war: whether `player` sees the units on `hex` (always true without fog; sight.h).
bool in_sight(const GameState& s, int player, int hex);
bool line_of_sight(const GameState& s, int player, int from, int to);
// Whose units `player` may Bombard in `hex`: an enemy's, or his own Vassal's [15.64].
int bombard_target(const GameState& s, int player, int hex);
std::vector<int> frigate_spots_for_forest_city(const GameState& s, int city_hex);

}  // namespace viktory::detail
