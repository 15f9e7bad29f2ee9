// Whose address a request has, behind (trusted) reverse proxies.
#include "client_address.h"

#include <gtest/gtest.h>

namespace viktory::server {
namespace {

AddressSet set_of(std::initializer_list<const char*> specs) {
  AddressSet s;
  for (const char* spec : specs) EXPECT_TRUE(s.add(spec)) << spec;
  return s;
}

TEST(AddressSet, AddressesAndRanges) {
  const AddressSet s = set_of({"127.0.0.1", "10.0.0.0/8", "::1", "fd00::/8", "172.16.0.0/12"});
  EXPECT_TRUE(s.contains("127.0.0.1"));
  EXPECT_TRUE(s.contains("::ffff:127.0.0.1"));  // IPv4-mapped, as a dual-stack socket says
  EXPECT_FALSE(s.contains("127.0.0.2"));
  EXPECT_TRUE(s.contains("10.200.3.4"));
  EXPECT_TRUE(s.contains("172.31.255.255"));
  EXPECT_FALSE(s.contains("172.32.0.1"));
  EXPECT_TRUE(s.contains("::1"));
  EXPECT_TRUE(s.contains("fd12:3456::1"));
  EXPECT_FALSE(s.contains("fe80::1"));
  EXPECT_FALSE(s.contains("not an address"));
  AddressSet bad;
  for (const char* spec :
       {"", "10.0.0.0/33", "::/129", "10.0.0.0/", "example.org", "1.2.3", "10.0.0.0/8x"}) {
    EXPECT_FALSE(bad.add(spec)) << spec;
  }
  EXPECT_TRUE(bad.empty());
}

TEST(CanonicalAddress, WithPortsBracketsAndMappedForms) {
  EXPECT_EQ(canonical_address("1.2.3.4"), "1.2.3.4");
  EXPECT_EQ(canonical_address(" 1.2.3.4:5678 "), "1.2.3.4");
  EXPECT_EQ(canonical_address("[2001:db8::17]:4711"), "2001:db8::17");
  EXPECT_EQ(canonical_address("2001:0db8:0000::0017"), "2001:db8::17");
  EXPECT_EQ(canonical_address("::ffff:10.0.0.1"), "10.0.0.1");
  EXPECT_FALSE(canonical_address("unknown"));
  EXPECT_FALSE(canonical_address("_hidden"));
}

TEST(ClientAddress, HeadersAreIgnoredUnlessThePeerIsATrustedProxy) {
  const AddressSet none;
  EXPECT_EQ(client_address("203.0.113.9", "198.51.100.1", "", none), "203.0.113.9");
  const AddressSet proxies = set_of({"127.0.0.1"});
  EXPECT_EQ(client_address("203.0.113.9", "198.51.100.1", "", proxies), "203.0.113.9");
  EXPECT_EQ(client_address("127.0.0.1", "198.51.100.1", "", proxies), "198.51.100.1");
  EXPECT_EQ(client_address("::ffff:127.0.0.1", "198.51.100.1", "", proxies), "198.51.100.1");
  // No header from the proxy: the proxy's own address.
  EXPECT_EQ(client_address("127.0.0.1", "", "", proxies), "127.0.0.1");
}

TEST(ClientAddress, ASpoofedLeftPartOfTheChainIsNotBelieved) {
  const AddressSet proxies = set_of({"127.0.0.1", "10.0.0.0/8"});
  // The client wrote "1.1.1.1"; the proxy appended the address it saw.
  EXPECT_EQ(client_address("127.0.0.1", "1.1.1.1, 198.51.100.7", "", proxies), "198.51.100.7");
  // Two trusted proxies in a row: the first untrusted address from the right.
  EXPECT_EQ(client_address("127.0.0.1", "1.1.1.1, 198.51.100.7, 10.0.0.5", "", proxies),
            "198.51.100.7");
  // Garbage where an address should be stops the walk at the last hop that could be named.
  EXPECT_EQ(client_address("127.0.0.1", "198.51.100.7, unknown", "", proxies), "127.0.0.1");
  // Only proxies: the left-most of them.
  EXPECT_EQ(client_address("127.0.0.1", "10.0.0.9, 10.0.0.5", "", proxies), "10.0.0.9");
}

TEST(ClientAddress, ForwardedHeaderOfRfc7239) {
  const AddressSet proxies = set_of({"127.0.0.1"});
  EXPECT_EQ(client_address("127.0.0.1", "", "for=192.0.2.60;proto=http;by=203.0.113.43", proxies),
            "192.0.2.60");
  EXPECT_EQ(
      client_address("127.0.0.1", "", R"(for=1.1.1.1, For="[2001:db8:cafe::17]:4711")", proxies),
      "2001:db8:cafe::17");
  EXPECT_EQ(client_address("127.0.0.1", "", "for=_hidden", proxies), "127.0.0.1");
  // X-Forwarded-For wins when both are there (Caddy and nginx write it).
  EXPECT_EQ(client_address("127.0.0.1", "198.51.100.2", "for=192.0.2.60", proxies), "198.51.100.2");
}

}  // namespace
}  // namespace viktory::server
