// The computer levels on the ladder's scale (docs/ai.md, "Levels by rating"; docs/protocol.md,
// "Computer seats"): so a player picks "about as strong as me" in the create form.
//
// What is measured is each level's share of wins against the heuristic in two-player games on
// held-out seeds (viktory-tournament). The rating model (rating.h) turns a share into a gap of
// skill: with two players whose skills are known, the model's chance that A places first is
// 1 / (1 + exp(-(mu_A - mu_B) / c)) with c = beta * sqrt(2), so the gap is c * logit(share).
// Where the levels stand against people is not measured: the heuristic is placed at a new
// player's mean (the model's prior), and that is said wherever the figures are shown.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common.h"
#include "rating.h"
#include "store.h"

namespace viktory::server {

// One level's measurement against the reference level, two players. When the level won no game
// (or every game) the share is a bound: `share_high` (or `share_low`) of the 95% Wilson
// interval, and the rating is a bound too.
struct LevelMeasurement {
  std::string_view level;    // "random", "heuristic", "search"
  std::string_view against;  // the reference level the share is measured against
  int games = 0;             // 0: the reference itself
  double share = 0.5;        // the level's share of wins (a shared win counts 1/k)
  double share_low = 0.5;    // the 95% Wilson interval
  double share_high = 0.5;
  std::string_view seeds;  // the held-out blocks, as docs/ai.md gives them
};

// The measurements docs/ai.md reports (tests/server/computer_levels_test.cpp reads that table
// and checks these numbers against it).
const std::vector<LevelMeasurement>& level_measurements();

// How sure the model grows of a player who plays many two-player games against his equals:
// the sigma it settles at (tau's drift against the shrink of each game), found by playing the
// model's own updates until sigma stops changing.
double settled_sigma(const RatingModel& model = {});

// The skill gap (in mu) that gives `share` of wins between two players of known skill.
double skill_gap(double share, const RatingModel& model = {});

// The model's chance that a player of belief `you` beats a level of known skill `level_mu` in a
// two-player game.
double win_chance(const Rating& you, double level_mu, const RatingModel& model = {});

// A level's place on the ladder's scale.
struct LevelRating {
  std::string level;
  double mu = 0;      // its skill; the reference level at the model's prior mean
  double rating = 0;  // mu - z * settled sigma: what a player as strong shows once settled
  // "about", or "at_most" / "at_least" when the measurement is a bound
  std::string bound = "about";
  const LevelMeasurement* measured = nullptr;
};
std::vector<LevelRating> level_ratings(const RatingModel& model = {});

// GET /api/computer-levels: the levels' ratings, and for a signed-in player his own ratings per
// player count and his two-player chance against each level. One indexed read for a player.
bool is_computer_levels_path(std::string_view path);
ApiResponse handle_computer_levels_api(Store& store, std::string_view method,
                                       std::optional<std::int64_t> viewer);

}  // namespace viktory::server
