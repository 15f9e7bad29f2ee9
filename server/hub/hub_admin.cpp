// The operator's requests under /admin/ (docs/server.md, "Operator"): served only to a loopback
// peer that sent no forwarding header (admin_request_allowed, chat_comforts.h).
#include <spdlog/spdlog.h>

#include "chat_comforts.h"
#include "hub.h"

namespace viktory::server {

ApiResponse Hub::handle_admin(std::string_view method, std::string_view path,
                              std::string_view body) {
  using nlohmann::json;
  if (path != "/admin/chat/hide") return api_error(404, "not_found", "no such path");
  if (method != "POST") return api_error(405, "method", "use POST");
  const json j = json::parse(body, nullptr, false);
  if (!j.is_object() || !j.contains("line") || !j["line"].is_number_integer() ||
      (j.contains("game") && !j["game"].is_number_integer())) {
    return api_error(400, "bad_message", R"(send {"line":<chat line id>} (and "game":<id>))");
  }
  const std::int64_t line = j["line"].get<std::int64_t>();
  try {
    // A line of another game than the one named is refused before anything is hidden.
    if (j.contains("game")) {
      std::optional<std::int64_t> game_of_line;
      store_.with_reader([&](Database& db) {
        Statement s = db.prepare("SELECT game_id FROM chat WHERE id = ?");
        s.bind(1, line);
        if (s.step()) game_of_line = s.int64(0);
      });
      if (game_of_line != j["game"].get<std::int64_t>()) {
        return api_error(404, "not_found", "no such chat line in that game");
      }
    }
    const std::optional<std::int64_t> game = hide_chat_line(store_, line);
    if (!game) return api_error(404, "not_found", "no such chat line");
    spdlog::info("chat_hidden game={} line={}", *game, line);
    // Watchers of the game are told to remove it; a room not loaded reads the chat afresh.
    std::shared_ptr<GameRoom> room;
    {
      std::lock_guard lobby_lock(mutex_);
      room = lobby_.shared_room(*game);
    }
    if (room != nullptr) {
      std::lock_guard room_lock(room->mutex());
      room->chat_line_hidden(line);
    }
    {
      std::lock_guard lobby_lock(mutex_);
      lobby_.evict_idle();
    }
    return ApiResponse{200, json{{"hidden", line}, {"game", *game}}.dump()};
  } catch (const DbError& e) {
    spdlog::error("admin_failed error={}", e.what());
    return api_error(500, "internal", "the server could not handle this request");
  }
}

}  // namespace viktory::server
