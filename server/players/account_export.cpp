#include "account_export.h"

#include "account_deletion.h"

namespace viktory::server {

using nlohmann::json;

namespace {

json account_part(Database& db, std::int64_t player_id) {
  Statement p = db.prepare("SELECT name, created, language FROM players WHERE id = ?");
  p.bind(1, player_id);
  if (!p.step()) return nullptr;
  json account{{"player_id", std::to_string(player_id)},
               {"name", p.text(0)},
               {"created", p.int64(1)},
               {"language", p.is_null(2) ? json(nullptr) : json(p.text(2))},
               {"email", nullptr},
               {"notifications", nullptr},
               {"privacy", "everyone"}};
  Statement e = db.prepare("SELECT address, verified FROM player_emails WHERE player_id = ?");
  e.bind(1, player_id);
  if (e.step()) account["email"] = json{{"address", e.text(0)}, {"verified", e.int64(1) != 0}};
  json notify = json::object();
  Statement n = db.prepare("SELECT push, email FROM notify_settings WHERE player_id = ?");
  n.bind(1, player_id);
  if (n.step()) {
    notify["push"] = n.int64(0) != 0;
    notify["email"] = n.int64(1) != 0;
  }
  Statement np = db.prepare("SELECT time_zone, digest FROM notify_preferences WHERE player_id = ?");
  np.bind(1, player_id);
  if (np.step()) {
    notify["time_zone"] = np.is_null(0) ? json(nullptr) : json(np.text(0));
    notify["digest"] = np.int64(1) != 0;
  }
  Statement pushes = db.prepare("SELECT COUNT(*) FROM push_subscriptions WHERE player_id = ?");
  pushes.bind(1, player_id);
  pushes.step();
  notify["push_subscriptions"] = pushes.int64(0);  // how many; their keys are the browsers'
  account["notifications"] = std::move(notify);
  Statement v = db.prepare("SELECT visible_to FROM profile_privacy WHERE player_id = ?");
  v.bind(1, player_id);
  if (v.step()) account["privacy"] = v.text(0);
  return account;
}

json games_part(Database& db, std::int64_t player_id, int limit, bool& truncated) {
  json games = json::array();
  Statement g = db.prepare(
      "SELECT g.id, s.seat, g.status, g.created, g.last_move_at, g.result, g.rated, g.private, "
      "f.place, f.finished_at FROM seats s JOIN games g ON g.id = s.game_id "
      "LEFT JOIN finished_seats f ON f.game_id = g.id AND f.player_id = s.player_id "
      "WHERE s.player_id = ? AND g.status != 'cancelled' ORDER BY g.id DESC LIMIT ?");
  g.bind(1, player_id).bind(2, limit + 1);
  while (g.step()) {
    if (static_cast<int>(games.size()) == limit) {
      truncated = true;
      break;
    }
    json game{{"game_id", g.int64(0)},
              {"seat", g.int64(1)},
              {"status", g.text(2)},
              {"created", g.int64(3)},
              {"finished", nullptr},
              {"result", nullptr},
              {"place", g.is_null(8) ? json(nullptr) : json(g.int64(8))},
              {"rated", g.int64(6) != 0},
              {"private", g.int64(7) != 0}};
    if (!g.is_null(9)) game["finished"] = g.int64(9);
    if (!g.is_null(5)) {
      json result = json::parse(g.text(5), nullptr, false);
      if (!result.is_discarded()) game["result"] = std::move(result);
    }
    json players = json::array();
    Statement seats = db.cached(
        "SELECT s.seat, p.name FROM seats s JOIN players p ON p.id = s.player_id "
        "WHERE s.game_id = ? ORDER BY s.seat");
    seats.bind(1, g.int64(0));
    while (seats.step()) {
      json seat{{"seat", seats.int64(0)}};
      put_player_name(seat, seats.text(1));
      players.push_back(std::move(seat));
    }
    game["players"] = std::move(players);
    games.push_back(std::move(game));
  }
  return games;
}

json ratings_part(Database& db, std::int64_t player_id) {
  json ratings = json::array();
  Statement r = db.prepare(
      "SELECT players, rating, mu, sigma, games, updated FROM ratings WHERE player_id = ? "
      "ORDER BY players");
  r.bind(1, player_id);
  while (r.step()) {
    ratings.push_back(json{{"players", r.int64(0)},
                           {"rating", r.real(1)},
                           {"mu", r.real(2)},
                           {"sigma", r.real(3)},
                           {"games", r.int64(4)},
                           {"updated", r.int64(5)}});
  }
  return ratings;
}

json history_part(Database& db, std::int64_t player_id, int limit, bool& truncated) {
  json history = json::array();
  Statement h = db.prepare(
      "SELECT game_id, players, place, mu_before, sigma_before, mu, sigma, at "
      "FROM rating_history WHERE player_id = ? ORDER BY game_id DESC LIMIT ?");
  h.bind(1, player_id).bind(2, limit + 1);
  while (h.step()) {
    if (static_cast<int>(history.size()) == limit) {
      truncated = true;
      break;
    }
    history.push_back(json{{"game_id", h.int64(0)},
                           {"players", h.int64(1)},
                           {"place", h.int64(2)},
                           {"mu_before", h.real(3)},
                           {"sigma_before", h.real(4)},
                           {"mu", h.real(5)},
                           {"sigma", h.real(6)},
                           {"at", h.int64(7)}});
  }
  return history;
}

json chat_part(Database& db, std::int64_t player_id, int limit, bool& truncated) {
  json lines = json::array();
  // chat_by_player: his lines alone, newest first.
  Statement c = db.prepare(
      "SELECT game_id, at, seat, text FROM chat INDEXED BY chat_by_player WHERE player_id = ? "
      "ORDER BY id DESC LIMIT ?");
  c.bind(1, player_id).bind(2, limit + 1);
  while (c.step()) {
    if (static_cast<int>(lines.size()) == limit) {
      truncated = true;
      break;
    }
    lines.push_back(json{{"game_id", c.int64(0)},
                         {"at", c.int64(1)},
                         {"channel", c.is_null(2) ? "spectators" : "players"},
                         {"text", c.text(3)}});
  }
  return lines;
}

}  // namespace

json export_account(Database& db, std::int64_t player_id, const ExportLimits& limits,
                    std::int64_t now) {
  json account = account_part(db, player_id);
  if (account.is_null()) return nullptr;
  bool games_cut = false;
  bool history_cut = false;
  bool chat_cut = false;
  json out{{"format", "viktory-account-export-1"},
           {"exported_at", now},
           {"account", std::move(account)},
           {"games", games_part(db, player_id, limits.max_games, games_cut)},
           {"ratings", ratings_part(db, player_id)},
           {"rating_history", history_part(db, player_id, limits.max_history, history_cut)},
           {"chat", chat_part(db, player_id, limits.max_chat_lines, chat_cut)}};
  out["truncated"] =
      json{{"games", games_cut}, {"rating_history", history_cut}, {"chat", chat_cut}};
  return out;
}

}  // namespace viktory::server
