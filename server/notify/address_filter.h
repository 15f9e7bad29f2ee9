// Which addresses the server may connect to for endpoints that users chose (push endpoints come
// from browsers, webhook URLs from players): public unicast only, so that nobody can make the
// server POST to its own loopback interface, the local network or a cloud metadata service.
// The check is made on the address actually connected to, after DNS, so a name that resolves
// to 127.0.0.1 is refused as well.
#pragma once

struct sockaddr;

namespace viktory::notify {

// False for loopback, unspecified, private (RFC 1918, fc00::/7), shared (100.64/10), link-local
// (169.254/16, fe80::/10), multicast, reserved (0/8, 240/4, benchmarking, documentation) and for
// IPv4 addresses mapped or embedded in IPv6 that are any of these.
bool is_public_address(const sockaddr* address);

}  // namespace viktory::notify
