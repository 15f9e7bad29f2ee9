// Friends (docs/server.md, "Friends"; docs/protocol.md, "Friends"): a player follows another one,
// one-sided (as on lichess): the client calls the followed players his friends. Following
// gives three things: the followed player's online state (only when his profile's privacy lets
// the follower see his profile, player_records.h), his open games first in the lobby (the
// client sorts), and invitations into a game with one click (game.invite_friend: the friend is
// told through his own notification settings, turn_notifications.h).
//
// HTTP: POST /api/follow {"player": "<id>", "follow": true|false} and GET /api/friends, with a
// bearer token; the Hub charges the client address first (hub_api.cpp). The tables are
// `follows` and `friend_invites` (migration 13).
//
// Budgets (what one hostile client can do): following tells the followed player nothing, so a
// follow reaches nobody; one player follows at most kMaxFollows players and changes his follows
// at most kChangesPerMinute times a minute (burst the same), so one account adds at most 500
// rows and a sign-up (limited per address) no more. An invitation reaches only a player the
// inviter follows, once per game, and an inviter sends at most kInvitesPerHour an hour.
#pragma once

#include <cstdint>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common.h"
#include "database.h"
#include "presence.h"
#include "rate_limit.h"
#include "store.h"

namespace viktory::server {

// Fixed limits (docs/server.md lists them).
struct FriendsLimits {
  static constexpr int kMaxFollows = 500;          // players one player may follow
  static constexpr double kChangesPerMinute = 30;  // follows and unfollows, per player
  static constexpr int kInvitesPerHour = 20;       // game.invite_friend, per inviter
  static constexpr std::int64_t kHourMs = 60 * 60 * 1000;
};

// Whether `follower` follows `followee`.
bool follows(Database& db, std::int64_t follower, std::int64_t followee);

// Of `ids`, those whose online state `asker` may see as their follower: he follows them and
// their profile's privacy lets him see the profile (everyone; opponents and they have played
// together; never nobody). Reads on `db` (a reader).
std::vector<std::int64_t> followed_and_visible(Database& db, std::int64_t asker,
                                               const std::vector<std::int64_t>& ids);

class Friends {
 public:
  explicit Friends(Store& store) : store_(store) {}

  static bool handles(std::string_view path) {
    return path == "/api/follow" || path == "/api/friends";
  }
  // `viewer`: the bearer's player (401 without one). `presence` may be null (no online state).
  ApiResponse handle(std::string_view method, std::string_view path, std::string_view body,
                     const std::optional<PlayerRecord>& viewer, const Presence* presence);

  // game.invite_friend after the room's checks (the inviter holds a seat of an open game with a
  // free seat): the invitee must be followed by the inviter, not invited into this game before,
  // and the inviter within his hourly budget. Records the invitation (so a second one is
  // refused); the caller then hands it to the notifications.
  Outcome record_invitation(std::int64_t inviter, std::int64_t invitee, std::int64_t game_id,
                            std::int64_t now);

 private:
  ApiResponse follow(const PlayerRecord& viewer, std::string_view body);
  ApiResponse list(const PlayerRecord& viewer, const Presence* presence);

  Store& store_;
  std::mutex mutex_;  // the buckets
  AddressBuckets change_buckets_{FriendsLimits::kChangesPerMinute / 60.0,
                                 FriendsLimits::kChangesPerMinute};
};

}  // namespace viktory::server
