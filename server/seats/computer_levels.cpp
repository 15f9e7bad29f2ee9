// The computer levels on the ladder's scale (computer_levels.h).
#include "computer_levels.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "database.h"
#include "player_records.h"

namespace viktory::server {

namespace {

using nlohmann::json;

constexpr std::string_view kPath = "/api/computer-levels";

}  // namespace

const std::vector<LevelMeasurement>& level_measurements() {
  // docs/ai.md, "Levels by rating": two players, held-out seed blocks, 64 rollouts for the
  // search. The search's row sums the four victory conditions' blocks after the port and
  // landing work (700 games); the random level won none of its games against the heuristic, so
  // its share is the interval's upper end.
  static const std::vector<LevelMeasurement> kMeasurements = {
      {"random", "heuristic", 400, 0.0, 0.0, 0.0095, "3429660570-3429660969"},
      {"heuristic", "heuristic", 0, 0.5, 0.5, 0.5, ""},
      {"search", "heuristic", 700, 0.764, 0.731, 0.794,
       "1926432090-1926432189, 2698196998-2698197297, 3920856525-3920856624, "
       "435168526-435168625, 163386936-163387035"},
  };
  return kMeasurements;
}

namespace {

double settle(const RatingModel& model) {
  // Two equal players take turns winning until sigma stops moving (it settles within a few
  // thousand games: tau's drift balances the shrink of one game).
  std::vector<Rating> pair = {initial_rating(model), initial_rating(model)};
  for (int game = 0; game < 20000; ++game) {
    const double before = pair[0].sigma;
    pair = rate_free_for_all(pair, game % 2 == 0 ? std::vector<int>{1, 2} : std::vector<int>{2, 1},
                             model);
    if (game % 2 == 1 && std::abs(pair[0].sigma - before) < 1e-9) break;
  }
  return pair[0].sigma;
}

bool is_default(const RatingModel& m) {
  const RatingModel d;
  return m.mu == d.mu && m.sigma == d.sigma && m.beta == d.beta && m.kappa == d.kappa &&
         m.tau == d.tau && m.z == d.z;
}

}  // namespace

double settled_sigma(const RatingModel& model) {
  static const double kDefault = settle(RatingModel{});  // the server's model: once
  return is_default(model) ? kDefault : settle(model);
}

double skill_gap(double share, const RatingModel& model) {
  const double c = model.beta * std::sqrt(2.0);
  return c * std::log(share / (1.0 - share));
}

double win_chance(const Rating& you, double level_mu, const RatingModel& model) {
  // The model's own chance of placing first (rating.cpp's exp(mu / c) over the game's sum),
  // with the level's sigma 0: its strength is measured, not believed.
  const double c = std::sqrt(you.sigma * you.sigma + 2 * model.beta * model.beta);
  return 1.0 / (1.0 + std::exp(-(you.mu - level_mu) / c));
}

std::vector<LevelRating> level_ratings(const RatingModel& model) {
  const double settled = settled_sigma(model);
  std::vector<LevelRating> out;
  for (const LevelMeasurement& m : level_measurements()) {
    LevelRating r;
    r.level = std::string(m.level);
    r.measured = &m;
    double share = m.share;
    if (m.games > 0 && m.share <= 0) {
      share = m.share_high;  // never won: at most as strong as winning this often
      r.bound = "at_most";
    } else if (m.games > 0 && m.share >= 1) {
      share = m.share_low;
      r.bound = "at_least";
    }
    r.mu = model.mu + skill_gap(share, model);
    r.rating = r.mu - model.z * settled;
    out.push_back(std::move(r));
  }
  return out;
}

bool is_computer_levels_path(std::string_view path) { return path == kPath; }

ApiResponse handle_computer_levels_api(Store& store, std::string_view method,
                                       std::optional<std::int64_t> viewer) {
  if (method != "GET") return api_error(405, "method", "use GET");
  const RatingModel model;
  std::vector<Rating> two_player;  // the viewer's belief with two players, if rated there
  json yours = nullptr;
  if (viewer) {
    store.with_reader([&](Database& db) { yours = ratings_of(db, *viewer); });
    for (const json& r : yours) {
      if (r["players"] == 2)
        two_player.push_back({r["mu"].get<double>(), r["sigma"].get<double>()});
    }
  }
  json levels = json::array();
  for (const LevelRating& r : level_ratings(model)) {
    json e{{"level", r.level}, {"mu", r.mu}, {"rating", r.rating}, {"bound", r.bound}};
    if (r.measured->games > 0) {
      e["measured"] =
          json{{"against", r.measured->against},     {"players", 2},
               {"games", r.measured->games},         {"share", r.measured->share},
               {"share_low", r.measured->share_low}, {"share_high", r.measured->share_high},
               {"seeds", r.measured->seeds}};
    }
    if (!two_player.empty()) {
      // With a bound, so is the chance (at least this much against a level at most this strong).
      e["your_chance"] = win_chance(two_player.front(), r.mu, model);
    }
    levels.push_back(std::move(e));
  }
  ApiResponse answer{200, json{{"reference", "heuristic"},
                               {"reference_mu", model.mu},
                               {"settled_sigma", settled_sigma(model)},
                               {"levels", std::move(levels)},
                               {"yours", std::move(yours)}}
                              .dump()};
  answer.compressible = true;  // ratings and public measurements: no secret
  return answer;
}

}  // namespace viktory::server
