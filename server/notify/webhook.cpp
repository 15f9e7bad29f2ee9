#include "webhook.h"

#include <stdexcept>

#include "vapid.h"

namespace viktory::notify {

const char* to_string(WebhookFormat format) {
  switch (format) {
    case WebhookFormat::discord:
      return "discord";
    case WebhookFormat::slack:
      return "slack";
    case WebhookFormat::json:
      return "json";
  }
  return "json";
}

std::optional<WebhookFormat> parse_webhook_format(std::string_view text) {
  if (text == "discord") return WebhookFormat::discord;
  if (text == "slack") return WebhookFormat::slack;
  if (text == "json") return WebhookFormat::json;
  return std::nullopt;
}

std::string webhook_body(WebhookFormat format, const WebhookEvent& event) {
  switch (format) {
    case WebhookFormat::discord:
      // allowed_mentions: a player called "@everyone" must not ping the whole server.
      return nlohmann::json{{"content", event.text},
                            {"allowed_mentions", {{"parse", nlohmann::json::array()}}}}
          .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    case WebhookFormat::slack:
      return nlohmann::json{{"text", event.text}}.dump(-1, ' ', false,
                                                       nlohmann::json::error_handler_t::replace);
    case WebhookFormat::json:
      break;
  }
  nlohmann::json body = event.event.is_object() ? event.event : nlohmann::json::object();
  body["text"] = event.text;
  return body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void validate_webhook_url(std::string_view url, const EndpointPolicy& policy) {
  const std::string origin = url_origin(url);
  if (!policy.allow_plain_http && !origin.starts_with("https://")) {
    throw std::invalid_argument("webhook URLs must use https");
  }
}

std::unique_ptr<Transfer> make_webhook_transfer(const Webhook& webhook, const WebhookEvent& event,
                                                const Timeouts& timeouts,
                                                const EndpointPolicy& policy) {
  validate_webhook_url(webhook.url, policy);
  return std::make_unique<HttpPost>(
      webhook.url, std::vector<std::string>{"Content-Type: application/json"},
      webhook_body(webhook.format, event), timeouts, policy.allow_private_addresses);
}

}  // namespace viktory::notify
