// Leaving (docs/server.md, "Leaving"): GET /api/account/export, a player's data as one JSON
// document: his account, his games, his ratings and their history, and the chat lines he
// wrote. Read on one of the Store's reader connections; bounded in size (ExportLimits): the
// newest games and lines first, `truncated` tells when older ones were left out.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include "database.h"

namespace viktory::server {

struct ExportLimits {
  int max_games = 2000;       // his seats, newest first
  int max_chat_lines = 5000;  // his lines (at most 500 characters each), newest first
  int max_history = 2000;     // rows of his rating history, newest first
};

// The document; nullopt when there is no such player. Nothing of other players but the names
// of his games' seats as everyone sees them.
nlohmann::json export_account(Database& db, std::int64_t player_id, const ExportLimits& limits,
                              std::int64_t now);

}  // namespace viktory::server
