// The computer levels on the ladder's scale (computer_levels.h): the conversion from a share of
// wins to a skill gap agrees with the rating model's own updates, the figures are the ones
// docs/ai.md reports, and GET /api/computer-levels answers a stranger and a rated player.
#include "computer_levels.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "hub.h"
#include "json.h"
#include "rating.h"
#include "test_support.h"

namespace viktory::server {
namespace {

using nlohmann::json;
using testing::TempDir;

TEST(ComputerLevels, TheSkillGapGivesBackItsShareThroughTheWinChance) {
  for (double share : {0.05, 0.3, 0.5, 0.764, 0.99}) {
    const double gap = skill_gap(share);
    EXPECT_NEAR(win_chance(Rating{25.0 + gap, 0.0}, 25.0), share, 1e-12) << share;
  }
  EXPECT_DOUBLE_EQ(skill_gap(0.5), 0.0);
  EXPECT_GT(skill_gap(0.764), 6.5);  // the search's measured share is several points of skill
}

// The win chance is the model's: when results come at that rate, a player's expected change of
// mu after a game is zero (rate_free_for_all moves mu by (1 - p) on a win and -p on a loss, p
// its own chance). Without tau, so both sides of the game use the same spread.
TEST(ComputerLevels, TheWinChanceIsTheChanceTheRatingUpdatesAssume) {
  RatingModel model;
  model.tau = 0;
  for (double gap : {-8.0, -2.0, 0.0, 3.0, 10.0}) {
    const Rating you{25.0 + gap, 0.0};
    const Rating level{25.0, 0.0};
    // sigma 0 would leave mu unchanged: move it by a tiny sigma on one side only.
    const Rating probe{you.mu, 1e-3};
    const double p = win_chance(probe, level.mu, model);
    const double won = rate_free_for_all({probe, level}, {1, 2}, model)[0].mu - probe.mu;
    const double lost = rate_free_for_all({probe, level}, {2, 1}, model)[0].mu - probe.mu;
    EXPECT_GT(won, 0);
    EXPECT_LT(lost, 0);
    EXPECT_NEAR(p * won + (1 - p) * lost, 0.0, 1e-12) << gap;
  }
}

TEST(ComputerLevels, SigmaSettlesBelowANewPlayersAndStaysThere) {
  const RatingModel model;
  const double settled = settled_sigma(model);
  EXPECT_GT(settled, 0.5);
  EXPECT_LT(settled, model.sigma / 3);
  // A few more games between two settled equals leave it where it is.
  std::vector<Rating> pair = {{25.0, settled}, {25.0, settled}};
  for (int game = 0; game < 10; ++game) {
    pair = rate_free_for_all(pair, game % 2 ? std::vector<int>{2, 1} : std::vector<int>{1, 2});
  }
  EXPECT_NEAR(pair[0].sigma, settled, 0.02);
}

TEST(ComputerLevels, TheLevelsStandInOrderAroundANewPlayersMean) {
  const RatingModel model;
  const auto levels = level_ratings(model);
  ASSERT_EQ(levels.size(), 3u);
  EXPECT_EQ(levels[0].level, "random");
  EXPECT_EQ(levels[1].level, "heuristic");
  EXPECT_EQ(levels[2].level, "search");
  EXPECT_DOUBLE_EQ(levels[1].mu, model.mu);  // the reference, at the prior's mean
  EXPECT_LT(levels[0].mu, levels[1].mu - 15);
  EXPECT_GT(levels[2].mu, levels[1].mu + 5);
  EXPECT_EQ(levels[0].bound, "at_most");  // it never won: a bound, not a figure
  EXPECT_EQ(levels[2].bound, "about");
  for (const auto& l : levels) {
    EXPECT_NEAR(l.rating, l.mu - model.z * settled_sigma(model), 1e-9);
  }
}

// The numbers in computer_levels.cpp are those docs/ai.md reports ("Levels by rating"): each row
// of that table names the level, its games, its share, the interval and the seed blocks.
TEST(ComputerLevels, TheMeasurementsAreTheOnesDocsAiReports) {
  std::ifstream in(VIKTORY_AI_DOC);
  ASSERT_TRUE(in) << VIKTORY_AI_DOC;
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const auto section = doc.find("### Levels by rating");
  ASSERT_NE(section, std::string::npos);
  int rows = 0;
  for (const LevelMeasurement& m : level_measurements()) {
    if (m.games == 0) continue;
    // | level | against | games | share | low-high | seeds |
    const std::regex row("\\| " + std::string(m.level) + " \\| " + std::string(m.against) +
                         " \\| ([0-9]+) \\| ([0-9.]+)% \\| ([0-9.]+)-([0-9.]+)% \\| ([^|]+) \\|");
    std::smatch match;
    const std::string rest = doc.substr(section);
    ASSERT_TRUE(std::regex_search(rest, match, row)) << m.level;
    EXPECT_EQ(std::stoi(match[1]), m.games) << m.level;
    EXPECT_NEAR(std::stod(match[2]) / 100, m.share, 5e-4) << m.level;
    EXPECT_NEAR(std::stod(match[3]) / 100, m.share_low, 5e-4) << m.level;
    EXPECT_NEAR(std::stod(match[4]) / 100, m.share_high, 5e-4) << m.level;
    std::string seeds = match[5];
    while (!seeds.empty() && seeds.back() == ' ') seeds.pop_back();
    EXPECT_EQ(seeds, m.seeds) << m.level;
    ++rows;
  }
  EXPECT_EQ(rows, 2);
}

struct LevelsHub {
  TempDir dir;
  Metrics metrics;
  Store store{dir.file("levels.db")};
  Hub hub{store, metrics, HubOptions{}};

  // A new player; his token.
  std::pair<std::int64_t, std::string> player(const std::string& name) {
    const ApiResponse r = hub.handle_api("POST", "/api/session", json{{"name", name}}.dump(), "");
    const json j = json::parse(r.body);
    return {std::stoll(j["player_id"].get<std::string>()), j["token"].get<std::string>()};
  }
  json get(const std::string& token = "") {
    const ApiResponse r = hub.handle_api("GET", "/api/computer-levels", "",
                                         token.empty() ? "" : "Bearer " + token, "127.0.0.1");
    EXPECT_EQ(r.status, 200) << r.body;
    return json::parse(r.body);
  }
};

TEST(ComputerLevelsApi, AStrangerGetsTheLevelsAndNoChances) {
  LevelsHub f;
  const json j = f.get();
  EXPECT_EQ(j["reference"], "heuristic");
  EXPECT_TRUE(j["yours"].is_null());
  ASSERT_EQ(j["levels"].size(), 3u);
  for (const json& l : j["levels"]) {
    EXPECT_FALSE(l.contains("your_chance")) << l.dump();
  }
  EXPECT_EQ(j["levels"][2]["level"], "search");
  EXPECT_EQ(j["levels"][2]["measured"]["games"], 700);
  EXPECT_FALSE(j["levels"][1].contains("measured"));  // the reference itself
  EXPECT_EQ(f.hub.handle_api("POST", "/api/computer-levels", "{}", "", "127.0.0.1").status, 405);
}

TEST(ComputerLevelsApi, ARatedPlayerGetsHisRatingsAndHisChanceAgainstEachLevel) {
  LevelsHub f;
  const auto [id, token] = f.player("Alice");
  const auto [other, other_token] = f.player("Bob");
  // Alice is rated with two players, clearly stronger than a new player; Bob is not rated.
  Statement s = f.store.db().prepare(
      "INSERT INTO ratings(player_id, players, mu, sigma, rating, games, updated) "
      "VALUES (?, 2, 31.0, 2.0, 25.0, 40, 0), (?, 4, 20.0, 5.0, 5.0, 3, 0)");
  s.bind(1, id).bind(2, id);
  s.step();
  const json mine = f.get(token);
  ASSERT_EQ(mine["yours"].size(), 2u);
  EXPECT_EQ(mine["yours"][0]["players"], 2);
  EXPECT_DOUBLE_EQ(mine["yours"][0]["mu"].get<double>(), 31.0);
  double previous = 1.0;
  for (const json& l : mine["levels"]) {
    const double chance = l["your_chance"].get<double>();
    EXPECT_NEAR(chance, win_chance(Rating{31.0, 2.0}, l["mu"].get<double>()), 1e-12);
    EXPECT_LT(chance, previous);  // the stronger the level, the smaller his chance
    previous = chance;
  }
  EXPECT_GT(mine["levels"][1]["your_chance"].get<double>(), 0.5);  // stronger than the heuristic
  // Bob's answer has his (empty) ratings and no chances; never Alice's.
  const json his = f.get(other_token);
  EXPECT_TRUE(his["yours"].is_array());
  EXPECT_TRUE(his["yours"].empty());
  EXPECT_FALSE(his["levels"][0].contains("your_chance"));
}

}  // namespace
}  // namespace viktory::server
