// GameRoom::act_async through the Hub, without sockets: a client that can hold its reading
// (like a WebSocket session) gets its action answered by the writer thread's completion, and
// a group COMMIT that fails while the action is in flight fails that action the way a
// synchronous one failed (storage_error, the game reloaded from the database).
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>

#include "failing_vfs.h"
#include "hub.h"
#include "reveal_round.h"
#include "test_support.h"

namespace viktory::server {
namespace {

using nlohmann::json;
using testing::FailingVfs;
using testing::TempDir;

// A connection whose reading can be held: messages arrive from any thread; the resumes of its
// holds queue up here and run on the test thread (its "strand") in resume_here().
class HoldingClient : public Client {
 public:
  void deliver(Message m) override {
    std::lock_guard lock(mutex_);
    messages_.push_back(json::parse(*m));
    changed_.notify_all();
  }
  void close(std::string_view) override {}
  Resume hold_reading() override {
    std::lock_guard lock(mutex_);
    ++holds_;
    return [this](std::function<void()> then) {
      std::lock_guard resumed(mutex_);
      resumes_.push_back(std::move(then));
      changed_.notify_all();
    };
  }
  // Waits for the next resume and runs what it carries; false after 10 s without one.
  bool resume_here() {
    std::function<void()> then;
    {
      std::unique_lock lock(mutex_);
      if (!changed_.wait_for(lock, std::chrono::seconds(10), [&] { return !resumes_.empty(); })) {
        return false;
      }
      then = std::move(resumes_.front());
      resumes_.pop_front();
    }
    if (then) then();
    return true;
  }
  std::vector<json> messages() const {
    std::lock_guard lock(mutex_);
    return messages_;
  }
  json last(const std::string& type) const {
    std::lock_guard lock(mutex_);
    for (auto it = messages_.rbegin(); it != messages_.rend(); ++it) {
      if (it->value("type", "") == type) return *it;
    }
    return nullptr;
  }
  // The latest game.state or game.update.
  json latest() const {
    std::lock_guard lock(mutex_);
    for (auto it = messages_.rbegin(); it != messages_.rend(); ++it) {
      const std::string type = it->value("type", "");
      if (type == "game.state" || type == "game.update") return *it;
    }
    return nullptr;
  }
  int holds() const {
    std::lock_guard lock(mutex_);
    return holds_;
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<json> messages_;
  std::deque<std::function<void()>> resumes_;
  int holds_ = 0;
};

json first_playable(const json& message) {
  for (const json& a : message.at("legal")) {
    if (a.at("kind") != "concede") return a;
  }
  return nullptr;
}

class AsyncAct : public ::testing::Test {
 protected:
  void SetUp() override {
    store = std::make_unique<Store>(dir.file("async.db"));
    store->start_group_commit();
    hub = std::make_unique<Hub>(*store, metrics, HubOptions{});
    connect(a, "Alice");
    connect(b, "Bob");
    // Each seat commits when it takes its seat and reveals when the seats are final (fair play).
    send(a, {{"type", "game.create"},
             {"seats", 2},
             {"contribution_commitment", testing::test_commitment(1)}});
    id = a.last("game.created")["game_id"];
    send(b, {{"type", "game.join"},
             {"game_id", id},
             {"contribution_commitment", testing::test_commitment(2)}});
    for (auto [client, n] : {std::pair<HoldingClient*, int>{&a, 1}, {&b, 2}}) {
      send(*client, {{"type", "game.contribute"},
                     {"game_id", id},
                     {"contribution", protocol::fair::to_hex(testing::test_contribution(n))}});
    }
    ASSERT_FALSE(a.latest().is_null());
    ASSERT_FALSE(b.latest().is_null());
  }
  void TearDown() override {
    store->drain_group_commit();  // no completion may outlive the Hub
    hub.reset();
  }
  void connect(HoldingClient& c, const std::string& name) {
    hub->on_open(&c, "");
    const ApiResponse r =
        hub->handle_api("POST", "/api/session", json{{"name", name}}.dump(), "", "");
    ASSERT_EQ(r.status, 200) << r.body;
    send(c, {{"type", "auth"}, {"token", json::parse(r.body)["token"]}});
  }
  void send(HoldingClient& c, const json& m) { hub->on_message(&c, m.dump()); }
  // The client whose decision it is.
  HoldingClient& mover() { return first_playable(a.latest()).is_null() ? b : a; }
  // The mover sends an action with `req`; returns him once his reading was resumed.
  HoldingClient& act(int req) {
    HoldingClient& c = mover();
    const json latest = c.latest();
    const int holds = c.holds();
    send(c, {{"type", "game.action"},
             {"game_id", id},
             {"seq", latest["seq"]},
             {"action", first_playable(latest)},
             {"req", req}});
    EXPECT_EQ(c.holds(), holds + 1);
    EXPECT_TRUE(c.resume_here()) << "the action was never answered";
    return c;
  }

  TempDir dir;
  FailingVfs vfs;  // registered before the database is opened
  Metrics metrics;
  std::unique_ptr<Store> store;
  std::unique_ptr<Hub> hub;
  HoldingClient a, b;
  std::int64_t id = 0;
};

TEST_F(AsyncAct, TheCompletionFansOutThenAcknowledges) {
  for (int req = 1; req <= 4; ++req) {
    HoldingClient& c = act(req);
    const std::vector<json> seen = c.messages();
    ASSERT_GE(seen.size(), 2u);
    EXPECT_EQ(seen.back(), json({{"type", "ack"}, {"req", req}}));
    // The update of this commit came before its ack, to both players.
    EXPECT_EQ(seen[seen.size() - 2].value("type", ""), "game.update");
    EXPECT_EQ(seen[seen.size() - 2]["seq"], req);
    EXPECT_EQ(a.latest()["seq"], req);
    EXPECT_EQ(b.latest()["seq"], req);
  }
  EXPECT_EQ(store->game(id)->seq, 4);
  EXPECT_EQ(store->group_commit_stats().taken, 4);
}

TEST_F(AsyncAct, AStaleActionIsRefusedAtOnceAndReadingGoesOn) {
  HoldingClient& c = mover();
  const json latest = c.latest();
  send(c, {{"type", "game.action"},
           {"game_id", id},
           {"seq", 7},
           {"action", first_playable(latest)},
           {"req", 5}});
  EXPECT_EQ(c.last("error")["code"], "stale");
  EXPECT_TRUE(c.resume_here());
  EXPECT_EQ(store->group_commit_stats().taken, 0);
}

TEST_F(AsyncAct, AFailedCommitInFlightFailsTheActionAndReloadsTheGame) {
  act(1);
  vfs.fail_next_syncs(1);  // the next COMMIT's fsync fails; the disk works again after
  HoldingClient& c = act(2);
  EXPECT_EQ(vfs.failures(), 1);
  const json error = c.last("error");
  EXPECT_EQ(error["code"], "storage_error");
  EXPECT_EQ(error["req"], 2);
  EXPECT_EQ(metrics.storage_failures, 1);
  EXPECT_EQ(store->game(id)->seq, 1);
  for (HoldingClient* p : {&a, &b}) {
    EXPECT_EQ(p->last("game.notice")["code"], "storage_error");
    EXPECT_EQ(p->latest()["type"], "game.state");  // nobody was told of seq 2
    EXPECT_EQ(p->latest()["seq"], 1);
  }
  // The game goes on from what is stored.
  HoldingClient& next = act(3);
  EXPECT_EQ(next.messages().back(), json({{"type", "ack"}, {"req", 3}}));
  EXPECT_EQ(store->game(id)->seq, 2);
}

}  // namespace
}  // namespace viktory::server
