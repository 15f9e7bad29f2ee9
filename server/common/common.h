// Small things every part of the game logic shares: the subscriber interface (a connection, or
// a recorder in tests), failures with stable codes, seat colours and the clock.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace viktory::server {

using Message = std::shared_ptr<const std::string>;

inline Message make_message(const nlohmann::json& j) {
  // Replace invalid UTF-8 instead of throwing: every text we send was validated on the way
  // in, so this only guards against a bug turning into a crash.
  return std::make_shared<const std::string>(
      j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

// Something that receives messages of a game or of the lobby. Implementations must not call
// back into the game logic from deliver() (they queue the message).
class Subscriber {
 public:
  virtual ~Subscriber() = default;
  virtual void deliver(Message message) = 0;
};

// Why a request failed: `code` is stable (docs/protocol.md), `message` is for people.
struct Failure {
  std::string code;
  std::string message;
  nlohmann::json extra = nlohmann::json::object();  // more fields for the error message
};
using Outcome = std::optional<Failure>;

inline Failure fail(std::string code, std::string message) {
  return Failure{std::move(code), std::move(message)};
}

// The answer to an HTTP API request.
struct ApiResponse {
  int status = 200;
  std::string body;
  std::string content_type = "application/json";
  int retry_after_seconds = 0;  // > 0: sent as Retry-After
  // May be sent gzipped (when large and the client accepts it): only answers that hold no
  // secret, since a secret in a compressed answer next to text an attacker chose leaks through
  // the answer's size (BREACH; docs/server.md, "Compression").
  bool compressible = false;
  // Sent as Content-Disposition when set (a download: GET /api/account/export).
  std::string content_disposition = {};
};

inline ApiResponse api_error(int status, const std::string& code, const std::string& message) {
  return ApiResponse{status,
                     nlohmann::json{{"error", {{"code", code}, {"message", message}}}}.dump()};
}

// Boxed-game order of the player colours.
inline const char* seat_color(int seat) {
  static constexpr const char* kColors[] = {"red", "yellow", "blue", "green", "white", "black"};
  return seat >= 0 && seat < 6 ? kColors[seat] : "none";
}

inline std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace viktory::server
