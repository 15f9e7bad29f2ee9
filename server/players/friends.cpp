// Follows, the friends list and the invitations' budget (friends.h).
#include "friends.h"

#include <spdlog/spdlog.h>

#include <charconv>

#include "player_records.h"

namespace viktory::server {
namespace {

using nlohmann::json;

std::optional<std::int64_t> player_id_of(const json& value) {
  std::int64_t id = 0;
  if (value.is_number_integer()) {
    id = value.get<std::int64_t>();
  } else if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  } else {
    return std::nullopt;
  }
  if (id <= 0) return std::nullopt;
  return id;
}

std::optional<std::string> name_of_player(Database& db, std::int64_t id) {
  Statement s = db.cached("SELECT name FROM players WHERE id = ?");
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return s.text(0);
}

std::int64_t follow_count(Database& db, std::int64_t follower) {
  Statement s = db.cached("SELECT COUNT(*) FROM follows WHERE follower = ?");
  s.bind(1, follower);
  s.step();
  return s.int64(0);
}

}  // namespace

bool follows(Database& db, std::int64_t follower, std::int64_t followee) {
  Statement s = db.cached("SELECT 1 FROM follows WHERE follower = ? AND followee = ?");
  s.bind(1, follower).bind(2, followee);
  return s.step();
}

std::vector<std::int64_t> followed_and_visible(Database& db, std::int64_t asker,
                                               const std::vector<std::int64_t>& ids) {
  std::vector<std::int64_t> out;
  for (const std::int64_t id : ids) {
    if (id != asker && follows(db, asker, id) && profile_visible_to(db, asker, id)) {
      out.push_back(id);
    }
  }
  return out;
}

ApiResponse Friends::handle(std::string_view method, std::string_view path, std::string_view body,
                            const std::optional<PlayerRecord>& viewer, const Presence* presence) {
  if (!viewer) return api_error(401, "auth_failed", "send Authorization: Bearer <token>");
  if (path == "/api/follow") {
    if (method != "POST") return api_error(405, "method", "use POST");
    return follow(*viewer, body);
  }
  if (method != "GET") return api_error(405, "method", "use GET");
  return list(*viewer, presence);
}

ApiResponse Friends::follow(const PlayerRecord& viewer, std::string_view body) {
  const json j = json::parse(body, nullptr, false);
  const std::optional<std::int64_t> target =
      !j.is_discarded() && j.is_object() && j.contains("player") ? player_id_of(j["player"])
                                                                 : std::nullopt;
  if (!target || !j.contains("follow") || !j["follow"].is_boolean()) {
    return api_error(400, "bad_message", "send {\"player\": \"<id>\", \"follow\": true|false}");
  }
  const bool on = j["follow"].get<bool>();
  if (*target == viewer.id) return api_error(400, "bad_player", "you cannot follow yourself");
  {
    std::lock_guard lock(mutex_);
    if (!change_buckets_.take("player:" + std::to_string(viewer.id))) {
      ApiResponse refused =
          api_error(429, "rate_limited", "too many follows and unfollows; wait a minute");
      refused.retry_after_seconds = 2;
      return refused;
    }
  }
  Database& db = store_.db();
  Transaction tx(db);
  const std::optional<std::string> name = name_of_player(db, *target);
  if (!name) return api_error(404, "not_found", "no such player");
  if (on) {
    if (!follows(db, viewer.id, *target)) {
      if (follow_count(db, viewer.id) >= FriendsLimits::kMaxFollows) {
        return api_error(409, "too_many_follows",
                         "you follow " + std::to_string(FriendsLimits::kMaxFollows) +
                             " players already; unfollow some first");
      }
      db.cached("INSERT INTO follows(follower, followee, since) VALUES(?, ?, ?)")
          .bind(1, viewer.id)
          .bind(2, *target)
          .bind(3, now_ms())
          .run();
    }
  } else {
    db.cached("DELETE FROM follows WHERE follower = ? AND followee = ?")
        .bind(1, viewer.id)
        .bind(2, *target)
        .run();
  }
  tx.commit();
  return ApiResponse{
      200, json{{"player", std::to_string(*target)}, {"name", *name}, {"follow", on}}.dump()};
}

ApiResponse Friends::list(const PlayerRecord& viewer, const Presence* presence) {
  struct Friend {
    std::int64_t id;
    std::string name;
    std::int64_t since;
    bool visible;
    bool follows_you = false;  // he follows the viewer too: he may be invited
  };
  std::vector<Friend> friends;
  std::int64_t followers = 0;
  store_.with_reader([&](Database& db) {
    // From the follower's own rows (the primary key): at most kMaxFollows of them.
    Statement s = db.cached(
        "SELECT f.followee, p.name, f.since FROM follows f JOIN players p ON p.id = f.followee "
        "WHERE f.follower = ? ORDER BY p.name COLLATE NOCASE, f.followee");
    s.bind(1, viewer.id);
    while (s.step()) friends.push_back({s.int64(0), s.text(1), s.int64(2), false});
    // His opponents read once (a walk of his own games), not once per friend: social_bench.
    const auto opponents = opponents_of(db, viewer.id);
    for (Friend& f : friends) {
      f.visible = profile_visible_to(db, viewer.id, f.id, opponents);
      f.follows_you = follows(db, f.id, viewer.id);  // one probe of the primary key
    }
    Statement c = db.cached("SELECT COUNT(*) FROM follows WHERE followee = ?");
    c.bind(1, viewer.id);
    c.step();
    followers = c.int64(0);
  });
  std::vector<std::int64_t> visible_ids;
  for (const Friend& f : friends) {
    if (f.visible) visible_ids.push_back(f.id);
  }
  const json seen = presence != nullptr ? presence->of(visible_ids) : json::object();
  json out = json::array();
  for (const Friend& f : friends) {
    json entry{{"player", std::to_string(f.id)},
               {"name", f.name},
               {"since", f.since},
               {"follows_you", f.follows_you}};
    // Hidden by his privacy: no online state at all (not "offline": that would tell).
    const std::string key = std::to_string(f.id);
    if (f.visible && seen.contains(key)) {
      entry["online"] = seen[key]["online"];
      entry["last_seen"] = seen[key]["last_seen"];
    }
    out.push_back(std::move(entry));
  }
  return ApiResponse{200, json{{"friends", std::move(out)},
                               {"followers", followers},
                               {"max_follows", FriendsLimits::kMaxFollows}}
                              .dump()};
}

Outcome Friends::record_invitation(std::int64_t inviter, std::int64_t invitee, std::int64_t game_id,
                                   std::int64_t now) {
  Database& db = store_.db();
  Transaction tx(db);
  if (invitee == inviter) return fail("bad_player", "you cannot invite yourself");
  // Friends both ways: an invitation reaches only a player who follows the inviter himself
  // (following is one-sided and asks nobody: without this, anyone could follow a stranger and
  // send him a push or a mail per game).
  if (!follows(db, inviter, invitee) || !follows(db, invitee, inviter)) {
    return fail("not_friend", "you may invite only friends: players you follow who follow you too");
  }
  Statement once = db.cached("SELECT 1 FROM friend_invites WHERE game_id = ? AND invitee = ?");
  once.bind(1, game_id).bind(2, invitee);
  if (once.step()) return fail("already_invited", "this friend was invited into this game already");
  Statement recent = db.cached("SELECT COUNT(*) FROM friend_invites WHERE inviter = ? AND at > ?");
  recent.bind(1, inviter).bind(2, now - FriendsLimits::kHourMs);
  recent.step();
  if (recent.int64(0) >= FriendsLimits::kInvitesPerHour) {
    return fail("rate_limited", "you sent " + std::to_string(FriendsLimits::kInvitesPerHour) +
                                    " invitations in the last hour; wait a while");
  }
  db.cached("INSERT INTO friend_invites(game_id, invitee, inviter, at) VALUES(?, ?, ?, ?)")
      .bind(1, game_id)
      .bind(2, invitee)
      .bind(3, inviter)
      .bind(4, now)
      .run();
  tx.commit();
  return std::nullopt;
}

}  // namespace viktory::server
