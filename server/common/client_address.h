// Who a request comes from. Behind a reverse proxy every connection comes from the proxy, so
// the per-address limits (connections, sign-ups, replays, expensive requests) would be shared
// by everyone; the proxy names the real client in X-Forwarded-For or Forwarded. Those headers
// are believed only from configured proxies: anyone else could write anything in them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace viktory::server {

// IP addresses and CIDR ranges, IPv4 and IPv6.
class AddressSet {
 public:
  // "127.0.0.1", "::1", "10.0.0.0/8", "fd00::/8"; false (and nothing added) for anything else.
  bool add(std::string_view spec);
  bool contains(std::string_view address) const;  // false for text that is no address
  bool empty() const { return ranges_.empty(); }

 private:
  struct Range {
    std::array<std::uint8_t, 16> bytes{};  // IPv4 as IPv4-mapped IPv6
    int prefix = 128;
  };
  std::vector<Range> ranges_;
};

// The canonical text of an address ("::ffff:1.2.3.4" -> "1.2.3.4", IPv6 compressed), also
// with a port or IPv6 brackets around it ("1.2.3.4:80", "[::1]:443"); nothing for other text.
std::optional<std::string> canonical_address(std::string_view text);

// The client's address: `peer` unless `peer` is a trusted proxy; then, walking the forwarding
// chain (X-Forwarded-For, or RFC 7239 Forwarded "for=" when there is none) from the right, the
// first address that is not itself a trusted proxy. Entries left of it were written by the
// client and are not believed.
std::string client_address(std::string_view peer, std::string_view x_forwarded_for,
                           std::string_view forwarded, const AddressSet& trusted);

}  // namespace viktory::server
