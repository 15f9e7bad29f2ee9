// The planning model of Battles (engine/ai/battle_odds.h) against the engine's own dice: when
// both sides lose their units in the model's order, the model's odds are exact, so thousands of
// engine Battles must agree with it [10.1, 12.3, 12.31].
#include "battle_odds.h"

#include <gtest/gtest.h>

#include <array>
#include <optional>

#include "fixture.h"

namespace viktory {
namespace {

using ai::BattleSetup;
using ai::Force;
using testing::Position;

struct Side {
  int infantry = 0, cavalry = 0, artillery = 0;
};

struct Case {
  Side attacker;
  Side defender;
  Terrain terrain = Terrain::kPlains;
  bool town = false;
  bool defender_prefire = false;  // house rule Defending Artillery Pre-fire
};

// The unit a side loses next in the model's order: a spare copy (Infantry, Artillery, Cavalry)
// while there is one, then the last Infantry, Artillery, Cavalry.
int model_loss(const GameState& s, const std::vector<Action>& legal) {
  std::array<int, kUnitTypes> count{};
  for (const Action& a : legal) {
    if (a.kind == ActionKind::kChooseCasualty)
      ++count[static_cast<std::size_t>(s.units[a.unit].type)];
  }
  const std::array<UnitType, 3> order{UnitType::kInfantry, UnitType::kArtillery,
                                      UnitType::kCavalry};
  auto first_with = [&](int at_least) -> std::optional<UnitType> {
    for (UnitType t : order) {
      if (count[static_cast<std::size_t>(t)] >= at_least) return t;
    }
    return std::nullopt;
  };
  const UnitType pick = first_with(2).value_or(first_with(1).value_or(UnitType::kInfantry));
  for (const Action& a : legal) {
    if (a.kind == ActionKind::kChooseCasualty && s.units[a.unit].type == pick) return a.unit;
  }
  return -1;
}

// Fights the Battle of `c` with the engine, game seed `seed`; true if the attacker won.
bool engine_battle(const Case& c, std::uint64_t seed) {
  Options options;
  options.defender_prefire = c.defender_prefire;
  Position p(2, 6, options, seed);
  p.fill(Terrain::kPlains);
  const int target = p.at(0, 0);
  const int from = p.at(1, 0);
  p.terrain(target, c.terrain);
  // Player 0's economy: a Capital, Towns for Infantry, a Grassland and a Mountain City.
  p.capital(0, p.at(4, 0));
  const std::array<int, 6> towns0{p.at(4, -3), p.at(2, 2),  p.at(-1, 4),
                                  p.at(3, -5), p.at(0, -3), p.at(-3, 5)};
  for (int i = 0; i < c.attacker.infantry - 1; ++i) p.town(0, towns0[static_cast<std::size_t>(i)]);
  if (c.attacker.cavalry) p.terrain(p.at(2, -1), Terrain::kGrassland).city(0, p.at(2, -1));
  if (c.attacker.artillery) p.terrain(p.at(1, -3), Terrain::kMountain).city(0, p.at(1, -3));
  // Player 1's: a Capital far away, the target Town if any, and what his defenders need.
  p.capital(1, p.at(-4, 0));
  int inf1 = 1;
  if (c.town) {
    p.town(1, target);
    ++inf1;
  }
  const std::array<int, 5> towns1{p.at(-4, 3), p.at(-2, -2), p.at(-5, 1), p.at(-3, -3),
                                  p.at(-1, -4)};
  for (int i = 0; inf1 < c.defender.infantry; ++i, ++inf1) {
    p.town(1, towns1[static_cast<std::size_t>(i)]);
  }
  if (c.defender.cavalry) p.terrain(p.at(-2, 2), Terrain::kGrassland).city(1, p.at(-2, 2));
  if (c.defender.artillery) p.terrain(p.at(-4, 5), Terrain::kMountain).city(1, p.at(-4, 5));
  std::vector<int> attackers;
  for (int i = 0; i < c.attacker.infantry; ++i)
    attackers.push_back(p.unit(0, UnitType::kInfantry, from));
  for (int i = 0; i < c.attacker.cavalry; ++i)
    attackers.push_back(p.unit(0, UnitType::kCavalry, from));
  for (int i = 0; i < c.attacker.artillery; ++i)
    attackers.push_back(p.unit(0, UnitType::kArtillery, from));
  for (int i = 0; i < c.defender.infantry; ++i) p.unit(1, UnitType::kInfantry, target);
  for (int i = 0; i < c.defender.cavalry; ++i) p.unit(1, UnitType::kCavalry, target);
  for (int i = 0; i < c.defender.artillery; ++i) p.unit(1, UnitType::kArtillery, target);
  p.start_turn(0, Phase::kMovement);
  GameState& s = p.state;
  for (int u : attackers) {
    if (apply_in_place(s, act::move(0, u, target))) ADD_FAILURE() << "move refused";
  }
  if (apply_in_place(s, act::start_battle(0, target))) ADD_FAILURE() << "battle refused";
  while (s.battle) {
    const int who = decider(s);
    const auto legal = legal_actions(s, who);
    Action a = act::continue_battle(who);  // the model never retreats
    if (s.battle->stage != BattleStage::kRetreatOption)
      a = act::choose_casualty(who, model_loss(s, legal));
    if (auto err = apply_in_place(s, a)) {
      ADD_FAILURE() << err->code;
      return false;
    }
  }
  int left = 0;
  for (const Unit& u : s.units)
    left += u.place == UnitPlace::kMap && u.hex == target && u.owner == 0;
  return left > 0;
}

double model_odds(const Case& c) {
  BattleSetup b;
  b.attacker = Force{c.attacker.infantry, c.attacker.cavalry, c.attacker.artillery, 0};
  b.defender = Force{c.defender.infantry, c.defender.cavalry, c.defender.artillery, 0};
  b.town = c.town;
  b.defender_pre_fire = c.defender_prefire;
  const bool strong = c.terrain == Terrain::kMountain;
  b.terrain_dice = strong ? 2 : (c.terrain == Terrain::kForest || c.town) ? 1 : 0;
  return ai::battle_odds(b).attacker_wins;
}

void expect_model_matches_engine(const Case& c) {
  const int trials = 3000;
  int wins = 0;
  for (int i = 0; i < trials; ++i) wins += engine_battle(c, 1000 + static_cast<std::uint64_t>(i));
  const double engine = static_cast<double>(wins) / trials;
  // Four standard deviations of a 3000-trial estimate at p = 0.5.
  EXPECT_NEAR(model_odds(c), engine, 0.037);
}

TEST(BattleOdds, EmptyTownAgainstOneAttacker_12_3) {
  const Case c{{1, 0, 0}, {0, 0, 0}, Terrain::kPlains, true};
  EXPECT_DOUBLE_EQ(model_odds(c), 0.5);  // one Town die [12.3 step 2]
  expect_model_matches_engine(c);
}

TEST(BattleOdds, EmptyTownFallsToTwo_12_3) {
  const Case c{{2, 0, 0}, {0, 0, 0}, Terrain::kPlains, true};
  EXPECT_DOUBLE_EQ(model_odds(c), 1.0);  // one die cannot hit twice
  expect_model_matches_engine(c);
}

TEST(BattleOdds, InfantryAgainstATown_12_3) {
  expect_model_matches_engine({{3, 0, 0}, {2, 0, 0}, Terrain::kPlains, true});
}

TEST(BattleOdds, CombinedArmsWithPreBattleFireOnAMountain_12_3) {
  expect_model_matches_engine({{2, 1, 1}, {1, 0, 1}, Terrain::kMountain, false});
}

// House rule Defending Artillery Pre-fire: the defender's Artillery answers in [12.3 step 0].
TEST(BattleOdds, DefendingArtilleryPreFireHouseRule_12_3) {
  const Case with{{2, 1, 1}, {1, 0, 1}, Terrain::kPlains, false, true};
  Case without = with;
  without.defender_prefire = false;
  EXPECT_LT(model_odds(with), model_odds(without));
  // One Infantry against one Artillery: the answer hits half the time, then 1/3 [12.3].
  EXPECT_NEAR(model_odds({{1, 0, 0}, {0, 0, 1}, Terrain::kPlains, false, true}), 1.0 / 6.0, 1e-9);
  expect_model_matches_engine(with);
  expect_model_matches_engine({{3, 0, 0}, {1, 0, 1}, Terrain::kPlains, true, true});
}

TEST(BattleOdds, SuppressionOfALoneDefender_12_31) {
  expect_model_matches_engine({{1, 1, 1}, {1, 0, 0}, Terrain::kPlains, true});
}

TEST(BattleOdds, CavalryAgainstADugInTown_12_3) {
  expect_model_matches_engine({{1, 1, 0}, {3, 0, 0}, Terrain::kForest, true});
}

TEST(BattleOdds, MoreAttackersNeverHurt) {
  for (int d = 0; d <= 3; ++d) {
    double last = 0;
    for (int a = 1; a <= 6; ++a) {
      BattleSetup b;
      b.attacker.infantry = a;
      b.defender.infantry = d;
      b.town = true;
      b.terrain_dice = 2;
      const auto odds = ai::battle_odds(b);
      EXPECT_GE(odds.attacker_wins, last - 1e-12) << a << " against " << d;
      EXPECT_GE(odds.attacker_losses, 0);
      EXPECT_LE(odds.defender_losses, d + 1e-9);
      last = odds.attacker_wins;
    }
  }
}

TEST(BattleOdds, NavalBattleIsAnEvenExchange_12_3) {
  BattleSetup b;
  b.naval = true;
  b.attacker.frigates = 1;
  b.defender.frigates = 1;
  // One die each per round; a round where both hit is a loss for the attacker [12.3 step 4].
  // P(win) = P(a hits, d misses) / P(someone hits) = (1/4) / (3/4).
  EXPECT_NEAR(ai::battle_odds(b).attacker_wins, 1.0 / 3, 1e-9);
}

}  // namespace
}  // namespace viktory
