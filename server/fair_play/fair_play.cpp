#include "fair_play.h"

#include <stdexcept>

#include "json.h"
#include "token.h"
#include "verify.h"

namespace viktory::server {

namespace fair = protocol::fair;

FairSecrets draw_fair_secrets() {
  FairSecrets s;
  secure_random_bytes(s.secret.data(), s.secret.size());
  secure_random_bytes(s.salt.data(), s.salt.size());
  return s;
}

std::string commitment_hex(const FairSecrets& secrets) {
  return fair::to_hex(fair::commitment(secrets.salt, secrets.secret));
}

void store_fair_secrets(Database& db, std::int64_t game_id, const FairSecrets& secrets) {
  const auto guard = db.lock();  // the connection is shared with the writer thread
  db.prepare("INSERT INTO game_secrets(game_id, secret, salt) VALUES(?, ?, ?)")
      .bind(1, game_id)
      .bind(2, fair::to_hex(secrets.secret))
      .bind(3, fair::to_hex(secrets.salt))
      .run();
}

std::optional<FairSecrets> load_fair_secrets(Database& db, std::int64_t game_id) {
  const auto guard = db.lock();  // the connection is shared with the writer thread
  Statement s = db.prepare("SELECT secret, salt FROM game_secrets WHERE game_id = ?");
  s.bind(1, game_id);
  if (!s.step()) return std::nullopt;
  const auto secret = fair::from_hex<32>(s.text(0));
  const auto salt = fair::from_hex<16>(s.text(1));
  // No details: the message must not quote a secret.
  if (!secret || !salt) {
    throw DamagedGame("game " + std::to_string(game_id) + ": its fair-play secret is damaged");
  }
  return FairSecrets{*secret, *salt};
}

std::uint64_t seed_for_start(Database& db, std::int64_t game_id,
                             const std::vector<std::optional<fair::Contribution>>& contributions,
                             RandomScheme scheme) {
  const std::optional<FairSecrets> secrets = load_fair_secrets(db, game_id);
  if (!secrets) return new_seed();
  return fair::derive_seed(secrets->secret, contributions, scheme);
}

std::optional<nlohmann::json> reveal_message(Database& db, const GameRecord& game) {
  if (game.status != GameStatus::kFinished || game.commitment.empty()) return std::nullopt;
  const std::optional<FairSecrets> secrets = load_fair_secrets(db, game.id);
  if (!secrets) return std::nullopt;
  return nlohmann::json{{"type", "game.reveal"},
                        {"game_id", game.id},
                        {"commitment", game.commitment},
                        {"secret", fair::to_hex(secrets->secret)},
                        {"salt", fair::to_hex(secrets->salt)},
                        {"record", "/api/games/" + std::to_string(game.id) + "/record"}};
}

protocol::GameRecord export_game_record(Store& store, const GameRecord& game) {
  if (game.status != GameStatus::kFinished) {
    throw std::invalid_argument("the record of a game is handed out once it is over");
  }
  // A guided game (tutorial.h) starts from a scenario, not from its seed: no record proves it.
  if (store.latest_snapshot(game.id, 0)) {
    throw std::invalid_argument("a guided game starts from a prepared position: it has no record");
  }
  const std::string where = "game " + std::to_string(game.id) + ": ";
  protocol::GameRecord base;
  base.scheme = game.random_scheme;  // version 2 for scheme 2, version 1 for older games
  base.game_id = game.id;
  base.options = game.options;
  for (const SeatRecord& seat : game.seats) {
    protocol::RecordSeat recorded;
    recorded.name = seat.name;
    // A computer seat contributes nothing; a human seat's commitment and contribution were
    // checked by the reveal round (game_room_reveal.cpp). A game started before the round was
    // wired has neither.
    recorded.computer = !seat.computer.empty();
    recorded.host = seat.host;
    if (!seat.contribution_commitment.empty()) {
      recorded.contribution_commitment = fair::from_hex<32>(seat.contribution_commitment);
      if (!recorded.contribution_commitment) throw DamagedGame(where + "a commitment is damaged");
    }
    if (!seat.contribution.empty()) {
      recorded.contribution = fair::from_hex<32>(seat.contribution);
      if (!recorded.contribution) throw DamagedGame(where + "a contribution is damaged");
    }
    base.seats.push_back(std::move(recorded));
  }
  protocol::RecordReveal reveal;
  if (!game.commitment.empty()) {
    const auto commitment = fair::from_hex<32>(game.commitment);
    const std::optional<FairSecrets> secrets = load_fair_secrets(store.db(), game.id);
    if (!commitment || !secrets) throw DamagedGame(where + "its fair-play data is damaged");
    base.commitment = *commitment;
    reveal.secret = secrets->secret;
    reveal.salt = secrets->salt;
  } else {
    reveal.legacy_seed = game.seed;  // a game from before fair play: its plain seed
  }
  base.reveal = reveal;
  std::vector<Action> actions;
  try {
    for (ActionRecord& r : store.actions(game.id)) {
      if (r.seq != static_cast<int>(actions.size()) + 1) {
        throw DamagedGame(where + "the action log has a gap at action " +
                          std::to_string(actions.size() + 1));
      }
      actions.push_back(std::move(r.action));
    }
  } catch (const nlohmann::json::exception&) {
    throw DamagedGame(where + "an action cannot be read");
  } catch (const protocol::JsonError&) {
    throw DamagedGame(where + "an action cannot be read");
  }
  try {
    return protocol::build_record(std::move(base), actions);
  } catch (const std::invalid_argument& e) {
    throw DamagedGame(where + e.what());
  }
}

RecordsCheck verify_finished_records(Store& store) {
  RecordsCheck check;
  Store::DamagedList damaged;
  for (const GameRecord& game : store.games_with_status(GameStatus::kFinished, &damaged)) {
    const std::string where = "game " + std::to_string(game.id) + ": ";
    try {
      const protocol::VerifyReport report =
          protocol::verify_record(export_game_record(store, game));
      if (report.verified) {
        ++check.verified;
      } else {
        check.failures.push_back(where + report.failure);
      }
    } catch (const DamagedGame& e) {
      check.failures.push_back(e.what());  // names the game
    } catch (const std::invalid_argument& e) {
      // A guided game starts from a prepared position and has no record to verify; the record
      // builder throws the same when an action no longer applies.
      if (!store.latest_snapshot(game.id, 0)) check.failures.push_back(where + e.what());
    } catch (const std::exception& e) {
      check.failures.push_back(where + e.what());
    }
  }
  for (const auto& [id, why] : damaged) {
    check.failures.push_back("game " + std::to_string(id) + ": " + why);
  }
  return check;
}

}  // namespace viktory::server
