// A random game stored action by action through the Store, as the server stores one: players
// created, the game created and started, each action committed with its turn and the next
// decider, a snapshot every `snapshot_every` actions. It ends when the game is over or after
// `max_actions`. For the tests that need a database with real games in it.
#pragma once

#include <cstdint>

#include "store.h"

namespace viktory::test {

server::GameRecord store_random_game(server::Store& store, Options options, std::uint64_t seed,
                                     int max_actions, int snapshot_every = 50);

}  // namespace viktory::test
