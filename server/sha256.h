// SHA-256 (FIPS 180-4), small and dependency-free: the server stores only hashes of tokens.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace viktory::server {

using Sha256Digest = std::array<std::uint8_t, 32>;

Sha256Digest sha256(std::string_view data);
std::string sha256_hex(std::string_view data);
std::string to_hex(const std::uint8_t* bytes, std::size_t count);

}  // namespace viktory::server
