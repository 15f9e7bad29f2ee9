// What one viewer may know of a game: the only way state leaves the engine.
//
// A hex whose terrain the viewer does not know carries Terrain::kNone; the random generator,
// the scripted dice, the tile bank and every undrawn or face-down tile are absent. Pieces are
// public (they stand on the table in the boxed game), also on hexes whose terrain a viewer
// does not know under independent exploration. Under fog of war (engine/sight.h) other
// players' units are shown only within the viewer's sight.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "event.h"
#include "game.h"

namespace viktory {

struct HexView {
  int hex = -1;
  Axial coord;
  std::string label;
  bool perimeter = false;
  bool known = false;  // the viewer knows its terrain
  Terrain terrain = Terrain::kNone;
  int town_owner = kNoPlayer;
  bool city = false;
  int capital_of = kNoPlayer;
  bool built_this_turn = false;
  bool battle_this_turn = false;
  // Public per-turn facts the rules depend on (everyone at the table sees them happen):
  int placed_infantry = 0;  // Reserve placement counts this turn [13.11]
  int placed_other = 0;
  int began_turn_with_land_unit = 0;  // bit per player [9.12 exception B]
  // Fog of war: the viewer does not see the units here (engine/sight.h); other players' units
  // are then absent from the view, and the per-turn facts above keep only his own.
  bool unseen = false;
  friend bool operator==(const HexView&, const HexView&) = default;
};

struct UnitView {
  int id = -1;
  int owner = kNoPlayer;
  UnitType type = UnitType::kInfantry;
  UnitPlace place = UnitPlace::kReserve;
  int hex = -1;
  int carrier = -1;
  int moves_left = 0;
  bool move_done = false;
  bool attacked = false;
  bool transported = false;
  bool has_moved = false;     // started moving this turn [9.43]
  int carried_this_turn = 0;  // Frigates: land units carried this turn [9.41]
  int disembark_hex = -1;     // Frigates: the one hex it landed units in this turn [9.46]
  friend bool operator==(const UnitView&, const UnitView&) = default;
};

struct PlayerView {
  int index = 0;
  bool eliminated = false;
  bool conceded = false;
  int capital_hex = -1;
  bool holds_capital = false;
  bool doomsday_coin = false;
  int doomsday_roll = 0;  // [5.5] his last roll for the Doomsday Clock, 0 before the first
  int victory_points = 0;
  std::array<int, kUnitTypes> reserve{};                  // units in the Reserve by type
  int ruler = kNoPlayer;                                  // [15.61] his Ruler while he is a Vassal
  std::vector<int> vassals;                               // [15.61] the Vassals of this Ruler
  Reorganization reorganization = Reorganization::kNone;  // [15.63]
  friend bool operator==(const PlayerView&, const PlayerView&) = default;
};

struct GameView {
  int viewer = kSpectator;
  Options options;
  int radius = 4;
  int turn = 0;
  int current = 0;
  int first_player = 0;
  Phase phase = Phase::kSetup;
  int decider = kNoPlayer;
  int active_unit = -1;
  std::vector<HexView> hexes;
  std::vector<UnitView> units;  // units on the map and in Reserves (not those in stock)
  std::vector<PlayerView> players;
  std::vector<int> capital_choices;
  std::optional<Battle> battle;
  std::optional<PendingBombard> bombard;
  std::optional<PendingElimination> elimination;
  std::vector<int> pending_battles;
  std::vector<int> turn_order;  // players clockwise; position k starts in group k [4.0, 15.2]
  std::optional<PendingBalance> balance;        // [15.3] (public: the map is shared)
  std::optional<PendingRelocation> relocation;  // [15.5]
  std::optional<CapitalReturn> capital_return;  // [15.62]
  bool doomsday_started = false;
  std::vector<int> winners;
  VictoryCondition ended_by = VictoryCondition::kStandard;
  int action_count = 0;
  // Where attacking units entered Battle hexes from this turn (the retreat limit [12.3 step 3]),
  // the water hexes where placed Frigates await a Naval Battle [13.5], and whether the Reserve
  // Placement Phase is over and those Battles are being fought: public, and needed to play on
  // from a view (computer players simulate from it).
  std::vector<BattleEntry> battle_entries;
  std::vector<int> placement_battles;
  bool ending_turn = false;
  // Fog of war: other players' units the viewer last saw on hexes now outside his sight
  // (engine/sight.h), sorted by hex then owner; empty without fog and for spectators.
  std::vector<LastSeen> last_seen;
  // Every field, so that view deltas (protocol/view_delta.h) notice a field they do not know.
  friend bool operator==(const GameView&, const GameView&) = default;
};

// viewer: a player index, or kSpectator. A spectator sees every face-up tile; under
// independent exploration, while the game runs, only the hexes every player still in the game
// knows, and never the capital choices. Under fog of war the viewer sees other players' units
// only within his sight (engine/sight.h; spectators: every player's sight at once).
GameView view_for(const GameState& state, int viewer);

// Whether `viewer` knows the terrain of `hex` in `state`.
bool viewer_knows(const GameState& state, int viewer, int hex);

// The events `viewer` may see, from the state after they happened: tile reveals of hexes he
// does not know lose their terrain; under fog of war, events about units outside his sight
// are dropped or lose what would name them (docs/rules-notes.md, "Fog of war").
std::vector<Event> filter_events_for(const GameState& after, const std::vector<Event>& events,
                                     int viewer);

}  // namespace viktory
