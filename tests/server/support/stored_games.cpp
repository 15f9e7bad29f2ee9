// Random games stored through the Store (stored_games.h).
#include "support/stored_games.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "../engine/random_play.h"
#include "fair_play.h"
#include "game.h"

namespace viktory::test {
using namespace viktory::server;

GameRecord store_random_game(Store& store, Options options, std::uint64_t seed, int max_actions,
                             int snapshot_every, bool finish) {
  std::vector<PlayerRecord> players;
  for (int p = 0; p < options.players; ++p) {
    const std::string name = "P" + std::to_string(seed) + "_" + std::to_string(p);
    players.push_back(store.create_player(name, "hash" + name, 1));
  }
  GameRecord record;
  record.options = options;
  record.created = 1;
  record.creator = players[0];
  for (int p = 0; p < options.players; ++p) {
    record.seats.push_back(SeatRecord{p, players[p].id, players[p].name, ""});
  }
  store.create_game(record);
  record.seed = seed;
  if (finish) {
    // No seat contributed (nor would a computer seat): the seed follows from the secret alone.
    const std::vector<std::optional<protocol::fair::Contribution>> none(
        static_cast<std::size_t>(options.players));
    record.seed = seed_for_start(store.db(), record.id, none, record.random_scheme);
  }
  store.start_game(record);
  GameState state = new_game(record.options, record.seed, record.random_scheme);
  viktory::testing::Chooser chooser(seed ^ 0x5eed);
  int seq = 0;
  while (seq < max_actions && state.phase != Phase::kGameOver) {
    const Action a = viktory::testing::random_action(state, chooser, /*concede_one_in=*/400);
    const int turn = state.turn;
    std::vector<Event> events;
    if (apply_in_place(state, a, &events)) throw std::logic_error("a legal action was refused");
    ++seq;
    ActionCommit commit;
    commit.game_id = record.id;
    commit.record = ActionRecord{seq, a, seals_turn(events), turn, seq};
    commit.current_seat = decider(state);
    if (seq % snapshot_every == 0) commit.snapshot = &state;
    if (finish && state.phase == Phase::kGameOver) {
      commit.finished = nlohmann::json{{"winners", state.winners}};
    }
    store.commit_action(commit);
  }
  return *store.game(record.id);
}

}  // namespace viktory::test
