// The Hub's HTTP side: the JSON API the browser and tools call with a bearer token
// (/api/session, /api/games, /api/my-games, ...), `my_games`, and the health check. Split from
// hub.cpp (pure move); the locks are the Hub's (docs/server.md, "Threads and ordering").
#include <spdlog/spdlog.h>

#include <charconv>

#include "chat_comforts.h"
#include "computer_levels.h"
#include "display_name.h"
#include "hub.h"
#include "json.h"
#include "player_records.h"
#include "running_games.h"
#include "token.h"

namespace viktory::server {
namespace {

using nlohmann::json;

ApiResponse api_json(const json& body) { return ApiResponse{200, body.dump()}; }

std::map<std::string, std::string> parse_query(std::string_view query) {
  std::map<std::string, std::string> out;
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    const auto eq = pair.find('=');
    if (eq != std::string_view::npos) {
      out[std::string(pair.substr(0, eq))] = std::string(pair.substr(eq + 1));
    }
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return out;
}

std::optional<std::int64_t> parse_id(std::string_view s) {
  std::int64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || v <= 0) return std::nullopt;
  return v;
}

}  // namespace

json Hub::my_games(std::int64_t player_id) {
  json games = json::array();
  std::vector<std::int64_t> ids;
  Store::DamagedList damaged;
  // From the index of the player's seats, at most the listed numbers (Store::
  // recent_games_of_player): the time does not grow with the number of games.
  for (const GameRecord& stored : store_.recent_games_of_player(
           player_id, options_.my_games_active, options_.my_games_finished, &damaged)) {
    std::optional<int> seat;
    for (const SeatRecord& s : stored.seats) {
      if (s.player_id == player_id) seat = s.seat;
    }
    const bool running = stored.status == GameStatus::kRunning;
    json g = GameRoom::summary_of(stored);
    g["your_seat"] = seat ? json(*seat) : json(nullptr);
    g["your_turn"] = running && seat && stored.current_seat == *seat;
    if (const json clock = running ? clocks_->clock_json(stored.id) : json(nullptr);
        !clock.is_null()) {
      // Beside the clock's options (the summary's `clock`): whose clock runs and until when.
      const json state{{"seat", clock["seat"]},
                       {"deadline", clock["deadline"]},
                       {"stage", clock["stage"]},
                       {"now", clock["now"]}};
      if (g["clock"].is_object()) {
        g["clock"].update(state);
      } else {
        g["clock"] = state;
      }
    }
    ids.push_back(stored.id);
    games.push_back(std::move(g));
  }
  // The players' chat lines he has not read (chat_comforts.h: one index walk per game).
  const std::map<std::int64_t, int> unread = unread_chat(store_, player_id, ids);
  for (json& g : games) {
    const auto it = unread.find(g["game_id"].get<std::int64_t>());
    g["chat_unread"] = it == unread.end() ? 0 : it->second;
  }
  for (auto& [id, why] : damaged) spdlog::error("game_damaged game={} reason=\"{}\"", id, why);
  return games;
}

Outcome Hub::vacation_everywhere(Client* client, std::int64_t player_id, int days) {
  // Bounds what one request may lock and write: a player rarely plays more games at once.
  constexpr std::size_t kMaxVacationGames = 50;
  std::vector<std::int64_t> ids;
  for (const GameRecord& stored : store_.games_of_player(player_id, nullptr)) {
    if (stored.status != GameStatus::kRunning) continue;
    if (clocks_->clock_json(stored.id).is_null()) continue;  // no clock, nothing to stop
    if (ids.size() == kMaxVacationGames) break;
    ids.push_back(stored.id);
  }
  json games = json::array();
  for (const std::int64_t id : ids) {
    json entry{{"game_id", id}};
    std::shared_ptr<GameRoom> room;
    std::unique_lock<std::mutex> room_lock;
    Outcome refused = lock_room(id, room, room_lock);
    if (!refused) refused = clocks_->declare_vacation(*room, player_id, days);
    if (refused) {
      entry["code"] = refused->code;
      entry["message"] = refused->message;
    } else {
      const std::optional<int> seat = room->seat_of(player_id);
      const json clock = clocks_->clock_json(id);
      if (seat && clock.contains("seats") && *seat < static_cast<int>(clock["seats"].size())) {
        entry["until"] = clock["seats"][static_cast<std::size_t>(*seat)]["vacation_until"];
      }
    }
    games.push_back(std::move(entry));
  }
  client->deliver(
      make_message(json{{"type", "games.vacation"}, {"days", days}, {"games", std::move(games)}}));
  return std::nullopt;
}

std::optional<PlayerRecord> Hub::player_for_bearer(std::string_view authorization) {
  const std::optional<std::string> hash = bearer_token_hash(authorization);
  if (!hash) return std::nullopt;
  return store_.player_by_token_hash(*hash);
}

Health Hub::health() {
  bool probe = false;
  {
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    const auto since = now - last_probe_;
    probe = (!storage_ok_ && since >= std::chrono::seconds(options_.health_retry_seconds)) ||
            (storage_ok_ && since >= std::chrono::seconds(options_.health_probe_seconds));
    if (probe) last_probe_ = now;
  }
  // The probe writes (a transaction and its fsync) with no lock of the Hub held.
  std::optional<std::string> problem;
  if (probe) {
    try {
      store_.check_writable();
    } catch (const DbError& e) {
      problem = e.what();
    }
  }
  std::lock_guard lock(mutex_);
  if (probe && !problem) {
    if (!storage_ok_) spdlog::info("storage_recovered");
    storage_ok_ = true;
    storage_problem_.clear();
  } else if (probe) {
    if (storage_ok_) spdlog::error("storage_failure probe: {}", *problem);
    storage_ok_ = false;
    storage_problem_ = *problem;
  }
  if (storage_ok_) return Health{};
  return Health{false, "the database cannot be written: " + storage_problem_};
}

namespace {

// The GET answers about games (lists, summaries, replays, records) hold no secret (invite codes
// and tokens are never in them; a finished game's seed is public once revealed), so they may be
// gzipped. Answers with a token or code (POST /api/session, the accounts' answers) never are
// (docs/server.md, "Compression").
ApiResponse compressible(ApiResponse answer) {
  answer.compressible = true;
  return answer;
}

}  // namespace

ApiResponse Hub::handle_api(std::string_view method, std::string_view target, std::string_view body,
                            std::string_view authorization, std::string_view address) {
  const auto question = target.find('?');
  const std::string_view path = target.substr(0, question);
  const auto query =
      parse_query(question == std::string_view::npos ? "" : target.substr(question + 1));
  constexpr std::string_view kGames = "/api/games/";
  std::optional<std::int64_t> id;
  std::string_view what;
  if (path.substr(0, kGames.size()) == kGames) {
    std::string_view rest = path.substr(kGames.size());
    const auto slash = rest.find('/');
    id = parse_id(rest.substr(0, slash));
    what = slash == std::string_view::npos ? "" : rest.substr(slash);
    if (!id || (what != "" && what != "/replay" && what != "/record" && what != "/analysis")) {
      return api_error(404, "not_found", "no such game");
    }
    if (what == "/record") {
      // Fair play: a finished game's record (fair_play.h), built like a replay.
      if (method != "GET") return api_error(405, "method", "use GET");
      return compressible(replays_.handle_record(*id, query, authorization, address));
    }
    if (what == "/analysis") {
      // The look back (game_analysis.h): every request, polls too, costs what a replay page
      // costs from the address's bucket; a new analysis takes more budgets there.
      if (method != "GET") return api_error(405, "method", "use GET");
      if (!charge_address(address, 1)) {
        metrics_.count_error("rate_limited");
        return api_error(429, "rate_limited", "too many requests from this address");
      }
      return compressible(analyses_.handle(*id, query, authorization, address));
    }
    if (what == "/replay") {
      // Built without the lock of the game logic, through the replays' own connection.
      if (method != "GET") return api_error(405, "method", "use GET");
      return compressible(replays_.handle(*id, query, authorization, address));
    }
  }

  try {
    if (is_leaving_path(path)) {
      return handle_leaving_api(method, path, body, authorization, address);
    }
    if (path == "/api/session") {
      if (method != "POST") return api_error(405, "method", "use POST");
      // Sign-ups write to the database (with no lock of the Hub held): limit them per address.
      bool allowed = false;
      {
        std::lock_guard lock(clients_mutex_);
        const std::string key = shared_budget_key(address);
        allowed = signup_buckets_.take(key);
        if (allowed && charge_sink_) charge_sink_("signup", key, 1);
      }
      if (!allowed) {
        metrics_.count_error("rate_limited");
        return api_error(429, "rate_limited", "too many new players from this address");
      }
      json j = json::parse(body, nullptr, false);
      if (j.is_discarded() || !j.is_object() || !j.contains("name") || !j["name"].is_string()) {
        return api_error(400, "bad_message", "send {\"name\":\"...\"}");
      }
      auto name = clean_name(j["name"].get<std::string>());
      if (!name) {
        return api_error(400, "bad_name",
                         "a name has 1 to 32 characters, without control, invisible or "
                         "direction-changing characters");
      }
      const std::string token = new_token();
      const PlayerRecord player = store_.create_player(*name, token_hash(token), now_ms());
      spdlog::info("player_created player={}", player.id);
      return api_json(
          json{{"player_id", std::to_string(player.id)}, {"name", player.name}, {"token", token}});
    }
    if (is_player_records_path(path)) {
      // Ladder, finished games, profiles (player_records.h): lists from the store's readers,
      // charged like the lobby's list; a profile reads a few lists at once.
      const bool is_profile = path.substr(0, 13) == "/api/players/";
      if (!charge_address(address, is_profile ? 5 : 3)) {
        metrics_.count_error("rate_limited");
        return api_error(429, "rate_limited", "too many requests from this address; wait a second");
      }
      return handle_player_records_api(store_, method, path, query, body,
                                       player_for_bearer(authorization));
    }
    if (is_computer_levels_path(path)) {
      // The computer levels' ratings (computer_levels.h): computed once, plus the asker's own
      // ratings, one indexed read; charged like a game's summary.
      if (!charge_address(address, 1)) {
        metrics_.count_error("rate_limited");
        return api_error(429, "rate_limited", "too many requests from this address; wait a second");
      }
      const auto player = player_for_bearer(authorization);
      return handle_computer_levels_api(
          store_, method, player ? std::optional<std::int64_t>(player->id) : std::nullopt);
    }
    if (Friends::handles(path)) {
      // Follows and the friends list (friends.h): a few rows of the store, charged like the
      // lobby's list; a follow also spends the player's own budget of changes.
      if (!charge_address(address, 3)) {
        metrics_.count_error("rate_limited");
        return api_error(429, "rate_limited", "too many requests from this address; wait a second");
      }
      return friends_.handle(method, path, body, player_for_bearer(authorization),
                             options_.presence);
    }
    if (method != "GET") return api_error(405, "method", "use GET");
    // The reads below cost as much as their WebSocket twins (lobby.subscribe and my_games 3,
    // game.watch 5), charged to the client address: HTTP is no way around the rate limit.
    const double cost = path == "/api/games" || path == "/api/my-games" ? 3 : id ? 5 : 1;
    if (!charge_address(address, cost)) {
      metrics_.count_error("rate_limited");
      return api_error(429, "rate_limited", "too many requests from this address; wait a second");
    }
    if (path == "/api/games") {
      // A page of the open list, as lobby.subscribe's (docs/protocol.md, "Lobby").
      const auto number = [&](const char* name) -> std::optional<std::int64_t> {
        auto it = query.find(name);
        if (it == query.end()) return std::nullopt;
        std::int64_t v = -1;
        const std::string& text = it->second;
        auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || ptr != text.data() + text.size()) return -1;  // refused below
        return v;
      };
      const auto speed = query.find("speed");
      LobbyPage page;
      if (auto f = make_lobby_page(options_.lobby, speed == query.end() ? "" : speed->second,
                                   number("offset"), number("limit"), page)) {
        return api_error(400, f->code, f->message);
      }
      return compressible(api_json(lobby_.open_games(page)));
    }
    if (path == "/api/my-games") {
      auto player = player_for_bearer(authorization);
      if (!player) return api_error(401, "auth_failed", "send Authorization: Bearer <token>");
      return compressible(api_json(json{{"games", my_games(player->id)}}));
    }
    if (id) {
      std::shared_ptr<GameRoom> room;
      {
        std::lock_guard lobby_lock(mutex_);
        if (lobby_.unavailable(*id)) {
          return api_error(503, "game_unavailable", "the server's storage failed; try again later");
        }
        room = lobby_.shared_room(*id);
        if (room == nullptr && lobby_.damaged(*id)) {
          return api_error(503, "game_damaged", "this game's stored data is damaged");
        }
      }
      auto player = player_for_bearer(authorization);
      const std::int64_t player_id = player ? player->id : 0;
      const auto invite = query.count("invite") ? query.at("invite") : std::string();
      json summary;
      if (room != nullptr) {
        std::lock_guard room_lock(room->mutex());
        if (room->status() != GameStatus::kCancelled && room->may_view(player_id, invite)) {
          summary = room->summary();
        }
      }
      {
        std::lock_guard lobby_lock(mutex_);
        lobby_.evict_idle();
      }
      // A private game without the invite answers exactly like a game that does not exist.
      if (summary.is_null()) return api_error(404, "not_found", "no such game");
      return compressible(api_json(summary));
    }
    return api_error(404, "not_found", "no such path");
  } catch (const DbError& e) {
    if (e.storage_failure()) {
      ++metrics_.storage_failures;
      std::lock_guard lock(mutex_);
      storage_ok_ = false;
      storage_problem_ = e.what();
    }
    spdlog::error("api_failed error={}", e.what());
    return api_error(500, "internal", "the server could not handle this request");
  } catch (const std::exception& e) {
    spdlog::error("api_failed error={}", e.what());
    return api_error(500, "internal", "the server could not handle this request");
  }
}

}  // namespace viktory::server
