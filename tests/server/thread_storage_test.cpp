// Every thread loop of the server survives a storage error (issue 19: the turn notifications'
// thread let a DbError escape and took the server down with std::terminate; tests/notify has
// that one). Here the others, each against the failing VFS: the group-commit writer and the
// clocks' sweeper on the io_context. Each test makes the disk fail under the loop, checks that
// the failure did happen and that nothing escaped, and that the loop works once the disk does.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <thread>

#include "clock_sweeper.h"
#include "failing_vfs.h"
#include "fake_clients.h"
#include "hub.h"
#include "test_support.h"

namespace viktory::server {
namespace {

using nlohmann::json;
using testing::FailingVfs;
using testing::TempDir;

ActionCommit end_phase(std::int64_t game_id, int seq) {
  ActionCommit c;
  c.game_id = game_id;
  c.record = ActionRecord{seq, Action{}, false, 1, 1000 + seq};
  c.record.action.kind = ActionKind::kEndPhase;
  c.current_seat = seq % 2;
  return c;
}

TEST(ThreadsOnAFailingDisk, TheGroupCommitWriterFailsTheGroupAndCommitsTheNextOne) {
  TempDir dir;
  FailingVfs vfs;  // registered before the database is opened
  Store store(dir.file("writer.db"));
  store.start_group_commit();
  const PlayerRecord a = store.create_player("A", "ha", 1);
  const PlayerRecord b = store.create_player("B", "hb", 1);
  GameRecord g;
  g.options.players = 2;
  g.created = 1;
  g.creator = a;
  g.seats = {SeatRecord{0, a.id, a.name, ""}, SeatRecord{1, b.id, b.name, ""}};
  store.create_game(g);
  g.status = GameStatus::kRunning;
  store.start_game(g);

  vfs.fail_writes(true);
  try {
    store.commit_action(end_phase(g.id, 1));
    ADD_FAILURE() << "the commit went through a failing disk";
  } catch (const DbError& e) {
    EXPECT_TRUE(e.storage_failure()) << e.what();
  }
  EXPECT_GT(vfs.failures(), 0);
  vfs.fail_writes(false);
  // The same writer thread commits the next one.
  store.commit_action(end_phase(g.id, 1));
  EXPECT_EQ(store.actions(g.id).size(), 1u);
  EXPECT_EQ(store.group_commit_stats().groups, 2);
}

using testing::FakeClock;  // fake_clients.h
using FakeClient = testing::ListClient;

// The sweeper runs Hub::sweep_clocks on the io_context: an exception out of it would end that
// network thread's io_context::run (and the server). Its sweep writes the clock (the reminder
// is due) to a disk that fails; the io_context goes on, and the next sweep works.
TEST(ThreadsOnAFailingDisk, TheClockSweeperGoesOnAfterAFailedSweep) {
  FakeClient a, b;
  TempDir dir;
  FailingVfs vfs;
  FakeClock clock;
  Store store(dir.file("clock.db"));
  Metrics metrics;
  HubOptions options;
  options.clock = &clock;
  Hub hub(store, metrics, options);
  for (auto [client, name] : {std::pair{&a, "Alice"}, std::pair{&b, "Bob"}}) {
    const ApiResponse r = hub.handle_api("POST", "/api/session", json{{"name", name}}.dump(), "");
    hub.on_open(client);
    hub.on_message(client, json{{"type", "auth"}, {"token", json::parse(r.body)["token"]}}.dump());
  }
  hub.on_message(
      &a,
      json{{"type", "game.create"}, {"seats", 2}, {"clock", {{"per_move_seconds", 86400}}}}.dump());
  const std::int64_t id = a.last("game.created")["game_id"];
  testing::RoundAnswerer<FakeClient> round;  // fair play's reveal round, as browsers answer it
  round.add(a);
  round.send(hub, b, json{{"type", "game.join"}, {"game_id", id}});
  clock.now += 86400 * 1000 * 3 / 4;  // the reminder is due

  boost::asio::io_context ioc;
  ClockSweeper sweeper(ioc, hub);
  vfs.fail_writes(true);
  sweeper.start();  // sweeps at once: the clock's state cannot be written
  EXPECT_NO_THROW(ioc.run_for(std::chrono::milliseconds(300)));
  EXPECT_GT(vfs.failures(), 0) << "the sweep never reached the disk";
  EXPECT_FALSE(ioc.stopped());  // the timer of the next sweep is armed
  vfs.fail_writes(false);
  // The next sweep (as the timer would run it) works on a healthy disk: the clock's next
  // deadline is read and armed.
  const int failures = vfs.failures();
  EXPECT_GT(hub.sweep_clocks(), clock.now);
  EXPECT_EQ(vfs.failures(), failures);
  sweeper.stop();
  ioc.run_for(std::chrono::milliseconds(50));
}

}  // namespace
}  // namespace viktory::server
