// Scenario "lobby": hostile clients fill the lobby while an honest player watches it (issue 19).
//
// Attack: `addresses` client addresses (default 50), each with one connection at a time: it
// signs up a player, creates open public games of six seats (so that the joiners below rarely
// fill one) as fast as it is answered until the server refuses one (a cap), then signs up the
// next player, until the address is refused
// (its cap, or its sign-ups); after that the first `churners` addresses (default 4) join and
// leave one of the ten oldest open games over and over, so that the first page of the list
// changes all the time. Old servers without caps simply keep creating.
// Honest: one connection subscribes to the lobby at the start (lobby.subscribe with no fields:
// the server's default) and counts every byte it receives for `--seconds`.
// Reports the open games at the end (GET /api/games), the honest player's bytes, and his bytes
// per minute.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "abuse.h"

namespace viktory::abuse {
namespace {

using nlohmann::json;

// The number of open public games now (a count field since the lobby was paged; the length of
// the whole list before).
long open_games(int port) {
  const json j = viktory::server::testing::http_request(port, "GET", "/api/games").json();
  if (j.contains("count")) return j["count"].get<long>();
  return static_cast<long>(j.value("games", json::array()).size());
}

// One hostile address: creates until refused, then (a churner) joins and leaves open games.
void attack(Context& c, int index, const std::atomic<bool>& stop, std::atomic<long>& created) {
  const std::string from = address(index);
  int player = 0;
  bool creating = true;
  std::unique_ptr<WsClient> ws;
  int req = 0;
  const auto ask = [&](const json& m) -> json {
    json sent = m;
    sent["req"] = ++req;
    ws->send(sent);
    // The answer to this request: an ack, an error, or what it made.
    return ws->wait_for(
        [&](const json& r) {
          // (a refusal by the rate limit comes before the message is read: it has no req)
          return r.value("req", -1) == req || r["type"] == "error" || r["type"] == "game.created" ||
                 r["type"] == "game.state";
        },
        std::chrono::seconds(10));
  };
  try {
    while (!stop && creating) {
      Account a;
      try {
        a = new_player(c.port, "Host " + std::to_string(index) + "." + std::to_string(++player),
                       from);
      } catch (const std::exception&) {
        creating = false;  // no more sign-ups from this address for now
        break;
      }
      if (ws) ws->close();
      ws = connect_as(c.port, a, from);
      bool refused = false;
      while (!stop && !refused) {
        const json r = ask(json{{"type", "game.create"}, {"seats", 6}});
        if (r["type"] == "game.created") {
          ++created;
        } else if (r["type"] == "error" && r["code"] == "rate_limited") {
          std::this_thread::sleep_for(std::chrono::milliseconds(200));
        } else {
          refused = true;
          // The address's cap (or the total): no new player helps.
          if (r.value("message", "").find("address") != std::string::npos ||
              r.value("message", "").find("server") != std::string::npos) {
            creating = false;
          }
        }
      }
    }
    if (index > c.param("churners", 4) || stop) return;
    // A fresh player who holds no seat joins and leaves the oldest open game.
    const Account churner = new_player(c.port, "Churn " + std::to_string(index), from);
    if (ws) ws->close();
    ws = connect_as(c.port, churner, from);
    while (!stop) {
      const json first =
          viktory::server::testing::http_request(c.port, "GET", "/api/games?limit=10").json();
      const json games = first.value("games", json::array());
      if (games.empty()) break;
      // (an old server answers the whole list: the ten oldest are its first ten)
      const json game_id = games[static_cast<std::size_t>(std::rand()) %
                                 std::min<std::size_t>(games.size(), 10)]["game_id"];
      const json joined = ask(json{{"type", "game.join"}, {"game_id", game_id}});
      if (joined["type"] == "error") {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        continue;
      }
      ask(json{{"type", "game.leave"}, {"game_id", game_id}});
    }
  } catch (const std::exception& e) {
    // closed or refused: this address is done
    if (c.param("verbose", 0)) std::cerr << "address " << index << ": " << e.what() << "\n";
  }
}

Report run(Context& c) {
  const Account honest = new_player(c.port, "Honest", address(0));
  auto watcher = connect_as(c.port, honest, address(0));
  const auto start = std::chrono::steady_clock::now();
  watcher->send(json{{"type", "lobby.subscribe"}});
  std::atomic<bool> stop{false};
  std::atomic<long> created{0};
  std::vector<std::thread> attackers;
  if (c.attack) {
    for (int i = 1; i <= c.param("addresses", 50); ++i) {
      attackers.emplace_back([&, i] { attack(c, i, stop, created); });
    }
  }
  std::size_t bytes = 0;
  std::size_t messages = 0;
  std::size_t first_page = 0;
  const auto end = start + c.duration;
  while (std::chrono::steady_clock::now() < end) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        end - std::chrono::steady_clock::now());
    const auto text = watcher->receive_raw(std::min(left, std::chrono::milliseconds(500)));
    if (!text) continue;
    if (messages == 0) first_page = text->size();
    bytes += text->size();
    ++messages;
  }
  const double seconds = ms_since(start) / 1000.0;
  const bool closed = watcher->wait_closed(std::chrono::milliseconds(1));
  const long open = open_games(c.port);
  stop = true;
  for (std::thread& t : attackers) t.join();
  Report r;
  r.add("games_created", static_cast<double>(created.load()));
  r.add("open_games_at_end", static_cast<double>(open));
  r.add("honest_messages", static_cast<double>(messages));
  r.add("honest_first_message_bytes", static_cast<double>(first_page));
  r.add("honest_bytes", static_cast<double>(bytes));
  r.add("honest_bytes_per_minute", static_cast<double>(bytes) * 60.0 / seconds);
  r.add("honest_disconnected", closed ? "yes" : "no");
  return r;
}

const bool registered = register_scenario(
    {"lobby",
     "addresses creating open games until refused, then churning the first page (--param "
     "addresses=N, churners=N) vs the bytes an honest lobby subscriber receives",
     {},
     run,
     nullptr});

}  // namespace
}  // namespace viktory::abuse
