#include "push_encryption.h"

#include <stdexcept>

namespace viktory::notify {
namespace {

constexpr std::uint32_t kRecordSize = 4096;
constexpr std::size_t kSaltSize = 16;
constexpr std::size_t kHeaderSize = kSaltSize + 4 + 1 + 65;

Bytes concat(std::initializer_list<const Bytes*> parts) {
  Bytes out;
  for (const Bytes* part : parts) out.insert(out.end(), part->begin(), part->end());
  return out;
}

Bytes label(std::string_view text) {
  Bytes out = to_bytes(text);
  out.push_back(0);
  return out;
}

}  // namespace

PushKeys parse_push_keys(std::string_view p256dh_base64url, std::string_view auth_base64url) {
  auto p256dh = base64url_decode(p256dh_base64url);
  auto auth = base64url_decode(auth_base64url);
  if (!p256dh || !auth) throw CryptoError("subscription keys are not base64url");
  if (auth->size() != 16) throw CryptoError("the subscription's auth secret must have 16 bytes");
  EcKey::from_public(*p256dh);  // throws unless it is a point on the curve
  return PushKeys{std::move(*p256dh), std::move(*auth)};
}

PushContentKeys derive_push_content_keys(const EcKey& own_key, const Bytes& peer_public,
                                         const Bytes& ua_public, const Bytes& as_public,
                                         const Bytes& auth, const Bytes& salt) {
  PushContentKeys keys;
  keys.ecdh_secret = own_key.derive_shared_secret(EcKey::from_public(peer_public));
  // RFC 8291 3.3/3.4: IKM = HKDF(auth_secret, ecdh_secret, "WebPush: info" 0x00 ua || as, 32)
  const Bytes info_label = label("WebPush: info");
  const Bytes key_info = concat({&info_label, &ua_public, &as_public});
  const Bytes ikm = hkdf_sha256(auth, keys.ecdh_secret, key_info, 32);
  // RFC 8188 2.2/2.3: CEK and NONCE from the salt of the record header.
  keys.cek = hkdf_sha256(salt, ikm, label("Content-Encoding: aes128gcm"), 16);
  keys.nonce = hkdf_sha256(salt, ikm, label("Content-Encoding: nonce"), 12);
  return keys;
}

Bytes encrypt_push_message(const Bytes& plaintext, const PushKeys& keys) {
  return encrypt_push_message(plaintext, keys, EcKey::generate(), random_bytes(kSaltSize));
}

Bytes encrypt_push_message(const Bytes& plaintext, const PushKeys& keys, const EcKey& ephemeral,
                           const Bytes& salt) {
  if (plaintext.size() > kMaxPushPlaintext) {
    throw std::length_error("a push message may carry at most 3993 bytes");
  }
  if (salt.size() != kSaltSize) throw CryptoError("the salt must have 16 bytes");
  const Bytes as_public = ephemeral.public_point();
  const PushContentKeys content_keys =
      derive_push_content_keys(ephemeral, keys.p256dh, keys.p256dh, as_public, keys.auth, salt);

  // One record, so sequence number 0 and the nonce as derived; 0x02 marks the last record.
  Bytes record = plaintext;
  record.push_back(0x02);
  const Bytes ciphertext = aes128gcm_encrypt(content_keys.cek, content_keys.nonce, record);

  Bytes body;
  body.reserve(kHeaderSize + ciphertext.size());
  body.insert(body.end(), salt.begin(), salt.end());
  for (int shift = 24; shift >= 0; shift -= 8) {
    body.push_back(static_cast<std::uint8_t>((kRecordSize >> shift) & 0xff));
  }
  body.push_back(static_cast<std::uint8_t>(as_public.size()));
  body.insert(body.end(), as_public.begin(), as_public.end());
  body.insert(body.end(), ciphertext.begin(), ciphertext.end());
  return body;
}

std::optional<Bytes> decrypt_push_message(const Bytes& body, const EcKey& subscription_key,
                                          const Bytes& auth) {
  if (body.size() < kHeaderSize + 16 + 1 || body[20] != 65) return std::nullopt;
  try {
    const Bytes salt(body.begin(), body.begin() + kSaltSize);
    const Bytes as_public(body.begin() + 21, body.begin() + kHeaderSize);
    const Bytes ua_public = subscription_key.public_point();
    const PushContentKeys keys =
        derive_push_content_keys(subscription_key, as_public, ua_public, as_public, auth, salt);
    auto record =
        aes128gcm_decrypt(keys.cek, keys.nonce, Bytes(body.begin() + kHeaderSize, body.end()));
    if (!record) return std::nullopt;
    // Strip the padding (zeros) and the delimiter 0x02 of a last record.
    while (!record->empty() && record->back() == 0) record->pop_back();
    if (record->empty() || record->back() != 0x02) return std::nullopt;
    record->pop_back();
    return record;
  } catch (const CryptoError&) {
    return std::nullopt;
  }
}

}  // namespace viktory::notify
