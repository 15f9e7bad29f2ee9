// Standing orders (engine/ai/standing_orders.h) on the server: so that a game never waits on an
// absent player for a decision his orders cover.
//
// A player sets his orders on his account (defaults; GET/PUT /api/account/standing-orders) and
// per game (game.standing_orders: only the orders that differ). Whenever the rules ask a human
// seat for a decision outside its own turn (decisions.h) that the orders cover, this
// RoomObserver schedules his order:
//   - he is not connected to that game (no WebSocket of his watches it): at once, or 5 s after
//     a connection of his closed (a page reload must not trigger it);
//   - he is connected: after the game's grace period (game.create's `decision_grace_seconds`:
//     0 = none, he is always waited for; 30, 60 or 120), counted from when the decision came
//     to him;
//   - he connects meanwhile: the scheduled order is dropped, he decides himself.
// After a restart nobody is connected until he connects again: loading a game (at start-up for
// games with computers, or when anyone opens it) applies what is due.
//
// The Hub's sweep (Hub::sweep_clocks, on the clocks' sweeper timer) takes what is due, locks
// the room, asks decide() for the action (his orders from the store, his view and legal
// actions only) and applies it through Hub::apply_computer_decision, the path of a player's
// action, as his decision with ActionSource::kStandingOrder ("by": "standing_order" on the log
// line). Nothing is applied from inside on_room_changed (the room's lock is held there): it
// only records when and tells the sweeper.
//
// Thread-safe: its mutex is a leaf (taken under a room's, never held while reading the store).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common.h"
#include "database.h"
#include "game_clock.h"
#include "game_room.h"
#include "seat_controllers.h"
#include "standing_orders.h"  // engine/ai
#include "store.h"

namespace viktory::server {

// How long a page reload may take: a decider whose connection closed gets his order this long
// after, unless he is back by then.
constexpr std::int64_t kReloadDebounceMs = 5000;
// The grace periods game.create offers (seconds; 0: none).
const std::vector<int>& allowed_decision_grace();
// game.create's `decision_grace_seconds` (null or absent: the default for the clock, 60 s for
// a live clock and none otherwise); throws std::invalid_argument with a text for people.
int decision_grace_from_json(const nlohmann::json& j, const ClockOptions& clock);

// The orders as JSON ({"casualties": "cheapest", ...}), every field.
nlohmann::json orders_to_json(const ai::StandingOrders& orders);
// {"casualties": ["cheapest", ...], ...}: each order's choices, for clients.
nlohmann::json order_choices_json();
// What is wrong with `changes`, an object of order -> choice (with `allow_null`, null takes a
// game's own order back), as a text for people; nullopt when nothing is.
std::optional<std::string> orders_json_problem(const nlohmann::json& changes, bool allow_null);
// Sets each known order of `object` to its choice; anything else is ignored (a stored row of a
// later version).
void apply_orders(ai::StandingOrders& orders, const nlohmann::json& object);

// The account's orders (defaults for a player without a row).
ai::StandingOrders account_orders(Database& db, std::int64_t player_id);
// GET/PUT /api/account/standing-orders for a signed-in player (accounts.cpp routes it and
// limits the writes).
ApiResponse account_orders_api(Database& db, std::int64_t player_id, std::string_view method,
                               const nlohmann::json& body);

class StandingOrderService : public RoomObserver {
 public:
  StandingOrderService(Store& store, Clock& clock);

  // Called whenever something new becomes due (the sweeper re-arms its timer); under a room's
  // lock, so it must only post.
  void set_due_changed(std::function<void(std::int64_t due)> f);
  // Stores a new game's grace period (under its room's lock).
  void create(GameRoom& room, int grace_seconds);

  void on_room_changed(GameRoom& room) override;
  void on_watchers_changed(GameRoom& room, std::int64_t player_id) override;
  // A connection of this player closed (before it is dropped from the rooms): his leaving
  // counts from now plus kReloadDebounceMs.
  void connection_closed(std::int64_t player_id);

  // A scheduled order whose time has come.
  struct Due {
    std::int64_t game_id = 0;
    int seq = 0;
    int seat = 0;
    std::int64_t player_id = 0;
    std::shared_ptr<std::atomic<bool>> cancel;
  };
  // What is due now; each is handed out once (the room's next change schedules anew).
  std::vector<Due> take_due();
  // When the next scheduled order is due (ms since the epoch; 0: nothing).
  std::int64_t next_due();
  // Under the room's lock: the decision to apply for a due order, if it still stands (same
  // seq, same decider, not cancelled) and the orders give an action.
  std::optional<ComputerDecision> decide(GameRoom& room, const Due& due);

  // The seat's orders in this game: his account's, with the game's own on top (the store).
  ai::StandingOrders orders_for(const GameRoom& room, int seat);
  // What his orders do for the seat's decision now (nullopt: they do not cover it). For the
  // clock's skipped turns (game_clocks.cpp).
  std::optional<Action> action_for(const GameRoom& room, int seat);

  // game.standing_orders (under the room's lock): a seated player reads, or with `orders`
  // changes, this game's orders; the answer goes to him alone.
  Outcome request(Subscriber* client, GameRoom& room, std::int64_t player_id,
                  const nlohmann::json& msg);

  // The game's grace period in seconds (0: none).
  int grace_seconds(const GameRoom& room);
  // Orders scheduled and not yet handed out (tests).
  std::size_t scheduled();

 private:
  struct Job {
    int seq = 0;
    int seat = 0;
    std::int64_t player_id = 0;
    std::int64_t since = 0;  // when the decision came to him (the grace counts from then)
    std::int64_t due = 0;    // 0: nothing due (he is there and the game has no grace)
    bool taken = false;
    std::shared_ptr<std::atomic<bool>> cancel;
  };
  void plan(GameRoom& room);
  nlohmann::json game_overrides(std::int64_t game_id, std::int64_t player_id);

  Store& store_;
  Clock& clock_;
  std::mutex mutex_;
  std::function<void(std::int64_t)> due_changed_;
  std::map<std::int64_t, Job> jobs_;                // by game: its one decision under way
  std::map<std::int64_t, std::int64_t> closed_at_;  // by player: when a connection closed
  std::map<std::int64_t, int> grace_;               // by game (cache)
};

}  // namespace viktory::server
