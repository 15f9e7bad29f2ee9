// The running public games anyone may watch, for the lobby's "Games to watch" list
// (`lobby.running`): public games under way whose creator allows spectators while they run.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "store.h"

namespace viktory::server {

constexpr std::size_t kRunningGamesListed = 50;

// Game summaries (GameRoom::summary_of), the most recently played first, at most `limit`,
// none in which `viewer` holds a seat (0: nobody): his own games are in "your games". Read
// from the store's index games_to_watch (Store::games_to_watch): the time does not grow with
// the number of running games.
nlohmann::json running_public_games(Store& store, std::int64_t viewer = 0,
                                    std::size_t limit = kRunningGamesListed);

// The same list as a `lobby.running` message, from a copy of the most recently played games
// read at most once every `fresh` (with a few spare games for viewers who play some of them):
// clients who repeat the request share one read of the store a second, whatever they send.
class GamesToWatch {
 public:
  static constexpr int kSpare = 20;
  GamesToWatch(Store& store, std::size_t limit,
               std::chrono::milliseconds fresh = std::chrono::milliseconds(1000))
      : store_(store), limit_(limit), fresh_(fresh) {}
  std::string message_for(std::int64_t viewer);

 private:
  struct Listed {
    std::string summary;  // as sent
    std::vector<std::int64_t> players;
  };
  Store& store_;
  const std::size_t limit_;
  const std::chrono::milliseconds fresh_;
  std::mutex mutex_;
  std::vector<Listed> listed_;
  bool more_ = false;  // the store had more games than were read
  std::chrono::steady_clock::time_point read_at_{};
};

}  // namespace viktory::server
