// Web Push end to end against a real push service on loopback: web-push-testing (npm, installed
// by scripts/test.sh with `npm ci` in tests/notify/push-service) verifies the VAPID JWT with the
// subscription's applicationServerKey, decrypts the aes128gcm body with the subscription's
// private key and gives the plaintext back. Status codes it never sends (404, 429, 5xx) come
// from an HTTP stub.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "deliveries.h"
#include "notification_text.h"
#include "support/loopback_server.h"
#include "support/results.h"

#ifndef VIKTORY_PUSH_SERVICE_DIR
#error "VIKTORY_PUSH_SERVICE_DIR must name tests/notify/push-service"
#endif

namespace viktory::notify {
namespace {

using namespace std::chrono_literals;
using testing::ChildProcess;
using testing::HttpReceiver;
using testing::post_json;
using testing::Reply;
using testing::Results;

class PushService : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::filesystem::path dir = VIKTORY_PUSH_SERVICE_DIR;
    if (!std::filesystem::exists(dir / "node_modules" / "web-push-testing")) {
      setup_error_ = "the local push service is not installed: run `npm ci` in " + dir.string() +
                     " (scripts/test.sh does)";
      return;
    }
    process_ = new ChildProcess({"node", "start.js"}, dir.string());
    const auto output = process_->wait_for_output("\n", 30s);
    if (!output || output->find("listening ") == std::string::npos) {
      setup_error_ = "push service did not start: " + process_->output();
      return;
    }
    port_ = std::stoi(output->substr(output->find("listening ") + 10));
  }
  static void TearDownTestSuite() {
    delete process_;
    process_ = nullptr;
  }
  void SetUp() override { ASSERT_TRUE(setup_error_.empty()) << setup_error_; }

  static std::string service_url(const std::string& path) {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }

  struct Subscribed {
    PushSubscription subscription;
    std::string client_hash;
  };
  static Subscribed subscribe(const VapidKeys& keys) {
    const auto [status, body] =
        post_json(service_url("/subscribe"),
                  nlohmann::json{{"applicationServerKey", keys.public_key_base64url()}}.dump());
    EXPECT_EQ(status, 200) << body;
    const auto data = nlohmann::json::parse(body)["data"];
    // The same JSON a browser's PushSubscription.toJSON() gives.
    return {parse_push_subscription(data.dump()), data["clientHash"].get<std::string>()};
  }
  static std::vector<std::string> received(const std::string& client_hash) {
    const auto [status, body] = post_json(service_url("/get-notifications"),
                                          nlohmann::json{{"clientHash", client_hash}}.dump());
    EXPECT_EQ(status, 200) << body;
    return nlohmann::json::parse(body)["data"]["messages"].get<std::vector<std::string>>();
  }
  static WebPushSettings settings(const VapidKeys& keys) {
    WebPushSettings result{
        keys, "mailto:admin@viktory.example.org", {}, EndpointPolicy::local_testing()};
    result.timeouts = {2s, 10s};
    return result;
  }
  static PushMessage turn_message() {
    GameEvent event;
    event.game_id = 12;
    event.round = 3;
    event.player = "Jürgen";
    event.game_url = "https://viktory.example.org/game/12";
    return PushMessage{push_payload(event), 3600s, Urgency::high, push_topic_for(event)};
  }

  static inline ChildProcess* process_ = nullptr;
  static inline int port_ = 0;
  static inline std::string setup_error_;
};

TEST_F(PushService, AcceptsTheVapidJwtAndDecryptsThePayload) {
  const VapidKeys keys = VapidKeys::generate();
  const auto [subscription, client_hash] = subscribe(keys);
  const PushMessage message = turn_message();
  const DeliveryResult result =
      make_push_transfer(settings(keys), subscription, message, std::chrono::system_clock::now())
          ->perform();
  EXPECT_EQ(result.outcome, Outcome::delivered) << result.detail;
  EXPECT_EQ(result.status, 201);
  EXPECT_EQ(received(client_hash), std::vector<std::string>{message.payload});
}

TEST_F(PushService, AKeyStoredAsTextAndLoadedAgainStillSigns) {
  const VapidKeys original = VapidKeys::generate();
  const auto [subscription, client_hash] = subscribe(original);
  const VapidKeys reloaded = VapidKeys::from_text(original.to_text());
  const PushMessage message = turn_message();
  EXPECT_EQ(make_push_transfer(settings(reloaded), subscription, message,
                               std::chrono::system_clock::now())
                ->perform()
                .outcome,
            Outcome::delivered);
  EXPECT_EQ(received(client_hash).size(), 1u);
}

TEST_F(PushService, RejectsAJwtSignedWithAnotherKey) {
  const auto [subscription, client_hash] = subscribe(VapidKeys::generate());
  const DeliveryResult result = make_push_transfer(settings(VapidKeys::generate()), subscription,
                                                   turn_message(), std::chrono::system_clock::now())
                                    ->perform();
  EXPECT_EQ(result.outcome, Outcome::failed);
  EXPECT_EQ(result.status, 400);
  EXPECT_TRUE(received(client_hash).empty());
}

TEST_F(PushService, AnExpiredSubscriptionIsGone) {
  const VapidKeys keys = VapidKeys::generate();
  const auto [subscription, client_hash] = subscribe(keys);
  EXPECT_EQ(post_json(service_url("/expire-subscription/" + client_hash), "{}").first, 200);
  const DeliveryResult result = make_push_transfer(settings(keys), subscription, turn_message(),
                                                   std::chrono::system_clock::now())
                                    ->perform();
  EXPECT_EQ(result.outcome, Outcome::gone);
  EXPECT_EQ(result.status, 410);
}

TEST_F(PushService, ThroughTheNotifierEachSubscriberGetsHisMessage) {
  const VapidKeys keys = VapidKeys::generate();
  auto shared = std::make_shared<const WebPushSettings>(settings(keys));
  Notifier notifier(NotifierOptions{});
  Results results;
  std::vector<std::pair<std::string, std::string>> sent;  // client hash, payload
  for (int i = 0; i < 5; ++i) {
    const auto [subscription, client_hash] = subscribe(keys);
    GameEvent event;
    event.game_id = 100 + i;
    event.round = i + 1;
    PushMessage message{push_payload(event), 60s, Urgency::normal, push_topic_for(event)};
    sent.emplace_back(client_hash, message.payload);
    ASSERT_TRUE(notifier.enqueue(
        push_delivery(shared, subscription, message, results.callback(std::to_string(i)))));
  }
  ASSERT_TRUE(results.wait_for_count(5, 30s));
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(results.get(std::to_string(i)).outcome, Outcome::delivered);
    EXPECT_EQ(received(sent[i].first), std::vector<std::string>{sent[i].second});
  }
  EXPECT_EQ(notifier.stats()[Channel::push].delivered, 5);
}

// The request itself, as a push service sees it.
TEST(PushRequest, CarriesTheRfc8030HeadersAndABodyOnlyTheSubscriberReads) {
  HttpReceiver stub;
  const VapidKeys keys = VapidKeys::generate();
  const EcKey browser = EcKey::generate();
  const Bytes auth = random_bytes(16);
  const PushSubscription subscription{
      stub.url("/push/abc"), base64url_encode(browser.public_point()), base64url_encode(auth)};
  const PushMessage message{"{\"title\":\"Your turn\"}", 900s, Urgency::high, "game-12"};
  WebPushSettings settings{keys, "mailto:admin@example.org", {}, EndpointPolicy::local_testing()};
  const auto result =
      make_push_transfer(settings, subscription, message, std::chrono::system_clock::now())
          ->perform();
  EXPECT_EQ(result.outcome, Outcome::delivered);
  ASSERT_EQ(stub.requests().size(), 1u);
  const auto request = stub.requests().front();
  EXPECT_EQ(request.method, "POST");
  EXPECT_EQ(request.target, "/push/abc");
  EXPECT_EQ(request.headers.at("content-encoding"), "aes128gcm");
  EXPECT_EQ(request.headers.at("content-type"), "application/octet-stream");
  EXPECT_EQ(request.headers.at("ttl"), "900");
  EXPECT_EQ(request.headers.at("urgency"), "high");
  EXPECT_EQ(request.headers.at("topic"), "game-12");
  EXPECT_TRUE(request.headers.at("authorization").starts_with("vapid t="));
  EXPECT_NE(request.headers.at("authorization").find(", k=" + keys.public_key_base64url()),
            std::string::npos);
  EXPECT_EQ(request.body.find("Your turn"), std::string::npos);
  EXPECT_EQ(decrypt_push_message(to_bytes(request.body), browser, auth), to_bytes(message.payload));
}

PushMessage payload_only(std::string payload) {
  PushMessage message;
  message.payload = std::move(payload);
  return message;
}

TEST(PushRequest, NotFoundIsGoneAndBadInputFailsBeforeAnyRequest) {
  HttpReceiver stub([](const testing::ReceivedRequest&) { return Reply{404, {}, ""}; });
  const EcKey browser = EcKey::generate();
  PushSubscription subscription{stub.url("/push/x"), base64url_encode(browser.public_point()),
                                base64url_encode(random_bytes(16))};
  WebPushSettings settings{
      VapidKeys::generate(), "mailto:a@example.org", {}, EndpointPolicy::local_testing()};
  const auto now = std::chrono::system_clock::now();
  EXPECT_EQ(make_push_transfer(settings, subscription, payload_only("{}"), now)->perform().outcome,
            Outcome::gone);
  EXPECT_THROW(
      make_push_transfer(settings, subscription, payload_only(std::string(4000, 'x')), now),
      std::invalid_argument);
  EXPECT_THROW(make_push_transfer(settings, subscription,
                                  PushMessage{"{}", 60s, Urgency::low, "not a topic!"}, now),
               std::invalid_argument);
  settings.endpoints.allow_plain_http = false;
  EXPECT_THROW(make_push_transfer(settings, subscription, payload_only("{}"), now),
               std::invalid_argument);
  EXPECT_EQ(stub.requests().size(), 1u);
}

// A push service that is overloaded answers 503 or 429: the notifier tries again (after the
// Retry-After it was given) with a freshly encrypted and signed request, until it is taken.
TEST(PushRequest, ServerErrorsAndTooManyRequestsAreRetried) {
  auto replies = std::make_shared<std::vector<Reply>>(
      std::vector<Reply>{Reply{503, {}, ""}, Reply{429, {{"Retry-After", "1"}}, ""}});
  auto mutex = std::make_shared<std::mutex>();
  HttpReceiver stub([replies, mutex](const testing::ReceivedRequest&) {
    std::lock_guard lock(*mutex);
    if (replies->empty()) return Reply{201, {}, ""};
    Reply reply = replies->front();
    replies->erase(replies->begin());
    return reply;
  });
  const EcKey browser = EcKey::generate();
  const Bytes auth = random_bytes(16);
  const PushSubscription subscription{
      stub.url("/push/retry"), base64url_encode(browser.public_point()), base64url_encode(auth)};
  auto settings = std::make_shared<const WebPushSettings>(WebPushSettings{
      VapidKeys::generate(), "mailto:a@example.org", {}, EndpointPolicy::local_testing()});
  NotifierOptions options;
  options.initial_backoff = 10ms;
  Notifier notifier(options);
  Results results;
  ASSERT_TRUE(notifier.enqueue(
      push_delivery(settings, subscription, payload_only("{\"n\":1}"), results.callback("push"))));
  ASSERT_TRUE(results.wait_for("push", 20s));
  EXPECT_EQ(results.get("push").outcome, Outcome::delivered);
  EXPECT_EQ(results.get("push").status, 201);
  const auto requests = stub.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_GE(requests[2].at - requests[1].at, 1s);  // Retry-After: 1
  EXPECT_NE(requests[0].body, requests[1].body);   // new salt and key each attempt
  for (const auto& request : requests) {
    EXPECT_EQ(decrypt_push_message(to_bytes(request.body), browser, auth), to_bytes("{\"n\":1}"));
  }
  const ChannelStats stats = notifier.stats()[Channel::push];
  EXPECT_EQ(stats.attempts, 3);
  EXPECT_EQ(stats.retries, 2);
  EXPECT_EQ(stats.delivered, 1);
}

}  // namespace
}  // namespace viktory::notify
