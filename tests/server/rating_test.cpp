// server/players/rating.h against the reference: tests/rating-reference/fixture.json holds the
// updates the openskill package computes (its node test keeps the file equal to what the package
// says).
#include "rating.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace viktory::server {
namespace {

nlohmann::json load_fixture() {
  std::ifstream in(VIKTORY_RATING_FIXTURE);
  if (!in) throw std::runtime_error("cannot read " + std::string(VIKTORY_RATING_FIXTURE));
  return nlohmann::json::parse(in);
}

TEST(Rating, AgreesWithOpenSkillOnEveryCaseOfTheFixture) {
  const nlohmann::json fixture = load_fixture();
  ASSERT_GE(fixture.at("cases").size(), 10u);
  for (const auto& c : fixture.at("cases")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    std::vector<Rating> before;
    for (const auto& p : c.at("before")) before.push_back({p.at("mu"), p.at("sigma")});
    const std::vector<int> ranks = c.at("ranks").get<std::vector<int>>();
    const std::vector<Rating> after = rate_free_for_all(before, ranks);
    ASSERT_EQ(after.size(), c.at("after").size());
    for (std::size_t i = 0; i < after.size(); ++i) {
      const auto& want = c.at("after")[i];
      EXPECT_NEAR(after[i].mu, want.at("mu").get<double>(), 1e-6) << "player " << i;
      EXPECT_NEAR(after[i].sigma, want.at("sigma").get<double>(), 1e-6) << "player " << i;
      EXPECT_NEAR(displayed_rating(after[i]), want.at("ordinal").get<double>(), 1e-6)
          << "player " << i;
    }
  }
}

TEST(Rating, OnlyTheOrderOfRanksMattersNotTheGaps) {
  const std::vector<Rating> before = {{25, 8}, {30, 3}, {20, 5}};
  const auto a = rate_free_for_all(before, {1, 2, 3});
  const auto b = rate_free_for_all(before, {10, 40, 41});
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_DOUBLE_EQ(a[i].mu, b[i].mu);
    EXPECT_DOUBLE_EQ(a[i].sigma, b[i].sigma);
  }
}

TEST(Rating, ANewPlayerShowsZeroAndTheWinnerGains) {
  EXPECT_NEAR(displayed_rating(initial_rating()), 0.0, 1e-12);
  const auto after = rate_free_for_all({initial_rating(), initial_rating()}, {1, 2});
  EXPECT_GT(after[0].mu, 25.0);
  EXPECT_LT(after[1].mu, 25.0);
  EXPECT_LT(after[0].sigma, 25.0 / 3.0);
}

TEST(Rating, RefusesFewerThanTwoPlayersOrMismatchedRanks) {
  EXPECT_THROW(rate_free_for_all({initial_rating()}, {1}), std::invalid_argument);
  EXPECT_THROW(rate_free_for_all({initial_rating(), initial_rating()}, {1}), std::invalid_argument);
}

}  // namespace
}  // namespace viktory::server
