// Weng & Lin (2011), Algorithm 4 (Plackett-Luce), for teams of one player, written to give
// the numbers of the openskill package's rate() with its defaults (tests/rating-reference/).
#include "rating.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>

namespace viktory::server {

std::vector<Rating> rate_free_for_all(const std::vector<Rating>& before,
                                      const std::vector<int>& ranks, const RatingModel& model) {
  const std::size_t n = before.size();
  if (n < 2) throw std::invalid_argument("a rated game has at least two players");
  if (ranks.size() != n) throw std::invalid_argument("one rank per player");
  // Skills drift between games: each sigma grows by tau first (openskill's default dynamics).
  std::vector<double> variance(n);
  for (std::size_t i = 0; i < n; ++i) {
    variance[i] = before[i].sigma * before[i].sigma + model.tau * model.tau;
  }
  // c: the spread of the whole game's performances.
  double c_squared = 0;
  for (std::size_t i = 0; i < n; ++i) c_squared += variance[i] + model.beta * model.beta;
  const double c = std::sqrt(c_squared);
  std::vector<double> strength(n);  // exp(mu / c)
  for (std::size_t i = 0; i < n; ++i) strength[i] = std::exp(before[i].mu / c);
  // For each player q: the strengths of everyone placed at q's rank or below (the players q
  // still had to beat), and how many share q's rank (A_q in the paper: ties split the credit).
  std::vector<double> sum_from_rank(n, 0.0);
  std::vector<int> tied(n, 0);
  for (std::size_t q = 0; q < n; ++q) {
    for (std::size_t i = 0; i < n; ++i) {
      if (ranks[i] >= ranks[q]) sum_from_rank[q] += strength[i];
      if (ranks[i] == ranks[q]) ++tied[q];
    }
  }
  std::vector<Rating> after(n);
  for (std::size_t i = 0; i < n; ++i) {
    double omega = 0;
    double delta = 0;
    for (std::size_t q = 0; q < n; ++q) {
      if (ranks[q] > ranks[i]) continue;  // only the draws in which i still took part
      const double quotient = strength[i] / sum_from_rank[q];
      omega += ((i == q ? 1.0 : 0.0) - quotient) / tied[q];
      delta += quotient * (1.0 - quotient) / tied[q];
    }
    const double sigma = std::sqrt(variance[i]);
    const double gamma = sigma / c;  // the paper's default gamma_q = sigma_q / c
    const double mu = before[i].mu + omega * variance[i] / c;
    const double shrink = delta * gamma * variance[i] / c_squared;
    after[i] = {mu, sigma * std::sqrt(std::max(1.0 - shrink, model.kappa))};
  }
  return after;
}

double displayed_rating(const Rating& r, const RatingModel& model) {
  return r.mu - model.z * r.sigma;
}

}  // namespace viktory::server
