// Games run at the same time on several threads (each under its own room lock, no global lock
// around game logic), and the writer thread commits the actions of many games in one
// transaction (group commit), each caller released only after its COMMIT.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "failing_vfs.h"
#include "fake_clients.h"
#include "game.h"
#include "hub.h"
#include "json.h"
#include "store.h"
#include "test_support.h"
#include "view.h"

namespace viktory::server {
namespace {

using nlohmann::json;
using testing::FailingVfs;
using testing::Recorder;
using testing::TempDir;

// A running game of two seats, straight in the store, to commit actions to.
std::int64_t running_game(Store& store, const PlayerRecord& a, const PlayerRecord& b) {
  GameRecord g;
  g.options.players = 2;
  g.created = 1;
  g.creator = a;
  g.seats = {SeatRecord{0, a.id, a.name, ""}, SeatRecord{1, b.id, b.name, ""}};
  store.create_game(g);
  g.status = GameStatus::kRunning;
  store.start_game(g);
  return g.id;
}

ActionCommit end_phase(std::int64_t game_id, int seq) {
  ActionCommit c;
  c.game_id = game_id;
  c.record = ActionRecord{seq, Action{}, false, 1, 1000 + seq};
  c.record.action.kind = ActionKind::kEndPhase;
  c.current_seat = seq % 2;
  return c;
}

// Waits (bounded) until the writer took `taken` commits and `queued` more wait for it.
void wait_for(const Store& store, std::int64_t taken, std::size_t queued) {
  for (int i = 0; i < 10000; ++i) {
    const Store::GroupCommitStats now = store.group_commit_stats();
    if (now.taken == taken && now.queued == queued) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  FAIL() << "the writer did not take " << taken << " with " << queued << " queued";
}

TEST(GroupCommit, TheActionsOfManyGamesShareOneCommitAndEachIsToldOnlyAfterIt) {
  TempDir dir;
  Store store(dir.file("group.db"));
  store.start_group_commit();
  const PlayerRecord a = store.create_player("A", "ha", 1);
  const PlayerRecord b = store.create_player("B", "hb", 1);
  std::vector<std::int64_t> games;
  for (int i = 0; i < 6; ++i) games.push_back(running_game(store, a, b));

  // Hold the database: the writer takes the first commit and waits for it, so the other five
  // queue meanwhile and must go together in the next transaction.
  std::atomic<int> returned{0};
  std::vector<std::thread> threads;
  {
    auto held = store.db().lock();
    threads.emplace_back([&] {
      store.commit_action(end_phase(games[0], 1));
      ++returned;
    });
    wait_for(store, 1, 0);  // the writer holds the first, waiting for the database
    for (std::size_t g = 1; g < games.size(); ++g) {
      threads.emplace_back([&, g] {
        store.commit_action(end_phase(games[g], 1));
        ++returned;
      });
    }
    wait_for(store, 1, games.size() - 1);
    EXPECT_EQ(returned, 0) << "no caller may return before its COMMIT";
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(returned, 6);
  EXPECT_EQ(store.group_commit_stats().groups, 2)
      << "the five queued actions went in one transaction";
  // Committed: another connection sees every action and every game row.
  Store reader(dir.file("group.db"), Store::ReadOnly{});
  for (std::int64_t id : games) {
    ASSERT_EQ(reader.actions(id).size(), 1u);
    EXPECT_EQ(reader.game(id)->seq, 1);
  }
}

TEST(GroupCommit, OneBadActionFailsAloneAndTheOthersOfItsGroupAreStored) {
  TempDir dir;
  Store store(dir.file("group.db"));
  store.start_group_commit();
  const PlayerRecord a = store.create_player("A", "ha", 1);
  const PlayerRecord b = store.create_player("B", "hb", 1);
  const std::int64_t one = running_game(store, a, b);
  const std::int64_t two = running_game(store, a, b);
  store.commit_action(end_phase(one, 1));
  std::vector<std::thread> threads;
  std::atomic<int> failed{0};
  {
    auto held = store.db().lock();
    threads.emplace_back([&] { store.commit_action(end_phase(two, 1)); });
    wait_for(store, 2, 0);  // (the commit before this block was the first taken)
    // seq 1 of game one is stored already: the primary key refuses it (a bug, not the disk).
    threads.emplace_back([&] {
      try {
        store.commit_action(end_phase(one, 1));
      } catch (const DbError& e) {
        if (!e.storage_failure()) ++failed;
      }
    });
    threads.emplace_back([&] { store.commit_action(end_phase(two, 2)); });
    wait_for(store, 2, 2);
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failed, 1);
  EXPECT_EQ(store.actions(one).size(), 1u);
  EXPECT_EQ(store.actions(two).size(), 2u);
}

TEST(GroupCommit, AFailedCommitFailsEveryActionOfTheGroup) {
  TempDir dir;
  FailingVfs vfs;  // registered before the database is opened
  Store store(dir.file("group.db"));
  store.start_group_commit();
  const PlayerRecord a = store.create_player("A", "ha", 1);
  const PlayerRecord b = store.create_player("B", "hb", 1);
  std::vector<std::int64_t> games;
  for (int i = 0; i < 4; ++i) games.push_back(running_game(store, a, b));
  std::atomic<int> storage_failures{0};
  std::vector<std::thread> threads;
  {
    auto held = store.db().lock();
    vfs.fail_syncs(true);
    for (std::int64_t id : games) {
      threads.emplace_back([&, id] {
        try {
          store.commit_action(end_phase(id, 1));
        } catch (const DbError& e) {
          if (e.storage_failure()) ++storage_failures;
        }
      });
    }
    // However the four are grouped, each group's COMMIT fails.
    for (int i = 0; i < 10000; ++i) {
      const Store::GroupCommitStats now = store.group_commit_stats();
      if (now.taken + static_cast<std::int64_t>(now.queued) == 4) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  for (auto& t : threads) t.join();
  vfs.fail_syncs(false);
  EXPECT_EQ(storage_failures, 4) << "every caller of a failed group hears of it";
}

// The Hub over real SQLite: four games played at once from four threads (as the io_context's
// threads would), each through its own connections. Each game must end up exactly as its
// players were told, stored in order, and the threads must not wait for each other's games.
struct ThreadClient : Client {
  void deliver(Message m) override { recorder.deliver(std::move(m)); }
  void close(std::string_view) override {}
  Recorder recorder;
};

TEST(Concurrency, GamesActAtTheSameTimeOnSeveralThreads) {
  TempDir dir;
  Store store(dir.file("hub.db"));
  store.start_group_commit();
  Metrics metrics;
  // Not a rate-limit test: one seat may send more than a burst's worth of actions in the
  // fraction of a second a game takes here (the seeds, and so who acts how often, differ per
  // run), and a rate_limited answer would count as a refusal.
  HubOptions options;
  options.messages_per_second = 1e6;
  options.message_burst = 1e6;
  Hub hub(store, metrics, options);
  auto token_of = [&](const std::string& name) {
    const ApiResponse r = hub.handle_api("POST", "/api/session", json{{"name", name}}.dump(), "");
    return json::parse(r.body)["token"].get<std::string>();
  };
  constexpr int kGames = 4;
  constexpr int kActions = 60;
  std::vector<std::unique_ptr<ThreadClient>> clients;
  std::vector<std::int64_t> ids;
  testing::RoundAnswerer<ThreadClient> round;  // fair play's reveal round, as browsers answer it
  for (int g = 0; g < kGames; ++g) {
    auto a = std::make_unique<ThreadClient>();
    auto b = std::make_unique<ThreadClient>();
    hub.on_open(a.get());
    hub.on_open(b.get());
    hub.on_message(a.get(),
                   json{{"type", "auth"}, {"token", token_of("A" + std::to_string(g))}}.dump());
    hub.on_message(b.get(),
                   json{{"type", "auth"}, {"token", token_of("B" + std::to_string(g))}}.dump());
    hub.on_message(a.get(), json{{"type", "game.create"}, {"seats", 2}}.dump());
    const std::int64_t id = a->recorder.last("game.created")["game_id"];
    round.add(*a);
    round.send(hub, *b, json{{"type", "game.join"}, {"game_id", id}});
    ids.push_back(id);
    clients.push_back(std::move(a));
    clients.push_back(std::move(b));
  }
  std::vector<std::thread> threads;
  std::atomic<int> refused{0};
  for (int g = 0; g < kGames; ++g) {
    threads.emplace_back([&, g] {
      ThreadClient* seat[2] = {clients[2 * g].get(), clients[2 * g + 1].get()};
      for (int i = 0; i < kActions; ++i) {
        const json view = seat[0]->recorder.views.view(ids[g]);
        if (view["phase"] == "game_over") break;
        const int who = view["decider"];
        const json mine = seat[who]->recorder.last("game.state");
        json last = seat[who]->recorder.last("game.update");
        const json& latest = last.is_null() || last["seq"] < mine["seq"] ? mine : last;
        json pick;
        for (const json& a : latest["legal"]) {
          if (a["kind"] != "concede") {
            pick = a;
            break;
          }
        }
        if (pick.is_null()) break;
        hub.on_message(seat[who], json{{"type", "game.action"},
                                       {"game_id", ids[g]},
                                       {"seq", latest["seq"]},
                                       {"action", pick}}
                                      .dump());
        if (const json error = seat[who]->recorder.last("error"); !error.is_null()) {
          ADD_FAILURE() << "game " << g << " refused: " << error.dump();
          ++refused;
          break;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(refused, 0);
  for (int g = 0; g < kGames; ++g) {
    const int seq = store.game(ids[g])->seq;
    EXPECT_GE(seq, 10);
    // Stored in order, and what both players were shown is the stored game, replayed.
    std::vector<ActionRecord> log = store.actions(ids[g]);
    ASSERT_EQ(static_cast<int>(log.size()), seq);
    const GameRecord record = *store.game(ids[g]);
    GameState s = new_game(record.options, record.seed, record.random_scheme);
    for (const ActionRecord& r : log) ASSERT_FALSE(apply_in_place(s, r.action));
    for (int seat = 0; seat < 2; ++seat) {
      EXPECT_EQ(clients[2 * g + seat]->recorder.views.view(ids[g]),
                protocol::view_to_json(view_for(s, seat)));
    }
  }
  for (auto& c : clients) hub.on_close(c.get());
}

}  // namespace
}  // namespace viktory::server
