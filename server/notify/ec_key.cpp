#include "ec_key.h"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>

namespace viktory::notify {
namespace {

constexpr const char* kCurve = "prime256v1";  // P-256
constexpr std::size_t kScalarSize = 32;
constexpr std::size_t kPointSize = 65;

std::string openssl_errors() {
  std::string text;
  while (const unsigned long code = ERR_get_error()) {
    char buffer[256];
    ERR_error_string_n(code, buffer, sizeof buffer);
    if (!text.empty()) text += "; ";
    text += buffer;
  }
  return text;
}

template <typename T, void (*F)(T*)>
struct Deleter {
  void operator()(T* p) const { F(p); }
};
using PkeyCtxPtr = std::unique_ptr<EVP_PKEY_CTX, Deleter<EVP_PKEY_CTX, EVP_PKEY_CTX_free>>;
using MdCtxPtr = std::unique_ptr<EVP_MD_CTX, Deleter<EVP_MD_CTX, EVP_MD_CTX_free>>;
using CipherCtxPtr = std::unique_ptr<EVP_CIPHER_CTX, Deleter<EVP_CIPHER_CTX, EVP_CIPHER_CTX_free>>;
using BnPtr = std::unique_ptr<BIGNUM, Deleter<BIGNUM, BN_clear_free>>;
using BnCtxPtr = std::unique_ptr<BN_CTX, Deleter<BN_CTX, BN_CTX_free>>;
using GroupPtr = std::unique_ptr<EC_GROUP, Deleter<EC_GROUP, EC_GROUP_free>>;
using PointPtr = std::unique_ptr<EC_POINT, Deleter<EC_POINT, EC_POINT_free>>;
using ParamBldPtr = std::unique_ptr<OSSL_PARAM_BLD, Deleter<OSSL_PARAM_BLD, OSSL_PARAM_BLD_free>>;
using ParamPtr = std::unique_ptr<OSSL_PARAM, Deleter<OSSL_PARAM, OSSL_PARAM_free>>;
using SigPtr = std::unique_ptr<ECDSA_SIG, Deleter<ECDSA_SIG, ECDSA_SIG_free>>;
using KdfPtr = std::unique_ptr<EVP_KDF, Deleter<EVP_KDF, EVP_KDF_free>>;
using KdfCtxPtr = std::unique_ptr<EVP_KDF_CTX, Deleter<EVP_KDF_CTX, EVP_KDF_CTX_free>>;

void check(bool ok, const char* what) {
  if (!ok) throw CryptoError(what);
}

// Builds an EVP_PKEY from parameters (group, public point, optionally the private scalar).
EVP_PKEY* key_from_params(const Bytes& point, const BIGNUM* scalar) {
  ParamBldPtr builder(OSSL_PARAM_BLD_new());
  check(builder != nullptr, "OSSL_PARAM_BLD_new");
  check(OSSL_PARAM_BLD_push_utf8_string(builder.get(), OSSL_PKEY_PARAM_GROUP_NAME, kCurve, 0) == 1,
        "group parameter");
  check(OSSL_PARAM_BLD_push_octet_string(builder.get(), OSSL_PKEY_PARAM_PUB_KEY, point.data(),
                                         point.size()) == 1,
        "public key parameter");
  if (scalar != nullptr) {
    check(OSSL_PARAM_BLD_push_BN(builder.get(), OSSL_PKEY_PARAM_PRIV_KEY, scalar) == 1,
          "private key parameter");
  }
  ParamPtr params(OSSL_PARAM_BLD_to_param(builder.get()));
  check(params != nullptr, "OSSL_PARAM_BLD_to_param");
  PkeyCtxPtr ctx(EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr));
  check(ctx != nullptr, "EVP_PKEY_CTX_new_from_name");
  check(EVP_PKEY_fromdata_init(ctx.get()) == 1, "EVP_PKEY_fromdata_init");
  EVP_PKEY* key = nullptr;
  const int selection = scalar != nullptr ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY;
  check(EVP_PKEY_fromdata(ctx.get(), &key, selection, params.get()) == 1, "EVP_PKEY_fromdata");
  return key;
}

}  // namespace

CryptoError::CryptoError(const std::string& what) : std::runtime_error(with_details(what)) {}

std::string CryptoError::with_details(const std::string& what) {
  const std::string details = openssl_errors();
  return details.empty() ? what : what + ": " + details;
}

void EcKey::Free::operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }

EcKey EcKey::generate() {
  EVP_PKEY* key = EVP_EC_gen(kCurve);
  check(key != nullptr, "EVP_EC_gen");
  return EcKey(key, true);
}

EcKey EcKey::from_private(const Bytes& scalar) {
  if (scalar.size() != kScalarSize) throw CryptoError("a P-256 private key has 32 bytes");
  BnPtr d(BN_bin2bn(scalar.data(), static_cast<int>(scalar.size()), nullptr));
  check(d != nullptr, "BN_bin2bn");
  GroupPtr group(EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1));
  check(group != nullptr, "EC_GROUP_new_by_curve_name");
  // 0 < d < n, else it is no private key.
  if (BN_is_zero(d.get()) || BN_cmp(d.get(), EC_GROUP_get0_order(group.get())) >= 0) {
    throw CryptoError("the private key is out of range for P-256");
  }
  BnCtxPtr bn_ctx(BN_CTX_new());
  PointPtr point(EC_POINT_new(group.get()));
  check(bn_ctx != nullptr && point != nullptr, "EC_POINT_new");
  check(EC_POINT_mul(group.get(), point.get(), d.get(), nullptr, nullptr, bn_ctx.get()) == 1,
        "EC_POINT_mul");
  Bytes encoded(kPointSize);
  check(EC_POINT_point2oct(group.get(), point.get(), POINT_CONVERSION_UNCOMPRESSED, encoded.data(),
                           encoded.size(), bn_ctx.get()) == kPointSize,
        "EC_POINT_point2oct");
  return EcKey(key_from_params(encoded, d.get()), true);
}

EcKey EcKey::from_public(const Bytes& uncompressed_point) {
  if (uncompressed_point.size() != kPointSize || uncompressed_point[0] != 0x04) {
    throw CryptoError("a P-256 public key has 65 bytes, starting with 0x04");
  }
  EcKey key(key_from_params(uncompressed_point, nullptr), false);
  PkeyCtxPtr ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, key.get(), nullptr));
  check(ctx != nullptr, "EVP_PKEY_CTX_new_from_pkey");
  // The quick check (on the curve, not infinity) is complete for P-256, whose cofactor is 1; the
  // full check adds a scalar multiplication to test the order, which costs as much as the ECDH.
  if (EVP_PKEY_public_check_quick(ctx.get()) != 1) {
    throw CryptoError("the public key is not a point on P-256");
  }
  return key;
}

Bytes EcKey::private_scalar() const {
  if (!has_private_) throw CryptoError("this key has no private part");
  BIGNUM* raw = nullptr;
  check(EVP_PKEY_get_bn_param(key_.get(), OSSL_PKEY_PARAM_PRIV_KEY, &raw) == 1,
        "EVP_PKEY_get_bn_param");
  BnPtr d(raw);
  Bytes out(kScalarSize);
  check(BN_bn2binpad(d.get(), out.data(), static_cast<int>(out.size())) ==
            static_cast<int>(kScalarSize),
        "BN_bn2binpad");
  return out;
}

Bytes EcKey::public_point() const {
  Bytes out(kPointSize);
  std::size_t length = 0;
  check(EVP_PKEY_get_octet_string_param(key_.get(), OSSL_PKEY_PARAM_PUB_KEY, out.data(), out.size(),
                                        &length) == 1 &&
            length == kPointSize && out[0] == 0x04,
        "EVP_PKEY_get_octet_string_param");
  return out;
}

Bytes EcKey::derive_shared_secret(const EcKey& peer) const {
  PkeyCtxPtr ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, key_.get(), nullptr));
  check(ctx != nullptr, "EVP_PKEY_CTX_new_from_pkey");
  check(EVP_PKEY_derive_init(ctx.get()) == 1, "EVP_PKEY_derive_init");
  check(EVP_PKEY_derive_set_peer(ctx.get(), peer.get()) == 1, "EVP_PKEY_derive_set_peer");
  std::size_t length = 0;
  check(EVP_PKEY_derive(ctx.get(), nullptr, &length) == 1, "EVP_PKEY_derive");
  Bytes secret(length);
  check(EVP_PKEY_derive(ctx.get(), secret.data(), &length) == 1, "EVP_PKEY_derive");
  secret.resize(length);
  return secret;
}

Bytes EcKey::sign_es256(std::string_view message) const {
  MdCtxPtr ctx(EVP_MD_CTX_new());
  check(ctx != nullptr, "EVP_MD_CTX_new");
  check(EVP_DigestSignInit_ex(ctx.get(), nullptr, "SHA256", nullptr, nullptr, key_.get(),
                              nullptr) == 1,
        "EVP_DigestSignInit_ex");
  const auto* data = reinterpret_cast<const unsigned char*>(message.data());
  std::size_t der_length = 0;
  check(EVP_DigestSign(ctx.get(), nullptr, &der_length, data, message.size()) == 1,
        "EVP_DigestSign");
  Bytes der(der_length);
  check(EVP_DigestSign(ctx.get(), der.data(), &der_length, data, message.size()) == 1,
        "EVP_DigestSign");
  // OpenSSL writes the DER SEQUENCE { r INTEGER, s INTEGER }; JWS wants both as fixed 32 bytes.
  const unsigned char* cursor = der.data();
  SigPtr sig(d2i_ECDSA_SIG(nullptr, &cursor, static_cast<long>(der_length)));
  check(sig != nullptr, "d2i_ECDSA_SIG");
  const BIGNUM* r = nullptr;
  const BIGNUM* s = nullptr;
  ECDSA_SIG_get0(sig.get(), &r, &s);
  Bytes raw(2 * kScalarSize);
  check(BN_bn2binpad(r, raw.data(), kScalarSize) == kScalarSize &&
            BN_bn2binpad(s, raw.data() + kScalarSize, kScalarSize) == kScalarSize,
        "BN_bn2binpad");
  return raw;
}

bool EcKey::verify_es256(std::string_view message, const Bytes& signature) const {
  if (signature.size() != 2 * kScalarSize) return false;
  SigPtr sig(ECDSA_SIG_new());
  check(sig != nullptr, "ECDSA_SIG_new");
  BIGNUM* r = BN_bin2bn(signature.data(), kScalarSize, nullptr);
  BIGNUM* s = BN_bin2bn(signature.data() + kScalarSize, kScalarSize, nullptr);
  if (r == nullptr || s == nullptr || ECDSA_SIG_set0(sig.get(), r, s) != 1) {
    BN_free(r);
    BN_free(s);
    throw CryptoError("ECDSA_SIG_set0");
  }
  unsigned char* der = nullptr;
  const int der_length = i2d_ECDSA_SIG(sig.get(), &der);
  check(der_length > 0, "i2d_ECDSA_SIG");
  std::unique_ptr<unsigned char, void (*)(unsigned char*)> der_owner(
      der, [](unsigned char* p) { OPENSSL_free(p); });
  MdCtxPtr ctx(EVP_MD_CTX_new());
  check(ctx != nullptr, "EVP_MD_CTX_new");
  check(EVP_DigestVerifyInit_ex(ctx.get(), nullptr, "SHA256", nullptr, nullptr, key_.get(),
                                nullptr) == 1,
        "EVP_DigestVerifyInit_ex");
  const int result =
      EVP_DigestVerify(ctx.get(), der, static_cast<std::size_t>(der_length),
                       reinterpret_cast<const unsigned char*>(message.data()), message.size());
  ERR_clear_error();
  return result == 1;
}

Bytes hkdf_sha256(const Bytes& salt, const Bytes& input_key, const Bytes& info,
                  std::size_t length) {
  KdfPtr kdf(EVP_KDF_fetch(nullptr, "HKDF", nullptr));
  check(kdf != nullptr, "EVP_KDF_fetch(HKDF)");
  KdfCtxPtr ctx(EVP_KDF_CTX_new(kdf.get()));
  check(ctx != nullptr, "EVP_KDF_CTX_new");
  char digest[] = "SHA256";
  // OSSL_PARAM takes non-const pointers; OpenSSL only reads them.
  OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest, 0),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, const_cast<std::uint8_t*>(salt.data()),
                                        salt.size()),
      OSSL_PARAM_construct_octet_string(
          OSSL_KDF_PARAM_KEY, const_cast<std::uint8_t*>(input_key.data()), input_key.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, const_cast<std::uint8_t*>(info.data()),
                                        info.size()),
      OSSL_PARAM_construct_end()};
  Bytes out(length);
  check(EVP_KDF_derive(ctx.get(), out.data(), out.size(), params) == 1, "EVP_KDF_derive(HKDF)");
  return out;
}

Bytes aes128gcm_encrypt(const Bytes& key, const Bytes& nonce, const Bytes& plaintext) {
  if (key.size() != 16 || nonce.size() != 12) throw CryptoError("AES-128-GCM: bad key or nonce");
  CipherCtxPtr ctx(EVP_CIPHER_CTX_new());
  check(ctx != nullptr, "EVP_CIPHER_CTX_new");
  check(EVP_EncryptInit_ex2(ctx.get(), EVP_aes_128_gcm(), key.data(), nonce.data(), nullptr) == 1,
        "EVP_EncryptInit_ex2");
  Bytes out(plaintext.size() + 16);
  int written = 0;
  check(EVP_EncryptUpdate(ctx.get(), out.data(), &written, plaintext.data(),
                          static_cast<int>(plaintext.size())) == 1,
        "EVP_EncryptUpdate");
  int final_written = 0;
  check(EVP_EncryptFinal_ex(ctx.get(), out.data() + written, &final_written) == 1,
        "EVP_EncryptFinal_ex");
  const std::size_t ciphertext_size = static_cast<std::size_t>(written + final_written);
  check(EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, 16, out.data() + ciphertext_size) == 1,
        "EVP_CTRL_GCM_GET_TAG");
  out.resize(ciphertext_size + 16);
  return out;
}

std::optional<Bytes> aes128gcm_decrypt(const Bytes& key, const Bytes& nonce,
                                       const Bytes& ciphertext_and_tag) {
  if (key.size() != 16 || nonce.size() != 12) throw CryptoError("AES-128-GCM: bad key or nonce");
  if (ciphertext_and_tag.size() < 16) return std::nullopt;
  const std::size_t ciphertext_size = ciphertext_and_tag.size() - 16;
  CipherCtxPtr ctx(EVP_CIPHER_CTX_new());
  check(ctx != nullptr, "EVP_CIPHER_CTX_new");
  check(EVP_DecryptInit_ex2(ctx.get(), EVP_aes_128_gcm(), key.data(), nonce.data(), nullptr) == 1,
        "EVP_DecryptInit_ex2");
  Bytes out(ciphertext_size + 16);
  int written = 0;
  check(EVP_DecryptUpdate(ctx.get(), out.data(), &written, ciphertext_and_tag.data(),
                          static_cast<int>(ciphertext_size)) == 1,
        "EVP_DecryptUpdate");
  Bytes tag(ciphertext_and_tag.end() - 16, ciphertext_and_tag.end());
  check(EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, 16, tag.data()) == 1,
        "EVP_CTRL_GCM_SET_TAG");
  int final_written = 0;
  if (EVP_DecryptFinal_ex(ctx.get(), out.data() + written, &final_written) != 1) {
    ERR_clear_error();
    return std::nullopt;
  }
  out.resize(static_cast<std::size_t>(written + final_written));
  return out;
}

Bytes random_bytes(std::size_t count) {
  Bytes out(count);
  check(RAND_bytes(out.data(), static_cast<int>(count)) == 1, "RAND_bytes");
  return out;
}

}  // namespace viktory::notify
