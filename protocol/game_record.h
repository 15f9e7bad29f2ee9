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
inline constexpr int kRecordVersion = 1;
inline constexpr std::string_view kWitnessFormat = "viktory-witness";
inline constexpr int kWitnessVersion = 1;

// One roll of dice (an engine kDiceRolled event).
struct RecordedRoll {
  int player = kNoPlayer;  // who rolled
  RollPurpose purpose = RollPurpose::kBombard;
  int hex = -1;
  std::vector<int> dice;
  friend bool operator==(const RecordedRoll&, const RecordedRoll&) = default;
};

// One tile turned face up (an engine kTileRevealed event).
struct RecordedTile {
  int hex = -1;
  Terrain terrain = Terrain::kNone;
  int by = kNoPlayer;  // who revealed it
  friend bool operator==(const RecordedTile&, const RecordedTile&) = default;
};

struct RecordedAction {
  int seq = 0;   // 1, 2, 3, ...
  int turn = 0;  // the Player Turn when it was made (0 during the setup)
  Action action;
  std::vector<RecordedRoll> dice;
  std::vector<RecordedTile> tiles;
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
  std::optional<std::int64_t> game_id;
  Options options;
  std::vector<RecordSeat> seats;           // one per player, in seat order
  std::optional<fair::Digest> commitment;  // none: a game from before fair play
  int first_player = 0;
  std::vector<RecordedTile> setup_tiles;  // revealed by new_game, sorted by hex
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

// The engine seed the record's reveal gives: derived from the secret and the contributions,
// or a legacy game's plain seed. None while the secret is not revealed.
std::optional<std::uint64_t> record_seed(const GameRecord& record);

// The rolls and tiles among an action's (unfiltered) events, in order.
std::vector<RecordedRoll> rolls_of(const std::vector<Event>& events);
std::vector<RecordedTile> tiles_of(const std::vector<Event>& events);
// The tiles a new game revealed before any action (its start area), sorted by hex.
std::vector<RecordedTile> setup_tiles_of(const GameState& new_game_state);

// The server's side: fills in setup, actions (with their dice and tiles) and result of `base`
// (whose game_id, options, seats, commitment and reveal are set) by replaying `actions` from
// the seed the reveal gives. Throws std::invalid_argument when the reveal is missing, the
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
