// What became of one delivery attempt, in the four cases the caller acts on differently.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace viktory::notify {

enum class Outcome {
  delivered,    // the push service, relay or webhook took it
  gone,         // the subscription or webhook no longer exists (404/410): the caller drops it
  retry_later,  // 429, 5xx, timeouts, network errors: may work later
  failed,       // permanent: retrying the same request cannot help (bad request, rejected auth...)
};

const char* to_string(Outcome outcome);

struct DeliveryResult {
  Outcome outcome = Outcome::failed;
  // The HTTP status or the last SMTP reply code; 0 when none arrived.
  long status = 0;
  // From a Retry-After header: do not try again before this much time has passed.
  std::optional<std::chrono::seconds> retry_after;
  // A short text for logs. It never contains a request body, a credential or an endpoint's path
  // (a push endpoint's path is the capability that lets anyone push to that browser).
  std::string detail;
};

// RFC 8030 section 5 and the HTTP status codes push services and chat webhooks return.
DeliveryResult classify_http_status(long status,
                                    std::optional<std::chrono::seconds> retry_after = {});

// RFC 9110 10.2.3: either delay-seconds or an HTTP-date. nullopt if it is neither.
std::optional<std::chrono::seconds> parse_retry_after(std::string_view value,
                                                      std::chrono::system_clock::time_point now);

}  // namespace viktory::notify
