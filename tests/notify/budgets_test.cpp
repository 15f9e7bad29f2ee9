// The notifier's budgets (issue 19): one owner's dead endpoints can neither take the queue nor
// the transfer slots from anybody else, each channel has its own places, and account mails have
// a reserve and start first. Measured in counts and order of arrival, not in time.
#include <gtest/gtest.h>

#include "deliveries.h"
#include "notification_text.h"
#include "support/loopback_server.h"
#include "support/results.h"

namespace viktory::notify {
namespace {

using namespace std::chrono_literals;
using testing::Blackhole;
using testing::HttpReceiver;
using testing::Results;
using testing::SmtpSink;
using testing::SmtpSinkOptions;

std::shared_ptr<const WebhookSettings> hooks(Timeouts timeouts) {
  return std::make_shared<const WebhookSettings>(
      WebhookSettings{timeouts, EndpointPolicy::local_testing()});
}

WebhookEvent an_event() {
  GameEvent event;
  event.game_id = 7;
  event.player = "Mallory";
  return webhook_event_for(event);
}

Delivery owned(Delivery delivery, std::string owner) {
  delivery.owner = std::move(owner);
  return delivery;
}

// Ten hung endpoints of one player (a blackhole accepts TCP and never answers) and a hundred
// deliveries to them: he gets his budget of places and slots, and every delivery of another
// player is accepted and delivered while all of his are still hanging.
TEST(NotifierBudgets, OnePlayersDeadEndpointsNeitherDropNorDelayAnotherPlayersDeliveries) {
  std::vector<std::unique_ptr<Blackhole>> dead;
  for (int i = 0; i < 10; ++i) dead.push_back(std::make_unique<Blackhole>());
  HttpReceiver healthy;
  Results results;
  NotifierOptions options;
  options.queue_capacity = 40;
  options.max_in_flight = 8;
  options.max_in_flight_per_endpoint = 4;
  options.max_pending_per_owner = 20;
  options.max_in_flight_per_owner = 4;
  options.shutdown_grace = 0ms;
  Notifier notifier(options);
  const auto hanging = hooks({2s, 60s});  // they would end at their 60 s timeout
  int attacker_accepted = 0;
  for (int i = 0; i < 100; ++i) {
    attacker_accepted +=
        notifier.enqueue(owned(
            webhook_delivery(hanging, Webhook{dead[i % 10]->url("/hook"), WebhookFormat::json},
                             an_event(), results.callback("dead")),
            "player:666"))
            ? 1
            : 0;
  }
  EXPECT_EQ(attacker_accepted, 20);
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(notifier.enqueue(
        owned(webhook_delivery(hooks({2s, 10s}), Webhook{healthy.url("/hook"), WebhookFormat::json},
                               an_event(), results.callback("healthy")),
              "player:1")))
        << "honest delivery " << i << " refused";
  }
  ASSERT_TRUE(results.wait_for_count(10, 20s));
  EXPECT_EQ(results.count("healthy"), 10u);
  EXPECT_EQ(results.count("dead"), 0u);  // all delivered while every dead one still hangs
  EXPECT_EQ(results.get("healthy").outcome, Outcome::delivered);
  EXPECT_EQ(healthy.requests().size(), 10u);
  const NotifierStats stats = notifier.stats();
  EXPECT_EQ(stats.in_flight, 4);  // his slots, not more
  EXPECT_EQ(stats[Channel::webhook].dropped_owner_budget, 80);
  EXPECT_EQ(stats[Channel::webhook].dropped_queue_full, 0);
  notifier.shutdown(0ms);
  EXPECT_EQ(results.count("dead"), 20u);
}

// A full channel does not refuse another channel's deliveries.
TEST(NotifierBudgets, EachChannelHasItsOwnPlaces) {
  Blackhole dead;
  NotifierOptions options;
  options.queue_capacity = 3;
  options.max_in_flight = 1;
  options.shutdown_grace = 0ms;
  Notifier notifier(options);
  const auto hanging = hooks({2s, 60s});
  for (int i = 0; i < 10; ++i) {
    notifier.enqueue(
        webhook_delivery(hanging, Webhook{dead.url("/hook"), WebhookFormat::json}, an_event()));
  }
  EXPECT_GT(notifier.stats()[Channel::webhook].dropped_queue_full, 0);
  auto smtp = std::make_shared<SmtpSettings>();
  smtp->url = "smtp://127.0.0.1:" + std::to_string(dead.port());
  smtp->start_tls = StartTls::off;
  smtp->from = {"turns@viktory.example.org", ""};
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(
        notifier.enqueue(email_delivery(smtp, EmailMessage{{"a@example.org", ""}, "s", "t"})));
  }
  EXPECT_EQ(notifier.stats()[Channel::email].dropped, 0);
}

// Turn mails fill the e-mail channel; two account mails (address confirmations) still get in,
// through the reserve, and are sent before every turn mail that waited when they came.
TEST(NotifierBudgets, AccountMailsAreNeverDroppedOrQueuedBehindTurnMails) {
  SmtpSink sink{SmtpSinkOptions{}};
  Blackhole dead;
  NotifierOptions options;
  options.queue_capacity = 3;
  options.max_in_flight = 1;
  options.max_attempts = 1;
  options.shutdown_grace = 0ms;
  Notifier notifier(options);
  // The only transfer slot hangs for a second, so everything below is queued before anything
  // starts: the order of arrival at the sink is the order the notifier chose.
  ASSERT_TRUE(notifier.enqueue(webhook_delivery(
      hooks({1s, 1s}), Webhook{dead.url("/hook"), WebhookFormat::json}, an_event())));
  const auto started = std::chrono::steady_clock::now();
  while (notifier.stats().in_flight == 0 && std::chrono::steady_clock::now() - started < 10s) {
    std::this_thread::sleep_for(1ms);
  }
  ASSERT_EQ(notifier.stats().in_flight, 1);

  auto smtp = std::make_shared<SmtpSettings>();
  smtp->url = "smtp://127.0.0.1:" + std::to_string(sink.port());
  smtp->start_tls = StartTls::off;
  smtp->from = {"turns@viktory.example.org", "VIKTORY II"};
  int turn_mails = 0;
  for (int i = 0; i < 6; ++i) {
    EmailMessage mail{{"player" + std::to_string(i) + "@example.org", ""}, "Your turn", "turn"};
    turn_mails +=
        notifier.enqueue(owned(email_delivery(smtp, mail), "player:" + std::to_string(i))) ? 1 : 0;
  }
  EXPECT_EQ(turn_mails, 3);  // the channel's places
  for (const char* to : {"new1@example.org", "new2@example.org"}) {
    Delivery account = email_delivery(smtp, EmailMessage{{to, ""}, "Confirm", "confirm"});
    account.priority = true;
    account.owner = std::string("mail:") + to;
    ASSERT_TRUE(notifier.enqueue(std::move(account))) << to;
  }
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  while (sink.mails().size() < 5 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(10ms);
  }
  const auto mails = sink.mails();
  ASSERT_EQ(mails.size(), 5u);
  const auto to = [&](std::size_t i) { return mails[i].recipients.at(0); };
  EXPECT_EQ(to(0), "TO:<new1@example.org>");
  EXPECT_EQ(to(1), "TO:<new2@example.org>");
  for (std::size_t i = 2; i < mails.size(); ++i) {
    EXPECT_EQ(to(i).rfind("TO:<player", 0), 0u) << to(i);
  }
  EXPECT_EQ(notifier.stats()[Channel::email].dropped_queue_full, 3);
}

TEST(NotifierBudgets, DropsPerReasonInTheMetrics) {
  Blackhole dead;
  NotifierOptions options;
  options.max_pending_per_owner = 1;
  options.shutdown_grace = 0ms;
  Notifier notifier(options);
  const auto hanging = hooks({2s, 60s});
  for (int i = 0; i < 3; ++i) {
    notifier.enqueue(owned(
        webhook_delivery(hanging, Webhook{dead.url("/hook"), WebhookFormat::json}, an_event()),
        "player:9"));
  }
  const std::string metrics = notifier.render_metrics();
  EXPECT_NE(
      metrics.find("viktory_notify_dropped_total{channel=\"webhook\",reason=\"owner_budget\"} 2\n"),
      std::string::npos)
      << metrics;
  EXPECT_NE(
      metrics.find("viktory_notify_dropped_total{channel=\"webhook\",reason=\"queue_full\"} 0\n"),
      std::string::npos);
}

}  // namespace
}  // namespace viktory::notify
