#include "log_text.h"

#include <gtest/gtest.h>

#include "catalog.h"
#include "game.h"
#include "view.h"

namespace viktory::server {
namespace {

bool mentions_terrain(const std::string& line) {
  for (const char* t : {"Water", "Plains", "Grassland", "Forest", "Mountain"}) {
    if (line.find(t) != std::string::npos) return true;
  }
  return false;
}

TEST(LogText, NamesPlayersByColourAndHexesByLabel) {
  GameState s = new_game(Options{}, 99);
  Event moved;
  moved.kind = EventKind::kUnitMoved;
  moved.player = 1;
  moved.from_hex = 0;
  moved.hex = 1;
  moved.unit = -1;
  moved.unit_type = UnitType::kCavalry;
  moved.value = 1;
  const auto lines = log_lines(s, {moved}, 0);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "Yellow's Cavalry moves from " + s.board().label(0) + " to " +
                          s.board().label(1) + " by road.");
}

TEST(LogText, LinesCarryTheHexesTheyName) {
  GameState s = new_game(Options{}, 99);
  Event moved;
  moved.kind = EventKind::kUnitMoved;
  moved.player = 1;
  moved.from_hex = 3;
  moved.hex = 4;
  moved.unit = -1;
  moved.unit_type = UnitType::kInfantry;
  Event conceded;
  conceded.kind = EventKind::kPlayerConceded;
  conceded.player = 0;
  const auto entries = log_entries(s, {moved, conceded}, 0);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].hexes, (std::vector<int>{3, 4}));  // from, to: in the order named
  EXPECT_TRUE(entries[1].hexes.empty());                  // a line naming no hex
  nlohmann::json log = nlohmann::json::array();
  append_log_json(log, 12, s, {moved}, 0);
  EXPECT_EQ(log, nlohmann::json::parse(R"([{"seq":12,"text":")" + entries[0].text +
                                       R"(","msg":{"key":"log.unitMoved","params":{)"
                                       R"("player":{"key":"seat.yellow"},)"
                                       R"("unit":{"key":"log.unit.infantry"},"from":")" +
                                       s.board().label(3) + R"(","to":")" + s.board().label(4) +
                                       R"("}},"hexes":[3,4]}])"));
}

TEST(LogText, TerrainOnlyWhereTheViewerKnowsIt) {
  Options options;
  options.independent_exploration = true;
  GameState s = new_game(options, 5);
  // A hex with terrain one viewer knows and another does not.
  int hex = -1, knower = -1, stranger = -1;
  for (int h = 0; h < static_cast<int>(s.hexes.size()) && hex < 0; ++h) {
    if (s.hexes[h].terrain == Terrain::kNone) continue;
    for (int a = 0; a < 2; ++a) {
      if (viewer_knows(s, a, h) && !viewer_knows(s, 1 - a, h)) {
        hex = h;
        knower = a;
        stranger = 1 - a;
      }
    }
  }
  ASSERT_GE(hex, 0) << "new game without a hex known to one player only";
  Event built;
  built.kind = EventKind::kTownBuilt;
  built.player = knower;
  built.hex = hex;
  EXPECT_TRUE(mentions_terrain(log_lines(s, {built}, knower).at(0)));
  EXPECT_FALSE(mentions_terrain(log_lines(s, {built}, stranger).at(0)));
  // Nor in the line's message, which each reader's language words (docs/protocol.md).
  EXPECT_NE(log_entries(s, {built}, knower).at(0).msg.dump().find("log.terrain."),
            std::string::npos);
  EXPECT_EQ(log_entries(s, {built}, stranger).at(0).msg.dump().find("log.terrain."),
            std::string::npos);
  Event revealed;
  revealed.kind = EventKind::kTileRevealed;
  revealed.player = knower;
  revealed.hex = hex;  // terrain kNone: as filtered for a viewer who does not know it
  EXPECT_FALSE(mentions_terrain(log_lines(s, {revealed}, stranger).at(0)));
}

TEST(LogText, GameOverNamesTheWinners) {
  GameState s = new_game(Options{}, 1);
  Event over;
  over.kind = EventKind::kGameOver;
  over.dice = {0, 2};
  EXPECT_EQ(log_lines(s, {over}, kSpectator).at(0), "Game over: Red and Blue win.");
}

// The English texts are the English catalog's (web-client/i18n/en.json): one line of every
// kind of event, word for word as they were written before the catalogs, so that a change of
// wording is a deliberate one.
TEST(LogText, EveryKindOfLineInEnglish) {
  GameState s = new_game(Options{.players = 3}, 7);
  lay_map_face_up(s);  // every terrain known to every viewer
  const auto& board = s.board();
  // A hex of each kind: a City on a Forest hex of Yellow's, a Town on a Mountain hex of Blue's.
  int forest = -1, mountain = -1;
  for (int h = 0; h < static_cast<int>(s.hexes.size()); ++h) {
    if (s.hexes[h].terrain == Terrain::kForest && forest < 0) forest = h;
    if (s.hexes[h].terrain == Terrain::kMountain && mountain < 0) mountain = h;
  }
  ASSERT_GE(forest, 0);
  ASSERT_GE(mountain, 0);
  s.hexes[forest].town_owner = 1;
  s.hexes[forest].city = true;
  s.hexes[mountain].town_owner = 2;
  const std::string F = board.label(forest), M = board.label(mountain);
  const std::string A = board.label(0), B = board.label(1);
  auto event = [](EventKind kind, int player = 0) {
    Event e;
    e.kind = kind;
    e.player = player;
    e.unit = -1;
    e.unit_type = UnitType::kArtillery;
    return e;
  };
  struct Case {
    Event event;
    std::string english;
  };
  std::vector<Case> cases;
  auto add = [&](Event e, std::string english) { cases.push_back({std::move(e), english}); };
  Event e = event(EventKind::kTurnStarted, 2);
  e.value = 12;
  add(e, "Turn 12: Blue to play.");
  for (auto [phase, name] : {std::pair{Phase::kSetup, "Setup"},
                             {Phase::kBuild, "Build"},
                             {Phase::kMovement, "Movement & Combat"},
                             {Phase::kReserve, "Reserve Placement"}}) {
    e = event(EventKind::kPhaseChanged, 1);
    e.value = static_cast<int>(phase);
    add(e, std::string("Yellow: ") + name + " phase.");
  }
  e = event(EventKind::kTileRevealed);
  e.hex = forest;
  e.terrain = Terrain::kForest;
  add(e, "Red reveals Forest at " + F + ".");
  e.terrain = Terrain::kNone;
  add(e, "Red explores " + F + ".");
  e = event(EventKind::kCapitalPlaced);
  e.hex = mountain;
  add(e, "Red places the Capital on the Mountain hex " + M + ".");
  e = event(EventKind::kTownBuilt, 2);
  e.hex = forest;
  add(e, "Blue builds a Town on the Forest hex " + F + ".");
  e = event(EventKind::kCityUpgraded, 1);
  e.hex = forest;
  add(e, "Yellow upgrades the Town at " + F + " to a City.");
  e = event(EventKind::kUnitGained);
  e.unit_type = UnitType::kFrigate;
  add(e, "Red gains Frigate (to the Reserve).");
  e = event(EventKind::kUnitMoved);
  e.from_hex = 0;
  e.hex = 1;
  add(e, "Red's Artillery moves from " + A + " to " + B + ".");
  e.value = 1;
  add(e, "Red's Artillery moves from " + A + " to " + B + " by road.");
  e = event(EventKind::kUnitEmbarked);
  e.hex = 1;
  add(e, "Red's Artillery boards the Frigate at " + B + ".");
  e = event(EventKind::kUnitDisembarked);
  e.hex = 1;
  add(e, "Red's Artillery lands at " + B + ".");
  e = event(EventKind::kDiceRolled);
  e.dice = {1, 4, 6};
  e.value = static_cast<int>(RollPurpose::kDefenderFire);
  add(e, "Red rolls 1, 4, 6 (defender fire).");
  e.dice = {};
  e.value = static_cast<int>(RollPurpose::kPreBattleFire);
  add(e, "Red rolls no dice (pre-battle fire).");
  e = event(EventKind::kBombarded);
  e.hex = forest;
  e.from_hex = 0;
  add(e, "Red's Artillery bombards the Forest City at " + F + " from " + A + ".");
  e.hex = 1;
  add(e, "Red's Artillery bombards " + B + " from " + A + ".");
  e = event(EventKind::kBattleStarted);
  e.hex = mountain;
  e.other_player = 2;
  add(e, "Red attacks the Mountain Town at " + M + ".");
  e.hex = 1;
  add(e, "Red attacks Blue's units at " + B + ".");
  e = event(EventKind::kUnitHit, 1);
  e.hex = 1;
  add(e, "Yellow's Artillery at " + B + " is hit.");
  e = event(EventKind::kUnitLost, 1);
  e.hex = 1;
  add(e, "Yellow's Artillery at " + B + " is lost.");
  e = event(EventKind::kUnitRetreated);
  e.from_hex = 1;
  e.hex = 0;
  add(e, "Red's Artillery retreats from " + B + " to " + A + ".");
  e = event(EventKind::kBattleEnded, kNoPlayer);
  e.hex = 1;
  add(e, "The defenders hold " + B + ".");
  e.player = 0;
  add(e, "Red wins the Battle at " + B + ".");
  e = event(EventKind::kTownCaptured);
  e.other_player = 1;
  e.hex = forest;
  e.value = 1;
  add(e, "Red captures Yellow's City at " + F + ".");
  e.value = 0;
  add(e, "Red captures Yellow's Town at " + F + ".");
  e = event(EventKind::kUnitEliminated, 1);
  add(e, "Yellow returns Artillery to stock.");
  e = event(EventKind::kUnitPlaced);
  e.unit_type = UnitType::kCavalry;
  e.hex = 1;
  add(e, "Red places Cavalry at " + B + ".");
  e = event(EventKind::kCapitalLost, 1);
  e.hex = forest;
  e.other_player = 0;
  add(e, "Yellow's Capital at " + F + " falls to Red.");
  e = event(EventKind::kCapitalRetaken, 1);
  e.hex = forest;
  add(e, "Yellow retakes the Capital at " + F + ".");
  add(event(EventKind::kPlayerEliminated, 2), "Blue is eliminated.");
  add(event(EventKind::kPlayerConceded, 2), "Blue concedes.");
  e = event(EventKind::kDoomsdayStarted);
  e.hex = forest;
  add(e, "The Doomsday Clock starts: the first City fell at " + F + ".");
  add(event(EventKind::kDoomsdayCoin, 1), "A Doomsday coin now lies next to Yellow's Capital.");
  e = event(EventKind::kGameOver, kNoPlayer);
  add(e, "Game over: nobody wins.");
  e.dice = {1};
  add(e, "Game over: Yellow wins.");
  e.dice = {0, 1, 2};
  add(e, "Game over: Red and Yellow and Blue win.");
  e = event(EventKind::kLandDrawn);
  add(e, "Red draws a land tile.");
  e.terrain = Terrain::kGrassland;
  add(e, "Red draws a Grassland tile to replace some water.");
  e = event(EventKind::kTileReplaced);
  e.hex = 1;
  add(e, "Red replaces the water at " + B + ".");
  e.terrain = Terrain::kPlains;
  add(e, "Red replaces the water at " + B + " with Plains.");
  add(event(EventKind::kWaterKept), "Red keeps the water.");
  e = event(EventKind::kDiceAveraged);
  e.hex = 1;
  e.value = 1;
  add(e, "Red averages 1 pair of dice at " + B + ": 1 hit.");
  e.value = 2;
  add(e, "Red averages 2 pairs of dice at " + B + ": 2 hits.");
  e = event(EventKind::kTownRemoved);
  e.hex = 1;
  e.value = 1;
  add(e, "Red removes the City at " + B + " to relocate it.");
  e.value = 0;
  add(e, "Red removes the Town at " + B + " to relocate it.");
  e = event(EventKind::kTownRelocated);
  e.from_hex = 1;
  e.hex = 0;
  add(e, "Red rebuilds the Town from " + B + " at " + A + ".");
  e.value = 1;
  add(e, "Red rebuilds the City from " + B + " at " + A + ".");
  e = event(EventKind::kSubjugated, 2);
  e.other_player = 0;
  add(e, "Blue becomes Red's Vassal.");
  e.kind = EventKind::kAllianceBroken;
  add(e, "Blue is no longer Red's Vassal.");
  e = event(EventKind::kUnitWithdrawn, 2);
  e.from_hex = 0;
  e.hex = 1;
  add(e, "Blue's Artillery leaves the Capital at " + A + " for " + B + ".");

  for (const Case& c : cases) {
    const auto lines = log_entries(s, {c.event}, 0);
    ASSERT_EQ(lines.size(), 1u) << c.english;
    EXPECT_EQ(lines[0].text, c.english);
    // The text is the message written in English.
    EXPECT_EQ(english(lines[0].msg), c.english) << lines[0].msg.dump();
  }
}

// A reader's own language: the same message written from the German catalog, its parameters
// (seats, units, terrains, nested targets, plurals) in German too.
TEST(LogText, TheMessageReadsInGerman) {
  GameState s = new_game(Options{.players = 3}, 7);
  lay_map_face_up(s);
  int forest = -1;
  for (int h = 0; h < static_cast<int>(s.hexes.size()) && forest < 0; ++h) {
    if (s.hexes[h].terrain == Terrain::kForest) forest = h;
  }
  ASSERT_GE(forest, 0);
  s.hexes[forest].town_owner = 1;
  s.hexes[forest].city = true;
  const std::string F = s.board().label(forest), A = s.board().label(0), B = s.board().label(1);
  auto german = [&](const Event& e) {
    const auto lines = log_entries(s, {e}, 0);
    EXPECT_EQ(lines.size(), 1u);
    if (lines.empty()) return std::string();
    const nlohmann::json& msg = lines[0].msg;
    return text::catalogs().text_of("de", msg["key"].get<std::string>(),
                                    msg.value("params", nlohmann::json::object()));
  };
  Event moved;
  moved.kind = EventKind::kUnitMoved;
  moved.player = 1;
  moved.from_hex = 0;
  moved.hex = 1;
  moved.unit_type = UnitType::kCavalry;
  moved.value = 1;
  EXPECT_EQ(german(moved), "Gelb: Kavallerie zieht auf der Straße von " + A + " nach " + B + ".");
  Event attack;
  attack.kind = EventKind::kBattleStarted;
  attack.player = 2;
  attack.hex = forest;
  attack.other_player = 1;
  EXPECT_EQ(german(attack), "Blau greift die Stadt auf " + F + " (Wald) an.");
  Event averaged;
  averaged.kind = EventKind::kDiceAveraged;
  averaged.player = 0;
  averaged.hex = forest;
  averaged.value = 2;
  EXPECT_EQ(german(averaged),
            "Rot wirft auf " + F + " 2 Würfelpaare nicht: 2 automatische Treffer.");
  averaged.value = 1;
  EXPECT_EQ(german(averaged),
            "Rot wirft auf " + F + " 1 Würfelpaar nicht: 1 automatischer Treffer.");
  Event over;
  over.kind = EventKind::kGameOver;
  over.player = kNoPlayer;
  over.dice = {0, 2};
  EXPECT_EQ(german(over), "Spielende: Rot und Blau gewinnen.");
  Event rolled;
  rolled.kind = EventKind::kDiceRolled;
  rolled.player = 0;
  rolled.dice = {2, 5};
  rolled.value = static_cast<int>(RollPurpose::kPreBattleFire);
  EXPECT_EQ(german(rolled), "Rot würfelt 2, 5 (einleitender Feuerschlag).");
}

}  // namespace
}  // namespace viktory::server
