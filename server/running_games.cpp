#include "running_games.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "game_room.h"

namespace viktory::server {

using nlohmann::json;

json running_public_games(Store& store, std::size_t limit) {
  Store::DamagedList damaged;
  std::vector<GameRecord> games = store.games_with_status(GameStatus::kRunning, &damaged);
  for (auto& [id, why] : damaged) spdlog::error("game_damaged game={} reason=\"{}\"", id, why);
  // Private games do not exist for those without a seat or an invite; "none" allows nobody
  // to watch until the end.
  std::erase_if(games, [](const GameRecord& g) {
    return g.is_private || g.spectators == SpectatorMode::kNone;
  });
  const auto played = [](const GameRecord& g) { return g.last_move_at.value_or(g.created); };
  std::sort(games.begin(), games.end(), [&](const GameRecord& a, const GameRecord& b) {
    return played(a) != played(b) ? played(a) > played(b) : a.id > b.id;
  });
  if (games.size() > limit) games.resize(limit);
  json list = json::array();
  for (const GameRecord& g : games) list.push_back(GameRoom::summary_of(g));
  return list;
}

}  // namespace viktory::server
