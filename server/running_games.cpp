#include "running_games.h"

#include <spdlog/spdlog.h>

#include "game_room.h"

namespace viktory::server {

using nlohmann::json;

json running_public_games(Store& store, std::int64_t viewer, std::size_t limit) {
  Store::DamagedList damaged;
  // Private games do not exist for those without a seat or an invite; "none" allows nobody
  // to watch until the end (both left out by the index's own conditions).
  const std::vector<GameRecord> games =
      store.games_to_watch(viewer, static_cast<int>(limit), &damaged);
  for (auto& [id, why] : damaged) spdlog::error("game_damaged game={} reason=\"{}\"", id, why);
  json list = json::array();
  for (const GameRecord& g : games) list.push_back(GameRoom::summary_of(g));
  return list;
}

}  // namespace viktory::server
