// Concessions at every kind of decision point [5.1]: random legal games (2-6 players, with and
// without the optional rules [15.1-15.6]) are stopped after every action; on a copy of the
// state the players concede one by one, those who are not deciding first (out of turn), and
// after each concession:
//  - with one player left the game is over at once, whatever was pending (a Battle, casualty
//    or retreat choices, owed eliminations [10.2], a Bombard, a Vassal's reinforcement...);
//  - with several left it goes on with a decider who is still in the game and has something
//    to do besides conceding, and the invariants hold.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "game.h"
#include "random_play.h"

namespace {

using viktory::Action;
using viktory::ActionKind;
using viktory::GameState;
using viktory::Options;
using viktory::Phase;
using viktory::VictoryCondition;
using viktory::testing::Chooser;

// The kinds of decision a concession can interrupt, to show the random games reached them.
enum class Pending {
  kTurn,
  kElimination,
  kBattle,
  kBombard,
  kBalance,
  kCapitalReturn,
  kRelocation
};
constexpr int kPendingKinds = static_cast<int>(Pending::kRelocation) + 1;
constexpr std::array<const char*, kPendingKinds> kPendingNames{
    "turn", "elimination", "battle", "bombard", "balance", "capital_return", "relocation"};

Pending pending_of(const GameState& s) {
  if (s.elimination) return Pending::kElimination;
  if (s.bombard) return Pending::kBombard;
  if (s.battle) return Pending::kBattle;
  if (s.balance) return Pending::kBalance;
  if (s.capital_return) return Pending::kCapitalReturn;
  if (s.relocation) return Pending::kRelocation;
  return Pending::kTurn;
}

int players_left(const GameState& s) {
  return static_cast<int>(std::count_if(s.players.begin(), s.players.end(),
                                        [](const viktory::PlayerState& p) { return p.in_game(); }));
}

struct Counts {
  std::array<long, kPendingKinds> one_left{};   // concessions that left one player
  std::array<long, kPendingKinds> many_left{};  // concessions that left several
  long out_of_turn = 0;                         // by a player who was not deciding
  std::string summary() const {
    std::ostringstream out;
    for (int k = 0; k < kPendingKinds; ++k) {
      out << " " << kPendingNames[k] << "=" << one_left[k] << "/" << many_left[k];
    }
    out << " out_of_turn=" << out_of_turn;
    return out.str();
  }
};

// Concedes everybody but one in `s` (a copy), in an order drawn by `chooser` among those not
// deciding first; returns a description of the first broken expectation.
std::optional<std::string> concede_down_to_one(GameState s, Chooser& chooser, Counts& counts) {
  while (s.phase != Phase::kGameOver) {
    const int decider = viktory::decider(s);
    std::vector<int> others;
    for (int p = 0; p < static_cast<int>(s.players.size()); ++p) {
      if (s.players[p].in_game() && p != decider) others.push_back(p);
    }
    // Mostly out of turn; now and then the decider himself.
    const bool by_decider = others.empty() || chooser.below(3) == 0;
    const int who = by_decider ? decider : others[chooser.below(others.size())];
    const Pending pending = pending_of(s);
    std::ostringstream where;
    where << "player " << who << " conceding (decider " << decider << ", pending "
          << kPendingNames[static_cast<int>(pending)] << ", phase " << viktory::to_string(s.phase)
          << ", action " << s.action_count << ")";
    if (auto error = viktory::apply_in_place(s, viktory::act::concede(who))) {
      return where.str() + ": refused: " + error->message;
    }
    if (who != decider) ++counts.out_of_turn;
    const int left = players_left(s);
    if (left <= 1) {
      ++counts.one_left[static_cast<int>(pending)];
      if (s.phase != Phase::kGameOver) {
        return where.str() + ": one player left but the game goes on, player " +
               std::to_string(viktory::decider(s)) + " to decide [5.1]";
      }
      if (s.winners.size() != static_cast<std::size_t>(left)) {
        return where.str() + ": the last player left is not the winner";
      }
      // The finished game keeps the invariants too, also when the winner still owed units for
      // a Town or City he lost [10.2] (the scenario fuzzer found this one).
      if (auto broken = viktory::check_invariants(s)) return where.str() + ": " + *broken;
      return std::nullopt;
    }
    ++counts.many_left[static_cast<int>(pending)];
    if (auto broken = viktory::check_invariants(s)) return where.str() + ": " + *broken;
    if (s.phase == Phase::kGameOver) return std::nullopt;  // another condition ended it [5.2-5.5]
    const int next = viktory::decider(s);
    if (next < 0 || !s.players[next].in_game()) {
      return where.str() + ": the next decider " + std::to_string(next) + " is not in the game";
    }
    const auto legal = viktory::legal_actions(s, next);
    const bool can_act = std::any_of(
        legal.begin(), legal.end(), [](const Action& a) { return a.kind != ActionKind::kConcede; });
    if (!can_act) {
      return where.str() + ": the next decider " + std::to_string(next) + " can only concede";
    }
  }
  return std::nullopt;
}

// Plays `games` random games of `players` players and tries the concessions after every
// action of each (before the first action too), or with `only_pending` only where a decision
// other than the turn's own is pending; stops at the first broken game.
Counts run(int players, bool optional_rules, std::uint64_t first_seed, int games, int max_actions,
           bool only_pending = false) {
  Counts counts;
  for (int g = 0; g < games; ++g) {
    Options o;
    o.players = players;
    const std::uint64_t seed = first_seed + static_cast<std::uint64_t>(g);
    Chooser chooser(seed * 17 + 3);
    if (optional_rules) {
      o.terrain_leveling = chooser.below(2) == 0;
      o.no_exploration = chooser.below(2) == 0;
      o.exploration_balancing = chooser.below(2) == 0;
      o.luck_averaging = chooser.below(2) == 0;
      o.town_relocation = chooser.below(2) == 0;
      o.subjugation = chooser.below(4) != 0 || only_pending;
    }
    GameState s = viktory::new_game(o, seed);
    for (int i = 0; i <= max_actions && s.phase != Phase::kGameOver; ++i) {
      if (only_pending && pending_of(s) == Pending::kTurn) {
      } else if (auto broken = concede_down_to_one(s, chooser, counts)) {
        ADD_FAILURE() << players << " players, seed " << seed
                      << (optional_rules ? ", optional rules" : "") << ": " << *broken;
        return counts;
      }
      const Action a = viktory::testing::random_action(s, chooser);
      if (auto error = viktory::apply_in_place(s, a)) {
        ADD_FAILURE() << "seed " << seed << ": a listed action was refused: " << error->message;
        return counts;
      }
    }
  }
  return counts;
}

long total(const std::array<long, kPendingKinds>& a) {
  long n = 0;
  for (long x : a) n += x;
  return n;
}

constexpr int kElimination = static_cast<int>(Pending::kElimination);
constexpr int kBattle = static_cast<int>(Pending::kBattle);

// [5.1] Two players: whatever was pending, the other player's concession ends the game.
TEST(Concede, R5_1_TwoPlayerConcessionEndsTheGameAtEveryDecisionPoint) {
  Counts counts = run(2, false, 51'000, 30, 500);
  const Counts with_rules = run(2, true, 52'000, 30, 500);
  for (int k = 0; k < kPendingKinds; ++k) counts.one_left[k] += with_rules.one_left[k];
  counts.out_of_turn += with_rules.out_of_turn;
  std::cout << "[ counts   ]" << counts.summary() << "\n";
  EXPECT_GT(counts.out_of_turn, 0);
  // The random games must reach the decisions a concession can cut short.
  EXPECT_GT(counts.one_left[kBattle], 0);
  EXPECT_GT(counts.one_left[kElimination], 0);
  EXPECT_GT(counts.one_left[static_cast<int>(Pending::kBombard)], 0);
}

// [5.1] Three to six players conceding one by one: the game goes on with a legal decider
// while several are left and ends as soon as one is.
TEST(Concede, R5_1_ConcessionsDownToOnePlayerEndTheGameOnlyThen) {
  Counts counts;
  for (int players = 3; players <= 6; ++players) {
    for (bool rules : {false, true}) {
      const Counts c =
          run(players, rules,
              53'000 + 1000 * static_cast<std::uint64_t>(players) + (rules ? 500 : 0), 12, 600);
      for (int k = 0; k < kPendingKinds; ++k) {
        counts.one_left[k] += c.one_left[k];
        counts.many_left[k] += c.many_left[k];
      }
      counts.out_of_turn += c.out_of_turn;
    }
  }
  std::cout << "[ counts   ]" << counts.summary() << "\n";
  EXPECT_GT(total(counts.many_left), 0);
  EXPECT_GT(total(counts.one_left), 0);
  EXPECT_GT(counts.many_left[kBattle], 0);
}

// [5.1, 15.62] Long three-player games under Subjugation, where Capitals fall: concessions
// while a Capital is being returned to its new Vassal, and the other pending decisions.
TEST(Concede, R5_1_ConcessionsWhileACapitalIsReturnedToItsVassal) {
  const Counts counts = run(3, true, 60'000, 8, 20000, /*only_pending=*/true);
  std::cout << "[ counts   ]" << counts.summary() << "\n";
  EXPECT_GT(counts.one_left[static_cast<int>(Pending::kCapitalReturn)] +
                counts.many_left[static_cast<int>(Pending::kCapitalReturn)],
            0);
}

// Logs stored before the fix go on after such a concession: the last player chose the units he
// still owed [10.2] (older versions ended the game only then), or conceded too. Those actions
// still apply, as no-ops on the finished game, so that the old games load; anything else after
// the end is refused (docs/rules-notes.md).
TEST(Concede, R5_1_OldLogsThatGoOnAfterTheConcessionStillReplay) {
  int checked = 0;
  for (std::uint64_t seed = 51'000; seed < 51'030 && checked < 5; ++seed) {
    Options o;
    o.players = 2;
    GameState s = viktory::new_game(o, seed);
    Chooser chooser(seed * 17 + 3);
    for (int i = 0; i < 2000 && s.phase != Phase::kGameOver; ++i) {
      if (!s.elimination) {
        ASSERT_FALSE(viktory::apply_in_place(s, viktory::testing::random_action(s, chooser)));
        continue;
      }
      const int owing = s.elimination->player;
      const std::vector<Action> owed = viktory::legal_actions(s, owing);
      GameState over = s;
      std::vector<viktory::Event> events;
      ASSERT_FALSE(viktory::apply_in_place(over, viktory::act::concede(1 - owing), &events));
      ASSERT_EQ(over.phase, Phase::kGameOver) << "seed " << seed;
      EXPECT_EQ(over.winners, std::vector<int>{owing});
      EXPECT_EQ(over.ended_by, VictoryCondition::kStandard);
      EXPECT_EQ(viktory::decider(over), viktory::kNoPlayer);
      EXPECT_TRUE(viktory::legal_actions(over, owing).empty());
      // What an old log holds next: the owed eliminations, then possibly his concession.
      for (const Action& a : owed) {
        GameState replayed = over;
        std::vector<viktory::Event> more;
        EXPECT_FALSE(viktory::apply_in_place(replayed, a, &more)) << viktory::to_string(a.kind);
        EXPECT_TRUE(more.empty());
        EXPECT_EQ(replayed.action_count, over.action_count + 1);
        replayed.action_count = over.action_count;
        EXPECT_TRUE(replayed == over) << "an old log's action changed the finished game";
      }
      GameState replayed = over;
      EXPECT_FALSE(viktory::apply_in_place(replayed, viktory::act::concede(owing)));
      EXPECT_EQ(replayed.winners, std::vector<int>{owing});
      // Nothing else: not the conceded player, not another kind of action.
      for (const Action& a : {viktory::act::concede(1 - owing), viktory::act::end_phase(owing),
                              viktory::act::eliminate_unit(1 - owing, 0)}) {
        GameState refused = over;
        const auto error = viktory::apply_in_place(refused, a);
        ASSERT_TRUE(error.has_value()) << viktory::to_string(a.kind);
        EXPECT_TRUE(refused == over);
      }
      ++checked;
      break;
    }
  }
  EXPECT_GE(checked, 3) << "the random games reached too few owed eliminations";
}

}  // namespace
