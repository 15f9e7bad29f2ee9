// Standing orders (engine/ai/standing_orders.h): per kind of decision and per choice, the
// action a player's orders take for him in hand-made positions (tests/engine/fixture.h), and
// over random games that whatever they return is one of his legal actions and that every
// decision he may face out of turn is covered.
#include "standing_orders.h"

#include <gtest/gtest.h>

#include <set>

#include "../protocol/option_mix.h"
#include "decisions.h"
#include "fixture.h"
#include "game.h"
#include "random_play.h"
#include "view.h"

namespace viktory {
namespace {

using ai::StandingOrders;
using testing::Position;
using U = UnitType;

// Plains; the Battle hex is E5 (neighbours E4, D4, D5, F4, F5, E6). Player 0 (attacker):
// Capital B5 and Cities B3, D2, D7; player 1 (defender): Capital H2 and Cities F2, H4, G6.
// The Cities' terrain decides the units they bring [8.2]: by default player 0 has 4 Infantry,
// 2 Cavalry and 1 Artillery, player 1 4 Infantry, 2 Artillery and 1 Cavalry.
struct Field {
  Position p;
  int hex = -1;
  explicit Field(Options options = {}, Terrain battle = Terrain::kPlains,
                 Terrain g6 = Terrain::kGrassland, Terrain h4 = Terrain::kMountain)
      : p(2, 0, options) {
    p.fill(Terrain::kPlains);
    hex = p.at("E5");
    p.terrain(hex, battle);
    p.capital(0, p.at("B5")).capital(1, p.at("H2"));
    p.terrain(p.at("B3"), Terrain::kGrassland).city(0, p.at("B3"));
    p.terrain(p.at("D2"), Terrain::kGrassland).city(0, p.at("D2"));
    p.terrain(p.at("D7"), Terrain::kMountain).city(0, p.at("D7"));
    p.terrain(p.at("F2"), Terrain::kMountain).city(1, p.at("F2"));
    p.terrain(p.at("H4"), h4).city(1, p.at("H4"));
    p.terrain(p.at("G6"), g6).city(1, p.at("G6"));
  }
  int attacker(U t, const char* from) { return p.unit(0, t, p.at(from)); }
  int defender(U t) { return p.unit(1, t, hex); }
  void advance(const std::vector<int>& units) {
    p.start_turn(0, Phase::kMovement);
    for (int u : units) p.apply_ok(act::move(0, u, hex));
  }
  // What `seat`'s standing orders do now: the policy on his view and legal actions only.
  std::optional<Action> order(int seat, const StandingOrders& orders) const {
    return ai::standing_order_action(view_for(p.state, seat), legal_actions(p.state, seat), orders);
  }
  Action must(int seat, const StandingOrders& orders) const {
    const std::optional<Action> a = order(seat, orders);
    if (!a) throw std::logic_error("no standing order action");
    const auto legal = legal_actions(p.state, seat);
    if (std::find(legal.begin(), legal.end(), *a) == legal.end()) {
      throw std::logic_error("an illegal standing order action");
    }
    return *a;
  }
};

StandingOrders with(const char* field, const char* choice) {
  StandingOrders o;
  if (!ai::set_order(o, field, choice)) throw std::logic_error("no such order");
  return o;
}

// The defender's own losses for the attacker's '2's and '3's [10.1], out of turn.
struct OwnLosses : Field {
  int art1 = -1, art2 = -1, cav = -1, inf = -1;
  explicit OwnLosses(bool two_artillery = true) {
    art1 = defender(U::kArtillery);
    art2 = two_artillery ? defender(U::kArtillery) : -1;
    cav = defender(U::kCavalry);
    inf = defender(U::kInfantry);
    const int a = attacker(U::kInfantry, "E4");
    advance({a});
    p.dice({2});  // the attacker's one die: a hit of the defender's choice
    p.apply_ok(act::start_battle(0, hex));
    if (decider(p.state) != 1 || decision_kind(p.state) != DecisionKind::kOwnCasualties) {
      throw std::logic_error("the defender does not choose his loss");
    }
  }
};

TEST(StandingOrders, R10_1_CheapestLosesOneOfSeveralBeforeTheLastOfAType) {
  OwnLosses f;
  ASSERT_TRUE(out_of_turn(f.p.state));
  // Two Artillery: losing one keeps the Artillery die [12.3 step 2].
  EXPECT_EQ(f.must(1, with("casualties", "cheapest")), act::choose_casualty(1, f.art1));
  EXPECT_EQ(f.must(1, with("casualties", "keep_cavalry")), act::choose_casualty(1, f.art1));
  // Artillery kept: of the last of their types, the Infantry goes first.
  EXPECT_EQ(f.must(1, with("casualties", "keep_artillery")), act::choose_casualty(1, f.inf));
}

TEST(StandingOrders, R10_1_CheapestByValueAndKeepingATypeForLast) {
  OwnLosses f(/*two_artillery=*/false);
  EXPECT_EQ(f.must(1, with("casualties", "cheapest")), act::choose_casualty(1, f.inf));
  EXPECT_EQ(f.must(1, with("casualties", "keep_artillery")), act::choose_casualty(1, f.inf));
  EXPECT_EQ(f.must(1, with("casualties", "keep_cavalry")), act::choose_casualty(1, f.inf));
}

TEST(StandingOrders, R10_1_KeepCavalryLosesAnythingElseFirst) {
  Field f({}, Terrain::kPlains, Terrain::kGrassland, Terrain::kGrassland);  // two Cavalry
  const int cav = f.defender(U::kCavalry);
  f.defender(U::kCavalry);
  const int inf = f.defender(U::kInfantry);
  const int a = f.attacker(U::kInfantry, "E4");
  f.advance({a});
  f.p.dice({3});
  f.p.apply_ok(act::start_battle(0, f.hex));
  ASSERT_EQ(decision_kind(f.p.state), DecisionKind::kOwnCasualties);
  EXPECT_EQ(f.must(1, with("casualties", "cheapest")), act::choose_casualty(1, cav));
  EXPECT_EQ(f.must(1, with("casualties", "keep_artillery")), act::choose_casualty(1, cav));
  EXPECT_EQ(f.must(1, with("casualties", "keep_cavalry")), act::choose_casualty(1, inf));
}

// The defender's '1's [10.1]: he picks the attacker's losses, out of turn.
struct EnemyLosses : Field {
  std::vector<int> inf, cav;
  int art = -1;
  explicit EnemyLosses(int cavalry) {
    defender(U::kInfantry);
    inf = {attacker(U::kInfantry, "E4"), attacker(U::kInfantry, "D4")};
    for (int i = 0; i < cavalry; ++i) cav.push_back(attacker(U::kCavalry, i == 0 ? "D5" : "F4"));
    art = attacker(U::kArtillery, "F5");
    std::vector<int> all = inf;
    all.insert(all.end(), cav.begin(), cav.end());
    all.push_back(art);
    advance(all);
    // Pre-Battle Fire (one Artillery), the attacker's Fire Round (Infantry 1, Cavalry 2,
    // Artillery 1), then the defender's one die: a '1'.
    p.dice({6, 6, 6, 6, 6, 1});
    p.apply_ok(act::start_battle(0, hex));
    if (decider(p.state) != 1 || decision_kind(p.state) != DecisionKind::kEnemyCasualties) {
      throw std::logic_error("the defender does not pick the attacker's loss");
    }
  }
};

TEST(StandingOrders, R10_1_TheDefendersOnesTakeTheCostliestLossOrTheTypeHeNames) {
  EnemyLosses one(1);  // the last Cavalry is two of the attacker's dice [12.3 step 1]
  ASSERT_TRUE(out_of_turn(one.p.state));
  EXPECT_EQ(one.must(1, with("enemy_casualties", "costliest")),
            act::choose_casualty(1, one.cav[0]));
  EXPECT_EQ(one.must(1, with("enemy_casualties", "artillery_first")),
            act::choose_casualty(1, one.art));
  EXPECT_EQ(one.must(1, with("enemy_casualties", "cavalry_first")),
            act::choose_casualty(1, one.cav[0]));
  EnemyLosses two(2);  // one of two Cavalry costs no die: the last Artillery does
  EXPECT_EQ(two.must(1, with("enemy_casualties", "costliest")), act::choose_casualty(1, two.art));
  EXPECT_EQ(two.must(1, with("enemy_casualties", "cavalry_first")),
            act::choose_casualty(1, two.cav[0]));
}

// [12.3 step 3] The attacker's retreat option.
TEST(StandingOrders, R12_3_RetreatWhenOutnumberedOrNever) {
  Field f;
  f.defender(U::kInfantry);
  f.defender(U::kCavalry);
  const int a = f.attacker(U::kInfantry, "E4");
  f.advance({a});
  f.p.dice({6, 6, 6});  // everybody misses
  f.p.apply_ok(act::start_battle(0, f.hex));
  ASSERT_EQ(decision_kind(f.p.state), DecisionKind::kRetreatOption);
  EXPECT_EQ(f.must(0, with("retreat", "when_outnumbered")), act::retreat(0, a, f.p.at("E4")));
  EXPECT_EQ(f.must(0, with("retreat", "never")), act::continue_battle(0));
}

TEST(StandingOrders, R12_3_NotOutnumberedFightsOnAndARetreatUnderWayGoesOn) {
  Field f;
  f.defender(U::kInfantry);
  const int a = f.attacker(U::kInfantry, "E4");
  const int b = f.attacker(U::kInfantry, "D4");
  f.advance({a, b});
  f.p.dice({6, 6});
  f.p.apply_ok(act::start_battle(0, f.hex));
  ASSERT_EQ(decision_kind(f.p.state), DecisionKind::kRetreatOption);
  EXPECT_EQ(f.must(0, with("retreat", "when_outnumbered")), act::continue_battle(0));
  f.p.apply_ok(act::retreat(0, a, f.p.at("E4")));
  ASSERT_EQ(decision_kind(f.p.state), DecisionKind::kRetreatMoves);
  // Once begun, every unit leaves [12.3 step 3]: whatever the order.
  EXPECT_EQ(f.must(0, with("retreat", "never")).kind, ActionKind::kRetreat);
  EXPECT_EQ(f.must(0, with("retreat", "never")).unit, b);
}

// [15.4] The defender decides on Luck Averaging before his Fire Round, out of turn.
TEST(StandingOrders, R15_4_AveragingAlwaysOrNever) {
  Options o;
  o.luck_averaging = true;
  Field f(o, Terrain::kMountain);
  f.defender(U::kInfantry);  // one die, and two for the Mountain
  const int a = f.attacker(U::kInfantry, "E4");
  const int b = f.attacker(U::kInfantry, "D4");
  f.advance({a, b});
  f.p.dice({6});
  f.p.apply_ok(act::start_battle(0, f.hex));
  ASSERT_EQ(decision_kind(f.p.state), DecisionKind::kLuckAveraging);
  ASSERT_EQ(decider(f.p.state), 1);
  EXPECT_EQ(f.must(1, with("averaging", "always")), act::average_dice(1, 1));
  EXPECT_EQ(f.must(1, with("averaging", "never")), act::average_dice(1, 0));
}

// [10.2] The loser of a Town returns the units it supported to stock: from his Reserve or
// from the map, where the unit farthest from the enemy goes first.
TEST(StandingOrders, R10_2_ReturnToStockFromTheReserveOrTheMap) {
  Field f;
  f.p.town(1, f.hex);  // an empty Town: it brings one more Infantry into his Reserve
  const int near = f.p.unit(1, U::kInfantry, f.p.at("F4"));
  const int far = f.p.unit(1, U::kInfantry, f.p.at("H3"));
  const int cav = f.attacker(U::kCavalry, "D4");
  f.advance({cav});
  f.p.dice({6, 6, 6});  // the Cavalry's two dice, the Town's one: the Cavalry survives
  f.p.apply_ok(act::start_battle(0, f.hex));
  ASSERT_EQ(decision_kind(f.p.state), DecisionKind::kReturnToStock);
  ASSERT_TRUE(out_of_turn(f.p.state));
  const Action reserve = f.must(1, with("return_to_stock", "reserve_first"));
  EXPECT_EQ(f.p.u(reserve.unit).place, UnitPlace::kReserve);
  EXPECT_EQ(f.must(1, with("return_to_stock", "map_first")), act::eliminate_unit(1, far));
  (void)near;
}

// [15.62] A new Vassal reinforces his Capital: every Reserve unit, or none.
TEST(StandingOrders, R15_62_AVassalReinforcesWithEverythingOrNothing) {
  Options o;
  o.subjugation = true;
  Field f(o, Terrain::kPlains, Terrain::kForest);  // G6: a Forest City brings a Frigate
  const int capital = f.p.at("H2");
  f.p.start_turn(0, Phase::kMovement);
  // The state right after player 0 took player 1's Capital and withdrew [15.61, 15.62].
  f.p.state.players[1].ruler = 0;
  f.p.state.capital_return = CapitalReturn{capital, 0, 1, ReturnStage::kReinforce, {}};
  ASSERT_EQ(decision_kind(f.p.state), DecisionKind::kVassalReinforcement);
  ASSERT_EQ(decider(f.p.state), 1);
  const Action first = f.must(1, with("reinforce", "all"));
  EXPECT_EQ(first.kind, ActionKind::kPlaceReserve);
  EXPECT_EQ(first.hex, capital);
  EXPECT_NE(first.unit_type, U::kFrigate);  // land units first, into the Capital
  EXPECT_EQ(f.must(1, with("reinforce", "none")), act::end_phase(1));
  // With only the Frigate left it goes next to the Capital, then he is done.
  for (Unit& u : f.p.state.units) {
    if (u.owner == 1 && u.place == UnitPlace::kReserve && u.type != U::kFrigate) {
      u.place = UnitPlace::kStock;
    }
  }
  const Action frigate = f.must(1, with("reinforce", "all"));
  EXPECT_EQ(frigate.kind, ActionKind::kPlaceReserve);
  EXPECT_EQ(frigate.unit_type, U::kFrigate);
  EXPECT_EQ(f.p.board().distance(frigate.hex, capital), 1);
}

// [15.3] Exploration Balancing: the land tile on the first water hex, or keep the water.
TEST(StandingOrders, R15_3_BalancingReplacesOrKeepsTheWater) {
  Options o;
  o.exploration_balancing = true;
  Field f(o);
  const int w1 = f.p.at("E3"), w2 = f.p.at("F3");
  f.p.terrain(w1, Terrain::kWater).terrain(w2, Terrain::kWater);
  f.p.start_turn(0, Phase::kMovement);
  f.p.state.balance = PendingBalance{0, {w1, w2}, Terrain::kForest};
  ASSERT_EQ(decision_kind(f.p.state), DecisionKind::kExplorationBalancing);
  EXPECT_EQ(f.must(0, with("balancing", "replace")), act::replace_water(0, w1));
  EXPECT_EQ(f.must(0, with("balancing", "keep_water")), act::keep_water(0));
}

TEST(StandingOrders, NothingForHisOwnPlayOtherSeatsOrSpectators) {
  Field f;
  f.p.start_turn(0, Phase::kBuild);
  EXPECT_EQ(decision_kind(f.p.state), DecisionKind::kPlayTurn);
  EXPECT_FALSE(f.order(0, StandingOrders{}));
  EXPECT_FALSE(f.order(1, StandingOrders{}));
  OwnLosses g;
  EXPECT_FALSE(g.order(0, StandingOrders{}));  // not the decider
  EXPECT_FALSE(ai::standing_order_action(view_for(g.p.state, kSpectator),
                                         legal_actions(g.p.state, 1), StandingOrders{}));
  EXPECT_TRUE(g.order(1, StandingOrders{}));
}

TEST(StandingOrders, FieldsAndChoicesByName) {
  StandingOrders o;
  EXPECT_EQ(ai::order_choice(o, "casualties"), "cheapest");
  EXPECT_EQ(ai::order_choice(o, "retreat"), "when_outnumbered");
  EXPECT_TRUE(ai::set_order(o, "averaging", "always"));
  EXPECT_EQ(o.averaging, ai::AveragingOrder::kAlways);
  EXPECT_FALSE(ai::set_order(o, "averaging", "sometimes"));
  EXPECT_FALSE(ai::set_order(o, "mood", "calm"));
  EXPECT_EQ(o.averaging, ai::AveragingOrder::kAlways);  // unchanged by the refusals
  EXPECT_FALSE(ai::order_choice(o, "mood"));
  for (const ai::OrderField& field : ai::order_fields()) {
    for (std::string_view choice : field.choices) {
      StandingOrders x;
      ASSERT_TRUE(ai::set_order(x, field.name, choice));
      EXPECT_EQ(ai::order_choice(x, field.name), choice);
    }
  }
  // Every kind the rules may ask out of turn is covered (decisions.h).
  for (int k = 0; k < kDecisionKinds; ++k) {
    const auto kind = static_cast<DecisionKind>(k);
    if (may_be_out_of_turn(kind)) {
      EXPECT_TRUE(ai::covered_by_standing_orders(kind)) << to_string(kind);
    }
  }
}

// Over random games of 2-6 players and every optional rule: wherever the orders cover the
// decision, each choice of each order gives one of the decider's legal actions (never a
// concession); out of turn they always give one.
TEST(StandingOrders, EveryChoiceGivesALegalActionInRandomGames) {
  std::set<DecisionKind> met;
  long answered = 0;
  for (int n = 0; n < 120; ++n) {
    const int players = 2 + n % 5;
    GameState s = new_game(testing::option_mix(players, n), 40'000 + static_cast<std::uint64_t>(n));
    testing::Chooser chooser(static_cast<std::uint64_t>(n) + 11);
    std::string problem;
    testing::play_random_game(
        s, chooser, 400, [&](const GameState& st, const Action&, const std::vector<Event>&) {
          const DecisionKind kind = decision_kind(st);
          if (!problem.empty() || !ai::covered_by_standing_orders(kind)) return;
          met.insert(kind);
          const int who = decider(st);
          const GameView view = view_for(st, who);
          const std::vector<Action> legal = legal_actions(st, who);
          for (const ai::OrderField& field : ai::order_fields()) {
            for (std::string_view choice : field.choices) {
              StandingOrders orders;
              ai::set_order(orders, field.name, choice);
              const std::optional<Action> a = ai::standing_order_action(view, legal, orders);
              if (!a) {
                problem = "no action for " + std::string(to_string(kind));
                return;
              }
              if (a->kind == ActionKind::kConcede ||
                  std::find(legal.begin(), legal.end(), *a) == legal.end()) {
                problem = "an illegal action for " + std::string(to_string(kind));
                return;
              }
              ++answered;
            }
          }
        });
    ASSERT_TRUE(problem.empty()) << "game " << n << ": " << problem;
  }
  EXPECT_GT(answered, 1000);
  for (DecisionKind k : {DecisionKind::kOwnCasualties, DecisionKind::kEnemyCasualties,
                         DecisionKind::kRetreatOption, DecisionKind::kLuckAveraging,
                         DecisionKind::kReturnToStock, DecisionKind::kExplorationBalancing}) {
    EXPECT_TRUE(met.count(k)) << to_string(k);
  }
}

}  // namespace
}  // namespace viktory
