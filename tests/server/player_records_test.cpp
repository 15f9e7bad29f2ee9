// Players' records and ratings (player_records.h) over real SQLite files: what a game's end
// writes in the transaction of its result, which games count for the ratings, and the HTTP
// API (ladder, finished games, profiles) with the profile's privacy as a stranger, an
// opponent and the player himself. Played through the Hub as a client would.
#include "player_records.h"

#include <gtest/gtest.h>

#include "action.h"
#include "fake_clients.h"
#include "game.h"
#include "hub.h"
#include "json.h"
#include "rating.h"
#include "test_support.h"

namespace viktory::server {
namespace {

using nlohmann::json;
using testing::TempDir;

std::int64_t count(Store& store, const std::string& sql) {
  Statement s = store.db().prepare(sql);
  EXPECT_TRUE(s.step());
  return s.int64(0);
}

// ---------------------------------------------------------------- places at the end [5.x]

GameState finished_state(int players, int turn) {
  GameState s;
  s.players.resize(players);
  s.phase = Phase::kGameOver;
  s.turn = turn;
  return s;
}

TEST(PlacesAtEnd, WinnersThenThoseStillInThenThoseWhoLeftNumberedAsInSport) {
  GameState s = finished_state(5, 12);
  s.winners = {3};
  s.players[0].conceded = true;
  s.players[2].eliminated = true;
  const SeatPlaces p = places_at_end(s);
  EXPECT_EQ(p.places, (std::vector<int>{4, 2, 4, 1, 2}));
  EXPECT_TRUE(p.first_round_complete);
}

TEST(PlacesAtEnd, TiedWinnersShareTheFirstPlace) {  // [5.3, 5.5] ties share the win
  GameState s = finished_state(3, 9);
  s.winners = {0, 2};
  EXPECT_EQ(places_at_end(s).places, (std::vector<int>{1, 3, 1}));
}

TEST(PlacesAtEnd, TheFirstRoundIsCompleteOnceTheTurnAfterEverySeatsFirstBegan) {
  EXPECT_FALSE(places_at_end(finished_state(3, 0)).first_round_complete);  // setup
  EXPECT_FALSE(places_at_end(finished_state(3, 3)).first_round_complete);
  EXPECT_TRUE(places_at_end(finished_state(3, 4)).first_round_complete);
}

// ---------------------------------------------------------------- what a game's end writes

struct StoreFixture {
  TempDir dir;
  Store store{dir.file("records.db")};
  std::vector<PlayerRecord> players;

  PlayerRecord player(const std::string& name) {
    players.push_back(store.create_player(name, "hash-" + name, 1000));
    return players.back();
  }
  // A running game of `seated` (seat i: seated[i]), rated or not, private or not.
  std::int64_t running(const std::vector<PlayerRecord>& seated, bool rated,
                       bool is_private = false) {
    GameRecord g;
    g.options.players = static_cast<int>(seated.size());
    g.created = 1000;
    g.creator = seated[0];
    g.rated = rated;
    g.is_private = is_private;
    for (int i = 0; i < static_cast<int>(seated.size()); ++i) {
      g.seats.push_back(SeatRecord{i, seated[i].id, seated[i].name, ""});
    }
    store.create_game(g);
    g.status = GameStatus::kRunning;
    g.current_seat = 0;
    store.start_game(g);
    return g.id;
  }
  // The action that ends the game, committed as the room commits it.
  void finish(std::int64_t id, const std::vector<int>& places, bool full_round = true,
              ActionSource source = ActionSource::kPlayer) {
    ActionCommit c;
    c.game_id = id;
    c.record = ActionRecord{1, act::concede(0), false, 5, 2000, source};
    const std::string ended_by = "standard";
    std::vector<int> winners;
    for (int i = 0; i < static_cast<int>(places.size()); ++i) {
      if (places[i] == 1) winners.push_back(i);
    }
    c.finished = json{{"winners", winners}, {"ended_by", ended_by}};
    c.places = SeatPlaces{places, full_round};
    store.commit_action_direct(c);
  }
  Rating rating_of(std::int64_t player, int seats) {
    Statement s = store.db().prepare(
        "SELECT mu, sigma FROM ratings WHERE player_id = ? AND "
        "players = ?");
    s.bind(1, player).bind(2, seats);
    if (!s.step()) return Rating{-1, -1};
    return Rating{s.real(0), s.real(1)};
  }
};

TEST(RecordGameEnd, ARatedGameUpdatesEveryRatingAsTheModelSaysWithTheResult) {
  StoreFixture f;
  const auto a = f.player("A"), b = f.player("B"), c = f.player("C");
  const std::int64_t id = f.running({a, b, c}, /*rated=*/true);
  f.finish(id, {2, 1, 3});
  const auto want =
      rate_free_for_all({initial_rating(), initial_rating(), initial_rating()}, {2, 1, 3});
  const std::vector<PlayerRecord> seated = {a, b, c};
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(f.rating_of(seated[i].id, 3).mu, want[i].mu, 1e-9);
    EXPECT_NEAR(f.rating_of(seated[i].id, 3).sigma, want[i].sigma, 1e-9);
  }
  EXPECT_EQ(f.rating_of(a.id, 2).mu, -1);  // a ladder per player count
  EXPECT_EQ(
      count(f.store, "SELECT count(*) FROM rating_history WHERE game_id = " + std::to_string(id)),
      3);
  EXPECT_TRUE(f.store.game(id)->rated);
  EXPECT_EQ(count(f.store, "SELECT won FROM player_tallies WHERE player_id = " +
                               std::to_string(b.id) + " AND players = 3"),
            1);
  // Every combination of filters (any or this value of each): 2 x 2 x 2 rows.
  EXPECT_EQ(
      count(f.store, "SELECT count(*) FROM finished_public WHERE game_id = " + std::to_string(id)),
      8);
}

TEST(RecordGameEnd, TheNextGameStartsFromTheRatingsTheLastOneLeft) {
  StoreFixture f;
  const auto a = f.player("A"), b = f.player("B");
  f.finish(f.running({a, b}, true), {1, 2});
  const Rating a1 = f.rating_of(a.id, 2), b1 = f.rating_of(b.id, 2);
  f.finish(f.running({b, a}, true), {1, 2});  // seats swapped: B wins this one
  const auto want = rate_free_for_all({b1, a1}, {1, 2});
  EXPECT_NEAR(f.rating_of(b.id, 2).mu, want[0].mu, 1e-9);
  EXPECT_NEAR(f.rating_of(a.id, 2).mu, want[1].mu, 1e-9);
  EXPECT_EQ(count(f.store, "SELECT games FROM ratings WHERE player_id = " + std::to_string(a.id)),
            2);
}

TEST(RecordGameEnd, AGameEndedBeforeEverySeatsFirstTurnWasOverIsUnrated) {
  StoreFixture f;
  const auto a = f.player("A"), b = f.player("B");
  const std::int64_t id = f.running({a, b}, true);
  f.finish(id, {1, 2}, /*full_round=*/false);
  EXPECT_EQ(count(f.store, "SELECT count(*) FROM ratings"), 0);
  EXPECT_FALSE(f.store.game(id)->rated);  // says what happened, once over
  EXPECT_EQ(count(f.store, "SELECT count(*) FROM finished_seats WHERE rated = 0"), 2);
  EXPECT_EQ(
      count(f.store, "SELECT played FROM player_tallies WHERE player_id = " + std::to_string(a.id)),
      1);  // still played
}

TEST(RecordGameEnd, AGameWithASeatTakenOverByTheComputerIsUnrated) {
  StoreFixture f;
  const auto a = f.player("A"), b = f.player("B");
  const std::int64_t id = f.running({a, b}, true);
  f.store.db()
      .prepare(
          "INSERT INTO seat_controllers(game_id, player_id, kind, level) "
          "VALUES(?, ?, 'takeover', 'heuristic')")
      .bind(1, id)
      .bind(2, b.id)
      .run();
  f.finish(id, {1, 2});
  EXPECT_EQ(count(f.store, "SELECT count(*) FROM ratings"), 0);
  EXPECT_FALSE(f.store.game(id)->rated);
}

// A takeover taken back before the end leaves no seat_controllers row, but the computer's
// actions stay in the log.
TEST(RecordGameEnd, AGameInWhichAComputerDecidedForASeatIsUnrated) {
  StoreFixture f;
  const auto a = f.player("A"), b = f.player("B");
  const std::int64_t id = f.running({a, b}, true);
  f.finish(id, {1, 2}, true, ActionSource::kComputer);
  EXPECT_EQ(count(f.store, "SELECT count(*) FROM ratings"), 0);
  EXPECT_FALSE(f.store.game(id)->rated);
}

TEST(RecordGameEnd, AnUnratedGameChangesNoRatingAndAPrivateOneIsNotInThePublicList) {
  StoreFixture f;
  const auto a = f.player("A"), b = f.player("B");
  const std::int64_t unrated = f.running({a, b}, false);
  f.finish(unrated, {1, 2});
  const std::int64_t hidden = f.running({a, b}, true, /*is_private=*/true);
  f.finish(hidden, {2, 1});
  EXPECT_EQ(count(f.store,
                  "SELECT count(*) FROM rating_history WHERE game_id = " + std::to_string(unrated)),
            0);
  EXPECT_EQ(count(f.store,
                  "SELECT count(*) FROM rating_history WHERE game_id = " + std::to_string(hidden)),
            2);  // private games are rated too
  EXPECT_EQ(count(f.store,
                  "SELECT count(*) FROM finished_public WHERE game_id = " + std::to_string(hidden)),
            0);
  // The unrated one is listed under "unrated" (facet ...2), never under "rated" (...1).
  EXPECT_EQ(count(f.store, "SELECT count(*) FROM finished_public WHERE facet = 2 AND game_id = " +
                               std::to_string(unrated)),
            1);
  EXPECT_EQ(count(f.store, "SELECT count(*) FROM finished_public WHERE facet = 1"), 0);
}

TEST(RecordGameEnd, FailsWithTheResultAndLeavesNothingHalfWritten) {
  StoreFixture f;
  const auto a = f.player("A"), b = f.player("B");
  const std::int64_t id = f.running({a, b}, true);
  // The rating write fails inside the result's transaction: neither is stored.
  f.store.db().exec("DROP TABLE rating_history");
  EXPECT_THROW(f.finish(id, {1, 2}), DbError);
  EXPECT_EQ(f.store.game(id)->status, GameStatus::kRunning);
  EXPECT_EQ(count(f.store, "SELECT count(*) FROM ratings"), 0);
  EXPECT_EQ(count(f.store, "SELECT count(*) FROM finished_seats"), 0);
}

// Migration 11 gives the games finished before it their records (places from the winners
// alone, unrated) and no rating.
TEST(RecordGameEnd, MigrationElevenRecordsTheGamesFinishedBeforeIt) {
  TempDir dir;
  const std::string file = dir.file("old.db");
  std::int64_t id = 0;
  std::int64_t bob = 0;
  {
    Store store(file);
    const auto a = store.create_player("A", "hash-a", 1000);
    const auto b = store.create_player("B", "hash-b", 1000);
    bob = b.id;
    GameRecord g;
    g.options.players = 2;
    g.created = 1000;
    g.creator = a;
    g.seats = {{0, a.id, "A", ""}, {1, b.id, "B", ""}};
    store.create_game(g);
    g.status = GameStatus::kRunning;
    store.start_game(g);
    id = g.id;
    // Finished as a server before migration 11 stored it: the row only.
    store.db().exec(
        "UPDATE games SET status = 'finished', result = "
        "'{\"winners\":[1],\"ended_by\":\"doomsday\"}' WHERE id = " +
        std::to_string(id));
    for (const char* table : {"ratings", "rating_history", "finished_seats", "player_tallies",
                              "finished_public", "profile_privacy"}) {
      store.db().exec(std::string("DROP TABLE ") + table);
    }
    store.db().exec("ALTER TABLE games DROP COLUMN rated");
    store.db().exec("ALTER TABLE players DROP COLUMN language");     // migration 12 (server texts)
    store.db().exec("ALTER TABLE games DROP COLUMN random_scheme");  // 16 (fair play v2)
    store.db().exec("PRAGMA user_version = 10");
  }
  Store store(file);
  EXPECT_EQ(store.schema_version(), Store::kSchemaVersion);
  EXPECT_EQ(
      count(store, "SELECT place FROM finished_seats WHERE player_id = " + std::to_string(bob)), 1);
  EXPECT_EQ(count(store, "SELECT count(*) FROM finished_seats WHERE game_id = " +
                             std::to_string(id) + " AND place = 2 AND rated = 0"),
            1);
  EXPECT_EQ(count(store, "SELECT won FROM player_tallies WHERE player_id = " + std::to_string(bob) +
                             " AND players = 2 AND ended_by = 'doomsday'"),
            1);
  // Any, 2 players, Doomsday (condition 4), unrated (2): 2 x 2 x 2 keys.
  EXPECT_EQ(
      count(store, "SELECT count(*) FROM finished_public WHERE game_id = " + std::to_string(id)),
      8);
  EXPECT_EQ(count(store, "SELECT count(*) FROM finished_public WHERE facet = 242"), 1);
  EXPECT_EQ(count(store, "SELECT count(*) FROM ratings"), 0);
}

// ---------------------------------------------------------------- through the Hub and its API

struct FakeClient : Client {
  void deliver(Message m) override {
    messages.push_back(json::parse(*m));
    views.absorb(messages.back());
  }
  void close(std::string_view) override {}
  json last(const std::string& type) const {
    for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
      if (it->value("type", "") == type) return *it;
    }
    return nullptr;
  }
  json latest() const {
    for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
      const std::string type = it->value("type", "");
      if (type == "game.state" || type == "game.update") return *it;
    }
    return nullptr;
  }
  std::vector<json> messages;
  testing::ViewTracker views;
  std::string token;
};

class HubFixture {
 public:
  HubFixture() : store(dir.file("hub.db")), hub(store, metrics, HubOptions{}) {}
  ~HubFixture() {
    for (auto& c : clients) hub.on_close(c.get());
  }

  FakeClient& connect(const std::string& name) {
    clients.push_back(std::make_unique<FakeClient>());
    FakeClient& c = *clients.back();
    const ApiResponse r = hub.handle_api("POST", "/api/session", json{{"name", name}}.dump(), "");
    c.token = json::parse(r.body).value("token", "");
    hub.on_open(&c, "");
    send(c, {{"type", "auth"}, {"token", c.token}});
    ids[&c] = std::stoll(c.last("welcome")["player_id"].get<std::string>());
    return c;
  }
  // Fair play's reveal round is answered as the browser does (fake_clients.h).
  void send(FakeClient& c, const json& m) { round.send(hub, c, m); }
  testing::RoundAnswerer<FakeClient> round;
  // `seated[0]` creates with `fields`, the others join in order: seat i is seated[i].
  std::int64_t start(const std::vector<FakeClient*>& seated, json fields = json::object()) {
    json create{{"type", "game.create"}, {"seats", seated.size()}};
    create.update(fields);
    send(*seated[0], create);
    const std::int64_t id = seated[0]->last("game.created")["game_id"];
    for (std::size_t i = 1; i < seated.size(); ++i) {
      send(*seated[i], {{"type", "game.join"}, {"game_id", id}, {"seat", i}});
    }
    return id;
  }
  // Ends phases (or takes the first other legal action) until Player Turn `turn` begins.
  void play_until_turn(const std::vector<FakeClient*>& seated, std::int64_t id, int turn) {
    for (int step = 0; step < 400; ++step) {
      const json view = seated[0]->views.latest();
      if (view["turn"].get<int>() >= turn) return;
      FakeClient& mover = *seated[view["decider"].get<int>()];
      const json mine = mover.latest();
      json action;
      for (const json& candidate : mine["legal"]) {
        if (candidate["kind"] == "end_phase") action = candidate;
      }
      for (const json& candidate : mine["legal"]) {
        if (action.is_null() && candidate["kind"] != "concede") action = candidate;
      }
      send(mover, {{"type", "game.action"},
                   {"game_id", id},
                   {"seq", mine["seq"]},
                   {"action", action},
                   {"req", 1}});
    }
    FAIL() << "turn " << turn << " not reached";
  }
  void concede(FakeClient& c, std::int64_t id, int seat) {
    send(c, {{"type", "game.action"},
             {"game_id", id},
             {"seq", c.latest()["seq"]},
             {"action", protocol::action_to_json(act::concede(seat))},
             {"req", 2}});
  }
  ApiResponse get(const std::string& target, const FakeClient* as = nullptr) {
    return hub.handle_api("GET", target, "", as ? "Bearer " + as->token : "", "");
  }
  json get_json(const std::string& target, const FakeClient* as = nullptr) {
    const ApiResponse r = get(target, as);
    EXPECT_EQ(r.status, 200) << target << ": " << r.body;
    return json::parse(r.body);
  }
  void set_privacy(const FakeClient& c, const std::string& visible_to) {
    const ApiResponse r =
        hub.handle_api("POST", "/api/profile/privacy", json{{"visible_to", visible_to}}.dump(),
                       "Bearer " + c.token, "");
    ASSERT_EQ(r.status, 200) << r.body;
  }
  // A two-player game played past the first round, then `loser` concedes.
  std::int64_t play_rated(FakeClient& winner, FakeClient& loser) {
    const std::int64_t id = start({&winner, &loser});
    play_until_turn({&winner, &loser}, id, 3);
    concede(loser, id, 1);
    return id;
  }

  TempDir dir;
  Metrics metrics;
  Store store;
  Hub hub;
  std::vector<std::unique_ptr<FakeClient>> clients;
  std::map<const FakeClient*, std::int64_t> ids;
};

TEST(PlayerRecordsHub, RatedIsChosenAtCreationAndRefusedWithComputerSeats) {
  HubFixture f;
  FakeClient& a = f.connect("Alice");
  f.send(a, {{"type", "game.create"}, {"seats", 2}});
  const std::int64_t by_default = a.last("game.created")["game_id"];
  EXPECT_EQ(f.get_json("/api/games/" + std::to_string(by_default))["rated"], true);
  f.send(a, {{"type", "game.create"}, {"seats", 2}, {"rated", false}});
  const std::int64_t unrated = a.last("game.created")["game_id"];
  EXPECT_EQ(f.get_json("/api/games/" + std::to_string(unrated))["rated"], false);
  f.send(a, {{"type", "game.create"},
             {"seats", 2},
             {"rated", true},
             {"computers", json::array({{{"seat", 1}, {"level", "random"}}})},
             {"req", 7}});
  EXPECT_EQ(a.last("error")["code"], "bad_options");
}

TEST(PlayerRecordsHub, AFinishedRatedGameIsOnTheLadderTheListsAndTheProfile) {
  HubFixture f;
  FakeClient& a = f.connect("Alice");
  FakeClient& b = f.connect("Bob");
  const std::int64_t id = f.play_rated(a, b);
  ASSERT_EQ(f.store.game(id)->status, GameStatus::kFinished);

  const json ladder = f.get_json("/api/ladder?players=2");
  ASSERT_EQ(ladder["entries"].size(), 2u);
  EXPECT_EQ(ladder["entries"][0]["name"], "Alice");  // the winner first
  const auto want = rate_free_for_all({initial_rating(), initial_rating()}, {1, 2});
  EXPECT_NEAR(ladder["entries"][0]["rating"].get<double>(), displayed_rating(want[0]), 1e-9);
  EXPECT_EQ(ladder["next"], nullptr);

  const json list = f.get_json("/api/finished?players=2&rated=true&victory=standard");
  ASSERT_EQ(list["games"].size(), 1u);
  EXPECT_EQ(list["games"][0]["game_id"], id);
  EXPECT_EQ(list["games"][0]["places"][0]["place"], 1);
  EXPECT_EQ(list["games"][0]["places"][1]["place"], 2);
  EXPECT_GE(list["games"][0]["turns"].get<int>(), 3);
  EXPECT_EQ(list["games"][0]["replay"], "/api/games/" + std::to_string(id) + "/replay");
  EXPECT_EQ(f.get_json("/api/finished?players=3")["games"].size(), 0u);
  EXPECT_EQ(f.get_json("/api/finished?rated=false")["games"].size(), 0u);
  EXPECT_EQ(f.get_json("/api/finished?victory=race")["games"].size(), 0u);

  const json profile = f.get_json("/api/players/" + std::to_string(f.ids[&a]));
  EXPECT_EQ(profile["name"], "Alice");
  EXPECT_EQ(profile["played"], 1);
  EXPECT_EQ(profile["won"], 1);
  EXPECT_EQ(profile["by_players"][0], json({{"players", 2}, {"played", 1}, {"won", 1}}));
  EXPECT_EQ(profile["by_victory"][0], json({{"victory", "standard"}, {"played", 1}, {"won", 1}}));
  ASSERT_EQ(profile["ratings"].size(), 1u);
  EXPECT_EQ(profile["ratings"][0]["games"], 1);
  ASSERT_EQ(profile["history"].size(), 1u);
  EXPECT_NEAR(profile["history"][0]["rating_before"].get<double>(), 0.0, 1e-9);
  ASSERT_EQ(profile["recent_finished"].size(), 1u);
  EXPECT_EQ(profile["recent_finished"][0]["seats"][1]["name"], "Bob");  // the opponent
  EXPECT_FALSE(profile.contains("visible_to"));  // his setting is his own business
}

TEST(PlayerRecordsHub, AGameConcededInTheFirstRoundIsUnrated) {
  HubFixture f;
  FakeClient& a = f.connect("Alice");
  FakeClient& b = f.connect("Bob");
  const std::int64_t id = f.start({&a, &b});
  f.play_until_turn({&a, &b}, id, 1);
  f.concede(b, id, 1);
  ASSERT_EQ(f.store.game(id)->status, GameStatus::kFinished);
  EXPECT_EQ(f.get_json("/api/ladder?players=2")["entries"].size(), 0u);
  EXPECT_EQ(f.get_json("/api/games/" + std::to_string(id))["rated"], false);
  EXPECT_EQ(f.get_json("/api/finished?rated=false")["games"].size(), 1u);
  // A player's own list reads the filter from his rows (finished_seats), not the public facets.
  EXPECT_EQ(f.get_json("/api/finished?player=me&rated=false", &a)["games"].size(), 1u);
  EXPECT_EQ(f.get_json("/api/finished?player=me&rated=true", &a)["games"].size(), 0u);
  EXPECT_EQ(f.get_json("/api/finished?player=me", &b)["games"].size(), 1u);
}

TEST(PlayerRecordsHub, ListsArePagedByAKeysetCursor) {
  HubFixture f;
  FakeClient& a = f.connect("Alice");
  FakeClient& b = f.connect("Bob");
  std::vector<std::int64_t> ids;
  for (int i = 0; i < 3; ++i) ids.push_back(f.play_rated(a, b));
  const json first = f.get_json("/api/finished?limit=2");
  ASSERT_EQ(first["games"].size(), 2u);
  EXPECT_EQ(first["games"][0]["game_id"], ids[2]);  // newest first
  EXPECT_EQ(first["games"][1]["game_id"], ids[1]);
  const json second =
      f.get_json("/api/finished?limit=2&before=" + std::to_string(first["next"].get<int>()));
  ASSERT_EQ(second["games"].size(), 1u);
  EXPECT_EQ(second["games"][0]["game_id"], ids[0]);
  EXPECT_EQ(second["next"], nullptr);
  const json mine = f.get_json("/api/finished?player=me&limit=2", &b);
  EXPECT_EQ(mine["games"].size(), 2u);
  EXPECT_EQ(f.get_json("/api/finished?player=me&rated=true", &b)["games"].size(), 3u);
  EXPECT_EQ(f.get_json("/api/finished?player=me&rated=false", &b)["games"].size(), 0u);
  const json ladder = f.get_json("/api/ladder?players=2&limit=1");
  ASSERT_EQ(ladder["entries"].size(), 1u);
  const json rest =
      f.get_json("/api/ladder?players=2&limit=1&after=" + ladder["next"].get<std::string>());
  ASSERT_EQ(rest["entries"].size(), 1u);
  EXPECT_EQ(rest["entries"][0]["name"], "Bob");
  EXPECT_EQ(f.get("/api/finished?limit=51").status, 400);
  EXPECT_EQ(f.get("/api/ladder?players=9").status, 400);
  EXPECT_EQ(f.get("/api/ladder?players=2&after=x_1").status, 400);
  EXPECT_EQ(f.get("/api/finished?victory=chess").status, 400);
}

// Privacy: Alice plays Bob; Carol is a stranger with a token, and a request without one is
// anonymous. Every endpoint that shows profile data obeys Alice's setting.
TEST(PlayerRecordsHub, PrivacyIsEnforcedOnEveryEndpointThatShowsProfileData) {
  HubFixture f;
  FakeClient& a = f.connect("Alice");
  FakeClient& b = f.connect("Bob");
  FakeClient& c = f.connect("Carol");
  f.play_rated(a, b);
  const std::string profile = "/api/players/" + std::to_string(f.ids[&a]);
  const std::string list = "/api/finished?player=" + std::to_string(f.ids[&a]);
  const auto sees = [&](const FakeClient* who) {
    const int p = f.get(profile, who).status;
    const int l = f.get(list, who).status;
    EXPECT_EQ(p, l) << "the profile and the list disagree";
    const json ladder = f.get_json("/api/ladder?players=2", who);
    bool named = false;
    for (const json& e : ladder["entries"]) named = named || e.value("name", "") == "Alice";
    EXPECT_EQ(named, p == 200) << "the ladder and the profile disagree";
    return p == 200;
  };
  EXPECT_TRUE(sees(nullptr));  // everyone, by default
  EXPECT_TRUE(sees(&c));

  f.set_privacy(a, "opponents");
  EXPECT_FALSE(sees(nullptr));
  EXPECT_FALSE(sees(&c));
  EXPECT_TRUE(sees(&b));
  EXPECT_TRUE(sees(&a));
  EXPECT_EQ(f.get(profile, &c).status, 403);
  EXPECT_EQ(json::parse(f.get(profile, &c).body)["error"]["code"], "profile_hidden");

  f.set_privacy(a, "nobody");
  EXPECT_FALSE(sees(&b));
  EXPECT_FALSE(sees(&c));
  EXPECT_TRUE(sees(&a));
  EXPECT_EQ(f.get_json(profile, &a)["visible_to"], "nobody");
  EXPECT_EQ(f.get_json("/api/profile/privacy", &a)["visible_to"], "nobody");
  EXPECT_EQ(f.get("/api/profile/privacy").status, 401);
  EXPECT_EQ(f.hub
                .handle_api("POST", "/api/profile/privacy", R"({"visible_to":"friends"})",
                            "Bearer " + a.token, "")
                .status,
            400);
  EXPECT_EQ(f.get_json("/api/profile/privacy", &a)["visible_to"], "nobody");  // unchanged
}

TEST(PlayerRecordsHub, AnotherPlayersListShowsHisPublicGamesOnly) {
  HubFixture f;
  FakeClient& a = f.connect("Alice");
  FakeClient& b = f.connect("Bob");
  const std::int64_t id = f.start({&a, &b}, {{"private", true}});
  (void)id;
  f.send(b, {{"type", "game.join"}, {"game_id", id}, {"invite", a.last("game.created")["invite"]}});
  f.play_until_turn({&a, &b}, id, 3);
  f.concede(b, id, 1);
  ASSERT_EQ(f.store.game(id)->status, GameStatus::kFinished);
  EXPECT_EQ(f.get_json("/api/finished?player=me", &a)["games"].size(), 1u);
  FakeClient& c = f.connect("Carol");
  EXPECT_EQ(f.get_json("/api/finished?player=" + std::to_string(f.ids[&a]), &c)["games"].size(),
            0u);
  EXPECT_EQ(f.get_json("/api/finished")["games"].size(), 0u);
  EXPECT_EQ(f.get_json("/api/players/" + std::to_string(f.ids[&a]), &c)["recent_finished"].size(),
            0u);
}

}  // namespace
}  // namespace viktory::server
