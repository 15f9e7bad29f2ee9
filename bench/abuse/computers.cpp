// Scenario "computers": games full of computer players that starve an honest player's computer
// opponent (issue 19).
//
// Attack: one client (its own account and address) sends game.create with six "search"
// computer seats (the creator watches) as often as the rate limit allows, all through the run;
// and other accounts fill up to `games` (default 64) such games in all, `per_account` (default
// 4) per account and `per_address` (default 8) per address, so that the server's caps on
// computer games allow them. Every attacking connection stays open and reads what it is sent
// (it watches its games: nothing is paused). With `--param leave=1` every attacker closes his
// connection once his games run (the attacker went away; the single client after his first
// refusal).
//
// Honest: one player (his own address) in a 2-player game against one "search" computer, who
// acts at once (a random legal action) whenever it is his turn, and starts a new game when one
// ends. He measures the computer's decision latency: from the update that makes the computer
// the decider (or the update with the computer's previous action, when it decides again) to
// the update with its action (a decision under way when the run ends is waited for). The server's
// computer decision rate comes from /metrics (viktory_actions_total during the run, less the honest
// player's own actions).
#include <atomic>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <thread>

#include "abuse.h"

namespace viktory::abuse {
namespace {

using nlohmann::json;
using viktory::server::testing::http_request;
using viktory::server::testing::Seen;
using Clock = std::chrono::steady_clock;

json create_message(int req, bool attack_pattern) {
  json computers = json::array();
  if (attack_pattern) {
    for (int seat = 0; seat < 6; ++seat) computers.push_back({{"seat", seat}, {"level", "search"}});
    return json{{"type", "game.create"},
                {"req", req},
                {"seats", 6},
                {"play", false},
                {"computers", computers}};
  }
  computers.push_back({{"seat", 1}, {"level", "search"}});
  return json{{"type", "game.create"}, {"req", req}, {"seats", 2}, {"computers", computers}};
}

// Sends a game.create and waits for its answer: the game id, or the error code.
std::pair<std::int64_t, std::string> create_game(WsClient& ws, int req, bool attack_pattern) {
  ws.send(create_message(req, attack_pattern));
  const json reply = ws.wait_for(
      [&](const json& m) {
        return (m["type"] == "game.created") || (m["type"] == "error" && m.value("req", 0) == req);
      },
      std::chrono::seconds(30));
  if (reply["type"] == "game.created") return {reply["game_id"].get<std::int64_t>(), ""};
  return {0, reply.value("code", "?")};
}

// A figure of GET /metrics (0 when the server has none such).
double metric(int port, const std::string& name) {
  const auto reply = http_request(port, "GET", "/metrics");
  std::istringstream lines(reply.body);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind(name + " ", 0) == 0) return std::stod(line.substr(name.size() + 1));
  }
  return 0;
}

// The server's resident memory in MiB (Linux), 0 when unknown.
double resident_mib(int pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  }
  return 0;
}

struct Attack {
  std::atomic<bool> stop{false};
  std::mutex mutex;
  std::map<std::string, long> spammer_answers;  // "created" or the error code
  std::atomic<long> games{0};
  std::vector<std::unique_ptr<WsClient>> connections;
  std::vector<std::thread> threads;
};

// The single client: game.create with six search computers as often as it is allowed.
void spam_creates(Context& c, Attack& attack, const Account& account, const std::string& from,
                  std::atomic<bool>& first_refusal) {
  std::unique_ptr<WsClient> ws = connect_as(c.port, account, from);
  for (int req = 1; !attack.stop; ++req) {
    const auto started = Clock::now();
    std::string answer;
    try {
      const auto [id, code] = create_game(*ws, req, true);
      answer = id != 0 ? "created" : code;
      if (id != 0) ++attack.games;
    } catch (const std::exception&) {
      answer = "no_answer";
    }
    {
      std::lock_guard lock(attack.mutex);
      ++attack.spammer_answers[answer];
    }
    if (answer != "created" && answer != "rate_limited") {
      first_refusal = true;
      if (c.param("leave", 0) == 1) break;  // the attacker goes away: his connection closes
    }
    while (ws->receive(std::chrono::milliseconds(0))) {
    }
    // A game.create costs 5 of the connection's 20 tokens a second: 4 a second.
    std::this_thread::sleep_until(started + std::chrono::milliseconds(250));
  }
}

Report run(Context& c) {
  const int games = static_cast<int>(c.param("games", 64));
  const int per_account = static_cast<int>(c.param("per_account", 4));
  const int accounts_per_address =
      std::max(1, static_cast<int>(c.param("per_address", 8)) / std::max(1, per_account));
  const bool leave = c.param("leave", 0) == 1;
  Attack attack;
  std::thread spammer;
  if (c.attack) {
    // The single client first, until the server refuses it (other than for its rate).
    const Account spam_account = new_player(c.port, "Spammer", address(1));
    std::atomic<bool> refused{false};
    spammer = std::thread([&, spam_account] {
      try {
        spam_creates(c, attack, spam_account, address(1), refused);
      } catch (const std::exception& e) {
        std::lock_guard lock(attack.mutex);
        ++attack.spammer_answers[std::string("failed: ") + e.what()];
      }
    });
    const auto give_up = Clock::now() + std::chrono::seconds(20);
    while (!refused && Clock::now() < give_up)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    // Then the other accounts, `per_account` games each, `accounts_per_address` per address.
    const int spammed = static_cast<int>(attack.games.load());
    const int fillers = (std::max(0, games - spammed) + per_account - 1) / per_account;
    std::vector<std::thread> creating;
    for (int i = 0; i < fillers; ++i) {
      const int want = std::min(per_account, games - spammed - i * per_account);
      const std::string from = address(2 + i / accounts_per_address);
      creating.emplace_back([&, i, want, from] {
        try {
          const Account a = new_player(c.port, "Attacker " + std::to_string(i), from);
          auto ws = connect_as(c.port, a, from);
          for (int n = 0; n < want; ++n) {
            const auto [id, code] = create_game(*ws, n + 1, true);
            if (id != 0) ++attack.games;
            std::this_thread::sleep_for(std::chrono::milliseconds(260));
          }
          std::lock_guard lock(attack.mutex);
          if (!leave) attack.connections.push_back(std::move(ws));
        } catch (const std::exception& e) {
          std::lock_guard lock(attack.mutex);
          ++attack.spammer_answers[std::string("filler failed: ") + e.what()];
        }
      });
    }
    for (std::thread& t : creating) t.join();
  }

  // The honest player.
  const Account honest = new_player(c.port, "Honest", address(0));
  auto ws = connect_as(c.port, honest, address(0));
  std::mt19937 rng(19);
  Samples latency;
  long honest_actions = 0, games_played = 0, stalls = 0, refusals = 0;
  const double actions_before = metric(c.port, "viktory_actions_total");
  const double hurried_before = metric(c.port, "viktory_computer_jobs_hurried_total");
  const auto start = Clock::now();
  const auto end = start + c.duration;
  int req = 100;
  auto [game_id, code] = create_game(*ws, ++req, false);
  if (game_id == 0) throw std::runtime_error("the honest player's game was refused: " + code);
  Seen seen;
  int sent_for = -1;
  Clock::time_point computer_since{};  // epoch: the computer is not deciding
  for (;;) {
    // After the run, only a decision under way is waited for (so that it counts).
    const bool deciding = computer_since != Clock::time_point{};
    if (Clock::now() >= end && !deciding) break;
    if (Clock::now() >= end + std::chrono::seconds(120)) {
      ++stalls;  // the computer did not answer in two minutes
      break;
    }
    const std::optional<json> m = ws->receive(std::chrono::seconds(1));
    if (!m) continue;
    if ((*m)["type"] == "error") {
      ++refusals;
      continue;
    }
    if (m->value("game_id", std::int64_t{0}) != game_id) continue;
    const int decided_before = seen.view.is_object() && seen.view["decider"].is_number_integer()
                                   ? int(seen.view["decider"])
                                   : -1;
    if (!seen.absorb(*m)) continue;
    const auto now = Clock::now();
    if ((*m)["type"] == "game.update" && decided_before == 1 &&
        computer_since != Clock::time_point{}) {
      latency.add(std::chrono::duration<double, std::milli>(now - computer_since).count());
    }
    computer_since = Clock::time_point{};
    if (seen.view["phase"] == "game_over") {
      ++games_played;
      if (Clock::now() >= end) break;
      std::tie(game_id, code) = create_game(*ws, ++req, false);
      if (game_id == 0) throw std::runtime_error("the honest player's game was refused: " + code);
      seen = Seen{};
      sent_for = -1;
      continue;
    }
    const json& decider = seen.view["decider"];
    if (decider == 1) {
      computer_since = now;
    } else if (decider == 0 && sent_for != seen.seq && Clock::now() < end) {
      std::vector<json> choices;
      for (const json& action : seen.legal) {
        if (action["kind"] != "concede") choices.push_back(action);
      }
      if (choices.empty()) continue;
      const json pick =
          choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(rng)];
      ws->send(
          json{{"type", "game.action"}, {"game_id", game_id}, {"seq", seen.seq}, {"action", pick}});
      sent_for = seen.seq;
      ++honest_actions;
    }
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const double computer_actions =
      metric(c.port, "viktory_actions_total") - actions_before - double(honest_actions);
  const double hurried = metric(c.port, "viktory_computer_jobs_hurried_total") - hurried_before;
  const double rss = resident_mib(c.server_pid);
  const double paused = metric(c.port, "viktory_computer_games_paused");

  attack.stop = true;
  if (spammer.joinable()) spammer.join();
  Report r;
  r.add("hostile_games", static_cast<double>(attack.games.load()));
  {
    std::lock_guard lock(attack.mutex);
    for (const auto& [answer, count] : attack.spammer_answers) {
      r.add("spammer_" + answer, static_cast<double>(count));
    }
  }
  r.add("decisions", static_cast<double>(latency.count()));
  r.add("decision_p50_ms", latency.percentile(50));
  r.add("decision_p99_ms", latency.percentile(99));
  r.add("decision_max_ms", latency.max());
  r.add("honest_actions", static_cast<double>(honest_actions));
  r.add("honest_games_finished", static_cast<double>(games_played));
  r.add("honest_refusals", static_cast<double>(refusals));
  r.add("stalls", static_cast<double>(stalls));
  r.add("server_computer_decisions_per_s", computer_actions / seconds);
  r.add("server_searches_hurried", hurried);
  r.add("server_rss_mib", rss);
  r.add("server_games_paused", paused);
  return r;
}

const bool registered = register_scenario(
    {"computers",
     "games of six search computers (one client creating as often as allowed, and --param "
     "games=64 over as many accounts and addresses as the caps need) vs an honest player's "
     "computer opponent",
     {},
     run});

}  // namespace
}  // namespace viktory::abuse
