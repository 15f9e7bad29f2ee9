// Fair play's reveal round through the Hub (docs/fair-play.md, "The scheme";
// server/games/game_room_reveal.cpp): every human seat commits when it takes its seat and reveals
// when the seats are final; the seed depends on every contribution; a silent seat is removed at the
// deadline and the others commit afresh; a wrong reveal changes nothing; old clients without a
// commitment are asked for one at the start; the budgets of rounds and reveals; the operator's
// seat is marked. The clock is a fake one, moved by hand.
#include <gtest/gtest.h>

#include "fair.h"
#include "fair_play.h"
#include "fake_clients.h"
#include "game_record.h"
#include "hub.h"
#include "lobby.h"
#include "reveal_round.h"
#include "test_support.h"
#include "verify.h"

namespace viktory::server {
namespace {

using nlohmann::json;
using testing::FakeClock;
using testing::ListClient;
using testing::TempDir;
using testing::test_commitment;
using testing::test_contribution;
namespace fair = protocol::fair;

std::string contribution_hex(std::int64_t n) { return fair::to_hex(test_contribution(n)); }

class Contributions : public ::testing::Test {
 protected:
  explicit Contributions(HubOptions options = defaults()) : hub(store, metrics, with(options)) {}
  HubOptions with(HubOptions options) {
    options.clock = &clock;
    return options;
  }
  static HubOptions defaults() {
    HubOptions o;
    o.room.contributions.operators = {"Host"};
    return o;
  }
  // A signed-in client of a new player (the id is the player's).
  ListClient& connect(const std::string& name, const std::string& address = "") {
    clients.push_back(std::make_unique<ListClient>());
    ListClient& c = *clients.back();
    const ApiResponse r = hub.handle_api("POST", "/api/session", json{{"name", name}}.dump(), "");
    hub.on_open(&c, address);
    send(c, {{"type", "auth"}, {"token", json::parse(r.body)["token"]}});
    ids[&c] = std::stoll(c.last("welcome")["player_id"].get<std::string>());
    return c;
  }
  void send(ListClient& c, const json& m) { hub.on_message(&c, m.dump()); }
  json error_of(ListClient& c, const json& m) {
    const std::size_t before = c.messages.size();
    send(c, m);
    for (std::size_t i = before; i < c.messages.size(); ++i) {
      if (c.messages[i].value("type", std::string()) == "error") return c.messages[i];
    }
    return nullptr;
  }
  // Creates a game of `seats` with `creator`'s commitment (test_commitment(n)).
  std::int64_t create(ListClient& creator, int seats, std::int64_t n, json extra = json::object()) {
    json m{
        {"type", "game.create"}, {"seats", seats}, {"contribution_commitment", test_commitment(n)}};
    m.update(extra);
    send(creator, m);
    return creator.last("game.created")["game_id"];
  }
  void join(ListClient& c, std::int64_t id, std::int64_t n) {
    send(c,
         {{"type", "game.join"}, {"game_id", id}, {"contribution_commitment", test_commitment(n)}});
  }
  void reveal(ListClient& c, std::int64_t id, std::int64_t n) {
    send(c, {{"type", "game.contribute"}, {"game_id", id}, {"contribution", contribution_hex(n)}});
  }
  json summary(std::int64_t id) {
    return json::parse(hub.handle_api("GET", "/api/games/" + std::to_string(id), "", "").body);
  }
  std::string stored_contribution(std::int64_t id, std::int64_t player) {
    Statement s = store.db().prepare(
        "SELECT contribution FROM seat_fair_play WHERE game_id = ? AND player_id = ?");
    s.bind(1, id).bind(2, player);
    return s.step() ? s.optional_text(0).value_or("") : "none";
  }
  std::uint64_t expected_seed(std::int64_t id, const std::vector<std::int64_t>& contributors) {
    std::vector<std::optional<fair::Contribution>> contributions;
    for (std::int64_t n : contributors) contributions.push_back(test_contribution(n));
    return fair::derive_seed(load_fair_secrets(store.db(), id)->secret, contributions,
                             RandomScheme::kStreams);  // every game created now (lobby.cpp)
  }

  TempDir dir;
  FakeClock clock;
  Store store{dir.file("contributions.db")};
  Metrics metrics;
  Hub hub;
  std::vector<std::unique_ptr<ListClient>> clients;
  std::map<const ListClient*, std::int64_t> ids;
};

// The seed is derived from the secret and every seat's contribution, in seat order: changing
// one contribution changes it; the record of the finished game carries the commitments and the
// contributions, and verifies.
TEST_F(Contributions, TheSeedDependsOnEveryContributionAndTheRecordVerifies) {
  ListClient& a = connect("Alice");
  ListClient& b = connect("Bob");
  const std::int64_t id = create(a, 2, 1);
  join(b, id, 2);
  // The seats are final: every seat is asked to reveal, with every commitment in seat order.
  const json asked = b.last("game.reveal_request");
  ASSERT_FALSE(asked.is_null());
  EXPECT_EQ(asked["contribution_commitment"], test_commitment(2));
  EXPECT_EQ(asked["contribution_commitments"], json({test_commitment(1), test_commitment(2)}));
  EXPECT_EQ(summary(id)["status"], "open");
  reveal(a, id, 1);
  EXPECT_TRUE(a.last("game.state").is_null()) << "one reveal is not enough";
  reveal(b, id, 2);
  ASSERT_FALSE(a.last("game.state").is_null());
  const std::uint64_t seed = store.game(id)->seed;
  EXPECT_EQ(seed, expected_seed(id, {1, 2}));
  EXPECT_NE(seed, expected_seed(id, {1, 3}));
  EXPECT_NE(seed, expected_seed(id, {3, 2}));
  EXPECT_NE(seed, fair::derive_seed(load_fair_secrets(store.db(), id)->secret, {{}, {}},
                                    RandomScheme::kStreams));
  // The published seats carry the commitments (never a contribution while the game runs).
  const json seats = summary(id)["seats"];
  EXPECT_EQ(seats[0]["contribution_commitment"], test_commitment(1));
  EXPECT_EQ(seats[1]["contribution_commitment"], test_commitment(2));
  EXPECT_EQ(summary(id).dump().find(contribution_hex(1)), std::string::npos);

  send(b,
       {{"type", "game.action"}, {"game_id", id}, {"seq", 0}, {"action", {{"kind", "concede"}}}});
  const protocol::GameRecord record = export_game_record(store, *store.game(id));
  ASSERT_EQ(record.seats.size(), 2u);
  EXPECT_EQ(fair::to_hex(*record.seats[0].contribution_commitment), test_commitment(1));
  EXPECT_EQ(fair::to_hex(*record.seats[1].contribution), contribution_hex(2));
  EXPECT_FALSE(record.seats[0].computer);
  const protocol::VerifyReport report = protocol::verify_record(record);
  EXPECT_TRUE(report.verified) << report.failure;
  EXPECT_EQ(report.seed, seed);
  for (const std::string& note : report.notes) {
    EXPECT_EQ(note.find("made no contribution"), std::string::npos) << note;
  }
  // Another contribution (with its commitment, so only the seed differs) fails the check.
  protocol::GameRecord forged = record;
  forged.seats[1].contribution = test_contribution(3);
  forged.seats[1].contribution_commitment = fair::contribution_commitment(test_contribution(3));
  EXPECT_FALSE(protocol::verify_record(forged).verified);
}

// A seat that does not reveal blocks the start; at the deadline it is removed, the game is open
// again, and the others' commitments are cleared (their contributions are known to the server
// now): they are asked to commit afresh, and the next round starts from new contributions.
TEST_F(Contributions, AMissingRevealBlocksTheStartAndTheDeadlineRemovesTheSeat) {
  ListClient& a = connect("Alice");
  ListClient& b = connect("Bob");
  ListClient& c = connect("Carol");
  const std::int64_t id = create(a, 3, 1);
  join(b, id, 2);
  join(c, id, 3);
  reveal(a, id, 1);
  reveal(b, id, 2);
  EXPECT_EQ(store.game(id)->status, GameStatus::kOpen);
  EXPECT_TRUE(b.last("game.state").is_null());
  const json waiting = summary(id)["reveal"];
  EXPECT_EQ(waiting["waiting"], 1);
  EXPECT_EQ(waiting["phase"], "reveal");
  // Untimed: a correspondence game waits days, not minutes.
  EXPECT_EQ(waiting["deadline"], clock.now + 72LL * 3600 * 1000);
  clock.now += 72LL * 3600 * 1000 - 1;
  hub.sweep_clocks();
  EXPECT_EQ(store.game(id)->seats.size(), 3u) << "not before the deadline";
  clock.now += 1;
  a.messages.clear();
  hub.sweep_clocks();
  const GameRecord after = *store.game(id);
  EXPECT_EQ(after.status, GameStatus::kOpen);
  ASSERT_EQ(after.seats.size(), 2u);
  for (const SeatRecord& s : after.seats) {
    EXPECT_NE(s.player_id, ids[&c]);
    EXPECT_EQ(s.contribution_commitment, "");
    EXPECT_EQ(s.contribution, "");
  }
  EXPECT_FALSE(after.reveal_deadline);
  EXPECT_TRUE(summary(id)["reveal"].is_null());
  EXPECT_FALSE(a.last("game.commit_request").is_null()) << "Alice commits afresh";
  EXPECT_EQ(a.last("game.seats")["seats"][2]["player_id"], nullptr) << "Carol's seat is free";
  // Old contributions are refused now (no round), and the seats commit afresh.
  EXPECT_EQ(error_of(a, {{"type", "game.contribute"},
                         {"game_id", id},
                         {"contribution", contribution_hex(1)}})["code"],
            "no_round");
  send(
      a,
      {{"type", "game.commit"}, {"game_id", id}, {"contribution_commitment", test_commitment(11)}});
  send(
      b,
      {{"type", "game.commit"}, {"game_id", id}, {"contribution_commitment", test_commitment(12)}});
  ListClient& d = connect("Dave");
  join(d, id, 14);
  reveal(a, id, 11);
  reveal(b, id, 12);
  reveal(d, id, 14);
  ASSERT_EQ(store.game(id)->status, GameStatus::kRunning);
  EXPECT_EQ(store.game(id)->seed, expected_seed(id, {11, 12, 14}));
}

// A wrong reveal is refused with a clear error and changes nothing, like every other misuse.
TEST_F(Contributions, AWrongRevealIsRefusedAndChangesNothing) {
  ListClient& a = connect("Alice");
  ListClient& b = connect("Bob");
  ListClient& eve = connect("Eve");
  const std::int64_t id = create(a, 2, 1);
  EXPECT_EQ(error_of(a, {{"type", "game.contribute"},
                         {"game_id", id},
                         {"contribution", contribution_hex(1)}})["code"],
            "no_round");
  join(b, id, 2);
  const json wrong = error_of(
      b, {{"type", "game.contribute"}, {"game_id", id}, {"contribution", contribution_hex(7)}});
  EXPECT_EQ(wrong["code"], "wrong_contribution");
  EXPECT_NE(wrong["message"].get<std::string>().find("does not match"), std::string::npos);
  for (const json& bad : {json("12ab"), json(std::string(64, 'g')), json(42), json(nullptr)}) {
    EXPECT_EQ(
        error_of(b, {{"type", "game.contribute"}, {"game_id", id}, {"contribution", bad}})["code"],
        "bad_contribution")
        << bad;
  }
  EXPECT_EQ(error_of(b, {{"type", "game.contribute"}, {"game_id", id}})["code"],
            "bad_contribution");
  EXPECT_EQ(error_of(eve, {{"type", "game.contribute"},
                           {"game_id", id},
                           {"contribution", contribution_hex(2)}})["code"],
            "not_seated");
  EXPECT_EQ(stored_contribution(id, ids[&b]), "");
  EXPECT_EQ(summary(id)["reveal"]["waiting"], 2);
  // Once per seat and round.
  reveal(b, id, 2);
  EXPECT_EQ(error_of(b, {{"type", "game.contribute"},
                         {"game_id", id},
                         {"contribution", contribution_hex(2)}})["code"],
            "already_revealed");
  EXPECT_EQ(error_of(b, {{"type", "game.commit"},
                         {"game_id", id},
                         {"contribution_commitment", test_commitment(5)}})["code"],
            "already_committed");
  EXPECT_EQ(error_of(eve, {{"type", "game.join"},
                           {"game_id", id},
                           {"contribution_commitment", test_commitment(5)}})["code"],
            "starting");
  EXPECT_EQ(
      error_of(eve,
               {{"type", "game.create"}, {"seats", 2}, {"contribution_commitment", "xyz"}})["code"],
      "bad_commitment");
  reveal(a, id, 1);
  EXPECT_EQ(store.game(id)->status, GameStatus::kRunning);
}

// An old client sends no commitment: its game.create and game.join are accepted, and when the
// seats are final it is asked to commit first (game.commit_request); nobody is asked to reveal,
// and no reveal is taken, before every seat is bound.
TEST_F(Contributions, ASeatWithoutACommitmentIsAskedForOneBeforeAnyoneReveals) {
  ListClient& a = connect("Alice");
  ListClient& b = connect("Bob");
  const std::int64_t id = create(a, 2, 1);
  send(b, {{"type", "game.join"}, {"game_id", id}});
  EXPECT_TRUE(b.last("error").is_null()) << b.last("error").dump();
  EXPECT_FALSE(b.last("game.commit_request").is_null());
  EXPECT_TRUE(a.last("game.reveal_request").is_null());
  EXPECT_EQ(summary(id)["reveal"]["phase"], "commit");
  EXPECT_EQ(error_of(a, {{"type", "game.contribute"},
                         {"game_id", id},
                         {"contribution", contribution_hex(1)}})["code"],
            "not_asked");
  EXPECT_EQ(error_of(b, {{"type", "game.commit"},
                         {"game_id", id},
                         {"contribution_commitment", "not hex"}})["code"],
            "bad_commitment");
  send(b,
       {{"type", "game.commit"}, {"game_id", id}, {"contribution_commitment", test_commitment(2)}});
  EXPECT_EQ(a.last("game.reveal_request")["contribution_commitments"],
            json({test_commitment(1), test_commitment(2)}));
  reveal(a, id, 1);
  reveal(b, id, 2);
  EXPECT_EQ(store.game(id)->status, GameStatus::kRunning);
}

// The round's requests reach a seat's connections that do not watch the game too (a browser
// open on the lobby answers by itself): once each, never a spectator's or another player's.
TEST_F(Contributions, TheRoundReachesTheSeatsOtherConnectionsOnce) {
  ListClient& a = connect("Alice");
  ListClient& b = connect("Bob");
  ListClient& carol = connect("Carol");
  const std::int64_t id = create(a, 2, 1);
  send(carol, {{"type", "game.watch"}, {"game_id", id}});  // a spectator of the open game
  join(b, id, 2);
  // Alice's own connection watches the game (she created it) and is asked once.
  int asked = 0;
  for (const json& m : a.messages) asked += m.value("type", "") == "game.reveal_request";
  EXPECT_EQ(asked, 1);
  EXPECT_TRUE(carol.last("game.reveal_request").is_null()) << "a spectator owes nothing";
  // Alice stops watching (she is on the lobby now): the next requests reach her connection.
  send(a, {{"type", "game.unwatch"}, {"game_id", id}});
  const std::size_t before = a.messages.size();
  send(b, {{"type", "game.leave"}, {"game_id", id}});
  // The round ended: she is asked to commit afresh (what was revealed is known now), once.
  int commit_requests = 0;
  for (std::size_t i = before; i < a.messages.size(); ++i) {
    commit_requests += a.messages[i].value("type", "") == "game.commit_request";
  }
  EXPECT_EQ(commit_requests, 1);
  EXPECT_EQ(a.last("game.commit_request")["game_id"], id);
  EXPECT_TRUE(carol.last("game.commit_request").is_null());
  join(b, id, 3);
  send(a,
       {{"type", "game.commit"}, {"game_id", id}, {"contribution_commitment", test_commitment(4)}});
  const json reveal_request = a.last("game.reveal_request");
  ASSERT_FALSE(reveal_request.is_null());
  EXPECT_EQ(reveal_request["contribution_commitment"], test_commitment(4));
  reveal(a, id, 4);
  reveal(b, id, 3);
  EXPECT_EQ(store.game(id)->status, GameStatus::kRunning);
  EXPECT_EQ(store.game(id)->seed, expected_seed(id, {4, 3}));
}

// A player with no connection open when the round begins is asked when he signs in again, on
// that connection, before he opens the game: his browser answers from the lobby.
TEST_F(Contributions, APlayerWhoComesBackIsAskedAtSignIn) {
  const ApiResponse session =
      hub.handle_api("POST", "/api/session", json{{"name", "Alice"}}.dump(), "");
  const std::string token = json::parse(session.body)["token"];
  const auto sign_in = [&]() -> ListClient& {
    clients.push_back(std::make_unique<ListClient>());
    ListClient& c = *clients.back();
    hub.on_open(&c, "");
    send(c, {{"type", "auth"}, {"token", token}});
    return c;
  };
  ListClient& first = sign_in();
  const std::int64_t id = create(first, 2, 1);
  hub.on_close(&first);
  ListClient& b = connect("Bob");
  join(b, id, 2);
  ListClient& back = sign_in();
  const json asked = back.last("game.reveal_request");
  ASSERT_FALSE(asked.is_null()) << "asked at sign-in, without game.watch";
  EXPECT_EQ(asked["game_id"], id);
  EXPECT_EQ(asked["contribution_commitment"], test_commitment(1));
  reveal(back, id, 1);
  reveal(b, id, 2);
  EXPECT_EQ(store.game(id)->status, GameStatus::kRunning);
  // Once revealed, a later sign-in owes nothing.
  EXPECT_TRUE(sign_in().last("game.reveal_request").is_null());
}

// Leaving during the round ends it: the leaver's seat is free, the others commit afresh.
TEST_F(Contributions, LeavingDuringTheRoundEndsIt) {
  ListClient& a = connect("Alice");
  ListClient& b = connect("Bob");
  ListClient& c = connect("Carol");
  const std::int64_t id = create(a, 3, 1);
  join(b, id, 2);
  join(c, id, 3);
  reveal(b, id, 2);
  send(c, {{"type", "game.leave"}, {"game_id", id}});
  const GameRecord after = *store.game(id);
  EXPECT_EQ(after.status, GameStatus::kOpen);
  EXPECT_EQ(after.seats.size(), 2u);
  EXPECT_FALSE(after.reveal_deadline);
  EXPECT_EQ(stored_contribution(id, ids[&b]), "none") << "Bob's revealed contribution is gone";
  EXPECT_FALSE(b.last("game.commit_request").is_null());
}

// Budgets: one player who fills the last seat and leaves in a loop forces a round each time
// (and every other seat to commit afresh): rounds are counted per player and per address.
// Reveal spam costs messages like any other request.
class ContributionBudgets : public Contributions {
 protected:
  ContributionBudgets() : Contributions(budgets()) {}
  static HubOptions budgets() {
    HubOptions o = defaults();
    o.room.contributions.rounds_per_hour = 3;
    o.messages_per_second = 1;
    o.message_burst = 100;
    return o;
  }
};

TEST_F(ContributionBudgets, JoinAndLeaveLoopsAndRevealSpamAreLimited) {
  ListClient& a = connect("Alice", "192.0.2.1");
  ListClient& mallory = connect("Mallory", "198.51.100.7");
  const std::int64_t id = create(a, 2, 1);
  for (int i = 0; i < 3; ++i) {
    join(mallory, id, 2);
    ASSERT_TRUE(summary(id)["reveal"].is_object()) << i;
    send(mallory, {{"type", "game.leave"}, {"game_id", id}});
    send(a, {{"type", "game.commit"},
             {"game_id", id},
             {"contribution_commitment", test_commitment(1)}});
  }
  const json refused = error_of(
      mallory,
      {{"type", "game.join"}, {"game_id", id}, {"contribution_commitment", test_commitment(2)}});
  EXPECT_EQ(refused["code"], "rate_limited");
  EXPECT_TRUE(summary(id)["reveal"].is_null());
  // Another account from the same address: the address has twice the budget, three rounds used.
  ListClient& sock = connect("Sock", "198.51.100.7");
  for (int i = 0; i < 3; ++i) {
    join(sock, id, 4);
    ASSERT_TRUE(summary(id)["reveal"].is_object()) << i;
    send(sock, {{"type", "game.leave"}, {"game_id", id}});
    send(a, {{"type", "game.commit"},
             {"game_id", id},
             {"contribution_commitment", test_commitment(1)}});
  }
  ListClient& sock2 = connect("Sock two", "198.51.100.7");
  EXPECT_EQ(error_of(sock2, {{"type", "game.join"},
                             {"game_id", id},
                             {"contribution_commitment", test_commitment(5)}})["code"],
            "rate_limited");
  // An honest player from elsewhere still gets in.
  ListClient& bob = connect("Bob", "203.0.113.9");
  join(bob, id, 2);
  EXPECT_TRUE(summary(id)["reveal"].is_object());
  // Reveal spam: refused answers cost like any message, until the connection is slowed down.
  int limited = 0;
  for (int i = 0; i < 150; ++i) {
    const json e = error_of(
        bob, {{"type", "game.contribute"}, {"game_id", id}, {"contribution", contribution_hex(9)}});
    if (e["code"] == "rate_limited") ++limited;
  }
  EXPECT_GT(limited, 0);
  EXPECT_EQ(stored_contribution(id, ids[&bob]), "");
}

// The operator's accounts (--operator) are marked in the seats, the summaries and the record;
// a computer seat is recorded as one (it contributes nothing) and asked for nothing. Through the
// Lobby and the room (no computer workers: the computer never moves here).
TEST(ContributionMarks, TheOperatorsSeatAndComputerSeatsAreMarked) {
  TempDir dir;
  Store store(dir.file("marks.db"));
  Metrics metrics;
  RoomLimits limits;
  limits.contributions.operators = {"Host"};
  // The Hub's part: the round's requests for the seat's connections (none watch yet).
  testing::Recorder seen;
  limits.contributions.ask_elsewhere = [&seen](std::int64_t, std::int64_t, const json& request) {
    seen.deliver(make_message(request));
  };
  Lobby lobby(store, metrics, limits);
  const PlayerRecord host = store.create_player("Host", "h", 1);
  const PlayerRecord guest = store.create_player("Guest", "g", 1);
  CreateRequest req;
  req.options.players = 2;
  req.computers = {{1, "random"}};
  req.commitment = test_commitment(1);
  GameRoom* room = std::get<GameRoom*>(lobby.create(host, req));
  std::lock_guard lock(room->mutex());
  const json seats = room->summary()["seats"];
  EXPECT_EQ(seats[0]["host"], true);
  EXPECT_FALSE(seats[1].contains("host"));
  EXPECT_FALSE(seats[1].contains("contribution_commitment")) << "a computer commits to nothing";
  // The game of a human and a computer waits for the human's reveal alone.
  const json asked = seen.last("game.reveal_request");
  ASSERT_FALSE(asked.is_null());
  EXPECT_EQ(asked["contribution_commitments"], json({test_commitment(1), nullptr}));
  ASSERT_FALSE(room->contribute(host.id, contribution_hex(1)));
  ASSERT_EQ(room->status(), GameStatus::kRunning);
  Action concede;
  concede.kind = ActionKind::kConcede;
  ASSERT_FALSE(room->act(host.id, room->seq(), concede, CommitPath::kDirect));
  ASSERT_EQ(room->status(), GameStatus::kFinished);
  const protocol::GameRecord record = export_game_record(store, *store.game(room->id()));
  EXPECT_TRUE(record.seats[0].host);
  EXPECT_FALSE(record.seats[0].computer);
  EXPECT_EQ(record.seats[0].contribution, test_contribution(1));
  EXPECT_TRUE(record.seats[1].computer);
  EXPECT_FALSE(record.seats[1].host);
  EXPECT_FALSE(record.seats[1].contribution);
  // Another player is no operator.
  CreateRequest other;
  other.options.players = 2;
  GameRoom* guests = std::get<GameRoom*>(lobby.create(guest, other));
  EXPECT_FALSE(guests->summary()["seats"][0].contains("host"));
}

}  // namespace
}  // namespace viktory::server
