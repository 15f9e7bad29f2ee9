// Replays of finished games (GET /api/games/<id>/replay), served without the Hub's lock:
// through a read-only connection of their own (WAL lets it read while the game logic writes),
// one page of steps at a time, in the compact form (the first view whole, then per step the
// action, the viewer's events and log lines and the view delta; protocol/view_delta.h),
// cached (a finished game never changes) and rate limited per client address.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "common.h"
#include "metrics.h"
#include "rate_limit.h"
#include "store.h"

namespace viktory::server {

struct ReplayLimits {
  int page_steps = 200;                        // steps per page at most
  std::size_t cache_bytes = 16 * 1024 * 1024;  // pages kept, in bytes of JSON
  double requests_per_minute = 120;            // per client address, burst the same
};

class Replays {
 public:
  // `db_path`: the database the Store of the game logic has opened and migrated.
  Replays(std::string db_path, Metrics& metrics, ReplayLimits limits);

  // The whole API request. `query`: seat, from, to, invite. Thread-safe.
  ApiResponse handle(std::int64_t game_id, const std::map<std::string, std::string>& query,
                     std::string_view authorization, std::string_view address);

  // GET /api/games/<id>/record: the game record of a finished game (fair_play.h), for anyone
  // who may view the game; 409 not_finished before the end (it holds the secret). `query`:
  // invite. Thread-safe; cached like pages.
  ApiResponse handle_record(std::int64_t game_id, const std::map<std::string, std::string>& query,
                            std::string_view authorization, std::string_view address);

  // One page for `viewer` (a seat or kSpectator): the view after action `from`, then steps
  // from+1..to, as JSON text. Throws DamagedGame when the stored log does not add up.
  static std::string build_page(Store& store, const GameRecord& record, int viewer, int from,
                                int to);

  // Drops every cached page and record (a player deleted his account: his name leaves them).
  void forget_all();

  // Tests: called while a page is being built, outside every lock but the replays' own.
  std::function<void()> on_build_for_tests;

 private:
  using Page = std::shared_ptr<const std::string>;
  // The game row and the requester (0: anonymous) through the look-up connection; an error
  // response when the game cannot be read.
  std::optional<ApiResponse> look_up(std::int64_t game_id, std::string_view authorization,
                                     std::optional<GameRecord>& record, std::int64_t& player_id);
  Page cached(const std::string& key);
  void remember(const std::string& key, Page page);
  // 429 when the address has used up its replay requests.
  std::optional<ApiResponse> take_request(std::string_view address);
  // The game when the requester may see it (404 for a missing, cancelled or private game
  // without its invite: all answer alike) and it is finished (409 with `not_finished`).
  std::optional<ApiResponse> find_finished(std::int64_t game_id, std::string_view authorization,
                                           const std::string& invite,
                                           const std::string& not_finished,
                                           std::optional<GameRecord>& record,
                                           std::int64_t& player_id);
  // The cached body under `key`, or one built now by `build` on the builder connection (503
  // busy when another build runs, 503 for a damaged game, 500 naming `what` otherwise).
  ApiResponse cached_or_built(const std::string& key, std::int64_t game_id, const char* what,
                              const std::function<std::string(Store&)>& build);

  std::string db_path_;
  Metrics& metrics_;
  ReplayLimits limits_;

  // Two read-only connections (opened on first use): one for the short look-ups every request
  // makes (token, game row), one for building pages. One page is built at a time; a request
  // that would have to wait for another build is told to come back (503 busy) instead of
  // holding a network thread.
  std::mutex lookup_mutex_;
  std::optional<Store> lookup_;
  std::mutex build_mutex_;
  std::optional<Store> builder_;

  std::mutex cache_mutex_;                       // the cache and the rate limit
  std::list<std::pair<std::string, Page>> lru_;  // most recently used first
  std::map<std::string, std::list<std::pair<std::string, Page>>::iterator> index_;
  std::size_t cached_bytes_ = 0;
  AddressBuckets buckets_;
};

}  // namespace viktory::server
