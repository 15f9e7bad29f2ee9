// The fair-play scheme (docs/fair-play.md): the server's commitment to its secret, the players'
// committed contributions, and the engine seed derived from all of them, so that nobody, the
// host included, chooses the game's luck.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rng.h"
#include "sha256.h"

namespace viktory::protocol::fair {

using Secret = std::array<std::uint8_t, 32>;        // the server's, drawn when the game is created
using Salt = std::array<std::uint8_t, 16>;          // drawn with the secret
using Contribution = std::array<std::uint8_t, 32>;  // a player's, drawn by his client
using Digest = Sha256Digest;

// SHA-256("viktory commitment v1\0" || salt || secret): published when the game is created.
Digest commitment(const Salt& salt, const Secret& secret);

// SHA-256("viktory contribution v1\0" || contribution): sent when a player takes his seat.
Digest contribution_commitment(const Contribution& contribution);

// The engine seed: the first 8 bytes (big-endian) of
// SHA-256("viktory seed v1\0" || secret || n || c_0 || ... || c_(n-1)), where c_i is 0x01 and
// seat i's contribution, or 0x00 when that seat did not reveal one. At most 255 seats.
std::uint64_t derive_seed(const Secret& secret,
                          const std::vector<std::optional<Contribution>>& contributions);

// The seed of a game of random scheme `scheme` (engine/rng.h): scheme 1 as above; scheme 2 the
// same with the label "viktory seed v2\0", so that a scheme-1 seed is never taken for a
// scheme-2 one.
std::uint64_t derive_seed(const Secret& secret,
                          const std::vector<std::optional<Contribution>>& contributions,
                          RandomScheme scheme);

// Lowercase hexadecimal.
std::string to_hex(std::span<const std::uint8_t> bytes);
// Exactly N bytes from 2N hex digits (either case); nullopt for anything else.
template <std::size_t N>
std::optional<std::array<std::uint8_t, N>> from_hex(std::string_view text) {
  if (text.size() != 2 * N) return std::nullopt;
  std::array<std::uint8_t, N> out{};
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (std::size_t i = 0; i < N; ++i) {
    const int high = digit(text[2 * i]);
    const int low = digit(text[2 * i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    out[i] = static_cast<std::uint8_t>(high * 16 + low);
  }
  return out;
}

}  // namespace viktory::protocol::fair
