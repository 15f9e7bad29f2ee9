// The matcher behind the CLI tests must be able to say "no".
#include "json_subset.h"

#include <gtest/gtest.h>

namespace viktory::testing {
namespace {

using nlohmann::json;

TEST(JsonSubset, MatchesWhatIsThereAndRejectsWhatIsNot) {
  const json actual =
      json::parse(R"({"a": 1, "b": {"c": [1, 2], "d": "x"}, "e": [{"k": 1}, {"k": 2}]})");
  EXPECT_EQ(json_subset_mismatch(json::parse(R"({"a": 1})"), actual), "");
  EXPECT_EQ(json_subset_mismatch(json::parse(R"({"b": {"c": [1, 2]}})"), actual), "");
  EXPECT_EQ(json_subset_mismatch(json::parse(R"({"e": [{}, {"k": 2}]})"), actual), "");
  EXPECT_EQ(json_subset_mismatch(json::parse(R"({"e": {"$contains": [{"k": 2}]}})"), actual), "");
  EXPECT_EQ(json_subset_mismatch(json::parse(R"({"z": "$absent", "a": "$any"})"), actual), "");

  EXPECT_EQ(json_subset_mismatch(json::parse(R"({"a": 2})"), actual), "$.a: expected 2, got 1");
  EXPECT_EQ(json_subset_mismatch(json::parse(R"({"q": 1})"), actual), "$.q: missing");
  EXPECT_NE(json_subset_mismatch(json::parse(R"({"b": {"c": [1]}})"), actual), "");
  EXPECT_NE(json_subset_mismatch(json::parse(R"({"e": [{"k": 2}, {"k": 1}]})"), actual), "");
  EXPECT_NE(json_subset_mismatch(json::parse(R"({"e": {"$contains": [{"k": 3}]}})"), actual), "");
  EXPECT_EQ(json_subset_mismatch(json::parse(R"({"a": "$absent"})"), actual),
            "$.a: should be absent, is 1");
  EXPECT_NE(json_subset_mismatch(json::parse(R"({"b": {"d": 1}})"), actual), "");
}

}  // namespace
}  // namespace viktory::testing
