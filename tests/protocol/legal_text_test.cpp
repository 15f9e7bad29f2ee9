// The legal actions' direct writer (protocol/legal_text.h) against the reference form, the
// nlohmann tree of actions_to_json dumped as the server dumped it: over random games of 2-6
// players with every optional rule, for every seat after every action, the text is byte for
// byte the tree's dump(); then every action kind with every field, which random play may not
// reach.
#include "legal_text.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "../engine/random_play.h"
#include "game.h"
#include "json.h"
#include "option_mix.h"

namespace viktory {
namespace {

using nlohmann::json;
using protocol::actions_json_text;
using protocol::actions_to_json;

std::string reference(const std::vector<Action>& actions) {
  return json(actions_to_json(actions)).dump();
}

TEST(LegalText, ByteEqualToTheTreeOverRandomGames) {
  std::set<std::string> kinds;
  long lists = 0;
  for (int players = 2; players <= 6; ++players) {
    for (int n = 0; n < 9; ++n) {
      const Options o = testing::option_mix(players, n);
      ASSERT_FALSE(options_problem(o)) << *options_problem(o);
      const std::uint64_t seed = 9100 + static_cast<std::uint64_t>(players * 100 + n);
      GameState state = new_game(o, seed);
      testing::Chooser chooser(seed ^ 0x1e9a1);
      int step = 0;
      auto compare = [&](const GameState& s) {
        for (int seat = 0; seat < players; ++seat) {
          const std::vector<Action> legal = legal_actions(s, seat);
          ASSERT_EQ(actions_json_text(legal), reference(legal))
              << "seed " << seed << " step " << step << " seat " << seat;
          for (const Action& a : legal) kinds.insert(std::string(to_string(a.kind)));
          ++lists;
        }
      };
      compare(state);
      testing::play_random_game(state, chooser, players <= 3 ? 300 : 150,
                                [&](const GameState& after, const Action&, const auto&) {
                                  ++step;
                                  if (after.phase != Phase::kGameOver) compare(after);
                                });
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  EXPECT_GT(lists, 20000) << lists;
  // The games offered the kinds of every phase and of the optional rules, so those were
  // compared with their fields.
  for (const char* kind :
       {"place_capital", "build_town", "upgrade_city", "end_phase", "move", "embark", "disembark",
        "bombard", "start_battle", "choose_casualty", "retreat", "continue_battle", "place_reserve",
        "concede", "average_dice", "remove_town", "rebuild_town"}) {
    EXPECT_TRUE(kinds.count(kind)) << kind << " was never legal in the random games";
  }
}

TEST(LegalText, EveryKindWithEveryField) {
  std::vector<Action> all;
  for (int k = 0; k <= static_cast<int>(ActionKind::kRedeploy); ++k) {
    Action a;
    a.kind = static_cast<ActionKind>(k);
    a.player = k % kMaxPlayers;
    a.hex = 100 + k;
    a.unit = 200 + k;
    a.carrier = 300 + k;
    a.unit_type = static_cast<UnitType>(k % 4);
    a.pairs = k % 4;
    all.push_back(a);
    a.player = kNoPlayer;  // written without "player"
    all.push_back(a);
  }
  EXPECT_EQ(actions_json_text(all), reference(all));
  EXPECT_EQ(actions_json_text({}), reference({}));
  EXPECT_EQ(actions_json_text({}), "[]");
}

}  // namespace
}  // namespace viktory
