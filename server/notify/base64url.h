// Base64 (RFC 4648) in its URL-safe form without padding, as Web Push and JWTs use it, plus the
// standard alphabet with padding that MIME (RFC 2045/2047) and SASL need.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace viktory::notify {

using Bytes = std::vector<std::uint8_t>;

Bytes to_bytes(std::string_view text);
std::string to_string(const Bytes& bytes);

// '-' and '_', no '=' padding.
std::string base64url_encode(const std::uint8_t* data, std::size_t size);
std::string base64url_encode(const Bytes& bytes);
std::string base64url_encode(std::string_view text);
// Accepts both alphabets and optional padding (browsers and tools differ); nullopt on any other
// character or an impossible length.
std::optional<Bytes> base64url_decode(std::string_view text);

// '+' and '/', '=' padding.
std::string base64_encode(std::string_view data);

}  // namespace viktory::notify
