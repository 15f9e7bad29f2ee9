// Message encryption for Web Push (RFC 8291): the "aes128gcm" content coding of RFC 8188 in one
// record, keyed by ECDH between a fresh ephemeral key of ours and the browser's subscription key,
// mixed with the subscription's auth secret through HKDF. Only the subscribed browser can read
// the payload; the push service sees ciphertext.
#pragma once

#include <optional>

#include "ec_key.h"

namespace viktory::notify {

// RFC 8291 section 4: a push message body is at most 4096 bytes, so the plaintext (one record,
// 86-byte header, 16-byte tag, 1 delimiter byte) at most 3993.
constexpr std::size_t kMaxPushPlaintext = 3993;

struct PushKeys {
  Bytes p256dh;  // the subscription's public key (65 bytes, uncompressed)
  Bytes auth;    // the subscription's auth secret (16 bytes)
};

// Parses the base64url `keys.p256dh` and `keys.auth` of a PushSubscription; throws CryptoError
// if either is malformed or the key is not on the curve.
PushKeys parse_push_keys(std::string_view p256dh_base64url, std::string_view auth_base64url);

// The complete request body: salt(16) || rs(4) || idlen(1) || keyid(65, our ephemeral public
// key) || AES-128-GCM(plaintext || 0x02). A fresh ephemeral key and salt each call. Throws
// std::length_error above kMaxPushPlaintext.
Bytes encrypt_push_message(const Bytes& plaintext, const PushKeys& keys);

// The same with a given ephemeral key and salt: only for the RFC 8291 appendix test vector.
Bytes encrypt_push_message(const Bytes& plaintext, const PushKeys& keys, const EcKey& ephemeral,
                           const Bytes& salt);

// The browser's side (RFC 8291 section 3.4 in reverse), for tests: nullopt if anything fails.
std::optional<Bytes> decrypt_push_message(const Bytes& body, const EcKey& subscription_key,
                                          const Bytes& auth);

// The intermediate values of RFC 8291 section 3.4, exposed for the test vector.
struct PushContentKeys {
  Bytes ecdh_secret;
  Bytes cek;    // 16 bytes
  Bytes nonce;  // 12 bytes
};
PushContentKeys derive_push_content_keys(const EcKey& own_key, const Bytes& peer_public,
                                         const Bytes& ua_public, const Bytes& as_public,
                                         const Bytes& auth, const Bytes& salt);

}  // namespace viktory::notify
