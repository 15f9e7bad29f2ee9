// Subjugation [15.6]: a captured Capital makes its owner the captor's Vassal; Alliances,
// their movement, their placement, how they break, and the Alliance victory.
#include <gtest/gtest.h>

#include <algorithm>

#include "fixture.h"
#include "view.h"

namespace viktory {
namespace {

using testing::count_of;
using testing::events_of;
using testing::Position;
using testing::rolls;

using U = UnitType;

Options subjugation() {
  Options o;
  o.subjugation = true;
  return o;
}

// Three players on the small board, Plains: Capitals D3 (player 0), G6 (player 1), B5
// (player 2), each a Town with its Infantry in the Reserve. G6's neighbours: F6, F7, G5, H5
// and the perimeter water G7, H6.
Position realm(Options options = subjugation()) {
  Position p(3, 4, options);
  p.fill(Terrain::kPlains);
  p.capital(0, p.at("D3")).capital(1, p.at("G6")).capital(2, p.at("B5"));
  return p;
}

// Player 0's unit on `from` takes player 1's empty Capital G6: its defence dice all miss.
std::vector<Event> conquer(Position& p, int unit, int defence_dice = 1) {
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, unit, p.at("G6")));
  p.dice(std::vector<int>(static_cast<std::size_t>(defence_dice), 6));
  return p.apply_ok(act::start_battle(0, p.at("G6")));
}

std::vector<Action> legal_of_kind(const Position& p, int player, ActionKind kind) {
  std::vector<Action> out;
  for (const Action& a : legal_actions(p.state, player)) {
    if (a.kind == kind) out.push_back(a);
  }
  return out;
}

bool offered(const Position& p, const Action& a) {
  const auto legal = legal_actions(p.state, a.player);
  return std::find(legal.begin(), legal.end(), a) != legal.end();
}

int alliance_ends(const std::vector<Event>& ev, AllianceEnd why) {
  const auto broken = events_of(ev, EventKind::kAllianceBroken);
  return static_cast<int>(std::count_if(broken.begin(), broken.end(), [&](const Event& e) {
    return e.value == static_cast<int>(why);
  }));
}

// --- 15.61, 15.62: the capture ---------------------------------------------------------------

TEST(Subjugation, R15_61_TakingACapitalMakesItsOwnerTheCaptorsVassal) {
  Position p = realm();
  const int inf = p.unit(0, U::kInfantry, p.at("F6"));
  const auto ev = conquer(p, inf);
  EXPECT_EQ(p.state.players[1].ruler, 0);
  EXPECT_EQ(count_of(ev, EventKind::kCapitalLost), 1);
  const auto subjugated = events_of(ev, EventKind::kSubjugated);
  ASSERT_EQ(subjugated.size(), 1u);
  EXPECT_EQ(subjugated[0].player, 1);
  EXPECT_EQ(subjugated[0].other_player, 0);
  // [15.6] instead of [14.0]: the Capital stays his, no units change hands.
  EXPECT_EQ(count_of(ev, EventKind::kTownCaptured), 0);
  EXPECT_EQ(count_of(ev, EventKind::kUnitGained), 0);
  EXPECT_EQ(count_of(ev, EventKind::kUnitEliminated), 0);
  EXPECT_EQ(p.state.hexes[p.at("G6")].town_owner, 1);
  EXPECT_EQ(p.state.hexes[p.at("G6")].capital_of, 1);
  EXPECT_FALSE(p.state.elimination.has_value());
  EXPECT_FALSE(p.state.players[1].eliminated);
  EXPECT_EQ(p.state.players[1].reorganization, Reorganization::kNextTurn);  // [15.63]
  // The views show the Alliance.
  const GameView v = view_for(p.state, 2);
  EXPECT_EQ(v.players[1].ruler, 0);
  EXPECT_EQ(v.players[0].vassals, std::vector<int>{1});
  EXPECT_TRUE(v.players[1].holds_capital);
  EXPECT_CONSISTENT(p);
}

TEST(Subjugation, R15_62_TheRulerWithdrawsAndTheVassalReinforcesHisCapitalOnly) {
  Position p = realm();
  p.town(1, p.at("H3"));  // a second Infantry for player 1's Reserve
  const int inf = p.unit(0, U::kInfantry, p.at("F6"));
  conquer(p, inf);
  ASSERT_TRUE(p.state.capital_return.has_value());
  EXPECT_EQ(p.state.capital_return->stage, ReturnStage::kWithdraw);
  EXPECT_EQ(decider(p.state), 0);
  // To any adjacent hex of his choice: F6, F7, G5, H5 (G7, H6 are water without his Frigate).
  const auto withdrawals = legal_of_kind(p, 0, ActionKind::kWithdraw);
  EXPECT_EQ(withdrawals.size(), 4u);
  EXPECT_EQ(p.apply_error(act::end_phase(0)), "decision_pending");
  EXPECT_EQ(p.apply_error(act::withdraw(0, inf, p.at("G7"))), "bad_withdrawal");
  const auto out = p.apply_ok(act::withdraw(0, inf, p.at("F7")));
  EXPECT_EQ(count_of(out, EventKind::kUnitWithdrawn), 1);
  EXPECT_EQ(p.u(inf).hex, p.at("F7"));
  // Now the Vassal, out of turn, reinforces his Capital with his Reserve.
  ASSERT_EQ(p.state.capital_return->stage, ReturnStage::kReinforce);
  EXPECT_EQ(decider(p.state), 1);
  EXPECT_EQ(legal_actions(p.state, 0), std::vector<Action>{act::concede(0)});
  EXPECT_TRUE(offered(p, act::place_reserve(1, U::kInfantry, p.at("G6"))));
  EXPECT_EQ(p.apply_error(act::place_reserve(1, U::kInfantry, p.at("H3"))), "capital_only");
  p.apply_ok(act::place_reserve(1, U::kInfantry, p.at("G6")));
  p.apply_ok(act::place_reserve(1, U::kInfantry, p.at("G6")));  // any number [13.4]
  EXPECT_EQ(p.count_on(p.at("G6"), 1, U::kInfantry), 2);
  // His Reserve is empty: the Ruler's turn goes on.
  EXPECT_FALSE(p.state.capital_return.has_value());
  EXPECT_EQ(decider(p.state), 0);
  EXPECT_EQ(p.state.phase, Phase::kMovement);
  EXPECT_EQ(p.state.current, 0);
  EXPECT_CONSISTENT(p);
}

TEST(Subjugation, R15_62_WithdrawingAboardAFrigateMakesTheUnitItsCargo) {
  Position p(3, 4, subjugation());
  p.fill(Terrain::kPlains);
  p.terrain(p.at("D3"), Terrain::kForest);  // a Forest City Capital: his Frigate [8.2]
  p.capital(0, p.at("D3"), true).capital(1, p.at("G6")).capital(2, p.at("B5"));
  const int ship = p.unit(0, U::kFrigate, p.at("G7"));
  const int inf = p.unit(0, U::kInfantry, p.at("F6"));
  conquer(p, inf);
  ASSERT_TRUE(p.state.capital_return.has_value());
  // "onto any of his adjacent Frigates" [15.62]: G7, not the water H6 without one.
  EXPECT_TRUE(offered(p, act::withdraw(0, inf, p.at("G7"))));
  EXPECT_EQ(p.apply_error(act::withdraw(0, inf, p.at("H6"))), "bad_withdrawal");
  const int carried = p.u(ship).carried_this_turn;
  p.apply_ok(act::withdraw(0, inf, p.at("G7")));
  EXPECT_EQ(p.u(inf).hex, p.at("G7"));
  EXPECT_EQ(p.u(inf).carrier, ship);                    // cargo [9.45]
  EXPECT_EQ(p.u(ship).carried_this_turn, carried + 1);  // one of its three [9.41]
  EXPECT_CONSISTENT(p);
}

TEST(Subjugation, R15_62_TheVassalMayKeepHisReserve) {
  Position p = realm();
  const int inf = p.unit(0, U::kInfantry, p.at("F6"));
  conquer(p, inf);
  p.apply_ok(act::withdraw(0, inf, p.at("F6")));
  ASSERT_EQ(decider(p.state), 1);
  p.apply_ok(act::end_phase(1));  // ends his reinforcement, not anybody's phase
  EXPECT_FALSE(p.state.capital_return.has_value());
  EXPECT_EQ(p.state.phase, Phase::kMovement);
  EXPECT_EQ(p.reserve_count(1, U::kInfantry), 1);
}

// A Battle owed before the Alliance: player 0's Infantry had moved into H3 to attack player
// 1's Town when G6 fell and player 1 became his Vassal. Its units have stopped with the
// Vassal's, so the Battle still ensues [15.64] and frees the Vassal [15.65] (found by computer
// players' random games: the units stood together for good and the phase could end).
TEST(Subjugation, R15_64_ABattleOwedToTheNewVassalIsStillFought) {
  Position p = realm();
  p.town(1, p.at("H3"));
  p.town(0, p.at("B3"));  // supports the second Infantry
  p.unit(1, U::kInfantry, p.at("H3"));
  p.unit(0, U::kInfantry, p.at("H3"));  // moved in to attack; that Battle is not fought yet
  const int inf = p.unit(0, U::kInfantry, p.at("F6"));
  conquer(p, inf);
  ASSERT_EQ(p.state.players[1].ruler, 0);
  p.apply_ok(act::withdraw(0, inf, p.at("F6")));
  p.apply_ok(act::end_phase(1));  // the Vassal keeps his Reserve
  ASSERT_FALSE(p.state.capital_return.has_value());
  EXPECT_EQ(pending_battles(p.state), std::vector<int>{p.at("H3")});
  EXPECT_EQ(p.apply_error(act::end_phase(0)), "battle_pending");
  EXPECT_CONSISTENT(p);
  const auto ev = p.apply_ok(act::start_battle(0, p.at("H3")));
  EXPECT_EQ(alliance_ends(ev, AllianceEnd::kAttackedByRuler), 1);
  EXPECT_EQ(p.state.players[1].ruler, kNoPlayer);
  EXPECT_CONSISTENT(p);
}

TEST(Subjugation, R15_62_WithdrawingOntoTheVassalsUnitsBreaksTheAllianceHeStillReinforces) {
  Position p = realm();
  p.town(1, p.at("H3"));
  const int his = p.unit(1, U::kInfantry, p.at("G5"));
  const int inf = p.unit(0, U::kInfantry, p.at("F6"));
  conquer(p, inf);
  const auto ev = p.apply_ok(act::withdraw(0, inf, p.at("G5")));
  EXPECT_EQ(alliance_ends(ev, AllianceEnd::kAttackedByRuler), 1);
  EXPECT_EQ(p.state.players[1].ruler, kNoPlayer);
  // "Even if the Ruler immediately breaks the forced Alliance ... the Vassal still gets to
  // reinforce his capital."
  ASSERT_EQ(decider(p.state), 1);
  p.apply_ok(act::place_reserve(1, U::kInfantry, p.at("G6")));
  // The Battle at G5 is the Ruler's to fight this phase [15.62].
  EXPECT_EQ(pending_battles(p.state), std::vector<int>{p.at("G5")});
  EXPECT_EQ(p.apply_error(act::end_phase(0)), "battle_pending");
  p.dice({6, 6});
  const auto battle = p.apply_ok(act::start_battle(0, p.at("G5")));
  const auto started = events_of(battle, EventKind::kBattleStarted);
  ASSERT_EQ(started.size(), 1u);
  EXPECT_EQ(started[0].other_player, 1);
  (void)his;
}

TEST(Subjugation, R15_62_WithdrawingOntoEnemyUnitsMeansABattle) {
  Position p = realm();
  p.town(2, p.at("C4"));
  p.unit(2, U::kInfantry, p.at("H5"));
  const int inf = p.unit(0, U::kInfantry, p.at("F6"));
  conquer(p, inf);
  p.apply_ok(act::withdraw(0, inf, p.at("H5")));
  EXPECT_EQ(p.state.players[1].ruler, 0);  // not the Vassal's units: the Alliance holds
  p.apply_ok(act::end_phase(1));
  EXPECT_EQ(pending_battles(p.state), std::vector<int>{p.at("H5")});
  EXPECT_EQ(p.state.entries.back().battle_hex, p.at("H5"));
}

TEST(Subjugation, R15_62_VassalFrigatesNotOntoAllianceFrigatesOntoEnemiesABattle) {
  // Forest Capitals: each Capital is a City with a Frigate.
  Position q(3, 4, subjugation());
  q.fill(Terrain::kPlains);
  for (const char* l : {"D3", "G6", "B5"}) q.terrain(q.at(l), Terrain::kForest);
  q.capital(0, q.at("D3"), true).capital(1, q.at("G6"), true).capital(2, q.at("B5"), true);
  q.unit(0, U::kFrigate, q.at("G7"));
  const int enemy = q.unit(2, U::kFrigate, q.at("H6"));
  const int inf = q.unit(0, U::kInfantry, q.at("F6"));
  conquer(q, inf, /*defence_dice=*/2);  // a City: two dice
  q.apply_ok(act::withdraw(0, inf, q.at("F6")));
  ASSERT_EQ(decider(q.state), 1);
  EXPECT_EQ(q.apply_error(act::place_reserve(1, U::kFrigate, q.at("G7"))), "alliance_frigate");
  q.apply_ok(act::place_reserve(1, U::kFrigate, q.at("H6")));
  EXPECT_FALSE(q.state.battle.has_value());  // after he has placed everything [13.5]
  q.dice({2, 6});                            // his Frigate hits, the enemy's misses
  const auto ev = q.apply_ok(act::end_phase(1));
  const auto started = events_of(ev, EventKind::kBattleStarted);
  ASSERT_EQ(started.size(), 1u);
  EXPECT_EQ(started[0].player, 1);
  EXPECT_EQ(started[0].other_player, 2);
  EXPECT_EQ(q.u(enemy).place, UnitPlace::kReserve);
  EXPECT_FALSE(q.state.capital_return.has_value());
  EXPECT_EQ(decider(q.state), 0);
  EXPECT_CONSISTENT(q);
}

// --- 15.63 -----------------------------------------------------------------------------------

TEST(Subjugation, R15_63_NoAttacksOnHisNextPlayerTurn) {
  Position p = realm();
  p.town(1, p.at("H3"));
  p.terrain(p.at("H2"), Terrain::kMountain);
  p.town(2, p.at("C4"));
  const int target = p.unit(2, U::kInfantry, p.at("G4"));
  const int his = p.unit(1, U::kInfantry, p.at("G3"));
  const int inf = p.unit(0, U::kInfantry, p.at("F6"));
  conquer(p, inf);
  p.apply_ok(act::withdraw(0, inf, p.at("F6")));
  p.apply_ok(act::end_phase(1));
  p.apply_ok(act::end_phase(0));  // his Reserve is empty: the turn passes
  ASSERT_EQ(p.state.current, 1);
  // He may build (he holds his Capital [15.6 instead of 14.0]) and move, but not attack.
  EXPECT_EQ(p.state.phase, Phase::kBuild);
  EXPECT_EQ(p.state.players[1].reorganization, Reorganization::kThisTurn);
  p.apply_ok(act::end_phase(1));
  EXPECT_EQ(p.apply_error(act::move(1, his, p.at("G4"))), "reorganization");
  p.apply_ok(act::move(1, his, p.at("G2")));
  p.apply_ok(act::end_phase(1));  // Reserve Placement
  // The turn after, he may.
  p.start_turn(1, Phase::kMovement);
  EXPECT_EQ(p.state.players[1].reorganization, Reorganization::kNone);
  EXPECT_EQ(p.apply_error(act::move(1, his, p.at("G3"))), "accepted");
  (void)target;
}

TEST(Subjugation, R15_63_EvenWhenNoLongerAVassal) {
  Position p = realm();
  p.terrain(p.at("H3"), Terrain::kMountain).city(1, p.at("H3"));
  p.town(2, p.at("C4"));
  p.unit(2, U::kInfantry, p.at("G4"));
  const int art = p.unit(1, U::kArtillery, p.at("G3"));
  // He lost his Capital and was freed since (his Ruler "stabbed him in the back").
  p.state.players[1].reorganization = Reorganization::kNextTurn;
  p.start_turn(1, Phase::kMovement);
  EXPECT_EQ(p.apply_error(act::bombard(1, art, p.at("G4"))), "reorganization");
}

// --- 15.64 -----------------------------------------------------------------------------------

// Player 1 is player 0's Vassal; player 1 has a Grassland City H3 and a Mountain City E7.
Position alliance() {
  Position p = realm();
  p.terrain(p.at("H3"), Terrain::kGrassland).city(1, p.at("H3"));
  p.terrain(p.at("E7"), Terrain::kMountain).city(1, p.at("E7"));
  p.state.players[1].ruler = 0;
  return p;
}

TEST(Subjugation, R15_64_AVassalPassesThroughAlliancePiecesButMayNotStop) {
  Position p = alliance();
  p.unit(0, U::kInfantry, p.at("E5"));
  const int cav = p.unit(1, U::kCavalry, p.at("F5"));
  const int foot = p.unit(1, U::kInfantry, p.at("D6"));
  const int walker = p.unit(1, U::kInfantry, p.at("E4"));
  p.start_turn(1, Phase::kMovement);
  p.apply_ok(act::move(1, cav, p.at("E5")));  // onto his Ruler's Infantry, 2 MPs left
  EXPECT_FALSE(p.u(cav).move_done);
  EXPECT_EQ(p.apply_error(act::end_phase(1)), "must_move_on");
  EXPECT_EQ(p.apply_error(act::move(1, foot, p.at("D5"))), "must_move_on");
  p.apply_ok(act::move(1, cav, p.at("D4")));
  EXPECT_EQ(p.u(cav).hex, p.at("D4"));
  EXPECT_EQ(p.state.players[1].ruler, 0);
  // With its last Movement Point it could not get off again: refused.
  p.apply_ok(act::move(1, foot, p.at("D5")));
  EXPECT_EQ(p.apply_error(act::move(1, foot, p.at("E5"))), "alliance_stop");
  // Alliance Towns and Cities too: through the Ruler's Capital, not into it to stay.
  p.apply_ok(act::move(1, walker, p.at("D3")));
  EXPECT_FALSE(p.u(walker).move_done);
  EXPECT_EQ(p.apply_error(act::end_phase(1)), "must_move_on");
  p.apply_ok(act::move(1, walker, p.at("C3")));
  EXPECT_EQ(p.u(walker).hex, p.at("C3"));
  EXPECT_CONSISTENT(p);
}

TEST(Subjugation, R15_64_AVassalMayNotBombardTheAlliance) {
  Position p = alliance();
  p.unit(0, U::kInfantry, p.at("E5"));
  const int art = p.unit(1, U::kArtillery, p.at("F4"));
  p.start_turn(1, Phase::kMovement);
  EXPECT_EQ(p.apply_error(act::bombard(1, art, p.at("E5"))), "alliance_target");
}

TEST(Subjugation, R15_64_ARulerPassesThroughHisVassalsPieces) {
  Position p = alliance();
  p.unit(1, U::kInfantry, p.at("E5"));
  const int inf = p.unit(0, U::kInfantry, p.at("D4"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, inf, p.at("E5")));
  EXPECT_FALSE(p.u(inf).move_done);
  // Stopping there would be an attack: it is offered like a Battle he may start.
  EXPECT_EQ(pending_battles(p.state), std::vector<int>{p.at("E5")});
  p.apply_ok(act::move(0, inf, p.at("F4")));
  EXPECT_TRUE(pending_battles(p.state).empty());
  EXPECT_EQ(p.state.players[1].ruler, 0);
  EXPECT_CONSISTENT(p);
}

TEST(Subjugation, R15_64_R15_65_ARulerStoppingOnHisVassalAttacksHim) {
  Position p = alliance();
  const int his = p.unit(1, U::kInfantry, p.at("E5"));
  const int inf = p.unit(0, U::kInfantry, p.at("D4"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, inf, p.at("E5")));
  EXPECT_EQ(p.apply_error(act::end_phase(0)), "battle_pending");
  p.dice({2, 6});
  const auto ev = p.apply_ok(act::start_battle(0, p.at("E5")));
  EXPECT_EQ(alliance_ends(ev, AllianceEnd::kAttackedByRuler), 1);
  EXPECT_EQ(p.state.players[1].ruler, kNoPlayer);
  EXPECT_EQ(events_of(ev, EventKind::kBattleStarted)[0].other_player, 1);
  EXPECT_EQ(p.u(his).place, UnitPlace::kReserve);
}

TEST(Subjugation, R15_65_Note_TheAllianceMovementServesAgainstOneHexOnly) {
  Position p = alliance();
  p.unit(1, U::kInfantry, p.at("E5"));
  p.unit(1, U::kInfantry, p.at("F5"));
  const int first = p.unit(0, U::kInfantry, p.at("E4"));
  p.town(0, p.at("B3"));
  const int second = p.unit(0, U::kInfantry, p.at("F4"));
  p.start_turn(0, Phase::kMovement);
  p.apply_ok(act::move(0, first, p.at("D4")));
  const auto stop = p.apply_ok(act::move(0, first, p.at("E5")));  // its last MP: it stops
  EXPECT_EQ(alliance_ends(stop, AllianceEnd::kAttackedByRuler), 1);
  // The former Vassal's other pieces are an enemy's now: entering them stops the unit.
  p.apply_ok(act::move(0, second, p.at("F5")));
  EXPECT_TRUE(p.u(second).move_done);
  EXPECT_EQ(pending_battles(p.state), (std::vector<int>{p.at("E5"), p.at("F5")}));
}

TEST(Subjugation, R15_64_AllianceTownsAndUnitsHelpAcrossSlowTerrainAndByRoad) {
  // The example of [15.64]: a Vassal's Cavalry goes by road from his City to his Ruler's City
  // three hexes away, on into an adjacent Mountain hex holding an Alliance unit, and from
  // there into an enemy City.
  Position p = realm();
  p.terrain(p.at("E2"), Terrain::kGrassland).city(1, p.at("E2"));
  p.city(0, p.at("E5"));
  p.terrain(p.at("E6"), Terrain::kMountain);
  p.unit(0, U::kInfantry, p.at("E6"));
  p.city(2, p.at("E7"));
  const int cav = p.unit(1, U::kCavalry, p.at("E2"));
  Position free_player = p;
  p.state.players[1].ruler = 0;
  p.start_turn(1, Phase::kMovement);
  p.apply_ok(act::move(1, cav, p.at("E5")));  // a road move: 1 MP
  EXPECT_EQ(p.u(cav).moves_left, 2);
  p.apply_ok(act::move(1, cav, p.at("E6")));  // slow terrain, but an Alliance unit began there
  EXPECT_FALSE(p.u(cav).move_done);
  p.apply_ok(act::move(1, cav, p.at("E7")));  // into the enemy City: a Battle
  EXPECT_EQ(pending_battles(p.state), std::vector<int>{p.at("E7")});
  // Without the Alliance there is no road into another player's City.
  free_player.start_turn(1, Phase::kMovement);
  EXPECT_EQ(free_player.apply_error(act::move(1, cav, free_player.at("E5"))), "not_adjacent");
}

TEST(Subjugation, R15_64_AllianceUnitsDoNotStopReservePlacement) {
  Position p = alliance();
  p.unit(0, U::kInfantry, p.at("E6"));  // next to player 1's City E7
  Position free_player = p;
  free_player.state.players[1].ruler = kNoPlayer;
  for (Position* q : {&p, &free_player}) {
    q->start_turn(1, Phase::kMovement);
    q->apply_ok(act::end_phase(1));
  }
  p.apply_ok(act::place_reserve(1, U::kInfantry, p.at("E7")));  // [15.64, not 13.2]
  EXPECT_EQ(free_player.apply_error(act::place_reserve(1, U::kInfantry, free_player.at("E7"))),
            "enemy_adjacent");
}

TEST(Subjugation, R15_64_AllianceFrigatesAllRoundTheCapitalTheNearestWaterInstead) {
  Position p(3, 4, subjugation());
  p.fill(Terrain::kPlains);
  for (const char* l : {"D3", "G6", "E2"}) p.terrain(p.at(l), Terrain::kForest);
  p.capital(0, p.at("D3"), true).city(0, p.at("E2")).capital(1, p.at("G6"), true);
  p.capital(2, p.at("B5"));
  p.unit(0, U::kFrigate, p.at("G7"));
  p.unit(0, U::kFrigate, p.at("H6"));
  p.state.players[1].ruler = 0;
  p.start_turn(1, Phase::kMovement);
  p.apply_ok(act::end_phase(1));
  ASSERT_EQ(p.state.phase, Phase::kReserve);
  EXPECT_EQ(p.apply_error(act::place_reserve(1, U::kFrigate, p.at("G7"))), "alliance_frigate");
  // G6's water is all taken by Alliance Frigates: the nearest free water, F8, I4 or I5.
  std::vector<int> spots;
  for (const Action& a : legal_of_kind(p, 1, ActionKind::kPlaceReserve)) {
    if (a.unit_type == U::kFrigate) spots.push_back(a.hex);
  }
  std::sort(spots.begin(), spots.end());
  EXPECT_EQ(spots, (std::vector<int>{p.at("F8"), p.at("I4"), p.at("I5")}));
  p.apply_ok(act::place_reserve(1, U::kFrigate, p.at("I5")));
  EXPECT_CONSISTENT(p);
}

// --- 15.65 -----------------------------------------------------------------------------------

TEST(Subjugation, R15_65_1_BombardingHisVassalFreesHim) {
  Position p = alliance();
  p.terrain(p.at("C4"), Terrain::kMountain).city(0, p.at("C4"));
  p.unit(1, U::kInfantry, p.at("E5"));
  const int art = p.unit(0, U::kArtillery, p.at("E4"));
  p.start_turn(0, Phase::kMovement);
  p.dice({6});
  const auto ev = p.apply_ok(act::bombard(0, art, p.at("E5")));
  EXPECT_EQ(alliance_ends(ev, AllianceEnd::kAttackedByRuler), 1);
  EXPECT_EQ(p.state.players[1].ruler, kNoPlayer);
}

TEST(Subjugation, R15_65_2_ARulerWhoLosesHisCapitalFreesHisVassals) {
  Position p = alliance();
  const int inf = p.unit(2, U::kInfantry, p.at("D4"));
  p.start_turn(2, Phase::kMovement);
  p.apply_ok(act::move(2, inf, p.at("D3")));
  p.dice({6});
  const auto ev = p.apply_ok(act::start_battle(2, p.at("D3")));
  EXPECT_EQ(alliance_ends(ev, AllianceEnd::kRulerLostCapital), 1);
  EXPECT_EQ(p.state.players[1].ruler, kNoPlayer);
  EXPECT_EQ(p.state.players[0].ruler, 2);  // the former Ruler is now a Vassal himself
  EXPECT_CONSISTENT(p);
}

TEST(Subjugation, R15_65_3_AVassalWhoTakesACapitalGoesFreeAndRules) {
  Position p = alliance();
  const int inf = p.unit(1, U::kInfantry, p.at("B4"));
  p.start_turn(1, Phase::kMovement);
  p.apply_ok(act::move(1, inf, p.at("B5")));
  p.dice({6});
  const auto ev = p.apply_ok(act::start_battle(1, p.at("B5")));
  EXPECT_EQ(alliance_ends(ev, AllianceEnd::kTookCapital), 1);
  EXPECT_EQ(p.state.players[1].ruler, kNoPlayer);
  EXPECT_EQ(p.state.players[2].ruler, 1);
}

TEST(Subjugation, R15_6_AConcedingRulerFreesHisVassals) {
  Position p = alliance();
  p.start_turn(2, Phase::kMovement);
  const auto ev = p.apply_ok(act::concede(0));
  EXPECT_EQ(alliance_ends(ev, AllianceEnd::kRulerLeft), 1);
  EXPECT_EQ(p.state.players[1].ruler, kNoPlayer);
  EXPECT_NE(p.state.phase, Phase::kGameOver);
}

// --- 15.66 -----------------------------------------------------------------------------------

TEST(Subjugation, R15_66_AllOthersVassalsIsAnAllianceVictory) {
  Position p = realm();
  p.state.players[2].ruler = 0;
  const int inf = p.unit(0, U::kInfantry, p.at("F6"));
  const auto ev = conquer(p, inf);
  EXPECT_EQ(p.state.phase, Phase::kGameOver);
  EXPECT_EQ(p.state.ended_by, VictoryCondition::kSubjugation);
  EXPECT_EQ(p.state.winners, std::vector<int>{0});
  EXPECT_EQ(count_of(ev, EventKind::kGameOver), 1);
}

TEST(Subjugation, R15_66_R5_2_TwoPlayersTheFirstCapitalTakenWins) {
  Options o;
  o.victory = VictoryCondition::kSubjugation;  // implies the rules [5.2]
  Position p(2, 4, o);
  p.fill(Terrain::kPlains);
  p.capital(0, p.at("D3")).capital(1, p.at("G6"));
  const int inf = p.unit(0, U::kInfantry, p.at("F6"));
  conquer(p, inf);
  EXPECT_EQ(p.state.ended_by, VictoryCondition::kSubjugation);
  EXPECT_EQ(p.state.winners, std::vector<int>{0});
  EXPECT_FALSE(p.state.players[1].eliminated);  // "to avoid player elimination"
}

TEST(Subjugation, R15_6_WithoutTheRuleTheCapitalChangesHands) {
  Position p = realm(Options{});
  const int inf = p.unit(0, U::kInfantry, p.at("F6"));
  const auto ev = conquer(p, inf);
  EXPECT_EQ(count_of(ev, EventKind::kTownCaptured), 1);
  EXPECT_EQ(p.state.hexes[p.at("G6")].town_owner, 0);
  EXPECT_EQ(p.state.players[1].ruler, kNoPlayer);
}

}  // namespace
}  // namespace viktory
