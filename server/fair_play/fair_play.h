// The server's side of fair play (docs/fair-play.md): the secret and salt drawn when a game is
// created, the commitment published with the game, the engine seed derived from the secret
// when the game starts, the reveal once the game is over, and the game record a finished game
// is downloaded as.
//
// The secret and salt live in their own table (game_secrets) and are read here only: at the
// start (to derive the seed) and once the game is over (to reveal them). The players' committed
// contributions and the reveal round at the start are in contributions.h and
// game_room_reveal.cpp; the seed is derived from the secret and every contribution.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "database.h"
#include "fair.h"
#include "game_record.h"
#include "store.h"

namespace viktory::server {

struct FairSecrets {
  protocol::fair::Secret secret{};
  protocol::fair::Salt salt{};
};

// Fresh secret and salt from the operating system's CSPRNG.
FairSecrets draw_fair_secrets();
// SHA-256("viktory commitment v1\0" || salt || secret), in lowercase hex.
std::string commitment_hex(const FairSecrets& secrets);

// Keeps a new game's secret and salt (in the caller's transaction).
void store_fair_secrets(Database& db, std::int64_t game_id, const FairSecrets& secrets);
// None for a game created before fair play.
std::optional<FairSecrets> load_fair_secrets(Database& db, std::int64_t game_id);

// The seed a game starts with: derived from its secret and the seats' contributions (in seat
// order; none for a computer seat) with the label of its random scheme (docs/fair-play.md) or,
// for a game created before fair play, a fresh random one.
std::uint64_t seed_for_start(
    Database& db, std::int64_t game_id,
    const std::vector<std::optional<protocol::fair::Contribution>>& contributions,
    RandomScheme scheme);

// game.reveal, sent to everyone watching when the game is over: the commitment, the secret and
// the salt. None for a game created before fair play or one that is not over.
std::optional<nlohmann::json> reveal_message(Database& db, const GameRecord& game);

// The game record of a finished game (protocol/game_record.h): the options, the seats, the
// commitment, every action with its dice and tiles, the result and the reveal (the secret and
// salt, or the plain seed of a game created before fair play). Throws std::invalid_argument
// for a game that is not finished or is a guided game (tutorial.h: it starts from a scenario,
// not from its seed), DamagedGame when its stored data does not add up.
protocol::GameRecord export_game_record(Store& store, const GameRecord& game);

// Every finished game's record exported and verified as a sceptical player would verify it
// (protocol/verify.h): after moving a database (viktory-move-db) or restoring a backup. Guided
// games have no record and are not counted.
struct RecordsCheck {
  int verified = 0;
  std::vector<std::string> failures;  // "game N: why", one per game that does not verify
};
RecordsCheck verify_finished_records(Store& store);

}  // namespace viktory::server
