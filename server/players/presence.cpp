#include "presence.h"

#include <algorithm>
#include <charconv>

#include "friends.h"
#include "store.h"
#include "token.h"

namespace viktory::server {

void Presence::connected(std::int64_t player_id) {
  std::lock_guard lock(mutex_);
  if (++players_[player_id].connections == 1 && sink_) sink_(player_id, true, 0);
}

void Presence::disconnected(std::int64_t player_id) {
  std::lock_guard lock(mutex_);
  auto it = players_.find(player_id);
  if (it == players_.end()) return;
  if (it->second.connections > 0) --it->second.connections;
  it->second.last_seen = now_();
  if (it->second.connections == 0 && sink_) sink_(player_id, false, it->second.last_seen);
}

void Presence::set_remote(const std::string& server, std::int64_t player_id, bool online,
                          std::int64_t last_seen) {
  std::lock_guard lock(mutex_);
  Seen& seen = players_[player_id];
  if (online) {
    seen.elsewhere.insert(server);
    remote_[server].insert(player_id);
  } else {
    seen.elsewhere.erase(server);
    if (auto it = remote_.find(server); it != remote_.end()) it->second.erase(player_id);
    seen.last_seen = std::max(seen.last_seen, last_seen);
  }
}

void Presence::drop_remote(const std::string& server) {
  std::lock_guard lock(mutex_);
  auto it = remote_.find(server);
  if (it == remote_.end()) return;
  const std::int64_t now = now_();
  for (std::int64_t player_id : it->second) {
    Seen& seen = players_[player_id];
    seen.elsewhere.erase(server);
    seen.last_seen = std::max(seen.last_seen, now);
  }
  remote_.erase(it);
}

bool Presence::online(std::int64_t player_id) const {
  std::lock_guard lock(mutex_);
  auto it = players_.find(player_id);
  return it != players_.end() && (it->second.connections > 0 || !it->second.elsewhere.empty());
}

nlohmann::json Presence::of(const std::vector<std::int64_t>& player_ids) const {
  std::lock_guard lock(mutex_);
  nlohmann::json out = nlohmann::json::object();
  for (std::int64_t id : player_ids) {
    auto it = players_.find(id);
    const bool on =
        it != players_.end() && (it->second.connections > 0 || !it->second.elsewhere.empty());
    const bool seen = it != players_.end() && it->second.last_seen > 0;
    out[std::to_string(id)] = {
        {"online", on}, {"last_seen", seen ? nlohmann::json(it->second.last_seen) : nullptr}};
  }
  return out;
}

std::optional<std::vector<std::int64_t>> Presence::ids_of(std::string_view target) {
  std::vector<std::int64_t> ids;
  const auto query = target.find('?');
  const auto key = target.find("players=", query == std::string_view::npos ? 0 : query);
  if (query == std::string_view::npos || key == std::string_view::npos) return ids;
  std::string_view list = target.substr(key + 8);
  list = list.substr(0, list.find('&'));
  while (!list.empty()) {
    const auto comma = list.find(',');
    const std::string_view part = list.substr(0, comma);
    std::int64_t id = 0;
    auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), id);
    if (ec != std::errc() || ptr != part.data() + part.size() || id <= 0) return std::nullopt;
    ids.push_back(id);
    if (ids.size() > kMaxIds) return std::nullopt;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return ids;
}

PresenceApi::PresenceApi(const Presence& presence, Store& store, int requests_per_minute)
    : presence_(presence),
      store_(store),
      requests_per_minute_(requests_per_minute),
      buckets_(requests_per_minute / 60.0, requests_per_minute) {}

ApiResponse PresenceApi::handle(std::string_view method, std::string_view target,
                                std::string_view authorization, std::string_view address) {
  if (method != "GET") return api_error(405, "method", "use GET");
  bool within = false;
  {
    std::lock_guard lock(mutex_);
    within = buckets_.take(address);
  }
  if (!within) {
    ApiResponse refused = api_error(429, "rate_limited", "too many presence requests");
    refused.retry_after_seconds = std::max(1, 60 / requests_per_minute_);
    return refused;
  }
  const auto ids = Presence::ids_of(target);
  if (!ids) return api_error(400, "bad_message", "players=1,2,3: at most 64 player ids");
  constexpr std::string_view kPrefix = "Bearer ";
  std::optional<PlayerRecord> asker;
  if (authorization.substr(0, kPrefix.size()) == kPrefix) {
    const std::string token(authorization.substr(kPrefix.size()));
    if (looks_like_hex_secret(token, 64)) asker = store_.player_by_token_hash(token_hash(token));
  }
  if (!asker) return api_error(401, "auth_failed", "send Authorization: Bearer <token>");
  std::vector<std::int64_t> visible;
  std::vector<std::int64_t> others;
  for (std::int64_t id : *ids) (id == asker->id ? visible : others).push_back(id);
  if (!others.empty()) {
    // Co-players see each other (in their game, as on the game page); a follower sees the
    // players he follows whose profile privacy lets him see their profile (friends.h).
    std::vector<std::int64_t> shown = store_.players_sharing_a_game(asker->id, others);
    std::vector<std::int64_t> rest;
    for (std::int64_t id : others) {
      if (std::find(shown.begin(), shown.end(), id) == shown.end()) rest.push_back(id);
    }
    if (!rest.empty()) {
      store_.with_reader([&](Database& db) {
        for (std::int64_t id : followed_and_visible(db, asker->id, rest)) shown.push_back(id);
      });
    }
    for (std::int64_t id : shown) visible.push_back(id);
  }
  return ApiResponse{200, nlohmann::json{{"players", presence_.of(visible)}}.dump()};
}

}  // namespace viktory::server
