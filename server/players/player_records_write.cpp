// What a game's end writes (player_records.h): the players' records and, for a rated game, the
// new ratings (rating.h). Runs inside the transaction that stores the result, on the writer.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <string>
#include <vector>

#include "player_records.h"
#include "rating.h"

namespace viktory::server {
namespace {

// The victory conditions in the engine's order (types.h), for the facets of finished_public:
// 1 + the index, 0 standing for "any".
int condition_code(const std::string& ended_by) {
  for (int v = 0; v < kVictoryConditions; ++v) {
    if (to_string(static_cast<VictoryCondition>(v)) == ended_by) return 1 + v;
  }
  return 0;
}

struct SeatRow {
  int seat = 0;
  std::int64_t player_id = 0;
};

}  // namespace

bool counts_for_ratings(bool created_rated, bool computer_played, const SeatPlaces& places) {
  return created_rated && !computer_played && places.places.size() >= 2 &&
         places.first_round_complete;
}

SeatPlaces places_at_end(const GameState& s) {
  const int n = static_cast<int>(s.players.size());
  // 0: a winner; 1: still in the game; 2: left it (eliminated or conceded).
  std::vector<int> group(n, 2);
  for (int p = 0; p < n; ++p) {
    if (s.players[p].in_game()) group[p] = 1;
  }
  for (int w : s.winners) {
    if (w >= 0 && w < n) group[w] = 0;
  }
  SeatPlaces out;
  out.places.resize(n);
  for (int p = 0; p < n; ++p) {
    out.places[p] = 1 + static_cast<int>(std::count_if(group.begin(), group.end(),
                                                       [&](int g) { return g < group[p]; }));
  }
  // turn counts Player Turns from 1: past n, every seat's first one is over (a seat that left
  // before its first turn is skipped, so the game only needs longer to count).
  out.first_round_complete = s.turn > n;
  return out;
}

void record_game_end(Database& db, std::int64_t game_id, const SeatPlaces& given, std::int64_t at) {
  std::string ended_by;
  nlohmann::json result;
  bool is_private = false;
  bool created_rated = false;
  {
    Statement g = db.cached(
        "SELECT json_extract(result, '$.ended_by'), result, private, rated FROM games "
        "WHERE id = ? AND status = 'finished'");
    g.bind(1, game_id);
    if (!g.step()) return;
    ended_by = g.optional_text(0).value_or("standard");
    result = nlohmann::json::parse(g.optional_text(1).value_or("{}"), nullptr,
                                   /*allow_exceptions=*/false);
    is_private = g.int64(2) != 0;
    created_rated = g.int64(3) != 0;
  }

  std::vector<SeatRow> seats;
  {
    Statement s = db.cached("SELECT seat, player_id FROM seats WHERE game_id = ? ORDER BY seat");
    s.bind(1, game_id);
    while (s.step()) seats.push_back(SeatRow{static_cast<int>(s.int64(0)), s.int64(1)});
  }
  const int n = static_cast<int>(seats.size());
  if (n < 2) return;

  SeatPlaces places = given;
  const bool places_known = static_cast<int>(places.places.size()) == n;
  if (!places_known) {
    // Without the final state (a caller that has none): the winners first, everyone else
    // second; such a game never counts for the ratings.
    places.places.assign(n, 2);
    if (result.is_object() && result.contains("winners") && result["winners"].is_array()) {
      for (const auto& w : result["winners"]) {
        if (w.is_number_integer() && w.get<int>() >= 0 && w.get<int>() < n) places.places[w] = 1;
      }
    }
    places.first_round_complete = false;
  }

  // Computer seats, seats a computer holds after an expulsion (seat_controllers), and any
  // action a computer took for a seat (a takeover taken back since).
  bool computers = false;
  {
    Statement c = db.cached(
        "SELECT EXISTS (SELECT 1 FROM seat_controllers WHERE game_id = ?1) OR "
        "EXISTS (SELECT 1 FROM actions WHERE game_id = ?1 AND source = 'computer')");
    c.bind(1, game_id);
    computers = c.step() && c.int64(0) != 0;
  }
  const bool counts = places_known && counts_for_ratings(created_rated, computers, places);
  if (created_rated && !counts) {
    db.cached("UPDATE games SET rated = 0 WHERE id = ?").bind(1, game_id).run();
    spdlog::info("game_unrated game={} computers={} first_round_complete={}", game_id, computers,
                 places.first_round_complete);
  }

  // Seats are numbered 0..n-1 once a game starts (Store::start_game): the engine's players.
  const auto place_of = [&](int i) {
    const int seat = seats[i].seat;
    return places.places[seat >= 0 && seat < n ? seat : i];
  };
  bool first_time = false;
  for (int i = 0; i < n; ++i) {
    const SeatRow& seat = seats[i];
    const int place = place_of(i);
    db.cached(
          "INSERT OR IGNORE INTO finished_seats(player_id, game_id, seat, players, ended_by, "
          "rated, private, place, finished_at) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)")
        .bind(1, seat.player_id)
        .bind(2, game_id)
        .bind(3, seat.seat)
        .bind(4, n)
        .bind(5, ended_by)
        .bind(6, counts ? 1 : 0)
        .bind(7, is_private ? 1 : 0)
        .bind(8, place)
        .bind(9, at)
        .run();
    if (db.changes() != 1) continue;  // recorded before
    first_time = true;
    db.cached(
          "INSERT INTO player_tallies(player_id, players, ended_by, played, won) "
          "VALUES(?1, ?2, ?3, 1, ?4) ON CONFLICT(player_id, players, ended_by) DO UPDATE SET "
          "played = player_tallies.played + 1, won = player_tallies.won + ?4")
        .bind(1, seat.player_id)
        .bind(2, n)
        .bind(3, ended_by)
        .bind(4, place == 1 ? 1 : 0)
        .run();
  }
  if (!first_time) return;

  if (!is_private) {
    // One row under every combination of the list's filters (any or this value of each), so
    // that each filtered list is one walk down its own key (player_records.cpp).
    const int condition = condition_code(ended_by);
    const int rated_code = counts ? 1 : 2;
    for (int players_part : {0, n}) {
      for (int condition_part : {0, condition}) {
        for (int rated_part : {0, rated_code}) {
          db.cached("INSERT OR IGNORE INTO finished_public(facet, game_id) VALUES(?, ?)")
              .bind(1, players_part * 100 + condition_part * 10 + rated_part)
              .bind(2, game_id)
              .run();
        }
      }
    }
  }

  if (!counts) return;
  std::vector<Rating> before;
  std::vector<int> ranks;
  std::vector<std::int64_t> games_before;
  for (int i = 0; i < n; ++i) {
    const SeatRow& seat = seats[i];
    Statement r =
        db.cached("SELECT mu, sigma, games FROM ratings WHERE player_id = ? AND players = ?");
    r.bind(1, seat.player_id).bind(2, n);
    if (r.step()) {
      before.push_back(Rating{r.real(0), r.real(1)});
      games_before.push_back(r.int64(2));
    } else {
      before.push_back(initial_rating());
      games_before.push_back(0);
    }
    ranks.push_back(place_of(i));
  }
  const std::vector<Rating> after = rate_free_for_all(before, ranks);
  for (int i = 0; i < n; ++i) {
    db.cached(
          "INSERT OR REPLACE INTO ratings(player_id, players, mu, sigma, rating, games, updated) "
          "VALUES(?, ?, ?, ?, ?, ?, ?)")
        .bind(1, seats[i].player_id)
        .bind(2, n)
        .bind_real(3, after[i].mu)
        .bind_real(4, after[i].sigma)
        .bind_real(5, displayed_rating(after[i]))
        .bind(6, games_before[i] + 1)
        .bind(7, at)
        .run();
    db.cached(
          "INSERT INTO rating_history(player_id, game_id, players, place, mu_before, "
          "sigma_before, mu, sigma, at) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)")
        .bind(1, seats[i].player_id)
        .bind(2, game_id)
        .bind(3, n)
        .bind(4, ranks[i])
        .bind_real(5, before[i].mu)
        .bind_real(6, before[i].sigma)
        .bind_real(7, after[i].mu)
        .bind_real(8, after[i].sigma)
        .bind(9, at)
        .run();
  }
}

}  // namespace viktory::server
