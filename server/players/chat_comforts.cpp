// Chat comforts: read marks, mutes, hidden lines (chat_comforts.h).
#include "chat_comforts.h"

#include <spdlog/spdlog.h>

#include <charconv>

#include "client_address.h"
#include "database.h"
#include "token.h"

namespace viktory::server {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxCached = 20000;  // players whose mutes are kept in memory

std::optional<std::int64_t> player_id_of(const json& v) {
  std::int64_t id = 0;
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), id);
    if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  } else if (v.is_number_integer()) {
    id = v.get<std::int64_t>();
  } else {
    return std::nullopt;
  }
  if (id <= 0) return std::nullopt;
  return id;
}

}  // namespace

void mark_chat_read(Store& store, std::int64_t player_id, std::int64_t game_id,
                    std::int64_t up_to) {
  Database& db = store.db();
  const auto guard = db.lock();
  // Clamped to the game's last line (a mark past it would swallow lines still to come);
  // "WHERE true" keeps SQLite from reading ON CONFLICT as a join's ON.
  Statement s = db.cached(
      "INSERT INTO chat_read(player_id, game_id, up_to) "
      "SELECT ?1, ?2, MIN(?3, COALESCE((SELECT MAX(id) FROM chat WHERE game_id = ?2), 0)) "
      "WHERE true ON CONFLICT(player_id, game_id) DO UPDATE SET up_to = excluded.up_to "
      "WHERE excluded.up_to > chat_read.up_to");
  s.bind(1, player_id).bind(2, game_id).bind(3, up_to).run();
}

std::map<std::int64_t, int> unread_chat(Store& store, std::int64_t player_id,
                                        const std::vector<std::int64_t>& game_ids) {
  std::map<std::int64_t, int> out;
  if (game_ids.empty()) return out;
  store.with_reader([&](Database& db) {
    // The window: the next kUnreadWindow players' lines after the mark (partial index
    // chat_players_by_game); then his own, the muted players' and the hidden lines are left out.
    for (const std::int64_t game_id : game_ids) {
      Statement s = db.cached(
          "SELECT COUNT(*) FROM (SELECT id, player_id FROM chat WHERE game_id = ?1 AND seat IS "
          "NOT NULL AND id > COALESCE((SELECT up_to FROM chat_read WHERE player_id = ?2 AND "
          "game_id = ?1), 0) ORDER BY id LIMIT ?3) w WHERE w.player_id != ?2 AND NOT EXISTS "
          "(SELECT 1 FROM player_mutes m WHERE m.player_id = ?2 AND m.muted_id = w.player_id) "
          "AND NOT EXISTS (SELECT 1 FROM chat_hidden h WHERE h.chat_id = w.id)");
      s.bind(1, game_id).bind(2, player_id).bind(3, kUnreadWindow);
      if (s.step()) {
        const int n = static_cast<int>(s.int64(0));
        if (n > 0) out[game_id] = n;
      }
    }
  });
  return out;
}

std::optional<std::int64_t> hide_chat_line(Store& store, std::int64_t line_id) {
  Database& db = store.db();
  const auto guard = db.lock();
  Statement find = db.prepare("SELECT game_id FROM chat WHERE id = ?");
  find.bind(1, line_id);
  if (!find.step()) return std::nullopt;
  const std::int64_t game_id = find.int64(0);
  Statement hide = db.prepare("INSERT OR IGNORE INTO chat_hidden(chat_id, at) VALUES(?, ?)");
  hide.bind(1, line_id).bind(2, now_ms()).run();
  return game_id;
}

bool admin_request_allowed(std::string_view peer, bool has_forwarding_header) {
  if (has_forwarding_header) return false;
  static const AddressSet loopback = [] {
    AddressSet s;
    s.add("127.0.0.0/8");
    s.add("::1");
    return s;
  }();
  return loopback.contains(peer);
}

ChatMutes::ChatMutes(Store& store, ChatMuteLimits limits)
    : store_(store),
      limits_(limits),
      address_buckets_(limits.requests_per_minute / 60.0, limits.requests_per_minute / 4) {}

ChatMutes::Set ChatMutes::of(std::int64_t player_id) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = cache_.find(player_id); it != cache_.end()) return it->second;
  }
  auto muted = std::make_shared<std::set<std::int64_t>>();
  store_.with_reader([&](Database& db) {
    Statement s = db.cached("SELECT muted_id FROM player_mutes WHERE player_id = ?");
    s.bind(1, player_id);
    while (s.step()) muted->insert(s.int64(0));
  });
  std::lock_guard lock(mutex_);
  if (cache_.size() >= kMaxCached) cache_.clear();
  // A change while this read ran put its own copy first: keep that one.
  return cache_.try_emplace(player_id, std::move(muted)).first->second;
}

Outcome ChatMutes::change(std::int64_t player_id, std::int64_t muted_id, bool mute) {
  if (muted_id == player_id) return fail("bad_player", "you cannot mute yourself");
  {
    std::lock_guard lock(mutex_);
    if (change_buckets_.size() >= kMaxCached) change_buckets_.clear();
    auto [it, fresh] = change_buckets_.try_emplace(player_id);
    if (fresh) it->second = TokenBucket{limits_.change_burst, std::chrono::steady_clock::now()};
    if (!it->second.take(limits_.changes_per_minute / 60.0, limits_.change_burst)) {
      return fail("rate_limited", "too many mutes and unmutes; wait a minute");
    }
  }
  Database& db = store_.db();
  {
    const auto guard = db.lock();
    if (mute) {
      Statement exists = db.cached("SELECT 1 FROM players WHERE id = ?");
      exists.bind(1, muted_id);
      if (!exists.step()) return fail("not_found", "no such player");
      Statement count = db.cached("SELECT COUNT(*) FROM player_mutes WHERE player_id = ?");
      count.bind(1, player_id);
      count.step();
      Statement already =
          db.cached("SELECT 1 FROM player_mutes WHERE player_id = ? AND muted_id = ?");
      already.bind(1, player_id).bind(2, muted_id);
      if (!already.step() && count.int64(0) >= limits_.max_per_player) {
        return fail("too_many_mutes",
                    "at most " + std::to_string(limits_.max_per_player) + " muted players");
      }
      Statement add =
          db.cached("INSERT OR IGNORE INTO player_mutes(player_id, muted_id, at) VALUES(?, ?, ?)");
      add.bind(1, player_id).bind(2, muted_id).bind(3, now_ms()).run();
    } else {
      Statement remove = db.cached("DELETE FROM player_mutes WHERE player_id = ? AND muted_id = ?");
      remove.bind(1, player_id).bind(2, muted_id).run();
    }
  }
  // The next chat line and state read the mutes afresh.
  std::lock_guard lock(mutex_);
  cache_.erase(player_id);
  return std::nullopt;
}

json ChatMutes::list(std::int64_t player_id) {
  json out = json::array();
  store_.with_reader([&](Database& db) {
    Statement s = db.cached(
        "SELECT m.muted_id, p.name, m.at FROM player_mutes m JOIN players p ON p.id = m.muted_id "
        "WHERE m.player_id = ? ORDER BY m.at DESC, m.muted_id");
    s.bind(1, player_id);
    while (s.step()) {
      out.push_back(
          json{{"player_id", std::to_string(s.int64(0))}, {"name", s.text(1)}, {"at", s.int64(2)}});
    }
  });
  return out;
}

ApiResponse ChatMutes::handle_api(std::string_view method, std::string_view path,
                                  std::string_view body, std::string_view authorization,
                                  std::string_view address) {
  bool within = false;
  {
    std::lock_guard lock(mutex_);
    within = address_buckets_.take(address);
  }
  if (!within) {
    ApiResponse refused = api_error(429, "rate_limited", "too many requests; wait a second");
    refused.retry_after_seconds = 1;
    return refused;
  }
  std::optional<PlayerRecord> me;
  if (const auto hash = bearer_token_hash(authorization)) me = store_.player_by_token_hash(*hash);
  if (!me) return api_error(401, "auth_failed", "send Authorization: Bearer <token>");
  if (path == "/api/mutes") {
    if (method != "GET") return api_error(405, "method", "use GET");
    return ApiResponse{200, json{{"mutes", list(me->id)}}.dump()};
  }
  if (method != "POST") return api_error(405, "method", "use POST");
  const json j = json::parse(body, nullptr, false);
  std::optional<std::int64_t> muted;
  if (j.is_object() && j.contains("player")) muted = player_id_of(j["player"]);
  if (!muted || !j.contains("mute") || !j["mute"].is_boolean()) {
    return api_error(400, "bad_message", R"(send {"player":"<id>","mute":true|false})");
  }
  if (Outcome refused = change(me->id, *muted, j["mute"].get<bool>())) {
    const int status = refused->code == "rate_limited" ? 429
                       : refused->code == "not_found"  ? 404
                                                       : 400;
    return api_error(status, refused->code, refused->message);
  }
  spdlog::info("chat_mute player={} muted={} mute={}", me->id, *muted, j["mute"].get<bool>());
  return ApiResponse{200, json{{"player", std::to_string(*muted)}, {"mute", j["mute"]}}.dump()};
}

}  // namespace viktory::server
