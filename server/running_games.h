// The running public games anyone may watch, for the lobby's "Games to watch" list
// (`lobby.running`): public games under way whose creator allows spectators while they run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "store.h"

namespace viktory::server {

constexpr std::size_t kRunningGamesListed = 50;

// Game summaries (GameRoom::summary_of), the most recently played first, at most `limit`,
// none in which `viewer` holds a seat (0: nobody): his own games are in "your games". Read
// from the store's index games_to_watch (Store::games_to_watch): the time does not grow with
// the number of running games.
nlohmann::json running_public_games(Store& store, std::int64_t viewer = 0,
                                    std::size_t limit = kRunningGamesListed);

}  // namespace viktory::server
