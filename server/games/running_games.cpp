#include "running_games.h"

#include <spdlog/spdlog.h>

#include <algorithm>

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

std::string GamesToWatch::message_for(std::int64_t viewer) {
  std::string games;
  std::size_t taken = 0;
  {
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    if (read_at_ == std::chrono::steady_clock::time_point{} || now - read_at_ >= fresh_) {
      // Read again (the other requesters wait for this one read instead of making their own).
      Store::DamagedList damaged;
      const std::size_t want = limit_ + kSpare;
      std::vector<GameRecord> read = store_.games_to_watch(0, static_cast<int>(want), &damaged);
      for (auto& [id, why] : damaged) {
        spdlog::error("game_damaged game={} reason=\"{}\"", id, why);
      }
      more_ = read.size() + damaged.size() >= want;
      listed_.clear();
      for (const GameRecord& g : read) {
        Listed l{GameRoom::summary_of(g).dump(), {}};
        for (const SeatRecord& seat : g.seats) l.players.push_back(seat.player_id);
        listed_.push_back(std::move(l));
      }
      read_at_ = now;
    }
    for (const Listed& l : listed_) {
      if (taken == limit_) break;
      if (std::find(l.players.begin(), l.players.end(), viewer) != l.players.end()) continue;
      games += taken++ == 0 ? "" : ",";
      games += l.summary;
    }
  }
  if (taken < limit_ && more_) {
    // The viewer plays so many of the latest games that the copy runs short: his own read.
    return json{{"type", "lobby.running"}, {"games", running_public_games(store_, viewer, limit_)}}
        .dump();
  }
  return R"({"type":"lobby.running","games":[)" + games + "]}";
}

}  // namespace viktory::server
