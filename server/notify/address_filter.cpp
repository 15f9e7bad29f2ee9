#include "address_filter.h"

#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdint>
#include <cstring>
#include <initializer_list>

namespace viktory::notify {
namespace {

// The IANA IPv4 Special-Purpose Address Registry, every block that is not globally reachable
// (and the old 6to4 relay anycast block), plus multicast and the reserved 240/4.
bool is_public_ipv4(std::uint32_t address) {  // host byte order
  auto in = [address](std::uint32_t network, int prefix) {
    const std::uint32_t mask = prefix == 0 ? 0 : ~std::uint32_t{0} << (32 - prefix);
    return (address & mask) == network;
  };
  return !(in(0x00000000, 8) ||   // 0/8 "this network"
           in(0x0a000000, 8) ||   // 10/8 private
           in(0x64400000, 10) ||  // 100.64/10 shared (carrier-grade NAT)
           in(0x7f000000, 8) ||   // 127/8 loopback
           in(0xa9fe0000, 16) ||  // 169.254/16 link-local, cloud metadata services
           in(0xac100000, 12) ||  // 172.16/12 private
           in(0xc0000000, 24) ||  // 192.0.0/24 IETF protocol assignments (DS-Lite, NAT64 ...)
           in(0xc0000200, 24) ||  // 192.0.2/24 TEST-NET-1
           in(0xc0586300, 24) ||  // 192.88.99/24 6to4 relay anycast (deprecated, RFC 7526)
           in(0xc0a80000, 16) ||  // 192.168/16 private
           in(0xc6120000, 15) ||  // 198.18/15 benchmarking
           in(0xc6336400, 24) ||  // 198.51.100/24 TEST-NET-2
           in(0xcb007100, 24) ||  // 203.0.113/24 TEST-NET-3
           in(0xe0000000, 4) ||   // 224/4 multicast
           in(0xf0000000, 4));    // 240/4 reserved, 255.255.255.255 broadcast
}

bool starts_with(const std::uint8_t* b, std::initializer_list<std::uint8_t> bytes, int bits) {
  int i = 0;
  for (std::uint8_t expected : bytes) {
    const int left = bits - 8 * i;
    if (left <= 0) break;
    const std::uint8_t mask = left >= 8 ? 0xff : static_cast<std::uint8_t>(0xff << (8 - left));
    if ((b[i] & mask) != (expected & mask)) return false;
    ++i;
  }
  return true;
}

}  // namespace

bool is_public_address(const sockaddr* address) {
  if (address == nullptr) return false;
  if (address->sa_family == AF_INET) {
    sockaddr_in v4;
    std::memcpy(&v4, address, sizeof v4);
    return is_public_ipv4(ntohl(v4.sin_addr.s_addr));
  }
  if (address->sa_family != AF_INET6) return false;
  sockaddr_in6 v6;
  std::memcpy(&v6, address, sizeof v6);
  const std::uint8_t* b = v6.sin6_addr.s6_addr;
  auto embedded_v4 = [b](int at) {
    return (std::uint32_t{b[at]} << 24) | (std::uint32_t{b[at + 1]} << 16) |
           (std::uint32_t{b[at + 2]} << 8) | std::uint32_t{b[at + 3]};
  };
  // ::ffff:a.b.c.d (IPv4-mapped) and 64:ff9b::a.b.c.d (NAT64 well-known prefix, what an
  // IPv6-only host uses to reach IPv4 services): the IPv4 address inside decides.
  if (starts_with(b, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff}, 96) ||
      starts_with(b, {0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0}, 96)) {
    return is_public_ipv4(embedded_v4(12));
  }
  // Global unicast is 2000::/3 (the IANA IPv6 Address Space): everything else is reserved,
  // unassigned or special (::/8 with loopback and IPv4-compatible, 64:ff9b:1::/48 local NAT64,
  // 100::/64 discard, 5f00::/16 SRv6, fc00::/7 unique-local, fec0::/10 site-local,
  // fe80::/10 link-local, ff00::/8 multicast).
  if ((b[0] & 0xe0) != 0x20) return false;
  // Inside 2000::/3, the IPv6 Special-Purpose Address Registry's blocks.
  if (starts_with(b, {0x20, 0x01, 0x00}, 23)) return false;  // 2001::/23 IETF protocol
  // assignments: Teredo (2001::/32, an IPv4 address inside), benchmarking, ORCHID, a few
  // anycast services; none of it is a push service or a chat.
  if (starts_with(b, {0x20, 0x01, 0x0d, 0xb8}, 32)) return false;  // 2001:db8::/32 documentation
  if (starts_with(b, {0x3f, 0xff}, 20)) return false;              // 3fff::/20 documentation
  if (starts_with(b, {0x20, 0x02}, 16)) return is_public_ipv4(embedded_v4(2));  // 6to4
  return true;
}

}  // namespace viktory::notify
