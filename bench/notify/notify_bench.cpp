// Benchmarks of the notification library. The figures and the command that produced them are in
// docs/performance.md ("Notifications").
#include <benchmark/benchmark.h>

#include <atomic>

#include "deliveries.h"
#include "notification_text.h"

namespace {

using namespace viktory::notify;

GameEvent turn_event() {
  GameEvent event;
  event.game_id = 12;
  event.round = 3;
  event.player = "Alice";
  event.game_url = "https://viktory.example.org/game/12";
  return event;
}

// The payload a "your turn" push carries, encrypted for one subscription (fresh ephemeral key
// and salt: one key generation, one ECDH, three HKDF, one AES-GCM).
void BM_EncryptPushMessage(benchmark::State& state) {
  const PushKeys keys{EcKey::generate().public_point(), random_bytes(16)};
  const Bytes payload = to_bytes(push_payload(turn_event()));
  for (auto _ : state) benchmark::DoNotOptimize(encrypt_push_message(payload, keys));
}
BENCHMARK(BM_EncryptPushMessage);

// The VAPID Authorization header: one ES256 signature.
void BM_VapidAuthorizationHeader(benchmark::State& state) {
  const VapidKeys keys = VapidKeys::generate();
  const auto now = std::chrono::system_clock::now();
  for (auto _ : state) {
    benchmark::DoNotOptimize(keys.authorization_header("https://push.example.net/wpush/v2/abc",
                                                       "mailto:admin@example.org", now));
  }
}
BENCHMARK(BM_VapidAuthorizationHeader);

// A complete push request, built but not sent (encryption, JWT, the curl handle).
void BM_MakePushTransfer(benchmark::State& state) {
  const WebPushSettings settings{
      VapidKeys::generate(), "mailto:admin@example.org", {}, EndpointPolicy{}};
  const PushSubscription subscription{"https://push.example.net/wpush/v2/abc",
                                      base64url_encode(EcKey::generate().public_point()),
                                      base64url_encode(random_bytes(16))};
  const PushMessage message{push_payload(turn_event()), std::chrono::hours(1), Urgency::normal,
                            push_topic_for(turn_event())};
  const auto now = std::chrono::system_clock::now();
  for (auto _ : state) {
    benchmark::DoNotOptimize(make_push_transfer(settings, subscription, message, now));
  }
}
BENCHMARK(BM_MakePushTransfer);

void BM_FormatEmail(benchmark::State& state) {
  const Mailbox from{"turns@viktory.example.org", "VIKTORY II"};
  const EmailMessage message = email_for(turn_event(), Mailbox{"alice@example.net", "Alice"});
  const auto now = std::chrono::system_clock::now();
  for (auto _ : state) {
    benchmark::DoNotOptimize(format_email(from, message, now, new_message_id(from)));
  }
}
BENCHMARK(BM_FormatEmail);

// What the game's thread pays: building the job and enqueueing it. The jobs fail on the worker
// at once (an unusable URL), so the queue never fills and no network is involved.
void BM_Enqueue(benchmark::State& state) {
  NotifierOptions options;
  options.queue_capacity = 1'000'000;
  Notifier notifier(options);
  auto settings = std::make_shared<const WebhookSettings>();
  const WebhookEvent event = webhook_event_for(turn_event());
  std::int64_t dropped = 0;
  for (auto _ : state) {
    if (!notifier.enqueue(
            webhook_delivery(settings, Webhook{"invalid:", WebhookFormat::json}, event))) {
      ++dropped;
    }
  }
  state.counters["dropped"] = static_cast<double>(dropped);
}
BENCHMARK(BM_Enqueue);

}  // namespace

BENCHMARK_MAIN();
