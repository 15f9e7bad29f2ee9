// Notifier jobs for each channel: what the server will enqueue. Each builds its request on the
// notifier's thread, fresh for every attempt.
#pragma once

#include <functional>
#include <memory>

#include "email.h"
#include "notifier.h"
#include "web_push.h"
#include "webhook.h"

namespace viktory::notify {

using ResultCallback = std::function<void(const DeliveryResult&)>;

// On `gone` the caller deletes the subscription.
Delivery push_delivery(std::shared_ptr<const WebPushSettings> settings,
                       PushSubscription subscription, PushMessage message,
                       ResultCallback on_result = {});

Delivery email_delivery(std::shared_ptr<const SmtpSettings> settings, EmailMessage message,
                        ResultCallback on_result = {});

struct WebhookSettings {
  Timeouts timeouts{std::chrono::seconds(5), std::chrono::seconds(10)};
  EndpointPolicy endpoints;  // https to public addresses only, unless set (tests)
};

// On `gone` (the chat deleted the hook) the caller removes or disables the webhook.
Delivery webhook_delivery(std::shared_ptr<const WebhookSettings> settings, Webhook webhook,
                          WebhookEvent event, ResultCallback on_result = {});

}  // namespace viktory::notify
