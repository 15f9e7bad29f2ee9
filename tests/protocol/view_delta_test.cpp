// View deltas: over many random games, for every viewer, applying the delta of each action to
// the JSON of the view before gives exactly view_to_json of the view after. The comparison is
// against view_to_json itself, so a field added to the view but forgotten by the delta fails
// here.
#include "view_delta.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "../engine/random_play.h"
#include "game.h"
#include "json.h"
#include "view.h"

namespace viktory {
namespace {

using nlohmann::json;
using protocol::apply_view_delta;
using protocol::diff_views;
using protocol::view_delta_to_json;
using protocol::view_to_json;

struct Sizes {
  std::size_t full = 0;
  std::size_t delta = 0;
  std::set<std::string> keys;  // top-level keys some delta set or unset
};

// Plays one random game and checks every step for every viewer. Returns the bytes of the full
// views and of the deltas.
Sizes check_game(const Options& options, std::uint64_t seed, int max_actions) {
  GameState state = new_game(options, seed);
  std::vector<int> viewers = {kSpectator};
  for (int p = 0; p < options.players; ++p) viewers.push_back(p);
  std::vector<GameView> views;
  std::vector<json> texts;
  for (int v : viewers) {
    views.push_back(view_for(state, v));
    texts.push_back(view_to_json(views.back()));
  }
  Sizes sizes;
  testing::Chooser chooser(seed ^ 0x5eed);
  int step = 0;
  testing::play_random_game(
      state, chooser, max_actions, [&](const GameState& after, const Action&, const auto&) {
        ++step;
        for (std::size_t i = 0; i < viewers.size(); ++i) {
          GameView next = view_for(after, viewers[i]);
          const protocol::ViewDelta d = diff_views(views[i], next);
          ASSERT_FALSE(d.whole_head)
              << "a top-level field of GameView is not listed in protocol/view_delta.cpp";
          // Through text, as a client gets it.
          const json delta = json::parse(view_delta_to_json(d, next).dump());
          const json expected = view_to_json(next);
          const json applied = apply_view_delta(texts[i], delta);
          ASSERT_EQ(applied, expected) << "seed " << seed << " step " << step << " viewer "
                                       << viewers[i] << "\ndelta: " << delta.dump();
          sizes.full += expected.dump().size();
          sizes.delta += delta.dump().size();
          const json set = delta.value("set", json::object());
          for (const auto& [key, value] : set.items()) sizes.keys.insert(key);
          const json unset = delta.value("unset", json::array());
          for (const json& key : unset) sizes.keys.insert(key.get<std::string>());
          views[i] = std::move(next);
          texts[i] = expected;
        }
      });
  return sizes;
}

TEST(ViewDelta, ApplyingEachDeltaGivesTheNextViewOverRandomGames) {
  Sizes total;
  int games = 0;
  const TileMix mixes[] = {TileMix::kStandard, TileMix::kLandRich, TileMix::kIslands};
  for (int players = 2; players <= 6; ++players) {
    for (bool independent : {false, true}) {
      Options o;
      o.players = players;
      o.independent_exploration = independent;
      o.tile_mix = mixes[static_cast<std::size_t>(games) % 3];
      o.victory = players % 2 == 0 ? VictoryCondition::kStandard : VictoryCondition::kDoomsday;
      const std::uint64_t seed = 1000 + static_cast<std::uint64_t>(games);
      const Sizes s = check_game(o, seed, players <= 3 ? 400 : 200);
      if (::testing::Test::HasFatalFailure()) return;
      total.full += s.full;
      total.delta += s.delta;
      ++games;
    }
  }
  EXPECT_EQ(games, 10);
  // Compact: a step costs a small part of a full view.
  EXPECT_LT(total.delta * 10, total.full)
      << total.delta << " delta bytes, " << total.full << " bytes of full views";
}

// Fog of war: the hexes' "unseen" flags and the "last_seen" list change as units move; they
// travel as deltas (changed hexes, a set field), never as a whole-head fallback.
TEST(ViewDelta, FogOfWarFieldsTravelAsDeltas) {
  std::set<std::string> keys;
  for (int players = 2; players <= 4; ++players) {
    Options o;
    o.players = players;
    o.fog_of_war = true;
    o.fog_city_sight = players - 1;
    o.independent_exploration = players == 3;
    o.subjugation = players == 4;
    const Sizes s = check_game(o, 3000 + static_cast<std::uint64_t>(players), 600);
    if (::testing::Test::HasFatalFailure()) return;
    keys.insert(s.keys.begin(), s.keys.end());
  }
  EXPECT_TRUE(keys.count("last_seen")) << "no unit was ever remembered in these games";
}

// The optional rules [15.x] add top-level fields that come and go during a game (a pending
// Exploration Balancing choice [15.3], a Town relocation [15.5], a Capital to return [15.62])
// and Ruler/Vassal fields on the players [15.61]: they travel as deltas too, never as a
// whole-head fallback.
TEST(ViewDelta, OptionalRulesFieldsTravelAsDeltas) {
  std::set<std::string> keys;
  int games = 0;
  for (int players = 2; players <= 6; ++players) {
    for (int variant = 0; variant < 2; ++variant) {
      Options o;
      o.players = players;
      o.terrain_leveling = variant == 0;
      o.no_exploration = variant == 1;
      o.exploration_balancing = variant == 0;
      o.luck_averaging = variant == 1;
      o.town_relocation = true;
      o.subjugation = true;
      o.victory = VictoryCondition::kStandard;
      if (players % 2 == 1) o.victory.add(VictoryCondition::kSubjugation);
      const std::uint64_t seed = 2000 + static_cast<std::uint64_t>(games);
      const Sizes s = check_game(o, seed, 400);
      if (::testing::Test::HasFatalFailure()) return;
      keys.insert(s.keys.begin(), s.keys.end());
      ++games;
    }
  }
  EXPECT_EQ(games, 10);
  // The fields came and went at least once, so the games above did test them.
  for (const char* key : {"exploration_choice", "relocation"}) {
    EXPECT_TRUE(keys.count(key)) << key << " never changed in these games";
  }
}

TEST(ViewDelta, NothingChangedIsAnEmptyObject) {
  Options o;
  const GameState s = new_game(o, 7);
  const GameView v = view_for(s, 0);
  EXPECT_TRUE(diff_views(v, v).empty());
  EXPECT_EQ(view_delta_to_json(v, v), json::object());
  EXPECT_EQ(apply_view_delta(view_to_json(v), json::object()), view_to_json(v));
}

TEST(ViewDelta, WholeHeadFallbackReplacesEveryTopLevelField) {
  Options o;
  o.players = 3;
  GameState s = new_game(o, 11);
  const GameView before = view_for(s, 1);
  testing::Chooser chooser(3);
  testing::play_random_game(s, chooser, 40);
  const GameView after = view_for(s, 1);
  protocol::ViewDelta d = diff_views(before, after);
  d.whole_head = true;  // as if a field unknown to view_delta.cpp had changed
  d.fields.clear();
  json before_json = view_to_json(before);
  before_json["stale_field"] = 1;  // an unknown top-level key the fallback must drop
  const json delta = view_delta_to_json(d, after);
  ASSERT_TRUE(delta.contains("head"));
  EXPECT_EQ(apply_view_delta(before_json, delta), view_to_json(after));
}

TEST(ViewDelta, UnitsAddedAndRemovedKeepTheirOrder) {
  Options o;
  GameState s = new_game(o, 5);
  testing::Chooser chooser(9);
  testing::play_random_game(s, chooser, 30);
  GameView before = view_for(s, kSpectator);
  GameView after = before;
  ASSERT_GE(after.units.size(), 3u);
  after.units.erase(after.units.begin() + 1);  // removed
  after.units.front().moves_left += 1;         // changed
  UnitView added = after.units.back();
  added.id += 50;  // a new unit at the end
  after.units.push_back(added);
  const protocol::ViewDelta d = diff_views(before, after);
  EXPECT_EQ(d.units_removed, std::vector<int>{before.units[1].id});
  EXPECT_EQ(d.units.size(), 2u);
  EXPECT_EQ(apply_view_delta(view_to_json(before), view_delta_to_json(d, after)),
            view_to_json(after));
  // And back: the removed unit is inserted in id order again.
  EXPECT_EQ(apply_view_delta(view_to_json(after), view_delta_to_json(after, before)),
            view_to_json(before));
}

TEST(ViewDelta, ADeltaThatDoesNotFitIsRefused) {
  Options o;
  const json view = view_to_json(view_for(new_game(o, 1), 0));
  auto refused = [&](const json& delta) {
    EXPECT_THROW(apply_view_delta(view, delta), protocol::JsonError) << delta.dump();
  };
  refused(json::array());
  refused(json{{"frobnicate", 1}});
  refused(json{{"set", {{"hexes", json::array()}}}});
  refused(json{{"unset", {"units"}}});
  refused(json{{"hexes", {{{"hex", 100000}}}}});
  refused(json{{"hexes", {{{"label", "A1"}}}}});
  refused(json{{"units_removed", {424242}}});
  refused(json{{"units", {{{"owner", 0}}}}});
  refused(json{{"players", {{{"index", -1}}}}});
  refused(json{{"hex_count", 1000}});
  refused(json{{"hex_count", -1}});
}

}  // namespace
}  // namespace viktory
