// state_to_json / state_from_json: the whole state, secrets included, must come back exactly.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "game.h"
#include "json.h"
#include "random_play.h"

namespace viktory {
namespace {

using nlohmann::json;
using protocol::JsonError;
using protocol::state_from_json;
using protocol::state_to_json;

// Through text, as a snapshot on disk would go.
GameState through_json(const GameState& s) {
  return state_from_json(json::parse(state_to_json(s).dump()));
}

TEST(StateJson, NewGamesRoundTripForEveryOption) {
  int games = 0;
  for (int players = 2; players <= kMaxPlayers; ++players) {
    for (TileMix mix : {TileMix::kStandard, TileMix::kLandRich, TileMix::kIslands}) {
      for (VictoryCondition victory : {VictoryCondition::kStandard, VictoryCondition::kShorter,
                                       VictoryCondition::kRace, VictoryCondition::kDoomsday}) {
        for (bool independent : {false, true}) {
          Options options{players, victory, mix, independent};
          const GameState s = new_game(options, 1000u + static_cast<unsigned>(games));
          EXPECT_EQ(through_json(s), s) << "players " << players << " game " << games;
          ++games;
        }
      }
    }
  }
  EXPECT_EQ(games, 7 * 3 * 4 * 2);
  // A chosen board size [3.2] is part of the stored options.
  Options big;
  big.board_hexes = 217;
  const GameState on_big = new_game(big, 5);
  EXPECT_EQ(through_json(on_big), on_big);
  EXPECT_EQ(through_json(on_big).options.board_hexes, 217);
}

TEST(StateJson, RoundTripsThroughoutRandomGames) {
  int applied = 0;
  int with_battle = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    Options options;
    options.players = 2 + static_cast<int>(seed % 5);
    options.independent_exploration = seed % 2 == 0;
    GameState s = new_game(options, seed);
    protocol_testing::Picker picker(seed);
    applied += protocol_testing::play_random(
        s, picker, 300, [&](const GameState& after, const Action&, const std::vector<Event>&) {
          if (after.battle) ++with_battle;
          // Every third state, and every state with a decision under way (the optional parts).
          const bool pending = after.battle || after.bombard || after.elimination;
          if (after.action_count % 3 != 0 && !pending) return;
          const GameState back = through_json(after);
          ASSERT_EQ(back, after) << "seed " << seed << " after action " << after.action_count;
        });
  }
  // The games must really have been played for the test to mean anything.
  EXPECT_GT(applied, 1000);
  RecordProperty("states_with_battle", with_battle);
}

TEST(StateJson, ARestoredSnapshotContinuesTheSameGame) {
  Options options;
  options.players = 3;
  GameState original = new_game(options, 77);
  protocol_testing::Picker warmup(77);
  protocol_testing::play_random(original, warmup, 150);
  GameState restored = through_json(original);

  // Same choices from here on: the dice (generator words) and tiles (bank) must agree too.
  protocol_testing::Picker a(5), b(5);
  std::vector<Event> events_a, events_b;
  protocol_testing::play_random(original, a, 200,
                                [&](const GameState&, const Action&, const std::vector<Event>& ev) {
                                  events_a.insert(events_a.end(), ev.begin(), ev.end());
                                });
  protocol_testing::play_random(restored, b, 200,
                                [&](const GameState&, const Action&, const std::vector<Event>& ev) {
                                  events_b.insert(events_b.end(), ev.begin(), ev.end());
                                });
  EXPECT_EQ(restored, original);
  EXPECT_EQ(events_b, events_a);
  EXPECT_FALSE(events_a.empty());
}

// Every field of GameState and of the structs inside it set to something other than its
// default, so a field the JSON forgot cannot hide behind a default value. The reader refuses
// states that break the engine's invariants, so the pieces are where they may be: the
// Cavalry is aboard its owner's Frigate at sea, and player 1's City has its two units [8.2].
GameState state_with_every_field_set() {
  Options options{3, VictoryCondition::kDoomsday, TileMix::kIslands, true};
  options.victory.add(VictoryCondition::kSubjugation);
  // Every optional rule but Exploration Balancing, which does not go with independent
  // exploration (OptionsJson covers that flag).
  options.terrain_leveling = options.no_exploration = options.luck_averaging =
      options.town_relocation = options.subjugation = true;
  options.fog_of_war = true;  // fog of war and its memory of units last seen
  options.fog_city_sight = 3;
  GameState s = new_game(options, 9);
  int land = 0;
  while (s.board().is_perimeter(land)) ++land;  // a Town stands inland
  HexCell& h = s.hexes[land];
  h.terrain = Terrain::kMountain;
  h.revealed = true;
  h.known_by = 0b101;
  h.town_owner = 1;
  h.city = true;
  h.capital_of = 2;
  h.built_this_turn = true;
  h.battle_this_turn = true;
  h.placed_infantry = 2;
  h.placed_other = 1;
  h.began_turn_with_land_unit = 0b100;

  int sea = 0;
  while (!s.board().is_perimeter(sea)) ++sea;  // the perimeter is water [3.2]
  Unit u;
  u.id = static_cast<int>(s.units.size());
  u.owner = 2;
  u.type = UnitType::kCavalry;
  u.place = UnitPlace::kMap;
  u.hex = sea;
  u.carrier = u.id + 1;
  u.moves_left = 1;
  u.has_moved = true;
  u.move_done = true;
  u.attacked = true;
  u.transported = true;
  u.carried_this_turn = 2;
  u.disembark_hex = 21;
  s.units.push_back(u);
  Unit frigate;
  frigate.id = u.id + 1;
  frigate.owner = 2;
  frigate.type = UnitType::kFrigate;
  frigate.place = UnitPlace::kMap;
  frigate.hex = sea;
  s.units.push_back(frigate);
  Unit stock;
  stock.id = u.id + 2;
  stock.owner = 0;
  stock.type = UnitType::kFrigate;
  stock.place = UnitPlace::kStock;
  s.units.push_back(stock);
  for (UnitType type : {UnitType::kInfantry, UnitType::kArtillery}) {  // a City on a mountain
    Unit reserve;
    reserve.id = static_cast<int>(s.units.size());
    reserve.owner = 1;
    reserve.type = type;
    s.units.push_back(reserve);
  }

  s.players[1] = PlayerState{true, true, 20, true, true, 4, kNoPlayer, Reorganization::kThisTurn};
  // A Vassal and his Ruler are both in play [15.61]: player 0 serves player 2.
  s.players[0].ruler = 2;
  s.turn_order = {2, 0, 1};
  s.balance = PendingBalance{1, {22, 23}, Terrain::kForest};
  for (int offered : s.balance->water)
    s.hexes[offered].terrain = Terrain::kWater;  // [15.3] water offered
  s.relocation = PendingRelocation{1, 24, true};
  s.capital_return = CapitalReturn{25, 0, 1, ReturnStage::kReinforce, {26}};
  s.tile_bank = {1, 2, 3, 4, 5};
  // Words above 2^53 and with the top bit set: they must not pass through a double.
  s.rng = Rng::from_words({0xFFFFFFFFFFFFFFFFULL, 1, 0x8000000000000001ULL, 0x0123456789ABCDEFULL});
  s.scripted_dice = {6, 1, 3};
  s.turn = 17;
  s.first_player = 2;
  s.current = 1;
  s.phase = Phase::kReserve;
  s.capital_choices = {3, 4};
  s.active_unit = u.id;
  s.entries = {{20, 21}, {22, 23}};
  Battle b;
  b.hex = 20;
  b.attacker = 1;
  b.defender = 2;
  b.naval = true;
  b.placement = true;
  b.round = 3;
  b.stage = BattleStage::kRetreating;
  b.picks_by_firer = 1;
  b.picks_by_target = 2;
  b.marked = {u.id};
  b.suppression = 1;
  b.attacker_dice = {1, 4};
  b.defender_dice = {6};
  b.dice_due = 5;
  b.attacker_pairs = 1;
  b.defender_pairs = 2;
  s.battle = b;
  s.bombard = PendingBombard{21, 1, 2, 1, 1};
  s.elimination = PendingElimination{2, {UnitType::kCavalry, UnitType::kFrigate}};
  s.placement_battles = {0, 1};
  s.ending_turn = true;
  s.doomsday_started = true;
  s.capital_loser = 2;
  s.winners = {0, 2};
  s.ended_by = VictoryCondition::kDoomsday;
  s.action_count = 99;
  s.last_seen = {
      {}, {{20, 2, 15, {1, 0, 2, 0}}}, {{5, 0, 3, {0, 0, 0, 1}}, {5, 1, 16, {2, 1, 0, 0}}}};
  return s;
}

TEST(StateJson, EveryFieldRoundTrips) {
  const GameState s = state_with_every_field_set();
  EXPECT_EQ(through_json(s), s);
}

TEST(StateJson, GeneratorWordsAreHexStringsAndDecimalIsAccepted) {
  const GameState s = state_with_every_field_set();
  json j = state_to_json(s);
  ASSERT_TRUE(j["rng"].is_array());
  EXPECT_EQ(j["rng"][0], "0xffffffffffffffff");
  EXPECT_EQ(j["rng"][3], "0x0123456789abcdef");
  j["rng"][0] = "18446744073709551615";  // the same word in decimal
  EXPECT_EQ(state_from_json(j), s);
  j["rng"][0] = "1.5e19";
  EXPECT_THROW(state_from_json(j), JsonError);
}

// Random scheme 2 (engine/rng.h): the seed and the three streams' counters, instead of the
// single stream's words; a restored state goes on drawing the same tiles and dice.
TEST(StateJson, SchemeTwoCarriesItsSeedAndStreamCountersAndResumesTheSameDraws) {
  Options options;
  options.no_exploration = true;  // [15.2] the setup stream draws seating and the whole map
  GameState s = new_game(options, 0xFEDCBA9876543210ULL, RandomScheme::kStreams);
  s.streams.drawn[1] = 5;
  s.streams.drawn[2] = (std::uint64_t{1} << 53);
  const json j = state_to_json(s);
  EXPECT_FALSE(j.contains("rng"));
  EXPECT_EQ(j["streams"]["seed"], "0xfedcba9876543210");
  EXPECT_EQ(j["streams"]["drawn"], json::array({s.streams.drawn[0], 5, std::uint64_t{1} << 53}));
  EXPECT_EQ(s.streams.drawn[0], 39u);  // 1 seating draw, the first player, 37 tiles
  const GameState back = through_json(s);
  EXPECT_EQ(back, s);
  EXPECT_EQ(back.random_scheme, RandomScheme::kStreams);
  // A scheme-1 state keeps its JSON exactly: "rng" and no "streams".
  const json one = state_to_json(new_game(options, 3));
  EXPECT_TRUE(one.contains("rng"));
  EXPECT_FALSE(one.contains("streams"));

  auto refused = [&](const std::function<void(json&)>& damage, const std::string& field) {
    json bad = j;
    damage(bad);
    try {
      state_from_json(bad);
      ADD_FAILURE() << "accepted: " << field;
    } catch (const JsonError& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
  };
  refused([](json& b) { b["rng"] = {"1", "2", "3", "4"}; }, "\"rng\" (scheme 1) or");
  refused([](json& b) { b["streams"]["drawn"].erase(0); }, "state.streams.drawn");
  refused([](json& b) { b["streams"]["drawn"][0] = -1; }, "state.streams.drawn[0]");
  refused([](json& b) { b["streams"]["seed"] = 5; }, "state.streams.seed");
  refused([](json& b) { b["streams"]["key"] = "0x1"; }, "state.streams");
}

// Bad snapshots are refused with the field named, and never echo a secret value.
TEST(StateJson, MalformedStatesAreRefusedNamingTheField) {
  const json good = state_to_json(state_with_every_field_set());
  struct Case {
    const char* why;
    std::function<void(json&)> damage;
    const char* field;
  };
  const std::vector<Case> cases = {
      {"not an object", [](json& j) { j = json::array(); }, "state"},
      {"wrong format tag", [](json& j) { j["format"] = "other"; }, "state.format"},
      {"future version", [](json& j) { j["version"] = 3; }, "state.version"},
      {"missing turn order", [](json& j) { j.erase("turn_order"); }, "state.turn_order"},
      {"player seated twice",
       [](json& j) {
         j["turn_order"] = {0, 0, 1};
       },
       "state.turn_order[1]"},
      {"missing ruler", [](json& j) { j["players"][0].erase("ruler"); }, "state.players[0].ruler"},
      {"bad reorganization", [](json& j) { j["players"][0]["reorganization"] = "nap"; },
       "state.players[0].reorganization"},
      {"balance with water as land", [](json& j) { j["balance"]["land"] = "water"; },
       "state.balance.land"},
      {"bad return stage", [](json& j) { j["capital_return"]["stage"] = "parade"; },
       "state.capital_return.stage"},
      {"version 1 with a version 2 field", [](json& j) { j["version"] = 1; }, "state.turn_order"},
      {"missing field", [](json& j) { j.erase("turn"); }, "state.turn"},
      {"unknown field", [](json& j) { j["seed"] = 5; }, "state.seed"},
      {"hex count", [](json& j) { j["hexes"].erase(0); }, "state.hexes"},
      {"players count", [](json& j) { j["players"].erase(0); }, "state.players"},
      {"bad terrain", [](json& j) { j["hexes"][3]["terrain"] = "lava"; }, "state.hexes[3].terrain"},
      {"town owner out of range", [](json& j) { j["hexes"][3]["town_owner"] = 3; },
       "state.hexes[3].town_owner"},
      {"unit id not its index", [](json& j) { j["units"][0]["id"] = 1; }, "state.units[0].id"},
      {"unit hex off the board", [](json& j) { j["units"][0]["hex"] = 5000; },
       "state.units[0].hex"},
      {"unit carrier out of range", [](json& j) { j["units"][0]["carrier"] = 999; },
       "state.units[0].carrier"},
      {"string for a number", [](json& j) { j["turn"] = "17"; }, "state.turn"},
      {"float for an int", [](json& j) { j["action_count"] = 1.5; }, "state.action_count"},
      {"die face 7", [](json& j) { j["scripted_dice"][0] = 7; }, "state.scripted_dice[0]"},
      {"three generator words", [](json& j) { j["rng"].erase(0); }, "state.rng"},
      {"generator all zero",
       [](json& j) {
         j["rng"] = {"0", "0", "0", "0"};
       },
       "state.rng"},
      {"generator word as a number", [](json& j) { j["rng"][1] = 1; }, "state.rng[1]"},
      {"bad battle stage", [](json& j) { j["battle"]["stage"] = "dancing"; }, "state.battle.stage"},
      {"negative tile count", [](json& j) { j["tile_bank"]["water"] = -1; },
       "state.tile_bank.water"},
      {"bad phase", [](json& j) { j["phase"] = "lunch"; }, "state.phase"},
      {"bad winner", [](json& j) { j["winners"] = {4}; }, "state.winners[0]"},
      {"bad options", [](json& j) { j["options"]["players"] = 9; }, "state.options.players"},
      {"city sight too far", [](json& j) { j["options"]["fog_city_sight"] = 4; },
       "state.options.fog_city_sight"},
      {"memory of own units", [](json& j) { j["last_seen"][1][0]["owner"] = 1; },
       "state.last_seen[1][0].owner"},
      {"memory unsorted", [](json& j) { j["last_seen"][2][1]["owner"] = 0; },
       "state.last_seen[2][1]"},
      {"memory without fog", [](json& j) { j["options"].erase("fog_of_war"); }, "state.last_seen"},
      {"memory per player", [](json& j) { j["last_seen"].erase(0); }, "state.last_seen"},
  };
  for (const Case& c : cases) {
    json bad = good;
    c.damage(bad);
    try {
      state_from_json(bad);
      ADD_FAILURE() << c.why << ": accepted";
    } catch (const JsonError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind(std::string(c.field) + ":", 0), 0u)
          << c.why << ": message \"" << message << "\" does not start with " << c.field;
    }
  }
}

// A snapshot that is well formed but describes a position the engine can never reach is
// refused too: the engine trusts its invariants. Found by tests/fuzz/state_fuzzer: a Frigate
// that carries itself sent lose_unit into endless recursion when its owner conceded.
TEST(StateJson, StatesThatBreakAnEngineInvariantAreRefused) {
  const json good = state_to_json(state_with_every_field_set());
  ASSERT_NO_THROW(state_from_json(good));
  const int cavalry = 0, frigate = 1;
  ASSERT_EQ(good["units"][cavalry]["type"], "cavalry");
  ASSERT_EQ(good["units"][frigate]["type"], "frigate");
  struct Case {
    const char* why;
    std::function<void(json&)> damage;
    const char* invariant;
  };
  const std::vector<Case> cases = {
      {"a Frigate carrying itself", [&](json& j) { j["units"][frigate]["carrier"] = frigate; },
       "Frigate as cargo"},
      {"a land unit at sea, not aboard", [&](json& j) { j["units"][cavalry]["carrier"] = -1; },
       "land unit on water"},
      {"cargo on another hex than its Frigate", [&](json& j) { j["units"][cavalry]["hex"] = 20; },
       "cargo not aboard its own Frigate"},
      {"a City without its units [8.2]", [](json& j) { j["units"].erase(j["units"].size() - 1); },
       "units do not match Towns and Cities"},
      {"a Town on water",
       [](json& j) {
         for (json& hex : j["hexes"]) {
           if (hex["town_owner"] == 1) hex["terrain"] = "water";
         }
       },
       "Town on non-land"},
  };
  for (const Case& c : cases) {
    json bad = good;
    c.damage(bad);
    try {
      state_from_json(bad);
      ADD_FAILURE() << c.why << ": accepted";
    } catch (const JsonError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind("state: the state breaks an engine invariant: ", 0), 0u)
          << c.why << ": " << message;
      EXPECT_NE(message.find(c.invariant), std::string::npos) << c.why << ": " << message;
    }
  }
}

// A unit in the Reserve or in stock stands nowhere and rides nothing. Found by
// tests/fuzz/scenario_fuzzer: a Reserve Infantry with a "carrier" was placed on the map and
// stayed aboard another player's unit.
TEST(StateJson, AUnitOffTheMapHasNoHexOrCarrier) {
  const json good = state_to_json(state_with_every_field_set());
  int reserve = -1;
  for (const json& u : good["units"]) {
    if (u["place"] == "reserve") reserve = u["id"];
  }
  ASSERT_NE(reserve, -1);
  for (const char* field : {"hex", "carrier"}) {
    json bad = good;
    bad["units"][reserve][field] = 1;
    try {
      state_from_json(bad);
      ADD_FAILURE() << field << ": accepted";
    } catch (const JsonError& e) {
      EXPECT_EQ(std::string(e.what()), "state: the state has unit " + std::to_string(reserve) +
                                           " off the map with a hex or a carrier");
    }
  }
}

TEST(StateJson, TerrainErrorsDoNotEchoTheTile) {
  json j = state_to_json(new_game(Options{}, 3));
  j["hexes"][10]["terrain"] = "secret-mountain";
  try {
    state_from_json(j);
    FAIL() << "accepted";
  } catch (const JsonError& e) {
    EXPECT_EQ(std::string(e.what()).find("secret"), std::string::npos) << e.what();
  }
}

#if defined(__x86_64__) && defined(__GLIBCXX__)
// A tripwire, not a rule: when a field is added to the state, these sizes change. Carry the
// new field in state_to_json/state_from_json (protocol/state_json.cpp) and in
// state_with_every_field_set above, then update the numbers.
TEST(StateJson, StateLayoutIsTheOneTheJsonKnows) {
  EXPECT_EQ(sizeof(GameState), 736u);  // + random scheme 2's streams, Options below
  EXPECT_EQ(sizeof(Unit), 36u);
  EXPECT_EQ(sizeof(HexCell), 24u);
  EXPECT_EQ(sizeof(PlayerState), 24u);
  EXPECT_EQ(sizeof(Battle), 128u);
  EXPECT_EQ(sizeof(PendingBalance), 40u);
  EXPECT_EQ(sizeof(PendingRelocation), 12u);
  EXPECT_EQ(sizeof(CapitalReturn), 40u);
  EXPECT_EQ(sizeof(PendingBombard), 20u);
  EXPECT_EQ(sizeof(PendingElimination), 32u);
  EXPECT_EQ(sizeof(BattleEntry), 8u);
  EXPECT_EQ(sizeof(Options), 28u);  // + board_hexes, the house rules, fog_of_war, fog_city_sight
  EXPECT_EQ(sizeof(LastSeen), 28u);
}
#endif

}  // namespace
}  // namespace viktory
