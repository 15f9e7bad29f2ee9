// The engine's public API: pure functions over GameState.
//
//   GameState s = new_game(options, seed, RandomScheme::kStreams);
//   auto result = apply(s, act::place_capital(0, hex));   // new state + events, or an error
//   auto moves  = legal_actions(s, decider(s));
//   GameView v  = view_for(s, player);                    // the only way state leaves
//
// No I/O, no clock, no globals: (seed, options, actions) always gives the same game.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "action.h"
#include "event.h"
#include "state.h"

namespace viktory {

// Why these options cannot make a game (players out of range, no victory condition, a
// combination that cannot be played), or nullopt. Options are normalized first: the
// Subjugation victory [5.2] turns the Subjugation rules [15.6] on.
std::optional<std::string> options_problem(const Options& options);
Options normalized(Options options);

// A new game in its setup phase [4.0]: the first player is drawn at random and his start
// hexes are revealed. Throws std::invalid_argument for options that options_problem refuses.
// Random scheme 1 (one xoshiro256** stream, engine/rng.h): every game made before fair play
// v2, and every test, tournament and fuzzer.
GameState new_game(const Options& options, std::uint64_t seed);

// What new_game drew, for the game record (protocol/game_record.h). Scheme 2 numbers each
// draw in its stream; under scheme 1 the draw numbers are -1.
struct SetupDraws {
  std::int64_t first_player_draw = -1;  // the first value drawn for the first player [4.0]
  // A kTileRevealed event per tile laid (the face-up map [15.2], by kNoPlayer; the start
  // tiles, by the first player), in the order drawn.
  std::vector<Event> tiles;
};

// The same with the random scheme chosen (docs/fair-play.md): RandomScheme::kStreams draws
// the setup, the tiles and the dice from three separate counter-based streams.
GameState new_game(const Options& options, std::uint64_t seed, RandomScheme scheme,
                   SetupDraws* drawn = nullptr);

struct ApplyResult {
  GameState state;            // unchanged when error is set
  std::vector<Event> events;  // unfiltered: pass through filter_events_for before sending
  std::optional<ActionError> error;
  bool ok() const { return !error.has_value(); }
};

ApplyResult apply(const GameState& state, const Action& action);

// Same as apply but in place; on error nothing in `state` changes and no event is appended.
std::optional<ActionError> apply_in_place(GameState& state, const Action& action,
                                          std::vector<Event>* events = nullptr);

// Checks an action without applying it.
std::optional<ActionError> check_action(const GameState& state, const Action& action);

// The player who must decide now. Often not the player whose turn it is: the target of hits
// chooses his losses for 2s and 3s [10.1], the loser of a Town chooses the units to
// eliminate [10.2]. kNoPlayer once the game is over.
int decider(const GameState& state);

// [15.2] No Exploration: draws a tile for every interior hex that has none yet and turns the
// whole map face up for everyone. new_game does this; scenarios use it for their positions.
void lay_map_face_up(GameState& state);

// Every legal action of `player` now (empty unless he is the decider, apart from kConcede,
// which an in-game player may always do). Split retreats are listed unit by unit.
std::vector<Action> legal_actions(const GameState& state, int player);

// True when these events made the turn final: a hex was revealed or a die was rolled. Undo
// may not go back past such an action (hidden information came out).
bool seals_turn(const std::vector<Event>& events);
// The same, and under fog of war also when the action put a hex into a player's sight that was
// not, or showed him another player's unit arriving in it (undoing it would let a player peek
// into the fog and take it back).
bool seals_turn(const GameState& before, const GameState& after, const std::vector<Event>& events);

// [5.3] 1 point per Town and 2 per City on the map.
int victory_points(const GameState& state, int player);

// Hexes where the current player has units facing an enemy and no Battle has been fought
// yet: the Battles he must still start before the phase can end [12.0].
std::vector<int> pending_battles(const GameState& state);

// Consistency checks for tests: returns a description of the first broken invariant.
std::optional<std::string> check_invariants(const GameState& state);

}  // namespace viktory
