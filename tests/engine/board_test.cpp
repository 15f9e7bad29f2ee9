// The map [3.2, 3.3] and the start of the game [4.0].
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>

#include "fixture.h"
#include "tiles.h"
#include "view.h"

namespace viktory {
namespace {

using testing::Position;

int interior_count(const Board& b) {
  int n = 0;
  for (int h = 0; h < b.size(); ++h) n += b.is_perimeter(h) ? 0 : 1;
  return n;
}

// Rotation of the map by 60 degrees about its centre hex.
Axial rotate60(Axial a) { return {-a.r, a.q + a.r}; }

std::set<int> rotated(const Board& b, const std::array<int, 3>& group, int sixths) {
  std::set<int> out;
  for (int h : group) {
    Axial a = b.coord(h);
    for (int i = 0; i < sixths; ++i) a = rotate60(a);
    out.insert(b.index_of(a));
  }
  return out;
}

TEST(Board, R3_2_SizesByPlayerCount) {
  const std::vector<std::pair<int, int>> expected{{2, 61}, {3, 91}, {4, 127}, {5, 169}, {6, 169}};
  for (const auto& [players, hexes] : expected) {
    Options o;
    o.players = players;
    const GameState s = new_game(o, 7);
    EXPECT_EQ(static_cast<int>(s.hexes.size()), hexes) << players << " players";
    EXPECT_EQ(s.board().size(), hexes);
  }
  // The English table's hexes per map side: 5, 6, 7, 8 (the radius plus one).
  EXPECT_EQ(board_radius_for_players(2) + 1, 5);
  EXPECT_EQ(board_radius_for_players(3) + 1, 6);
  EXPECT_EQ(board_radius_for_players(4) + 1, 7);
  EXPECT_EQ(board_radius_for_players(6) + 1, 8);
  Options bad;
  bad.players = 9;
  EXPECT_THROW(new_game(bad, 1), std::invalid_argument);
}

TEST(Board, R3_2_PerimeterIsWaterAndVisibleToAll) {
  for (int players = 2; players <= 6; ++players) {
    Options o;
    o.players = players;
    const GameState s = new_game(o, 11);
    const Board& b = s.board();
    int perimeter = 0;
    for (int h = 0; h < b.size(); ++h) {
      if (!b.is_perimeter(h)) continue;
      ++perimeter;
      EXPECT_EQ(s.hexes[h].terrain, Terrain::kWater) << b.label(h);
      for (int viewer = kSpectator; viewer < players; ++viewer) {
        const HexView& hv = view_for(s, viewer).hexes[h];
        EXPECT_TRUE(hv.known) << b.label(h) << " viewer " << viewer;
        EXPECT_EQ(hv.terrain, Terrain::kWater);
      }
    }
    EXPECT_EQ(perimeter, 6 * b.radius());
  }
}

TEST(Board, R3_2_UnrevealedInteriorHasNoTerrain) {
  Options o;
  o.players = 4;
  const GameState s = new_game(o, 5);
  const Board& b = s.board();
  int revealed = 0;
  for (int h = 0; h < b.size(); ++h) {
    if (b.is_perimeter(h)) continue;
    if (s.hexes[h].revealed) {
      ++revealed;
      EXPECT_NE(s.hexes[h].terrain, Terrain::kNone);
    } else {
      EXPECT_EQ(s.hexes[h].terrain, Terrain::kNone) << b.label(h);
      // Nobody's view shows it either.
      EXPECT_EQ(view_for(s, kSpectator).hexes[h].terrain, Terrain::kNone);
    }
  }
  // Only the first player's start area is face up during his setup step [4.0 step 2].
  EXPECT_GE(revealed, 3);
  EXPECT_LT(revealed, interior_count(b));
}

TEST(Board, R3_2_TileBankMatchesTheInterior) {
  for (TileMix mix : {TileMix::kStandard, TileMix::kLandRich, TileMix::kIslands}) {
    for (int players = 2; players <= 6; ++players) {
      const Board& b = Board::for_radius(board_radius_for_players(players));
      const auto bank = tile_bank_for(mix, interior_count(b));
      EXPECT_EQ(std::accumulate(bank.begin(), bank.end(), 0), interior_count(b));
      for (int n : bank) EXPECT_GT(n, 0);

      // In a new game, what is left in the bank plus the tiles already drawn is the interior.
      Options o;
      o.players = players;
      o.tile_mix = mix;
      const GameState s = new_game(o, 3);
      int drawn = 0;
      std::array<int, kTerrainKinds> drawn_by_kind{};
      for (int h = 0; h < b.size(); ++h) {
        if (b.is_perimeter(h) || s.hexes[h].terrain == Terrain::kNone) continue;
        ++drawn;
        ++drawn_by_kind[bank_slot_of(s.hexes[h].terrain)];
      }
      EXPECT_EQ(std::accumulate(s.tile_bank.begin(), s.tile_bank.end(), 0) + drawn,
                interior_count(b));
      for (int k = 0; k < kTerrainKinds; ++k) {
        EXPECT_EQ(s.tile_bank[k] + drawn_by_kind[k], bank[k]);
      }
    }
  }
}

TEST(Board, R3_3_StartGroupsAreAdjacentTriplesOnTheRim) {
  for (int players = 2; players <= 6; ++players) {
    const Board& b = Board::for_radius(board_radius_for_players(players));
    const auto groups = b.start_groups(players);
    ASSERT_EQ(static_cast<int>(groups.size()), players);
    std::set<int> used;
    for (const auto& g : groups) {
      bool touches_perimeter = false;
      for (int i = 0; i < 3; ++i) {
        ASSERT_NE(g[i], Board::kNoHex);
        EXPECT_FALSE(b.is_perimeter(g[i])) << b.label(g[i]);
        EXPECT_TRUE(used.insert(g[i]).second) << "groups overlap at " << b.label(g[i]);
        for (int j = i + 1; j < 3; ++j) EXPECT_EQ(b.distance(g[i], g[j]), 1);
        for (int n : b.neighbors(g[i])) {
          touches_perimeter = touches_perimeter || (n != Board::kNoHex && b.is_perimeter(n));
        }
      }
      EXPECT_TRUE(touches_perimeter) << players << " players";
    }
    // No hex of one group is next to a hex of another.
    for (std::size_t a = 0; a < groups.size(); ++a) {
      for (std::size_t c = a + 1; c < groups.size(); ++c) {
        for (int x : groups[a]) {
          for (int y : groups[c]) EXPECT_GE(b.distance(x, y), 2) << players << " players";
        }
      }
    }
  }
}

TEST(Board, R3_3_StartGroupsAreSymmetric) {
  // 2, 3 and 6 players: rotating the map by 360/n degrees maps the groups onto each other;
  // 4 players: point symmetry (180 degrees).
  const std::vector<std::pair<int, int>> cases{{2, 3}, {3, 2}, {6, 1}, {4, 3}};
  for (const auto& [players, sixths] : cases) {
    const Board& b = Board::for_radius(board_radius_for_players(players));
    const auto groups = b.start_groups(players);
    std::set<std::set<int>> as_sets;
    for (const auto& g : groups) as_sets.insert(std::set<int>(g.begin(), g.end()));
    for (const auto& g : groups) {
      EXPECT_TRUE(as_sets.count(rotated(b, g, sixths)) == 1)
          << players << " players: a group rotated by " << 60 * sixths << " degrees is no group";
    }
  }
  // The check above can fail: a non-symmetric arrangement (5 players) is caught by it.
  const Board& b5 = Board::for_radius(board_radius_for_players(5));
  const auto groups5 = b5.start_groups(5);
  std::set<std::set<int>> sets5;
  for (const auto& g : groups5) sets5.insert(std::set<int>(g.begin(), g.end()));
  int mapped = 0;
  for (const auto& g : groups5) mapped += static_cast<int>(sets5.count(rotated(b5, g, 1)));
  EXPECT_LT(mapped, 5);
}

// ----- Starting the game [4.0] -----

TEST(Start, R4_0_FirstPlayerIsRandomButFixedBySeed) {
  Options o;
  o.players = 3;
  std::set<int> seen;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const GameState a = new_game(o, seed);
    const GameState b = new_game(o, seed);
    EXPECT_EQ(a.first_player, b.first_player);
    EXPECT_TRUE(a == b) << "same seed, different game";
    EXPECT_EQ(a.current, a.first_player);
    EXPECT_EQ(a.phase, Phase::kSetup);
    seen.insert(a.first_player);
  }
  EXPECT_EQ(seen.size(), 3u) << "every seat should start some game";
}

TEST(Start, R4_0_FirstPlayerSeesHisStartHexes) {
  Options o;
  o.players = 2;
  const GameState s = new_game(o, 21);
  const auto groups = s.board().start_groups(2);
  for (int h : groups[s.first_player]) EXPECT_TRUE(s.hexes[h].revealed);
  for (int h : groups[1 - s.first_player]) {
    EXPECT_FALSE(s.hexes[h].revealed);
    EXPECT_EQ(s.hexes[h].terrain, Terrain::kNone);
  }
  ASSERT_FALSE(s.capital_choices.empty());
  for (int h : s.capital_choices) EXPECT_TRUE(is_land(s.hexes[h].terrain));
}

// The second player's start hexes are revealed when the first has built his Capital, so a
// scenario can lay their tiles face down first (the engine draws only where there is none).
struct SecondSetup {
  GameState state;
  int first = 0;
  int second = 0;
  std::array<int, 3> group{};
};

SecondSetup second_player_setup(std::uint64_t seed) {
  Options o;
  o.players = 2;
  SecondSetup s{new_game(o, seed)};
  s.first = s.state.first_player;
  s.second = 1 - s.first;
  s.group = s.state.board().start_groups(2)[s.second];
  return s;
}

void lay_face_down(GameState& s, int hex, Terrain t) {
  s.hexes[hex].terrain = t;
  s.hexes[hex].revealed = false;
  s.hexes[hex].known_by = 0;
}

TEST(Start, R4_0_CapitalOnALandStartHexOnly) {
  SecondSetup st = second_player_setup(4);
  lay_face_down(st.state, st.group[0], Terrain::kWater);
  lay_face_down(st.state, st.group[1], Terrain::kForest);
  lay_face_down(st.state, st.group[2], Terrain::kWater);
  GameState& s = st.state;
  ASSERT_FALSE(apply_in_place(s, act::place_capital(st.first, s.capital_choices.front())));
  ASSERT_EQ(s.current, st.second);
  ASSERT_EQ(s.phase, Phase::kSetup);
  EXPECT_EQ(s.capital_choices, std::vector<int>{st.group[1]});

  auto refused = apply(s, act::place_capital(st.second, st.group[0]));  // water
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error->code, "bad_capital_hex");
  EXPECT_TRUE(refused.state == s);
  // A land hex outside his start area is refused too.
  int outside = -1;
  for (int h = 0; h < s.board().size(); ++h) {
    if (!s.board().is_perimeter(h) && s.hexes[h].town_owner == kNoPlayer &&
        std::find(st.group.begin(), st.group.end(), h) == st.group.end() &&
        s.board().distance(h, s.players[st.first].capital_hex) > 1) {
      outside = h;
      break;
    }
  }
  ASSERT_GE(outside, 0);
  EXPECT_EQ(apply(s, act::place_capital(st.second, outside)).error->code, "bad_capital_hex");
  // Playing out of turn is refused.
  EXPECT_EQ(apply(s, act::place_capital(st.first, st.group[1])).error->code, "not_your_decision");

  ASSERT_FALSE(apply_in_place(s, act::place_capital(st.second, st.group[1])));
  EXPECT_EQ(s.players[st.second].capital_hex, st.group[1]);
  EXPECT_EQ(s.hexes[st.group[1]].town_owner, st.second);
  EXPECT_EQ(s.hexes[st.group[1]].capital_of, st.second);
  EXPECT_FALSE(check_invariants(s).has_value());
}

TEST(Start, R4_0_AllWaterStartRevealsTheRingAround) {
  SecondSetup st = second_player_setup(9);
  GameState& s = st.state;
  const Board& b = s.board();
  std::vector<int> ring;
  for (int g : st.group) {
    lay_face_down(s, g, Terrain::kWater);
    for (int n : b.neighbors(g)) {
      if (n == Board::kNoHex || b.is_perimeter(n)) continue;
      if (std::find(st.group.begin(), st.group.end(), n) != st.group.end()) continue;
      if (std::find(ring.begin(), ring.end(), n) == ring.end()) ring.push_back(n);
    }
  }
  ASSERT_GE(ring.size(), 3u);
  for (int h : ring) lay_face_down(s, h, Terrain::kWater);
  const int land = ring[1];
  lay_face_down(s, land, Terrain::kMountain);

  std::vector<Event> ev;
  ASSERT_FALSE(apply_in_place(s, act::place_capital(st.first, s.capital_choices.front()), &ev));
  for (int g : st.group) EXPECT_TRUE(s.hexes[g].revealed);
  for (int h : ring) EXPECT_TRUE(s.hexes[h].revealed) << b.label(h);
  EXPECT_EQ(s.capital_choices, std::vector<int>{land});
  // Only the start area and the one ring were turned over for him.
  int second_reveals = 0;
  for (const Event& e : testing::events_of(ev, EventKind::kTileRevealed)) {
    if (e.player == st.second) ++second_reveals;
  }
  EXPECT_EQ(second_reveals, 3 + static_cast<int>(ring.size()));
  ASSERT_FALSE(apply_in_place(s, act::place_capital(st.second, land)));
  EXPECT_EQ(s.hexes[land].town_owner, st.second);
}

TEST(Start, R4_0_AllWaterAgainRevealsFurther) {
  SecondSetup st = second_player_setup(10);
  GameState& s = st.state;
  const Board& b = s.board();
  // Start hexes and everything within two hexes of them: water, except one hex at distance 2.
  int far_land = -1;
  for (int h = 0; h < b.size(); ++h) {
    if (b.is_perimeter(h)) continue;
    int d = 99;
    for (int g : st.group) d = std::min(d, b.distance(g, h));
    if (d <= 2) lay_face_down(s, h, Terrain::kWater);
    if (d == 2 && far_land < 0) far_land = h;
  }
  ASSERT_GE(far_land, 0);
  lay_face_down(s, far_land, Terrain::kGrassland);
  ASSERT_FALSE(apply_in_place(s, act::place_capital(st.first, s.capital_choices.front())));
  EXPECT_EQ(s.capital_choices, std::vector<int>{far_land});
  EXPECT_TRUE(s.hexes[far_land].revealed);
}

TEST(Start, R4_0_CapitalGetsOneInfantryPlacedOnIt) {
  Options o;
  o.players = 2;
  GameState s = new_game(o, 13);
  const int p = s.first_player;
  const int hex = s.capital_choices.front();
  std::vector<Event> ev;
  ASSERT_FALSE(apply_in_place(s, act::place_capital(p, hex), &ev));
  std::vector<const Unit*> mine;
  for (const Unit& u : s.units) {
    if (u.owner == p) mine.push_back(&u);
  }
  ASSERT_EQ(mine.size(), 1u);
  EXPECT_EQ(mine[0]->type, UnitType::kInfantry);
  EXPECT_EQ(mine[0]->place, UnitPlace::kMap);
  EXPECT_EQ(mine[0]->hex, hex);
  EXPECT_EQ(testing::count_of(ev, EventKind::kCapitalPlaced), 1);
  EXPECT_EQ(testing::count_of(ev, EventKind::kUnitGained), 1);
  EXPECT_EQ(testing::count_of(ev, EventKind::kUnitPlaced), 1);
  // Building the Capital reveals its neighbours [7.3].
  for (int n : s.board().neighbors(hex)) {
    if (n == Board::kNoHex) continue;
    EXPECT_TRUE(s.hexes[n].revealed) << s.board().label(n);
  }
  EXPECT_FALSE(check_invariants(s).has_value());
}

TEST(Start, R4_0_SetupGoesClockwiseThenTurnOneForTheFirstPlayer) {
  Options o;
  o.players = 3;
  std::set<int> tested_firsts;  // every seat once, so the order also wraps around
  for (std::uint64_t seed = 1; seed <= 60 && tested_firsts.size() < 3; ++seed) {
    GameState s = new_game(o, seed);
    const int first = s.first_player;
    if (!tested_firsts.insert(first).second) continue;
    std::vector<Event> ev;
    for (int step = 0; step < 3; ++step) {
      const int expected = (first + step) % 3;
      ASSERT_EQ(s.phase, Phase::kSetup);
      ASSERT_EQ(s.current, expected) << "seed " << seed << " step " << step;
      ASSERT_EQ(decider(s), expected);
      ASSERT_FALSE(s.capital_choices.empty());
      ev.clear();
      ASSERT_FALSE(apply_in_place(s, act::place_capital(expected, s.capital_choices.front()), &ev));
    }
    EXPECT_EQ(s.current, first);
    EXPECT_EQ(s.turn, 1);
    EXPECT_EQ(s.phase, Phase::kBuild);
    const auto started = testing::events_of(ev, EventKind::kTurnStarted);
    ASSERT_EQ(started.size(), 1u);
    EXPECT_EQ(started[0].player, first);
    EXPECT_EQ(started[0].value, 1);
    EXPECT_TRUE(s.players[first].held_capital_at_turn_start);
    EXPECT_FALSE(check_invariants(s).has_value());
  }
  EXPECT_EQ(tested_firsts.size(), 3u);
}

TEST(Start, R4_0_NothingButTheCapitalDuringSetup) {
  Options o;
  o.players = 2;
  GameState s = new_game(o, 17);
  const int p = s.first_player;
  EXPECT_EQ(apply(s, act::end_phase(p)).error->code, "capital_required");
  EXPECT_EQ(apply(s, act::build_town(p, s.capital_choices.front())).error->code, "wrong_phase");
}

}  // namespace
}  // namespace viktory
