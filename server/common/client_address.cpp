#include "client_address.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cstring>

namespace viktory::server {
namespace {

using Bytes = std::array<std::uint8_t, 16>;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Parses a bare address into IPv6 form (IPv4 mapped); sets `v4` for IPv4 (also mapped ones).
std::optional<Bytes> parse_bare(std::string_view text, bool& v4) {
  if (text.empty() || text.size() > 64) return std::nullopt;
  const std::string z(text);
  Bytes out{};
  in_addr a4{};
  if (inet_pton(AF_INET, z.c_str(), &a4) == 1) {
    out[10] = 0xff;
    out[11] = 0xff;
    std::memcpy(out.data() + 12, &a4, 4);
    v4 = true;
    return out;
  }
  in6_addr a6{};
  if (inet_pton(AF_INET6, z.c_str(), &a6) == 1) {
    std::memcpy(out.data(), &a6, 16);
    static constexpr std::uint8_t kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    v4 = std::equal(std::begin(kMapped), std::end(kMapped), out.begin());
    return out;
  }
  return std::nullopt;
}

// Also accepts "[v6]", "[v6]:port" and "v4:port".
std::optional<Bytes> parse_address(std::string_view text, bool& v4) {
  text = trim(text);
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    return parse_bare(text.substr(1, close - 1), v4);
  }
  if (auto bare = parse_bare(text, v4)) return bare;
  const auto colon = text.find(':');
  if (colon != std::string_view::npos && text.find(':', colon + 1) == std::string_view::npos) {
    auto host = parse_bare(text.substr(0, colon), v4);
    if (host && v4) return host;
  }
  return std::nullopt;
}

std::string to_text(const Bytes& b, bool v4) {
  char buf[INET6_ADDRSTRLEN] = {};
  if (v4) {
    inet_ntop(AF_INET, b.data() + 12, buf, sizeof buf);
  } else {
    inet_ntop(AF_INET6, b.data(), buf, sizeof buf);
  }
  return buf;
}

// The forwarding chain, left (the first client) to right (the last proxy before us).
std::vector<std::string_view> xff_entries(std::string_view header) {
  std::vector<std::string_view> out;
  while (!header.empty()) {
    const auto comma = header.find(',');
    const std::string_view part = trim(header.substr(0, comma));
    if (!part.empty()) out.push_back(part);
    if (comma == std::string_view::npos) break;
    header.remove_prefix(comma + 1);
  }
  return out;
}

// RFC 7239: elements separated by commas, pairs by semicolons; the value of "for", unquoted.
std::vector<std::string_view> forwarded_entries(std::string_view header) {
  std::vector<std::string_view> out;
  for (std::string_view element : xff_entries(header)) {
    while (!element.empty()) {
      const auto semi = element.find(';');
      std::string_view pair = trim(element.substr(0, semi));
      const auto eq = pair.find('=');
      if (eq != std::string_view::npos) {
        std::string key(trim(pair.substr(0, eq)));
        std::transform(key.begin(), key.end(), key.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        std::string_view value = trim(pair.substr(eq + 1));
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
          value = value.substr(1, value.size() - 2);
        }
        if (key == "for") out.push_back(value);
      }
      if (semi == std::string_view::npos) break;
      element.remove_prefix(semi + 1);
    }
  }
  return out;
}

bool in_range(const Bytes& a, const Bytes& base, int prefix) {
  for (int bit = 0; bit < prefix; ++bit) {
    const int byte = bit / 8;
    const int mask = 0x80 >> (bit % 8);
    if ((a[static_cast<std::size_t>(byte)] & mask) !=
        (base[static_cast<std::size_t>(byte)] & mask)) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool AddressSet::add(std::string_view spec) {
  spec = trim(spec);
  const auto slash = spec.find('/');
  bool v4 = false;
  auto bytes = parse_bare(spec.substr(0, slash), v4);
  if (!bytes) return false;
  int prefix = 128;
  if (slash != std::string_view::npos) {
    const std::string_view digits = spec.substr(slash + 1);
    if (digits.empty() || digits.size() > 3) return false;
    int bits = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') return false;
      bits = bits * 10 + (c - '0');
    }
    if (bits > (v4 ? 32 : 128)) return false;
    prefix = v4 ? 96 + bits : bits;
  }
  ranges_.push_back(Range{*bytes, prefix});
  return true;
}

bool AddressSet::contains(std::string_view address) const {
  bool v4 = false;
  auto bytes = parse_address(address, v4);
  if (!bytes) return false;
  return std::any_of(ranges_.begin(), ranges_.end(),
                     [&](const Range& r) { return in_range(*bytes, r.bytes, r.prefix); });
}

std::optional<std::string> canonical_address(std::string_view text) {
  bool v4 = false;
  auto bytes = parse_address(text, v4);
  if (!bytes) return std::nullopt;
  return to_text(*bytes, v4);
}

std::string client_address(std::string_view peer, std::string_view x_forwarded_for,
                           std::string_view forwarded, const AddressSet& trusted) {
  std::string client = canonical_address(peer).value_or(std::string(peer));
  if (trusted.empty() || !trusted.contains(client)) return client;
  const std::vector<std::string_view> chain =
      !trim(x_forwarded_for).empty() ? xff_entries(x_forwarded_for) : forwarded_entries(forwarded);
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    auto address = canonical_address(*it);
    // Something that is no address ("unknown", an obfuscated name, garbage) ends the walk: we
    // stay with the last hop we could name.
    if (!address) break;
    client = *address;
    if (!trusted.contains(client)) break;
  }
  return client;
}

}  // namespace viktory::server
