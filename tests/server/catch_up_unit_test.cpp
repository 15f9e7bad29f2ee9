// game.since without sockets (server/games/catch_up.h): a game played through a room with recording
// subscribers, then caught up on from the database: the steps are those the seat was sent live,
// from a stored snapshot too; the cap keeps the latest steps and counts the others.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "catch_up.h"
#include "game.h"
#include "game_room.h"
#include "lobby.h"
#include "reveal_round.h"
#include "test_support.h"

namespace viktory::server {
namespace {

using nlohmann::json;
using testing::Recorder;
using testing::TempDir;

class CatchUpBuild : public ::testing::Test {
 protected:
  void SetUp() override {
    RoomLimits limits;
    limits.snapshot_every = 10;  // so the catch-up starts from a stored snapshot
    store = std::make_unique<Store>(dir.file("catch_up.db"));
    lobby = std::make_unique<Lobby>(*store, metrics, limits);
    alice = store->create_player("Alice", "ha", 1);
    bob = store->create_player("Bob", "hb", 1);
    CreateRequest req;
    req.options.players = 2;
    std::string invite;
    room = std::get<GameRoom*>(lobby->create(alice, req, &invite));
    room->watch(&alice_rec, alice.id);
    EXPECT_FALSE(room->join(bob, std::nullopt, ""));
    room->watch(&bob_rec, bob.id);
    testing::complete_reveal_round(*room);
    // Random legal play; who acted last as Bob is remembered.
    std::mt19937 rng(5);
    for (int i = 0; i < 60 && room->state()->phase != Phase::kGameOver; ++i) {
      const int seat = decider(*room->state());
      std::vector<Action> options;
      for (const Action& a : legal_actions(*room->state(), seat)) {
        if (a.kind != ActionKind::kConcede) options.push_back(a);
      }
      ASSERT_FALSE(options.empty());
      const Action pick =
          options[std::uniform_int_distribution<std::size_t>(0, options.size() - 1)(rng)];
      ASSERT_FALSE(room->act(seat == 0 ? alice.id : bob.id, room->seq(), pick));
      if (seat == 1) bob_last = room->seq();
    }
  }

  // The game.update Bob was sent for `seq`.
  json live_to_bob(int seq) const {
    for (const json& m : bob_rec.of_type("game.update")) {
      if (m["seq"] == seq) return m;
    }
    return nullptr;
  }

  TempDir dir;
  Metrics metrics;
  std::unique_ptr<Store> store;
  std::unique_ptr<Lobby> lobby;
  PlayerRecord alice, bob;
  GameRoom* room = nullptr;
  Recorder alice_rec, bob_rec;
  int bob_last = 0;
};

TEST_F(CatchUpBuild, StepsAreWhatTheSeatWasSentLive) {
  const int last = room->seq();
  ASSERT_GE(last, 30);
  const json reply = CatchUps::build(*store, room->record(), 1, 12, 200);
  EXPECT_EQ(reply["since"], 12);
  EXPECT_EQ(reply["from"], 12);
  EXPECT_EQ(reply["to"], last);
  EXPECT_EQ(reply["skipped"], 0);
  ASSERT_EQ(int(reply["steps"].size()), last - 12);
  for (const json& step : reply["steps"]) {
    const json live = live_to_bob(step["seq"]);
    ASSERT_FALSE(live.is_null()) << step["seq"];
    EXPECT_EQ(step["events"], live["events"]) << step["seq"];
    EXPECT_EQ(step["log"], live["log"]) << step["seq"];
  }
}

TEST_F(CatchUpBuild, ByDefaultFromTheSeatsOwnLastAction) {
  ASSERT_GT(bob_last, 0);
  EXPECT_EQ(CatchUps::last_action_of(*store, room->id(), 1), bob_last);
  const json reply = CatchUps::build(*store, room->record(), 1, std::nullopt, 200);
  EXPECT_EQ(reply["since"], bob_last);
  EXPECT_EQ(int(reply["steps"].size()), room->seq() - bob_last);
}

// An expelled player's seat played on by the computer (and a skip's decisions by the clock):
// his catch-up starts after the last action he took himself and holds his own seat's steps
// taken for him, each saying who took it, with the clock's lines about his seat.
TEST_F(CatchUpBuild, TheSeatsStepsTakenForItAndTheClocksLinesAboutItComeBack) {
  ASSERT_GT(bob_last, 0);
  std::mt19937 rng(11);
  std::map<int, ActionSource> taken_for_bob;
  for (int i = 0; i < 40 && room->state()->phase != Phase::kGameOver; ++i) {
    const int seat = decider(*room->state());
    std::vector<Action> options;
    for (const Action& a : legal_actions(*room->state(), seat)) {
      if (a.kind != ActionKind::kConcede) options.push_back(a);
    }
    ASSERT_FALSE(options.empty());
    const Action pick =
        options[std::uniform_int_distribution<std::size_t>(0, options.size() - 1)(rng)];
    const ActionSource source = seat != 1
                                    ? ActionSource::kPlayer
                                    : (i % 2 == 0 ? ActionSource::kComputer : ActionSource::kClock);
    ASSERT_FALSE(
        room->act(seat == 0 ? alice.id : bob.id, room->seq(), pick, CommitPath::kWriter, source));
    if (seat == 1) taken_for_bob[room->seq()] = source;
  }
  ASSERT_FALSE(taken_for_bob.empty());
  // The clock's lines: about Bob's seat after his last action (kept), about Alice's (not
  // his), before it (seen), and one of a clock stored before lines named their seat.
  const int said = bob_last + 1;
  const json about_bob{{"at", 1},
                       {"text", "Alice (Red) skipped the turn of Bob (Yellow)."},
                       {"seq", said},
                       {"seat", 1}};
  {
    const json log =
        json::array({about_bob,
                     {{"at", 2}, {"text", "Reminder to Alice."}, {"seq", said}, {"seat", 0}},
                     {{"at", 0}, {"text", "Old."}, {"seq", bob_last - 1}, {"seat", 1}},
                     {{"at", 3}, {"text", "Yellow is over time."}, {"seq", said}}});
    const auto lock = store->db().lock();
    store->db()
        .prepare("INSERT INTO game_clocks(game_id, options, state, log, due) VALUES(?, ?, ?, ?, 0)")
        .bind(1, room->id())
        .bind(2, R"({"per_move_seconds":120})")
        .bind(3, "null")
        .bind(4, log.dump())
        .run();
  }

  EXPECT_EQ(CatchUps::last_action_of(*store, room->id(), 1), bob_last);
  const json reply = CatchUps::build(*store, room->record(), 1, std::nullopt, 200);
  EXPECT_EQ(reply["since"], bob_last);
  ASSERT_EQ(int(reply["steps"].size()), room->seq() - bob_last);
  const std::vector<ActionRecord> stored = store->actions(room->id());
  int for_bob = 0;
  for (const json& step : reply["steps"]) {
    const int seq = step["seq"];
    EXPECT_EQ(step["player"], stored[static_cast<std::size_t>(seq - 1)].action.player) << seq;
    if (auto it = taken_for_bob.find(seq); it != taken_for_bob.end()) {
      ++for_bob;
      EXPECT_EQ(step["player"], 1);
      EXPECT_EQ(step["by"], std::string(to_string(it->second))) << seq;
    } else {
      EXPECT_FALSE(step.contains("by")) << step.dump();
    }
    // The same events and lines as live, "by" on the lines included.
    const json live = live_to_bob(seq);
    ASSERT_FALSE(live.is_null()) << seq;
    EXPECT_EQ(step["events"], live["events"]) << seq;
    EXPECT_EQ(step["log"], live["log"]) << seq;
  }
  EXPECT_EQ(for_bob, static_cast<int>(taken_for_bob.size()));
  EXPECT_EQ(reply["clock"], json::array({about_bob}));
  // Alice's catch-up has the line about her seat only.
  const json alices = CatchUps::build(*store, room->record(), 0, bob_last, 200);
  ASSERT_EQ(alices["clock"].size(), 1u);
  EXPECT_EQ(alices["clock"][0]["text"], "Reminder to Alice.");
}

TEST_F(CatchUpBuild, TheCapKeepsTheLatestStepsAndCountsTheOthers) {
  const int last = room->seq();
  const json reply = CatchUps::build(*store, room->record(), 1, 3, 7);
  EXPECT_EQ(reply["since"], 3);
  EXPECT_EQ(reply["from"], last - 7);
  EXPECT_EQ(reply["skipped"], last - 7 - 3);
  ASSERT_EQ(reply["steps"].size(), 7u);
  EXPECT_EQ(reply["steps"][0]["seq"], last - 6);
  EXPECT_EQ(reply["steps"].back()["events"], live_to_bob(last)["events"]);
  // Beyond the game: nothing new; negative: from the start.
  EXPECT_TRUE(CatchUps::build(*store, room->record(), 1, last + 9, 7)["steps"].empty());
  EXPECT_EQ(CatchUps::build(*store, room->record(), 1, -4, 200)["since"], 0);
}

TEST_F(CatchUpBuild, AnswerChecksTheSeatAndReadsThroughItsOwnConnection) {
  CatchUps catch_ups(store->db().path(), CatchUpLimits{});
  auto mine = catch_ups.answer(bob.id, json{{"game_id", room->id()}, {"seq", 20}});
  ASSERT_TRUE(std::holds_alternative<json>(mine));
  EXPECT_EQ(std::get<json>(mine)["seat"], 1);
  EXPECT_EQ(std::get<json>(mine)["type"], "game.since");
  const PlayerRecord carol = store->create_player("Carol", "hc", 1);
  auto spectator = catch_ups.answer(carol.id, json{{"game_id", room->id()}});
  ASSERT_TRUE(std::holds_alternative<Failure>(spectator));
  EXPECT_EQ(std::get<Failure>(spectator).code, "not_seated");
  auto missing = catch_ups.answer(bob.id, json{{"game_id", 999}});
  EXPECT_EQ(std::get<Failure>(missing).code, "not_found");
  auto bad = catch_ups.answer(bob.id, json{{"game_id", room->id()}, {"seq", true}});
  EXPECT_EQ(std::get<Failure>(bad).code, "bad_message");
}

}  // namespace
}  // namespace viktory::server
