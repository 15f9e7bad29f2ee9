// The notifier and webhooks against HTTP receivers on loopback: the three webhook forms, retries
// with backoff and Retry-After, the attempt cap, the bounded queue, shutdown, metrics, and a
// blackhole endpoint that must not hold up a healthy one.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "deliveries.h"
#include "notification_text.h"
#include "support/loopback_server.h"
#include "support/results.h"

namespace viktory::notify {
namespace {

using namespace std::chrono_literals;
using testing::Blackhole;
using testing::HttpReceiver;
using testing::ReceivedRequest;
using testing::Reply;
using testing::Results;

std::shared_ptr<const WebhookSettings> local_hooks(Timeouts timeouts = {2s, 10s}) {
  return std::make_shared<const WebhookSettings>(
      WebhookSettings{timeouts, EndpointPolicy::local_testing()});
}

WebhookEvent turn_event() {
  GameEvent event;
  event.game_id = 12;
  event.round = 3;
  event.player = "Alice";
  event.game_url = "https://viktory.example.org/game/12";
  return webhook_event_for(event);
}

NotifierOptions fast_retries() {
  NotifierOptions options;
  options.initial_backoff = 10ms;
  options.max_backoff = 50ms;
  options.shutdown_grace = 0ms;
  return options;
}

// Replies with the statuses in order, then 200.
HttpReceiver::Responder statuses(std::vector<Reply> replies) {
  auto queue = std::make_shared<std::vector<Reply>>(std::move(replies));
  auto mutex = std::make_shared<std::mutex>();
  return [queue, mutex](const ReceivedRequest&) {
    std::lock_guard lock(*mutex);
    if (queue->empty()) return Reply{200, {}, "ok"};
    Reply reply = queue->front();
    queue->erase(queue->begin());
    return reply;
  };
}

TEST(Webhook, PostsTheThreeForms) {
  HttpReceiver receiver([](const ReceivedRequest&) { return Reply{204, {}, ""}; });
  const WebhookEvent event = turn_event();
  for (const WebhookFormat format :
       {WebhookFormat::discord, WebhookFormat::slack, WebhookFormat::json}) {
    const Webhook hook{receiver.url(std::string("/hook/") + to_string(format)), format};
    EXPECT_EQ(make_webhook_transfer(hook, event, {2s, 10s}, EndpointPolicy::local_testing())
                  ->perform()
                  .outcome,
              Outcome::delivered);
  }
  const auto requests = receiver.requests();
  ASSERT_EQ(requests.size(), 3u);
  for (const auto& request : requests) {
    EXPECT_EQ(request.method, "POST");
    EXPECT_EQ(request.headers.at("content-type"), "application/json");
  }
  EXPECT_EQ(nlohmann::json::parse(requests[0].body)["content"],
            "Alice's turn in Game 12 (round 3) https://viktory.example.org/game/12");
  EXPECT_EQ(nlohmann::json::parse(requests[1].body)["text"], event.text);
  const auto plain = nlohmann::json::parse(requests[2].body);
  EXPECT_EQ(plain["event"], "your_turn");
  EXPECT_EQ(plain["game"], 12);
  EXPECT_EQ(plain["round"], 3);
}

TEST(Webhook, ADeletedHookIsGoneAndARejectedOneFailed) {
  HttpReceiver receiver(
      statuses({Reply{404, {}, "{\"message\":\"Unknown Webhook\"}"}, Reply{400, {}, "bad"}}));
  const Webhook hook{receiver.url("/hook"), WebhookFormat::discord};
  EXPECT_EQ(make_webhook_transfer(hook, turn_event(), {2s, 10s}, EndpointPolicy::local_testing())
                ->perform()
                .outcome,
            Outcome::gone);
  EXPECT_EQ(make_webhook_transfer(hook, turn_event(), {2s, 10s}, EndpointPolicy::local_testing())
                ->perform()
                .outcome,
            Outcome::failed);
}

TEST(Notifier, RetriesServerErrorsUntilDelivered) {
  HttpReceiver receiver(statuses({Reply{503, {}, ""}, Reply{500, {}, ""}}));
  Results results;
  Notifier notifier(fast_retries());
  ASSERT_TRUE(notifier.enqueue(webhook_delivery(local_hooks(),
                                                Webhook{receiver.url("/hook"), WebhookFormat::json},
                                                turn_event(), results.callback("hook"))));
  ASSERT_TRUE(results.wait_for("hook", 10s));
  EXPECT_EQ(results.get("hook").outcome, Outcome::delivered);
  EXPECT_EQ(receiver.requests().size(), 3u);
  const ChannelStats stats = notifier.stats()[Channel::webhook];
  EXPECT_EQ(stats.attempts, 3);
  EXPECT_EQ(stats.retries, 2);
  EXPECT_EQ(stats.delivered, 1);
  EXPECT_EQ(results.count("hook"), 1u);  // one final result, not one per attempt
}

TEST(Notifier, HonoursRetryAfterOnTooManyRequests) {
  HttpReceiver receiver(statuses({Reply{429, {{"Retry-After", "1"}}, ""}}));
  Results results;
  Notifier notifier(fast_retries());  // a 10 ms backoff: only Retry-After explains a 1 s wait
  ASSERT_TRUE(notifier.enqueue(
      webhook_delivery(local_hooks(), Webhook{receiver.url("/hook"), WebhookFormat::slack},
                       turn_event(), results.callback("hook"))));
  ASSERT_TRUE(results.wait_for("hook", 10s));
  EXPECT_EQ(results.get("hook").outcome, Outcome::delivered);
  const auto requests = receiver.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_GE(requests[1].at - requests[0].at, 1s);
}

TEST(Notifier, GivesUpAfterTheLastAttempt) {
  HttpReceiver receiver([](const ReceivedRequest&) { return Reply{502, {}, ""}; });
  Results results;
  NotifierOptions options = fast_retries();
  options.max_attempts = 3;
  Notifier notifier(options);
  ASSERT_TRUE(notifier.enqueue(webhook_delivery(local_hooks(),
                                                Webhook{receiver.url("/hook"), WebhookFormat::json},
                                                turn_event(), results.callback("hook"))));
  ASSERT_TRUE(results.wait_for("hook", 10s));
  EXPECT_EQ(results.get("hook").outcome, Outcome::retry_later);
  EXPECT_EQ(results.get("hook").status, 502);
  EXPECT_EQ(receiver.requests().size(), 3u);
  EXPECT_EQ(notifier.stats()[Channel::webhook].expired, 1);
}

TEST(Notifier, ARefusedConnectionIsRetriedAndABadUrlFailsAtOnce) {
  int closed_port = 0;
  {
    HttpReceiver gone;
    closed_port = gone.port();
  }
  Results results;
  NotifierOptions options = fast_retries();
  options.max_attempts = 2;
  Notifier notifier(options);
  const auto hooks = local_hooks();
  ASSERT_TRUE(notifier.enqueue(webhook_delivery(
      hooks, Webhook{"http://127.0.0.1:" + std::to_string(closed_port) + "/x", WebhookFormat::json},
      turn_event(), results.callback("refused"))));
  ASSERT_TRUE(
      notifier.enqueue(webhook_delivery(hooks, Webhook{"file:///etc/passwd", WebhookFormat::json},
                                        turn_event(), results.callback("file"))));
  ASSERT_TRUE(results.wait_for_count(2, 10s));
  EXPECT_EQ(results.get("refused").outcome, Outcome::retry_later);
  EXPECT_EQ(results.get("file").outcome, Outcome::failed);
  EXPECT_EQ(notifier.stats()[Channel::webhook].attempts, 3);
}

// The property the game depends on: a hung endpoint costs the caller nothing and does not delay
// deliveries to other endpoints, even when it has more deliveries queued than it may run at once.
TEST(Notifier, ABlackholeEndpointDoesNotHoldUpAHealthyOne) {
  Blackhole blackhole;
  HttpReceiver healthy;
  Results results;
  NotifierOptions options = fast_retries();
  options.max_in_flight = 4;
  options.max_in_flight_per_endpoint = 2;
  Notifier notifier(options);
  // The blackhole's transfers would only end at their 60 s timeout.
  const auto slow_hooks = local_hooks({2s, 60s});
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(notifier.enqueue(
        webhook_delivery(slow_hooks, Webhook{blackhole.url("/hook"), WebhookFormat::json},
                         turn_event(), results.callback("blackhole"))));
  }
  ASSERT_TRUE(notifier.enqueue(webhook_delivery(local_hooks(),
                                                Webhook{healthy.url("/hook"), WebhookFormat::json},
                                                turn_event(), results.callback("healthy"))));
  ASSERT_TRUE(results.wait_for("healthy", 20s));
  EXPECT_EQ(results.get("healthy").outcome, Outcome::delivered);
  // Healthy was delivered while every blackhole delivery was still pending.
  EXPECT_EQ(results.count("blackhole"), 0u);
  const NotifierStats stats = notifier.stats();
  EXPECT_EQ(stats.in_flight, 2);  // the blackhole's cap
  EXPECT_EQ(stats.waiting, 4);
  notifier.shutdown(0ms);
  EXPECT_EQ(results.count("blackhole"), 6u);
  EXPECT_EQ(results.get("blackhole").outcome, Outcome::retry_later);
  EXPECT_EQ(notifier.stats()[Channel::webhook].abandoned, 6);
}

TEST(Notifier, DropsAndCountsWhenTheQueueIsFull) {
  Blackhole blackhole;
  Results results;
  NotifierOptions options = fast_retries();
  options.queue_capacity = 3;
  options.max_in_flight = 1;
  Notifier notifier(options);
  const auto hooks = local_hooks({2s, 60s});
  auto hook = [&] {
    return webhook_delivery(hooks, Webhook{blackhole.url("/hook"), WebhookFormat::json},
                            turn_event(), results.callback("blackhole"));
  };
  // Four accepted at most (one in flight, three waiting); whatever the worker's timing, the
  // fifth and later ones are dropped.
  int accepted = 0;
  for (int i = 0; i < 10; ++i) accepted += notifier.enqueue(hook()) ? 1 : 0;
  EXPECT_GE(accepted, 3);
  EXPECT_LE(accepted, 4);
  const ChannelStats stats = notifier.stats()[Channel::webhook];
  EXPECT_EQ(stats.accepted, accepted);
  EXPECT_EQ(stats.dropped, 10 - accepted);
  notifier.shutdown(0ms);
  EXPECT_FALSE(notifier.enqueue(hook()));
  EXPECT_EQ(notifier.stats()[Channel::webhook].dropped, 11 - accepted);
  EXPECT_EQ(results.count("blackhole"), static_cast<std::size_t>(accepted));
}

TEST(Notifier, ShutdownDeliversWhatIsQueuedWithinTheGrace) {
  HttpReceiver receiver;
  Results results;
  Notifier notifier(fast_retries());
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(notifier.enqueue(webhook_delivery(
        local_hooks(), Webhook{receiver.url("/hook/" + std::to_string(i)), WebhookFormat::json},
        turn_event(), results.callback("hook"))));
  }
  notifier.shutdown(30s);
  EXPECT_EQ(results.count("hook"), 20u);
  EXPECT_EQ(receiver.requests().size(), 20u);
  EXPECT_EQ(notifier.stats()[Channel::webhook].delivered, 20);
}

TEST(Notifier, MetricsInPrometheusText) {
  HttpReceiver receiver(statuses({Reply{410, {}, ""}}));
  Results results;
  Notifier notifier(fast_retries());
  ASSERT_TRUE(notifier.enqueue(webhook_delivery(local_hooks(),
                                                Webhook{receiver.url("/hook"), WebhookFormat::json},
                                                turn_event(), results.callback("hook"))));
  ASSERT_TRUE(results.wait_for("hook", 10s));
  const std::string metrics = notifier.render_metrics();
  EXPECT_NE(metrics.find("# TYPE viktory_notify_results_total counter\n"), std::string::npos);
  EXPECT_NE(metrics.find("viktory_notify_results_total{channel=\"webhook\",result=\"gone\"} 1\n"),
            std::string::npos);
  EXPECT_NE(metrics.find("viktory_notify_accepted_total{channel=\"webhook\"} 1\n"),
            std::string::npos);
  EXPECT_NE(metrics.find("viktory_notify_accepted_total{channel=\"push\"} 0\n"), std::string::npos);
  EXPECT_NE(metrics.find("viktory_notify_in_flight 0\n"), std::string::npos);
}

}  // namespace
}  // namespace viktory::notify
