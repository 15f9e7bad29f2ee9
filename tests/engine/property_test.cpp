// Property test of the rules engine: thousands of random games (2-8 players on every board
// size [3.2], every victory
// condition and random sets of several [5.0], every tile mix and exploration mode, every
// optional rule [15.1-15.6] in random combinations, fixed seeds), checked after every single
// action:
//
//  - check_invariants holds: units match Towns/Cities one to one [8.2 Key Concept], no two
//    Towns/Cities adjacent [7.21], units on legal terrain [9.1, 9.3], cargo <= 3 [9.41];
//  - no tile exists before its reveal [3.2]: an unrevealed hex has Terrain::kNone;
//  - every view (each player and the spectator) and every filtered event list holds terrain
//    only of hexes that viewer knows;
//  - legal_actions agrees with check_action both ways: everything it lists is accepted, and a
//    mutated action it does not list is refused;
//  - a refused action (another player's, or a mutated one) leaves the state untouched, adds no
//    event and comes with a non-empty error code and message;
//  - apply() and apply_in_place() agree, and replaying the seed and the action list gives the
//    identical final state and the identical events;
//  - fog of war (docs/rules-notes.md, "Fog of war"): each view is the same when every unit
//    outside that viewer's sight is taken away (engine/sight.h seen_world), so it cannot tell
//    of them; so are the decider's legal actions and the refusals of probe actions; no other
//    player's unit stands on an unseen hex of a view, every last-seen entry lies outside sight,
//    and no filtered event moves or places another player's unit on a hex the viewer cannot see.
//
// Each test also counts what happened (finished games, Battles, Bombards, embarks, retreats,
// captures...) and fails if the random games never reached those parts of the rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "game.h"
#include "random_play.h"
#include "sight.h"
#include "view.h"

namespace {

using viktory::Action;
using viktory::ActionKind;
using viktory::Event;
using viktory::EventKind;
using viktory::GameState;
using viktory::Options;
using viktory::Phase;
using viktory::Terrain;
using viktory::TileMix;
using viktory::VictoryCondition;
using viktory::testing::Chooser;

constexpr int kEventKinds = static_cast<int>(EventKind::kUnitRedeployed) + 1;
constexpr int kActionKinds = static_cast<int>(ActionKind::kRedeploy) + 1;
constexpr int kVictoryConditions = viktory::kVictoryConditions;

// What a batch of games went through, to prove the random games reached the rules under test.
struct Tally {
  int games = 0;
  int finished = 0;
  long actions = 0;
  long refused_probes = 0;  // illegal actions tried (and refused)
  std::array<long, kEventKinds> events{};
  std::array<int, kVictoryConditions> ended_by{};
  long defender_prefire_rolls = 0;  // house rule Defending Artillery Pre-fire

  long count(EventKind k) const { return events[static_cast<int>(k)]; }
  std::string summary() const {
    std::ostringstream out;
    out << "games=" << games << " finished=" << finished << " actions=" << actions
        << " refused_probes=" << refused_probes;
    for (int k = 0; k < kEventKinds; ++k) {
      const auto kind = static_cast<EventKind>(k);
      if (kind == EventKind::kBattleStarted || kind == EventKind::kBombarded ||
          kind == EventKind::kUnitEmbarked || kind == EventKind::kUnitDisembarked ||
          kind == EventKind::kUnitRetreated || kind == EventKind::kTownCaptured ||
          kind == EventKind::kCityUpgraded || kind == EventKind::kCapitalLost ||
          kind == EventKind::kCapitalRetaken || kind == EventKind::kPlayerEliminated ||
          kind == EventKind::kPlayerConceded || kind == EventKind::kDoomsdayStarted ||
          kind == EventKind::kDoomsdayCoin || kind == EventKind::kUnitEliminated ||
          kind >= EventKind::kLandDrawn) {
        out << " " << viktory::to_string(kind) << "=" << events[k];
      }
    }
    for (int v = 0; v < kVictoryConditions; ++v) {
      out << " won_by_" << viktory::to_string(static_cast<VictoryCondition>(v)) << "="
          << ended_by[v];
    }
    return out.str();
  }
};

std::string describe(const Action& a) {
  std::ostringstream out;
  out << viktory::to_string(a.kind) << "(player=" << a.player << " hex=" << a.hex
      << " unit=" << a.unit << " carrier=" << a.carrier << " type=" << static_cast<int>(a.unit_type)
      << " pairs=" << a.pairs << ")";
  return out.str();
}

// The fields an action of this kind actually uses; two actions that agree on them are the
// same decision (the others are ignored by the engine).
bool same_decision(const Action& a, const Action& b) {
  if (a.kind != b.kind || a.player != b.player) return false;
  switch (a.kind) {
    case ActionKind::kPlaceCapital:
    case ActionKind::kBuildTown:
    case ActionKind::kUpgradeCity:
    case ActionKind::kStartBattle:
    case ActionKind::kReplaceWater:
    case ActionKind::kRemoveTown:
    case ActionKind::kRebuildTown:
      return a.hex == b.hex;
    case ActionKind::kMove:
    case ActionKind::kDisembark:
    case ActionKind::kBombard:
    case ActionKind::kRetreat:
    case ActionKind::kWithdraw:
    case ActionKind::kRedeploy:
      return a.unit == b.unit && a.hex == b.hex;
    case ActionKind::kAverageDice:
      return a.pairs == b.pairs;
    case ActionKind::kEmbark:
      return a.unit == b.unit && a.carrier == b.carrier;
    case ActionKind::kChooseCasualty:
    case ActionKind::kEliminateUnit:
      return a.unit == b.unit;
    case ActionKind::kPlaceReserve:
      return a.unit_type == b.unit_type && a.hex == b.hex;
    case ActionKind::kEndPhase:
    case ActionKind::kContinueBattle:
    case ActionKind::kConcede:
    case ActionKind::kKeepWater:
      return true;
  }
  return false;
}

bool listed(const std::vector<Action>& legal, const Action& a) {
  for (const Action& l : legal) {
    if (same_decision(l, a)) return true;
  }
  return false;
}

// A value near the valid range of an index: mostly valid ones, sometimes just outside.
int near_range(Chooser& chooser, int size) {
  return static_cast<int>(chooser.below(static_cast<std::size_t>(size) + 3)) - 2;
}

// One field of a legal action changed at random: a different hex, unit, carrier, unit type,
// or kind. The result may still be legal; the caller checks it against the legal list.
Action mutate(const GameState& s, const Action& legal, Chooser& chooser) {
  Action a = legal;
  const int hexes = static_cast<int>(s.hexes.size());
  const int units = static_cast<int>(s.units.size());
  switch (chooser.below(6)) {
    case 0:
      a.hex = near_range(chooser, hexes);
      break;
    case 5:
      a.pairs = static_cast<int>(chooser.below(5)) - 1;  // [15.4] -1..3
      break;
    case 1:
      a.unit = near_range(chooser, units);
      break;
    case 2:
      a.carrier = near_range(chooser, units);
      break;
    case 3:
      a.unit_type = static_cast<viktory::UnitType>(chooser.below(viktory::kUnitTypes));
      break;
    default:
      a.kind = static_cast<ActionKind>(chooser.below(kActionKinds));
      if (a.kind == ActionKind::kConcede) a.kind = ActionKind::kWithdraw;  // no concede
      break;
  }
  return a;
}

// --- the checks, each returning a description of the first violation (empty when fine) ---

std::string check_tiles_exist_only_when_revealed(const GameState& s) {
  const viktory::Board& board = s.board();
  for (int h = 0; h < board.size(); ++h) {
    if (board.is_perimeter(h)) continue;
    const viktory::HexCell& c = s.hexes[h];
    if (!c.revealed && c.terrain != Terrain::kNone) {
      return "unrevealed hex " + board.label(h) + " already has a tile [3.2]";
    }
    if (c.revealed && c.terrain == Terrain::kNone) {
      return "revealed hex " + board.label(h) + " has no terrain";
    }
    if (!c.revealed && c.known_by != 0) return "unrevealed hex " + board.label(h) + " is known";
  }
  return {};
}

std::string check_view(const GameState& s, int viewer) {
  const viktory::GameView v = viktory::view_for(s, viewer);
  const viktory::Board& board = s.board();
  if (static_cast<int>(v.hexes.size()) != board.size()) return "view has the wrong hex count";
  if (v.decider != viktory::decider(s)) return "view names the wrong decider";
  for (int h = 0; h < board.size(); ++h) {
    const viktory::HexView& hv = v.hexes[h];
    const bool knows = viktory::viewer_knows(s, viewer, h);
    if (!s.options.independent_exploration && knows != (s.hexes[h].revealed)) {
      return "shared exploration: knowledge of " + board.label(h) + " differs from revealed";
    }
    if (knows && !s.hexes[h].revealed) return "knows unrevealed hex " + board.label(h);
    if (hv.known != knows) return "view's 'known' flag is wrong at " + board.label(h);
    if (!knows && hv.terrain != Terrain::kNone) {
      return "view leaks the terrain of unknown hex " + board.label(h);
    }
    if (knows && hv.terrain != s.hexes[h].terrain) {
      return "view shows wrong terrain at known hex " + board.label(h);
    }
  }
  // [15.3] The water hexes a choice is about are on the shared table for everybody.
  if (v.balance) {
    for (int h : v.balance->water) {
      if (!viktory::viewer_knows(s, viewer, h)) return "an Exploration Balancing hex is unknown";
    }
  }
  if (s.options.no_exploration) {  // [15.2] everything is face up
    for (const viktory::HexView& hv : v.hexes) {
      if (!hv.known) return "a face-down hex under No Exploration";
    }
  }
  return {};
}

std::string check_filtered_events(const GameState& after, const std::vector<Event>& events,
                                  int viewer) {
  const std::vector<Event> filtered = viktory::filter_events_for(after, events, viewer);
  // Fog of war drops and masks events about units outside sight (check_fog looks at those).
  const bool fog = after.options.fog_of_war && after.phase != Phase::kGameOver;
  if (!fog && filtered.size() != events.size()) return "filtering dropped or added events";
  for (std::size_t i = 0; i < filtered.size(); ++i) {
    const Event& e = filtered[i];
    if (!fog && (e.kind != events[i].kind || e.hex != events[i].hex || e.dice != events[i].dice)) {
      return "filtering changed a public event";
    }
    if (e.terrain == Terrain::kNone) continue;
    if (e.kind == EventKind::kLandDrawn) {
      // [15.3] the land tile drawn to replace water: shown to all, on the shared table only.
      if (after.options.independent_exploration) return "a land tile drawn where maps differ";
      continue;
    }
    if (e.hex < 0 || e.hex >= static_cast<int>(after.hexes.size()) ||
        !viktory::viewer_knows(after, viewer, e.hex)) {
      return std::string("event ") + std::string(viktory::to_string(e.kind)) +
             " leaks terrain of an unknown hex";
    }
    if (e.terrain != after.hexes[e.hex].terrain) return "event shows the wrong terrain";
  }
  for (const Event& e : events) {
    if (e.kind == EventKind::kTileRevealed && e.terrain == Terrain::kNone) {
      return "unfiltered reveal event without terrain";
    }
  }
  return {};
}

// Fog of war: the view and the filtered events of one viewer tell nothing of units outside his
// sight (see the file comment).
std::string check_fog(const GameState& s, const std::vector<Event>& events, int viewer) {
  if (!s.options.fog_of_war || s.phase == Phase::kGameOver) return {};
  const viktory::GameView view = viktory::view_for(s, viewer);
  // (A spectator's sight is every player's at once: taking units away would change it.)
  const bool player = viewer >= 0 && s.players[static_cast<std::size_t>(viewer)].in_game();
  if (player && !(view == viktory::view_for(viktory::seen_world(s, viewer), viewer))) {
    const viktory::GameView other = viktory::view_for(viktory::seen_world(s, viewer), viewer);
    std::string why;
    if (view.units != other.units) why += " units";
    if (view.hexes != other.hexes) why += " hexes";
    if (view.players != other.players) why += " players";
    if (view.pending_battles != other.pending_battles) why += " pending_battles";
    if (view.battle_entries != other.battle_entries) why += " battle_entries";
    if (view.active_unit != other.active_unit) why += " active_unit";
    if (view.last_seen != other.last_seen) why += " last_seen";
    if (view.decider != other.decider) why += " decider";
    return "fog: the view of " + std::to_string(viewer) + " depends on units he cannot see:" + why;
  }
  const std::vector<bool> seen = viktory::sight_of(s, viewer);
  auto sees = [&](int hex) { return hex < 0 || seen[static_cast<std::size_t>(hex)]; };
  for (const viktory::UnitView& u : view.units) {
    if (u.owner != viewer && u.place == viktory::UnitPlace::kMap && !sees(u.hex)) {
      return "fog: unit " + std::to_string(u.id) + " shown outside the sight of " +
             std::to_string(viewer);
    }
  }
  for (const viktory::HexView& h : view.hexes) {
    if (h.unseen == sees(h.hex)) return "fog: hex " + h.label + " unseen flag is wrong";
  }
  for (const viktory::LastSeen& e : view.last_seen) {
    if (sees(e.hex) || e.owner == viewer) return "fog: a last-seen entry in sight or his own";
  }
  for (const Event& e : viktory::filter_events_for(s, events, viewer)) {
    if (e.player == viewer || viewer < 0) continue;
    // A unit that goes from one hex to another (the house rule Redeployment's too) is told
    // with the ends he sees, the others masked; one placed, only where he sees.
    const bool goes = e.kind == EventKind::kUnitMoved || e.kind == EventKind::kUnitRedeployed ||
                      e.kind == EventKind::kUnitWithdrawn;
    if ((goes || e.kind == EventKind::kUnitPlaced) && !sees(e.hex) && e.hex >= 0) {
      return "fog: event " + std::string(viktory::to_string(e.kind)) + " to unseen hex " +
             std::to_string(e.hex) + " told to " + std::to_string(viewer);
    }
    if (goes && !sees(e.from_hex) && e.from_hex >= 0) {
      return "fog: event " + std::string(viktory::to_string(e.kind)) + " from unseen hex " +
             std::to_string(e.from_hex) + " told to " + std::to_string(viewer);
    }
  }
  return {};
}

std::string check_legal_actions(const GameState& s, const std::vector<Action>& legal, int who) {
  if (who < 0 || who >= static_cast<int>(s.players.size())) return "no decider in a live game";
  if (!s.players[who].in_game()) return "the decider is out of the game";
  if (legal.empty() || !listed(legal, viktory::act::concede(who))) {
    return "the decider cannot even concede [5.1]";
  }
  if (legal.size() == 1) return "the decider's only option is to concede";
  for (const Action& a : legal) {
    if (a.player != who) return "legal action for the wrong player: " + describe(a);
    if (auto err = viktory::check_action(s, a)) {
      return "listed action refused: " + describe(a) + " -> " + err->code;
    }
  }
  for (int p = 0; p < static_cast<int>(s.players.size()); ++p) {
    if (p == who) continue;
    const auto others = viktory::legal_actions(s, p);
    const std::size_t expected = s.players[p].in_game() ? 1 : 0;  // just the concession
    if (others.size() != expected) return "a player who is not deciding has actions";
  }
  return {};
}

// Tries an illegal action both ways (copying apply and apply_in_place): it must be refused
// with a code and a message, leave the state as it was and add no event.
std::string check_refused(const GameState& s, const Action& bad, bool in_place) {
  std::optional<viktory::ActionError> err;
  if (in_place) {
    GameState copy = s;
    std::vector<Event> events;
    err = viktory::apply_in_place(copy, bad, &events);
    if (!err) return "illegal action accepted in place: " + describe(bad);
    if (!(copy == s)) return "refused action changed the state: " + describe(bad);
    if (!events.empty()) return "refused action produced events: " + describe(bad);
  } else {
    viktory::ApplyResult r = viktory::apply(s, bad);
    if (r.ok()) return "illegal action accepted: " + describe(bad);
    if (!(r.state == s)) return "refused action changed the state: " + describe(bad);
    if (!r.events.empty()) return "refused action produced events: " + describe(bad);
    err = r.error;
  }
  if (err->code.empty() || err->message.empty()) {
    return "refusal without code or message: " + describe(bad);
  }
  if (auto again = viktory::check_action(s, bad); !again || again->code != err->code) {
    return "check_action and apply disagree on " + describe(bad);
  }
  return {};
}

std::string check_game_over(const GameState& s) {
  if (viktory::decider(s) != viktory::kNoPlayer) return "a finished game still has a decider";
  if (s.winners.empty()) return "a finished game without a winner";
  for (int w : s.winners) {
    if (w < 0 || w >= static_cast<int>(s.players.size()) || !s.players[w].in_game()) {
      return "a winner who is out of the game";
    }
  }
  const bool alliance_victory = s.ended_by == VictoryCondition::kSubjugation &&
                                viktory::subjugation_rules(s.options);  // [15.66]
  if (s.ended_by != VictoryCondition::kStandard && !s.options.victory.has(s.ended_by) &&
      !alliance_victory) {
    return "the game ended by a victory condition it was not played under";
  }
  // Old logs may hold the last player's own concession after a concession left him alone
  // (docs/rules-notes.md): that one is accepted, and changes nothing.
  const bool someone_conceded = std::any_of(
      s.players.begin(), s.players.end(), [](const viktory::PlayerState& p) { return p.conceded; });
  for (int p = 0; p < static_cast<int>(s.players.size()); ++p) {
    if (!viktory::legal_actions(s, p).empty()) return "actions listed after the game ended";
    const bool old_log_concession = s.ended_by == VictoryCondition::kStandard &&
                                    s.winners == std::vector<int>{p} && someone_conceded;
    if (!viktory::check_action(s, viktory::act::concede(p)) && !old_log_concession) {
      return "concession after the end";
    }
  }
  return {};
}

// Enough of the situation to start debugging a failure from the seed.
std::string describe_state(const GameState& s) {
  std::ostringstream out;
  out << "turn=" << s.turn << " phase=" << viktory::to_string(s.phase) << " current=" << s.current
      << " decider=" << viktory::decider(s) << " active_unit=" << s.active_unit;
  if (s.active_unit >= 0) {
    const viktory::Unit& u = s.units[static_cast<std::size_t>(s.active_unit)];
    out << " (" << viktory::to_string(u.type) << " of " << u.owner << " at "
        << (u.hex >= 0 ? s.board().label(u.hex) : std::string("-")) << ")";
  }
  if (s.battle) {
    out << " battle at " << s.board().label(s.battle->hex) << " " << s.battle->attacker << " vs "
        << s.battle->defender << " stage=" << static_cast<int>(s.battle->stage);
  }
  if (s.bombard) out << " bombard at " << s.board().label(s.bombard->hex);
  if (s.elimination) out << " elimination by " << s.elimination->player;
  return out.str();
}

struct GameSpec {
  Options options;
  std::uint64_t seed = 0;
  int max_actions = 0;
  int concede_one_in = 0;  // 0: nobody concedes
};

std::string describe(const GameSpec& spec) {
  std::ostringstream out;
  const Options& o = spec.options;
  out << "seed=" << spec.seed << " players=" << o.players
      << " victory=" << viktory::to_string(o.victory) << " mix=" << viktory::to_string(o.tile_mix)
      << " independent=" << o.independent_exploration
      << " rules=" << (o.terrain_leveling ? "15.1," : "") << (o.no_exploration ? "15.2," : "")
      << (o.exploration_balancing ? "15.3," : "") << (o.luck_averaging ? "15.4," : "")
      << (o.town_relocation ? "15.5," : "") << (o.subjugation ? "15.6" : "")
      << " house=" << (o.defender_prefire ? "prefire," : "") << (o.redeployment ? "redeploy" : "")
      << (o.fog_of_war ? " fog=" + std::to_string(o.fog_city_sight) : "")
      << " max_actions=" << spec.max_actions << " concede_one_in=" << spec.concede_one_in
      << " board_hexes=" << o.board_hexes;
  return out.str();
}

// Plays one game with every check after every action. Returns the first violation, with the
// action number, or an empty string.
std::string play_checked_game(const GameSpec& spec, Tally& tally) {
  GameState s = viktory::new_game(spec.options, spec.seed);
  if (!(viktory::new_game(spec.options, spec.seed) == s)) return "new_game is not deterministic";
  const GameState start = s;
  Chooser chooser(spec.seed ^ 0x5EEDULL);
  std::vector<Action> played;
  std::vector<Event> all_events;
  std::vector<Event> events;
  const int players = spec.options.players;

  auto fail = [&](const std::string& what) {
    std::string out = "after action #" + std::to_string(played.size()) + ": " + what;
    out += "\n  state: " + describe_state(s) + "\n  last actions:";
    const std::size_t from = played.size() > 4 ? played.size() - 4 : 0;
    for (std::size_t i = from; i < played.size(); ++i) out += " " + describe(played[i]);
    return out;
  };
  auto check_state = [&](const std::vector<Event>& last_events) -> std::string {
    if (auto broken = viktory::check_invariants(s)) return *broken;
    if (auto e = check_tiles_exist_only_when_revealed(s); !e.empty()) return e;
    for (int viewer = viktory::kSpectator; viewer < players; ++viewer) {
      if (auto e = check_view(s, viewer); !e.empty()) return e;
      if (auto e = check_filtered_events(s, last_events, viewer); !e.empty()) return e;
      if (auto e = check_fog(s, last_events, viewer); !e.empty()) return e;
    }
    return {};
  };

  if (auto e = check_state({}); !e.empty()) return fail(e);
  while (s.phase != Phase::kGameOver && static_cast<int>(played.size()) < spec.max_actions) {
    const int who = viktory::decider(s);
    const std::vector<Action> legal = viktory::legal_actions(s, who);
    if (auto e = check_legal_actions(s, legal, who); !e.empty()) return fail(e);
    const bool fog = s.options.fog_of_war;
    const GameState world = fog ? viktory::seen_world(s, who) : GameState{};
    if (fog && viktory::legal_actions(world, who) != legal) {
      return fail("fog: the legal actions of " + std::to_string(who) +
                  " depend on units he cannot see");
    }

    Action chosen = viktory::testing::choose_action(s, legal, chooser);
    // Now and then somebody concedes, not necessarily the decider: [5.1] allows it any time.
    if (spec.concede_one_in > 0 &&
        chooser.below(static_cast<std::size_t>(spec.concede_one_in)) == 0) {
      const int p = static_cast<int>(chooser.below(static_cast<std::size_t>(players)));
      if (s.players[p].in_game()) chosen = viktory::act::concede(p);
    }

    // Illegal probes: a legal action taken by someone who is not deciding, and a legal action
    // with one field changed that legal_actions does not list.
    const Action& sample = legal[chooser.below(legal.size())];
    if (sample.kind != ActionKind::kConcede) {
      Action wrong_player = sample;
      wrong_player.player =
          static_cast<int>(chooser.below(static_cast<std::size_t>(players) + 2)) - 1;
      if (wrong_player.player == who) wrong_player.player = (who + 1) % players;
      if (auto e = check_refused(s, wrong_player, played.size() % 2 == 0); !e.empty()) {
        return fail(e);
      }
      ++tally.refused_probes;
    }
    for (int attempt = 0; attempt < 3; ++attempt) {
      const Action bad = mutate(s, legal[chooser.below(legal.size())], chooser);
      if (bad.kind == ActionKind::kConcede || listed(legal, bad)) continue;
      if (!viktory::check_action(s, bad)) {
        return fail("check_action accepts " + describe(bad) + ", which legal_actions omits");
      }
      if (fog && bad.player == who) {
        const auto here = viktory::check_action(s, bad);
        const auto there = viktory::check_action(world, bad);
        if (!there || here->code != there->code || here->message != there->message) {
          return fail("fog: the refusal of " + describe(bad) + " depends on hidden units");
        }
      }
      if (auto e = check_refused(s, bad, played.size() % 2 == 1); !e.empty()) return fail(e);
      ++tally.refused_probes;
      break;
    }

    // Apply, checking now and then that the copying apply() gives the same result.
    events.clear();
    if (played.size() % 8 == 0) {
      viktory::ApplyResult r = viktory::apply(s, chosen);
      if (auto err = viktory::apply_in_place(s, chosen, &events)) {
        return fail("chosen legal action refused: " + describe(chosen) + " -> " + err->code);
      }
      if (!r.ok() || !(r.state == s) || r.events != events) {
        return fail("apply and apply_in_place disagree on " + describe(chosen));
      }
    } else if (auto err = viktory::apply_in_place(s, chosen, &events)) {
      return fail("chosen legal action refused: " + describe(chosen) + " -> " + err->code);
    }
    played.push_back(chosen);
    all_events.insert(all_events.end(), events.begin(), events.end());
    for (const Event& e : events) {
      ++tally.events[static_cast<int>(e.kind)];
      if (e.kind == EventKind::kDiceRolled &&
          e.value == static_cast<int>(viktory::RollPurpose::kDefenderPreFire)) {
        ++tally.defender_prefire_rolls;
      }
    }
    if (s.action_count != static_cast<int>(played.size())) return fail("action_count is off");
    if (auto e = check_state(events); !e.empty()) return fail(e);
  }

  ++tally.games;
  tally.actions += static_cast<long>(played.size());
  if (s.phase == Phase::kGameOver) {
    ++tally.finished;
    ++tally.ended_by[static_cast<int>(s.ended_by)];
    if (auto e = check_game_over(s); !e.empty()) return fail(e);
  }

  // Determinism: the same seed and the same actions give the same game, event for event.
  GameState replay = viktory::new_game(spec.options, spec.seed);
  if (!(replay == start)) return "new_game differs on replay";
  std::vector<Event> replay_events;
  for (std::size_t i = 0; i < played.size(); ++i) {
    if (auto err = viktory::apply_in_place(replay, played[i], &replay_events)) {
      return "replay refused action #" + std::to_string(i + 1) + ": " + err->code;
    }
  }
  if (!(replay == s)) return "replaying the actions gives a different final state";
  if (replay_events != all_events) return "replaying the actions gives different events";
  return {};
}

struct BatchSpec {
  VictoryCondition victory;
  bool independent;
};

std::string batch_name(const ::testing::TestParamInfo<BatchSpec>& info) {
  return std::string(viktory::to_string(info.param.victory)) +
         (info.param.independent ? "_IndependentExploration" : "_SharedExploration");
}

// A random set of optional rules [15.1-15.6] for one game, each in about half the games, and
// (with `more_conditions`) now and then further victory conditions besides the batch's [5.0].
void choose_rules(Options& o, Chooser& chooser, bool more_conditions) {
  o.terrain_leveling = chooser.below(2) == 0;
  o.no_exploration = chooser.below(2) == 0;
  // Not with independent exploration: the choice itself would tell (docs/rules-notes.md).
  o.exploration_balancing = !o.independent_exploration && chooser.below(2) == 0;
  o.luck_averaging = chooser.below(2) == 0;
  o.town_relocation = chooser.below(2) == 0;
  o.subjugation = o.victory.has(VictoryCondition::kSubjugation) || chooser.below(2) == 0;
  if (!more_conditions) return;
  for (int v = 0; v < kVictoryConditions; ++v) {
    const auto condition = static_cast<VictoryCondition>(v);
    if (chooser.below(4) == 0 && (condition != VictoryCondition::kSubjugation || o.subjugation)) {
      o.victory.add(condition);
    }
  }
}

// Runs `games` games of this batch from `first_seed`, the player counts taken in turn from
// `player_counts` and, for each round of them, the next of `boards` (board_hexes; a board too
// small for 7 or 8 players becomes 217); stops after a few broken games.
Tally play_batch(const BatchSpec& batch, std::uint64_t first_seed, int games, int max_actions,
                 const std::vector<int>& player_counts, bool more_conditions,
                 const std::vector<int>& boards = {0}) {
  Tally tally;
  int broken = 0;
  for (int i = 0; i < games && broken < 3; ++i) {
    GameSpec spec;
    spec.seed = first_seed + static_cast<std::uint64_t>(i);
    spec.options.players = player_counts[static_cast<std::size_t>(i) % player_counts.size()];
    spec.options.victory = batch.victory;
    spec.options.independent_exploration = batch.independent;
    spec.options.tile_mix = static_cast<TileMix>((i / 5) % 3);
    Chooser rules(spec.seed * 31 + 7);
    choose_rules(spec.options, rules, more_conditions);
    spec.options.board_hexes =
        boards[static_cast<std::size_t>(i) / player_counts.size() % boards.size()];
    if (viktory::options_problem(spec.options)) spec.options.board_hexes = 217;
    Chooser house_rules(spec.seed * 53 + 3);  // its own draws: the games above stay the same
    spec.options.defender_prefire = house_rules.below(2) == 0;
    spec.options.redeployment = house_rules.below(2) == 0;
    spec.max_actions = max_actions;
    spec.concede_one_in = i % 7 == 3 ? 300 : 0;  // one game in seven sees concessions
    SCOPED_TRACE(describe(spec));
    const std::string problem = play_checked_game(spec, tally);
    if (!problem.empty()) {
      ADD_FAILURE() << problem;
      ++broken;
    }
  }
  return tally;
}

std::uint64_t seed_base(const BatchSpec& batch) {
  return 1'000'000ULL * (1 + static_cast<std::uint64_t>(batch.victory)) +
         (batch.independent ? 500'000ULL : 0ULL);
}

class RandomGames : public ::testing::TestWithParam<BatchSpec> {};

// 200 games per batch, 2000 in all, each cut off after 300 actions if it has not ended.
TEST_P(RandomGames, EveryActionKeepsTheInvariantsAndHidesUnknownTerrain) {
  const Tally tally =
      play_batch(GetParam(), seed_base(GetParam()), 200, 300, {2, 3, 4, 5, 6}, true);
  std::cout << "[ tally    ] " << tally.summary() << "\n";
  EXPECT_EQ(tally.games, 200);
  // The capped games must still reach every part of the combat rules [10.0-12.0, 9.4].
  EXPECT_GT(tally.count(EventKind::kBattleStarted), 0);
  EXPECT_GT(tally.count(EventKind::kBombarded), 0);
  EXPECT_GT(tally.count(EventKind::kUnitEmbarked), 0);
  EXPECT_GT(tally.count(EventKind::kUnitDisembarked), 0);
  EXPECT_GT(tally.count(EventKind::kUnitRetreated), 0);
  EXPECT_GT(tally.count(EventKind::kTownCaptured), 0);
  EXPECT_GT(tally.count(EventKind::kCityUpgraded), 0);
  // ... and of the optional rules in play [15.x].
  EXPECT_GT(tally.count(EventKind::kDiceAveraged), 0);    // [15.4]
  EXPECT_GT(tally.count(EventKind::kTownRelocated), 0);   // [15.5]
  EXPECT_GT(tally.defender_prefire_rolls, 0);             // house rule [12.3 step 0]
  EXPECT_GT(tally.count(EventKind::kUnitRedeployed), 0);  // house rule [13.0]
  if (!GetParam().independent) {
    EXPECT_GT(tally.count(EventKind::kLandDrawn), 0);  // [15.3]
    EXPECT_GT(tally.count(EventKind::kTileReplaced) + tally.count(EventKind::kWaterKept), 0);
  }
  EXPECT_GT(tally.refused_probes, tally.actions);  // one or two probes per action
}

// Fewer games with a far larger cap: most must end, by the condition they were played under
// or by everybody else's elimination [5.1] (or, under [15.6], an Alliance victory [15.66]).
// Conquering everybody [5.1] takes a random player many thousands of actions beyond two
// players, so Standard games are played by two; holding everybody else as Vassals at once
// [15.66] is as hard, so Subjugation games by two or three.
TEST_P(RandomGames, GamesPlayedToTheEndFinish) {
  const int games = 8;
  std::vector<int> player_counts{2, 3, 4, 5, 6};
  if (GetParam().victory == VictoryCondition::kStandard) player_counts = {2};
  if (GetParam().victory == VictoryCondition::kSubjugation) player_counts = {2, 3};
  const Tally tally =
      play_batch(GetParam(), seed_base(GetParam()) + 100'000, games, 20'000, player_counts, false);
  std::cout << "[ tally    ] " << tally.summary() << "\n";
  EXPECT_EQ(tally.games, games);
  if (GetParam().victory == VictoryCondition::kSubjugation) {
    // Alliances of random players break about as often as they form: half of them end.
    EXPECT_GE(tally.finished * 2, games) << "fewer than half of the games ended";
  } else {
    EXPECT_GE(tally.finished * 4, games * 3) << "fewer than 75% of the games ended";
  }
  const int by_condition = tally.ended_by[static_cast<int>(GetParam().victory)];
  EXPECT_GT(by_condition, 0) << "no game ended by " << viktory::to_string(GetParam().victory);
  if (GetParam().victory == VictoryCondition::kSubjugation) {
    // Capitals fall often enough in whole games to reach every part of [15.6].
    EXPECT_GT(tally.count(EventKind::kSubjugated), 0);      // [15.61]
    EXPECT_GT(tally.count(EventKind::kUnitWithdrawn), 0);   // [15.62]
    EXPECT_GT(tally.count(EventKind::kAllianceBroken), 0);  // [15.65]
  }
}

// Every board size [3.2] with every player count, 7 and 8 players included (docs/rules-notes.md,
// "Board sizes"): 70 games per batch, each board size with each count, cut off at 300 actions.
TEST_P(RandomGames, EveryBoardSizeWithTwoToEightPlayers) {
  const std::vector<int> boards{61, 91, 127, 169, 217, 0};
  const Tally tally = play_batch(GetParam(), seed_base(GetParam()) + 200'000, 70, 300,
                                 {2, 3, 4, 5, 6, 7, 8}, true, boards);
  std::cout << "[ tally    ] " << tally.summary() << "\n";
  EXPECT_EQ(tally.games, 70);
  EXPECT_GT(tally.count(EventKind::kBattleStarted), 0);
  EXPECT_GT(tally.count(EventKind::kTownCaptured), 0);
}

// Fog of war with random optional rules, house rules, City sights, exploration modes, victory
// conditions [5.0], every board size [3.2] and 2 to 8 players: the checks of the file comment over
// every action, the fog ones included.
TEST(FogGames, EveryActionHidesUnitsOutsideSight) {
  Tally tally;
  int broken = 0;
  const int games = 60;
  const std::vector<int> boards{0, 61, 91, 127, 169, 217};
  for (int i = 0; i < games && broken < 3; ++i) {
    GameSpec spec;
    spec.seed = 7'000'000ULL + static_cast<std::uint64_t>(i);
    spec.options.players = 2 + i % 7;
    spec.options.victory = static_cast<VictoryCondition>(i % 4);
    spec.options.independent_exploration = i % 3 == 1;
    spec.options.tile_mix = static_cast<TileMix>((i / 5) % 3);
    spec.options.fog_of_war = true;
    spec.options.fog_city_sight = 1 + i % 3;
    spec.options.board_hexes = boards[static_cast<std::size_t>(i / 7) % boards.size()];
    if (viktory::options_problem(spec.options)) spec.options.board_hexes = 217;
    Chooser rules(spec.seed * 31 + 7);
    choose_rules(spec.options, rules, true);
    Chooser house_rules(spec.seed * 53 + 3);
    spec.options.defender_prefire = house_rules.below(2) == 0;
    spec.options.redeployment = house_rules.below(2) == 0;
    spec.max_actions = i % 10 == 0 ? 3000 : 300;
    spec.concede_one_in = i % 7 == 3 ? 300 : 0;
    SCOPED_TRACE(describe(spec));
    const std::string problem = play_checked_game(spec, tally);
    if (!problem.empty()) {
      ADD_FAILURE() << problem;
      ++broken;
    }
  }
  std::cout << "[ tally    ] " << tally.summary() << "\n";
  EXPECT_EQ(tally.games, games);
  EXPECT_GT(tally.count(EventKind::kBattleStarted), 0);
  EXPECT_GT(tally.count(EventKind::kBombarded), 0);
  EXPECT_GT(tally.count(EventKind::kTownCaptured), 0);
  EXPECT_GT(tally.count(EventKind::kUnitRedeployed), 0);  // house rule [13.0]
  EXPECT_GT(tally.defender_prefire_rolls, 0);             // house rule [12.3 step 0]
  EXPECT_GT(tally.finished, 0);
}

INSTANTIATE_TEST_SUITE_P(PropertyTest, RandomGames,
                         ::testing::Values(BatchSpec{VictoryCondition::kStandard, false},
                                           BatchSpec{VictoryCondition::kStandard, true},
                                           BatchSpec{VictoryCondition::kShorter, false},
                                           BatchSpec{VictoryCondition::kShorter, true},
                                           BatchSpec{VictoryCondition::kRace, false},
                                           BatchSpec{VictoryCondition::kRace, true},
                                           BatchSpec{VictoryCondition::kDoomsday, false},
                                           BatchSpec{VictoryCondition::kDoomsday, true},
                                           BatchSpec{VictoryCondition::kSubjugation, false},
                                           BatchSpec{VictoryCondition::kSubjugation, true}),
                         batch_name);

}  // namespace
