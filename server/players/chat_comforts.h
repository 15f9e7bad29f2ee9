// Chat comforts (docs/server.md, "Chat"): what each player has read of each game's players'
// chat (the unread count of "your games"), the players each player muted (their chat is
// filtered out on the server, so the muted player cannot tell), and the lines an operator hid.
// Tables chat_read, player_mutes and chat_hidden (schema migration "chat comforts").
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common.h"
#include "rate_limit.h"
#include "store.h"

namespace viktory::server {

// Of the players' chat of a game, the lines counted as unread are looked for among the first
// kUnreadWindow lines after a player's read mark (one walk of the partial index
// chat_players_by_game): the count says "kUnreadWindow or more" at most, and a game costs one
// index seek plus at most kUnreadWindow rows, whatever the size of its chat.
inline constexpr int kUnreadWindow = 100;

// Moves `player_id`'s read mark of `game_id` forward to `up_to` (a chat line id), never past
// the game's last line and never backwards. The caller checks that he has a seat.
void mark_chat_read(Store& store, std::int64_t player_id, std::int64_t game_id, std::int64_t up_to);
// For each of `game_ids`: the players' chat lines after his read mark that he did not write,
// from players he did not mute, not hidden (at most kUnreadWindow). Games without any are left
// out of the map.
std::map<std::int64_t, int> unread_chat(Store& store, std::int64_t player_id,
                                        const std::vector<std::int64_t>& game_ids);
// Hides a chat line for good (chat_hidden); its game, or nothing when there is no such line.
std::optional<std::int64_t> hide_chat_line(Store& store, std::int64_t line_id);

// Whether an /admin/ request may be served: from a loopback peer (the TCP peer's own address,
// never what a header says) and with no forwarding header at all (X-Forwarded-For, Forwarded,
// X-Real-IP): a reverse proxy on the same machine connects from loopback too, and whatever
// came through it came from outside.
bool admin_request_allowed(std::string_view peer, bool has_forwarding_header);

struct ChatMuteLimits {
  int max_per_player = 500;          // players one player may mute
  double changes_per_minute = 10;    // mutes and unmutes of one player, after the burst
  double change_burst = 30;          //
  double requests_per_minute = 120;  // GET /api/mutes and POST /api/mute of one address
};

// The players each player muted, cached (a chat line is checked against the mutes of every
// watcher it would reach), and the HTTP API POST /api/mute, GET /api/mutes.
class ChatMutes {
 public:
  using Set = std::shared_ptr<const std::set<std::int64_t>>;

  ChatMutes(Store& store, ChatMuteLimits limits = {});

  // Whom `player_id` muted (never nullptr). Thread-safe; a leaf lock (called under rooms' locks).
  Set of(std::int64_t player_id);
  // Mutes (or unmutes) `muted_id` for `player_id`: at most max_per_player, at most so many
  // changes; a player cannot mute himself. Unmuting someone not muted is no change (no error).
  Outcome change(std::int64_t player_id, std::int64_t muted_id, bool mute);
  // [{"player_id": "<id>", "name", "at"}], the latest first.
  nlohmann::json list(std::int64_t player_id);

  static bool handles(std::string_view path) { return path == "/api/mute" || path == "/api/mutes"; }
  ApiResponse handle_api(std::string_view method, std::string_view path, std::string_view body,
                         std::string_view authorization, std::string_view address);

 private:
  Store& store_;
  ChatMuteLimits limits_;
  std::mutex mutex_;                             // the members below
  std::unordered_map<std::int64_t, Set> cache_;  // dropped whole past kMaxCached players
  std::unordered_map<std::int64_t, TokenBucket> change_buckets_;
  AddressBuckets address_buckets_;
};

}  // namespace viktory::server
