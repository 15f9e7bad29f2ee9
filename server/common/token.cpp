#include "token.h"

#include <array>
#include <cstdio>
#include <stdexcept>

#include "fair.h"
#include "sha256.h"

namespace viktory::server {

void secure_random_bytes(void* out, std::size_t count) {
  // /dev/urandom never blocks once the kernel pool is initialised and is a CSPRNG on Linux.
  std::FILE* f = std::fopen("/dev/urandom", "rb");
  if (f == nullptr) throw std::runtime_error("cannot open /dev/urandom");
  const std::size_t got = std::fread(out, 1, count, f);
  std::fclose(f);
  if (got != count) throw std::runtime_error("short read from /dev/urandom");
}

namespace {
template <std::size_t N>
std::string random_hex() {
  std::array<std::uint8_t, N> bytes{};
  secure_random_bytes(bytes.data(), bytes.size());
  return protocol::fair::to_hex(bytes);
}
}  // namespace

std::string new_token() { return random_hex<32>(); }
std::string new_invite_code() { return random_hex<16>(); }

std::uint64_t new_seed() {
  std::uint64_t seed = 0;
  secure_random_bytes(&seed, sizeof seed);
  return seed;
}

std::string sha256_hex(std::string_view data) {
  return protocol::fair::to_hex(protocol::sha256(protocol::as_bytes(data)));
}

std::string token_hash(std::string_view token) { return sha256_hex(token); }

std::string shared_budget_key(std::string_view key) { return sha256_hex(key).substr(0, 32); }

bool looks_like_hex_secret(std::string_view s, std::size_t hex_digits) {
  if (s.size() != hex_digits) return false;
  for (char c : s) {
    const bool digit = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    if (!digit) return false;
  }
  return true;
}

std::optional<std::string> bearer_token_hash(std::string_view authorization) {
  constexpr std::string_view kPrefix = "Bearer ";
  if (authorization.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  const std::string_view token = authorization.substr(kPrefix.size());
  if (!looks_like_hex_secret(token, 64)) return std::nullopt;
  return token_hash(token);
}

}  // namespace viktory::server
