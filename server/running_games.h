// The running public games anyone may watch, for the lobby's "Games to watch" list
// (`lobby.running`): public games under way whose creator allows spectators while they run.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>

#include "store.h"

namespace viktory::server {

constexpr std::size_t kRunningGamesListed = 50;

// Game summaries (GameRoom::summary_of), the most recently played first, at most `limit`.
nlohmann::json running_public_games(Store& store, std::size_t limit = kRunningGamesListed);

}  // namespace viktory::server
