// Secrets made by the server: session tokens, invite codes and game seeds, all from the
// operating system's CSPRNG (/dev/urandom). Tokens are stored only as SHA-256 hashes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace viktory::server {

// Fills `out` with `count` bytes from /dev/urandom; throws std::runtime_error if it cannot.
void secure_random_bytes(void* out, std::size_t count);

std::string new_token();        // 256 bits as 64 lower-case hex digits
std::string new_invite_code();  // 128 bits as 32 hex digits
std::uint64_t new_seed();
// SHA-256 (OpenSSL, protocol/sha256.h) of `data`, in lowercase hex: what the database keeps of
// tokens and invite codes. The same bytes as the hand-written SHA-256 the server used before,
// so stored hashes keep working.
std::string sha256_hex(std::string_view data);
// The key of a budget several servers share (rate_limit.h, ChargeSink): 128 bits of the SHA-256
// of what it counts (a client address, an e-mail address), which is never sent as such.
std::string shared_budget_key(std::string_view key);
// What the database keeps of a token: its SHA-256 in hex.
std::string token_hash(std::string_view token);
// A token or invite code has exactly the form we hand out (cheap check before hashing).
bool looks_like_hex_secret(std::string_view s, std::size_t hex_digits);
// The stored hash of the token an "Authorization: Bearer <token>" header carries, when the header
// has that form and the token the form we hand out (64 hex digits); nothing otherwise. Every
// HTTP API reads its bearer through this one function.
std::optional<std::string> bearer_token_hash(std::string_view authorization);

}  // namespace viktory::server
