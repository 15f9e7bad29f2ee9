// The direct view writer (protocol/view_text.h) against the reference forms: over random games
// of 2-6 players with every option, for every seat and the spectator after every action, the
// text of the view and of the view delta is byte for byte what view_to_json(...).dump() and
// view_delta_to_json(...).dump() write (as the server dumps them: error_handler_t::replace).
// Then the edge cases random play does not reach: every optional part at once, several victory
// conditions, empty lists, and strings that need escaping or are not ASCII.
#include "view_text.h"

#include <gtest/gtest.h>

#include <limits>
#include <set>
#include <string>
#include <utility>

#include "../engine/random_play.h"
#include "game.h"
#include "json.h"
#include "json_writer.h"
#include "option_mix.h"
#include "view.h"
#include "view_delta.h"

namespace viktory {
namespace {

using nlohmann::json;
using protocol::append_view_json;
using protocol::diff_views;
using protocol::view_delta_json_text;
using protocol::view_delta_to_json;
using protocol::view_json_text;
using protocol::view_to_json;

std::string dumped(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

struct Coverage {
  std::set<std::string> view_keys;   // top-level keys some view had
  std::set<std::string> delta_keys;  // keys some delta had
  long views = 0;
  long deltas = 0;
};

// Plays one random game; after every action compares, for every viewer, the view's text and
// the delta's text with the reference forms.
void check_game(const Options& options, std::uint64_t seed, int max_actions, Coverage& coverage) {
  GameState state = new_game(options, seed);
  std::vector<int> viewers = {kSpectator};
  for (int p = 0; p < options.players; ++p) viewers.push_back(p);
  std::vector<GameView> views;
  for (int v : viewers) views.push_back(view_for(state, v));
  testing::Chooser chooser(seed ^ 0xfa57);
  int step = 0;
  testing::play_random_game(
      state, chooser, max_actions, [&](const GameState& after, const Action&, const auto&) {
        ++step;
        for (std::size_t i = 0; i < viewers.size(); ++i) {
          GameView next = view_for(after, viewers[i]);
          const json reference = view_to_json(next);
          ASSERT_EQ(view_json_text(next), dumped(reference))
              << "view, seed " << seed << " step " << step << " viewer " << viewers[i];
          const protocol::ViewDelta d = diff_views(views[i], next);
          const json reference_delta = view_delta_to_json(d, next);
          ASSERT_EQ(view_delta_json_text(d, next), dumped(reference_delta))
              << "delta, seed " << seed << " step " << step << " viewer " << viewers[i];
          for (const auto& item : reference.items()) coverage.view_keys.insert(item.key());
          for (const auto& item : reference_delta.items()) coverage.delta_keys.insert(item.key());
          for (const char* part : {"set", "head"}) {
            if (!reference_delta.contains(part)) continue;
            for (const auto& item : reference_delta[part].items()) {
              coverage.delta_keys.insert(std::string(part) + "." + item.key());
            }
          }
          ++coverage.views;
          ++coverage.deltas;
          views[i] = std::move(next);
        }
      });
}

TEST(ViewText, ByteEqualToTheReferenceFormsOverRandomGames) {
  Coverage coverage;
  int games = 0;
  for (int players = 2; players <= 6; ++players) {
    for (int n = 0; n < 6; ++n) {
      const Options o = testing::option_mix(players, n);
      ASSERT_FALSE(options_problem(o)) << *options_problem(o);
      const std::uint64_t seed = 7000 + static_cast<std::uint64_t>(players * 100 + n);
      check_game(o, seed, players <= 3 ? 200 : 100, coverage);
      if (::testing::Test::HasFatalFailure()) return;
      ++games;
    }
  }
  EXPECT_EQ(games, 30);
  EXPECT_GT(coverage.views, 15000) << coverage.views;
  // The games reached the optional parts of a view, so they were compared too.
  for (const char* key : {"battle", "bombard", "elimination", "exploration_choice", "relocation"}) {
    EXPECT_TRUE(coverage.view_keys.count(key)) << key << " never appeared in a view";
  }
  for (const char* key :
       {"set", "unset", "hexes", "units", "units_removed", "players", "set.battle", "set.phase"}) {
    EXPECT_TRUE(coverage.delta_keys.count(key)) << key << " never appeared in a delta";
  }
}

// A view with every optional part and unusual values, which random play reaches rarely or not
// at all.
GameView every_part_view() {
  Options o;
  o.players = 4;
  testing::Chooser chooser(17);
  GameState state = new_game(o, 17);
  testing::play_random_game(state, chooser, 120);
  GameView v = view_for(state, 2);
  v.options.victory = VictoryCondition::kRace;
  v.options.victory.add(VictoryCondition::kSubjugation);
  v.options.subjugation = true;
  Battle battle;
  battle.hex = 3;
  battle.attacker = 1;
  battle.defender = 2;
  battle.naval = true;
  battle.round = 2;
  battle.marked = {4, 5};
  battle.attacker_dice = {6, 1, 3};
  v.battle = battle;
  PendingBombard bombard;
  bombard.hex = 7;
  bombard.firer = 0;
  bombard.target = 3;
  bombard.picks_by_target = 1;
  v.bombard = bombard;
  PendingElimination elimination;
  elimination.player = 1;
  elimination.owed = {UnitType::kCavalry, UnitType::kFrigate};
  v.elimination = elimination;
  PendingBalance balance;
  balance.player = 3;
  balance.water = {8, 9};
  balance.land = Terrain::kForest;
  v.balance = balance;
  PendingRelocation relocation;
  relocation.player = 0;
  relocation.from_hex = 12;
  relocation.city = true;
  v.relocation = relocation;
  CapitalReturn capital_return;
  capital_return.hex = 20;
  capital_return.ruler = 1;
  capital_return.vassal = 0;
  capital_return.naval_battles = {30};
  v.capital_return = capital_return;
  v.battle_entries = {{.battle_hex = 3, .from_hex = 4}, {.battle_hex = 3, .from_hex = 10}};
  v.winners = {0, 2};
  v.players[1].vassals = {0, 3};
  v.players[0].ruler = 1;
  v.units.front().carrier = 40;
  v.hexes.front().town_owner = 2;
  v.hexes.front().capital_of = 2;
  v.hexes.front().coord = {-4, 4};
  v.action_count = 2'000'000'000;  // large numbers too
  return v;
}

TEST(ViewText, EveryOptionalPartAtOnce) {
  const GameView v = every_part_view();
  const json reference = view_to_json(v);
  for (const char* key :
       {"battle", "bombard", "elimination", "exploration_choice", "relocation", "capital_return"}) {
    ASSERT_TRUE(reference.contains(key)) << key;
  }
  ASSERT_TRUE(reference["options"]["victory"].is_array());
  EXPECT_EQ(view_json_text(v), dumped(reference));
  // Appending keeps what the buffer held.
  std::string buffer = "prefix:";
  append_view_json(buffer, v);
  EXPECT_EQ(buffer, "prefix:" + dumped(reference));
}

TEST(ViewText, EmptyListsAndAnEmptyView) {
  const GameView empty;  // no hexes, units, players; nothing pending
  EXPECT_EQ(view_json_text(empty), dumped(view_to_json(empty)));
  GameView v = every_part_view();
  v.units.clear();
  v.battle->marked.clear();
  v.battle->attacker_dice.clear();
  v.elimination->owed.clear();
  v.balance->water.clear();
  v.capital_return->naval_battles.clear();
  v.players[1].vassals.clear();
  v.winners.clear();
  v.battle_entries.clear();
  EXPECT_EQ(view_json_text(v), dumped(view_to_json(v)));
}

// Deltas in every shape: set and unset together, the whole-head fallback, changed counts,
// units added, changed and removed.
TEST(ViewText, DeltasOfEveryShape) {
  const GameView full = every_part_view();
  GameView bare = full;
  bare.battle.reset();
  bare.bombard.reset();
  bare.capital_return.reset();
  bare.turn += 1;
  bare.phase = Phase::kMovement;
  bare.units.erase(bare.units.begin() + 1);
  bare.units.front().moves_left += 2;
  UnitView added = bare.units.back();
  added.id += 60;
  bare.units.push_back(added);
  bare.players[3].victory_points += 5;
  bare.hexes[5].city = true;
  const std::pair<const GameView*, const GameView*> directions[] = {{&full, &bare}, {&bare, &full}};
  for (const auto& [from, to] : directions) {
    const protocol::ViewDelta d = diff_views(*from, *to);
    const json reference = view_delta_to_json(d, *to);
    EXPECT_TRUE(reference.contains("set"));
    EXPECT_TRUE(reference.contains("unset") || reference.contains("units_removed"));
    EXPECT_EQ(view_delta_json_text(d, *to), dumped(reference));
    EXPECT_EQ(view_delta_json_text(*from, *to), dumped(reference));
  }
  // Only unset, no set.
  GameView less = full;
  less.relocation.reset();
  const json only_unset = view_delta_to_json(full, less);
  ASSERT_TRUE(only_unset.contains("unset"));
  ASSERT_FALSE(only_unset.contains("set"));
  EXPECT_EQ(view_delta_json_text(full, less), dumped(only_unset));

  protocol::ViewDelta whole = diff_views(full, bare);
  whole.whole_head = true;  // as if a field unknown to view_delta.cpp had changed
  whole.fields.clear();
  EXPECT_EQ(view_delta_json_text(whole, bare), dumped(view_delta_to_json(whole, bare)));

  GameView smaller = full;
  smaller.hexes.resize(10);
  smaller.players.resize(2);
  const json counts = view_delta_to_json(full, smaller);
  ASSERT_TRUE(counts.contains("hex_count") && counts.contains("player_count"));
  EXPECT_EQ(view_delta_json_text(full, smaller), dumped(counts));
  EXPECT_EQ(view_delta_json_text(smaller, full), dumped(view_delta_to_json(smaller, full)));

  EXPECT_EQ(view_delta_json_text(full, full), "{}");
}

// Strings: hex labels are plain ASCII today, but the writer must not assume it. Each of these
// goes through a label (the one free-text string in a view) and through the writer alone.
TEST(ViewText, StringsAreEscapedAsNlohmannDoes) {
  const std::string strings[] = {
      "",
      "plain",
      "quote \" backslash \\ slash /",
      "controls \b\f\n\r\t \x01\x1f \x7f",
      std::string("nul \0 inside", 12),
      "Zoë Ørsted 東京 \xF0\x9F\x8E\xB2",          // valid UTF-8, 2-4 bytes
      "bad \xC3 \xFF \xE6\x9D end",                // invalid and truncated sequences
      "surrogate \xED\xA0\x80 overlong \xC0\xAF",  // refused by UTF-8
      "ends in a truncated sequence \xF0\x9F\x8E",
      "\xE2\x80\xA8 line separators \xE2\x80\xA9 and <script>",
  };
  GameView v = every_part_view();
  for (const std::string& s : strings) {
    std::string text;
    protocol::JsonWriter w(text);
    w.value(std::string_view(s));
    EXPECT_EQ(text, dumped(json(s))) << s;
    v.hexes[0].label = s;
    EXPECT_EQ(view_json_text(v), dumped(view_to_json(v))) << s;
  }
}

// The writer's own structure: commas between members and elements, nested containers, raw
// parts, integers at their limits.
TEST(ViewText, WriterStructure) {
  std::string text;
  protocol::JsonWriter w(text);
  w.begin_object();
  w.key("a");
  w.begin_array();
  w.begin_array();
  w.end_array();
  w.begin_object();
  w.end_object();
  w.value(std::vector<int>{});
  w.value(std::vector<int>{-1, 0, 7});
  w.null();
  w.raw("{\"x\":1}");
  w.end_array();
  w.key("b");
  w.value(std::numeric_limits<std::int64_t>::min());
  w.key("c");
  w.value(std::numeric_limits<std::size_t>::max());
  w.key("d");
  w.value(false);
  w.end_object();
  const json reference = {
      {"a", {json::array(), json::object(), json::array(), {-1, 0, 7}, nullptr, {{"x", 1}}}},
      {"b", std::numeric_limits<std::int64_t>::min()},
      {"c", std::numeric_limits<std::size_t>::max()},
      {"d", false}};
  EXPECT_EQ(text, dumped(reference));
}

}  // namespace
}  // namespace viktory
