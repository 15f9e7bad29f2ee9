// Prints view deltas of random games as JSON lines, for the JavaScript test of
// web-client/js/view_delta.js (tests/browser/view_delta.test.js): the first line of each game
// and viewer holds the whole view; then one line per action with its delta, and every few
// actions also the whole view the delta must lead to.
//
//   view_delta_samples            (writes to stdout)
#include <iostream>

#include "../engine/random_play.h"
#include "game.h"
#include "json.h"
#include "view.h"
#include "view_delta.h"

int main() {
  using namespace viktory;
  using nlohmann::json;
  struct Sample {
    int players;
    bool independent;
    TileMix mix;
    int actions;
    bool optional_rules = false;  // [15.1]-[15.6]: their view fields come and go too
  };
  const Sample samples[] = {{2, false, TileMix::kStandard, 220},
                            {2, true, TileMix::kStandard, 220},
                            {3, true, TileMix::kIslands, 160},
                            {4, false, TileMix::kLandRich, 120},
                            {3, false, TileMix::kStandard, 220, true}};
  int game = 0;
  for (const Sample& sample : samples) {
    Options o;
    o.players = sample.players;
    o.independent_exploration = sample.independent;
    o.tile_mix = sample.mix;
    if (sample.optional_rules) {
      o.terrain_leveling = true;
      o.exploration_balancing = true;
      o.luck_averaging = true;
      o.town_relocation = true;
      o.subjugation = true;
    }
    const std::uint64_t seed = 4242 + static_cast<std::uint64_t>(game);
    GameState state = new_game(o, seed);
    std::vector<int> viewers = {kSpectator};
    for (int p = 0; p < o.players; ++p) viewers.push_back(p);
    std::vector<GameView> views;
    for (int v : viewers) {
      views.push_back(view_for(state, v));
      std::cout << json{{"game", game},
                        {"viewer", v},
                        {"seq", 0},
                        {"view", protocol::view_to_json(views.back())}}
                << '\n';
    }
    testing::Chooser chooser(seed);
    testing::play_random_game(
        state, chooser, sample.actions, [&](const GameState& after, const Action&, const auto&) {
          for (std::size_t i = 0; i < viewers.size(); ++i) {
            GameView next = view_for(after, viewers[i]);
            json line{{"game", game},
                      {"viewer", viewers[i]},
                      {"seq", after.action_count},
                      {"delta", protocol::view_delta_to_json(views[i], next)}};
            if (after.action_count % 4 == 0 || after.phase == Phase::kGameOver) {
              line["view"] = protocol::view_to_json(next);
            }
            std::cout << line << '\n';
            views[i] = std::move(next);
          }
        });
    // The last view of each game and viewer, whatever the step.
    for (std::size_t i = 0; i < viewers.size(); ++i) {
      std::cout << json{{"game", game},
                        {"viewer", viewers[i]},
                        {"seq", state.action_count},
                        {"final", protocol::view_to_json(views[i])}}
                << '\n';
    }
    ++game;
  }
  return 0;
}
