#include "address_filter.h"

#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdint>
#include <cstring>

namespace viktory::notify {
namespace {

bool is_public_ipv4(std::uint32_t address) {  // host byte order
  auto in = [address](std::uint32_t network, int prefix) {
    const std::uint32_t mask = prefix == 0 ? 0 : ~std::uint32_t{0} << (32 - prefix);
    return (address & mask) == network;
  };
  return !(in(0x00000000, 8) ||   // "this network"
           in(0x0a000000, 8) ||   // 10/8
           in(0x64400000, 10) ||  // 100.64/10, carrier-grade NAT
           in(0x7f000000, 8) ||   // loopback
           in(0xa9fe0000, 16) ||  // link-local, cloud metadata services
           in(0xac100000, 12) ||  // 172.16/12
           in(0xc0000000, 24) ||  // IETF protocol assignments
           in(0xc0000200, 24) ||  // TEST-NET-1
           in(0xc0a80000, 16) ||  // 192.168/16
           in(0xc6120000, 15) ||  // benchmarking
           in(0xc6336400, 24) ||  // TEST-NET-2
           in(0xcb007100, 24) ||  // TEST-NET-3
           in(0xe0000000, 4) ||   // multicast
           in(0xf0000000, 4));    // reserved, broadcast
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
  bool zero_prefix_96 = true;  // ::/96: unspecified, loopback, IPv4-compatible
  for (int i = 0; i < 12; ++i) zero_prefix_96 = zero_prefix_96 && b[i] == 0;
  if (zero_prefix_96) return false;
  bool mapped = b[10] == 0xff && b[11] == 0xff;  // ::ffff:a.b.c.d
  for (int i = 0; i < 10; ++i) mapped = mapped && b[i] == 0;
  if (mapped) return is_public_ipv4(embedded_v4(12));
  if (b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b) {  // 64:ff9b::/96 NAT64
    return is_public_ipv4(embedded_v4(12));
  }
  if (b[0] == 0x20 && b[1] == 0x02) return is_public_ipv4(embedded_v4(2));         // 6to4
  if ((b[0] & 0xfe) == 0xfc) return false;                                         // fc00::/7
  if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) return false;                         // fe80::/10
  if (b[0] == 0xff) return false;                                                  // multicast
  if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8) return false;  // docs
  return true;
}

}  // namespace viktory::notify
