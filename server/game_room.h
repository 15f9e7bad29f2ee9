// One game's live state: seats while it is open, then the engine state, its seq (actions
// applied), the players and spectators watching it, and the rules for acting, undoing and
// chatting. Every change is committed to the Store before anyone is told about it.
//
// Not thread-safe: the Hub serialises all calls. No sockets here: subscribers are an
// interface, so the room is tested with recorders.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common.h"
#include "game.h"
#include "metrics.h"
#include "store.h"

namespace viktory::server {

struct RoomLimits {
  int snapshot_every = 50;   // store a whole state every N actions
  int log_keep = 200;        // actions whose log lines a full view carries
  int chat_keep = 50;        // chat lines a full view carries
  int chat_max_chars = 500;  // per message, in Unicode code points
};

class GameRoom {
 public:
  // A freshly created open game (already in the store).
  GameRoom(Store& store, Metrics& metrics, GameRecord record, RoomLimits limits);
  // Loads a game: the state from the latest snapshot and the action log after it.
  static std::unique_ptr<GameRoom> load(Store& store, Metrics& metrics, std::int64_t game_id,
                                        RoomLimits limits);
  ~GameRoom();

  std::int64_t id() const { return record_.id; }
  const GameRecord& record() const { return record_; }
  GameStatus status() const { return record_.status; }
  int seq() const { return record_.seq; }
  const GameState* state() const { return state_ ? &*state_ : nullptr; }
  std::optional<int> seat_of(std::int64_t player_id) const;
  // Private games are visible to seated players and to holders of the invite code.
  bool may_view(std::int64_t player_id, const std::string& invite) const;

  // --- open games ---
  Outcome join(const PlayerRecord& player, std::optional<int> seat, const std::string& invite);
  Outcome leave(std::int64_t player_id);
  Outcome start(std::int64_t player_id);  // the creator starts early with >= 2 seated

  // --- subscriptions (player_id 0: anonymous) ---
  void watch(Subscriber* subscriber, std::int64_t player_id);
  void unwatch(Subscriber* subscriber);
  bool has_subscribers() const { return !subscribers_.empty(); }

  // --- running games ---
  // action.player is ignored: the seat of player_id acts.
  Outcome act(std::int64_t player_id, int client_seq, Action action);
  Outcome undo(std::int64_t player_id, int client_seq);
  bool can_undo(int seat) const;
  Outcome chat(const PlayerRecord& player, const std::string& text);

  // Sends the full state (game.state) to one subscriber.
  void send_state(Subscriber* subscriber, std::int64_t player_id);

  nlohmann::json summary() const { return summary_of(record_); }
  nlohmann::json seats_message() const;
  // The game summary of docs/protocol.md, from a record alone (e.g. read from the store).
  static nlohmann::json summary_of(const GameRecord& record);
  static nlohmann::json seats_json(const GameRecord& record);

  // The replay of a finished game for `viewer` (seat or kSpectator): one step per action.
  static nlohmann::json replay(Store& store, const GameRecord& record, int viewer);

 private:
  struct Step {
    int seq = 0;
    std::vector<Event> events;  // unfiltered; filtered per viewer when sent
  };

  void broadcast(const Message& message);
  void broadcast_seats();
  void broadcast_states();
  void broadcast_update(const Step& step, std::chrono::steady_clock::time_point received);
  nlohmann::json state_message(int viewer) const;
  nlohmann::json common_view_fields(int viewer) const;
  int viewer_for(std::int64_t player_id) const;
  void begin_game();  // all seats filled or early start
  void remember(Step step);
  void set_status(GameStatus status);

  Store& store_;
  Metrics& metrics_;
  RoomLimits limits_;
  GameRecord record_;
  std::optional<GameState> state_;
  std::vector<ActionRecord> log_;  // every action, for undo and replays
  std::deque<Step> recent_;        // the last log_keep actions' events, for log lines
  std::map<Subscriber*, std::int64_t> subscribers_;
};

}  // namespace viktory::server
