// SHA-256 (FIPS 180-4) for the fair-play scheme (docs/fair-play.md).
//
// Native builds compute it with OpenSSL (sha256_openssl.cpp). The WebAssembly verifier has no
// OpenSSL (Debian ships none for wasm32), so there `sha256` is the plain C++ implementation of
// sha256_portable.cpp; the tests check that both give the same digests.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace viktory::protocol {

using Sha256Digest = std::array<std::uint8_t, 32>;

// The build's SHA-256: OpenSSL's EVP interface natively, the portable one in WebAssembly.
Sha256Digest sha256(std::span<const std::uint8_t> data);

// Always the plain C++ implementation (the WebAssembly build's, and the tests' reference).
Sha256Digest portable_sha256(std::span<const std::uint8_t> data);

inline std::span<const std::uint8_t> as_bytes(std::string_view text) {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

}  // namespace viktory::protocol
