// The kinds of decision (engine/decisions.h) over random games of 2-6 players with every
// optional rule [15.1-15.6] in the mixes of tests/protocol/option_mix.h, after every action:
//
//  - every position whose decider is not the current player is of a kind the engine names as
//    one that may fall out of turn (and standing orders cover): the target's casualties and
//    the firer's picks for '1's [10.1], the units returned to stock [10.2], Luck Averaging
//    [15.4], a Vassal's reinforcement and Frigate battles [15.62, 13.5], ...;
//  - the kind agrees with the decider's legal actions (a kind for casualties offers only
//    casualties, of his own units or of the enemy's as the kind says, and so on);
//  - the kind computed from any seat's view, or the spectator's, is the kind of the state.
//
// The tally of kinds met out of turn must reach each kind random play can reach, so that the
// test cannot pass by never getting there.
#include "decisions.h"

#include <gtest/gtest.h>

#include <array>
#include <iostream>
#include <set>
#include <sstream>

#include "../protocol/option_mix.h"
#include "game.h"
#include "random_play.h"
#include "view.h"

namespace viktory {
namespace {

using testing::Chooser;

// The action kinds a decider may be offered for each kind of decision (concede aside).
std::set<ActionKind> offered_for(DecisionKind kind) {
  using K = ActionKind;
  switch (kind) {
    case DecisionKind::kNone:
      return {};
    case DecisionKind::kPlaceCapital:
      return {K::kPlaceCapital};
    case DecisionKind::kPlayTurn:
      return {K::kBuildTown, K::kUpgradeCity, K::kEndPhase,    K::kMove,         K::kEmbark,
              K::kDisembark, K::kBombard,     K::kStartBattle, K::kPlaceReserve, K::kRemoveTown};
    case DecisionKind::kOwnCasualties:
    case DecisionKind::kEnemyCasualties:
      return {K::kChooseCasualty};
    case DecisionKind::kRetreatOption:
      return {K::kContinueBattle, K::kRetreat};
    case DecisionKind::kRetreatMoves:
      return {K::kRetreat};
    case DecisionKind::kLuckAveraging:
      return {K::kAverageDice};
    case DecisionKind::kReturnToStock:
      return {K::kEliminateUnit};
    case DecisionKind::kExplorationBalancing:
      return {K::kReplaceWater, K::kKeepWater};
    case DecisionKind::kRebuildTown:
      return {K::kRebuildTown};
    case DecisionKind::kWithdrawFromCapital:
      return {K::kWithdraw};
    case DecisionKind::kVassalReinforcement:
      return {K::kPlaceReserve, K::kEndPhase};
  }
  return {};
}

struct Tally {
  std::array<long, kDecisionKinds> out_of_turn{};
  std::array<long, kDecisionKinds> any{};
  long positions = 0;
  std::string summary() const {
    std::ostringstream out;
    out << "positions=" << positions;
    for (int k = 0; k < kDecisionKinds; ++k) {
      out << " " << to_string(static_cast<DecisionKind>(k)) << "=" << any[k] << "/"
          << out_of_turn[k];
    }
    return out.str();
  }
};

// Returns a description of the first thing wrong with this position, or "".
std::string check_position(const GameState& s, Tally& tally) {
  const DecisionKind kind = decision_kind(s);
  const int who = decider(s);
  ++tally.positions;
  ++tally.any[static_cast<int>(kind)];
  if ((kind == DecisionKind::kNone) != (who == kNoPlayer)) return "kNone iff nobody decides";
  if (out_of_turn(s)) {
    ++tally.out_of_turn[static_cast<int>(kind)];
    if (!may_be_out_of_turn(kind)) {
      return "player " + std::to_string(who) + " decides out of turn (current " +
             std::to_string(s.current) +
             "): a kind not named as such: " + std::string(to_string(kind));
    }
  }
  // Fog of war hides a Battle or Bombardment from those who neither see it nor take part
  // (docs/rules-notes.md, "Fog of war"): their views cannot tell its kind, the decider's can.
  auto fog_hides_it = [&](const GameView& v) {
    return v.battle.has_value() != s.battle.has_value() ||
           v.bombard.has_value() != s.bombard.has_value();
  };
  const GameView spectator = view_for(s, kSpectator);
  if (!fog_hides_it(spectator) && decision_kind(spectator) != kind) {
    return "the spectator's view disagrees";
  }
  if (who != kNoPlayer && fog_hides_it(view_for(s, who))) return "the decider's view hides it";
  for (int p = 0; p < static_cast<int>(s.players.size()); ++p) {
    const GameView v = view_for(s, p);
    if (fog_hides_it(v) && s.options.fog_of_war) continue;
    if (decision_kind(v) != kind) {
      return "the view of seat " + std::to_string(p) + " disagrees";
    }
  }
  if (who == kNoPlayer) return "";
  const std::set<ActionKind> offered = offered_for(kind);
  for (const Action& a : legal_actions(s, who)) {
    if (a.kind == ActionKind::kConcede) continue;
    if (!offered.count(a.kind)) {
      return std::string(to_string(kind)) + " offers " + std::string(to_string(a.kind));
    }
    if (a.kind == ActionKind::kChooseCasualty) {
      const bool own = s.units[static_cast<std::size_t>(a.unit)].owner == who;
      if (own != (kind == DecisionKind::kOwnCasualties)) {
        return std::string(to_string(kind)) + " offers a casualty of the other side";
      }
    }
  }
  return "";
}

Tally play(int games, int max_actions, const std::vector<int>& players, std::uint64_t seed0) {
  Tally tally;
  int broken = 0;
  for (int n = 0; n < games && broken < 3; ++n) {
    const int count = players[static_cast<std::size_t>(n) % players.size()];
    Options options = testing::option_mix(count, n);
    const std::uint64_t seed = seed0 + static_cast<std::uint64_t>(n);
    GameState s = new_game(options, seed);
    Chooser chooser(seed * 17 + 3);
    std::string problem = check_position(s, tally);
    testing::play_random_game(
        s, chooser, max_actions,
        [&](const GameState& after, const Action&, const std::vector<Event>&) {
          if (problem.empty()) problem = check_position(after, tally);
        });
    if (!problem.empty()) {
      ADD_FAILURE() << "game " << n << " (" << count << " players, seed " << seed
                    << "): " << problem;
      ++broken;
    }
  }
  return tally;
}

TEST(DecisionKinds, EveryOutOfTurnDecisionOfRandomGamesIsANamedKind_10_1_10_2_15_4_15_62) {
  const Tally tally = play(240, 400, {2, 3, 4, 5, 6}, 70'000);
  std::cout << "[ tally    ] " << tally.summary() << "\n";
  auto met = [&](DecisionKind k) { return tally.out_of_turn[static_cast<int>(k)]; };
  EXPECT_GT(met(DecisionKind::kOwnCasualties), 0);    // [10.1] a target's 2s and 3s
  EXPECT_GT(met(DecisionKind::kEnemyCasualties), 0);  // [10.1] the defender's 1s
  EXPECT_GT(met(DecisionKind::kReturnToStock), 0);    // [10.2]
  EXPECT_GT(met(DecisionKind::kLuckAveraging), 0);    // [15.4] the defender's Fire Round
}

// Whole two- and three-player games under Subjugation, where Capitals fall and Vassals
// reinforce them out of turn [15.62].
TEST(DecisionKinds, VassalsDecideOutOfTurnInWholeSubjugationGames_15_62) {
  Tally tally;
  int vassal_games = 0;
  for (int n = 0;
       n < 40 && tally.out_of_turn[static_cast<int>(DecisionKind::kVassalReinforcement)] == 0;
       ++n) {
    Options o;
    o.players = 2 + n % 2;
    o.subjugation = true;
    o.luck_averaging = n % 3 == 0;
    o.victory = VictoryCondition::kSubjugation;
    o = normalized(o);
    GameState s = new_game(o, 90'000 + static_cast<std::uint64_t>(n));
    Chooser chooser(static_cast<std::uint64_t>(n) * 5 + 1);
    std::string problem;
    testing::play_random_game(
        s, chooser, 20'000, [&](const GameState& after, const Action&, const std::vector<Event>&) {
          if (problem.empty()) problem = check_position(after, tally);
        });
    ASSERT_TRUE(problem.empty()) << "game " << n << ": " << problem;
    ++vassal_games;
  }
  std::cout << "[ tally    ] " << vassal_games << " games " << tally.summary() << "\n";
  EXPECT_GT(tally.out_of_turn[static_cast<int>(DecisionKind::kVassalReinforcement)], 0);
}

TEST(DecisionKinds, NamesGoBothWays) {
  for (int k = 0; k < kDecisionKinds; ++k) {
    const auto kind = static_cast<DecisionKind>(k);
    EXPECT_EQ(decision_kind_from_string(to_string(kind)), kind);
  }
  EXPECT_FALSE(decision_kind_from_string("casualties"));
}

}  // namespace
}  // namespace viktory
