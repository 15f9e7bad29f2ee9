// How to win [5.1, 5.3, 5.4, 5.5], elimination and conceding (docs/rules-notes.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "fixture.h"
#include "view.h"

namespace viktory {
namespace {

using testing::count_of;
using testing::events_of;
using testing::Position;
using testing::rolls;

using U = UnitType;

// Ends phases until `player`'s turn is over.
std::vector<Event> finish_turn(Position& p, int player) {
  std::vector<Event> all;
  while (p.state.current == player && p.state.phase != Phase::kGameOver) {
    const auto ev = p.apply_ok(act::end_phase(player));
    all.insert(all.end(), ev.begin(), ev.end());
  }
  return all;
}

// Plains, radius-4 board. Capitals: player 0 D3, player 1 G6, player 2 (if any) B5.
Position capitals(int players, Options options = {}) {
  Position p(players, /*radius=*/4, options);
  p.fill(Terrain::kPlains);
  p.capital(0, p.at("D3")).capital(1, p.at("G6"));
  if (players == 3) p.capital(2, p.at("B5"));
  return p;
}

// Player 0's Infantry on `from` takes the empty Town/City `hex`; its defence dice all miss.
std::vector<Event> take(Position& p, const char* from, const char* hex, int defence_dice) {
  const int inf = p.unit(0, U::kInfantry, p.at(from));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, inf, p.at(hex)));
  p.dice(std::vector<int>(defence_dice, 6));
  return p.apply_ok(act::start_battle(0, p.at(hex)));
}

TEST(Victory, R5_1_LastPlayerLeftWins) {
  Position p = capitals(2);
  const auto ev = take(p, "F6", "G6", 1);
  EXPECT_EQ(count_of(ev, EventKind::kPlayerEliminated), 1);
  EXPECT_TRUE(p.state.players[1].eliminated);
  EXPECT_EQ(p.state.phase, Phase::kGameOver);
  EXPECT_EQ(p.state.winners, std::vector<int>{0});
  EXPECT_EQ(p.state.ended_by, VictoryCondition::kStandard);
  const auto over = events_of(ev, EventKind::kGameOver);
  ASSERT_EQ(over.size(), 1u);
  EXPECT_EQ(over[0].dice, std::vector<int>{0});
  EXPECT_EQ(decider(p.state), kNoPlayer);
  EXPECT_EQ(p.apply_error(act::end_phase(0)), "game_over");
  EXPECT_TRUE(legal_actions(p.state, 0).empty());
  EXPECT_CONSISTENT(p);
}

TEST(Victory, R5_1_AnEliminatedPlayerIsSkipped) {
  Position p = capitals(3);
  p.unit(2, U::kInfantry, p.at("B5"));
  take(p, "F6", "G6", 1);
  EXPECT_TRUE(p.state.players[1].eliminated);
  EXPECT_NE(p.state.phase, Phase::kGameOver);
  // Nothing of his is left anywhere.
  for (const Unit& u : p.state.units) {
    if (u.owner != 1) continue;
    EXPECT_EQ(u.place, UnitPlace::kStock);
  }
  EXPECT_EQ(p.apply_error(act::concede(1)), "not_in_game");
  finish_turn(p, 0);
  EXPECT_EQ(p.state.current, 2);
  EXPECT_CONSISTENT(p);
}

TEST(Victory, R5_1_ConcedingOutOfTurn) {
  Position p = capitals(3);
  p.town(1, p.at("G3"));
  const int his = p.unit(1, U::kInfantry, p.at("G3"));
  const int mine = p.unit(0, U::kInfantry, p.at("D3"));
  p.start_turn(0, Phase::kMovement);
  const auto ev = p.apply_ok(act::concede(1));
  EXPECT_EQ(count_of(ev, EventKind::kPlayerConceded), 1);
  EXPECT_TRUE(p.state.players[1].conceded);
  // His Towns, Capital and units leave the map (docs/rules-notes.md).
  for (const char* l : {"G6", "G3"}) {
    EXPECT_EQ(p.state.hexes[p.at(l)].town_owner, kNoPlayer) << l;
  }
  EXPECT_EQ(p.u(his).place, UnitPlace::kStock);
  EXPECT_EQ(p.state.current, 0);
  EXPECT_EQ(p.state.phase, Phase::kMovement);
  p.apply_ok(act::move(0, mine, p.at("D4")));  // the turn goes on
  EXPECT_EQ(p.apply_error(act::end_phase(1)), "not_in_game");
  finish_turn(p, 0);
  EXPECT_EQ(p.state.current, 2);
}

TEST(Victory, R5_1_ConcedingOnOwnTurnPassesIt) {
  Position p = capitals(3);
  p.start_turn(1, Phase::kMovement);
  const int turn = p.state.turn;
  const auto ev = p.apply_ok(act::concede(1));
  EXPECT_EQ(p.state.current, 2);
  EXPECT_EQ(p.state.turn, turn + 1);
  EXPECT_EQ(p.state.phase, Phase::kBuild);
  EXPECT_EQ(count_of(ev, EventKind::kTurnStarted), 1);
}

TEST(Victory, R5_1_ConcedingLeavesOneWinner) {
  Position p = capitals(2);
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::concede(0));
  EXPECT_EQ(p.state.phase, Phase::kGameOver);
  EXPECT_EQ(p.state.winners, std::vector<int>{1});
  EXPECT_EQ(p.state.ended_by, VictoryCondition::kStandard);
}

TEST(Victory, R5_1_ConcedingInTheMiddleOfAChoice) {
  Position p = capitals(2);
  p.terrain(p.at("B3"), Terrain::kMountain).city(0, p.at("B3"));
  p.terrain(p.at("H4"), Terrain::kGrassland).city(1, p.at("H4"));
  const int art = p.unit(0, U::kArtillery, p.at("E4"));
  p.unit(1, U::kInfantry, p.at("E5"));
  p.unit(1, U::kCavalry, p.at("E5"));
  p.start_turn(0, Phase::kMovement);
  p.dice({2});
  p.apply_ok(act::bombard(0, art, p.at("E5")));
  ASSERT_EQ(decider(p.state), 1);  // his choice of loss
  p.apply_ok(act::concede(1));
  EXPECT_FALSE(p.state.bombard.has_value());
  EXPECT_EQ(p.state.phase, Phase::kGameOver);
  EXPECT_EQ(p.state.winners, std::vector<int>{0});
}

TEST(Victory, R5_1_ConcederCapitalHeldByAnotherStays) {
  Position p = capitals(3);
  // Player 0 holds player 1's old Capital G6 (the marker stays there [14.0]); player 1 has G3.
  p.state.hexes[p.at("G6")].town_owner = 0;
  p.state.units[1].owner = 0;  // the Town's Infantry changed hands with it [10.3]
  p.town(1, p.at("G3"));
  p.start_turn(0, Phase::kMovement);
  ASSERT_FALSE(check_invariants(p.state).has_value());
  p.apply_ok(act::concede(1));
  EXPECT_EQ(p.state.hexes[p.at("G6")].town_owner, 0);
  EXPECT_EQ(p.state.hexes[p.at("G3")].town_owner, kNoPlayer);
  EXPECT_EQ(victory_points(p.state, 0), 2);
}

TEST(Victory, R5_3_ShorterConquestEndsAtTheFirstCapturedCapital) {
  Options o;
  o.victory = VictoryCondition::kShorter;
  Position p = capitals(3, o);
  // Player 1 has the biggest empire, but he loses his Capital: he cannot win [5.3].
  for (const char* l : {"G3", "E5", "H4"}) p.city(1, p.at(l));
  p.city(2, p.at("B3"));
  p.city(2, p.at("D6"));
  p.unit(2, U::kInfantry, p.at("B5"));
  const auto ev = take(p, "F6", "G6", 1);
  EXPECT_EQ(p.state.phase, Phase::kGameOver);
  EXPECT_EQ(p.state.ended_by, VictoryCondition::kShorter);
  // Player 0: D3 and G6 (2 points); player 2: B5, City B3, City D6 (5 points).
  EXPECT_EQ(victory_points(p.state, 0), 2);
  EXPECT_EQ(victory_points(p.state, 2), 5);
  EXPECT_GT(victory_points(p.state, 1), 5);
  EXPECT_EQ(p.state.winners, std::vector<int>{2});
  EXPECT_EQ(count_of(ev, EventKind::kCapitalLost), 1);
}

TEST(Victory, R5_3_ShorterConquestTiesShareTheWin) {
  Options o;
  o.victory = VictoryCondition::kShorter;
  Position p = capitals(3, o);
  p.town(2, p.at("B3"));  // player 2: two Towns; player 0 will have two as well
  p.unit(2, U::kInfantry, p.at("B5"));
  take(p, "F6", "G6", 1);
  ASSERT_EQ(p.state.phase, Phase::kGameOver);
  EXPECT_EQ(p.state.winners, (std::vector<int>{0, 2}));
}

// Cities for `player` on every free hex (q - r) % 3 == k of the interior, up to `count`; such
// hexes are never adjacent.
void cities(Position& p, int player, int k, int count, bool town_last = false) {
  const Board& b = p.board();
  for (int h = 0; h < b.size() && count > 0; ++h) {
    const Axial a = b.coord(h);
    if (b.is_perimeter(h) || ((a.q - a.r) % 3 + 3) % 3 != k) continue;
    bool free = p.state.hexes[h].town_owner == kNoPlayer;
    for (int n : b.neighbors(h))
      free = free && (n == -1 || p.state.hexes[n].town_owner == kNoPlayer);
    if (!free) continue;
    if (--count == 0 && town_last) {
      p.town(player, h);
    } else {
      p.city(player, h);
    }
  }
  if (count > 0) throw std::logic_error("no room for the cities");
}

TEST(Victory, R5_4_TwentyPointsAtTheStartOfOwnTurn) {
  Options o;
  o.victory = VictoryCondition::kRace;
  Position p(2, /*radius=*/6, o);
  p.fill(Terrain::kPlains);
  cities(p, 0, 0, 10);                      // 20 points
  cities(p, 1, 0, 10, /*town_last=*/true);  // 19 points
  EXPECT_EQ(victory_points(p.state, 0), 20);
  EXPECT_EQ(victory_points(p.state, 1), 19);
  // Player 1's turn: 19 points are not enough.
  p.start_turn(1);
  EXPECT_NE(p.state.phase, Phase::kGameOver);
  // Player 0 has had 20 all along, but wins only as his own turn begins, before building.
  const auto ev = p.start_turn(0);
  EXPECT_EQ(p.state.phase, Phase::kGameOver);
  EXPECT_EQ(p.state.winners, std::vector<int>{0});
  EXPECT_EQ(p.state.ended_by, VictoryCondition::kRace);
  for (const Event& e : events_of(ev, EventKind::kPhaseChanged)) {
    EXPECT_NE(e.value, static_cast<int>(Phase::kBuild));
  }
}

TEST(Victory, R5_5_DoomsdayClock) {
  Options o;
  o.victory = VictoryCondition::kDoomsday;
  Position p = capitals(2, o);
  p.city(1, p.at("G3"));  // a City of player 1's that player 0 will take
  p.town(1, p.at("E6"));  // and a Town, which does not start the clock
  p.unit(1, U::kInfantry, p.at("G6"));
  p.unit(1, U::kInfantry, p.at("G6"));
  p.unit(1, U::kInfantry, p.at("G6"));
  p.unit(1, U::kInfantry, p.at("G6"));
  p.town(0, p.at("B5"));
  const int a = p.unit(0, U::kInfantry, p.at("E5"));
  const int b = p.unit(0, U::kInfantry, p.at("G4"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, a, p.at("E6")));
  p.dice({6});
  p.apply_ok(act::start_battle(0, p.at("E6")));
  ASSERT_EQ(p.state.hexes[p.at("E6")].town_owner, 0);
  EXPECT_FALSE(p.state.doomsday_started);  // a Town
  p.apply_ok(act::move(0, b, p.at("G3")));
  p.dice({6, 6});
  const auto ev = p.apply_ok(act::start_battle(0, p.at("G3")));
  EXPECT_TRUE(p.state.doomsday_started);  // the first City captured
  EXPECT_EQ(count_of(ev, EventKind::kDoomsdayStarted), 1);
  p.dice({4});
  const auto next = finish_turn(p, 0);
  EXPECT_EQ(rolls(next, RollPurpose::kDoomsday), (std::vector<std::vector<int>>{{4}}));

  // Each player rolls as his turn begins, before building; a '1' lays his coin.
  auto roll = [&](int player, int face) {
    p.dice({face});
    const auto events = p.start_turn(player);
    EXPECT_EQ(rolls(events, RollPurpose::kDoomsday), (std::vector<std::vector<int>>{{face}}));
    EXPECT_TRUE(p.state.scripted_dice.empty());
    return events;
  };
  ASSERT_EQ(p.state.current, 1);
  EXPECT_EQ(p.state.phase, Phase::kBuild);
  EXPECT_EQ(p.state.players[1].doomsday_roll, 4) << "player 1's roll as his turn began";
  EXPECT_EQ(p.state.players[0].doomsday_roll, 0) << "player 0 has not rolled yet";
  roll(0, 3);
  EXPECT_FALSE(p.state.players[0].doomsday_coin);
  // The last roll is public and stays in the state and every view (a page opened later shows it).
  EXPECT_EQ(p.state.players[0].doomsday_roll, 3);
  EXPECT_EQ(view_for(p.state, 1).players[0].doomsday_roll, 3);
  EXPECT_EQ(view_for(p.state, kSpectator).players[0].doomsday_roll, 3);
  const auto coin = roll(0, 1);
  EXPECT_TRUE(p.state.players[0].doomsday_coin);
  EXPECT_EQ(count_of(coin, EventKind::kDoomsdayCoin), 1);
  EXPECT_EQ(p.state.players[0].doomsday_roll, 1);
  EXPECT_EQ(p.state.phase, Phase::kBuild);
  // With his coin laid he rolls no more.
  const auto quiet = p.start_turn(0);
  EXPECT_TRUE(rolls(quiet, RollPurpose::kDoomsday).empty());
  roll(1, 5);
  EXPECT_NE(p.state.phase, Phase::kGameOver);
  roll(1, 1);  // the last Capital gets its coin: the game ends, empires are scored
  EXPECT_EQ(p.state.phase, Phase::kGameOver);
  EXPECT_EQ(p.state.ended_by, VictoryCondition::kDoomsday);
  // Player 0: D3, B5, E6, City G3 = 5 points; player 1: G6 = 1.
  EXPECT_EQ(victory_points(p.state, 0), 5);
  EXPECT_EQ(p.state.winners, std::vector<int>{0});
}

TEST(Victory, R5_3_EmpireScore) {
  Position p = capitals(2);
  p.city(0, p.at("E5"));
  p.town(0, p.at("B5"));
  EXPECT_EQ(victory_points(p.state, 0), 4);  // Town 1 + City 2 + Town 1
  EXPECT_EQ(victory_points(p.state, 1), 1);
}

// [5.0] Several Victory Conditions: the first one met ends the game.
TEST(Victory, R5_0_RaceAndDoomsdayTheFirstMetEndsTheGame) {
  Options o;
  o.victory = VictoryCondition::kRace;
  o.victory.add(VictoryCondition::kDoomsday);
  Position p(2, /*radius=*/6, o);
  p.fill(Terrain::kPlains);
  cities(p, 0, 0, 10);  // 20 points
  cities(p, 1, 0, 2);
  p.state.doomsday_started = true;  // the clock runs too
  // Player 1 rolls for the clock (a miss) and plays on; player 0 wins the Race as his turn
  // begins, before he would roll [5.4 before 5.5: both "prior to his Building Phase"].
  p.dice({4});
  const auto first = p.start_turn(1);
  EXPECT_EQ(rolls(first, RollPurpose::kDoomsday).size(), 1u);
  EXPECT_NE(p.state.phase, Phase::kGameOver);
  const auto ev = p.start_turn(0);
  EXPECT_EQ(p.state.phase, Phase::kGameOver);
  EXPECT_EQ(p.state.ended_by, VictoryCondition::kRace);
  EXPECT_EQ(p.state.winners, std::vector<int>{0});
  EXPECT_TRUE(rolls(ev, RollPurpose::kDoomsday).empty());
}

TEST(Victory, R5_0_RaceAndDoomsdayTheClockCanComeFirst) {
  Options o;
  o.victory = VictoryCondition::kRace;
  o.victory.add(VictoryCondition::kDoomsday);
  Position p = capitals(2, o);
  p.city(0, p.at("E5"));
  p.state.doomsday_started = true;
  p.state.players[0].doomsday_coin = true;
  p.dice({1});  // the last coin: the game ends and empires are scored [5.5]
  p.start_turn(1);
  EXPECT_EQ(p.state.phase, Phase::kGameOver);
  EXPECT_EQ(p.state.ended_by, VictoryCondition::kDoomsday);
  EXPECT_EQ(p.state.winners, std::vector<int>{0});
}

// Met by the same action, a conquest [5.1, 5.2/15.66] ends the game before scoring [5.3, 5.5].
TEST(Victory, R5_0_AConquestComesBeforeScoringWhenBothAreMetAtOnce) {
  Options o;
  o.victory = VictoryCondition::kShorter;
  o.victory.add(VictoryCondition::kSubjugation);
  Position p = capitals(3, o);
  EXPECT_TRUE(p.state.options.subjugation);               // [5.2] brings [15.6]
  p.state.players[2].ruler = 0;                           // player 2 is already player 0's Vassal
  for (const char* l : {"B3", "D6"}) p.city(2, p.at(l));  // the biggest empire
  const auto ev = take(p, "F6", "G6", 1);                 // the first Capital taken [5.3]
  EXPECT_EQ(p.state.phase, Phase::kGameOver);
  EXPECT_EQ(p.state.ended_by, VictoryCondition::kSubjugation);
  EXPECT_EQ(p.state.winners, std::vector<int>{0});
  EXPECT_EQ(count_of(ev, EventKind::kSubjugated), 1);
}

TEST(Victory, R5_0_AtLeastOneConditionAndOnlyPlayableCombinations) {
  Options none;
  none.victory = VictorySet::from_bits(0);
  EXPECT_THROW(new_game(none, 1), std::invalid_argument);
  Options subjugation_victory;
  subjugation_victory.victory = VictoryCondition::kSubjugation;
  EXPECT_TRUE(new_game(subjugation_victory, 1).options.subjugation);  // implied [5.2]
  EXPECT_FALSE(options_problem(normalized(subjugation_victory)).has_value());
  EXPECT_TRUE(options_problem(subjugation_victory).has_value());  // not normalized: refused
}

}  // namespace
}  // namespace viktory
