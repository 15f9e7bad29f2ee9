// Several real servers on one PostgreSQL database (--server-url, docs/postgresql.md): a game is
// served by one process at a time, a request for it at another is answered with where it is
// served, a process that lost a game writes none of its actions, and when the serving process
// is killed another takes the game over with every acknowledged action and none twice; a
// rolling restart hands the games over at once. Runs only in the "pg." copy of the integration
// tests (tests/server/CMakeLists.txt).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <thread>

#include "common.h"
#include "database.h"
#include "support/play.h"
#include "support/server_process.h"
#include "test_support.h"

namespace viktory::server::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kLease = "1500";  // ms: short, so that a takeover comes soon

std::vector<std::string> serving_as(const std::string& url,
                                    const std::vector<std::string>& more = {}) {
  std::vector<std::string> args{"--server-url", url, "--lease-ms", kLease};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// The number of the game's stored actions, and the highest seq among them.
std::pair<std::int64_t, std::int64_t> stored_actions(const std::string& db, std::int64_t id) {
  Database check(db);
  Statement count = check.prepare("SELECT count(*), max(seq) FROM actions WHERE game_id = ?");
  count.bind(1, id);
  EXPECT_TRUE(count.step());
  return {count.int64(0), count.int64(1)};
}

// game.watch: the state, or the error the server answered with.
json watch(WsClient& ws, std::int64_t id) {
  ws.send(json{{"type", "game.watch"}, {"game_id", id}});
  return ws.wait_for([&](const json& m) {
    const std::string type = m.value("type", "");
    return (type == "game.state" && m.value("game_id", std::int64_t{0}) == id) || type == "error";
  });
}

// Two servers sharing a fresh database, each named by its --server-url; Alice and Bob signed
// up. Only in the pg. copy, on the throwaway cluster.
class SeveralServers : public ::testing::Test {
 protected:
  virtual std::pair<std::string, std::string> urls() const {
    return {"http://first.example", "http://second.example"};
  }
  void SetUp() override {
    if (!postgresql_test_host()) GTEST_SKIP() << "runs as pg.* on a throwaway cluster";
    const auto [first_url, second_url] = urls();
    first = std::make_unique<ServerProcess>(db, dir.path().string(), serving_as(first_url));
    second = std::make_unique<ServerProcess>(db, dir.path().string(), serving_as(second_url));
    alice = sign_up(first->port(), "Alice");
    bob = sign_up(first->port(), "Bob");
  }
  TempDir dir;
  std::string db = dir.file("game.db");
  std::unique_ptr<ServerProcess> first;
  std::unique_ptr<ServerProcess> second;
  Account alice;
  Account bob;
};

TEST_F(SeveralServers, OneServerServesAGameAnotherTakesItOverWhenThatOneDiesOrStops) {
  // Alice and Bob play on the first server, which serves their game from its creation.
  WsClient a, b;
  a.connect(first->port());
  b.connect(first->port());
  sign_in(a, alice);
  sign_in(b, bob);
  std::vector<Seen> seen;
  const std::int64_t id = start_game({&a, &b}, seen);
  play_actions({&a, &b}, seen, id, 4);

  // Bob's second tab reaches the other server: told where the game is served.
  WsClient elsewhere;
  elsewhere.connect(second->port());
  sign_in(elsewhere, bob);
  const json refused = watch(elsewhere, id);
  EXPECT_EQ(refused.value("code", ""), "game_elsewhere") << refused.dump();
  EXPECT_EQ(refused.value("server", ""), "http://first.example");
  // A made-up game is no such game, and asking for it writes no lease.
  EXPECT_EQ(watch(elsewhere, id + 1000).value("code", ""), "not_found");
  {
    Database check(db);
    Statement leases = check.prepare("SELECT count(*) FROM game_leases WHERE game_id <> ?");
    leases.bind(1, id);
    ASSERT_TRUE(leases.step());
    EXPECT_EQ(leases.int64(0), 0);
  }

  // A third process takes the game (as one would after the first stalled past its lease):
  // the first writes no more of it; its players are told where the game is now.
  {
    Database check(db);
    check
        .prepare(
            "UPDATE game_leases SET owner = 'intruder', url = 'http://third.example', "
            "expires = ? WHERE game_id = ?")
        .bind(1, now_ms() + 60'000)
        .bind(2, id)
        .run();
  }
  const int before = seen[0].seq;
  const auto decider = static_cast<std::size_t>(int(seen[0].view.at("decider")));
  WsClient* actor = decider == 0 ? &a : &b;
  actor->send(json{{"type", "game.action"},
                   {"game_id", id},
                   {"seq", before},
                   {"action", seen[decider].legal.at(0)}});
  const json lost = actor->wait_for([](const json& m) {
    return m.value("type", "") == "error" ||
           (m.value("type", "") == "game.update" && m.value("seq", 0) > 0);
  });
  EXPECT_EQ(lost.value("code", ""), "game_elsewhere") << lost.dump();
  EXPECT_EQ(lost.value("server", ""), "http://third.example");
  EXPECT_EQ(stored_actions(db, id).first, before) << "the refused action was not written";

  // The third process dies in turn (its lease lapses): whoever asks first serves the game.
  {
    Database check(db);
    check.prepare("UPDATE game_leases SET expires = 1 WHERE game_id = ?").bind(1, id).run();
  }
  json back = watch(a, id);
  ASSERT_EQ(back.value("type", ""), "game.state") << back.dump();
  seen[0].absorb(back);
  back = watch(b, id);
  ASSERT_EQ(back.value("type", ""), "game.state") << back.dump();
  seen[1].absorb(back);
  play_actions({&a, &b}, seen, id, 3);
  const int acknowledged = seen[0].seq;
  EXPECT_EQ(stored_actions(db, id),
            std::make_pair(std::int64_t{acknowledged}, std::int64_t{acknowledged}));

  // kill -9 of the serving process: the other serves the game once the lease has lapsed.
  first->kill9();
  const auto killed = std::chrono::steady_clock::now();
  WsClient a2, b2;
  a2.connect(second->port());
  b2.connect(second->port());
  sign_in(a2, alice);
  sign_in(b2, bob);
  json state;
  int refusals = 0;
  while (std::chrono::steady_clock::now() - killed < 15s) {
    state = watch(a2, id);
    if (state.value("type", "") == "game.state") break;
    EXPECT_EQ(state.value("code", ""), "game_elsewhere") << state.dump();
    ++refusals;
    std::this_thread::sleep_for(100ms);
  }
  ASSERT_EQ(state.value("type", ""), "game.state") << state.dump();
  EXPECT_GT(refusals, 0) << "the dead server's lease still ran for a while";
  std::vector<Seen> seen2(2);
  seen2[0].absorb(state);
  EXPECT_EQ(seen2[0].seq, acknowledged) << "every acknowledged action is there, none twice";
  const json bobs = watch(b2, id);
  ASSERT_EQ(bobs.value("type", ""), "game.state") << bobs.dump();
  seen2[1].absorb(bobs);
  play_actions({&a2, &b2}, seen2, id, 3);

  // A rolling restart: the first server comes back, the second stops gracefully and hands
  // its games over at once (no waiting for the lease), and the game goes on on the first.
  first =
      std::make_unique<ServerProcess>(db, dir.path().string(), serving_as("http://first.example"));
  EXPECT_EQ(second->terminate(), 0);
  WsClient a3, b3;
  a3.connect(first->port());
  b3.connect(first->port());
  sign_in(a3, alice);
  sign_in(b3, bob);
  std::vector<Seen> seen3(2);
  const json again = watch(a3, id);
  ASSERT_EQ(again.value("type", ""), "game.state") << "handed over: " << again.dump();
  seen3[0].absorb(again);
  const json again_bob = watch(b3, id);
  ASSERT_EQ(again_bob.value("type", ""), "game.state") << again_bob.dump();
  seen3[1].absorb(again_bob);
  EXPECT_EQ(seen3[0].seq, seen2[0].seq);
  play_actions({&a3, &b3}, seen3, id, 2);
  const std::int64_t total = seen3[0].seq;
  EXPECT_EQ(stored_actions(db, id), std::make_pair(total, total))
      << "every acknowledged action stored once";
  EXPECT_EQ(first->terminate(), 0);
  EXPECT_EQ(first->log().find(" error "), std::string::npos) << first->log();
}

// What `asker` is told about `about` at a server: {"online", "last_seen"}, null when left out.
json presence_at(int port, const Account& asker, const Account& about) {
  const HttpReply r =
      http_request(port, "GET", "/api/presence?players=" + about.player_id, "", asker.token);
  EXPECT_EQ(r.status, 200) << r.body;
  const json players = r.json().value("players", json::object());
  return players.contains(about.player_id) ? players[about.player_id] : json();
}

// Whether a server's lobby list (GET /api/games) shows a game.
bool listed_at(int port, std::int64_t id) {
  const HttpReply r = http_request(port, "GET", "/api/games?limit=50");
  EXPECT_EQ(r.status, 200) << r.body;
  for (const json& g : r.json().value("games", json::array())) {
    if (g.value("game_id", std::int64_t{0}) == id) return true;
  }
  return false;
}

// Waits (at most `limit`) until `done` holds; whether it did.
bool eventually(const std::function<bool()>& done, std::chrono::milliseconds limit = 8s) {
  const auto since = std::chrono::steady_clock::now();
  while (!done()) {
    if (std::chrono::steady_clock::now() - since > limit) return false;
    std::this_thread::sleep_for(50ms);
  }
  return true;
}

// The servers tell each other their open games and who is online (peer_bus.h): every lobby
// lists every open game, a join at the wrong server is sent to the right one, a player is
// online wherever he is connected, and a dead server's games and players are not shown as its
// for longer than its silence (its open games are listed again by a survivor, which serves them).
TEST_F(SeveralServers, EveryLobbyListsEveryOpenGameAndPresenceSpansTheServers) {
  // On a failure, both servers' logs (what each said to the other shows there).
  struct Logs {
    ServerProcess* first;
    ServerProcess* second;
    ~Logs() {
      if (!::testing::Test::HasFailure() && std::uncaught_exceptions() == 0) return;
      std::cerr << "first server:\n" << first->log() << "second server:\n" << second->log();
    }
  } logs{first.get(), second.get()};
  WsClient a, bob_second;
  a.connect(first->port());
  bob_second.connect(second->port());
  sign_in(a, alice);
  sign_in(bob_second, bob);
  bob_second.send(json{{"type", "lobby.subscribe"}});
  bob_second.wait_type("lobby");

  // Alice opens a game on the first server; Bob, in the second's lobby, sees it come.
  a.send(json{{"type", "game.create"}, {"seats", 2}, {"req", 1}});
  const std::int64_t id = a.wait_type("game.created").at("game_id");
  const json came = bob_second.wait_for([&](const json& m) {
    if (m.value("type", "") != "lobby.changes") return false;
    for (const json& g : m.value("games", json::array())) {
      if (g.value("game_id", std::int64_t{0}) == id) return true;
    }
    return false;
  });
  ASSERT_EQ(came.value("type", ""), "lobby.changes") << "never listed at the second server";
  EXPECT_TRUE(listed_at(second->port(), id));
  // Joining it there: told where it is served (the client follows, elsewhere.js).
  bob_second.send(json{{"type", "game.join"}, {"game_id", id}, {"seat", 1}, {"req", 2}});
  const json refused = bob_second.wait_type("error");
  EXPECT_EQ(refused.value("code", ""), "game_elsewhere") << refused.dump();
  EXPECT_EQ(refused.value("server", ""), "http://first.example");
  // Bob joins at the first server: the game starts and leaves the second's list too.
  WsClient bob_first;
  bob_first.connect(first->port());
  sign_in(bob_first, bob);
  bob_first.send(json{{"type", "game.join"}, {"game_id", id}, {"seat", 1}});
  bob_first.wait_type("game.state");
  const json gone = bob_second.wait_for([&](const json& m) {
    return m.value("type", "") == "lobby.changes" &&
           m.value("removed", json::array()).dump().find(std::to_string(id)) != std::string::npos;
  });
  EXPECT_EQ(gone.value("type", ""), "lobby.changes") << "still listed at the second server";
  EXPECT_FALSE(listed_at(second->port(), id));

  // Presence: Bob is online at the first server while any of his connections is open, on
  // either server; offline, with the time, when the last one closes.
  EXPECT_EQ(presence_at(first->port(), alice, bob).value("online", false), true);
  bob_first.close();
  std::this_thread::sleep_for(500ms);
  EXPECT_EQ(presence_at(first->port(), alice, bob).value("online", false), true)
      << "his tab at the second server is still open";
  bob_second.close();
  ASSERT_TRUE(
      eventually([&] { return presence_at(first->port(), alice, bob)["online"] == false; }));
  EXPECT_TRUE(presence_at(first->port(), alice, bob)["last_seen"].is_number_integer());

  // Bob comes back at the second server, where Alice opens another game; the second dies.
  WsClient bob_back, alice_second;
  bob_back.connect(second->port());
  alice_second.connect(second->port());
  sign_in(bob_back, bob);
  sign_in(alice_second, alice);
  alice_second.send(json{{"type", "game.create"}, {"seats", 2}, {"req", 1}});
  const std::int64_t open_id = alice_second.wait_type("game.created").at("game_id");
  ASSERT_TRUE(eventually([&] { return presence_at(first->port(), alice, bob)["online"] == true; }));
  ASSERT_TRUE(eventually([&] { return listed_at(first->port(), open_id); }));
  second->kill9();
  const auto killed = std::chrono::steady_clock::now();
  // Its players go offline once it has been silent for a lease's term (1.5 s here); its open
  // game is listed again by the first server, which now serves it.
  ASSERT_TRUE(
      eventually([&] { return presence_at(first->port(), alice, bob)["online"] == false; }));
  EXPECT_LT(std::chrono::steady_clock::now() - killed, 5s);
  // (the second's entries are gone now: a listing from here on is the first's own)
  EXPECT_TRUE(eventually([&] { return listed_at(first->port(), open_id); }));
  EXPECT_NE(first->log().find("game_taken_over game=" + std::to_string(open_id) + " open=true"),
            std::string::npos)
      << "taken over by the renewal round, before anyone asked for it";
  // Served here now: watching it is acknowledged (an open game sends its seats, no state).
  a.send(json{{"type", "game.watch"}, {"game_id", open_id}, {"req", 7}});
  const json served = a.wait_for([](const json& m) {
    return (m.value("type", "") == "ack" && m.value("req", 0) == 7) ||
           m.value("type", "") == "error";
  });
  EXPECT_EQ(served.value("type", ""), "ack") << served.dump();
  EXPECT_EQ(first->log().find(" error "), std::string::npos) << first->log();
}

// One game's two players, on their own thread while the load runs.
struct Table {
  WsClient a, b;
  std::vector<Seen> seen;
  std::int64_t id = 0;
  std::vector<WsClient*> both() { return {&a, &b}; }
  // The last seq a player saw: acknowledged (an action's actor sees its update after the
  // commit).
  int acknowledged() const { return std::max(seen[0].seq, seen[1].seq); }
};

void open_game(Table& t, int port, const Account& alice, const Account& bob) {
  t.a.connect(port);
  t.b.connect(port);
  sign_in(t.a, alice);
  sign_in(t.b, bob);
  t.seen.assign(2, Seen{});
  t.seen[0].absorb(watch(t.a, t.id));
  t.seen[1].absorb(watch(t.b, t.id));
}

TEST_F(SeveralServers, UnderLoadTheOtherServerTakesOverEveryGameWithEveryAcknowledgedAction) {
  constexpr int kGames = 6;
  std::vector<std::unique_ptr<Table>> tables;
  for (int i = 0; i < kGames; ++i) {
    auto t = std::make_unique<Table>();
    t->a.connect(first->port());
    t->b.connect(first->port());
    sign_in(t->a, alice);
    sign_in(t->b, bob);
    t->id = start_game(t->both(), t->seen);
    tables.push_back(std::move(t));
  }
  // Every game played as fast as its players can, until the first server dies under them.
  std::atomic<bool> stop{false};
  std::vector<std::thread> players;
  for (auto& t : tables) {
    players.emplace_back([&stop, table = t.get()] {
      try {
        while (!stop) play_actions(table->both(), table->seen, table->id, 1);
      } catch (const std::exception&) {
        // The server went away, an action perhaps in flight.
      }
    });
  }
  std::this_thread::sleep_for(1500ms);
  first->kill9();
  stop = true;
  for (std::thread& t : players) t.join();

  // On the second server once the leases lapse: each game with every acknowledged action and
  // at most the one in flight, each stored once; and each game goes on.
  int total = 0;
  for (auto& old : tables) {
    const int acknowledged = old->acknowledged();
    EXPECT_GT(acknowledged, 1) << "the load ran";
    Table t;
    t.id = old->id;
    const auto until = std::chrono::steady_clock::now() + 15s;
    for (;;) {
      WsClient probe;
      probe.connect(second->port());
      sign_in(probe, alice);
      if (watch(probe, t.id).value("type", "") == "game.state") break;
      ASSERT_LT(std::chrono::steady_clock::now(), until) << "game " << t.id << " not taken over";
      std::this_thread::sleep_for(100ms);
    }
    open_game(t, second->port(), alice, bob);
    const int seq = t.seen[0].seq;
    EXPECT_GE(seq, acknowledged) << "game " << t.id;
    EXPECT_LE(seq, acknowledged + 1) << "game " << t.id;
    EXPECT_EQ(stored_actions(db, t.id), std::make_pair(std::int64_t{seq}, std::int64_t{seq}));
    play_actions(t.both(), t.seen, t.id, 2);
    EXPECT_EQ(stored_actions(db, t.id).first, t.seen[0].seq);
    total += acknowledged;
  }
  EXPECT_EQ(second->terminate(), 0);
  EXPECT_EQ(second->log().find(" error "), std::string::npos) << second->log();
  std::cout << "[ load     ] " << total << " acknowledged actions in " << kGames
            << " games before the kill, all kept\n";
}

// A free loopback port (another program may take it before it is used: tests only).
int free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t length = sizeof address;
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  close(fd);
  return ntohs(address.sin_port);
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
    text.replace(at, from.size(), to);
    at += to.size();
  }
  return text;
}

// The part between the "routing" lines of a shipped proxy configuration, with the servers'
// names (server1:8080, server2:8080) replaced by the test servers' addresses.
std::string shipped_routing(const std::string& file, int first_port, int second_port) {
  std::ifstream in(std::string(VIKTORY_DEPLOY_DIR) + "/" + file);
  std::stringstream whole;
  whole << in.rdbuf();
  const std::string text = whole.str();
  const std::size_t from = text.find("# -- routing --");
  const std::size_t to = text.find("# -- end of routing --");
  if (from == std::string::npos || to == std::string::npos) {
    throw std::runtime_error("no routing lines in deploy/" + file);
  }
  std::string routing = text.substr(from, to - from);
  routing = replaced(routing, "server1:8080", "127.0.0.1:" + std::to_string(first_port));
  return replaced(routing, "server2:8080", "127.0.0.1:" + std::to_string(second_port));
}

bool accepts(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  const bool up = connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  close(fd);
  return up;
}

// A real proxy (Debian's nginx or Caddy) on loopback, plain HTTP, with the routing of deploy/'s
// configuration for it in front of the two test servers.
class Proxy {
 public:
  enum Kind { kNginx, kCaddy };
  static const char* program(Kind kind) {
    return kind == kNginx ? "/usr/sbin/nginx" : "/usr/bin/caddy";
  }

  Proxy(Kind kind, const std::filesystem::path& dir, int first_port, int second_port)
      : port_(free_port()) {
    std::filesystem::create_directories(dir / "logs");
    const std::string d = dir.string();
    const std::string listen = "127.0.0.1:" + std::to_string(port_);
    std::vector<std::string> args;
    std::ofstream conf(dir / "proxy.conf");
    if (kind == kNginx) {
      conf << "daemon off;\nmaster_process off;\npid " << d << "/nginx.pid;\nerror_log " << d
           << "/logs/error.log;\nevents {}\nhttp {\naccess_log off;\n";
      for (const char* temp : {"client_body", "proxy", "fastcgi", "uwsgi", "scgi"}) {
        conf << temp << "_temp_path " << d << "/" << temp << ";\n";
      }
      conf << shipped_routing("nginx-several-servers.conf", first_port, second_port)
           << "server {\nlisten " << listen << ";\nlocation = /ws {\n"
           << "proxy_pass http://$viktory_upstream;\nproxy_http_version 1.1;\n"
           << "proxy_set_header Upgrade $http_upgrade;\n"
           << "proxy_set_header Connection \"upgrade\";\n}\n}\n}\n";
      args = {program(kind), "-p", d, "-c", d + "/proxy.conf", "-e", d + "/logs/error.log"};
    } else {
      conf << "{\n\tadmin off\n\tauto_https off\n}\nhttp://" << listen << " {\n"
           << shipped_routing("Caddyfile.several-servers", first_port, second_port) << "}\n";
      args = {program(kind), "run", "--config", d + "/proxy.conf", "--adapter", "caddyfile"};
    }
    conf.close();
    pid_ = fork();
    if (pid_ == 0) {
      // Caddy keeps its state under the user's folders: here, the test's.
      setenv("HOME", d.c_str(), 1);
      setenv("XDG_DATA_HOME", d.c_str(), 1);
      setenv("XDG_CONFIG_HOME", d.c_str(), 1);
      const int null = open("/dev/null", O_WRONLY);
      dup2(null, 1);
      dup2(null, 2);
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    for (int i = 0; i < 200 && !accepts(port_); ++i) std::this_thread::sleep_for(50ms);
    if (!accepts(port_)) throw std::runtime_error(std::string(program(kind)) + " did not start");
  }
  ~Proxy() {
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
  }
  Proxy(const Proxy&) = delete;
  Proxy& operator=(const Proxy&) = delete;
  int port() const { return port_; }

 private:
  int port_;
  pid_t pid_ = -1;
};

// The cookie the web client sets for a server URL (web-client/js/elsewhere.js).
std::pair<std::string, std::string> cookie_for(const std::string& url) {
  return {"Cookie", "viktory_server=" + replaced(replaced(url, ":", "%3A"), "/", "%2F")};
}

// Named as in the shipped files (the proxy reaches them at serverN:8080 there).
class ShippedProxy : public SeveralServers, public ::testing::WithParamInterface<Proxy::Kind> {
 protected:
  std::pair<std::string, std::string> urls() const override {
    return {"http://server1:8080", "http://server2:8080"};
  }
};

// With the cookie naming a server, the proxy sends the player there every time; with it naming
// a server that died, to another one, which serves the game once the lease has lapsed.
TEST_P(ShippedProxy, SendsAPlayerToTheServerOfHisGame) {
  const char* program = Proxy::program(GetParam());
  if (!std::filesystem::exists(program)) {
    if (std::getenv("VIKTORY_REQUIRE_PROXIES") != nullptr) FAIL() << program << " is missing";
    GTEST_SKIP() << program << " is not installed";
  }
  Proxy proxy(GetParam(), dir.path() / "proxy", first->port(), second->port());

  // A game served by the second server.
  WsClient a, b;
  a.connect(second->port());
  b.connect(second->port());
  sign_in(a, alice);
  sign_in(b, bob);
  std::vector<Seen> seen;
  const std::int64_t id = start_game({&a, &b}, seen);
  play_actions({&a, &b}, seen, id, 2);

  // Through the proxy with the cookie naming a server: that server, every time. The first
  // server refuses the game and names the second; the cookie for the second gets it.
  for (int i = 0; i < 3; ++i) {
    WsClient to_first;
    to_first.connect(proxy.port(), "/ws", true, {cookie_for("http://server1:8080")});
    sign_in(to_first, bob);
    const json refused = watch(to_first, id);
    EXPECT_EQ(refused.value("code", ""), "game_elsewhere") << refused.dump();
    ASSERT_EQ(refused.value("server", ""), "http://server2:8080");
    WsClient followed;
    followed.connect(proxy.port(), "/ws", true, {cookie_for(refused.value("server", ""))});
    sign_in(followed, bob);
    EXPECT_EQ(watch(followed, id).value("type", ""), "game.state");
  }

  // The second server dies: with the cookie still naming it, the proxy falls back on the
  // first, which serves the game once the lease has lapsed.
  second->kill9();
  const auto killed = std::chrono::steady_clock::now();
  json state;
  while (std::chrono::steady_clock::now() - killed < 15s) {
    try {
      WsClient again;
      again.connect(proxy.port(), "/ws", true, {cookie_for("http://server2:8080")});
      sign_in(again, bob);
      state = watch(again, id);
      if (state.value("type", "") == "game.state") break;
    } catch (const std::exception&) {
      // The proxy's first try at the dead server: the next attempt goes on to the backup.
    }
    std::this_thread::sleep_for(200ms);
  }
  ASSERT_EQ(state.value("type", ""), "game.state") << state.dump();
  EXPECT_EQ(int(state.at("seq")), seen[0].seq);
}

INSTANTIATE_TEST_SUITE_P(SeveralServers, ShippedProxy,
                         ::testing::Values(Proxy::kNginx, Proxy::kCaddy),
                         [](const ::testing::TestParamInfo<Proxy::Kind>& kind) {
                           return std::string(kind.param == Proxy::kNginx ? "Nginx" : "Caddy");
                         });

// The caps on open games per player and in all count the open games of every server (the
// database's): a player cannot hold his cap's worth of seats at each server.
TEST(SeveralServersCaps, APlayersOpenGamesAndTheTotalCountAtEveryServer) {
  if (!postgresql_test_host())
    GTEST_SKIP() << "runs as pg.SeveralServersCaps.* on a throwaway cluster";
  TempDir dir;
  const std::string db = dir.file("game.db");
  const std::vector<std::string> caps{"--max-open-games-per-player", "1", "--max-open-games", "2"};
  ServerProcess first(db, dir.path().string(), serving_as("http://first.example", caps));
  ServerProcess second(db, dir.path().string(), serving_as("http://second.example", caps));
  const Account alice = sign_up(first.port(), "Alice");
  const Account bob = sign_up(first.port(), "Bob");
  const Account carol = sign_up(first.port(), "Carol");
  WsClient a1, a2, b2, c1;
  a1.connect(first.port());
  a2.connect(second.port());
  b2.connect(second.port());
  c1.connect(first.port());
  sign_in(a1, alice);
  sign_in(a2, alice);
  sign_in(b2, bob);
  sign_in(c1, carol);
  const auto create = [](WsClient& ws) {
    ws.send(json{{"type", "game.create"}, {"seats", 3}, {"req", 1}});
    return ws.wait_for([](const json& m) {
      return m.value("type", "") == "game.created" || m.value("type", "") == "error";
    });
  };
  const json hers = create(a1);
  ASSERT_EQ(hers.value("type", ""), "game.created") << hers.dump();
  // Alice holds her one open seat at the first server: the second refuses her another.
  const json again = create(a2);
  EXPECT_EQ(again.value("code", ""), "too_many_open_games") << again.dump();
  // Bob opens the second open game of the two allowed in all, at the second server...
  ASSERT_EQ(create(b2).value("type", ""), "game.created");
  // ... and Carol, at the first, finds the total reached.
  const json third = create(c1);
  EXPECT_EQ(third.value("code", ""), "too_many_open_games") << third.dump();
}

// The budgets of what all servers spend are charged at every server (rate_limit.h,
// ChargeSink): one client address makes no more accounts by reaching each server in turn.
TEST(SeveralServersCaps, SignUpsFromOneAddressCountAtEveryServer) {
  if (!postgresql_test_host())
    GTEST_SKIP() << "runs as pg.SeveralServersCaps.* on a throwaway cluster";
  TempDir dir;
  const std::string db = dir.file("game.db");
  const std::vector<std::string> caps{"--signups-per-minute", "1"};  // a burst of 2
  ServerProcess first(db, dir.path().string(), serving_as("http://first.example", caps));
  ServerProcess second(db, dir.path().string(), serving_as("http://second.example", caps));
  const auto sign_up_at = [](int port, const std::string& name) {
    return http_request(port, "POST", "/api/session", json{{"name", name}}.dump()).status;
  };
  EXPECT_EQ(sign_up_at(first.port(), "Alice"), 200);
  EXPECT_EQ(sign_up_at(first.port(), "Bob"), 200);
  // The second server hears of them within moments (one try: a sign-up it let through would
  // spend its own budget), and refuses a third from the address.
  std::this_thread::sleep_for(1s);
  EXPECT_EQ(sign_up_at(second.port(), "Carol"), 429);
}

// Servers that share a database and one that believes it is alone never run side by side.
TEST(SeveralServersModes, AServerAloneAndSharingServersRefuseEachOther) {
  if (!postgresql_test_host()) GTEST_SKIP() << "runs as pg.SeveralServers.* on a throwaway cluster";
  TempDir dir;
  const std::string db = dir.file("game.db");
  {
    ServerProcess sharing(db, dir.path().string(), serving_as("http://first.example"));
    EXPECT_THROW(ServerProcess alone(db, dir.path().string()), std::exception);
  }
  ServerProcess alone(db, dir.path().string());
  EXPECT_THROW(ServerProcess sharing(db, dir.path().string(), serving_as("http://first.example")),
               std::exception);
}

}  // namespace
}  // namespace viktory::server::testing
