// Scenario "readers": the store's readers with many stored games (issue 19).
//
// Prepare: the server under test makes its schema in a fresh database (started once and
// stopped), then `games` games (default 20,000) are written with SQL in one transaction: 60 %
// running (one in ten private, one in ten without spectators), 40 % finished, two seats each
// among 2,000 players, one in two with a clock of a day per move. Plain SQL on the tables every
// version has, so that an older server reads the same database.
// Attack: `attackers` clients (default 4), each from an address of its own and seated in `own`
// running games (default 100: "your games" lists at most 100 open and running ones), repeat
// `request` (default lobby.running; my_games is the other list read from the store) as fast as
// they are answered.
// Honest: every 100 ms a new connection signs in (latency from auth to welcome) and asks for
// the games to watch (latency from lobby.running to its answer).
#include <sqlite3.h>

#include <atomic>
#include <random>
#include <stdexcept>
#include <thread>

#include "abuse.h"
#include "json.h"
#include "support/server_process.h"

namespace viktory::abuse {
namespace {

// One SQLite connection of the bench's own, with a few helpers.
class Sql {
 public:
  explicit Sql(const std::string& path) {
    if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) throw std::runtime_error("sqlite3_open");
    sqlite3_busy_timeout(db_, 10000);
  }
  ~Sql() { sqlite3_close(db_); }
  void exec(const std::string& sql) {
    char* error = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
      const std::string what = error != nullptr ? error : "?";
      sqlite3_free(error);
      throw std::runtime_error("sql: " + what + " in " + sql.substr(0, 80));
    }
  }
  sqlite3_stmt* prepare(const std::string& sql) {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &s, nullptr) != SQLITE_OK) {
      throw std::runtime_error(std::string("prepare: ") + sqlite3_errmsg(db_));
    }
    return s;
  }
  void step(sqlite3_stmt* s) {
    if (sqlite3_step(s) != SQLITE_DONE) {
      throw std::runtime_error(std::string("step: ") + sqlite3_errmsg(db_));
    }
    sqlite3_reset(s);
  }

 private:
  sqlite3* db_ = nullptr;
};

void prepare(Context& c) {
  {
    // The server under test makes its own schema (its migrations), then stops.
    viktory::server::testing::ServerProcess schema(c.db, c.web_root, {"--log-level", "info"},
                                                   {c.server, false, {}});
    schema.terminate();
  }
  const long games = c.param("games", 20000);
  const int players = 2000;
  Sql sql(c.db);
  sql.exec("BEGIN");
  sqlite3_stmt* player =
      sql.prepare("INSERT INTO players(id, name, token_hash, created) VALUES(?, ?, ?, 1)");
  for (int i = 1; i <= players; ++i) {
    const std::string name = "Seed " + std::to_string(i);
    const std::string hash = "seed-" + std::to_string(i);
    sqlite3_bind_int(player, 1, i);
    sqlite3_bind_text(player, 2, name.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(player, 3, hash.c_str(), -1, SQLITE_TRANSIENT);
    sql.step(player);
  }
  sqlite3_finalize(player);
  viktory::Options options;
  options.players = 2;
  const std::string options_text = viktory::protocol::options_to_json(options).dump();
  const std::string clock =
      R"({"per_move_seconds":86400,"bank_seconds":0,"vacation_days":0,"skips_before_expel":2,)"
      R"("expel":"concede"})";
  sqlite3_stmt* game = sql.prepare(
      "INSERT INTO games(id, options, seed, status, created, creator, private, result, "
      "current_seat, seq, last_move_at, spectators) VALUES(?, ?, 1, ?, ?, ?, ?, ?, 0, 10, ?, ?)");
  sqlite3_stmt* seat =
      sql.prepare("INSERT INTO seats(game_id, seat, player_id, joined) VALUES(?, ?, ?, 1)");
  sqlite3_stmt* timed = sql.prepare(
      "INSERT INTO game_clocks(game_id, options, state, log, due) VALUES(?, ?, 'null', '[]', 0)");
  std::mt19937 rng(19);
  const std::int64_t now = 1'790'000'000'000;
  for (long id = 1; id <= games; ++id) {
    const bool running = id % 10 < 6;
    const int first = static_cast<int>(rng() % players) + 1;
    const int second = first % players + 1;
    sqlite3_bind_int64(game, 1, id);
    sqlite3_bind_text(game, 2, options_text.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(game, 3, running ? "running" : "finished", -1, SQLITE_STATIC);
    sqlite3_bind_int64(game, 4, now - 40LL * 86400000);
    sqlite3_bind_int(game, 5, first);
    sqlite3_bind_int(game, 6, id % 10 == 3 ? 1 : 0);
    if (running) {
      sqlite3_bind_null(game, 7);
    } else {
      sqlite3_bind_text(game, 7, R"({"ended_by":"standard","winners":[0]})", -1, SQLITE_STATIC);
    }
    sqlite3_bind_int64(game, 8, now - static_cast<std::int64_t>(rng() % (30LL * 86400000)));
    sqlite3_bind_text(game, 9, id % 10 == 5 ? "none" : "live", -1, SQLITE_STATIC);
    sql.step(game);
    for (int s = 0; s < 2; ++s) {
      sqlite3_bind_int64(seat, 1, id);
      sqlite3_bind_int(seat, 2, s);
      sqlite3_bind_int(seat, 3, s == 0 ? first : second);
      sql.step(seat);
    }
    if (id % 2 == 0) {
      sqlite3_bind_int64(timed, 1, id);
      sqlite3_bind_text(timed, 2, clock.c_str(), -1, SQLITE_TRANSIENT);
      sql.step(timed);
    }
  }
  sqlite3_finalize(game);
  sqlite3_finalize(seat);
  sqlite3_finalize(timed);
  sql.exec("COMMIT");
}

Report run(Context& c) {
  const Account honest = new_player(c.port, "Honest", address(0));
  std::atomic<bool> stop{false};
  std::atomic<long> answered{0};
  std::vector<std::thread> attackers;
  const std::string request =
      c.params.count("request") ? c.params.at("request") : std::string("lobby.running");
  if (c.attack) {
    std::vector<Account> accounts;
    for (int i = 1; i <= c.param("attackers", 4); ++i) {
      accounts.push_back(new_player(c.port, "Attacker " + std::to_string(i), address(i)));
    }
    {
      // Each attacker takes seat 0 of `own` running games (written beside the running server:
      // it reads "your games" from the store each time).
      Sql sql(c.db);
      const long own = c.param("own", 100);
      for (std::size_t k = 0; k < accounts.size(); ++k) {
        sql.exec("UPDATE seats SET player_id = " + accounts[k].player_id +
                 " WHERE seat = 0 AND game_id IN (SELECT id FROM games WHERE status = 'running' "
                 "AND id % 7 = " +
                 std::to_string(k) + " LIMIT " + std::to_string(own) + ")");
      }
    }
    for (std::size_t k = 0; k < accounts.size(); ++k) {
      attackers.emplace_back([&, a = accounts[k], i = static_cast<int>(k) + 1] {
        try {
          auto ws = connect_as(c.port, a, address(i));
          for (int req = 1; !stop; ++req) {
            ws->send(nlohmann::json{{"type", request}, {"req", req}});
            if (!ws->receive(std::chrono::seconds(5))) break;
            ++answered;
          }
        } catch (const std::exception&) {
          // refused or closed: the attacker is done
        }
      });
    }
  }
  Samples signin;
  Samples running;
  std::size_t listed = 0;
  const auto end = std::chrono::steady_clock::now() + c.duration;
  while (std::chrono::steady_clock::now() < end) {
    WsClient ws;
    ws.connect(c.port, "/ws", true, {{"X-Forwarded-For", address(0)}});
    auto start = std::chrono::steady_clock::now();
    viktory::server::testing::sign_in(ws, honest);
    signin.add(ms_since(start));
    start = std::chrono::steady_clock::now();
    ws.send(nlohmann::json{{"type", "lobby.running"}});
    listed = ws.wait_type("lobby.running")["games"].size();
    running.add(ms_since(start));
    ws.close();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  stop = true;
  for (std::thread& t : attackers) t.join();
  Report r;
  r.add("games_stored", static_cast<double>(c.param("games", 20000)));
  r.add("signin_count", static_cast<double>(signin.count()));
  r.add("signin_p50_ms", signin.percentile(50));
  r.add("signin_p99_ms", signin.percentile(99));
  r.add("running_p50_ms", running.percentile(50));
  r.add("running_p99_ms", running.percentile(99));
  r.add("running_listed", static_cast<double>(listed));
  r.add("attacker_answers", static_cast<double>(answered.load()));
  return r;
}

const bool registered = register_scenario(
    {"readers",
     "stored games (--param games=N); clients repeating a read (--param request=TYPE) vs an "
     "honest sign-in and lobby.running",
     {},
     run,
     prepare});

}  // namespace
}  // namespace viktory::abuse
