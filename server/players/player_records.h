// Players' records and ratings (docs/server.md, "Ratings" and "Players' records"): what is
// written when a game ends, in the transaction that stores its result (record_game_end, called
// by the Store), and the read side: the ladder per player count, the lists of finished games
// and a player's profile, each behind the profile's privacy setting (HTTP, /api/ladder,
// /api/finished, /api/players/<id>, /api/profile/privacy: docs/protocol.md, "Players' records").
//
// Every read walks an index in the order it answers and stops after a page (or a few rows per
// player count): the time does not grow with the number of stored games.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>

#include "common.h"
#include "database.h"
#include "state.h"
#include "store.h"

namespace viktory::server {

// How the seats placed at the end of `s` (a finished game), by seat: the winners first [5.x],
// then those still in the game, then those who left it (eliminated or conceded), each group
// sharing one place, numbered as in sport (1, 2, 2, 4). first_round_complete: the game had
// reached the Player Turn after every seat's first one.
SeatPlaces places_at_end(const GameState& s);

// Whether a finished game counts for the ratings (docs/server.md, "Ratings"): created rated, no
// computer ever held a seat or decided for one (`computer_played`), and every seat's first
// Player Turn was over. record_game_end decides with it from the store, the room from memory.
bool counts_for_ratings(bool created_rated, bool computer_played, const SeatPlaces& places);

// Writes a finished game's records (finished_seats, player_tallies, finished_public) and, when
// the game counts for the ratings, the players' new ratings and their history rows; clears
// games.rated when a game created rated does not count. Reads the result from the game's row,
// so it runs after that row was written, inside the same transaction, on the writing
// connection (held by the caller). Runs once per game: a second call changes nothing.
void record_game_end(Database& db, std::int64_t game_id, const SeatPlaces& places, std::int64_t at);

// Who may see a player's profile data (his profile, his list of finished games, his name and
// rating in the ladder). He himself always may.
enum class ProfileVisibility { kEveryone, kOpponents, kNobody };
const char* to_string(ProfileVisibility v);
std::optional<ProfileVisibility> profile_visibility_from_string(std::string_view s);

// Whether `viewer` (0: a stranger) may see `owner`'s profile by his privacy setting (friends.h
// shows a followed player's online state by the same rule).
bool profile_visible_to(Database& db, std::int64_t viewer, std::int64_t owner);
// The same for many owners at once (a friends list): `viewer_opponents` from opponents_of,
// read once, instead of a walk of the viewer's games per owner.
bool profile_visible_to(Database& db, std::int64_t viewer, std::int64_t owner,
                        const std::unordered_set<std::int64_t>& viewer_opponents);
// The players who held a seat with `viewer` in a game that started (running or finished).
std::unordered_set<std::int64_t> opponents_of(Database& db, std::int64_t viewer);
// A player's ratings, one per player count he is rated in, in that order: {players, rating, mu,
// sigma, games} (a profile and /api/computer-levels answer them).
nlohmann::json ratings_of(Database& db, std::int64_t player);

// Limits of the read API (fixed; docs/server.md lists them).
struct PlayerRecordsLimits {
  static constexpr int kDefaultPage = 20;
  static constexpr int kMaxPage = 50;
  static constexpr int kProfileHistory = 20;   // rating changes shown on a profile
  static constexpr int kProfileFinished = 10;  // recent finished games on a profile
  static constexpr int kProfileUnderWay = 10;  // public games under way on a profile
};

// Whether the path is one of this API's (the Hub charges the address, then calls handle).
bool is_player_records_path(std::string_view path);

// The API's answers. `viewer`: the player of the bearer token, if any (a stranger otherwise).
ApiResponse handle_player_records_api(Store& store, std::string_view method, std::string_view path,
                                      const std::map<std::string, std::string>& query,
                                      std::string_view body,
                                      const std::optional<PlayerRecord>& viewer);

}  // namespace viktory::server
