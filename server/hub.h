// Routes every client request: WebSocket messages (auth, lobby, games, chat) and the JSON API
// of the HTTP side. Owns the per-connection state (who is signed in, rate limit) and the one
// mutex that serialises the game logic (Lobby, GameRoom, Store), so the network side may run on
// several threads.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "common.h"
#include "lobby.h"
#include "metrics.h"
#include "store.h"

namespace viktory::server {

// A WebSocket connection as the Hub sees it.
class Client : public Subscriber {
 public:
  // Sends the queued messages, then a close frame (policy error) with this reason.
  virtual void close(std::string_view reason) = 0;
};

struct HubOptions {
  RoomLimits room;
  std::string public_url;           // for invite links; may be empty
  double messages_per_second = 20;  // token bucket per connection
  double message_burst = 40;
  int max_auth_failures = 3;
  double signups_per_minute = 30;  // POST /api/session per client address, burst 2x
};

struct ApiResponse {
  int status = 200;
  std::string body;
  std::string content_type = "application/json";
};

class Hub {
 public:
  Hub(Store& store, Metrics& metrics, HubOptions options);

  void on_open(Client* client);
  void on_message(Client* client, std::string_view text);
  void on_close(Client* client);

  // Everything under /api. `target` is the request target (path and query); `address` is the
  // client's address (sign-ups are rate limited per address).
  ApiResponse handle_api(std::string_view method, std::string_view target, std::string_view body,
                         std::string_view authorization, std::string_view address = "");

 private:
  struct TokenBucket {
    double tokens = 0;
    std::chrono::steady_clock::time_point last;
  };
  struct ClientState {
    std::optional<PlayerRecord> player;
    int auth_failures = 0;
    TokenBucket bucket;
  };

  Outcome dispatch(Client* client, ClientState& state, const nlohmann::json& msg,
                   const std::string& type);
  Outcome require_room(std::int64_t game_id, GameRoom*& room);
  void send_error(Client* client, const Failure& failure, const nlohmann::json& req);
  static bool take_token(TokenBucket& bucket, double per_second, double burst);
  nlohmann::json my_games(std::int64_t player_id);
  std::optional<PlayerRecord> player_for_bearer(std::string_view authorization);

  std::mutex mutex_;
  Store& store_;
  Metrics& metrics_;
  HubOptions options_;
  Lobby lobby_;
  std::map<Client*, ClientState> clients_;
  std::map<std::string, TokenBucket, std::less<>> signup_buckets_;
};

}  // namespace viktory::server
