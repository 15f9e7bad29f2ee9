#include "deliveries.h"

#include "vapid.h"

namespace viktory::notify {
namespace {

// The endpoint's origin groups transfers for the per-endpoint cap; a URL that does not parse
// gets a key of its own and fails when its request is built.
std::string endpoint_key(std::string_view url) {
  try {
    return url_origin(url);
  } catch (const std::exception&) {
    return "invalid";
  }
}

}  // namespace

Delivery push_delivery(std::shared_ptr<const WebPushSettings> settings,
                       PushSubscription subscription, PushMessage message,
                       ResultCallback on_result) {
  Delivery delivery;
  delivery.channel = Channel::push;
  delivery.endpoint_key = endpoint_key(subscription.endpoint);
  delivery.make_transfer = [settings = std::move(settings), subscription = std::move(subscription),
                            message = std::move(message)] {
    return make_push_transfer(*settings, subscription, message, std::chrono::system_clock::now());
  };
  delivery.on_result = std::move(on_result);
  return delivery;
}

Delivery email_delivery(std::shared_ptr<const SmtpSettings> settings, EmailMessage message,
                        ResultCallback on_result) {
  Delivery delivery;
  delivery.channel = Channel::email;
  delivery.endpoint_key = "smtp:" + redact_url(settings->url);
  delivery.make_transfer = [settings = std::move(settings), message = std::move(message)] {
    return make_email_transfer(*settings, message, std::chrono::system_clock::now());
  };
  delivery.on_result = std::move(on_result);
  return delivery;
}

Delivery webhook_delivery(std::shared_ptr<const WebhookSettings> settings, Webhook webhook,
                          WebhookEvent event, ResultCallback on_result) {
  Delivery delivery;
  delivery.channel = Channel::webhook;
  delivery.endpoint_key = endpoint_key(webhook.url);
  delivery.make_transfer = [settings = std::move(settings), webhook = std::move(webhook),
                            event = std::move(event)] {
    return make_webhook_transfer(webhook, event, settings->timeouts, settings->endpoints);
  };
  delivery.on_result = std::move(on_result);
  return delivery;
}

}  // namespace viktory::notify
