#include "turn_notifications.h"

#include <spdlog/spdlog.h>

#include <charconv>

#include "token.h"
#include "vapid.h"
#include "web_push.h"
#include "webhook.h"

namespace viktory::server {
namespace {

using nlohmann::json;

constexpr const char* kVapidKeyName = "vapid_private_key";

ApiResponse ok(const json& body) { return ApiResponse{200, body.dump()}; }

std::optional<json> object_body(std::string_view body) {
  json j = json::parse(body.empty() ? std::string_view("{}") : body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  return j;
}

std::optional<std::int64_t> positive_id(const json& j, const char* name) {
  auto it = j.find(name);
  if (it == j.end() || !it->is_number_integer() || it->get<std::int64_t>() <= 0) {
    return std::nullopt;
  }
  return it->get<std::int64_t>();
}

// Loads the VAPID key, or makes and stores one on the first start.
notify::VapidKeys load_or_make_vapid(Database& db) {
  {
    Statement s = db.prepare("SELECT value FROM server_keys WHERE name = ?");
    s.bind(1, kVapidKeyName);
    if (s.step()) return notify::VapidKeys::from_text(s.text(0));
  }
  notify::VapidKeys keys = notify::VapidKeys::generate();
  // INSERT OR IGNORE and read back: two servers starting at once on one file agree on one key.
  db.prepare("INSERT OR IGNORE INTO server_keys(name, value, created) VALUES(?, ?, ?)")
      .bind(1, kVapidKeyName)
      .bind(2, keys.to_text())
      .bind(3, now_ms())
      .run();
  Statement s = db.prepare("SELECT value FROM server_keys WHERE name = ?");
  s.bind(1, kVapidKeyName);
  s.step();
  spdlog::info("vapid_key_created");
  return notify::VapidKeys::from_text(s.text(0));
}

// The notifier's budget key of a player's deliveries.
std::string owner_of(std::int64_t player_id) { return "player:" + std::to_string(player_id); }

std::string name_of(const TurnChange& change, int seat) {
  for (const auto& s : change.seats) {
    if (s.seat == seat) return s.name;
  }
  return "";
}

}  // namespace

// Push subscriptions and webhooks the notifier found gone (404/410), for the worker to delete.
// Shared with the notifier's callbacks, which may outlive this object at shutdown.
struct TurnNotifications::Gone {
  std::mutex mutex;
  std::vector<std::string> endpoints;
  std::vector<std::int64_t> webhook_games;
};

TurnNotifications::TurnNotifications(const std::string& db_path, notify::Notifier& notifier,
                                     TurnNotificationOptions options)
    : notifier_(notifier),
      options_(std::move(options)),
      db_path_(db_path),
      db_(db_path),
      gone_(std::make_shared<Gone>()) {
  std::string subject = options_.vapid_subject;
  if (subject.empty() && options_.smtp) subject = "mailto:" + options_.smtp->from.address;
  if (subject.empty()) subject = options_.public_url;
  if (subject.empty()) subject = "mailto:admin@localhost";
  push_settings_ = std::make_shared<notify::WebPushSettings>(notify::WebPushSettings{
      load_or_make_vapid(db_), subject, notify::Timeouts{}, options_.endpoints});
  auto webhooks = std::make_shared<notify::WebhookSettings>();
  webhooks->endpoints = options_.endpoints;
  webhook_settings_ = webhooks;
  worker_ = std::thread([this] { run(); });
}

TurnNotifications::~TurnNotifications() {
  {
    std::lock_guard lock(queue_mutex_);
    stopping_ = true;
  }
  queue_cv_.notify_all();
  worker_.join();
}

std::string TurnNotifications::vapid_public_key() const {
  return push_settings_->vapid.public_key_base64url();
}

std::int64_t TurnNotifications::dropped() const {
  std::lock_guard lock(queue_mutex_);
  return dropped_;
}

std::int64_t TurnNotifications::statements_prepared() const { return db_.statements_prepared(); }

namespace {
// Turns and reminders come as often as players move; a start or an end once per game.
bool counted_per_game(const TurnChange& change) {
  return change.kind == TurnChange::Kind::turn || change.kind == TurnChange::Kind::reminder;
}
}  // namespace

void TurnNotifications::post(TurnChange change) {
  {
    std::lock_guard lock(queue_mutex_);
    if (queue_.size() >= options_.queue_capacity || stopping_) {
      ++dropped_;
      return;
    }
    if (counted_per_game(change)) {
      std::size_t& waiting = waiting_per_game_[change.game_id];
      if (waiting >= options_.max_waiting_per_game) {
        ++dropped_;
        return;
      }
      ++waiting;
    }
    queue_.push_back(std::move(change));
  }
  queue_cv_.notify_one();
}

void TurnNotifications::wait_idle() {
  std::unique_lock lock(queue_mutex_);
  idle_cv_.wait(lock, [&] { return queue_.empty() && !busy_; });
}

void TurnNotifications::run() {
  std::unique_lock lock(queue_mutex_);
  for (;;) {
    // A timed wait so that gone endpoints are dropped even when no game moves.
    queue_cv_.wait_for(lock, std::chrono::seconds(1), [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) {
      idle_cv_.notify_all();
      if (stopping_) return;
      lock.unlock();
      housekeeping();
      lock.lock();
      continue;
    }
    TurnChange change = std::move(queue_.front());
    queue_.pop_front();
    if (counted_per_game(change)) {
      const auto it = waiting_per_game_.find(change.game_id);
      if (it != waiting_per_game_.end() && --it->second == 0) waiting_per_game_.erase(it);
    }
    busy_ = true;
    lock.unlock();
    housekeeping();  // also on a server that is never idle
    try {
      handle(change);
    } catch (const std::exception& e) {
      // A storage error (or any other) loses this change's notifications, not the thread.
      spdlog::error("turn_notification_failed game={} error=\"{}\"", change.game_id, e.what());
    }
    lock.lock();
    busy_ = false;
    if (queue_.empty()) idle_cv_.notify_all();
  }
}

void TurnNotifications::housekeeping() {
  drop_gone();
  if (options_.now() < next_digest_check_) return;
  next_digest_check_ = options_.now() + 60 * 1000;  // the digests: once a minute
  try {
    send_digests();
  } catch (const std::exception& e) {
    spdlog::error("notify_digest_failed error=\"{}\"", e.what());
  }
}

void TurnNotifications::drop_gone() {
  // Kept for the next round when the database fails, up to this many of each.
  constexpr std::size_t kMaxKept = 1000;
  std::vector<std::string> endpoints;
  std::vector<std::int64_t> games;
  {
    std::lock_guard lock(gone_->mutex);
    endpoints.swap(gone_->endpoints);
    games.swap(gone_->webhook_games);
  }
  if (endpoints.empty() && games.empty()) return;
  try {
    std::lock_guard lock(db_mutex_);
    Transaction tx(db_);
    for (const std::string& endpoint : endpoints) {
      db_.cached("DELETE FROM push_subscriptions WHERE endpoint = ?").bind(1, endpoint).run();
    }
    for (std::int64_t game : games) {
      db_.cached("UPDATE game_webhooks SET disabled = 1 WHERE game_id = ?").bind(1, game).run();
    }
    tx.commit();
  } catch (const std::exception& e) {
    spdlog::error("notify_drop_gone_failed endpoints={} webhooks={} error=\"{}\"", endpoints.size(),
                  games.size(), e.what());
    std::lock_guard lock(gone_->mutex);
    for (std::string& endpoint : endpoints) {
      if (gone_->endpoints.size() < kMaxKept) gone_->endpoints.push_back(std::move(endpoint));
    }
    for (std::int64_t game : games) {
      if (gone_->webhook_games.size() < kMaxKept) gone_->webhook_games.push_back(game);
    }
    return;
  }
  for (std::size_t i = 0; i < endpoints.size(); ++i) {
    spdlog::info("push_subscription_dropped (gone)");
  }
  for (std::int64_t game : games) spdlog::info("webhook_disabled game={} (gone)", game);
}

std::string TurnNotifications::game_url(std::int64_t game_id) const {
  return options_.public_url + "/#/game/" + std::to_string(game_id);
}

bool TurnNotifications::muted(std::int64_t player_id, std::int64_t game_id) {
  Statement s = db_.cached("SELECT 1 FROM game_mutes WHERE player_id = ? AND game_id = ?");
  s.bind(1, player_id).bind(2, game_id);
  return s.step();
}

void TurnNotifications::handle(const TurnChange& change) {
  notify::GameEvent event;
  event.game_id = change.game_id;
  event.round = change.round;
  event.game_url = game_url(change.game_id);
  switch (change.kind) {
    case TurnChange::Kind::turn:
      // A decision out of his turn (casualties, a retreat ...) says so, and whose turn waits.
      event.kind = change.turn_seat >= 0 && change.turn_seat != change.decider_seat
                       ? notify::EventKind::must_decide
                       : notify::EventKind::your_turn;
      event.player = name_of(change, change.decider_seat);
      event.turn_player = name_of(change, change.turn_seat);
      break;
    case TurnChange::Kind::started:
      event.kind = notify::EventKind::game_started;
      event.player = name_of(change, change.decider_seat);
      break;
    case TurnChange::Kind::finished:
      event.kind = notify::EventKind::game_over;
      for (int seat : change.winners) event.winners.push_back(name_of(change, seat));
      break;
    case TurnChange::Kind::reminder:
      event.kind = notify::EventKind::time_running_out;
      event.player = name_of(change, change.decider_seat);
      event.time_left_ms = change.time_left_ms;
      break;
    case TurnChange::Kind::invited:
      // A friend's invitation (friends.h): to the invitee alone, by push and (if he turned it
      // on) e-mail, never to the game's webhook (that is its players' group); the link lets
      // him join (a private game's carries its code).
      event.kind = notify::EventKind::friend_invite;
      event.player = change.inviter;
      if (!change.invite.empty()) event.game_url += "?invite=" + change.invite;
      push_to(change.decider_player, event);
      mail_to(change.decider_player, event, 0, false, /*gated=*/false);
      return;
  }
  if (change.kind == TurnChange::Kind::reminder) {
    // A clock's reminder (game_clocks.h): once per turn of the clock, so not through the turn
    // mail gate; no e-mail while he has the game open (he sees the clock there).
    if (change.decider_player != 0) {
      const notify::GameEvent mine = personal_event(change, event);
      push_to(change.decider_player, mine);
      if (change.on_the_page.count(change.decider_player) == 0) {
        mail_to(change.decider_player, mine, change.turn, false, /*gated=*/false);
      }
    }
  } else if (change.kind == TurnChange::Kind::turn) {
    if (change.decider_player != 0) {
      const notify::GameEvent mine = personal_event(change, event);
      push_to(change.decider_player, mine);
      mail_to(change.decider_player, mine, change.turn,
              change.on_the_page.count(change.decider_player) > 0);
    }
  } else {
    for (const auto& seat : change.seats) push_to(seat.player_id, event);
    if (change.kind == TurnChange::Kind::started && change.decider_player != 0) {
      notify::GameEvent yours = event;
      yours.kind = notify::EventKind::your_turn;
      mail_to(change.decider_player, personal_event(change, yours), change.turn,
              change.on_the_page.count(change.decider_player) > 0);
    }
    if (change.kind == TurnChange::Kind::finished) mail_gate_.forget_game(change.game_id);
  }
  webhook_for(change, event);
}

void TurnNotifications::push_to(std::int64_t player_id, const notify::GameEvent& event) {
  std::vector<notify::PushSubscription> subscriptions;
  {
    std::lock_guard lock(db_mutex_);
    Statement setting = db_.cached("SELECT push FROM notify_settings WHERE player_id = ?");
    setting.bind(1, player_id);
    if (setting.step() && setting.int64(0) == 0) return;
    if (muted(player_id, event.game_id)) return;
    Statement s =
        db_.cached("SELECT endpoint, p256dh, auth FROM push_subscriptions WHERE player_id = ?");
    s.bind(1, player_id);
    while (s.step()) subscriptions.push_back({s.text(0), s.text(1), s.text(2)});
  }
  if (subscriptions.empty()) return;
  notify::GameEvent told = event;
  told.language = language_of(player_id);
  notify::PushMessage message;
  message.payload = notify::push_payload(told);
  message.topic = notify::push_topic_for(event);
  message.urgency = event.kind == notify::EventKind::your_turn ||
                            event.kind == notify::EventKind::time_running_out
                        ? notify::Urgency::high
                        : notify::Urgency::normal;
  for (const auto& subscription : subscriptions) {
    std::weak_ptr<Gone> gone = gone_;
    const std::string endpoint = subscription.endpoint;
    notify::Delivery delivery = notify::push_delivery(
        push_settings_, subscription, message, [gone, endpoint](const notify::DeliveryResult& r) {
          if (r.outcome != notify::Outcome::gone) return;
          if (auto shared = gone.lock()) {
            std::lock_guard lock(shared->mutex);
            shared->endpoints.push_back(endpoint);
          }
        });
    // His endpoints, dead or not, spend his budget in the notifier, nobody else's.
    delivery.owner = owner_of(player_id);
    notifier_.enqueue(std::move(delivery));
  }
}

void TurnNotifications::mail_to(std::int64_t player_id, const notify::GameEvent& event, int turn,
                                bool on_page, bool gated) {
  if (!options_.smtp || options_.public_url.empty()) return;
  std::string address;
  notify::GameEvent told = event;
  {
    std::lock_guard lock(db_mutex_);
    Statement setting = db_.cached("SELECT email FROM notify_settings WHERE player_id = ?");
    setting.bind(1, player_id);
    if (!setting.step() || setting.int64(0) == 0) return;  // e-mail is off unless turned on
    if (muted(player_id, event.game_id)) return;
    if (gated && wants_digest(player_id)) return;  // his daily digest tells it instead
    Statement s = db_.cached(
        "SELECT e.address, p.name FROM player_emails e JOIN players p ON p.id = e.player_id "
        "WHERE e.player_id = ? AND e.verified = 1");
    s.bind(1, player_id);
    if (!s.step()) return;
    address = s.text(0);
  }
  told.language = language_of(player_id);
  if (gated && !mail_gate_.admit(player_id, event.game_id, turn, on_page)) return;
  notify::Delivery delivery =
      notify::email_delivery(options_.smtp, notify::email_for(told, notify::Mailbox{address, ""}));
  delivery.owner = owner_of(player_id);
  notifier_.enqueue(std::move(delivery));
}

void TurnNotifications::webhook_for(const TurnChange& change, const notify::GameEvent& event) {
  notify::Webhook hook;
  std::int64_t set_by = 0;
  {
    std::lock_guard lock(db_mutex_);
    Statement s = db_.cached(
        "SELECT url, format, set_by FROM game_webhooks WHERE game_id = ? AND disabled = 0");
    s.bind(1, event.game_id);
    if (!s.step()) return;
    hook.url = s.text(0);
    hook.format = notify::parse_webhook_format(s.text(1)).value_or(notify::WebhookFormat::json);
    set_by = s.int64(2);
  }
  // Only now, for a game with a hook: what a spectator saw since the last message to the chat,
  // in the language of the player who set the hook up (the group's language is not known).
  notify::GameEvent told = group_event(change, event);
  told.language = language_of(set_by);
  std::weak_ptr<Gone> gone = gone_;
  const std::int64_t game = event.game_id;
  notify::Delivery delivery =
      notify::webhook_delivery(webhook_settings_, hook, notify::webhook_event_for(told),
                               [gone, game](const notify::DeliveryResult& result) {
                                 if (result.outcome != notify::Outcome::gone) return;
                                 if (auto shared = gone.lock()) {
                                   std::lock_guard lock(shared->mutex);
                                   shared->webhook_games.push_back(game);
                                 }
                               });
  // The hooks of all games one player set share his budget (a creator of many games whose
  // hooks point at a dead host).
  delivery.owner = owner_of(set_by);
  notifier_.enqueue(std::move(delivery));
}

// ---------------------------------------------------------------- HTTP API

bool TurnNotifications::handles(std::string_view path) {
  return path.substr(0, 10) == "/api/push/" || path.substr(0, 12) == "/api/notify/";
}

std::optional<TurnNotifications::Player> TurnNotifications::player_for_bearer(
    std::string_view authorization) {
  const std::optional<std::string> hash = bearer_token_hash(authorization);
  if (!hash) return std::nullopt;
  Statement s = db_.cached(
      "SELECT id, name FROM players WHERE token_hash = ?1 UNION ALL SELECT p.id, p.name FROM "
      "device_tokens d JOIN players p ON p.id = d.player_id WHERE d.token_hash = ?1 LIMIT 1");
  s.bind(1, *hash);
  if (!s.step()) return std::nullopt;
  return Player{s.int64(0), s.text(1)};
}

bool TurnNotifications::seated_in(std::int64_t player_id, std::int64_t game_id) {
  Statement s = db_.cached("SELECT 1 FROM seats WHERE game_id = ? AND player_id = ?");
  s.bind(1, game_id).bind(2, player_id);
  return s.step();
}

json TurnNotifications::settings_of(std::int64_t player_id) {
  json out{{"push", true},
           {"email", false},
           {"email_available", options_.smtp != nullptr && !options_.public_url.empty()},
           {"email_verified", false},
           {"push_subscriptions", 0},
           {"muted", json::array()},
           {"time_zone", nullptr},
           {"digest", false}};
  {
    Statement s = db_.prepare("SELECT push, email FROM notify_settings WHERE player_id = ?");
    s.bind(1, player_id);
    if (s.step()) {
      out["push"] = s.int64(0) != 0;
      out["email"] = s.int64(1) != 0;
    }
  }
  {
    Statement s = db_.prepare("SELECT verified FROM player_emails WHERE player_id = ?");
    s.bind(1, player_id);
    if (s.step()) out["email_verified"] = s.int64(0) != 0;
  }
  {
    Statement s = db_.prepare("SELECT COUNT(*) FROM push_subscriptions WHERE player_id = ?");
    s.bind(1, player_id);
    s.step();
    out["push_subscriptions"] = s.int64(0);
  }
  {
    Statement s =
        db_.prepare("SELECT time_zone, digest FROM notify_preferences WHERE player_id = ?");
    s.bind(1, player_id);
    if (s.step()) {
      if (!s.is_null(0)) out["time_zone"] = s.text(0);
      out["digest"] = s.int64(1) != 0;
    }
  }
  {
    Statement s =
        db_.prepare("SELECT game_id FROM game_mutes WHERE player_id = ? ORDER BY game_id");
    s.bind(1, player_id);
    while (s.step()) out["muted"].push_back(s.int64(0));
  }
  return out;
}

ApiResponse TurnNotifications::handle_api(std::string_view method, std::string_view target,
                                          std::string_view body, std::string_view authorization) {
  const std::string_view path = target.substr(0, target.find('?'));
  try {
    if (path == "/api/push/key") {
      if (method != "GET") return api_error(405, "method", "use GET");
      return ok(json{{"public_key", vapid_public_key()}});
    }
    std::lock_guard lock(db_mutex_);
    const auto player = player_for_bearer(authorization);
    if (!player) return api_error(401, "auth_failed", "send Authorization: Bearer <token>");
    std::optional<json> j;
    if (method == "POST" || method == "DELETE") {
      j = object_body(body);
      if (!j) return api_error(400, "bad_message", "the body must be a JSON object");
    } else if (method != "GET") {
      return api_error(405, "method", "use GET, POST or DELETE");
    }

    if (path == "/api/push/subscription") {
      if (method == "DELETE") {
        const std::string endpoint = j->value("endpoint", "");
        db_.prepare("DELETE FROM push_subscriptions WHERE endpoint = ? AND player_id = ?")
            .bind(1, endpoint)
            .bind(2, player->id)
            .run();
        return ok(settings_of(player->id));
      }
      if (method != "POST") return api_error(405, "method", "use POST or DELETE");
      notify::PushSubscription subscription;
      try {
        subscription = notify::parse_push_subscription(body);
        notify::validate_push_endpoint(subscription.endpoint, options_.endpoints);
      } catch (const std::invalid_argument& e) {
        return api_error(400, "bad_subscription", e.what());
      }
      if (subscription.endpoint.size() > 2048) {
        return api_error(400, "bad_subscription", "subscription: endpoint too long");
      }
      // Reads and writes in one transaction (BEGIN IMMEDIATE): a read left open before a
      // write would fail with SQLITE_BUSY_SNAPSHOT once another connection committed.
      Transaction tx(db_);
      {
        // The endpoint belongs to one browser. Another player's browser moves to this player
        // only when the request carries its keys (the same browser, now signed in as him):
        // knowing an endpoint is not enough to take another player's notifications away.
        Statement held = db_.prepare(
            "SELECT player_id, p256dh, auth FROM push_subscriptions WHERE endpoint = ?");
        held.bind(1, subscription.endpoint);
        if (held.step() && held.int64(0) != player->id &&
            (held.text(1) != subscription.p256dh || held.text(2) != subscription.auth)) {
          return api_error(409, "endpoint_taken",
                           "this push endpoint belongs to another player's browser");
        }
      }
      db_.prepare(
             "INSERT INTO push_subscriptions(endpoint, player_id, p256dh, auth, created) "
             "VALUES(?1, ?2, ?3, ?4, ?5) ON CONFLICT(endpoint) DO UPDATE SET player_id = ?2, "
             "p256dh = ?3, auth = ?4, created = ?5")
          .bind(1, subscription.endpoint)
          .bind(2, player->id)
          .bind(3, subscription.p256dh)
          .bind(4, subscription.auth)
          .bind(5, now_ms())
          .run();
      // Old browsers beyond the limit go, oldest first.
      db_.prepare(
             "DELETE FROM push_subscriptions WHERE player_id = ?1 AND endpoint NOT IN (SELECT "
             "endpoint FROM push_subscriptions WHERE player_id = ?1 ORDER BY created DESC LIMIT "
             "?2)")
          .bind(1, player->id)
          .bind(2, options_.max_subscriptions_per_player)
          .run();
      tx.commit();
      spdlog::info("push_subscription_added player={}", player->id);
      return ok(settings_of(player->id));
    }
    if (path == "/api/notify/settings") {
      if (method == "GET") return ok(settings_of(player->id));
      if (method != "POST") return api_error(405, "method", "use GET or POST");
      Transaction tx(db_);
      json current = settings_of(player->id);
      for (const char* name : {"push", "email", "digest"}) {
        if (!j->contains(name)) continue;
        if (!(*j)[name].is_boolean()) {
          return api_error(400, "bad_message", std::string(name) + " must be true or false");
        }
        current[name] = (*j)[name];
      }
      if (j->contains("time_zone")) {
        // The browser's IANA name (Intl.DateTimeFormat().resolvedOptions().timeZone); null
        // forgets it (deadlines in UTC).
        const json& zone = (*j)["time_zone"];
        if (zone.is_null()) {
          current["time_zone"] = nullptr;
        } else if (!zone.is_string() ||
                   !notify::TimeZone::load(zone.get<std::string>(), options_.zoneinfo)) {
          return api_error(400, "bad_time_zone",
                           "time_zone must be the IANA name of a time zone, e.g. Europe/Berlin");
        } else {
          current["time_zone"] = zone;
        }
      }
      db_.prepare(
             "INSERT INTO notify_settings(player_id, push, email) VALUES(?1, ?2, ?3) ON "
             "CONFLICT(player_id) DO UPDATE SET push = ?2, email = ?3")
          .bind(1, player->id)
          .bind(2, current["push"].get<bool>() ? 1 : 0)
          .bind(3, current["email"].get<bool>() ? 1 : 0)
          .run();
      Statement preferences = db_.prepare(
          "INSERT INTO notify_preferences(player_id, time_zone, digest) VALUES(?1, ?2, ?3) ON "
          "CONFLICT(player_id) DO UPDATE SET time_zone = ?2, digest = ?3");
      preferences.bind(1, player->id).bind(3, current["digest"].get<bool>() ? 1 : 0);
      if (current["time_zone"].is_null()) {
        preferences.bind_null(2);
      } else {
        preferences.bind(2, current["time_zone"].get<std::string>());
      }
      preferences.run();
      tx.commit();
      return ok(settings_of(player->id));
    }
    if (path == "/api/notify/mute") {
      if (method != "POST") return api_error(405, "method", "use POST");
      const auto game = positive_id(*j, "game_id");
      if (!game || !j->contains("muted") || !(*j)["muted"].is_boolean()) {
        return api_error(400, "bad_message", "send {\"game_id\":N,\"muted\":true|false}");
      }
      // One transaction: the seat is read and the mute written from the same snapshot (a
      // SELECT left open before the write failed with SQLITE_BUSY_SNAPSHOT under load).
      Transaction tx(db_);
      if (!seated_in(player->id, *game)) {
        return api_error(404, "not_found", "no such game of yours");
      }
      if ((*j)["muted"].get<bool>()) {
        db_.prepare("INSERT OR IGNORE INTO game_mutes(player_id, game_id) VALUES(?, ?)")
            .bind(1, player->id)
            .bind(2, *game)
            .run();
      } else {
        db_.prepare("DELETE FROM game_mutes WHERE player_id = ? AND game_id = ?")
            .bind(1, player->id)
            .bind(2, *game)
            .run();
      }
      tx.commit();
      return ok(settings_of(player->id));
    }
    if (path == "/api/notify/webhook") {
      if (method == "GET") {
        // Seated players see whether there is one and its format, never its URL (a Discord
        // or Slack hook URL lets anyone post to the chat).
        std::int64_t game = 0;
        const auto q = target.find("game_id=");
        if (q != std::string_view::npos) {
          const std::string_view digits = target.substr(q + 8);
          std::from_chars(digits.data(), digits.data() + digits.size(), game);
        }
        if (!seated_in(player->id, game)) {
          return api_error(404, "not_found", "no such game of yours");
        }
        Statement s = db_.prepare("SELECT format, disabled FROM game_webhooks WHERE game_id = ?");
        s.bind(1, game);
        if (!s.step()) return ok(json{{"game_id", game}, {"webhook", nullptr}});
        return ok(json{{"game_id", game},
                       {"webhook", {{"format", s.text(0)}, {"disabled", s.int64(1) != 0}}}});
      }
      if (method != "POST") return api_error(405, "method", "use GET or POST");
      return set_webhook(*player, *j);
    }
    return api_error(404, "not_found", "no such path");
  } catch (const std::exception& e) {
    spdlog::error("notify_request_failed path={} error={}", path, e.what());
    return api_error(500, "internal", "the server could not handle this request");
  }
}

ApiResponse TurnNotifications::set_webhook(const Player& player, const json& body) {
  const auto game = positive_id(body, "game_id");
  if (!game)
    return api_error(400, "bad_message", "send {\"game_id\":N,\"url\":...,\"format\":...}");
  Transaction tx(db_);  // read and write from one snapshot (see the mute)
  std::optional<std::int64_t> creator;
  {
    Statement s = db_.prepare("SELECT creator FROM games WHERE id = ? AND status != 'cancelled'");
    s.bind(1, *game);
    if (s.step()) creator = s.int64(0);
  }
  // One answer for a game that does not exist and one the player has nothing to do with (a
  // private game's number tells nothing); a seated player learns that only the creator may.
  if (!creator || (*creator != player.id && !seated_in(player.id, *game))) {
    return api_error(404, "not_found", "no such game of yours");
  }
  if (*creator != player.id) {
    return api_error(403, "not_creator", "only the game's creator sets its webhook");
  }
  auto url = body.find("url");
  if (url == body.end() || url->is_null() ||
      (url->is_string() && url->get<std::string>().empty())) {
    db_.prepare("DELETE FROM game_webhooks WHERE game_id = ?").bind(1, *game).run();
    tx.commit();
    return ok(json{{"game_id", *game}, {"webhook", nullptr}});
  }
  if (!url->is_string() || url->get<std::string>().size() > 2048) {
    return api_error(400, "bad_webhook", "url must be a string of at most 2048 characters");
  }
  const auto format = notify::parse_webhook_format(body.value("format", "json"));
  if (!format) return api_error(400, "bad_webhook", "format must be discord, slack or json");
  try {
    notify::validate_webhook_url(url->get<std::string>(), options_.endpoints);
  } catch (const std::invalid_argument& e) {
    return api_error(400, "bad_webhook", e.what());
  }
  db_.prepare(
         "INSERT INTO game_webhooks(game_id, url, format, set_by, disabled) VALUES(?1, ?2, ?3, "
         "?4, 0) ON CONFLICT(game_id) DO UPDATE SET url = ?2, format = ?3, set_by = ?4, "
         "disabled = 0")
      .bind(1, *game)
      .bind(2, url->get<std::string>())
      .bind(3, notify::to_string(*format))
      .bind(4, player.id)
      .run();
  tx.commit();
  spdlog::info("webhook_set game={} format={}", *game, notify::to_string(*format));
  return ok(json{{"game_id", *game},
                 {"webhook", {{"format", notify::to_string(*format)}, {"disabled", false}}}});
}

}  // namespace viktory::server
