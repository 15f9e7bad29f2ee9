// What a spectator may see. Under independent exploration a player could watch his own game
// under a second name: the spectator's view must then tell him nothing he does not know
// already, so it shows only the hexes every player still in the game knows, and never the
// capital choices of the player placing his Capital.
#include <gtest/gtest.h>

#include "game.h"
#include "random_play.h"
#include "view.h"

namespace viktory {
namespace {

bool everyone_in_game_knows(const GameState& s, int hex) {
  for (int p = 0; p < static_cast<int>(s.players.size()); ++p) {
    if (s.players[p].in_game() && !viewer_knows(s, p, hex)) return false;
  }
  return true;
}

// The spectator view's known hexes are exactly those every player in the game knows.
void expect_intersection(const GameState& s) {
  const GameView spectator = view_for(s, kSpectator);
  for (const HexView& h : spectator.hexes) {
    EXPECT_EQ(h.known, everyone_in_game_knows(s, h.hex)) << "hex " << h.label;
    if (!h.known) {
      EXPECT_EQ(h.terrain, Terrain::kNone) << "hex " << h.label;
    }
  }
}

TEST(Spectator, IndependentExplorationShowsOnlyWhatEveryPlayerKnows) {
  Options o;
  o.players = 3;
  o.independent_exploration = true;
  GameState s = new_game(o, 21);
  testing::Chooser chooser(4);
  int known_by_some_not_all = 0;
  testing::play_random_game(s, chooser, 300, [&](const GameState& after, const Action&, auto&) {
    if (after.phase == Phase::kGameOver) return;
    expect_intersection(after);
    for (int h = 0; h < after.board().size(); ++h) {
      if (after.hexes[h].revealed && !everyone_in_game_knows(after, h)) ++known_by_some_not_all;
    }
    // The events of a reveal carry no terrain for a spectator who may not know it.
  });
  // The game got far enough for the rule to matter.
  EXPECT_GT(known_by_some_not_all, 0);
}

TEST(Spectator, RevealEventsAreFilteredLikeTheView) {
  Options o;
  o.players = 2;
  o.independent_exploration = true;
  GameState s = new_game(o, 8);
  testing::Chooser chooser(2);
  int hidden_reveals = 0;
  testing::play_random_game(
      s, chooser, 200, [&](const GameState& after, const Action&, const std::vector<Event>& ev) {
        for (const Event& e : filter_events_for(after, ev, kSpectator)) {
          if (e.kind != EventKind::kTileRevealed) continue;
          EXPECT_EQ(e.terrain != Terrain::kNone, viewer_knows(after, kSpectator, e.hex));
          if (e.terrain == Terrain::kNone) ++hidden_reveals;
        }
      });
  EXPECT_GT(hidden_reveals, 0);
}

TEST(Spectator, NeverSeesCapitalChoicesUnderIndependentExploration) {
  Options o;
  o.players = 2;
  o.independent_exploration = true;
  const GameState s = new_game(o, 3);
  ASSERT_EQ(s.phase, Phase::kSetup);
  ASSERT_FALSE(s.capital_choices.empty());
  EXPECT_TRUE(view_for(s, kSpectator).capital_choices.empty());
  EXPECT_TRUE(view_for(s, 1 - s.current).capital_choices.empty());
  EXPECT_EQ(view_for(s, s.current).capital_choices, s.capital_choices);
  // Without independent exploration every tile is face up for all: nothing to hide.
  Options open;
  open.players = 2;
  const GameState t = new_game(open, 3);
  EXPECT_EQ(view_for(t, kSpectator).capital_choices, t.capital_choices);
}

TEST(Spectator, SeesEveryFaceUpTileWithoutIndependentExplorationAndAfterTheGame) {
  for (bool independent : {false, true}) {
    Options o;
    o.players = 2;
    o.independent_exploration = independent;
    GameState s = new_game(o, 17);
    testing::Chooser chooser(6);
    testing::play_random_game(s, chooser, 120);
    if (!independent) {
      const GameView v = view_for(s, kSpectator);
      for (const HexView& h : v.hexes) EXPECT_EQ(h.known, s.hexes[h.hex].revealed || h.perimeter);
    }
    // Someone concedes: the game is over and the spectator sees every face-up tile.
    ApplyResult r = apply(s, act::concede(1));
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r.state.phase, Phase::kGameOver);
    const GameView over = view_for(r.state, kSpectator);
    for (const HexView& h : over.hexes) {
      EXPECT_EQ(h.known, r.state.hexes[h.hex].revealed || h.perimeter) << h.label;
    }
  }
}

TEST(Spectator, AConcededPlayerNoLongerLimitsWhatSpectatorsSee) {
  Options o;
  o.players = 3;
  o.independent_exploration = true;
  GameState s = new_game(o, 29);
  testing::Chooser chooser(12);
  testing::play_random_game(s, chooser, 150);
  ASSERT_NE(s.phase, Phase::kGameOver);
  const int quitter = s.current == 2 ? 1 : 2;
  ApplyResult r = apply(s, act::concede(quitter));
  ASSERT_TRUE(r.ok());
  ASSERT_NE(r.state.phase, Phase::kGameOver);
  // The intersection is now over the two players left: the quitter's ignorance no longer
  // counts, and nothing the spectator knew is forgotten.
  expect_intersection(r.state);
  const GameView before = view_for(s, kSpectator);
  const GameView after = view_for(r.state, kSpectator);
  for (std::size_t h = 0; h < before.hexes.size(); ++h) {
    if (before.hexes[h].known) {
      EXPECT_TRUE(after.hexes[h].known) << before.hexes[h].label;
    }
  }
}

// [15.2] With the map laid face up, every player knows every hex from the start, so the
// intersection rule hides nothing from a spectator, even under independent exploration.
TEST(Spectator, FaceUpMapIsKnownToSpectatorsUnderIndependentExploration) {
  Options o;
  o.players = 3;
  o.independent_exploration = true;
  o.no_exploration = true;
  GameState s = new_game(o, 31);
  testing::Chooser chooser(5);
  int checked = 0;
  testing::play_random_game(s, chooser, 150, [&](const GameState& after, const Action&, auto&) {
    for (const HexView& h : view_for(after, kSpectator).hexes) {
      EXPECT_TRUE(h.known) << h.label;
      EXPECT_EQ(h.terrain, after.hexes[h.hex].terrain) << h.label;
    }
    ++checked;
  });
  EXPECT_GT(checked, 0);
}

// [15.6] Rulers, Vassals, Reorganization and a Capital's return, like the seating order and
// the pending relocation [15.5], are on the table: every viewer, spectators included, sees the
// same.
TEST(Spectator, SubjugationAndSeatingAreTheSameForEveryViewer) {
  Options o;
  o.players = 4;
  o.independent_exploration = true;
  o.town_relocation = true;
  o.subjugation = true;
  GameState s = new_game(o, 37);
  testing::Chooser chooser(8);
  int checked = 0;
  testing::play_random_game(s, chooser, 400, [&](const GameState& after, const Action&, auto&) {
    const GameView spectator = view_for(after, kSpectator);
    for (int p = 0; p < o.players; ++p) {
      const GameView player = view_for(after, p);
      EXPECT_EQ(player.turn_order, spectator.turn_order);
      EXPECT_EQ(player.relocation, spectator.relocation);
      EXPECT_EQ(player.capital_return, spectator.capital_return);
      ASSERT_EQ(player.players.size(), spectator.players.size());
      for (std::size_t q = 0; q < spectator.players.size(); ++q) {
        EXPECT_EQ(player.players[q].ruler, spectator.players[q].ruler);
        EXPECT_EQ(player.players[q].vassals, spectator.players[q].vassals);
        EXPECT_EQ(player.players[q].reorganization, spectator.players[q].reorganization);
      }
    }
    for (std::size_t q = 0; q < spectator.players.size(); ++q) {
      EXPECT_EQ(spectator.players[q].ruler, after.players[q].ruler);
    }
    ++checked;
  });
  EXPECT_EQ(view_for(s, kSpectator).turn_order, s.turn_order);
  EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace viktory
