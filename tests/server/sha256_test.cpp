#include <gtest/gtest.h>

#include <string>

#include "store.h"
#include "test_support.h"
#include "token.h"

namespace viktory::server {
namespace {

// FIPS 180-4 / NIST CAVP example vectors.
TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(
      sha256_hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklm"
                 "nopqklmnopqrlmnopqrsmnopqrstnopqrstu"),
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Lengths around the 55/56/64-byte padding boundaries, checked against values computed with
// coreutils sha256sum.
TEST(Sha256, PaddingBoundaries) {
  EXPECT_EQ(sha256_hex(std::string(55, 'a')),
            "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  EXPECT_EQ(sha256_hex(std::string(56, 'a')),
            "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  EXPECT_EQ(sha256_hex(std::string(64, 'a')),
            "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

// The server hashed tokens with a SHA-256 of its own before it used OpenSSL's: a token stored
// then (this row was written by that implementation) must still sign in.
TEST(Token, AHashStoredByTheEarlierImplementationStillSignsIn) {
  const std::string token = "5d1b0e7c9a3f48e2b6c0d4a1f7e93b2c8a6d0f1e4b7c9a2d5e8f0b3c6a9d1e4f";
  const std::string stored = "a70c5b18305d0832b39ec1bc0f0ad5ca4676e8c795d5ebd460c7864254003cc5";
  EXPECT_EQ(token_hash(token), stored);
  EXPECT_EQ(invite_hash("0f1e2d3c4b5a69788796a5b4c3d2e1f0"),
            "a1bf4dc2c0cea821798c38e16fcc1667d6f0504afa821b181672035fc5967890");
  testing::TempDir dir;
  Store store(dir.file("tokens.db"));
  store.db().exec("INSERT INTO players(name, token_hash, created) VALUES('Ada', '" + stored +
                  "', 1)");
  const auto player = store.player_by_token_hash(token_hash(token));
  ASSERT_TRUE(player.has_value());
  EXPECT_EQ(player->name, "Ada");
}

TEST(Token, TokensAreLongRandomAndStoredHashed) {
  const std::string a = new_token();
  const std::string b = new_token();
  EXPECT_EQ(a.size(), 64u);  // 256 bits
  EXPECT_TRUE(looks_like_hex_secret(a, 64));
  EXPECT_NE(a, b);
  EXPECT_EQ(token_hash(a), sha256_hex(a));
  EXPECT_NE(token_hash(a), a);
  EXPECT_EQ(new_invite_code().size(), 32u);
  EXPECT_NE(new_seed(), new_seed());
}

TEST(Token, HexSecretShapeIsChecked) {
  EXPECT_FALSE(looks_like_hex_secret("abc", 64));
  EXPECT_FALSE(looks_like_hex_secret(std::string(64, 'G'), 64));
  EXPECT_FALSE(looks_like_hex_secret(std::string(64, 'A'), 64));  // we hand out lower case
  EXPECT_TRUE(looks_like_hex_secret(std::string(64, 'a'), 64));
}

// Every HTTP API reads "Authorization: Bearer <token>" through bearer_token_hash: the stored hash
// of a well-formed token, nothing for any other header.
TEST(Token, BearerHeaderGivesTheStoredHashOfAWellFormedTokenOnly) {
  const std::string token = new_token();
  EXPECT_EQ(bearer_token_hash("Bearer " + token), token_hash(token));
  EXPECT_EQ(bearer_token_hash(token), std::nullopt);                        // no scheme
  EXPECT_EQ(bearer_token_hash("bearer " + token), std::nullopt);            // the scheme as sent
  EXPECT_EQ(bearer_token_hash("Bearer  " + token), std::nullopt);           // two spaces
  EXPECT_EQ(bearer_token_hash("Bearer " + token + "0"), std::nullopt);      // too long
  EXPECT_EQ(bearer_token_hash("Bearer " + token.substr(1)), std::nullopt);  // too short
  EXPECT_EQ(bearer_token_hash("Bearer " + std::string(64, 'A')), std::nullopt);
  EXPECT_EQ(bearer_token_hash(""), std::nullopt);
}

}  // namespace
}  // namespace viktory::server
