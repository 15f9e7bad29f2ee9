// Web Push delivery (RFC 8030): one encrypted message POSTed to a browser's push endpoint with
// VAPID authorization. A newer message with the same Topic replaces an undelivered older one at
// the push service, so a phone that was offline shows one "your turn", not five.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "push_encryption.h"
#include "transfer.h"
#include "vapid.h"

namespace viktory::notify {

// What the browser's PushSubscription.toJSON() gives: {endpoint, keys: {p256dh, auth}}.
struct PushSubscription {
  std::string endpoint;
  std::string p256dh;  // base64url
  std::string auth;    // base64url
};

// Parses PushSubscription JSON (as a browser posts it); throws std::invalid_argument with a
// reason a client may see.
PushSubscription parse_push_subscription(std::string_view json);

enum class Urgency { very_low, low, normal, high };
const char* to_string(Urgency urgency);

struct PushMessage {
  std::string payload;  // what the service worker receives (the notification JSON), <= 3993 bytes
  std::chrono::seconds ttl{std::chrono::hours(24)};  // how long the push service may keep it
  Urgency urgency = Urgency::normal;
  // At most 32 characters of the base64url alphabet; empty for none.
  std::string topic;
};

struct WebPushSettings {
  VapidKeys vapid;
  // The operator's contact for push services, "mailto:admin@example.org" or an https: URL.
  std::string subject;
  Timeouts timeouts;
  // Push services are public and use https; a local push service in tests is neither.
  EndpointPolicy endpoints;
};

// A topic made from an arbitrary key (e.g. "game-12"): base64url of a hash when needed so it
// always satisfies RFC 8030's form.
std::string push_topic(std::string_view key);

// Builds the request: encrypts the payload (fresh ephemeral key and salt), signs a VAPID JWT
// for the endpoint's origin, sets TTL, Urgency, Topic. Throws std::invalid_argument for a bad
// endpoint, keys, topic or an oversized payload.
std::unique_ptr<Transfer> make_push_transfer(const WebPushSettings& settings,
                                             const PushSubscription& subscription,
                                             const PushMessage& message,
                                             std::chrono::system_clock::time_point now);

// Checks an endpoint: absolute https (or http when allowed), with a host.
void validate_push_endpoint(std::string_view endpoint, const EndpointPolicy& policy);

}  // namespace viktory::notify
