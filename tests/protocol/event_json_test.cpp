// Events: every kind has a name and round-trips; a reveal the viewer may not see has no terrain.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "game.h"
#include "json.h"
#include "random_play.h"
#include "view.h"

namespace viktory {
namespace {

using nlohmann::json;
using protocol::event_from_json;
using protocol::event_to_json;

constexpr int kEventKinds = static_cast<int>(EventKind::kUnitRedeployed) + 1;

TEST(EventJson, EveryKindHasItsOwnNameAndRoundTrips) {
  std::set<std::string> names;
  for (int k = 0; k < kEventKinds; ++k) {
    Event e;
    e.kind = static_cast<EventKind>(k);
    e.player = 1;
    e.other_player = 2;
    e.hex = 10;
    e.from_hex = 11;
    e.unit = 3;
    e.other_unit = 4;
    e.unit_type = UnitType::kArtillery;
    e.terrain = Terrain::kGrassland;
    e.value = 2;
    e.dice = {1, 5};
    const json j = event_to_json(e);
    EXPECT_EQ(j["kind"], std::string(to_string(e.kind)));
    names.insert(j["kind"].get<std::string>());
    EXPECT_EQ(event_from_json(json::parse(j.dump())), e) << j.dump();
    // Defaults round-trip too (fields left out must come back as defaults).
    Event bare;
    bare.kind = e.kind;
    EXPECT_EQ(event_from_json(event_to_json(bare)), bare) << event_to_json(bare).dump();
  }
  EXPECT_EQ(names.size(), static_cast<std::size_t>(kEventKinds));
}

// Battle transparency: a fire's dice by source, Suppression and averaged pairs [12.3, 15.4].
TEST(EventJson, R12_3_AFireCarriesItsDiceBySource) {
  Event e;
  e.kind = EventKind::kDiceRolled;
  e.player = 1;
  e.hex = 12;
  e.value = static_cast<int>(RollPurpose::kDefenderFire);
  e.dice = {2, 5};
  FireDice fire;
  fire.sources = {{DieSource::kInfantry, 1}, {DieSource::kNavalSupport, 1}, {DieSource::kCity, 2}};
  fire.suppressed = 1;
  fire.averaged_pairs = 0;
  e.fire = fire;
  const json j = event_to_json(e);
  EXPECT_EQ(j["fire"]["sources"][2], json({{"source", "city"}, {"dice", 2}}));
  EXPECT_EQ(j["fire"]["suppressed"], 1);
  EXPECT_EQ(j["fire"]["entitled"], 3);
  EXPECT_EQ(j["fire"]["rolled"], 3);
  EXPECT_EQ(event_from_json(json::parse(j.dump())), e);
  json bad = j;
  bad["fire"]["sources"][0]["source"] = "luck";
  EXPECT_THROW(event_from_json(bad), protocol::JsonError);
  // Without a fire (a Bombard, the Doomsday Clock) there is no "fire" key.
  e.fire.reset();
  EXPECT_FALSE(event_to_json(e).contains("fire"));
}

TEST(EventJson, R15_65_AllianceEndsHaveReadableReasons) {
  Event e;
  e.kind = EventKind::kAllianceBroken;
  e.player = 2;
  e.other_player = 0;
  e.value = static_cast<int>(AllianceEnd::kTookCapital);
  EXPECT_EQ(event_to_json(e)["reason"], "took_capital");
}

TEST(EventJson, DocumentedFieldsAreAlwaysWritten) {
  Event ended;
  ended.kind = EventKind::kBattleEnded;
  ended.hex = 7;  // player stays kNoPlayer: the defender held [12.3 step 4]
  const json j = event_to_json(ended);
  EXPECT_EQ(j["player"], -1);
  EXPECT_EQ(j["other_player"], -1);
  EXPECT_EQ(j["hex"], 7);
  EXPECT_FALSE(j.contains("unit"));
}

TEST(EventJson, EnumValuesGetReadableNames) {
  Event phase;
  phase.kind = EventKind::kPhaseChanged;
  phase.value = static_cast<int>(Phase::kReserve);
  EXPECT_EQ(event_to_json(phase)["phase"], "reserve");

  Event roll;
  roll.kind = EventKind::kDiceRolled;
  roll.value = static_cast<int>(RollPurpose::kDefenderFire);
  roll.dice = {3, 6};
  EXPECT_EQ(event_to_json(roll)["purpose"], "defender_fire");
  EXPECT_EQ(event_to_json(roll)["dice"], json({3, 6}));
  roll.value = static_cast<int>(RollPurpose::kDefenderPreFire);  // house rule [12.3 step 0]
  EXPECT_EQ(event_to_json(roll)["purpose"], "defender_pre_fire");

  Event over;
  over.kind = EventKind::kGameOver;
  over.dice = {0, 2};
  over.value = static_cast<int>(VictoryCondition::kShorter);
  EXPECT_EQ(event_to_json(over)["winners"], json({0, 2}));
  EXPECT_EQ(event_to_json(over)["victory"], "shorter");
}

TEST(EventJson, AnUnknownRevealHasNoTerrainKey) {
  Event reveal;
  reveal.kind = EventKind::kTileRevealed;
  reveal.hex = 12;
  reveal.player = 0;
  EXPECT_FALSE(event_to_json(reveal).contains("terrain"));
  reveal.terrain = Terrain::kForest;
  EXPECT_EQ(event_to_json(reveal)["terrain"], "forest");
}

// Independent exploration: the other players learn that a tile was turned, not what it is.
TEST(EventJson, FilteredRevealsOfOthersCarryNoTerrain) {
  Options options;
  options.players = 3;
  options.independent_exploration = true;
  GameState s = new_game(options, 21);
  const int first = s.current;
  std::vector<Event> events;
  ASSERT_FALSE(apply_in_place(s, act::place_capital(first, s.capital_choices.front()), &events));
  int reveals = 0;
  for (int viewer = 0; viewer < options.players; ++viewer) {
    for (const Event& e : filter_events_for(s, events, viewer)) {
      if (e.kind != EventKind::kTileRevealed || e.player != first) continue;
      const json j = event_to_json(e);
      if (viewer == first) {
        ++reveals;
        EXPECT_TRUE(j.contains("terrain")) << j.dump();
      } else if (!viewer_knows(s, viewer, e.hex)) {
        EXPECT_FALSE(j.contains("terrain")) << "viewer " << viewer << ": " << j.dump();
      }
    }
  }
  EXPECT_GT(reveals, 0);  // placing a Capital reveals its neighbours [7.3]
}

TEST(EventJson, EventsOfRandomGamesRoundTrip) {
  GameState s = new_game(Options{4, VictoryCondition::kStandard, TileMix::kStandard, false}, 8);
  protocol_testing::Picker picker(8);
  std::set<std::string> kinds;
  protocol_testing::play_random(s, picker, 400,
                                [&](const GameState&, const Action&, const std::vector<Event>& ev) {
                                  for (const Event& e : ev) {
                                    const json j = event_to_json(e);
                                    kinds.insert(j["kind"].get<std::string>());
                                    ASSERT_EQ(event_from_json(j), e) << j.dump();
                                  }
                                });
  EXPECT_GE(kinds.size(), 6u);
}

TEST(EventJson, MalformedEventsAreRefused) {
  EXPECT_THROW(event_from_json(json{{"kind", "party"}}), protocol::JsonError);
  EXPECT_THROW(event_from_json(json{{"hex", 3}}), protocol::JsonError);
  EXPECT_THROW(event_from_json(json{{"kind", "unit_moved"}, {"hex", "E4"}}), protocol::JsonError);
  EXPECT_THROW(event_from_json(json{{"kind", "unit_moved"}, {"colour", 1}}), protocol::JsonError);
}

TEST(ErrorJson, HasCodeAndMessage) {
  const ActionError error{"out_of_range", "Bombardment reaches one or two hexes [11.0]."};
  EXPECT_EQ(protocol::error_to_json(error),
            json({{"code", "out_of_range"},
                  {"message", "Bombardment reaches one or two hexes [11.0]."}}));
}

}  // namespace
}  // namespace viktory
