// A small WebSocket + HTTP client for the integration tests (Beast inside, not in this header):
// a background thread reads every message into an inbox; the test thread waits with timeouts.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace viktory::server::testing {

using namespace std::chrono_literals;

class WsClient {
 public:
  WsClient();
  ~WsClient();
  WsClient(const WsClient&) = delete;
  WsClient& operator=(const WsClient&) = delete;

  // Throws on failure. Without `start_reading` the client never reads: a slow client.
  void connect(int port, const std::string& path = "/ws", bool start_reading = true,
               const std::vector<std::pair<std::string, std::string>>& headers = {});
  void send(const nlohmann::json& message);
  // Fair play's reveal round (docs/fair-play.md): by default the client answers a
  // game.commit_request with a fresh commitment (game.commit) and a game.reveal_request with
  // its contribution (game.contribute), as the browser client does; off, the test answers.
  void set_fair_play(bool answer);
  // The contribution this client committed to with `commitment` (hex), or "".
  std::string contribution_for(const std::string& commitment) const;
  void send_raw(const std::string& text, bool binary = false);

  // The next message, or nothing after the timeout (or when the connection is closed).
  std::optional<std::string> receive_raw(std::chrono::milliseconds timeout = 5s);
  std::optional<nlohmann::json> receive(std::chrono::milliseconds timeout = 5s);
  // Skips messages until one satisfies `want`; throws std::runtime_error on timeout.
  nlohmann::json wait_for(const std::function<bool(const nlohmann::json&)>& want,
                          std::chrono::milliseconds timeout = 10s);
  nlohmann::json wait_type(const std::string& type, std::chrono::milliseconds timeout = 10s);
  // Waits until the server closed the connection; true if it did within the timeout.
  bool wait_closed(std::chrono::milliseconds timeout = 5s);

  void close();  // close frame, then wait for the server's
  void drop();   // abrupt: the TCP connection just goes away
  // Every message received so far, in order (also those consumed by receive/wait).
  std::vector<std::string> history() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

struct HttpReply {
  int status = 0;
  std::string body;
  std::string content_type;
  std::string content_disposition;
  nlohmann::json json() const { return nlohmann::json::parse(body, nullptr, false); }
};

HttpReply http_request(int port, const std::string& method, const std::string& target,
                       const std::string& body = "", const std::string& bearer = "",
                       const std::vector<std::pair<std::string, std::string>>& headers = {});

}  // namespace viktory::server::testing
