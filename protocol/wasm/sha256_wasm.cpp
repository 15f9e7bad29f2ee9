// The WebAssembly build's SHA-256: there is no OpenSSL for wasm32, so it is the portable one
// (see sha256.h; native builds use sha256_openssl.cpp instead of this file).
#include "sha256.h"

namespace viktory::protocol {

Sha256Digest sha256(std::span<const std::uint8_t> data) { return portable_sha256(data); }

}  // namespace viktory::protocol
