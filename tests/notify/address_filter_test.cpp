// Endpoints chosen by users may only be public addresses: checked on sockaddrs, and on real
// connections that libcurl makes after resolving the name.
#include "address_filter.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>

#include "support/loopback_server.h"
#include "webhook.h"

namespace viktory::notify {
namespace {

using namespace std::chrono_literals;

bool is_public(const char* text) {
  sockaddr_storage storage{};
  if (std::string_view(text).find(':') != std::string_view::npos) {
    auto* v6 = reinterpret_cast<sockaddr_in6*>(&storage);
    v6->sin6_family = AF_INET6;
    EXPECT_EQ(inet_pton(AF_INET6, text, &v6->sin6_addr), 1) << text;
  } else {
    auto* v4 = reinterpret_cast<sockaddr_in*>(&storage);
    v4->sin_family = AF_INET;
    EXPECT_EQ(inet_pton(AF_INET, text, &v4->sin_addr), 1) << text;
  }
  return is_public_address(reinterpret_cast<const sockaddr*>(&storage));
}

TEST(AddressFilter, PublicUnicastOnly) {
  for (const char* address : {"8.8.8.8", "1.1.1.1", "142.250.74.46", "100.63.255.255", "172.32.0.1",
                              "2a00:1450:4001:82b::200a", "::ffff:8.8.8.8", "2002:0808:0808::1"}) {
    EXPECT_TRUE(is_public(address)) << address;
  }
  for (const char* address :
       {"127.0.0.1",       "127.255.0.9",     "10.1.2.3",          "172.16.0.1", "172.31.255.255",
        "192.168.1.1",     "169.254.169.254", "100.64.0.1",        "0.0.0.0",    "224.0.0.1",
        "255.255.255.255", "192.0.2.7",       "198.18.0.1",        "::1",        "::",
        "fe80::1",         "fd00::1",         "fc00::1",           "ff02::1",    "::ffff:127.0.0.1",
        "::ffff:10.0.0.1", "64:ff9b::a00:1",  "2002:7f00:0001::1", "2001:db8::1"}) {
    EXPECT_FALSE(is_public(address)) << address;
  }
}

// Issue 19: 2001::/32 (Teredo), 64:ff9b:1::/48 (local NAT64) and fec0::/10 (site-local) went
// through. Every block of the IANA IPv4 and IPv6 Special-Purpose Address Registries that is not
// globally reachable, one address at each end of it where the block allows.
TEST(AddressFilter, EveryNonGlobalBlockOfTheIanaSpecialPurposeRegistriesIsRefused) {
  for (const char* address :
       {// IPv4
        "0.255.255.255", "10.255.255.255", "100.127.255.255", "127.0.0.0", "169.254.0.0",
        "172.16.255.1", "192.0.0.0", "192.0.0.8", "192.0.0.170", "192.0.0.171", "192.0.0.255",
        "192.0.2.255", "192.88.99.1", "192.168.255.255", "198.19.255.255", "198.51.100.1",
        "203.0.113.255", "240.0.0.1", "239.255.255.255",
        // IPv6: loopback, unspecified, mapped and IPv4-compatible, local NAT64, discard,
        // dummy prefix, IETF assignments (Teredo, benchmarking, ORCHID), documentation,
        // SRv6, unique-local, site-local, link-local, multicast, outside 2000::/3.
        "::1", "::", "::ffff:192.168.0.1", "::10.0.0.1", "::8.8.8.8", "64:ff9b:1::808:808",
        "64:ff9b:1:ffff::1", "100::1", "100:0:0:1::1", "2001::1", "2001:0:4136:e378::1",
        "2001:1::1", "2001:2::1", "2001:10::1", "2001:1ff:ffff::1", "2001:db8:ffff::1", "3fff::1",
        "3fff:fff:ffff::1", "5f00::1", "fc00::1", "fdff::1", "fec0::1", "feff:ffff::1", "fe80::1",
        "febf::1", "ff0e::1", "4000::1", "1fff:ffff::1", "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe",
        "2002:c0a8:0101::1"}) {
    EXPECT_FALSE(is_public(address)) << address;
  }
  // Global blocks next to them stay reachable.
  for (const char* address :
       {"2001:200::1", "2001:4860:4860::8888", "2620:4f:8000::1", "2c0f:f248::1", "2a00:1450::1",
        "64:ff9b::808:808", "192.0.1.1", "192.88.100.1", "192.31.196.1", "198.20.0.1"}) {
    EXPECT_TRUE(is_public(address)) << address;
  }
}

TEST(AddressFilter, AWebhookToLoopbackIsRefusedBeforeAnyRequest) {
  testing::HttpReceiver receiver;
  EndpointPolicy policy;
  policy.allow_plain_http = true;  // only the address is under test
  const WebhookEvent event{"hello", nlohmann::json::object()};
  for (const std::string host : {"127.0.0.1", "localhost"}) {
    const Webhook hook{"http://" + host + ":" + std::to_string(receiver.port()) + "/hook",
                       WebhookFormat::json};
    const DeliveryResult result = make_webhook_transfer(hook, event, {2s, 5s}, policy)->perform();
    EXPECT_EQ(result.outcome, Outcome::failed) << host << ": " << result.detail;
    EXPECT_EQ(result.detail, "refused: the endpoint is not a public address");
  }
  EXPECT_TRUE(receiver.requests().empty());
  // The same hook with private addresses allowed reaches the receiver: the refusal above was
  // the filter, not a broken receiver.
  policy.allow_private_addresses = true;
  EXPECT_EQ(make_webhook_transfer(Webhook{receiver.url("/hook"), WebhookFormat::json}, event,
                                  {2s, 5s}, policy)
                ->perform()
                .outcome,
            Outcome::delivered);
  EXPECT_EQ(receiver.requests().size(), 1u);
}

}  // namespace
}  // namespace viktory::notify
