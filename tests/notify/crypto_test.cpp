// The cryptography of Web Push: base64url, the RFC 8291 appendix example with its fixed keys and
// salt, and the RFC 8292 VAPID JWT with its raw R || S signature.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "base64url.h"
#include "push_encryption.h"
#include "vapid.h"

namespace viktory::notify {
namespace {

Bytes b64(std::string_view text) {
  auto decoded = base64url_decode(text);
  EXPECT_TRUE(decoded.has_value()) << text;
  return decoded.value_or(Bytes{});
}

// RFC 8291 Appendix A, every value verbatim.
constexpr std::string_view kPlaintext = "When I grow up, I want to be a watermelon";
constexpr std::string_view kAsPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw";
constexpr std::string_view kAsPublic =
    "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8";
constexpr std::string_view kUaPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94";
constexpr std::string_view kUaPublic =
    "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
constexpr std::string_view kSalt = "DGv6ra1nlYgDCS1FRnbzlw";
constexpr std::string_view kAuthSecret = "BTBZMqHH6r4Tts7J_aSIgg";
constexpr std::string_view kEcdhSecret = "kyrL1jIIOHEzg3sM2ZWRHDRB62YACZhhSlknJ672kSs";
constexpr std::string_view kCek = "oIhVW04MRdy2XN9CiKLxTg";
constexpr std::string_view kNonce = "4h_95klXJ5E_qnoN";
constexpr std::string_view kBody =
    "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_"
    "c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6Tl"
    "zAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a"
    "-fN";

TEST(Base64Url, RoundTripsEveryLengthWithoutPadding) {
  Bytes data;
  for (int length = 0; length < 40; ++length) {
    const std::string encoded = base64url_encode(data);
    EXPECT_EQ(encoded.find('='), std::string::npos);
    EXPECT_EQ(encoded.find('+'), std::string::npos);
    EXPECT_EQ(encoded.find('/'), std::string::npos);
    EXPECT_EQ(base64url_decode(encoded), data);
    data.push_back(static_cast<std::uint8_t>(length * 37 + 250));
  }
}

TEST(Base64Url, AcceptsPaddingAndTheStandardAlphabetRejectsGarbage) {
  EXPECT_EQ(base64url_decode("-_8="), base64url_decode("+/8"));
  EXPECT_EQ(to_string(*base64url_decode("aGk=")), "hi");
  EXPECT_FALSE(base64url_decode("a").has_value());
  EXPECT_FALSE(base64url_decode("ab$d").has_value());
  EXPECT_EQ(base64_encode("hi"), "aGk=");
}

TEST(PushEncryption, Rfc8291AppendixKeysDeriveThePublishedValues) {
  const EcKey as = EcKey::from_private(b64(kAsPrivate));
  const EcKey ua = EcKey::from_private(b64(kUaPrivate));
  EXPECT_EQ(base64url_encode(as.public_point()), kAsPublic);
  EXPECT_EQ(base64url_encode(ua.public_point()), kUaPublic);

  const PushContentKeys keys = derive_push_content_keys(
      as, b64(kUaPublic), b64(kUaPublic), b64(kAsPublic), b64(kAuthSecret), b64(kSalt));
  EXPECT_EQ(base64url_encode(keys.ecdh_secret), kEcdhSecret);
  EXPECT_EQ(base64url_encode(keys.cek), kCek);
  EXPECT_EQ(base64url_encode(keys.nonce), kNonce);
}

TEST(PushEncryption, Rfc8291AppendixMessageIsReproducedByteForByte) {
  const PushKeys keys = parse_push_keys(kUaPublic, kAuthSecret);
  const Bytes body = encrypt_push_message(to_bytes(kPlaintext), keys,
                                          EcKey::from_private(b64(kAsPrivate)), b64(kSalt));
  EXPECT_EQ(base64url_encode(body), kBody);
}

TEST(PushEncryption, TheUserAgentDecryptsTheAppendixMessage) {
  const auto plaintext =
      decrypt_push_message(b64(kBody), EcKey::from_private(b64(kUaPrivate)), b64(kAuthSecret));
  ASSERT_TRUE(plaintext.has_value());
  EXPECT_EQ(to_string(*plaintext), kPlaintext);
}

TEST(PushEncryption, FreshKeysEachTimeAndOnlyTheSubscriberCanRead) {
  const EcKey subscriber = EcKey::generate();
  const Bytes auth = random_bytes(16);
  const PushKeys keys{subscriber.public_point(), auth};
  const Bytes message = to_bytes(R"json({"title":"Your turn in Game 12 (round 3)"})json");
  const Bytes first = encrypt_push_message(message, keys);
  const Bytes second = encrypt_push_message(message, keys);
  EXPECT_NE(first, second);  // new salt and ephemeral key
  EXPECT_EQ(first.size(), 86 + message.size() + 1 + 16);
  EXPECT_EQ(decrypt_push_message(first, subscriber, auth), message);
  EXPECT_EQ(decrypt_push_message(second, subscriber, auth), message);
  EXPECT_FALSE(decrypt_push_message(first, EcKey::generate(), auth).has_value());
  EXPECT_FALSE(decrypt_push_message(first, subscriber, random_bytes(16)).has_value());
  Bytes tampered = first;
  tampered.back() ^= 1;
  EXPECT_FALSE(decrypt_push_message(tampered, subscriber, auth).has_value());
}

TEST(PushEncryption, RefusesOversizedPayloadsAndBadKeys) {
  const PushKeys keys{EcKey::generate().public_point(), random_bytes(16)};
  EXPECT_NO_THROW(encrypt_push_message(Bytes(kMaxPushPlaintext, 'x'), keys));
  EXPECT_EQ(encrypt_push_message(Bytes(kMaxPushPlaintext, 'x'), keys).size(), 4096u);
  EXPECT_THROW(encrypt_push_message(Bytes(kMaxPushPlaintext + 1, 'x'), keys), std::length_error);
  Bytes off_curve = b64(kUaPublic);
  off_curve[40] ^= 1;
  EXPECT_THROW(EcKey::from_public(off_curve), CryptoError);
  EXPECT_THROW(parse_push_keys(base64url_encode(off_curve), kAuthSecret), CryptoError);
  EXPECT_THROW(parse_push_keys(kUaPublic, "c2hvcnQ"), CryptoError);  // auth must be 16 bytes
  EXPECT_THROW(parse_push_keys("not base64!", kAuthSecret), CryptoError);
}

TEST(EcKey, RejectsPrivateScalarsOutOfRange) {
  EXPECT_THROW(EcKey::from_private(Bytes(32, 0)), CryptoError);
  EXPECT_THROW(EcKey::from_private(Bytes(32, 0xff)), CryptoError);  // above the group order
  EXPECT_THROW(EcKey::from_private(Bytes(31, 1)), CryptoError);
}

TEST(Vapid, KeysSurviveTheirTextFormAndThePublicKeyIsTheBrowserForm) {
  const VapidKeys keys = VapidKeys::generate();
  const std::string text = keys.to_text();
  EXPECT_EQ(text.size(), 43u);
  const VapidKeys loaded = VapidKeys::from_text(text);
  EXPECT_EQ(loaded.public_key_base64url(), keys.public_key_base64url());
  const Bytes point = *base64url_decode(keys.public_key_base64url());
  ASSERT_EQ(point.size(), 65u);
  EXPECT_EQ(point[0], 0x04);
  EXPECT_EQ(VapidKeys::from_text(kAsPrivate).public_key_base64url(), kAsPublic);
  EXPECT_THROW(VapidKeys::from_text("not a key"), CryptoError);
  EXPECT_THROW(VapidKeys::from_text(""), CryptoError);
}

TEST(Vapid, JwtHasTheRfc8292ClaimsAndARawEs256Signature) {
  const VapidKeys keys = VapidKeys::generate();
  const auto now = std::chrono::system_clock::from_time_t(1'700'000'000);
  const std::string header = keys.authorization_header(
      "https://push.example.net:8443/wpush/v2/abc?x=1", "mailto:admin@example.org", now);
  ASSERT_TRUE(header.starts_with("vapid t="));
  const auto comma = header.find(", k=");
  ASSERT_NE(comma, std::string::npos);
  EXPECT_EQ(header.substr(comma + 4), keys.public_key_base64url());
  const std::string jwt = header.substr(8, comma - 8);

  const auto dot1 = jwt.find('.');
  const auto dot2 = jwt.find('.', dot1 + 1);
  ASSERT_NE(dot2, std::string::npos);
  const auto jose = nlohmann::json::parse(to_string(b64(jwt.substr(0, dot1))));
  const auto claims = nlohmann::json::parse(to_string(b64(jwt.substr(dot1 + 1, dot2 - dot1 - 1))));
  EXPECT_EQ(jose, (nlohmann::json{{"typ", "JWT"}, {"alg", "ES256"}}));
  EXPECT_EQ(claims["aud"], "https://push.example.net:8443");  // the origin, no path
  EXPECT_EQ(claims["sub"], "mailto:admin@example.org");
  EXPECT_EQ(claims["exp"], 1'700'000'000 + 12 * 3600);  // within RFC 8292's 24 hours

  const Bytes signature = b64(jwt.substr(dot2 + 1));
  EXPECT_EQ(signature.size(), 64u);  // R || S, not DER
  const std::string signing_input = jwt.substr(0, dot2);
  EXPECT_TRUE(keys.key().verify_es256(signing_input, signature));
  Bytes wrong = signature;
  wrong[10] ^= 1;
  EXPECT_FALSE(keys.key().verify_es256(signing_input, wrong));
  EXPECT_FALSE(VapidKeys::generate().key().verify_es256(signing_input, signature));
}

TEST(Vapid, AudienceIsTheEndpointOrigin) {
  EXPECT_EQ(url_origin("https://fcm.googleapis.com/fcm/send/xyz"), "https://fcm.googleapis.com");
  EXPECT_EQ(url_origin("http://127.0.0.1:8090/notify/1"), "http://127.0.0.1:8090");
  EXPECT_THROW(url_origin("ftp://example.org/x"), std::invalid_argument);
  EXPECT_THROW(url_origin("/relative"), std::invalid_argument);
}

}  // namespace
}  // namespace viktory::notify
