#include "delivery_result.h"

#include <curl/curl.h>

#include <cctype>
#include <string>

namespace viktory::notify {

const char* to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::delivered:
      return "delivered";
    case Outcome::gone:
      return "gone";
    case Outcome::retry_later:
      return "retry_later";
    case Outcome::failed:
      return "failed";
  }
  return "failed";
}

DeliveryResult classify_http_status(long status, std::optional<std::chrono::seconds> retry_after) {
  DeliveryResult result;
  result.status = status;
  result.detail = "HTTP " + std::to_string(status);
  if (status >= 200 && status < 300) {
    result.outcome = Outcome::delivered;
  } else if (status == 404 || status == 410) {
    result.outcome = Outcome::gone;
  } else if (status == 408 || status == 425 || status == 429 || (status >= 500 && status < 600)) {
    result.outcome = Outcome::retry_later;
    result.retry_after = retry_after;
  } else {
    // 400 (malformed), 401/403 (VAPID rejected), 413 (too large) and the rest: the same request
    // would fail again.
    result.outcome = Outcome::failed;
  }
  return result;
}

std::optional<std::chrono::seconds> parse_retry_after(std::string_view value,
                                                      std::chrono::system_clock::time_point now) {
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front()))) {
    value.remove_prefix(1);
  }
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) {
    value.remove_suffix(1);
  }
  if (value.empty()) return std::nullopt;
  bool all_digits = true;
  for (const char c : value) all_digits = all_digits && std::isdigit(static_cast<unsigned char>(c));
  if (all_digits) {
    if (value.size() > 9) return std::chrono::seconds(999'999'999);
    return std::chrono::seconds(std::stol(std::string(value)));
  }
  // curl_getdate reads the three date forms HTTP allows (IMF-fixdate, RFC 850, asctime).
  const time_t when = curl_getdate(std::string(value).c_str(), nullptr);
  if (when < 0) return std::nullopt;
  const auto delta = std::chrono::system_clock::from_time_t(when) - now;
  if (delta <= std::chrono::seconds(0)) return std::chrono::seconds(0);
  return std::chrono::duration_cast<std::chrono::seconds>(delta);
}

}  // namespace viktory::notify
