// Ratings of free-for-all games (docs/server.md, "Ratings"): the Weng-Lin Bayesian approximation
// with the Plackett-Luce model (R. C. Weng and C.-J. Lin, "A Bayesian Approximation Method for
// Online Ranking", Journal of Machine Learning Research 12 (2011) 267-300, Algorithm 4), with
// the defaults of the openskill package, which tests/rating-reference/ uses as the reference.
// Every player is a team of one. Pure functions: no I/O, no state.
#pragma once

#include <vector>

namespace viktory::server {

// A player's skill belief: mean and standard deviation.
struct Rating {
  double mu = 0;
  double sigma = 0;
};

// The model's constants: openskill's defaults.
struct RatingModel {
  double mu = 25.0;           // a new player's mean
  double sigma = 25.0 / 3.0;  // a new player's deviation
  double beta = 25.0 / 6.0;   // the spread of one game's performance around the skill
  double kappa = 0.0001;      // floor of the factor that shrinks sigma (keeps it positive)
  double tau = 25.0 / 300.0;  // added to sigma before each game (skills drift)
  double z = 3.0;             // the displayed rating is mu - z * sigma
};

inline Rating initial_rating(const RatingModel& model = {}) { return {model.mu, model.sigma}; }

// The ratings after one game of `before.size()` players (at least 2), in the same order.
// `ranks[i]` is player i's place: a lower number placed higher, equal numbers tie (only the
// order matters, not the gaps). Throws std::invalid_argument when the sizes differ or there
// are fewer than two players.
std::vector<Rating> rate_free_for_all(const std::vector<Rating>& before,
                                      const std::vector<int>& ranks, const RatingModel& model = {});

// The number shown as a player's rating: mu - z * sigma (openskill's ordinal), a cautious
// estimate that rises as the server grows sure of a player (a new player shows 0).
double displayed_rating(const Rating& r, const RatingModel& model = {});

}  // namespace viktory::server
