// Finished games as game records, for the fair-play tests and the viktory-record-sample tool:
// a random game played to its end by the engine's weighted random player, with the scheme's
// secret, salt and contributions drawn from a test generator (not a CSPRNG: tests must repeat).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fair.h"
#include "game.h"
#include "game_record.h"
// The engine suite's weighted player (tests/protocol has a random_play.h of its own).
#include "../engine/random_play.h"
#include "view.h"

namespace viktory::record_testing {

template <std::size_t N>
std::array<std::uint8_t, N> test_bytes(viktory::testing::Chooser& chooser) {
  std::array<std::uint8_t, N> out{};
  for (auto& b : out) b = static_cast<std::uint8_t>(chooser.next() >> 56);
  return out;
}

struct PlayedGame {
  protocol::GameRecord record;
  std::vector<Action> actions;
  // What each seat's client saw: its filtered events, action by action.
  std::vector<protocol::Witness> witnesses;
};

// Plays a game with `options` to its end: at most `max_actions` random actions, then the
// deciders concede one by one until the game is over. `unrevealed_seat`: a seat whose
// contribution was never revealed. `scheme`: the random scheme (a record of version 2 for
// scheme 2, version 1 for scheme 1).
inline PlayedGame play_recorded_game(std::uint64_t test_seed, const Options& options,
                                     int max_actions = 3000, int unrevealed_seat = -1,
                                     RandomScheme scheme = RandomScheme::kStreams) {
  viktory::testing::Chooser chooser(test_seed);
  protocol::GameRecord base;
  base.scheme = scheme;
  base.game_id = static_cast<std::int64_t>(test_seed);
  base.options = options;
  const auto secret = test_bytes<32>(chooser);
  const auto salt = test_bytes<16>(chooser);
  base.commitment = protocol::fair::commitment(salt, secret);
  for (int p = 0; p < options.players; ++p) {
    protocol::RecordSeat seat;
    seat.name = std::string("Player ") + static_cast<char>('A' + p);
    seat.contribution = test_bytes<32>(chooser);
    seat.contribution_commitment = protocol::fair::contribution_commitment(*seat.contribution);
    if (p == unrevealed_seat) seat.contribution.reset();
    base.seats.push_back(seat);
  }
  base.reveal = protocol::RecordReveal{secret, salt, std::nullopt};

  PlayedGame game;
  GameState state = new_game(options, *protocol::record_seed(base), scheme);
  for (int p = 0; p < options.players; ++p) {
    protocol::Witness w;
    w.game_id = base.game_id;
    w.seat = p;
    w.commitment = base.commitment;
    std::vector<protocol::fair::Digest> commitments;
    for (const auto& seat : base.seats) commitments.push_back(*seat.contribution_commitment);
    w.contribution_commitments = commitments;
    w.contribution = base.seats[static_cast<std::size_t>(p)].contribution;
    w.first_player = state.first_player;
    game.witnesses.push_back(std::move(w));
  }
  auto record_action = [&](const GameState& after, const Action& action,
                           const std::vector<Event>& events) {
    game.actions.push_back(action);
    for (int p = 0; p < options.players; ++p) {
      protocol::WitnessEntry entry;
      entry.seq = static_cast<int>(game.actions.size());
      const auto seen = filter_events_for(after, events, p);
      entry.dice = protocol::rolls_of(seen);
      for (const auto& tile : protocol::tiles_of(seen)) {
        if (tile.terrain != Terrain::kNone) entry.tiles.push_back(tile);
      }
      if (!entry.dice.empty() || !entry.tiles.empty()) {
        game.witnesses[static_cast<std::size_t>(p)].seen.push_back(std::move(entry));
      }
    }
  };
  viktory::testing::play_random_game(state, chooser, max_actions, record_action);
  while (state.phase != Phase::kGameOver) {
    const Action concede = act::concede(decider(state));
    std::vector<Event> events;
    if (auto error = apply_in_place(state, concede, &events)) {
      throw std::logic_error("concession refused: " + error->code);
    }
    record_action(state, concede, events);
  }
  game.record = protocol::build_record(base, game.actions);
  return game;
}

}  // namespace viktory::record_testing
