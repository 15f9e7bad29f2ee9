// Webhooks: a JSON POST to a URL the game's players chose, e.g. their group chat. Three body
// forms: Discord ({"content": text}), Slack and compatible chats such as Mattermost
// ({"text": text}), and plain JSON (the event object, for anything else).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "transfer.h"

namespace viktory::notify {

enum class WebhookFormat { discord, slack, json };
const char* to_string(WebhookFormat format);
// "discord", "slack" or "json"; nullopt otherwise.
std::optional<WebhookFormat> parse_webhook_format(std::string_view text);

struct Webhook {
  std::string url;
  WebhookFormat format = WebhookFormat::json;
};

struct WebhookEvent {
  std::string text;      // one line for people: "Your turn, Alice: Game 12 (round 3)"
  nlohmann::json event;  // the machine-readable event for the plain JSON form
};

// The request body for the format.
std::string webhook_body(WebhookFormat format, const WebhookEvent& event);

// Throws std::invalid_argument unless the URL is absolute https (or http when allowed).
void validate_webhook_url(std::string_view url, const EndpointPolicy& policy);

std::unique_ptr<Transfer> make_webhook_transfer(const Webhook& webhook, const WebhookEvent& event,
                                                const Timeouts& timeouts,
                                                const EndpointPolicy& policy);

}  // namespace viktory::notify
