// The lobby against one hostile client (issue 19): caps on open games (per player, per client
// address, in all), the paged open list whose subscribers are sent their page once and then
// only its changes, within a byte budget each, and the time control in every summary (issue
// 20). Over the Hub (no sockets) and the Lobby itself, on real database files.
#include "lobby.h"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include "hub.h"
#include "reveal_round.h"
#include "test_support.h"

namespace viktory::server {
namespace {

using nlohmann::json;
using testing::TempDir;

// A subscriber the Lobby's own thread delivers to: every message kept under a lock, and the
// open list rebuilt from them as the browser client does (lobby.js): `lobby` sets the page,
// `lobby.changes` removes and upserts games and sets the count; the page is ordered by game id.
class ListClient : public Client {
 public:
  void deliver(Message m) override {
    std::lock_guard lock(mutex_);
    const json message = json::parse(*m);
    const std::string type = message.value("type", "");
    if (type == "lobby") {
      page_.clear();
      for (const json& g : message["games"]) page_[g["game_id"].get<std::int64_t>()] = g;
      count_ = message["count"];
    } else if (type == "lobby.changes") {
      for (const json& id : message["removed"]) page_.erase(id.get<std::int64_t>());
      for (const json& g : message["games"]) page_[g["game_id"].get<std::int64_t>()] = g;
      count_ = message["count"];
      change_bytes_ += m->size();
      max_change_ = std::max(max_change_, m->size());
      ++changes_;
    }
    messages_.push_back(message);
  }
  void close(std::string_view) override {}

  // The page as rebuilt: {games, count}.
  json view() const {
    std::lock_guard lock(mutex_);
    json games = json::array();
    for (const auto& [id, g] : page_) games.push_back(g);
    return json{{"games", games}, {"count", count_}};
  }
  json last(const std::string& type) const {
    std::lock_guard lock(mutex_);
    for (auto it = messages_.rbegin(); it != messages_.rend(); ++it) {
      if (it->value("type", "") == type) return *it;
    }
    return nullptr;
  }
  std::size_t change_bytes() const {
    std::lock_guard lock(mutex_);
    return change_bytes_;
  }
  std::size_t max_change() const {
    std::lock_guard lock(mutex_);
    return max_change_;
  }
  int changes() const {
    std::lock_guard lock(mutex_);
    return changes_;
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::int64_t, json> page_;
  json count_ = 0;
  std::vector<json> messages_;
  std::size_t change_bytes_ = 0;
  std::size_t max_change_ = 0;
  int changes_ = 0;
};

// What the server's page holds, in the form of ListClient::view().
json server_page(Lobby& lobby, const LobbyPage& page) {
  const json p = lobby.open_games(page);
  return json{{"games", p["games"]}, {"count", p["count"]}};
}

// Waits (a few seconds at most) until the client's rebuilt page is the server's.
bool converges(Lobby& lobby, const ListClient& client, const LobbyPage& page,
               std::chrono::seconds patience = std::chrono::seconds(15)) {
  const auto until = std::chrono::steady_clock::now() + patience;
  while (std::chrono::steady_clock::now() < until) {
    if (client.view() == server_page(lobby, page)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

// A Lobby over a real file, with players and the room operations the Hub makes (each noted
// under the room's lock, then changed()).
struct LobbyFixture {
  explicit LobbyFixture(LobbyLimits limits = {}) {
    store = std::make_unique<Store>(dir.file("lobby.db"));
    lobby = std::make_unique<Lobby>(*store, metrics, RoomLimits{}, limits);
  }
  ~LobbyFixture() { lobby.reset(); }

  PlayerRecord player(const std::string& name) {
    return store->create_player(name, "hash-" + name + std::to_string(++players_made), 1);
  }
  // A public game of `seats` with a clock of `per_move_seconds` (0: none), or the refusal.
  std::variant<GameRoom*, Failure> create(const PlayerRecord& p, int seats = 2,
                                          std::int64_t per_move_seconds = 0,
                                          const std::string& address = "") {
    CreateRequest req;
    req.options.players = seats;
    req.address = address;
    if (per_move_seconds > 0) {
      req.clock = json{{"per_move_seconds", per_move_seconds},
                       {"bank_seconds", 3600},
                       {"vacation_days", 2},
                       {"skips_before_expel", 3},
                       {"expel", "concede"}};
    }
    auto made = lobby->create(p, req);
    lobby->changed();
    return made;
  }
  template <class F>
  Outcome on_room(std::int64_t id, F f) {
    std::shared_ptr<GameRoom> room = lobby->shared_room(id);
    Outcome outcome;
    {
      std::lock_guard lock(room->mutex());
      outcome = f(*room);
      lobby->note(room);
    }
    lobby->changed();
    return outcome;
  }
  Outcome join(std::int64_t id, const PlayerRecord& p) {
    return on_room(id, [&](GameRoom& r) {
      Outcome joined = r.join(p, std::nullopt, "");
      testing::complete_reveal_round(r);  // fair play's round, as the clients answer it
      return joined;
    });
  }
  Outcome leave(std::int64_t id, const PlayerRecord& p) {
    return on_room(id, [&](GameRoom& r) { return r.leave(p.id); });
  }
  Outcome start(std::int64_t id, const PlayerRecord& p) {
    return on_room(id, [&](GameRoom& r) {
      Outcome started = r.start(p.id);
      testing::complete_reveal_round(r);
      return started;
    });
  }

  TempDir dir;
  Metrics metrics;
  std::unique_ptr<Store> store;
  std::unique_ptr<Lobby> lobby;
  int players_made = 0;
};

std::int64_t id_of(const std::variant<GameRoom*, Failure>& made) {
  if (auto* f = std::get_if<Failure>(&made)) {
    ADD_FAILURE() << f->code << ": " << f->message;
    return 0;
  }
  return std::get<GameRoom*>(made)->id();
}

std::string refusal(const std::variant<GameRoom*, Failure>& made) {
  auto* f = std::get_if<Failure>(&made);
  return f == nullptr ? "created" : f->code;
}

// ------------------------------------------------------------------------------------ caps

TEST(LobbyCaps, APlayerHoldsASeatInAtMostTheCapOfOpenGames) {
  LobbyLimits limits;
  limits.open_games_per_player = 3;
  LobbyFixture f(limits);
  const PlayerRecord mallory = f.player("Mallory");
  const PlayerRecord alice = f.player("Alice");
  std::vector<std::int64_t> games;
  for (int i = 0; i < 3; ++i) games.push_back(id_of(f.create(mallory, 3)));
  // Before, every creation was taken: 473 public games in 30 s from 8 connections.
  EXPECT_EQ(refusal(f.create(mallory)), "too_many_open_games");
  EXPECT_EQ(f.lobby->open_seats_of(mallory.id), 3);
  EXPECT_EQ(f.lobby->open_games()["count"], 3);
  // Joined games count as well: Alice holds three seats, then may take no other.
  const std::int64_t hers = id_of(f.create(alice, 3));
  ASSERT_FALSE(f.join(games[0], alice));
  ASSERT_FALSE(f.join(games[1], alice));
  EXPECT_EQ(f.lobby->open_seats_of(alice.id), 3);
  ASSERT_TRUE(f.lobby->may_take_open_seat(alice.id));
  EXPECT_EQ(f.lobby->may_take_open_seat(alice.id)->code, "too_many_open_games");
  EXPECT_EQ(refusal(f.create(alice)), "too_many_open_games");
  // A game that starts or is cancelled frees its places.
  ASSERT_FALSE(f.start(games[0], mallory));
  EXPECT_EQ(f.lobby->open_seats_of(alice.id), 2);
  EXPECT_EQ(f.lobby->open_seats_of(mallory.id), 2);
  ASSERT_FALSE(f.leave(hers, alice));  // the creator leaving cancels it
  EXPECT_EQ(f.lobby->open_seats_of(alice.id), 1);
  EXPECT_FALSE(f.lobby->may_take_open_seat(alice.id));
  id_of(f.create(mallory));
  EXPECT_EQ(refusal(f.create(mallory)), "too_many_open_games");
}

TEST(LobbyCaps, AnAddressCreatesAtMostTheCapOfOpenGamesAndAllAtMostTheTotal) {
  LobbyLimits limits;
  limits.open_games_per_player = 1;
  limits.open_games_per_address = 4;
  limits.open_games = 10;
  LobbyFixture f(limits);
  int n = 0;
  const auto someone = [&] { return f.player("P" + std::to_string(++n)); };
  for (int i = 0; i < 4; ++i) id_of(f.create(someone(), 2, 0, "203.0.113.7"));
  // A fresh player from the same address (sign-ups are 30 a minute per address).
  EXPECT_EQ(refusal(f.create(someone(), 2, 0, "203.0.113.7")), "too_many_open_games");
  for (int i = 0; i < 4; ++i) id_of(f.create(someone(), 2, 0, "198.51.100.1"));
  id_of(f.create(someone(), 2, 0, "192.0.2.1"));
  id_of(f.create(someone(), 2, 0, "192.0.2.2"));
  EXPECT_EQ(f.lobby->open_count(), 10);
  EXPECT_EQ(refusal(f.create(someone(), 2, 0, "192.0.2.3")), "too_many_open_games");
  // A game of the capped address starting makes room for another from it.
  const std::int64_t first = f.lobby->open_games()["games"][0]["game_id"];
  ASSERT_FALSE(f.join(first, someone()));
  EXPECT_EQ(f.lobby->open_count(), 9);
  id_of(f.create(someone(), 2, 0, "203.0.113.7"));
  EXPECT_EQ(refusal(f.create(someone(), 2, 0, "203.0.113.7")), "too_many_open_games");
}

// The caps over the Hub: game.create and game.join refused with a clear error, the address
// the connection's.
TEST(LobbyCaps, TheHubRefusesCreatingAndJoiningPastTheCaps) {
  TempDir dir;
  Store store(dir.file("hub.db"));
  Metrics metrics;
  HubOptions options;
  options.lobby.open_games_per_player = 2;
  options.lobby.open_games_per_address = 3;
  options.signups_per_minute = 1000;
  Hub hub(store, metrics, options);
  std::vector<std::unique_ptr<ListClient>> clients;
  const auto connect = [&](const std::string& name, const std::string& address) {
    const ApiResponse r =
        hub.handle_api("POST", "/api/session", json{{"name", name}}.dump(), "", address);
    clients.push_back(std::make_unique<ListClient>());
    hub.on_open(clients.back().get(), address);
    hub.on_message(clients.back().get(),
                   json{{"type", "auth"}, {"token", json::parse(r.body)["token"]}}.dump());
    return clients.back().get();
  };
  const auto create = [&](ListClient* c) {
    hub.on_message(c, json{{"type", "game.create"}, {"seats", 3}}.dump());
    return c->last("game.created")["game_id"];
  };
  ListClient* mallory = connect("Mallory", "203.0.113.7");
  const json first = create(mallory);
  create(mallory);
  hub.on_message(mallory, json{{"type", "game.create"}, {"seats", 3}}.dump());
  EXPECT_EQ(mallory->last("error")["code"], "too_many_open_games");
  EXPECT_NE(mallory->last("error")["message"].get<std::string>().find("open games"),
            std::string::npos);
  ListClient* again = connect("Mallory2", "203.0.113.7");
  create(again);
  hub.on_message(again, json{{"type", "game.create"}, {"seats", 3}}.dump());
  EXPECT_EQ(again->last("error")["code"], "too_many_open_games");  // the address's third
  // Joining: Alice from elsewhere holds two seats, then a third is refused.
  ListClient* alice = connect("Alice", "198.51.100.1");
  create(alice);
  create(alice);
  hub.on_message(alice, json{{"type", "game.join"}, {"game_id", first}, {"req", 9}}.dump());
  EXPECT_EQ(alice->last("error")["code"], "too_many_open_games");
  EXPECT_EQ(alice->last("error")["req"], 9);
  for (auto& c : clients) hub.on_close(c.get());
}

// ------------------------------------------------------------------- paging and changes

TEST(LobbyPaging, PagesRebuiltFromTheFirstMessageAndTheChangesAreTheServers) {
  LobbyLimits limits;
  limits.open_games_per_player = 3;
  limits.subscriber_bytes_per_minute = 100000000;  // the budget is tested below
  LobbyFixture f(limits);
  std::vector<PlayerRecord> players;
  for (int i = 0; i < 14; ++i) players.push_back(f.player("P" + std::to_string(i)));
  const std::vector<LobbyPage> pages = {{"", 0, 5},      {"", 3, 4},        {"live", 0, 3},
                                        {"daily", 1, 5}, {"untimed", 2, 2}, {"", 0, 50}};
  std::vector<std::unique_ptr<ListClient>> clients;
  for (const LobbyPage& page : pages) {
    clients.push_back(std::make_unique<ListClient>());
    f.lobby->subscribe(clients.back().get(), page);
  }
  std::mt19937 rng(20261126);
  const auto pick = [&](std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
  };
  int operations = 0;
  for (int step = 0; step < 400; ++step) {
    const json open = f.lobby->open_games()["games"];
    const int what = static_cast<int>(pick(10));
    if (what < 4 || open.empty()) {
      const std::int64_t speeds[] = {0, 120, 86400, 3 * 86400};
      if (std::holds_alternative<GameRoom*>(f.create(
              players[pick(players.size())], 2 + static_cast<int>(pick(3)), speeds[pick(4)]))) {
        ++operations;
      }
    } else {
      const json& g = open[pick(open.size())];
      const std::int64_t id = g["game_id"];
      const PlayerRecord& p = players[pick(players.size())];
      Outcome outcome;
      if (what < 7) {
        outcome = f.join(id, p);
      } else if (what < 9) {
        // A seated player leaves (the creator: the game is cancelled).
        const json& seats = g["seats"];
        const json& seat = seats[pick(seats.size())];
        if (seat["player_id"].is_null()) continue;
        const std::int64_t seated = std::stoll(seat["player_id"].get<std::string>());
        outcome = f.leave(id, PlayerRecord{seated, ""});
      } else {
        const std::int64_t creator = std::stoll(g["creator"]["player_id"].get<std::string>());
        outcome = f.start(id, PlayerRecord{creator, ""});
      }
      if (!outcome) ++operations;
    }
    // Now and then the Lobby's thread sends meanwhile: changes coalesce, or go one by one.
    if (pick(25) == 0) std::this_thread::sleep_for(std::chrono::milliseconds(150));
  }
  ASSERT_GT(operations, 150);
  ASSERT_GT(f.lobby->open_games()["count"].get<int>(), 5) << "the pages should not be empty";
  for (std::size_t i = 0; i < pages.size(); ++i) {
    // Before, a subscriber got the whole list on every change: no page, no count.
    EXPECT_TRUE(converges(*f.lobby, *clients[i], pages[i]))
        << "page " << i << " rebuilt: " << clients[i]->view().dump()
        << "\nthe server's: " << server_page(*f.lobby, pages[i]).dump();
    EXPECT_GT(clients[i]->changes(), 0);
  }
  // The list is oldest first, so a game created now changes only the count of the first page.
  const int before = clients[0]->changes();
  const json first = clients[0]->view();
  id_of(f.create(f.player("Late")));
  ASSERT_TRUE(converges(*f.lobby, *clients[0], pages[0]));
  EXPECT_EQ(clients[0]->changes(), before + 1);
  EXPECT_EQ(clients[0]->view()["games"], first["games"]);
  EXPECT_EQ(clients[0]->last("lobby.changes")["games"].size(), 0u);
  for (auto& c : clients) f.lobby->unsubscribe(c.get());
}

TEST(LobbyPaging, TheSpeedFilterAndTheClockAreInEverySummary) {
  LobbyFixture f;
  const std::int64_t untimed = id_of(f.create(f.player("A")));
  const std::int64_t live = id_of(f.create(f.player("B"), 2, 300));
  const std::int64_t daily = id_of(f.create(f.player("C"), 2, 3 * 86400));
  const json all = f.lobby->open_games(LobbyPage{"", 0, 10});
  ASSERT_EQ(all["count"], 3);
  EXPECT_EQ(all["games"][0]["speed"], "untimed");
  EXPECT_TRUE(all["games"][0]["clock"].is_null());
  const json days = f.lobby->open_games(LobbyPage{"daily", 0, 10});
  ASSERT_EQ(days["count"], 1);
  EXPECT_EQ(days["games"][0]["game_id"], daily);
  EXPECT_EQ(days["games"][0]["clock"]["per_move_seconds"], 3 * 86400);
  EXPECT_EQ(days["games"][0]["clock"]["bank_seconds"], 3600);
  EXPECT_EQ(days["games"][0]["clock"]["vacation_days"], 2);
  EXPECT_EQ(days["games"][0]["clock"]["skips_before_expel"], 3);
  EXPECT_EQ(f.lobby->open_games(LobbyPage{"live", 0, 10})["games"][0]["game_id"], live);
  EXPECT_EQ(f.lobby->open_games(LobbyPage{"untimed", 0, 10})["games"][0]["game_id"], untimed);
  // The clock comes back from the store (the table game_clocks) for a game read again.
  f.store->db()
      .prepare("INSERT INTO game_clocks(game_id, options, state, log) VALUES(?, ?, 'null', '[]')")
      .bind(1, daily)
      .bind(2, days["games"][0]["clock"].dump())
      .run();
  const auto stored = f.store->game(daily);
  ASSERT_TRUE(stored);
  EXPECT_EQ(GameRoom::summary_of(*stored)["clock"], days["games"][0]["clock"]);
  EXPECT_STREQ(GameRoom::speed_of(*stored), "daily");
  EXPECT_STREQ(GameRoom::speed_of(*f.store->game(untimed)), "untimed");
  // Pages asked for wrongly are refused.
  LobbyPage page;
  EXPECT_EQ(make_lobby_page(LobbyLimits{}, "fast", std::nullopt, std::nullopt, page)->code,
            "bad_page");
  EXPECT_TRUE(make_lobby_page(LobbyLimits{}, "", -1, std::nullopt, page));
  EXPECT_TRUE(make_lobby_page(LobbyLimits{}, "", 0, 51, page));
  EXPECT_FALSE(make_lobby_page(LobbyLimits{}, "live", 3, 7, page));
  EXPECT_EQ(page.offset, 3);
  EXPECT_EQ(page.limit, 7);
}

// ----------------------------------------------------------------------------- the budget

// Hostile clients make games and join and leave the games of the first page as fast as they
// may: a subscriber is sent at most his budget (a minute's bytes at the rate, plus a burst or
// one message), and his page is right once it calms down.
TEST(LobbyBudget, AFloodOfChangesSendsASubscriberAtMostHisBudget) {
  LobbyLimits limits;
  // No cap in the way: on a fast disk Mallory makes thousands of games in the flood's 3 s.
  limits.open_games_per_player = 100000;
  limits.open_games_per_address = 100000;
  limits.open_games = 100000;
  limits.subscriber_bytes_per_minute = 30000;  // 500 bytes a second, 7,500 at once
  LobbyFixture f(limits);
  const LobbyPage page{"", 0, 3};
  ListClient honest;
  const PlayerRecord mallory = f.player("Mallory");
  const PlayerRecord trudy = f.player("Trudy");
  std::vector<std::int64_t> first;
  for (int i = 0; i < 3; ++i) first.push_back(id_of(f.create(mallory, 3)));
  const auto start = std::chrono::steady_clock::now();
  f.lobby->subscribe(&honest, page);
  const auto flood = std::chrono::seconds(3);
  int made = 0;
  while (std::chrono::steady_clock::now() - start < flood) {
    id_of(f.create(mallory, 2));
    ++made;
    for (std::int64_t id : first) {
      ASSERT_FALSE(f.join(id, trudy));
      ASSERT_FALSE(f.leave(id, trudy));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::size_t sent = honest.change_bytes();
  const double allowed = 500.0 * seconds + std::max<double>(7500, honest.max_change());
  ASSERT_GT(made, 20);  // each one and its six joins and leaves: a flood (fsyncs set the pace)
  // Before, the whole list went out on every change (115.8 MB in 30 s in the probe).
  EXPECT_LE(static_cast<double>(sent), allowed)
      << sent << " bytes in " << seconds << " s (" << honest.changes() << " messages)";
  EXPECT_GT(honest.changes(), 0);
  EXPECT_TRUE(converges(*f.lobby, honest, page)) << honest.view().dump();
  f.lobby->unsubscribe(&honest);
}

// ----------------------------------------------------------------- several servers' lists

// Another server's open games come into the list (peer_bus.h); what this server lists itself
// goes to the sink; the server that serves a game now is the one whose entry stands.
TEST(LobbyPeers, AnotherServersGamesAreListedAndOnlyItTakesThemBack) {
  LobbyFixture f;
  std::vector<std::pair<std::int64_t, bool>> told;  // game, listed
  f.lobby->set_listing_sink([&](std::int64_t id, const std::string* summary) {
    told.emplace_back(id, summary != nullptr);
  });
  ListClient client;
  f.lobby->subscribe(&client);
  const PlayerRecord alice = f.player("Alice");
  const std::int64_t mine = id_of(f.create(alice));
  ASSERT_FALSE(told.empty());
  EXPECT_EQ(told.back(), std::make_pair(mine, true));

  // Game 500 is open at the second server; the first's list shows it, in id order.
  json theirs = GameRoom::summary_of(f.store->game(mine).value());
  theirs["game_id"] = 500;
  f.lobby->list_remote("http://second.example", 500, &theirs);
  f.lobby->changed();
  EXPECT_EQ(f.lobby->open_games()["count"], 2);
  EXPECT_EQ(f.lobby->open_games()["games"][1]["game_id"], 500);
  ASSERT_TRUE(converges(*f.lobby, client, LobbyPage{}));
  EXPECT_EQ(told.size(), 1u) << "another server's game is not told back to the others";
  // A summary that is not that game's, or has no speed, is not listed.
  json wrong = theirs;
  wrong["game_id"] = 501;
  f.lobby->list_remote("http://second.example", 502, &wrong);
  json speedless = theirs;
  speedless.erase("speed");
  speedless["game_id"] = 503;
  f.lobby->list_remote("http://second.example", 503, &speedless);
  EXPECT_EQ(f.lobby->open_games()["count"], 2);

  // The game moved to a third server: a late word of the second does not hide it.
  f.lobby->list_remote("http://third.example", 500, &theirs);
  f.lobby->list_remote("http://second.example", 500, nullptr);
  EXPECT_EQ(f.lobby->open_games()["count"], 2);
  // A server's word about this server's own game is not taken.
  json mine_elsewhere = GameRoom::summary_of(f.store->game(mine).value());
  f.lobby->list_remote("http://third.example", mine, nullptr);
  f.lobby->list_remote("http://third.example", mine, &mine_elsewhere);
  EXPECT_EQ(f.lobby->open_games()["count"], 2);
  // The third server goes: its games leave the list; this server's stay.
  f.lobby->drop_remote("http://third.example");
  f.lobby->changed();
  EXPECT_EQ(f.lobby->open_games()["count"], 1);
  EXPECT_EQ(f.lobby->open_games()["games"][0]["game_id"], mine);
  ASSERT_TRUE(converges(*f.lobby, client, LobbyPage{}));

  // Its own game leaving the list (it starts) is told to the sink.
  const PlayerRecord bob = f.player("Bob");
  ASSERT_FALSE(f.join(mine, bob));
  EXPECT_EQ(told.back(), std::make_pair(mine, false));
  f.lobby->set_listing_sink(nullptr);
  f.lobby->unsubscribe(&client);
}

}  // namespace
}  // namespace viktory::server
