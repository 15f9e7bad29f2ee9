#include "account_deletion.h"

namespace viktory::server {
namespace {

// Kept on purpose (docs/server.md, "Leaving"): games (the creator column), seats, actions,
// snapshots, game_secrets, finished_seats, finished_public and the other players' ratings and
// histories: the game's facts, so that replays, records and the others' records hold.
constexpr AccountErasure kAccountErasures[] = {
    // The marker first: the row below loses what identified him.
    {"former_players",
     "INSERT OR REPLACE INTO former_players(player_id, deleted_at) VALUES(?1, ?2)"},
    // No name (a former player), no language; the first device's token can never match again
    // (token hashes are 64 hex digits).
    {"players",
     "UPDATE players SET name = '', language = NULL, token_hash = 'deleted:' || id WHERE id = ?1"},
    // Every other device's token.
    {"device_tokens", "DELETE FROM device_tokens WHERE player_id = ?1"},
    // Sign-in links, mailed links and the recovery code.
    {"sign_in_codes", "DELETE FROM sign_in_codes WHERE player_id = ?1"},
    // His e-mail address (and its pending verification).
    {"player_emails", "DELETE FROM player_emails WHERE player_id = ?1"},
    // The browsers' push endpoints.
    {"push_subscriptions", "DELETE FROM push_subscriptions WHERE player_id = ?1"},
    // Notification settings and preferences (time zone, digest).
    {"notify_settings", "DELETE FROM notify_settings WHERE player_id = ?1"},
    {"notify_preferences", "DELETE FROM notify_preferences WHERE player_id = ?1"},
    // Games he muted.
    {"game_mutes", "DELETE FROM game_mutes WHERE player_id = ?1"},
    // Webhooks he set up (their URLs are his; the game's other players may set their own).
    {"game_webhooks", "DELETE FROM game_webhooks WHERE set_by = ?1"},
    // His standing orders, the account's and those of each game.
    {"standing_orders", "DELETE FROM standing_orders WHERE player_id = ?1"},
    {"game_standing_orders", "DELETE FROM game_standing_orders WHERE player_id = ?1"},
    // Who may see his profile (the profile is gone: player_deleted).
    {"profile_privacy", "DELETE FROM profile_privacy WHERE player_id = ?1"},
    // His ratings leave the ladders, with his own history; the others' ratings and histories
    // (computed with his) stay as they are.
    {"ratings", "DELETE FROM ratings WHERE player_id = ?1"},
    {"rating_history", "DELETE FROM rating_history WHERE player_id = ?1"},
    // His played/won tallies (the profile's figures).
    {"player_tallies", "DELETE FROM player_tallies WHERE player_id = ?1"},
    // His chat lines stay as lines (the others' answers keep their place) without his name and
    // text: shown as "deleted" from "a former player".
    {"chat", "UPDATE chat SET name = '', text = '' WHERE player_id = ?1"},
    // Whom he followed and who followed him (friends.h): a friend list never shows a former
    // player, and nobody counts him among his followers.
    {"follows", "DELETE FROM follows WHERE follower = ?1"},
    {"follows", "DELETE FROM follows WHERE followee = ?1"},
    // The invitations he sent or got: they named him.
    {"friend_invites", "DELETE FROM friend_invites WHERE inviter = ?1"},
    {"friend_invites", "DELETE FROM friend_invites WHERE invitee = ?1"},
    // What he read of each game's chat, whom he muted and who muted him (chat_comforts.h).
    {"chat_read", "DELETE FROM chat_read WHERE player_id = ?1"},
    {"player_mutes", "DELETE FROM player_mutes WHERE player_id = ?1"},
    {"player_mutes", "DELETE FROM player_mutes WHERE muted_id = ?1"},
};

}  // namespace

std::span<const AccountErasure> account_erasures() { return kAccountErasures; }

void erase_player_data(Database& db, std::int64_t player_id, std::int64_t now) {
  for (const AccountErasure& erasure : kAccountErasures) {
    Statement s = db.prepare(erasure.sql);
    s.bind(1, player_id);
    if (erasure.sql.find("?2") != std::string_view::npos) s.bind(2, now);
    s.run();
  }
}

void put_player_name(nlohmann::json& out, const std::string& name) {
  if (is_former_name(name)) {
    out["name"] = nullptr;
    out["former"] = true;
  } else {
    out["name"] = name;
  }
}

}  // namespace viktory::server
