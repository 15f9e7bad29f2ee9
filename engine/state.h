// The whole game state, hidden parts included. It never leaves the engine except through
// view_for (view.h); the server may store it (snapshots) but never sends it to a client.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "hex.h"
#include "rng.h"
#include "types.h"

namespace viktory {

enum class UnitPlace : std::uint8_t { kMap, kReserve, kStock };

struct Unit {
  int id = -1;
  int owner = kNoPlayer;
  UnitType type = UnitType::kInfantry;
  UnitPlace place = UnitPlace::kReserve;
  int hex = -1;      // on the map: where it stands (cargo: its Frigate's hex)
  int carrier = -1;  // cargo: id of the Frigate carrying it [9.45]
  // --- this Player Turn (reset at the start of its owner's turn) ---
  int moves_left = 0;        // Movement Points left [9.11, 9.31]
  bool has_moved = false;    // started moving (or was moved by a Frigate)
  bool move_done = false;    // its movement is finished [9.0 Procedure, 10.7]
  bool attacked = false;     // took part in a Bombard or Battle Attack [10.6]
  bool transported = false;  // embarked or disembarked this turn [9.43, 9.44]
  // Frigates only:
  int carried_this_turn = 0;  // land units carried this turn, at most 3 [9.41]
  int disembark_hex = -1;     // the single hex it dropped units into this turn [9.46]
  friend bool operator==(const Unit&, const Unit&) = default;
};

// A hex's bit set of "every player" (known_by: the perimeter, a tile revealed without
// independent exploration): six bits in games of up to 6 players, as states were stored before
// 7 and 8 players existed (old states and game records replay byte for byte), a bit per seat
// beyond.
inline std::uint8_t everyone_mask(int players) {
  return static_cast<std::uint8_t>((1u << (players > 6 ? players : 6)) - 1);
}

struct HexCell {
  // The tile's terrain once it exists. An interior hex has kNone until revealed unless a
  // scenario laid a face-down tile there. The perimeter is always kWater.
  Terrain terrain = Terrain::kNone;
  bool revealed = false;       // face up on the table (known to someone)
  std::uint8_t known_by = 0;   // bit per player: knows the terrain (independent exploration)
  int town_owner = kNoPlayer;  // owner of the Town/City here, if any
  bool city = false;
  int capital_of = kNoPlayer;        // whose Capital marker lies here [14.0]
  bool built_this_turn = false;      // not yet a road or port [9.13, 9.32]
  bool battle_this_turn = false;     // one Battle per hex per turn [12.2]
  std::uint8_t placed_infantry = 0;  // Reserve placement counts this turn [13.11]
  std::uint8_t placed_other = 0;
  std::uint8_t began_turn_with_land_unit = 0;  // bit per player [9.12 exception B]
  friend bool operator==(const HexCell&, const HexCell&) = default;
};

// [15.63] A player who lost his Capital may not attack on his next Player Turn.
enum class Reorganization : std::uint8_t {
  kNone,
  kNextTurn,  // he lost his Capital; his next Player Turn is the reorganization
  kThisTurn,  // that Player Turn is under way
};

struct PlayerState {
  bool eliminated = false;
  bool conceded = false;
  int capital_hex = -1;                     // where his Capital marker lies (-1 before setup)
  bool held_capital_at_turn_start = false;  // [7.1]
  bool doomsday_coin = false;               // [5.5]
  int doomsday_roll = 0;  // [5.5] his last roll for the Doomsday Clock (0: none yet); public
  int ruler = kNoPlayer;  // [15.61] his Ruler while he is a Vassal
  Reorganization reorganization = Reorganization::kNone;  // [15.63]
  friend bool operator==(const PlayerState&, const PlayerState&) = default;
  bool in_game() const { return !eliminated && !conceded; }
};

enum class BattleStage : std::uint8_t {
  kAssignPreFire,        // pre-battle Artillery hits being assigned [12.3 step 0]
  kAssignAttackerFire,   // attacker's hits being assigned [12.3 step 1]
  kAssignDefenderFire,   // defender's hits being assigned [12.3 step 2]
  kRetreatOption,        // attacker retreats or fights on [12.3 step 3]
  kRetreating,           // attacker is moving his units out, one by one
  kAverageAttackerFire,  // [15.4] the attacker decides how many pairs of dice to average
  kAverageDefenderFire,  // [15.4] the defender decides, before his Fire Round
  // House rule Defending Artillery Pre-fire: the defender's pre-battle hits [12.3 step 0].
  kAssignDefenderPreFire,
};

struct Battle {
  int hex = -1;
  int attacker = kNoPlayer;
  int defender = kNoPlayer;
  bool naval = false;
  bool placement = false;  // Frigate placement Naval Battle [13.5]: no retreat
  int round = 0;
  BattleStage stage = BattleStage::kAssignPreFire;
  // Hits waiting to be assigned in the current fire: first the firer picks for each '1',
  // then the target player for each '2' or '3' [10.1].
  int picks_by_firer = 0;
  int picks_by_target = 0;
  std::vector<int> marked;  // units hit in this round, removed at "Remove Casualties"
  int suppression = 0;      // [12.31]
  std::vector<int> attacker_dice, defender_dice;  // last fire, for views
  int dice_due = 0;  // [15.4] the dice the firer is entitled to while he decides on averaging
  int attacker_pairs = 0, defender_pairs = 0;  // [15.4] pairs averaged in the last fire
  friend bool operator==(const Battle&, const Battle&) = default;
};

// A single Bombard Attack whose hits are still being assigned [11.0, 10.1].
struct PendingBombard {
  int hex = -1;
  int firer = kNoPlayer;
  int target = kNoPlayer;
  int picks_by_firer = 0;
  int picks_by_target = 0;
  friend bool operator==(const PendingBombard&, const PendingBombard&) = default;
};

// A player choosing which units return to stock after losing a Town or City [10.2].
struct PendingElimination {
  int player = kNoPlayer;
  std::vector<UnitType> owed;  // unit types still to eliminate
  friend bool operator==(const PendingElimination&, const PendingElimination&) = default;
};

// [15.3] Exploration Balancing: an act of exploration turned up two or more water hexes; the
// player may put the land tile drawn for him on one of them, or keep the water.
struct PendingBalance {
  int player = kNoPlayer;
  std::vector<int> water;         // the water hexes that act turned face up
  Terrain land = Terrain::kNone;  // the first land tile drawn from the unused tiles
  friend bool operator==(const PendingBalance&, const PendingBalance&) = default;
};

// [15.5] Town/City Relocation: removed at `from_hex`, to be rebuilt next to it this phase.
struct PendingRelocation {
  int player = kNoPlayer;
  int from_hex = -1;
  bool city = false;  // (a Capital marker stays on from_hex until the rebuild takes it along)
  friend bool operator==(const PendingRelocation&, const PendingRelocation&) = default;
};

// [15.62] Returning a captured Capital to its owner, now the captor's Vassal.
enum class ReturnStage : std::uint8_t {
  kWithdraw,      // the Ruler moves his units out of the Capital, one by one
  kReinforce,     // the Vassal places Reserve units in (and Frigates next to) his Capital
  kNavalBattles,  // the Vassal's placed Frigates fight the enemy Frigates they met [13.5]
};

struct CapitalReturn {
  int hex = -1;
  int ruler = kNoPlayer;
  int vassal = kNoPlayer;
  ReturnStage stage = ReturnStage::kWithdraw;
  std::vector<int> naval_battles;  // water hexes where a placed Vassal Frigate met an enemy
  friend bool operator==(const CapitalReturn&, const CapitalReturn&) = default;
};

// Where a moving unit came from, per battle hex, to limit retreats [12.3 step 3].
struct BattleEntry {
  int battle_hex = -1;
  int from_hex = -1;
  friend bool operator==(const BattleEntry&, const BattleEntry&) = default;
};

// Fog of war: what one player last saw of another player's units on one hex (docs/rules-notes.md,
// "Fog of war"). Kept for every hex in his sight holding such units; the view shows the entries
// whose hex is now outside his sight.
struct LastSeen {
  int hex = -1;
  int owner = kNoPlayer;
  int turn = 0;                         // GameState::turn when he last saw them
  std::array<int, kUnitTypes> units{};  // how many of each type
  friend bool operator==(const LastSeen&, const LastSeen&) = default;
};

struct GameState {
  Options options;
  int radius = 4;
  std::vector<HexCell> hexes;
  std::vector<Unit> units;  // indexed by id; units in stock stay as tombstones
  std::vector<PlayerState> players;
  std::array<int, kTerrainKinds> tile_bank{};  // undrawn tiles by terrain (water first)
  // The generator (engine/rng.h, docs/fair-play.md): scheme 1 draws everything from `rng`;
  // scheme 2 from the three counter-based `streams` (then `rng` is unused).
  RandomScheme random_scheme = RandomScheme::kSingleStream;
  Rng rng;
  StreamCounters streams;
  // True only while new_game runs: the tiles it lays come from the setup stream (scheme 2).
  bool drawing_setup = false;
  std::vector<int> scripted_dice;  // tests and scenarios: used before the generator

  int turn = 0;  // 0 during setup, then 1, 2, ... (a turn = one Player Turn)
  // The players clockwise round the table [4.0]: play passes along it, and the player at
  // position k starts in start group k [3.3]. Seat order unless [15.2] drew it at random.
  std::vector<int> turn_order;
  int first_player = 0;
  int current = 0;  // whose Player Turn (or setup step) it is
  Phase phase = Phase::kSetup;
  std::vector<int> capital_choices;  // setup: revealed land hexes the player may choose [4.0]

  int active_unit = -1;  // the unit whose movement is under way [9.0 Procedure]
  std::vector<BattleEntry> entries;
  std::optional<Battle> battle;
  std::optional<PendingBombard> bombard;
  std::optional<PendingElimination> elimination;
  std::vector<int> placement_battles;  // water hexes where a placed Frigate met an enemy [13.5]
  bool ending_turn = false;  // the Reserve phase is over; placement battles are being fought
  std::optional<PendingBalance> balance;        // [15.3]
  std::optional<PendingRelocation> relocation;  // [15.5]
  std::optional<CapitalReturn> capital_return;  // [15.62]

  bool doomsday_started = false;
  int capital_loser = kNoPlayer;  // [5.3] the first player whose Capital was captured
  std::vector<int> winners;       // set when phase == kGameOver
  VictoryCondition ended_by = VictoryCondition::kStandard;
  int action_count = 0;
  // Fog of war: per player, sorted by hex then owner; empty without fog (engine/sight.h).
  std::vector<std::vector<LastSeen>> last_seen;

  const Board& board() const { return Board::for_radius(radius); }
  friend bool operator==(const GameState&, const GameState&) = default;
};

}  // namespace viktory
