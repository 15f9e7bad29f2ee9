// Leaving (docs/server.md, "Leaving"): GET /api/account/export and POST /api/account/delete.
// The Hub answers them (not Accounts) because deleting an account concedes his running games
// and leaves his open ones through the game path, under each room's lock.
#include <spdlog/spdlog.h>

#include "account_deletion.h"
#include "account_export.h"
#include "hub.h"
#include "json.h"

namespace viktory::server {
namespace {

using nlohmann::json;

// The export reads a player's whole history at once (bounded by ExportLimits): from the
// client address's bucket like a dozen lobby pages, and once per player every 10 minutes.
constexpr double kExportAddressCost = 40;
// A deletion locks and writes each of his running and open games in turn.
constexpr double kDeleteAddressCost = 20;

}  // namespace

bool Hub::is_leaving_path(std::string_view path) {
  return path == "/api/account/export" || path == "/api/account/delete";
}

ApiResponse Hub::handle_leaving_api(std::string_view method, std::string_view path,
                                    std::string_view body, std::string_view authorization,
                                    std::string_view address) {
  const bool exporting = path == "/api/account/export";
  if (method != (exporting ? "GET" : "POST")) {
    return api_error(405, "method", exporting ? "use GET" : "use POST");
  }
  const std::optional<PlayerRecord> player = player_for_bearer(authorization);
  if (!player) return api_error(401, "auth_failed", "send Authorization: Bearer <token>");
  if (!charge_address(address, exporting ? kExportAddressCost : kDeleteAddressCost)) {
    metrics_.count_error("rate_limited");
    return api_error(429, "rate_limited", "too many requests from this address; wait a second");
  }
  if (exporting) return export_account_api(*player);
  return delete_account_api(*player, body);
}

ApiResponse Hub::export_account_api(const PlayerRecord& player) {
  bool allowed = false;
  {
    std::lock_guard lock(clients_mutex_);
    allowed = export_buckets_.take(std::to_string(player.id));
  }
  if (!allowed) {
    metrics_.count_error("rate_limited");
    ApiResponse refused =
        api_error(429, "rate_limited", "one export every 10 minutes; try again later");
    refused.retry_after_seconds = 600;
    return refused;
  }
  json document;
  store_.with_reader(
      [&](Database& db) { document = export_account(db, player.id, ExportLimits{}, now_ms()); });
  if (document.is_null()) return api_error(404, "not_found", "no such player");
  spdlog::info("account_exported player={}", player.id);
  ApiResponse answer{200, document.dump(2, ' ', false, json::error_handler_t::replace)};
  // Holds his e-mail address: never compressed (docs/server.md, "Compression").
  answer.content_disposition =
      "attachment; filename=\"viktory-account-" + std::to_string(player.id) + ".json\"";
  return answer;
}

ApiResponse Hub::delete_account_api(const PlayerRecord& player, std::string_view body) {
  // The typed confirmation: his name exactly as the account shows it.
  const json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("confirm") || !j["confirm"].is_string() ||
      j["confirm"].get<std::string>() != player.name) {
    return api_error(400, "bad_confirmation",
                     "send {\"confirm\":\"<your name>\"} to delete your account");
  }
  // 1. His games, through the game path as if he had acted himself: each running seat concedes
  // [5.1] (the others play on; the last one left wins), each open game is left (the creator
  // leaving cancels it, as game.leave does). Each is its game's own commit, before the erasure.
  for (const GameRecord& stored : store_.games_of_player(player.id, nullptr)) {
    if (stored.status != GameStatus::kRunning && stored.status != GameStatus::kOpen) continue;
    std::shared_ptr<GameRoom> room;
    std::unique_lock<std::mutex> room_lock;
    if (auto refused = lock_room(stored.id, room, room_lock)) {
      spdlog::warn("leaving_game_skipped game={} player={} code={}", stored.id, player.id,
                   refused->code);
      continue;
    }
    Outcome outcome;
    if (room->status() == GameStatus::kRunning) {
      Action concede;
      concede.kind = ActionKind::kConcede;
      // Refused when he is out already (conceded or eliminated): nothing to do.
      outcome = room->act(player.id, room->record().seq, concede);
    } else if (room->status() == GameStatus::kOpen) {
      outcome = room->leave(player.id);
    }
    if (outcome && outcome->code != "illegal_action" && outcome->code != "not_seated") {
      spdlog::warn("leaving_game_refused game={} player={} code={}", stored.id, player.id,
                   outcome->code);
    }
    lobby_.note(room);
    room_lock.unlock();
    lobby_.changed();
  }
  // 2. His personal data, in one transaction (account_deletion.h).
  {
    Transaction tx(store_.db());
    erase_player_data(store_.db(), player.id, now_ms());
    tx.commit();
  }
  // 3. What memory still shows of him: the rooms loaded, the replays' and records' cache, and
  // his connections (signed in with a token that no longer exists).
  std::vector<std::shared_ptr<GameRoom>> rooms;
  {
    std::lock_guard lobby_lock(mutex_);
    rooms = lobby_.rooms();
  }
  for (const std::shared_ptr<GameRoom>& room : rooms) {
    std::lock_guard room_lock(room->mutex());
    room->forget_player(player.id);
    lobby_.note(room);
  }
  lobby_.changed();
  replays_.forget_all();
  std::vector<Client*> connections;
  {
    std::lock_guard lock(clients_mutex_);
    for (auto& [client, state] : clients_) {
      if (state.player && state.player->id == player.id) connections.push_back(client);
    }
  }
  for (Client* client : connections) client->close("the account was deleted");
  spdlog::info("account_deleted player={}", player.id);
  return ApiResponse{200, json{{"deleted", true}}.dump()};
}

}  // namespace viktory::server
