// The fair-play scheme's primitives (docs/fair-play.md, "The scheme"): SHA-256 (OpenSSL and
// the portable one the WebAssembly verifier uses), the commitments and the seed derivation.
#include "fair.h"

#include <gtest/gtest.h>

#include <string>

#include "sha256.h"

namespace viktory::protocol {
namespace {

std::string hex(const Sha256Digest& d) { return fair::to_hex(d); }

TEST(Sha256, OpenSslGivesTheFipsTestVectors) {
  EXPECT_EQ(hex(sha256(as_bytes(""))),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hex(sha256(as_bytes("abc"))),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hex(sha256(as_bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, PortableGivesTheFipsTestVectors) {
  EXPECT_EQ(hex(portable_sha256(as_bytes(""))),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hex(portable_sha256(as_bytes("abc"))),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(
      hex(portable_sha256(as_bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(hex(portable_sha256(as_bytes(std::string(1000000, 'a')))),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Every length around the block and padding boundaries, with varied bytes.
TEST(Sha256, PortableAgreesWithOpenSslOnEveryLengthUpTo300Bytes) {
  std::vector<std::uint8_t> data;
  std::uint32_t x = 12345;
  for (int length = 0; length <= 300; ++length) {
    ASSERT_EQ(portable_sha256(data), sha256(data)) << "length " << length;
    x = x * 1103515245u + 12345u;
    data.push_back(static_cast<std::uint8_t>(x >> 16));
  }
}

// Known answers computed independently (Python's hashlib) from the byte layout the document
// gives; a change of label, order or encoding breaks every record already published.
TEST(FairScheme, CommitmentContributionAndSeedFollowTheDocumentedLayout) {
  fair::Secret secret{};
  for (int i = 0; i < 32; ++i) secret[i] = static_cast<std::uint8_t>(i);
  fair::Salt salt{};
  for (int i = 0; i < 16; ++i) salt[i] = static_cast<std::uint8_t>(100 + i);
  fair::Contribution c0{};
  c0.fill(0xaa);
  fair::Contribution c2{};
  for (int i = 0; i < 32; ++i) c2[i] = static_cast<std::uint8_t>(32 + i);

  EXPECT_EQ(hex(fair::commitment(salt, secret)),
            "2990c7daf10a30b8eb2c33eef65e0e980d5e597dc0657cc9f5b8d547430b972d");
  EXPECT_EQ(hex(fair::contribution_commitment(c0)),
            "0fbd42c8527387cabd0a32d68ac91a9dc12f9176296d442746e59b8723d938c2");
  EXPECT_EQ(fair::derive_seed(secret, {c0, std::nullopt, c2}), 0x410674e8a96d0b66ULL);
}

TEST(FairScheme, EveryInputChangesTheSeed) {
  fair::Secret secret{};
  fair::Contribution a{};
  a[0] = 1;
  fair::Contribution b{};
  b[0] = 2;
  const auto base = fair::derive_seed(secret, {a, b});
  fair::Secret other_secret = secret;
  other_secret[31] = 1;
  EXPECT_NE(fair::derive_seed(other_secret, {a, b}), base);
  EXPECT_NE(fair::derive_seed(secret, {b, a}), base);                // order of seats
  EXPECT_NE(fair::derive_seed(secret, {a, std::nullopt}), base);     // a seat not revealed
  EXPECT_NE(fair::derive_seed(secret, {a, b, std::nullopt}), base);  // another seat
  EXPECT_EQ(fair::derive_seed(secret, {a, b}), base);
}

TEST(FairScheme, HexReadsExactlyTheRightNumberOfDigits) {
  const auto bytes = fair::from_hex<4>("00fFa1B2");
  ASSERT_TRUE(bytes.has_value());
  EXPECT_EQ(fair::to_hex(*bytes), "00ffa1b2");
  EXPECT_FALSE(fair::from_hex<4>("00ffa1b").has_value());
  EXPECT_FALSE(fair::from_hex<4>("00ffa1b2c3").has_value());
  EXPECT_FALSE(fair::from_hex<4>("00ffa1g2").has_value());
  EXPECT_FALSE(fair::from_hex<4>("0xffa1b2").has_value());
}

}  // namespace
}  // namespace viktory::protocol
