// The view writer (protocol/view_text.h), the one writer of a view's shape. Over random games
// of 2-6 players with every option, for every seat and the spectator after every action: the
// text of the view and of the view delta is the dump of its own parsed tree (keys in byte
// order, nothing twice: the bytes every message and replay page always had), and every
// difference the view structs have shows in the text (a field the writer forgets fails here).
// A small hand-made view pins the bytes themselves (taken from the tree writer that was
// retired when this one became the only one). Then the edge cases random play does not reach:
// every optional part at once, several victory conditions, empty lists, and strings that need
// escaping or are not ASCII.
#include "view_text.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
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
  long differences = 0;  // changed parts and fields checked to show in the text
};

// A value of the object `j` at `key`, or null when it is absent (optional fields).
json at_or_null(const json& j, const std::string& key) {
  auto it = j.find(key);
  return it == j.end() ? json(nullptr) : *it;
}

// Every hex, unit, player and top-level field that `d` (from the structs) names as changed is
// written differently in `after` than in `before`.
void check_differences_show(const protocol::ViewDelta& d, const json& before, const json& after,
                            Coverage& coverage, const std::string& where) {
  ASSERT_FALSE(d.whole_head) << where;  // view_delta.cpp lists every top-level field
  for (const std::string& key : d.fields) {
    ASSERT_NE(at_or_null(before, key), at_or_null(after, key)) << "field " << key << ", " << where;
    ++coverage.differences;
  }
  for (const char* part : {"hexes", "players"}) {
    const std::vector<int>& changed = std::string(part) == "hexes" ? d.hexes : d.players;
    for (int i : changed) {
      const auto index = static_cast<std::size_t>(i);
      if (index >= before[part].size()) continue;  // new: nothing to differ from
      ASSERT_NE(before[part][index], after[part][index]) << part << " " << i << ", " << where;
      ++coverage.differences;
    }
  }
  std::map<int, const json*> units_before;
  for (const json& u : before["units"]) units_before[u["id"].get<int>()] = &u;
  for (const json& u : after["units"]) {
    const int id = u["id"];
    if (std::find(d.units.begin(), d.units.end(), id) == d.units.end()) continue;
    if (!units_before.count(id)) continue;  // added
    ASSERT_NE(*units_before[id], u) << "unit " << id << ", " << where;
    ++coverage.differences;
  }
}

// Plays one random game; after every action checks, for every viewer, the view's text and the
// delta's text (see the top of the file).
void check_game(const Options& options, std::uint64_t seed, int max_actions, Coverage& coverage) {
  GameState state = new_game(options, seed);
  std::vector<int> viewers = {kSpectator};
  for (int p = 0; p < options.players; ++p) viewers.push_back(p);
  std::vector<GameView> views;
  std::vector<json> trees;
  for (int v : viewers) {
    views.push_back(view_for(state, v));
    trees.push_back(json::parse(view_json_text(views.back())));
  }
  testing::Chooser chooser(seed ^ 0xfa57);
  int step = 0;
  testing::play_random_game(
      state, chooser, max_actions, [&](const GameState& after, const Action&, const auto&) {
        if (::testing::Test::HasFatalFailure()) return;  // one failure is enough to read
        ++step;
        for (std::size_t i = 0; i < viewers.size(); ++i) {
          const std::string where = "seed " + std::to_string(seed) + " step " +
                                    std::to_string(step) + " viewer " + std::to_string(viewers[i]);
          GameView next = view_for(after, viewers[i]);
          const std::string text = view_json_text(next);
          json tree = json::parse(text);
          ASSERT_EQ(text, dumped(tree)) << "view, " << where;
          const protocol::ViewDelta d = diff_views(views[i], next);
          const std::string delta_text = view_delta_json_text(d, next);
          const json delta = json::parse(delta_text);
          ASSERT_EQ(delta_text, dumped(delta)) << "delta, " << where;
          check_differences_show(d, trees[i], tree, coverage, where);
          if (::testing::Test::HasFatalFailure()) return;
          for (const auto& item : tree.items()) coverage.view_keys.insert(item.key());
          for (const auto& item : delta.items()) coverage.delta_keys.insert(item.key());
          for (const char* part : {"set", "head"}) {
            if (!delta.contains(part)) continue;
            for (const auto& item : delta[part].items()) {
              coverage.delta_keys.insert(std::string(part) + "." + item.key());
            }
          }
          ++coverage.views;
          ++coverage.deltas;
          views[i] = std::move(next);
          trees[i] = std::move(tree);
        }
      });
}

TEST(ViewText, CanonicalAndCompleteOverRandomGames) {
  Coverage coverage;
  int games = 0;
  for (int players = 2; players <= 6; ++players) {
    for (int n = 0; n < 6; ++n) {
      Options o = testing::option_mix(players, n);
      o.defender_prefire = n % 2 == 1;  // the house rules: their option keys and actions too
      o.redeployment = n % 3 == 1;
      ASSERT_FALSE(options_problem(o)) << *options_problem(o);
      const std::uint64_t seed = 7000 + static_cast<std::uint64_t>(players * 100 + n);
      check_game(o, seed, players <= 3 ? 200 : 100, coverage);
      if (::testing::Test::HasFatalFailure()) return;
      ++games;
    }
  }
  EXPECT_EQ(games, 30);
  EXPECT_GT(coverage.views, 15000) << coverage.views;
  EXPECT_GT(coverage.differences, 15000) << coverage.differences;
  // The games reached the optional parts of a view, so they were compared too.
  for (const char* key : {"battle", "bombard", "elimination", "exploration_choice", "relocation"}) {
    EXPECT_TRUE(coverage.view_keys.count(key)) << key << " never appeared in a view";
  }
  for (const char* key :
       {"set", "unset", "hexes", "units", "units_removed", "players", "set.battle", "set.phase"}) {
    EXPECT_TRUE(coverage.delta_keys.count(key)) << key << " never appeared in a delta";
  }
}

// [3.2] A chosen board size is in the view's options and every board, 7 and 8 players too, is
// written the same by both writers.
TEST(ViewText, R3_2_CanonicalOnChosenBoardsAndWithEightPlayers) {
  Coverage coverage;
  const std::vector<std::pair<int, int>> boards{{2, 217}, {6, 61}, {7, 169}, {8, 0}};
  for (const auto& [players, hexes] : boards) {
    Options o = testing::option_mix(players, 1);
    o.board_hexes = hexes;
    ASSERT_FALSE(options_problem(o)) << *options_problem(o);
    check_game(o, 7700 + static_cast<std::uint64_t>(players), 80, coverage);
    if (::testing::Test::HasFatalFailure()) return;
    // The view names the chosen board in its options (absent: the rules' size) and its radius.
    const json view = json::parse(view_json_text(view_for(new_game(o, 1), 0)));
    if (hexes != 0) {
      EXPECT_EQ(view["options"]["board_hexes"], hexes);
    } else {
      EXPECT_FALSE(view["options"].contains("board_hexes"));
    }
    EXPECT_EQ(view["radius"], board_radius_for(players, hexes));
  }
  EXPECT_GT(coverage.views, 300) << coverage.views;
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
  const json tree = view_to_json(v);
  for (const char* key :
       {"battle", "bombard", "elimination", "exploration_choice", "relocation", "capital_return"}) {
    ASSERT_TRUE(tree.contains(key)) << key;
  }
  ASSERT_TRUE(tree["options"]["victory"].is_array());
  EXPECT_EQ(view_json_text(v), dumped(tree));
  // Appending keeps what the buffer held.
  std::string buffer = "prefix:";
  append_view_json(buffer, v);
  EXPECT_EQ(buffer, "prefix:" + dumped(tree));
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
    const json tree = view_delta_to_json(d, *to);
    EXPECT_TRUE(tree.contains("set"));
    EXPECT_TRUE(tree.contains("unset") || tree.contains("units_removed"));
    EXPECT_EQ(view_delta_json_text(d, *to), dumped(tree));
    EXPECT_EQ(view_delta_json_text(*from, *to), dumped(tree));
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

// A small view made by hand, with every part and every optional field: its text is pinned
// below, byte for byte, as the writer wrote it when it became the only one (the same bytes as
// the tree writer before it). A field added to a view part changes this text on purpose.
GameView pinned_view() {
  GameView v;
  v.viewer = 1;
  v.options.players = 2;
  v.options.victory = VictoryCondition::kRace;
  v.options.victory.add(VictoryCondition::kSubjugation);
  v.radius = 1;
  v.turn = 3;
  v.current = 1;
  v.first_player = 0;
  v.phase = Phase::kMovement;
  v.decider = 1;
  v.active_unit = 5;
  HexView known;
  known.hex = 0;
  known.coord = {0, 0};
  known.label = "D4";  // in the board, not in the view
  known.known = true;
  known.terrain = Terrain::kForest;
  known.town_owner = 1;
  known.city = true;
  known.capital_of = 1;
  known.built_this_turn = true;
  known.placed_infantry = 2;
  known.began_turn_with_land_unit = 3;
  HexView unknown;
  unknown.hex = 1;
  unknown.battle_this_turn = true;
  unknown.placed_other = 1;
  v.hexes = {known, unknown};
  UnitView unit;
  unit.id = 5;
  unit.owner = 1;
  unit.type = UnitType::kFrigate;
  unit.place = UnitPlace::kMap;
  unit.hex = 1;
  unit.moves_left = 2;
  unit.has_moved = true;
  unit.carried_this_turn = 1;
  unit.disembark_hex = 0;
  v.units = {unit};
  PlayerView first;
  first.index = 0;
  first.conceded = true;
  first.ruler = 1;
  first.reserve = {1, 2, 3, 4};
  first.reorganization = Reorganization::kNextTurn;
  PlayerView second;
  second.index = 1;
  second.capital_hex = 0;
  second.holds_capital = true;
  second.doomsday_coin = true;
  second.doomsday_roll = 6;
  second.victory_points = 4;
  second.vassals = {0};
  v.players = {first, second};
  v.capital_choices = {0};
  Battle battle;
  battle.hex = 1;
  battle.attacker = 1;
  battle.defender = 0;
  battle.round = 2;
  battle.marked = {5};
  battle.attacker_dice = {6, 1};
  v.battle = battle;
  PendingBombard bombard;
  bombard.hex = 1;
  bombard.firer = 1;
  bombard.target = 0;
  v.bombard = bombard;
  PendingElimination elimination;
  elimination.player = 0;
  elimination.owed = {UnitType::kCavalry};
  v.elimination = elimination;
  v.pending_battles = {1};
  v.turn_order = {0, 1};
  PendingBalance balance;
  balance.player = 1;
  balance.water = {1};
  balance.land = Terrain::kPlains;
  v.balance = balance;
  PendingRelocation relocation;
  relocation.player = 0;
  relocation.from_hex = 1;
  v.relocation = relocation;
  CapitalReturn capital_return;
  capital_return.hex = 0;
  capital_return.ruler = 1;
  capital_return.vassal = 0;
  capital_return.naval_battles = {1};
  v.capital_return = capital_return;
  v.doomsday_started = true;
  v.winners = {1};
  v.action_count = 77;
  v.battle_entries = {{.battle_hex = 1, .from_hex = 0}};
  v.placement_battles = {1};
  v.ending_turn = true;
  return v;
}

constexpr std::string_view kPinnedView =
    R"({"action_count":77,"active_unit":5,"battle":{"attacker":1,"attacker_dice":[6,1],"attacke)"
    R"(r_pairs":0,"defender":0,"defender_dice":[],"defender_pairs":0,"dice_due":0,"hex":1,"mark)"
    R"(ed":[5],"naval":false,"picks_by_firer":0,"picks_by_target":0,"placement":false,"round":2)"
    R"(,"stage":"assign_pre_fire","suppression":0},"battle_entries":[{"battle_hex":1,"from_hex")"
    R"(:0}],"bombard":{"firer":1,"hex":1,"picks_by_firer":0,"picks_by_target":0,"target":0},"ca)"
    R"(pital_choices":[0],"capital_return":{"hex":0,"naval_battles":[1],"ruler":1,"stage":"with)"
    R"(draw","vassal":0},"current":1,"decider":1,"doomsday_started":true,"elimination":{"owed":)"
    R"(["cavalry"],"player":0},"ended_by":"standard","ending_turn":true,"exploration_choice":{")"
    R"(land":"plains","player":1,"water":[1]},"first_player":0,"hexes":[{"battle_this_turn":fal)"
    R"(se,"began_turn_with_land_unit":3,"built_this_turn":true,"capital_of":1,"city":true,"hex")"
    R"(:0,"known":true,"placed_infantry":2,"placed_other":0,"terrain":"forest","town_owner":1},)"
    R"({"battle_this_turn":true,"began_turn_with_land_unit":0,"built_this_turn":false,"city":fa)"
    R"(lse,"hex":1,"known":false,"placed_infantry":0,"placed_other":1}],"options":{"exploration)"
    R"(_balancing":false,"independent_exploration":false,"luck_averaging":false,"no_exploration)"
    R"(":false,"players":2,"subjugation":false,"terrain_leveling":false,"tile_mix":"standard",")"
    R"(town_relocation":false,"victory":["race","subjugation"]},"pending_battles":[1],"phase":")"
    R"(movement","placement_battles":[1],"players":[{"capital_hex":-1,"conceded":true,"doomsday)"
    R"(_coin":false,"eliminated":false,"holds_capital":false,"index":0,"reorganization":"next_t)"
    R"(urn","reserve":{"artillery":3,"cavalry":2,"frigate":4,"infantry":1},"ruler":1,"vassals":)"
    R"([],"victory_points":0},{"capital_hex":0,"conceded":false,"doomsday_coin":true,"doomsday_)"
    R"(roll":6,"eliminated":false,"holds_capital":true,"index":1,"reorganization":"none","reser)"
    R"(ve":{"artillery":0,"cavalry":0,"frigate":0,"infantry":0},"ruler":-1,"vassals":[0],"victo)"
    R"(ry_points":4}],"radius":1,"relocation":{"city":false,"from_hex":1,"player":0},"turn":3,")"
    R"(turn_order":[0,1],"units":[{"attacked":false,"carried_this_turn":1,"carrier":-1,"disemba)"
    R"(rk_hex":0,"has_moved":true,"hex":1,"id":5,"move_done":false,"moves_left":2,"owner":1,"pl)"
    R"(ace":"map","transported":false,"type":"frigate"}],"viewer":1,"winners":[1]})";

// From pinned_view: one field set, one unset, a hex, a unit changed, one removed, a player.
constexpr std::string_view kPinnedDelta =
    R"({"hexes":[{"battle_this_turn":true,"began_turn_with_land_unit":0,"built_this_turn":false)"
    R"(,"city":false,"hex":1,"known":true,"placed_infantry":0,"placed_other":1,"terrain":"water)"
    R"("}],"players":[{"capital_hex":-1,"conceded":true,"doomsday_coin":false,"eliminated":fals)"
    R"(e,"holds_capital":false,"index":0,"reorganization":"next_turn","reserve":{"artillery":3,)"
    R"("cavalry":2,"frigate":4,"infantry":1},"ruler":1,"vassals":[],"victory_points":1}],"set":)"
    R"({"turn":4},"units":[{"attacked":false,"carried_this_turn":1,"carrier":-1,"disembark_hex")"
    R"(:0,"has_moved":true,"hex":1,"id":5,"move_done":false,"moves_left":1,"owner":1,"place":"m)"
    R"(ap","transported":false,"type":"frigate"},{"attacked":false,"carried_this_turn":1,"carri)"
    R"(er":-1,"disembark_hex":0,"has_moved":true,"hex":1,"id":9,"move_done":false,"moves_left":)"
    R"(1,"owner":1,"place":"map","transported":false,"type":"frigate"}],"units_removed":[7],"un)"
    R"(set":["bombard"]})";

TEST(ViewText, TheBytesOfAViewArePinned) {
  const GameView v = pinned_view();
  EXPECT_EQ(view_json_text(v), kPinnedView);
  GameView next = v;
  next.turn = 4;
  next.bombard.reset();
  next.hexes[1].known = true;
  next.hexes[1].terrain = Terrain::kWater;
  next.units[0].moves_left = 1;
  UnitView added = next.units[0];
  added.id = 9;
  next.units.push_back(added);
  GameView removed_from = v;
  UnitView gone = v.units[0];
  gone.id = 7;
  removed_from.units.push_back(gone);
  next.players[0].victory_points = 1;
  EXPECT_EQ(view_delta_json_text(removed_from, next), kPinnedDelta);
}

// Strings: a view holds no free text today (hex labels are in the board), but the writer must
// not assume it: each of these is written as nlohmann writes it.
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
  for (const std::string& s : strings) {
    std::string text;
    protocol::JsonWriter w(text);
    w.value(std::string_view(s));
    EXPECT_EQ(text, dumped(json(s))) << s;
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
