// Seat controllers: who decides for each seat of a running game. A seat is played by its
// human, or by a computer player (docs/ai.md) chosen at creation. After every change of a
// game (an action committed, an undo, the start, a load after a restart) the room tells this
// class, which asks "who must act now" (the decider: the current player, or whoever owes a
// decision out of turn, such as casualties or a retreat) and, when that seat is a computer's,
// hands its decision to the computer pool (computer_pool.h), which runs it on a worker thread
// fairly between games and their owners.
//
// The decision runs off the network threads and outside every lock of the game logic: only the
// seat's view, its legal actions and its public history go to the worker (copied under the
// room's mutex, cheap). The worker hands the chosen action to `apply` (Hub), which finds the
// room under the Hub's lock, then takes the room's mutex alone and applies it as that seat's
// action through the path of a player's (checked by the engine, committed by the writer
// thread, then told). A result whose seq has moved on, or whose cancel flag is set, is dropped
// there. Each decision has a cancel flag, set when the game moves on or ends, when the seat
// changes hands, or when the server stops; and a stop flag, which the pool sets to hurry a
// search (its best action so far is applied) or when its budget is spent.
//
// A game of computers only that nobody watches is paused: its computers play for nobody. The
// next change or a new watcher (on_watched) wakes it.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "action.h"
#include "bot.h"
#include "computer_pool.h"
#include "game_room.h"

namespace viktory::server {

class ComputerCaps;

struct ComputerOptions {
  ComputerPoolOptions pool;  // workers (default: one per core) and their scheduling
  // Per decision of the search level (the heuristic and random levels need no budget); the
  // pool stops a job when it is spent.
  std::chrono::milliseconds search_budget{300};
};

// What a computer seat chose, to be applied as that seat's action.
struct ComputerDecision {
  std::int64_t game_id = 0;
  int seq = 0;  // the game's seq the decision was made for
  std::int64_t player_id = 0;
  Action action;
  // Set (under the room's mutex) when the game moved on or the seat changed hands: the Hub
  // drops the decision then.
  std::shared_ptr<std::atomic<bool>> cancel;
  // Who decided, for the log: a computer seat's or takeover's computer.
  ActionSource source = ActionSource::kComputer;
};

// Whether `level` names a computer level a game may be created with.
bool valid_computer_level(const std::string& level);

class SeatControllers : public RoomObserver {
 public:
  using Apply = std::function<void(const ComputerDecision&)>;
  // `caps` (may be null) names the client address a game was created from, for fairness.
  SeatControllers(ComputerOptions options, Apply apply, const ComputerCaps* caps = nullptr);
  ~SeatControllers() override;  // cancels what runs and joins the workers
  SeatControllers(const SeatControllers&) = delete;
  SeatControllers& operator=(const SeatControllers&) = delete;

  // Who must act now in a running game (the seat, -1 when nobody: not running, or over).
  static int seat_to_act(const GameRoom& room);
  // The computer level of a seat, or nothing for a human's seat.
  static std::optional<ai::Level> computer_level(const GameRoom& room, int seat);

  // Called by the room (under its mutex) after every change: cheap, never searches.
  void on_room_changed(GameRoom& room) override;
  // Someone began to watch the room (under its mutex): a paused game of computers plays on.
  void on_watched(GameRoom& room);
  // Games beyond a cap lowered since they were created (ComputerCaps::over_caps, at a start):
  // their computers get only the time nobody else needs.
  void set_over_caps(std::set<std::int64_t> games);

  // Decisions handed to `apply` so far (for tests and metrics).
  std::int64_t decisions() const { return decisions_.load(); }
  // Games of computers only paused because nobody watches them.
  std::size_t paused() const;
  const ComputerPool& pool() const { return *pool_; }
  // The pool's figures in the Prometheus text format, for GET /metrics (viktory_computer_*).
  std::string metrics() const;

 private:
  struct Job {
    std::int64_t game_id = 0;
    int seq = 0;
    int seat = 0;
    std::int64_t player_id = 0;
    ai::Level level = ai::Level::kHeuristic;
    GameView view;
    std::vector<Action> legal;
    // Under independent exploration the bot needs the events its seat was shown: the worker
    // rebuilds them from the game's actions (kept per game, advanced incrementally).
    bool needs_history = false;
    Options options;
    std::uint64_t seed = 0;
    RandomScheme random_scheme = RandomScheme::kSingleStream;
    std::vector<Action> actions;
    std::shared_ptr<JobFlags> flags;
  };
  // A game's decision in progress (at most one: one seat decides at a time).
  struct Pending {
    int seq = 0;
    int seat = 0;
    std::shared_ptr<JobFlags> flags;
  };
  // The public history of every seat of one game, up to `applied.size()` actions.
  struct History {
    std::mutex mutex;
    std::optional<GameState> state;  // the game after `applied` (worker only, never sent)
    std::vector<Action> applied;
    std::vector<ai::PublicHistory> seats;
  };

  void decide(Job& job);
  ai::PublicHistory history_for(Job& job);

  ComputerOptions options_;
  Apply apply_;
  const ComputerCaps* caps_;
  mutable std::mutex mutex_;
  std::map<std::int64_t, Pending> pending_;
  std::map<std::int64_t, std::shared_ptr<History>> histories_;
  std::set<std::int64_t> paused_;
  std::set<std::int64_t> over_caps_;
  bool stopping_ = false;
  std::atomic<std::int64_t> decisions_{0};
  // Last: destroyed first, joining its workers before what they use goes away.
  std::unique_ptr<ComputerPool> pool_;
};

}  // namespace viktory::server
