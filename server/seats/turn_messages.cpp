// TurnNotifications: what each recipient is told beyond whose turn it is (turn_summary.h), in
// his time zone, and the daily digest. Separate from turn_notifications.cpp, which routes the
// deliveries and serves the API.
#include <spdlog/spdlog.h>

#include "catalog.h"
#include "turn_notifications.h"
#include "turn_summary.h"

namespace viktory::server {
namespace {

std::string date_of(const notify::LocalTime& t) {
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02d-%02d", t.year, t.month, t.day);
  return text;
}

std::string name_in(const GameRecord& record, int seat) {
  for (const SeatRecord& s : record.seats) {
    if (s.seat == seat) return s.name;
  }
  return "";
}

}  // namespace

Store& TurnNotifications::reader() {
  if (!reader_) reader_.emplace(db_path_, Store::ReadOnly{});
  return *reader_;
}

notify::TimeZone TurnNotifications::zone_of(std::int64_t player_id) {
  std::string name;
  {
    std::lock_guard lock(db_mutex_);
    Statement s = db_.cached("SELECT time_zone FROM notify_preferences WHERE player_id = ?");
    s.bind(1, player_id);
    if (s.step()) name = s.text(0);
  }
  if (name.empty()) return notify::TimeZone::utc();
  if (const auto it = zones_.find(name); it != zones_.end()) return it->second;
  std::optional<notify::TimeZone> zone = notify::TimeZone::load(name, options_.zoneinfo);
  if (!zone) return notify::TimeZone::utc();  // checked when stored; gone from the system since
  if (zones_.size() < 1000) zones_.emplace(name, *zone);
  return *zone;
}

std::string TurnNotifications::language_of(std::int64_t player_id) {
  std::string stored;
  {
    std::lock_guard lock(db_mutex_);
    Statement s = db_.cached("SELECT language FROM players WHERE id = ?");
    s.bind(1, player_id);
    if (s.step() && !s.is_null(0)) stored = s.text(0);
  }
  // A language whose catalog the server no longer has falls back to English.
  return stored.empty() ? std::string("en") : text::catalogs().choose(stored);
}

bool TurnNotifications::wants_digest(std::int64_t player_id) {
  Statement s = db_.cached("SELECT digest FROM notify_preferences WHERE player_id = ?");
  s.bind(1, player_id);
  return s.step() && s.int64(0) != 0;
}

notify::GameEvent TurnNotifications::personal_event(const TurnChange& change,
                                                    notify::GameEvent event) {
  std::lock_guard lock(reader_mutex_);
  try {
    const notify::TimeZone zone = zone_of(change.decider_player);
    if (change.kind == TurnChange::Kind::reminder) {
      if (change.deadline > 0) event.deadline = zone.local(change.deadline);
      return event;
    }
    Store& r = reader();
    if (change.kind == TurnChange::Kind::turn) {
      if (const std::optional<GameRecord> record = r.game(change.game_id)) {
        const int since = last_action_of(r, change.game_id, change.decider_seat);
        event.happened = summarize(r, *record, change.decider_seat, since, change.seq).happened;
      }
    }
    if (const auto deadline = clock_deadline(r, change.game_id, change.decider_seat)) {
      event.deadline = zone.local(*deadline);
    }
  } catch (const std::exception& e) {
    // The message goes out without what happened rather than not at all.
    spdlog::warn("turn_summary_failed game={} error=\"{}\"", change.game_id, e.what());
  }
  return event;
}

notify::GameEvent TurnNotifications::group_event(const TurnChange& change,
                                                 notify::GameEvent event) {
  std::lock_guard lock(reader_mutex_);
  if (change.kind == TurnChange::Kind::finished) {
    told_group_seq_.erase(change.game_id);
    return event;
  }
  if (change.kind == TurnChange::Kind::turn) {
    try {
      Store& r = reader();
      if (const std::optional<GameRecord> record = r.game(change.game_id)) {
        // Since the last message to the chat; after a restart, since the decider last acted.
        const auto told = told_group_seq_.find(change.game_id);
        const int since = told != told_group_seq_.end()
                              ? told->second
                              : last_action_of(r, change.game_id, change.decider_seat);
        // A spectator's view: under independent exploration only what every player knows.
        event.happened = summarize(r, *record, kSpectator, since, change.seq).happened;
      }
      if (const auto deadline = clock_deadline(r, change.game_id, change.decider_seat)) {
        event.deadline = notify::TimeZone::utc().local(*deadline);
      }
    } catch (const std::exception& e) {
      spdlog::warn("turn_summary_failed game={} error=\"{}\"", change.game_id, e.what());
    }
  }
  if (change.kind == TurnChange::Kind::turn || change.kind == TurnChange::Kind::started) {
    if (told_group_seq_.size() >= 10000) told_group_seq_.clear();  // games left unfinished
    told_group_seq_[change.game_id] = change.seq;
  }
  return event;
}

int TurnNotifications::send_digests() {
  if (!options_.smtp || options_.public_url.empty()) return 0;
  std::lock_guard lock(reader_mutex_);
  struct Reader {
    std::int64_t player = 0;
    std::string last;
    std::string address;
  };
  std::vector<Reader> readers;
  {
    std::lock_guard db_lock(db_mutex_);
    Statement s = db_.cached(
        "SELECT p.player_id, p.last_digest, e.address FROM notify_preferences p "
        "JOIN notify_settings n ON n.player_id = p.player_id "
        "JOIN player_emails e ON e.player_id = p.player_id AND e.verified = 1 "
        "WHERE p.digest = 1 AND n.email = 1");
    while (s.step()) readers.push_back({s.int64(0), s.text(1), s.text(2)});
  }
  if (options_.digests_listed_for_tests) options_.digests_listed_for_tests();
  const std::int64_t now = options_.now();
  int sent = 0;
  for (const Reader& who : readers) {
    const notify::TimeZone zone = zone_of(who.player);
    const std::string language = language_of(who.player);
    const notify::LocalTime local = zone.local(now);
    const std::string today = date_of(local);
    // Once a day, from his morning on (if the server was down then, when it is back).
    if (local.hour < options_.digest_hour || who.last == today) continue;
    {
      // Claimed before it is written: of several servers on one database (docs/postgresql.md)
      // that find the same digest due, one sends it.
      std::lock_guard db_lock(db_mutex_);
      db_.cached(
             "UPDATE notify_preferences SET last_digest = ?1 WHERE player_id = ?2 AND "
             "last_digest IS NOT ?1")
          .bind(1, today)
          .bind(2, who.player)
          .run();
      if (db_.changes() != 1) continue;
    }
    std::vector<std::pair<std::int64_t, int>> waiting;  // (game, his seat)
    {
      std::lock_guard db_lock(db_mutex_);
      Statement s = db_.cached(
          "SELECT g.id, st.seat FROM seats st JOIN games g ON g.id = st.game_id "
          "WHERE st.player_id = ?1 AND g.status = 'running' AND g.current_seat = st.seat "
          "AND NOT EXISTS (SELECT 1 FROM game_mutes m WHERE m.player_id = ?1 AND m.game_id = "
          "g.id) ORDER BY g.id LIMIT 50");
      s.bind(1, who.player);
      while (s.step()) waiting.emplace_back(s.int64(0), static_cast<int>(s.int64(1)));
    }
    std::vector<notify::DigestGame> games;
    Store& r = reader();
    for (const auto& [game_id, seat] : waiting) {
      try {
        const std::optional<GameRecord> record = r.game(game_id);
        if (!record) continue;
        const Summary summary =
            summarize(r, *record, seat, last_action_of(r, game_id, seat), record->seq);
        notify::GameEvent event;
        event.game_id = game_id;
        event.round = summary.round;
        event.game_url = game_url(game_id);
        event.player = name_in(*record, seat);
        event.turn_player = name_in(*record, summary.turn_seat);
        event.kind = summary.turn_seat >= 0 && summary.turn_seat != seat
                         ? notify::EventKind::must_decide
                         : notify::EventKind::your_turn;
        event.happened = summary.happened;
        if (const auto deadline = clock_deadline(r, game_id, seat)) {
          event.deadline = zone.local(*deadline);
        }
        games.push_back({std::move(event)});
      } catch (const std::exception& e) {
        spdlog::warn("digest_game_failed game={} error=\"{}\"", game_id, e.what());
      }
    }
    if (games.empty()) continue;  // nothing waits for him: no mail today
    notify::Delivery delivery = notify::email_delivery(
        options_.smtp, notify::digest_email(games, notify::Mailbox{who.address, ""}, language));
    delivery.owner = "player:" + std::to_string(who.player);
    if (notifier_.enqueue(std::move(delivery))) ++sent;
    spdlog::info("digest_sent player={} games={}", who.player, games.size());
  }
  return sent;
}

}  // namespace viktory::server
