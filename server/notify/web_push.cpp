#include "web_push.h"

#include <openssl/sha.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace viktory::notify {

const char* to_string(Urgency urgency) {
  switch (urgency) {
    case Urgency::very_low:
      return "very-low";
    case Urgency::low:
      return "low";
    case Urgency::normal:
      return "normal";
    case Urgency::high:
      return "high";
  }
  return "normal";
}

PushSubscription parse_push_subscription(std::string_view json) {
  const nlohmann::json parsed = nlohmann::json::parse(json, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    throw std::invalid_argument("subscription: not a JSON object");
  }
  const auto endpoint = parsed.find("endpoint");
  const auto keys = parsed.find("keys");
  if (endpoint == parsed.end() || !endpoint->is_string()) {
    throw std::invalid_argument("subscription: endpoint missing");
  }
  if (keys == parsed.end() || !keys->is_object() || !keys->contains("p256dh") ||
      !keys->contains("auth") || !(*keys)["p256dh"].is_string() || !(*keys)["auth"].is_string()) {
    throw std::invalid_argument("subscription: keys.p256dh and keys.auth missing");
  }
  PushSubscription subscription{endpoint->get<std::string>(), (*keys)["p256dh"].get<std::string>(),
                                (*keys)["auth"].get<std::string>()};
  try {
    parse_push_keys(subscription.p256dh, subscription.auth);
  } catch (const CryptoError&) {
    throw std::invalid_argument("subscription: keys are malformed");
  }
  return subscription;
}

std::string push_topic(std::string_view key) {
  bool fits = !key.empty() && key.size() <= 32;
  for (const char c : key) {
    fits = fits && (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_');
  }
  if (fits) return std::string(key);
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(key.data()), key.size(), digest);
  return base64url_encode(digest, 24);  // 32 characters
}

void validate_push_endpoint(std::string_view endpoint, const EndpointPolicy& policy) {
  const std::string origin = url_origin(endpoint);  // throws unless absolute http(s) with a host
  if (!policy.allow_plain_http && !origin.starts_with("https://")) {
    throw std::invalid_argument("push endpoints must use https");
  }
}

std::unique_ptr<Transfer> make_push_transfer(const WebPushSettings& settings,
                                             const PushSubscription& subscription,
                                             const PushMessage& message,
                                             std::chrono::system_clock::time_point now) {
  validate_push_endpoint(subscription.endpoint, settings.endpoints);
  if (message.topic.size() > 32 ||
      (!message.topic.empty() && push_topic(message.topic) != message.topic)) {
    throw std::invalid_argument("a Topic has at most 32 base64url characters");
  }
  if (message.payload.size() > kMaxPushPlaintext) {
    throw std::invalid_argument("push payload larger than 3993 bytes");
  }
  PushKeys keys;
  try {
    keys = parse_push_keys(subscription.p256dh, subscription.auth);
  } catch (const CryptoError&) {
    throw std::invalid_argument("subscription keys are malformed");
  }
  const Bytes body = encrypt_push_message(to_bytes(message.payload), keys);
  std::vector<std::string> headers = {
      "Content-Type: application/octet-stream",
      "Content-Encoding: aes128gcm",
      "TTL: " + std::to_string(message.ttl.count()),
      std::string("Urgency: ") + to_string(message.urgency),
      "Authorization: " +
          settings.vapid.authorization_header(subscription.endpoint, settings.subject, now),
  };
  if (!message.topic.empty()) headers.push_back("Topic: " + message.topic);
  return std::make_unique<HttpPost>(subscription.endpoint, std::move(headers), to_string(body),
                                    settings.timeouts, settings.endpoints.allow_private_addresses);
}

}  // namespace viktory::notify
