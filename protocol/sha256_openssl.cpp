// SHA-256 through OpenSSL's EVP interface (native builds; see sha256.h).
#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

#include "sha256.h"

namespace viktory::protocol {

Sha256Digest sha256(std::span<const std::uint8_t> data) {
  const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(),
                                                                        &EVP_MD_CTX_free);
  Sha256Digest digest{};
  unsigned int length = 0;
  if (!context || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1 ||
      EVP_DigestUpdate(context.get(), data.data(), data.size()) != 1 ||
      EVP_DigestFinal_ex(context.get(), digest.data(), &length) != 1 || length != digest.size()) {
    throw std::runtime_error("SHA-256 through OpenSSL failed");
  }
  return digest;
}

}  // namespace viktory::protocol
