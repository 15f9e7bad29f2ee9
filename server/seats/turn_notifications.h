// Turn notifications wired into the game: who is told what, and how, when a game room commits
// an action that changes who must act (turn_hook.h). The room only queues a TurnChange; a
// thread of this class reads the players' settings, subscriptions and addresses from the
// database and hands deliveries to the notifier (server/notify/), which does the network on
// its own thread with retries. A slow database, relay or endpoint never delays a game.
//
// What goes out:
// - the player who must act now (his Player Turn, or a decision out of turn such as
//   casualties): a Web Push message to every browser he subscribed (unless he turned push off
//   or muted the game), and an e-mail if he turned e-mail on, has a verified address and does
//   not have the game open (at most one per game per turn: notify::TurnMailGate);
// - at the start and the end of a game: a push to every seated player;
// - the game's webhook (set by its creator): every change of whose turn it is, the start and
//   the end;
// - a clock's reminder (game_clocks.h, kind `reminder`): "your time runs out" to the player who
//   must act, by push and (if he turned it on and is not on the game page) e-mail, and to the
//   webhook.
// Only public facts leave (notification_text.h): game number, round, seat names, winners.
//
// The VAPID key pair is made on the first start and kept in the database (server_keys).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "common.h"
#include "database.h"
#include "deliveries.h"
#include "mail_gate.h"
#include "notification_text.h"
#include "notifier.h"
#include "store.h"
#include "time_zone.h"
#include "turn_hook.h"

namespace viktory::server {

struct TurnNotificationOptions {
  std::string public_url;     // links in notifications; empty: relative links (no e-mail)
  std::string vapid_subject;  // empty: mailto: the sender, else the public URL
  std::shared_ptr<const notify::SmtpSettings> smtp;  // null: no e-mail
  // Push endpoints and webhooks: https to public addresses only, unless set (tests).
  notify::EndpointPolicy endpoints;
  std::size_t queue_capacity = 1000;  // turn changes waiting; more are dropped (and counted)
  // Where the time zone files are (the IANA names players' browsers tell).
  std::string zoneinfo = "/usr/share/zoneinfo";
  // The local hour from which a player's daily digest goes out (his morning).
  int digest_hour = 8;
  // Tests: called by send_digests between reading who is due and claiming each one's digest
  // (where another server on the same database may send the same digests).
  std::function<void()> digests_listed_for_tests;
  // Milliseconds since the epoch; injectable so that a test can move to the next morning.
  std::function<std::int64_t()> now = now_ms;
  // Turn changes and reminders of one game waiting: a game played very fast (a player against
  // his own second account) cannot fill the queue. Starts and ends of games are always taken.
  std::size_t max_waiting_per_game = 16;
  int max_subscriptions_per_player = 10;
};

class TurnNotifications {
 public:
  // Opens its own connection to the (migrated) database and loads or makes the VAPID key.
  TurnNotifications(const std::string& db_path, notify::Notifier& notifier,
                    TurnNotificationOptions options);
  ~TurnNotifications();
  TurnNotifications(const TurnNotifications&) = delete;
  TurnNotifications& operator=(const TurnNotifications&) = delete;

  // From a game room, under its lock: queues and returns.
  void post(TurnChange change);

  // /api/push/... and /api/notify/...
  static bool handles(std::string_view path);
  ApiResponse handle_api(std::string_view method, std::string_view target, std::string_view body,
                         std::string_view authorization);

  std::string vapid_public_key() const;
  // Blocks until every queued turn change was handed to the notifier (for tests).
  void wait_idle();
  // Sends the daily digests that are due now (the worker does it by itself once a minute;
  // tests call it after moving the clock). Returns how many went out.
  int send_digests();
  std::int64_t dropped() const;
  // SQL statements this object has prepared (compiled) on its connection so far, for the test
  // that turns do not compile their statements again.
  std::int64_t statements_prepared() const;

 private:
  struct Gone;
  struct Player {
    std::int64_t id = 0;
    std::string name;
  };
  std::optional<Player> player_for_bearer(std::string_view authorization);
  nlohmann::json settings_of(std::int64_t player_id);
  bool seated_in(std::int64_t player_id, std::int64_t game_id);
  ApiResponse set_webhook(const Player& player, const nlohmann::json& body);
  void run();
  void handle(const TurnChange& change);
  // Before each turn change and every second when idle: drop_gone, and the digests that are due
  // (once a minute). Never throws.
  void housekeeping();
  // Deletes subscriptions and disables webhooks the notifier found gone. A storage error is
  // logged and the work kept for the next round: it never leaves the worker's loop.
  void drop_gone();
  bool muted(std::int64_t player_id, std::int64_t game_id);
  void push_to(std::int64_t player_id, const notify::GameEvent& event);
  void mail_to(std::int64_t player_id, const notify::GameEvent& event, int turn, bool on_page,
               bool gated = true);
  void webhook_for(const TurnChange& change, const notify::GameEvent& event);
  // turn_messages.cpp: what the recipient of a message is told beyond whose turn it is.
  // The decider's own message: what happened since his last action, his clock's deadline in
  // his time zone.
  notify::GameEvent personal_event(const TurnChange& change, notify::GameEvent event);
  // The group chat's: what a spectator saw since the last message to it, the deadline in UTC.
  notify::GameEvent group_event(const TurnChange& change, notify::GameEvent event);
  notify::TimeZone zone_of(std::int64_t player_id);
  // The player's language (players.language, told by his browser: docs/protocol.md), a
  // catalog's; English when not known. Takes db_mutex_.
  std::string language_of(std::int64_t player_id);
  bool wants_digest(std::int64_t player_id);
  Store& reader();
  std::string game_url(std::int64_t game_id) const;

  notify::Notifier& notifier_;
  TurnNotificationOptions options_;
  std::string db_path_;
  std::mutex db_mutex_;  // the connection: API requests and the worker
  Database db_;
  std::shared_ptr<const notify::WebPushSettings> push_settings_;
  std::shared_ptr<const notify::WebhookSettings> webhook_settings_;
  std::shared_ptr<Gone> gone_;  // endpoints the notifier found gone, shared with its callbacks
  notify::TurnMailGate mail_gate_;

  // The replays' (the worker's, and send_digests called by a test).
  std::mutex reader_mutex_;
  std::optional<Store> reader_;                    // read-only connection for the replays
  std::map<std::int64_t, int> told_group_seq_;     // game -> seq of its last webhook message
  std::map<std::string, notify::TimeZone> zones_;  // loaded time zones, by IANA name
  std::int64_t next_digest_check_ = 0;

  mutable std::mutex queue_mutex_;
  std::condition_variable queue_cv_;
  std::condition_variable idle_cv_;
  std::deque<TurnChange> queue_;
  std::map<std::int64_t, std::size_t> waiting_per_game_;  // turn changes and reminders queued
  bool busy_ = false;
  bool stopping_ = false;
  std::int64_t dropped_ = 0;
  std::thread worker_;
};

}  // namespace viktory::server
