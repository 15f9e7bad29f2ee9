// Fog of war: what the rules leave open, decided so that no answer depends on units outside
// the asker's sight (docs/rules-notes.md, "Fog of war"). Each case shows the answer without
// fog (which would tell of the hidden unit) and with fog (the same whether it is there or not).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>

#include "battle_preview.h"
#include "fixture.h"
#include "sight.h"
#include "view.h"

namespace viktory {
namespace {

using testing::Position;

Options with_fog(bool fog) {
  Options o;
  o.fog_of_war = fog;
  o.fog_city_sight = 1;
  return normalized(o);
}

std::string check_code(const GameState& s, const Action& a) {
  const auto e = check_action(s, a);
  return e ? e->code : "ok";
}

// The first hex (in index order) meeting `want`.
template <typename Want>
int find_hex(const Position& p, Want want) {
  for (int h = 0; h < p.board().size(); ++h) {
    if (!p.board().is_perimeter(h) && want(h)) return h;
  }
  throw std::logic_error("no such hex");
}

// [11.0] Bombarding a hex two away that he cannot see: without fog the answer tells whether
// enemy units stand there ("no_target" or fine); with fog it is "unseen" either way.
TEST(FogRules, BombardOnlyIntoSight_11_0) {
  for (bool fog : {false, true}) {
    for (bool hidden_unit : {false, true}) {
      Position p(2, 0, with_fog(fog));
      p.fill(Terrain::kPlains).terrain(p.at("C3"), Terrain::kMountain);
      p.terrain(p.at("G5"), Terrain::kGrassland);
      p.capital(0, p.at("C3"), true).capital(1, p.at("G5"), true);
      const int art = p.unit(0, UnitType::kArtillery, p.at("D4"));
      const Board& b = p.board();
      const int target = find_hex(p, [&](int h) {
        return b.distance(h, p.at("D4")) == 2 && b.distance(h, p.at("C3")) >= 2 &&
               b.distance(h, p.at("G5")) >= 2;
      });
      if (hidden_unit) p.unit(1, UnitType::kInfantry, target);
      p.start_turn(0, Phase::kMovement);
      const std::string code = check_code(p.state, act::bombard(0, art, target));
      if (fog) {
        EXPECT_EQ(code, "unseen") << "hidden unit " << hidden_unit;
      } else {
        EXPECT_EQ(code, hidden_unit ? "ok" : "no_target");
      }
    }
  }
}

// [7.22] A Town may not be built on another player's unit: under fog, a hex he cannot see is
// refused as such ("unseen"), with or without a unit there; in sight the rule applies.
TEST(FogRules, TownsAreBuiltOnlyInSight_7_22) {
  for (bool fog : {false, true}) {
    for (bool in_sight : {false, true}) {
      for (bool hidden_unit : {false, true}) {
        Position p(2, 0, with_fog(fog));
        p.fill(Terrain::kPlains).terrain({p.at("C3"), p.at("G5")}, Terrain::kGrassland);
        p.capital(0, p.at("C3"), true).capital(1, p.at("G5"), true);
        const Board& b = p.board();
        const int site = find_hex(p, [&](int h) {
          return b.distance(h, p.at("C3")) == 2 && b.distance(h, p.at("G5")) >= 3;
        });
        if (in_sight) {
          const int next = find_hex(
              p, [&](int h) { return b.distance(h, site) == 1 && b.distance(h, p.at("C3")) == 1; });
          p.unit(0, UnitType::kCavalry, next);
        }
        if (hidden_unit) p.unit(1, UnitType::kInfantry, site);
        p.start_turn(0, Phase::kBuild);
        const std::string code = check_code(p.state, act::build_town(0, site));
        const std::string expected =
            fog && !in_sight ? "unseen" : (hidden_unit ? "enemy_units" : "ok");
        EXPECT_EQ(code, expected) << "fog " << fog << " in sight " << in_sight << " unit "
                                  << hidden_unit;
      }
    }
  }
}

// [9.13, 15.64] A road to an Alliance Town he cannot see: without fog whether it is open
// depends on enemy units on the way; under fog it is "unseen" either way, and open once he
// sees the whole road.
TEST(FogRules, RoadsRunOnlyThroughSight_9_13) {
  for (bool fog : {false, true}) {
    for (int watcher : {0, 1}) {  // 1: a unit of his stands on the road's last hex
      Options o = with_fog(fog);
      o.players = 3;
      o.subjugation = true;
      Position p(3, 4, o);
      p.fill(Terrain::kPlains).terrain({p.at("C3"), p.at("G6")}, Terrain::kGrassland);
      const Board& b = p.board();
      const int ally = find_hex(p, [&](int h) {
        return b.distance(h, p.at("C3")) == 3 && b.distance(h, p.at("G6")) >= 3;
      });
      p.capital(0, p.at("C3"), true).capital(1, ally).capital(2, p.at("G6"), true);
      p.state.players[1].ruler = 0;  // player 1 is player 0's Vassal [15.61]
      const int inf = p.unit(0, UnitType::kInfantry, p.at("C3"));
      if (watcher) {
        const int last = find_hex(
            p, [&](int h) { return b.distance(h, ally) == 1 && b.distance(h, p.at("C3")) == 2; });
        p.unit(0, UnitType::kCavalry, last);
      }
      p.start_turn(0, Phase::kMovement);
      const std::string code = check_code(p.state, act::move(0, inf, ally));
      EXPECT_EQ(code, fog && !watcher ? "unseen" : "ok") << "fog " << fog << " watcher " << watcher;
    }
  }
}

// The legal actions and the refusals are the same with hidden units taken away: over a whole
// position's candidate actions, with a hidden enemy army two hexes from his units.
TEST(FogRules, LegalActionsDoNotDependOnHiddenUnits) {
  Position p(2, 0, with_fog(true));
  p.fill(Terrain::kPlains).terrain({p.at("C3"), p.at("G5")}, Terrain::kMountain);
  p.capital(0, p.at("C3"), true).capital(1, p.at("G5"), true);
  p.unit(0, UnitType::kArtillery, p.at("D4"));
  p.unit(0, UnitType::kInfantry, p.at("C3"));
  p.unit(1, UnitType::kArtillery, p.at("F5"));
  p.unit(1, UnitType::kInfantry, p.at("F4"));
  p.start_turn(0, Phase::kMovement);
  const GameState world = seen_world(p.state, 0);
  ASSERT_NE(world.units, p.state.units);  // something was hidden
  EXPECT_EQ(legal_actions(p.state, 0), legal_actions(world, 0));
  for (int h = 0; h < p.board().size(); ++h) {
    for (int u : {0, 1}) {
      for (const Action& a : {act::move(0, p.units_on(p.at(u ? "C3" : "D4"), 0).at(0), h),
                              act::bombard(0, p.units_on(p.at("D4"), 0).at(0), h)}) {
        EXPECT_EQ(check_code(p.state, a), check_code(world, a)) << p.label(h);
      }
    }
  }
}

// The Battle preview: only of a hex he sees (its garrison is not in his view).
TEST(FogRules, BattlePreviewOnlyOfAHexInSight_12_3) {
  for (bool fog : {false, true}) {
    Position p(2, 0, with_fog(fog));
    p.fill(Terrain::kPlains).terrain({p.at("C3"), p.at("G5")}, Terrain::kGrassland);
    p.capital(0, p.at("C3"), true).capital(1, p.at("G5"), true);
    const int cav = p.unit(0, UnitType::kCavalry, p.at("C3"));
    p.unit(1, UnitType::kInfantry, p.at("G5"));
    p.start_turn(0, Phase::kMovement);
    const auto preview = preview_battle(view_for(p.state, 0), p.at("G5"), {cav}, 50);
    EXPECT_EQ(preview.has_value(), !fog);
  }
}

bool has_kind(const std::vector<Event>& ev, EventKind k) {
  return std::any_of(ev.begin(), ev.end(), [&](const Event& e) { return e.kind == k; });
}

// Events: a unit seen leaving into the fog keeps where it came from, not where it went; moves
// wholly in the fog are not told; the mover and a spectator who sees it all get them whole.
TEST(FogEvents, MovesOutOfSightAreMaskedOrDropped) {
  Position p(2, 0, with_fog(true));
  p.fill(Terrain::kPlains).terrain({p.at("C3"), p.at("G5")}, Terrain::kGrassland);
  p.capital(0, p.at("C3"), true).capital(1, p.at("G5"), true);
  const Board& b = p.board();
  p.unit(0, UnitType::kInfantry, p.at("D4"));
  // A Cavalry next to D4, moving to a hex two from D4, then one more hex away.
  const int start = find_hex(
      p, [&](int h) { return b.distance(h, p.at("D4")) == 1 && b.distance(h, p.at("C3")) == 2; });
  const int cav = p.unit(1, UnitType::kCavalry, start);
  const int out1 = find_hex(p, [&](int h) {
    return b.distance(h, start) == 1 && b.distance(h, p.at("D4")) == 2 &&
           b.distance(h, p.at("C3")) >= 2;
  });
  const int out2 = find_hex(p, [&](int h) {
    return b.distance(h, out1) == 1 && b.distance(h, p.at("D4")) == 3 &&
           b.distance(h, p.at("C3")) >= 2;
  });
  p.start_turn(1, Phase::kMovement);
  const auto first = p.apply_ok(act::move(1, cav, out1));
  const auto seen_by_0 = filter_events_for(p.state, first, 0);
  const auto moved = testing::events_of(seen_by_0, EventKind::kUnitMoved);
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0].from_hex, start);
  EXPECT_EQ(moved[0].hex, -1);
  EXPECT_EQ(testing::events_of(filter_events_for(p.state, first, 1), EventKind::kUnitMoved)[0].hex,
            out1);
  for (const Event& e : seen_by_0) {
    if (e.kind == EventKind::kTileRevealed &&
        !sight_of(p.state, 0)[static_cast<std::size_t>(e.hex)]) {
      EXPECT_EQ(e.player, kNoPlayer);  // not who turned it over
    }
  }
  const auto second = p.apply_ok(act::move(1, cav, out2));
  EXPECT_FALSE(has_kind(filter_events_for(p.state, second, 0), EventKind::kUnitMoved));
  EXPECT_FALSE(has_kind(filter_events_for(p.state, second, kSpectator), EventKind::kUnitMoved));
  EXPECT_TRUE(has_kind(filter_events_for(p.state, second, 1), EventKind::kUnitMoved));
}

// A player whose units all fell in a Battle he fought still gets its events, though he sees
// the hex no more; a third player who sees nothing of it gets none of them.
TEST(FogEvents, ABattleIsToldToItsSidesOnly_12_3) {
  Options o = with_fog(true);
  o.players = 3;
  Position p(3, 4, o);
  p.fill(Terrain::kPlains).terrain({p.at("C3"), p.at("G5"), p.at("G2")}, Terrain::kGrassland);
  p.capital(0, p.at("C3"), true).capital(1, p.at("G5"), true).capital(2, p.at("G2"), true);
  const int attacker = p.unit(0, UnitType::kInfantry, p.at("E5"));
  p.unit(1, UnitType::kInfantry, p.at("E6"));
  ASSERT_GE(p.board().distance(p.at("E6"), p.at("G2")), 3);
  p.dice({1, 1, 1, 6, 6, 6, 6, 6, 6, 6, 6, 6});
  p.start_turn(0, Phase::kMovement);
  std::array<std::vector<Event>, 3> told;  // what each player got, over the whole Battle
  auto record = [&](const std::vector<Event>& ev) {
    for (int viewer = 0; viewer < 3; ++viewer) {
      const auto mine = filter_events_for(p.state, ev, viewer);
      told[static_cast<std::size_t>(viewer)].insert(told[static_cast<std::size_t>(viewer)].end(),
                                                    mine.begin(), mine.end());
    }
  };
  record(p.apply_ok(act::move(0, attacker, p.at("E6"))));
  record(p.apply_ok(act::start_battle(0, p.at("E6"))));
  for (int guard = 0; guard < 20 && p.state.battle; ++guard) {
    const auto legal = legal_actions(p.state, decider(p.state));
    const auto it = std::find_if(legal.begin(), legal.end(), [](const Action& a) {
      return a.kind != ActionKind::kConcede && a.kind != ActionKind::kRetreat;
    });
    if (it == legal.end()) break;
    record(p.apply_ok(*it));
  }
  ASSERT_FALSE(p.state.battle.has_value());
  EXPECT_TRUE(p.units_on(p.at("E6"), 0).empty());  // the attacker lost every unit there
  for (int side : {0, 1}) {
    EXPECT_TRUE(has_kind(told[static_cast<std::size_t>(side)], EventKind::kBattleStarted));
    EXPECT_TRUE(has_kind(told[static_cast<std::size_t>(side)], EventKind::kBattleEnded));
    EXPECT_TRUE(has_kind(told[static_cast<std::size_t>(side)], EventKind::kDiceRolled));
  }
  for (EventKind k : {EventKind::kBattleStarted, EventKind::kBattleEnded, EventKind::kDiceRolled,
                      EventKind::kUnitHit, EventKind::kUnitLost, EventKind::kUnitMoved}) {
    EXPECT_FALSE(has_kind(told[2], k)) << to_string(k);
  }
}

// A Battle the attacker breaks off ends with no winner (kBattleEnded's player is kNoPlayer,
// which is -1 like kSpectator): a spectator who sees neither the Battle hex nor where the
// attacker retreats to is told nothing of it, not the retreat out of the Battle hex [12.3].
// (Found by tests/server/leak_test.cpp: a spectator was sent "unit_retreated" from a hex in
// the fog, naming a unit he never saw.)
TEST(FogEvents, ARetreatFromABattleNobodyWonIsNotToldToASpectator_12_3) {
  Options o = with_fog(true);
  o.players = 3;
  Position p(3, 4, o);
  p.fill(Terrain::kPlains).terrain({p.at("C3"), p.at("G5"), p.at("G2")}, Terrain::kGrassland);
  p.capital(0, p.at("C3"), true).capital(1, p.at("G5"), true).capital(2, p.at("G2"), true);
  const int first = p.unit(0, UnitType::kInfantry, p.at("E5"));
  const int second = p.unit(0, UnitType::kCavalry, p.at("E5"));
  p.unit(1, UnitType::kInfantry, p.at("E6"));
  p.unit(1, UnitType::kCavalry, p.at("E6"));
  p.dice(std::vector<int>(40, 6));  // every die misses [10.1]: the attacker keeps his units
  p.start_turn(0, Phase::kMovement);
  ASSERT_FALSE(sight_of(p.state, kSpectator)[static_cast<std::size_t>(p.at("E5"))]);
  ASSERT_FALSE(sight_of(p.state, kSpectator)[static_cast<std::size_t>(p.at("E6"))]);
  std::vector<Event> spectator, player_2, attacker;
  auto record = [&](const std::vector<Event>& ev) {
    for (auto [viewer, told] :
         {std::pair{kSpectator, &spectator}, std::pair{2, &player_2}, std::pair{0, &attacker}}) {
      const auto mine = filter_events_for(p.state, ev, viewer);
      told->insert(told->end(), mine.begin(), mine.end());
    }
  };
  record(p.apply_ok(act::move(0, first, p.at("E6"))));
  record(p.apply_ok(act::move(0, second, p.at("E6"))));
  record(p.apply_ok(act::start_battle(0, p.at("E6"))));
  for (int guard = 0; guard < 40 && p.state.battle; ++guard) {
    const auto legal = legal_actions(p.state, decider(p.state));
    auto it = std::find_if(legal.begin(), legal.end(),
                           [](const Action& a) { return a.kind == ActionKind::kRetreat; });
    if (it == legal.end()) {
      it = std::find_if(legal.begin(), legal.end(),
                        [](const Action& a) { return a.kind != ActionKind::kConcede; });
    }
    ASSERT_NE(it, legal.end());
    record(p.apply_ok(*it));
  }
  ASSERT_FALSE(p.state.battle.has_value());
  const auto retreats = testing::events_of(attacker, EventKind::kUnitRetreated);
  ASSERT_EQ(retreats.size(), 2u) << "the attacker retreated both his units";
  EXPECT_EQ(testing::events_of(attacker, EventKind::kBattleEnded).at(0).player, kNoPlayer);
  for (const auto* told : {&spectator, &player_2}) {
    for (EventKind k : {EventKind::kUnitRetreated, EventKind::kBattleEnded,
                        EventKind::kBattleStarted, EventKind::kUnitMoved}) {
      EXPECT_FALSE(has_kind(*told, k)) << to_string(k);
    }
  }
}

}  // namespace
}  // namespace viktory

namespace viktory {
namespace {

// Undo may not go back past an action that put a hex into a player's sight (else he would
// move, look into the fog and take the move back); a move that shows nothing new stays
// undoable.
TEST(FogRules, AMoveThatLooksIntoTheFogSealsTheTurn) {
  for (bool fog : {false, true}) {
    for (bool forward : {false, true}) {
      Position p(2, 0, with_fog(fog));
      p.fill(Terrain::kPlains).terrain({p.at("C3"), p.at("G5")}, Terrain::kGrassland);
      p.capital(0, p.at("C3"), true).capital(1, p.at("G5"), true);
      // Forward: from the Capital to D3, next to E4. Back: from D3 into the Capital, whose
      // neighbours he saw already.
      const int cav = p.unit(0, UnitType::kCavalry, p.at(forward ? "C3" : "D3"));
      p.unit(1, UnitType::kInfantry, p.at("E4"));
      p.start_turn(0, Phase::kMovement);
      GameState after = p.state;
      std::vector<Event> ev;
      ASSERT_FALSE(apply_in_place(after, act::move(0, cav, p.at(forward ? "D3" : "C3")), &ev));
      EXPECT_EQ(seals_turn(p.state, after, ev), fog && forward)
          << "fog " << fog << " forward " << forward;
    }
  }
}

}  // namespace
}  // namespace viktory
