// Which addresses the server may connect to for endpoints that users chose (push endpoints come
// from browsers, webhook URLs from players): public unicast only, so that nobody can make the
// server POST to its own loopback interface, the local network or a cloud metadata service.
// The check is made on the address actually connected to, after DNS, so a name that resolves
// to 127.0.0.1 is refused as well.
#pragma once

struct sockaddr;

namespace viktory::notify {

// True only for globally reachable unicast: false for every block of the IANA IPv4 and IPv6
// Special-Purpose Address Registries that is not globally reachable (loopback, private,
// shared, link-local, benchmarking, documentation, IETF protocol assignments, Teredo, local
// NAT64, discard, SRv6), for multicast, for IPv6 outside 2000::/3 (site-local fec0::/10 among
// them) and for IPv4 addresses mapped or embedded in IPv6 (mapped, NAT64, 6to4) that are any of
// these.
bool is_public_address(const sockaddr* address);

}  // namespace viktory::notify
