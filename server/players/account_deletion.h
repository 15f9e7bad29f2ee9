// Leaving (docs/server.md, "Leaving"): what deleting an account erases, in one place.
//
// The players row stays, so that the foreign keys of seats, actions, chat lines and finished
// seats hold and every replay and record of his games stays whole; it loses its name (an empty
// name, which no living player can have: display_name.h, is how readers know a former player)
// and its token, and former_players says when he left. Everything personal in other tables is
// deleted or blanked by erase_player_data(): kAccountErasures lists each table with why.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "database.h"

namespace viktory::server {

struct AccountErasure {
  std::string_view table;  // for the tests' row counts and for people
  std::string_view sql;    // ?1: the player's id, ?2: now (ms since the epoch)
};

// Every statement deletion runs, in order. Add a row here for each new table that holds a
// player's data (follows, mutes, read marks, ...).
std::span<const AccountErasure> account_erasures();

// Runs account_erasures() for the player in the caller's transaction.
void erase_player_data(Database& db, std::int64_t player_id, std::int64_t now);

// Whether the player deleted his account (his name is empty).
inline bool is_former_name(std::string_view name) { return name.empty(); }

// A seat's name as the API shows it: {"name": ...} or, for a former player, {"name": null,
// "former": true} (the client shows "a former player").
void put_player_name(nlohmann::json& out, const std::string& name);

}  // namespace viktory::server
