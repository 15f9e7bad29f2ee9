// A random game stored action by action through the Store, as the server stores one: players
// created, the game created and started, each action committed with its turn and the next
// decider, a snapshot every `snapshot_every` actions. It ends when the game is over or after
// `max_actions`. For the tests that need a database with real games in it. `finish`: played as
// the server plays a game to its end: the engine's seed derived from the game's committed secret
// (fair_play.h; `seed` then drives the random choices only), so that its record verifies, and a
// game that ends stored finished with its winners (the players' records too).
#pragma once

#include <cstdint>

#include "store.h"

namespace viktory::test {

server::GameRecord store_random_game(server::Store& store, Options options, std::uint64_t seed,
                                     int max_actions, int snapshot_every = 50, bool finish = false);

}  // namespace viktory::test
