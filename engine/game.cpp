// The engine's entry points: new games, who decides, checking and applying actions, scores.
// The shared helpers live in knowledge.cpp, chance.cpp and pieces.cpp, the flow of turns in
// turn_flow.cpp (declared in internal.h).
#include "game.h"

#include <algorithm>
#include <stdexcept>

#include "internal.h"
#include "sight.h"
#include "tiles.h"

namespace viktory {

using namespace detail;

std::optional<std::string> options_problem(const Options& o) {
  if (o.players < 2 || o.players > kMaxPlayers) return "a game has 2 to 8 players";
  const int radius = board_radius_for(o.players, o.board_hexes);
  if (radius < 0) {
    return "the board has 61, 91, 127, 169 or 217 hexes (or 0: the rules' size for the player "
           "count) [3.2]";
  }
  if (o.players > 6 && radius < 7) {
    // Eight start areas on a smaller ring would almost touch (docs/rules-notes.md).
    return "7 or 8 players need a board of 169 or 217 hexes";
  }
  if (o.victory.bits() == 0 || (o.victory.bits() >> kVictoryConditions) != 0) {
    return "choose at least one victory condition [5.0]";
  }
  if (o.victory.has(VictoryCondition::kSubjugation) && !o.subjugation) {
    return "Subjugation Conquest [5.2] needs the Subjugation rules [15.6]";
  }
  if (o.independent_exploration && o.exploration_balancing) {
    // The Exploration Balancing decision itself would tell the others that at least two
    // water hexes came up where they cannot see (docs/rules-notes.md).
    return "Exploration Balancing [15.3] cannot be combined with independent exploration";
  }
  if (o.fog_city_sight < kMinFogCitySight || o.fog_city_sight > kMaxFogCitySight) {
    return "a City sees 1 to 3 hexes far under fog of war (fog_city_sight)";
  }
  return std::nullopt;
}

Options normalized(Options o) {
  if (o.victory.has(VictoryCondition::kSubjugation)) o.subjugation = true;  // [5.2] -> [15.6]
  // The City sight means nothing without fog of war: one value, so equal games compare equal.
  if (!o.fog_of_war) o.fog_city_sight = kDefaultFogCitySight;
  return o;
}

GameState new_game(const Options& options, std::uint64_t seed) {
  return new_game(options, seed, RandomScheme::kSingleStream);
}

GameState new_game(const Options& requested, std::uint64_t seed, RandomScheme scheme,
                   SetupDraws* drawn) {
  const Options options = normalized(requested);
  if (auto problem = options_problem(options)) throw std::invalid_argument(*problem);
  GameState s;
  s.options = options;
  s.radius = board_radius_for(options.players, options.board_hexes);  // [3.2]
  const Board& b = s.board();
  s.hexes.assign(static_cast<std::size_t>(b.size()), HexCell{});
  int interior = 0;
  for (int h = 0; h < b.size(); ++h) {
    if (b.is_perimeter(h)) {
      s.hexes[h].terrain = Terrain::kWater;
      s.hexes[h].revealed = true;
      s.hexes[h].known_by = everyone_mask(options.players);
    } else {
      ++interior;
    }
  }
  s.tile_bank = tile_bank_for(options.tile_mix, interior);
  s.players.assign(static_cast<std::size_t>(options.players), PlayerState{});
  s.turn_order.resize(static_cast<std::size_t>(options.players));
  for (int p = 0; p < options.players; ++p) s.turn_order[static_cast<std::size_t>(p)] = p;
  s.random_scheme = scheme;
  if (scheme == RandomScheme::kStreams) {
    s.streams.seed = seed;
  } else {
    s.rng = Rng(seed);
  }
  // Everything drawn from here to the end of new_game is the setup stream's (scheme 2), in
  // this order (docs/fair-play.md, "The order of draws").
  s.drawing_setup = true;
  // [15.2] Random seating and start corners; drawn only under this rule, so that games
  // without it use the generator exactly as before.
  if (options.no_exploration) draw_seating(s);
  const std::int64_t first_player_draw = next_draw(s, RandomStream::kSetup);
  s.first_player = static_cast<int>(
      draw_below(s, RandomStream::kSetup, static_cast<std::uint64_t>(options.players)));
  Events laid;
  if (options.no_exploration) detail::lay_map_face_up(s, &laid);  // [15.2]
  Events setup_events;
  begin_setup(s, s.first_player, setup_events);  // [4.0 step 2] his start hexes
  s.drawing_setup = false;
  update_last_seen(s);  // fog of war: one (empty) memory per player
  if (drawn) {
    drawn->first_player_draw = first_player_draw;
    drawn->tiles = std::move(laid);
    for (const Event& e : setup_events) {
      if (e.kind == EventKind::kTileRevealed) drawn->tiles.push_back(e);
    }
  }
  return s;
}

int decider(const GameState& s) {
  if (s.phase == Phase::kGameOver) return kNoPlayer;
  if (s.elimination) return s.elimination->player;
  if (s.bombard) return s.bombard->picks_by_firer > 0 ? s.bombard->firer : s.bombard->target;
  if (s.battle) {
    const Battle& b = *s.battle;
    switch (b.stage) {
      case BattleStage::kAssignPreFire:
      case BattleStage::kAssignAttackerFire:
        return b.picks_by_firer > 0 ? b.attacker : b.defender;
      case BattleStage::kAssignDefenderFire:
      case BattleStage::kAssignDefenderPreFire:
        return b.picks_by_firer > 0 ? b.defender : b.attacker;
      case BattleStage::kRetreatOption:
      case BattleStage::kRetreating:
      case BattleStage::kAverageAttackerFire:
        return b.attacker;
      case BattleStage::kAverageDefenderFire:
        return b.defender;
    }
  }
  if (s.balance) return s.balance->player;
  if (s.capital_return) {
    return s.capital_return->stage == ReturnStage::kReinforce ? s.capital_return->vassal
                                                              : s.capital_return->ruler;
  }
  if (s.relocation) return s.relocation->player;
  return s.current;
}

namespace {

std::string_view phase_words(Phase p) {
  switch (p) {
    case Phase::kSetup:
      return "the setup";
    case Phase::kBuild:
      return "the Building Phase";
    case Phase::kMovement:
      return "the Movement & Combat Phase";
    case Phase::kReserve:
      return "the Reserve Placement Phase";
    case Phase::kGameOver:
      return "a finished game";
  }
  return "this phase";
}

Check wrong_phase(const GameState& s, const Action& a) {
  // Built in steps: g++ 12 reports a false -Wrestrict on one long chain of + here.
  std::string message = "'";
  message += to_string(a.kind);
  message += "' is not possible during ";
  message += phase_words(s.phase);
  message += " [6.0].";
  return error("wrong_phase", std::move(message));
}

}  // namespace

std::optional<ActionError> check_action(const GameState& s, const Action& a) {
  if (s.phase == Phase::kGameOver) {
    if (legacy_action_after_concession(s, a)) return std::nullopt;
    return error("game_over", "The game is over.");
  }
  if (a.player < 0 || a.player >= static_cast<int>(s.players.size())) {
    return error("bad_player", "No such player in this game.");
  }
  if (!s.players[a.player].in_game()) {
    return error("not_in_game", "You are no longer in this game.");
  }
  if (a.kind == ActionKind::kConcede) return std::nullopt;  // [5.1] at any time
  if (a.player != decider(s)) {
    return error("not_your_decision", "It is not your decision now; player " +
                                          std::to_string(decider(s)) + " must act.");
  }
  auto only = [&](std::initializer_list<ActionKind> kinds, const char* what) -> Check {
    if (std::find(kinds.begin(), kinds.end(), a.kind) == kinds.end()) {
      return error("decision_pending", std::string("First ") + what + ".");
    }
    return std::nullopt;
  };
  if (s.elimination) {
    if (auto e = only({ActionKind::kEliminateUnit}, "choose the units to eliminate [10.2]"))
      return e;
    return check_eliminate(s, a);
  }
  if (s.bombard || (s.battle && (s.battle->stage == BattleStage::kAssignPreFire ||
                                 s.battle->stage == BattleStage::kAssignAttackerFire ||
                                 s.battle->stage == BattleStage::kAssignDefenderFire ||
                                 s.battle->stage == BattleStage::kAssignDefenderPreFire))) {
    if (auto e = only({ActionKind::kChooseCasualty}, "choose who takes the hits [10.1]")) return e;
    return check_choose_casualty(s, a);
  }
  if (s.battle && (s.battle->stage == BattleStage::kAverageAttackerFire ||
                   s.battle->stage == BattleStage::kAverageDefenderFire)) {
    if (auto e =
            only({ActionKind::kAverageDice}, "decide how many pairs of dice to average [15.4]")) {
      return e;
    }
    return check_average_dice(s, a);
  }
  if (s.battle) {
    if (auto e = only({ActionKind::kRetreat, ActionKind::kContinueBattle},
                      "decide whether to retreat or fight on [12.3]")) {
      return e;
    }
    return a.kind == ActionKind::kRetreat ? check_retreat(s, a) : check_continue_battle(s, a);
  }
  if (s.balance) {
    if (auto e = only({ActionKind::kReplaceWater, ActionKind::kKeepWater},
                      "decide which water hex the land tile replaces, or keep the water [15.3]")) {
      return e;
    }
    return a.kind == ActionKind::kReplaceWater ? check_replace_water(s, a) : std::nullopt;
  }
  if (s.capital_return) {
    if (s.capital_return->stage == ReturnStage::kWithdraw) {
      if (auto e = only({ActionKind::kWithdraw},
                        "move your units out of your new Vassal's Capital [15.62]")) {
        return e;
      }
      return check_withdraw(s, a);
    }
    if (auto e = only({ActionKind::kPlaceReserve, ActionKind::kEndPhase},
                      "reinforce your Capital, or end the reinforcement [15.62]")) {
      return e;
    }
    return a.kind == ActionKind::kPlaceReserve ? check_reinforcement(s, a) : std::nullopt;
  }
  if (s.relocation) {
    if (auto e = only({ActionKind::kRebuildTown},
                      "rebuild the removed Town or City next to where it stood [15.5]")) {
      return e;
    }
    return check_rebuild_town(s, a);
  }
  switch (a.kind) {
    case ActionKind::kPlaceCapital:
      return s.phase == Phase::kSetup ? check_place_capital(s, a) : wrong_phase(s, a);
    case ActionKind::kBuildTown:
      return s.phase == Phase::kBuild ? check_build_town(s, a) : wrong_phase(s, a);
    case ActionKind::kUpgradeCity:
      return s.phase == Phase::kBuild ? check_upgrade_city(s, a) : wrong_phase(s, a);
    case ActionKind::kEndPhase:
      return check_end_phase(s, a);
    case ActionKind::kMove:
      return s.phase == Phase::kMovement ? check_move(s, a) : wrong_phase(s, a);
    case ActionKind::kEmbark:
      return s.phase == Phase::kMovement ? check_embark(s, a) : wrong_phase(s, a);
    case ActionKind::kDisembark:
      return s.phase == Phase::kMovement ? check_disembark(s, a) : wrong_phase(s, a);
    case ActionKind::kBombard:
      return s.phase == Phase::kMovement ? check_bombard(s, a) : wrong_phase(s, a);
    case ActionKind::kStartBattle:
      return s.phase == Phase::kMovement ? check_start_battle(s, a) : wrong_phase(s, a);
    case ActionKind::kPlaceReserve:
      return s.phase == Phase::kReserve ? check_place_reserve(s, a) : wrong_phase(s, a);
    case ActionKind::kChooseCasualty:
      return error("no_hits_pending", "There are no hits to assign now.");
    case ActionKind::kRetreat:
    case ActionKind::kContinueBattle:
      return error("no_battle", "No Battle is waiting for a retreat decision.");
    case ActionKind::kEliminateUnit:
      return error("no_elimination", "No units are owed for a lost Town or City.");
    case ActionKind::kReplaceWater:
    case ActionKind::kKeepWater:
      return error("no_balancing", "No Exploration Balancing choice is open [15.3].");
    case ActionKind::kAverageDice:
      return error("no_averaging", "No Fire Round is waiting for a Luck Averaging choice [15.4].");
    case ActionKind::kRemoveTown:
      return s.phase == Phase::kBuild ? check_remove_town(s, a) : wrong_phase(s, a);
    case ActionKind::kRebuildTown:
      return error("no_relocation", "No Town or City is waiting to be rebuilt [15.5].");
    case ActionKind::kWithdraw:
      return error("no_withdrawal", "No Capital is being returned to a Vassal [15.62].");
    case ActionKind::kRedeploy:
      return s.phase == Phase::kReserve ? check_redeploy(s, a) : wrong_phase(s, a);
    case ActionKind::kConcede:
      break;
  }
  return error("unknown_action", "Unknown action.");
}

std::optional<ActionError> apply_in_place(GameState& s, const Action& a, std::vector<Event>* out) {
  if (auto e = check_action(s, a)) return e;
  Events ev;
  if (s.phase == Phase::kGameOver) {  // an old log's action after the end: changes nothing
    ++s.action_count;
    return std::nullopt;
  }
  if (a.kind == ActionKind::kConcede) {
    do_concede(s, a.player, ev);
  } else {
    switch (a.kind) {
      case ActionKind::kPlaceCapital:
        do_place_capital(s, a, ev);
        break;
      case ActionKind::kBuildTown:
        do_build_town(s, a, ev);
        break;
      case ActionKind::kUpgradeCity:
        do_upgrade_city(s, a, ev);
        break;
      case ActionKind::kEndPhase:
        if (s.capital_return) {
          end_reinforcement(s, ev);
        } else {
          do_end_phase(s, ev);
        }
        break;
      case ActionKind::kMove:
        do_move(s, a, ev);
        break;
      case ActionKind::kEmbark:
        do_embark(s, a, ev);
        break;
      case ActionKind::kDisembark:
        do_disembark(s, a, ev);
        break;
      case ActionKind::kBombard:
        do_bombard(s, a, ev);
        break;
      case ActionKind::kStartBattle:
        do_start_battle(s, a, ev);
        break;
      case ActionKind::kChooseCasualty:
        do_choose_casualty(s, a, ev);
        break;
      case ActionKind::kRetreat:
        do_retreat(s, a, ev);
        break;
      case ActionKind::kContinueBattle:
        do_continue_battle(s, a, ev);
        break;
      case ActionKind::kEliminateUnit:
        do_eliminate(s, a, ev);
        break;
      case ActionKind::kPlaceReserve:
        if (s.capital_return) {
          do_reinforce(s, a, ev);
        } else {
          do_place_reserve(s, a, ev);
        }
        break;
      case ActionKind::kReplaceWater:
        do_replace_water(s, a, ev);
        break;
      case ActionKind::kKeepWater:
        do_keep_water(s, a, ev);
        break;
      case ActionKind::kAverageDice:
        do_average_dice(s, a, ev);
        break;
      case ActionKind::kRemoveTown:
        do_remove_town(s, a, ev);
        break;
      case ActionKind::kRebuildTown:
        do_rebuild_town(s, a, ev);
        break;
      case ActionKind::kWithdraw:
        do_withdraw(s, a, ev);
        break;
      case ActionKind::kRedeploy:
        do_redeploy(s, a, ev);
        break;
      case ActionKind::kConcede:
        break;
    }
  }
  settle(s, ev);
  update_last_seen(s);  // fog of war: what each player saw after this action
  ++s.action_count;
  if (out) out->insert(out->end(), ev.begin(), ev.end());
  return std::nullopt;
}

ApplyResult apply(const GameState& state, const Action& action) {
  ApplyResult r{state, {}, std::nullopt};
  r.error = apply_in_place(r.state, action, &r.events);
  return r;
}

bool seals_turn(const std::vector<Event>& events) {
  return std::any_of(events.begin(), events.end(), [](const Event& e) {
    return e.kind == EventKind::kTileRevealed || e.kind == EventKind::kDiceRolled;
  });
}

int victory_points(const GameState& s, int player) {
  int vp = 0;
  for (const HexCell& c : s.hexes) {
    if (c.town_owner == player) vp += c.city ? 2 : 1;
  }
  return vp;
}

std::vector<int> pending_battles(const GameState& s) {
  std::vector<int> out;
  if (s.phase != Phase::kMovement) return out;
  for (const Unit& u : s.units) {
    if (u.place != UnitPlace::kMap || u.carrier >= 0 || u.owner != s.current) continue;
    // A Ruler's unit passing over his Vassal's pieces attacks them if it stops there
    // [15.64]: start_battle (or stopping it by acting with another unit) does that. A unit
    // that is not moving has stopped: one that had moved in to attack a player who became its
    // owner's Vassal before that Battle was fought (his Capital fell in another Battle) still
    // owes it, "an immediate Battle ensues" [15.64] (docs/rules-notes.md).
    const int ally = allied_owner_at(s, u.owner, u.hex);
    const bool on_own_vassal = ally != kNoPlayer && s.players[ally].ruler == u.owner;
    const bool stopping_on_vassal =
        u.id == s.active_unit ? may_attack_ally_at(s, u.owner, u.hex) : on_own_vassal;
    if (!hostile_hex(s, s.current, u.hex) && !stopping_on_vassal) continue;
    if (std::find(out.begin(), out.end(), u.hex) == out.end()) out.push_back(u.hex);
  }
  if (s.battle) out.erase(std::remove(out.begin(), out.end(), s.battle->hex), out.end());
  if (s.capital_return) {  // the Ruler's units are leaving that Capital [15.62]
    out.erase(std::remove(out.begin(), out.end(), s.capital_return->hex), out.end());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace viktory
