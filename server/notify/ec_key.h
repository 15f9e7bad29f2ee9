// P-256 keys through OpenSSL's EVP interface: the one key type Web Push uses, for VAPID
// signatures (ES256) and for the ECDH of message encryption. Raw forms only: a private key is its
// 32-byte scalar, a public key the 65-byte uncompressed point (0x04 || X || Y), as the Push API
// and RFC 8291 write them.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "base64url.h"

typedef struct evp_pkey_st EVP_PKEY;

namespace viktory::notify {

// Any OpenSSL failure, with OpenSSL's error text appended.
class CryptoError : public std::runtime_error {
 public:
  explicit CryptoError(const std::string& what);

 private:
  static std::string with_details(const std::string& what);
};

class EcKey {
 public:
  // A fresh key pair from OpenSSL's CSPRNG.
  static EcKey generate();
  // From the 32-byte private scalar; the public point is computed. Throws CryptoError if the
  // scalar is not a valid P-256 private key.
  static EcKey from_private(const Bytes& scalar);
  // A public key only (the peer's); throws CryptoError unless it is a point on the curve.
  static EcKey from_public(const Bytes& uncompressed_point);

  bool has_private() const { return has_private_; }
  Bytes private_scalar() const;  // 32 bytes; throws if there is no private part
  Bytes public_point() const;    // 65 bytes, uncompressed

  // ECDH (the x coordinate of the shared point, 32 bytes) with a peer's public key.
  Bytes derive_shared_secret(const EcKey& peer) const;
  // ES256 (RFC 7518 3.4): ECDSA P-256 over SHA-256, as the 64-byte R || S that JWS wants, not
  // the DER structure OpenSSL produces.
  Bytes sign_es256(std::string_view message) const;
  // Checks a 64-byte R || S signature (used by tests and to check a loaded key).
  bool verify_es256(std::string_view message, const Bytes& signature) const;

  EVP_PKEY* get() const { return key_.get(); }

 private:
  struct Free {
    void operator()(EVP_PKEY* key) const;
  };
  EcKey(EVP_PKEY* key, bool has_private) : key_(key, Free{}), has_private_(has_private) {}
  std::shared_ptr<EVP_PKEY> key_;
  bool has_private_ = false;
};

// HKDF-SHA-256 (RFC 5869), extract and expand, through EVP_KDF.
Bytes hkdf_sha256(const Bytes& salt, const Bytes& input_key, const Bytes& info, std::size_t length);
// AES-128-GCM; returns ciphertext || 16-byte tag.
Bytes aes128gcm_encrypt(const Bytes& key, const Bytes& nonce, const Bytes& plaintext);
// nullopt if the tag does not match.
std::optional<Bytes> aes128gcm_decrypt(const Bytes& key, const Bytes& nonce,
                                       const Bytes& ciphertext_and_tag);
Bytes random_bytes(std::size_t count);

}  // namespace viktory::notify
