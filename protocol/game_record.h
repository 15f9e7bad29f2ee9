// The game record (docs/fair-play.md): options, seats, the fair-play commitments, every action
// with the dice and tiles it produced, the result and, once the game is over, the revealed
// secret. Anyone can check it with verify_record (verify.h) or `viktory-verify`.
//
// A record with its reveal and its tiles holds what was secret while the game ran: build and
// hand out records of finished games only.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "action.h"
#include "event.h"
#include "fair.h"
#include "json.h"
#include "state.h"

namespace viktory::protocol {

inline constexpr std::string_view kRecordFormat = "viktory-game-record";
// Version 1: games of random scheme 1 (engine/rng.h); version 2: scheme 2, whose every die and
// tile carries its draw number and its position among the action's outcomes.
inline constexpr int kRecordVersion = 2;
inline constexpr std::string_view kWitnessFormat = "viktory-witness";
inline constexpr int kWitnessVersion = 1;

// Version 2 only (-1 in version 1 and in a witness): `draw` is the number in its stream of
// the first value drawn for an outcome, `at` its position among its action's outcomes (dice,
// tiles and balancing draws counted together, in the order the engine made them).

// One roll of dice (an engine kDiceRolled event).
struct RecordedRoll {
  int player = kNoPlayer;  // who rolled
  RollPurpose purpose = RollPurpose::kBombard;
  int hex = -1;
  std::vector<int> dice;
  std::int64_t draw = -1;  // in the dice stream
  int at = -1;
  friend bool operator==(const RecordedRoll&, const RecordedRoll&) = default;
};

// One tile turned face up (an engine kTileRevealed event).
struct RecordedTile {
  int hex = -1;
  Terrain terrain = Terrain::kNone;
  int by = kNoPlayer;      // who revealed it (kNoPlayer: laid face up by [15.2])
  std::int64_t draw = -1;  // when it was drawn (a re-reveal: its first draw); setup or tiles
  int at = -1;             // none in the setup
  friend bool operator==(const RecordedTile&, const RecordedTile&) = default;
};

// Version 2: the Exploration Balancing land tile [15.3] drawn for `player` (an engine
// kLandDrawn event), from the tiles stream.
struct RecordedBalance {
  int player = kNoPlayer;
  Terrain terrain = Terrain::kNone;
  std::int64_t draw = -1;
  int at = -1;
  friend bool operator==(const RecordedBalance&, const RecordedBalance&) = default;
};

struct RecordedAction {
  int seq = 0;   // 1, 2, 3, ...
  int turn = 0;  // the Player Turn when it was made (0 during the setup)
  Action action;
  std::vector<RecordedRoll> dice;
  std::vector<RecordedTile> tiles;
  std::vector<RecordedBalance> balance;  // version 2
  friend bool operator==(const RecordedAction&, const RecordedAction&) = default;
};

struct RecordSeat {
  std::string name;
  std::optional<fair::Digest> contribution_commitment;  // none: a game from before fair play
  std::optional<fair::Contribution> contribution;       // none: not revealed
  bool computer = false;  // a computer seat: it contributes nothing (docs/fair-play.md)
  bool host = false;      // the seat of a player the server names as its operator
  friend bool operator==(const RecordSeat&, const RecordSeat&) = default;
};

struct RecordResult {
  std::vector<int> winners;
  VictoryCondition ended_by = VictoryCondition::kStandard;
  friend bool operator==(const RecordResult&, const RecordResult&) = default;
};

// Revealed when the game is over: the secret and salt, or the plain seed of a game created
// before fair play.
struct RecordReveal {
  std::optional<fair::Secret> secret;
  std::optional<fair::Salt> salt;
  std::optional<std::uint64_t> legacy_seed;
  friend bool operator==(const RecordReveal&, const RecordReveal&) = default;
};

struct GameRecord {
  // Version 1 for scheme 1, version 2 for scheme 2 (engine/rng.h).
  RandomScheme scheme = RandomScheme::kSingleStream;
  std::optional<std::int64_t> game_id;
  Options options;
  std::vector<RecordSeat> seats;           // one per player, in seat order
  std::optional<fair::Digest> commitment;  // none: a game from before fair play
  std::vector<int> seating;                // version 2 with [15.2]: the drawn turn order
  int first_player = 0;
  std::int64_t first_player_draw = -1;  // version 2: its draw in the setup stream
  // Laid by new_game: version 1 sorted by hex, version 2 in the order drawn.
  std::vector<RecordedTile> setup_tiles;
  std::vector<RecordedAction> actions;
  std::optional<RecordResult> result;  // none while the game runs
  std::optional<RecordReveal> reveal;  // none while the game runs
  friend bool operator==(const GameRecord&, const GameRecord&) = default;
};

nlohmann::json record_to_json(const GameRecord& record);
// Strict: unknown keys, wrong types, another format or version, seats that do not match the
// options, actions not numbered 1, 2, 3, ... all throw JsonError naming the field.
GameRecord record_from_json(const nlohmann::json& j);
// Parses the text first (JsonError for text that is not JSON).
GameRecord parse_record(std::string_view text);

// The engine seed the record's reveal gives: derived from the secret and the contributions
// (with the label of the record's scheme), or a legacy game's plain seed. None while the
// secret is not revealed.
std::optional<std::uint64_t> record_seed(const GameRecord& record);

// The rolls and tiles among an action's events, in order, without positions (a witness's;
// draw numbers as the events carry them).
std::vector<RecordedRoll> rolls_of(const std::vector<Event>& events);
std::vector<RecordedTile> tiles_of(const std::vector<Event>& events);
// The tiles a new game revealed before any action (its start area), sorted by hex.
std::vector<RecordedTile> setup_tiles_of(const GameState& new_game_state);

// Everything random an action's (unfiltered) events show, as a record of version 2 writes
// it: positions counted over the three lists together, draw numbers from the events; a
// re-revealed tile (independent exploration) gets the draw number of its first draw, which
// `tile_draws` (by hex) keeps across the game.
struct Outcomes {
  std::vector<RecordedRoll> dice;
  std::vector<RecordedTile> tiles;
  std::vector<RecordedBalance> balance;
};
Outcomes outcomes_of(const std::vector<Event>& events, std::vector<std::int64_t>& tile_draws);

// What a version-2 record's setup says: seating ([15.2]), first player and his draw, and the
// tiles laid in the order drawn (`tile_draws` as above, sized to the board).
struct SetupOutcomes {
  std::vector<int> seating;
  int first_player = 0;
  std::int64_t first_player_draw = -1;
  std::vector<RecordedTile> tiles;
};
SetupOutcomes setup_outcomes_of(const GameState& new_game_state, const SetupDraws& drawn,
                                std::vector<std::int64_t>& tile_draws);

// The server's side: fills in setup, actions (with their dice and tiles) and result of `base`
// (whose scheme, game_id, options, seats, commitment and reveal are set) by replaying `actions`
// from the seed the reveal gives. Throws std::invalid_argument when the reveal is missing, the
// seats do not match the options, or the engine refuses an action (a damaged action log).
GameRecord build_record(GameRecord base, const std::vector<Action>& actions);

// What one player's client saw live (docs/fair-play.md, "The witness").
struct WitnessEntry {
  int seq = 0;
  std::vector<RecordedRoll> dice;
  std::vector<RecordedTile> tiles;
};

struct Witness {
  std::optional<std::int64_t> game_id;
  std::optional<int> seat;  // none: a spectator
  std::optional<fair::Digest> commitment;
  std::optional<std::vector<fair::Digest>> contribution_commitments;
  std::optional<fair::Contribution> contribution;
  std::optional<int> first_player;
  std::vector<WitnessEntry> seen;
};

nlohmann::json witness_to_json(const Witness& witness);
Witness witness_from_json(const nlohmann::json& j);  // strict, like record_from_json
Witness parse_witness(std::string_view text);

}  // namespace viktory::protocol
