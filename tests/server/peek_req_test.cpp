// peek_req: the `req` of a message refused before it is parsed (a client over its rate limit).
#include "peek_req.h"

#include <gtest/gtest.h>

#include <string>

namespace viktory::server {
namespace {

TEST(PeekReq, FindsReqAsTheLastMemberAsTheWebClientSendsIt) {
  EXPECT_EQ(peek_req(R"({"game_id":5,"text":"hi","type":"chat.send","req":17})"), 17);
  EXPECT_EQ(peek_req("{\"type\":\"ping\" , \"req\" :\n 3 }\n"), 3);
  EXPECT_EQ(peek_req(R"({"type":"ping","req":-4})"), -4);
  // However long the message: only its end is looked at.
  const std::string chat = R"({"text":")" + std::string(60000, 'x') + R"(","req":9})";
  EXPECT_EQ(peek_req(chat), 9);
}

TEST(PeekReq, FindsReqAsTheFirstMemberOrRightAfterType) {
  EXPECT_EQ(peek_req(R"({"req":8,"type":"ping","pad":")" + std::string(5000, 'y') + "\"}"), 8);
  EXPECT_EQ(peek_req(R"({ "type" : "game.watch", "req": 12, "game_id": 3})"), 12);
}

TEST(PeekReq, FindsNothingWhereAParserWouldNotSeeATopLevelIntegerReq) {
  EXPECT_EQ(peek_req(R"({"type":"ping"})"), std::nullopt);
  EXPECT_EQ(peek_req(R"({"type":"ping","req":"7"})"), std::nullopt);  // a string
  EXPECT_EQ(peek_req(R"({"type":"ping","req":7.5})"), std::nullopt);  // not an integer
  EXPECT_EQ(peek_req(R"({"type":"ping","req":1e3})"), std::nullopt);
  EXPECT_EQ(peek_req(R"({"type":"ping","req":99999999999999999999})"), std::nullopt);
  // Nested: the object that ends with it is not the message.
  EXPECT_EQ(peek_req(R"({"type":"x","action":{"req":5}})"), std::nullopt);
  EXPECT_EQ(peek_req(R"({"action":{"req":5},"type":"x"})"), std::nullopt);
  // Inside a string: its quotes are escaped.
  EXPECT_EQ(peek_req(R"({"type":"chat.send","text":"a,\"req\":5}"})"), std::nullopt);
  EXPECT_EQ(peek_req(R"({"text":"\"req\":5}"})"), std::nullopt);
  // In the middle of a long message: not found (the message is not read).
  EXPECT_EQ(peek_req(R"({"type":"x","pad":")" + std::string(200, 'z') + R"(","req":4,"k":1})"),
            std::nullopt);
  // A key that merely ends in req.
  EXPECT_EQ(peek_req(R"({"type":"x","prereq":4})"), std::nullopt);
  EXPECT_EQ(peek_req(R"({"type":"x","pre\"req":4})"), std::nullopt);
  EXPECT_EQ(peek_req(""), std::nullopt);
  EXPECT_EQ(peek_req("}"), std::nullopt);
  EXPECT_EQ(peek_req(":1}"), std::nullopt);
  EXPECT_EQ(peek_req(std::string(100, '{')), std::nullopt);
}

// An escaped backslash right before a string's closing quote: the key after it is real.
TEST(PeekReq, AStringEndingInABackslashBeforeReq) {
  EXPECT_EQ(peek_req(R"({"text":"a\\","req":6})"), 6);
}

}  // namespace
}  // namespace viktory::server
