// The read side of players' records (player_records.h): the ladder, the finished games and a
// player's profile over HTTP, each behind the profile's privacy setting.
#include "player_records.h"

#include <spdlog/spdlog.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_set>
#include <vector>

#include "account_deletion.h"
#include "game_room.h"
#include "rating.h"

namespace viktory::server {
namespace {

using nlohmann::json;

constexpr std::string_view kPlayers = "/api/players/";

ApiResponse answer(const json& body) {
  ApiResponse r{200, body.dump()};
  r.compressible = true;  // no secret in these answers (docs/server.md, "Compression")
  return r;
}

json id_json(std::int64_t id) { return std::to_string(id); }

std::optional<std::int64_t> parse_int(std::string_view text) {
  std::int64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return v;
}

// A query's integer parameter: absent, or within [low, high]; `bad` is set otherwise.
std::optional<std::int64_t> int_param(const std::map<std::string, std::string>& query,
                                      const char* name, std::int64_t low, std::int64_t high,
                                      bool& bad) {
  auto it = query.find(name);
  if (it == query.end()) return std::nullopt;
  auto v = parse_int(it->second);
  if (!v || *v < low || *v > high) {
    bad = true;
    return std::nullopt;
  }
  return v;
}

ProfileVisibility visibility_of(Database& db, std::int64_t player_id) {
  Statement s = db.cached("SELECT visible_to FROM profile_privacy WHERE player_id = ?");
  s.bind(1, player_id);
  if (!s.step()) return ProfileVisibility::kEveryone;
  return profile_visibility_from_string(s.text(0)).value_or(ProfileVisibility::kNobody);
}

// Whether the two have held seats in one game that started (running or finished). From the
// viewer's seats (seats_by_player) to the other's seat in the same game (UNIQUE(game_id,
// player_id)): the cost follows the viewer's own games.
bool have_played(Database& db, std::int64_t viewer, std::int64_t owner) {
  // CROSS JOIN fixes SQLite's order: the other's seat in each game (one probe of the unique
  // index) before the game's row, which is read only for the games they share. Left to itself
  // the planner read every one of the viewer's games first (social_bench: friends lists).
  Statement s = db.cached(
      "SELECT 1 FROM seats m CROSS JOIN seats o CROSS JOIN games g "
      "WHERE m.player_id = ?1 AND o.game_id = m.game_id AND o.player_id = ?2 "
      "AND g.id = m.game_id AND g.status IN ('running', 'finished') LIMIT 1");
  s.bind(1, viewer).bind(2, owner);
  return s.step();
}

// `viewer` 0: a stranger without a token.
bool may_see_profile(Database& db, std::int64_t viewer, std::int64_t owner) {
  if (viewer != 0 && viewer == owner) return true;
  switch (visibility_of(db, owner)) {
    case ProfileVisibility::kEveryone:
      return true;
    case ProfileVisibility::kNobody:
      return false;
    case ProfileVisibility::kOpponents:
      return viewer != 0 && have_played(db, viewer, owner);
  }
  return false;
}

ApiResponse hidden() {
  return api_error(403, "profile_hidden", "this player shows his profile to nobody you are");
}

// Finished games as the lists and the profile show them: the summary (with the seats: the
// opponents), each seat's place, the game's length in Player Turns, and its replay and record.
json finished_entries(Store& store, const std::vector<std::int64_t>& ids) {
  std::vector<GameRecord> games;
  for (const std::int64_t id : ids) {
    try {
      if (auto g = store.game(id)) games.push_back(std::move(*g));
    } catch (const DamagedGame& e) {
      spdlog::error("game_damaged game={} reason=\"{}\"", id, e.what());
    }
  }
  json out = json::array();
  store.with_reader([&](Database& db) {
    for (const GameRecord& g : games) {
      json entry = GameRoom::summary_of(g);
      json places = json::array();
      Statement p =
          db.cached("SELECT seat, place FROM finished_seats WHERE game_id = ? ORDER BY seat");
      p.bind(1, g.id);
      while (p.step()) places.push_back(json{{"seat", p.int64(0)}, {"place", p.int64(1)}});
      entry["places"] = std::move(places);
      Statement t = db.cached("SELECT turn FROM actions WHERE game_id = ? AND seq = ?");
      t.bind(1, g.id).bind(2, g.seq);
      entry["turns"] = t.step() ? json(t.int64(0)) : json(nullptr);
      entry["replay"] = "/api/games/" + std::to_string(g.id) + "/replay";
      entry["record"] = "/api/games/" + std::to_string(g.id) + "/record";
      out.push_back(std::move(entry));
    }
  });
  return out;
}

std::string rating_cursor(double rating, std::int64_t player_id) {
  char text[64];
  std::snprintf(text, sizeof text, "%.17g_%lld", rating, static_cast<long long>(player_id));
  return text;
}

// GET /api/ladder?players=N[&after=CURSOR][&limit=L]: the best displayed ratings first.
ApiResponse ladder(Store& store, const std::map<std::string, std::string>& query,
                   std::int64_t viewer) {
  bool bad = false;
  const auto players = int_param(query, "players", 2, kMaxPlayers, bad);
  const auto limit = int_param(query, "limit", 1, PlayerRecordsLimits::kMaxPage, bad)
                         .value_or(PlayerRecordsLimits::kDefaultPage);
  if (bad || !players) {
    return api_error(
        400, "bad_page",
        "players is 2 to 8; limit 1 to " + std::to_string(PlayerRecordsLimits::kMaxPage));
  }
  double after_rating = INFINITY;
  std::int64_t after_player = 0;
  if (auto it = query.find("after"); it != query.end()) {
    const std::string& c = it->second;
    const auto sep = c.rfind('_');
    char* end = nullptr;
    const std::string number = c.substr(0, sep == std::string::npos ? 0 : sep);
    after_rating = std::strtod(number.c_str(), &end);
    const auto player = sep == std::string::npos ? std::nullopt : parse_int(c.substr(sep + 1));
    if (number.empty() || end != number.c_str() + number.size() || !player ||
        !std::isfinite(after_rating)) {
      return api_error(400, "bad_page", "after is the 'next' of the previous page");
    }
    after_player = *player;
  }
  json entries = json::array();
  json next = nullptr;
  store.with_reader([&](Database& db) {
    // Walks ratings_ladder (players, rating DESC, player_id) from the cursor on.
    Statement s = db.cached(
        "SELECT r.player_id, p.name, r.rating, r.mu, r.sigma, r.games FROM ratings r "
        "INDEXED BY ratings_ladder JOIN players p ON p.id = r.player_id "
        "WHERE r.players = ?1 AND r.rating <= ?2 AND NOT (r.rating = ?2 AND r.player_id <= ?3) "
        "ORDER BY r.rating DESC, r.player_id ASC LIMIT ?4");
    s.bind(1, *players).bind_real(2, after_rating).bind(3, after_player).bind(4, limit);
    std::vector<json> rows;
    double last_rating = 0;
    std::int64_t last_player = 0;
    while (s.step()) {
      last_player = s.int64(0);
      last_rating = s.real(2);
      json e{{"rating", last_rating}, {"games", s.int64(5)}};
      if (may_see_profile(db, viewer, last_player)) {
        e["player_id"] = id_json(last_player);
        e["name"] = s.text(1);
        e["mu"] = s.real(3);
        e["sigma"] = s.real(4);
      } else {
        e["hidden"] = true;  // a place in the ladder, without whose
      }
      entries.push_back(std::move(e));
    }
    if (static_cast<int>(entries.size()) == limit) next = rating_cursor(last_rating, last_player);
  });
  return answer(json{{"players", *players}, {"entries", std::move(entries)}, {"next", next}});
}

// GET /api/finished?[player=ID|me][&players=N][&victory=V][&rated=true|false][&before=ID]
// [&limit=L]: finished games, newest (highest id) first.
ApiResponse finished(Store& store, const std::map<std::string, std::string>& query,
                     std::int64_t viewer) {
  bool bad = false;
  const int players =
      static_cast<int>(int_param(query, "players", 2, kMaxPlayers, bad).value_or(0));
  const int limit =
      static_cast<int>(int_param(query, "limit", 1, PlayerRecordsLimits::kMaxPage, bad)
                           .value_or(PlayerRecordsLimits::kDefaultPage));
  const std::int64_t before = int_param(query, "before", 1, INT64_MAX, bad).value_or(INT64_MAX);
  if (bad) {
    return api_error(400, "bad_page",
                     "players is 2 to 8, before a game id, limit 1 to " +
                         std::to_string(PlayerRecordsLimits::kMaxPage));
  }
  int condition = 0;  // 1 + the index of VictoryCondition, 0: any (as in finished_public)
  std::string victory;
  if (auto it = query.find("victory"); it != query.end()) {
    victory = it->second;
    for (int v = 0; v < kVictoryConditions; ++v) {
      if (to_string(static_cast<VictoryCondition>(v)) == victory) condition = 1 + v;
    }
    if (condition == 0) {
      return api_error(400, "bad_page",
                       "victory is standard, shorter, race, doomsday or subjugation");
    }
  }
  int rated = 0;  // 1 rated, 2 unrated, 0 both
  if (auto it = query.find("rated"); it != query.end()) {
    if (it->second != "true" && it->second != "false") {
      return api_error(400, "bad_page", "rated is true or false");
    }
    rated = it->second == "true" ? 1 : 2;
  }
  std::int64_t player = 0;
  if (auto it = query.find("player"); it != query.end()) {
    if (it->second == "me") {
      if (viewer == 0) return api_error(401, "auth_failed", "send Authorization: Bearer <token>");
      player = viewer;
    } else {
      auto id = parse_int(it->second);
      if (!id || *id <= 0) return api_error(400, "bad_page", "player is a player id or me");
      player = *id;
    }
  }
  std::vector<std::int64_t> ids;
  bool refused = false;
  store.with_reader([&](Database& db) {
    if (player == 0) {
      // The public finished games under this combination of filters: one walk down the key.
      Statement s = db.cached(
          "SELECT game_id FROM finished_public WHERE facet = ? AND game_id < ? "
          "ORDER BY game_id DESC LIMIT ?");
      s.bind(1, players * 100 + condition * 10 + rated).bind(2, before).bind(3, limit);
      while (s.step()) ids.push_back(s.int64(0));
      return;
    }
    if (!may_see_profile(db, viewer, player)) {
      refused = true;
      return;
    }
    // The player's finished seats by game, newest first; others see his public games only.
    // The filters are read from the row: the walk grows with this player's games at most.
    Statement s = db.cached(
        "SELECT game_id FROM finished_seats WHERE player_id = ?1 AND game_id < ?2 "
        "AND (?3 = 0 OR players = ?3) AND (?4 = '' OR ended_by = ?4) "
        "AND (?5 = 0 OR rated = CASE ?5 WHEN 1 THEN 1 ELSE 0 END) AND (?6 = 1 OR private = 0) "
        "ORDER BY game_id DESC LIMIT ?7");
    s.bind(1, player).bind(2, before).bind(3, players).bind(4, victory).bind(5, rated);
    s.bind(6, viewer == player ? 1 : 0).bind(7, limit);
    while (s.step()) ids.push_back(s.int64(0));
  });
  if (refused) return hidden();
  json games = finished_entries(store, ids);
  const json next = static_cast<int>(ids.size()) == limit ? json(ids.back()) : json(nullptr);
  return answer(json{{"games", std::move(games)}, {"next", next}});
}

// GET /api/players/<id>: the profile.
ApiResponse profile(Store& store, std::int64_t owner, std::int64_t viewer) {
  json p;
  bool found = false;
  bool deleted = false;
  bool refused = false;
  std::vector<std::int64_t> recent;
  store.with_reader([&](Database& db) {
    Statement who = db.cached("SELECT name, created FROM players WHERE id = ?");
    who.bind(1, owner);
    if (!who.step()) return;
    found = true;
    if (is_former_name(who.text(0))) {  // he deleted his account (account_deletion.h)
      deleted = true;
      return;
    }
    if (!may_see_profile(db, viewer, owner)) {
      refused = true;
      return;
    }
    p = json{{"player_id", id_json(owner)}, {"name", who.text(0)}, {"member_since", who.int64(1)}};
    if (viewer == owner) p["visible_to"] = to_string(visibility_of(db, owner));
    // Played and won: at most 5 player counts x 5 conditions rows (player_tallies).
    std::map<int, std::pair<std::int64_t, std::int64_t>> by_players;
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> by_victory;
    std::int64_t played = 0;
    std::int64_t won = 0;
    Statement t =
        db.cached("SELECT players, ended_by, played, won FROM player_tallies WHERE player_id = ?");
    t.bind(1, owner);
    while (t.step()) {
      auto& a = by_players[static_cast<int>(t.int64(0))];
      auto& b = by_victory[t.text(1)];
      a.first += t.int64(2);
      a.second += t.int64(3);
      b.first += t.int64(2);
      b.second += t.int64(3);
      played += t.int64(2);
      won += t.int64(3);
    }
    json bp = json::array();
    for (auto& [n, c] : by_players) {
      bp.push_back(json{{"players", n}, {"played", c.first}, {"won", c.second}});
    }
    json bv = json::array();
    for (auto& [v, c] : by_victory) {
      bv.push_back(json{{"victory", v}, {"played", c.first}, {"won", c.second}});
    }
    p["played"] = played;
    p["won"] = won;
    p["by_players"] = std::move(bp);
    p["by_victory"] = std::move(bv);
    p["ratings"] = ratings_of(db, owner);
    json history = json::array();
    Statement h = db.cached(
        "SELECT game_id, players, place, mu_before, sigma_before, mu, sigma, at "
        "FROM rating_history WHERE player_id = ? ORDER BY game_id DESC LIMIT ?");
    h.bind(1, owner).bind(2, PlayerRecordsLimits::kProfileHistory);
    while (h.step()) {
      const Rating before{h.real(3), h.real(4)};
      const Rating after{h.real(5), h.real(6)};
      history.push_back(json{{"game_id", h.int64(0)},
                             {"players", h.int64(1)},
                             {"place", h.int64(2)},
                             {"rating_before", displayed_rating(before)},
                             {"rating", displayed_rating(after)},
                             {"mu", after.mu},
                             {"sigma", after.sigma},
                             {"at", h.int64(7)}});
    }
    p["history"] = std::move(history);
    Statement f = db.cached(
        "SELECT game_id FROM finished_seats WHERE player_id = ?1 AND (?2 = 1 OR private = 0) "
        "ORDER BY game_id DESC LIMIT ?3");
    f.bind(1, owner)
        .bind(2, viewer == owner ? 1 : 0)
        .bind(3, PlayerRecordsLimits::kProfileFinished);
    while (f.step()) recent.push_back(f.int64(0));
  });
  if (!found) return api_error(404, "not_found", "no such player");
  if (deleted) return api_error(404, "player_deleted", "this player deleted his account");
  if (refused) return hidden();
  p["recent_finished"] = finished_entries(store, recent);
  json under_way = json::array();
  // His open and running games from the index of his seats; the public running ones shown.
  for (const GameRecord& g :
       store.recent_games_of_player(owner, PlayerRecordsLimits::kProfileUnderWay, 0)) {
    if (g.status == GameStatus::kRunning && !g.is_private) {
      under_way.push_back(GameRoom::summary_of(g));
    }
  }
  p["under_way"] = std::move(under_way);
  return answer(p);
}

// GET and POST /api/profile/privacy: the bearer's own setting.
ApiResponse privacy(Store& store, std::string_view method, std::string_view body,
                    std::int64_t viewer) {
  if (viewer == 0) return api_error(401, "auth_failed", "send Authorization: Bearer <token>");
  if (method == "POST") {
    const json j = json::parse(body, nullptr, false);
    const auto v = !j.is_discarded() && j.is_object() && j.contains("visible_to") &&
                           j["visible_to"].is_string()
                       ? profile_visibility_from_string(j["visible_to"].get<std::string>())
                       : std::nullopt;
    if (!v) {
      return api_error(400, "bad_message",
                       "send {\"visible_to\": \"everyone\" | \"opponents\" | \"nobody\"}");
    }
    Database& db = store.db();
    const auto guard = db.lock();
    db.cached("INSERT OR REPLACE INTO profile_privacy(player_id, visible_to) VALUES(?, ?)")
        .bind(1, viewer)
        .bind(2, to_string(*v))
        .run();
  } else if (method != "GET") {
    return api_error(405, "method", "use GET or POST");
  }
  json out;
  store.with_reader([&](Database& db) {
    out = json{{"visible_to", to_string(visibility_of(db, viewer))}};
  });
  ApiResponse r{200, out.dump()};
  return r;
}

}  // namespace

const char* to_string(ProfileVisibility v) {
  switch (v) {
    case ProfileVisibility::kEveryone:
      return "everyone";
    case ProfileVisibility::kOpponents:
      return "opponents";
    case ProfileVisibility::kNobody:
      return "nobody";
  }
  return "nobody";
}

std::optional<ProfileVisibility> profile_visibility_from_string(std::string_view s) {
  if (s == "everyone") return ProfileVisibility::kEveryone;
  if (s == "opponents") return ProfileVisibility::kOpponents;
  if (s == "nobody") return ProfileVisibility::kNobody;
  return std::nullopt;
}

bool is_player_records_path(std::string_view path) {
  return path == "/api/ladder" || path == "/api/finished" || path == "/api/profile/privacy" ||
         path.substr(0, kPlayers.size()) == kPlayers;
}

ApiResponse handle_player_records_api(Store& store, std::string_view method, std::string_view path,
                                      const std::map<std::string, std::string>& query,
                                      std::string_view body,
                                      const std::optional<PlayerRecord>& viewer) {
  const std::int64_t me = viewer ? viewer->id : 0;
  if (path == "/api/profile/privacy") return privacy(store, method, body, me);
  if (method != "GET") return api_error(405, "method", "use GET");
  if (path == "/api/ladder") return ladder(store, query, me);
  if (path == "/api/finished") return finished(store, query, me);
  const auto id = parse_int(path.substr(kPlayers.size()));
  if (!id || *id <= 0) return api_error(404, "not_found", "no such player");
  return profile(store, *id, me);
}

bool profile_visible_to(Database& db, std::int64_t viewer, std::int64_t owner) {
  return may_see_profile(db, viewer, owner);
}

json ratings_of(Database& db, std::int64_t player) {
  json ratings = json::array();
  Statement r = db.cached(
      "SELECT players, rating, mu, sigma, games FROM ratings WHERE player_id = ? "
      "ORDER BY players");
  r.bind(1, player);
  while (r.step()) {
    ratings.push_back(json{{"players", r.int64(0)},
                           {"rating", r.real(1)},
                           {"mu", r.real(2)},
                           {"sigma", r.real(3)},
                           {"games", r.int64(4)}});
  }
  return ratings;
}

std::unordered_set<std::int64_t> opponents_of(Database& db, std::int64_t viewer) {
  std::unordered_set<std::int64_t> out;
  Statement s = db.cached(
      "SELECT DISTINCT o.player_id FROM seats m CROSS JOIN games g CROSS JOIN seats o "
      "WHERE m.player_id = ?1 AND g.id = m.game_id AND g.status IN ('running', 'finished') "
      "AND o.game_id = m.game_id AND o.player_id != ?1");
  s.bind(1, viewer);
  while (s.step()) out.insert(s.int64(0));
  return out;
}

bool profile_visible_to(Database& db, std::int64_t viewer, std::int64_t owner,
                        const std::unordered_set<std::int64_t>& viewer_opponents) {
  if (viewer != 0 && viewer == owner) return true;
  switch (visibility_of(db, owner)) {
    case ProfileVisibility::kEveryone:
      return true;
    case ProfileVisibility::kNobody:
      return false;
    case ProfileVisibility::kOpponents:
      return viewer != 0 && viewer_opponents.count(owner) > 0;
  }
  return false;
}

}  // namespace viktory::server
