#include "computer_caps.h"

#include <spdlog/spdlog.h>

namespace viktory::server {

namespace {

Failure refuse(const std::string& scope, int limit, const std::string& message) {
  Failure f = fail("too_many_computer_games", message);
  f.extra["scope"] = scope;
  f.extra["limit"] = limit;
  return f;
}

}  // namespace

ComputerCaps::ComputerCaps(Store& store, ComputerCapsOptions options)
    : store_(store), options_(options) {}

Outcome ComputerCaps::admit(std::int64_t player, const std::string& address,
                            std::unique_lock<std::mutex>& hold) {
  std::unique_lock lock(admitting_);
  const std::vector<Store::ComputerGame> live = store_.live_computer_games();
  int of_player = 0;
  int of_address = 0;
  std::set<std::int64_t> live_ids;
  for (const Store::ComputerGame& g : live) {
    live_ids.insert(g.game_id);
    if (g.creator == player) ++of_player;
  }
  {
    std::lock_guard addresses(addresses_mutex_);
    // Games that ended are forgotten here, so the map holds only live games.
    for (auto it = address_of_game_.begin(); it != address_of_game_.end();) {
      if (!live_ids.count(it->first)) {
        it = address_of_game_.erase(it);
        continue;
      }
      if (!address.empty() && it->second == address) ++of_address;
      ++it;
    }
  }
  if (of_player >= options_.per_player) {
    return refuse("player", options_.per_player,
                  "you have " + std::to_string(of_player) +
                      " games with computer players open or running (at most " +
                      std::to_string(options_.per_player) + "): finish or leave one first");
  }
  if (!address.empty() && of_address >= options_.per_address) {
    return refuse("address", options_.per_address,
                  "your address has " + std::to_string(of_address) +
                      " games with computer players open or running (at most " +
                      std::to_string(options_.per_address) + "): finish or leave one first");
  }
  if (static_cast<int>(live.size()) >= options_.total) {
    spdlog::warn("computer_games_full games={} limit={}", live.size(), options_.total);
    return refuse("server", options_.total,
                  "the server runs as many games with computer players as it can (" +
                      std::to_string(options_.total) + "): try again later");
  }
  hold = std::move(lock);
  return std::nullopt;
}

void ComputerCaps::created(std::int64_t game_id, const std::string& address) {
  if (address.empty()) return;
  std::lock_guard lock(addresses_mutex_);
  address_of_game_[game_id] = address;
}

std::string ComputerCaps::address_of(std::int64_t game_id) const {
  std::lock_guard lock(addresses_mutex_);
  auto it = address_of_game_.find(game_id);
  return it == address_of_game_.end() ? std::string() : it->second;
}

std::set<std::int64_t> ComputerCaps::over_caps() {
  std::map<std::int64_t, int> of_player;
  int within = 0;
  std::set<std::int64_t> over;
  for (const Store::ComputerGame& g : store_.live_computer_games()) {  // oldest first
    if (++of_player[g.creator] > options_.per_player || within >= options_.total) {
      over.insert(g.game_id);
    } else {
      ++within;
    }
  }
  if (!over.empty()) {
    spdlog::warn("computer_games_over_caps games={}: they play on with spare computer time only",
                 over.size());
  }
  return over;
}

}  // namespace viktory::server
