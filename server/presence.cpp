#include "presence.h"

#include <charconv>

namespace viktory::server {

void Presence::connected(std::int64_t player_id) {
  std::lock_guard lock(mutex_);
  ++players_[player_id].connections;
}

void Presence::disconnected(std::int64_t player_id) {
  std::lock_guard lock(mutex_);
  auto it = players_.find(player_id);
  if (it == players_.end()) return;
  if (it->second.connections > 0) --it->second.connections;
  it->second.last_seen = now_();
}

bool Presence::online(std::int64_t player_id) const {
  std::lock_guard lock(mutex_);
  auto it = players_.find(player_id);
  return it != players_.end() && it->second.connections > 0;
}

nlohmann::json Presence::of(const std::vector<std::int64_t>& player_ids) const {
  std::lock_guard lock(mutex_);
  nlohmann::json out = nlohmann::json::object();
  for (std::int64_t id : player_ids) {
    auto it = players_.find(id);
    const bool on = it != players_.end() && it->second.connections > 0;
    const bool seen = it != players_.end() && it->second.last_seen > 0;
    out[std::to_string(id)] = {
        {"online", on}, {"last_seen", seen ? nlohmann::json(it->second.last_seen) : nullptr}};
  }
  return out;
}

ApiResponse Presence::handle_api(std::string_view method, std::string_view target) const {
  if (method != "GET") return api_error(405, "method", "use GET");
  constexpr std::size_t kMaxIds = 64;
  std::vector<std::int64_t> ids;
  const auto key = target.find("players=");
  if (key != std::string_view::npos) {
    std::string_view list = target.substr(key + 8);
    list = list.substr(0, list.find('&'));
    while (!list.empty()) {
      const auto comma = list.find(',');
      const std::string_view part = list.substr(0, comma);
      std::int64_t id = 0;
      auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), id);
      if (ec != std::errc() || ptr != part.data() + part.size() || id <= 0) {
        return api_error(400, "bad_message", "players=1,2,3: player ids");
      }
      ids.push_back(id);
      if (ids.size() > kMaxIds) return api_error(400, "bad_message", "at most 64 players");
      if (comma == std::string_view::npos) break;
      list.remove_prefix(comma + 1);
    }
  }
  return ApiResponse{200, nlohmann::json{{"players", of(ids)}}.dump()};
}

}  // namespace viktory::server
