#include "view.h"

#include <algorithm>

#include "internal.h"
#include "sight.h"

namespace viktory {

bool viewer_knows(const GameState& s, int viewer, int hex) {
  // Under independent exploration a spectator learns only what every player still in the game
  // knows, so that a player watching his own game under a second name gains nothing. Once the
  // game is over, every face-up tile.
  if (viewer == kSpectator && s.options.independent_exploration && s.phase != Phase::kGameOver &&
      !s.board().is_perimeter(hex)) {
    for (std::size_t p = 0; p < s.players.size(); ++p) {
      if (s.players[p].in_game() && !detail::knows(s, static_cast<int>(p), hex)) return false;
    }
  }
  return detail::knows(s, viewer, hex);
}

namespace {

// Fog of war: what the view may tell of units the viewer does not see (docs/rules-notes.md,
// "Fog of war"). Battles and Bombardments he takes part in stay, whatever his sight.
void apply_fog(const GameState& s, int viewer, const std::vector<bool>& seen, GameView& v) {
  auto sees = [&](int hex) { return hex < 0 || seen[static_cast<std::size_t>(hex)]; };
  for (HexView& hv : v.hexes) {
    if (sees(hv.hex)) continue;
    hv.unseen = true;
    // Per-turn facts that would hint at units he does not see; his own bit stays.
    hv.began_turn_with_land_unit &= viewer >= 0 ? detail::bit(viewer) : 0;
    hv.placed_infantry = 0;
    hv.placed_other = 0;
    hv.battle_this_turn = false;
  }
  std::erase_if(v.units, [&](const UnitView& u) {
    return u.owner != viewer && u.place == UnitPlace::kMap && !sees(u.hex);
  });
  if (v.active_unit >= 0 && std::none_of(v.units.begin(), v.units.end(), [&](const UnitView& u) {
        return u.id == v.active_unit;
      })) {
    v.active_unit = -1;
  }
  // A spectator (-1, like kNoPlayer) takes part in no Battle or Bombardment.
  auto takes_part = [&](int player) { return viewer >= 0 && player == viewer; };
  if (v.battle && !sees(v.battle->hex) && !takes_part(v.battle->attacker) &&
      !takes_part(v.battle->defender)) {
    v.battle.reset();
  }
  if (v.bombard && !sees(v.bombard->hex) && !takes_part(v.bombard->firer) &&
      !takes_part(v.bombard->target)) {
    v.bombard.reset();
  }
  // The current player's own facts (his Battles to fight, where his units came from, his
  // placed Frigates) stay his; others learn those in their sight.
  if (viewer != s.current) {
    std::erase_if(v.pending_battles, [&](int h) { return !sees(h); });
    std::erase_if(v.battle_entries, [&](const BattleEntry& e) { return !sees(e.battle_hex); });
    std::erase_if(v.placement_battles, [&](int h) { return !sees(h); });
  }
  if (viewer >= 0 && viewer < static_cast<int>(s.last_seen.size()) && s.players[viewer].in_game()) {
    for (const LastSeen& e : s.last_seen[static_cast<std::size_t>(viewer)]) {
      if (!sees(e.hex)) v.last_seen.push_back(e);
    }
  }
}

}  // namespace

GameView view_for(const GameState& s, int viewer) {
  const Board& b = s.board();
  GameView v;
  v.viewer = viewer;
  v.options = s.options;
  v.radius = s.radius;
  v.turn = s.turn;
  v.current = s.current;
  v.first_player = s.first_player;
  v.phase = s.phase;
  v.decider = decider(s);
  v.active_unit = s.active_unit;
  v.hexes.reserve(static_cast<std::size_t>(b.size()));
  for (int h = 0; h < b.size(); ++h) {
    const HexCell& c = s.hexes[h];
    HexView hv;
    hv.hex = h;
    hv.coord = b.coord(h);
    hv.label = b.label(h);
    hv.perimeter = b.is_perimeter(h);
    hv.known = viewer_knows(s, viewer, h);
    hv.terrain = hv.known ? c.terrain : Terrain::kNone;  // the only place terrain leaves
    hv.town_owner = c.town_owner;
    hv.city = c.city;
    hv.capital_of = c.capital_of;
    hv.built_this_turn = c.built_this_turn;
    hv.battle_this_turn = c.battle_this_turn;
    hv.placed_infantry = c.placed_infantry;
    hv.placed_other = c.placed_other;
    hv.began_turn_with_land_unit = c.began_turn_with_land_unit;
    v.hexes.push_back(std::move(hv));
  }
  v.players.resize(s.players.size());
  for (std::size_t p = 0; p < s.players.size(); ++p) {
    const PlayerState& ps = s.players[p];
    PlayerView& pv = v.players[p];
    pv.index = static_cast<int>(p);
    pv.eliminated = ps.eliminated;
    pv.conceded = ps.conceded;
    pv.capital_hex = ps.capital_hex;
    pv.holds_capital = detail::holds_own_capital(s, static_cast<int>(p));
    pv.doomsday_coin = ps.doomsday_coin && s.doomsday_started;
    pv.doomsday_roll = ps.doomsday_roll;
    pv.victory_points = victory_points(s, static_cast<int>(p));
    pv.ruler = ps.ruler;
    pv.reorganization = ps.reorganization;
    for (std::size_t q = 0; q < s.players.size(); ++q) {
      if (s.players[q].ruler == static_cast<int>(p)) pv.vassals.push_back(static_cast<int>(q));
    }
  }
  for (const Unit& u : s.units) {
    if (u.place == UnitPlace::kStock) continue;
    if (u.place == UnitPlace::kReserve) ++v.players[u.owner].reserve[static_cast<int>(u.type)];
    UnitView uv;
    uv.id = u.id;
    uv.owner = u.owner;
    uv.type = u.type;
    uv.place = u.place;
    uv.hex = u.hex;
    uv.carrier = u.carrier;
    uv.moves_left = u.moves_left;
    uv.move_done = u.move_done;
    uv.attacked = u.attacked;
    uv.transported = u.transported;
    uv.has_moved = u.has_moved;
    uv.carried_this_turn = u.carried_this_turn;
    uv.disembark_hex = u.disembark_hex;
    v.units.push_back(uv);
  }
  // Under independent exploration the choices would tell others (spectators too) which hexes
  // are land.
  if (!s.options.independent_exploration || viewer == s.current) {
    v.capital_choices = s.capital_choices;
  }
  v.battle = s.battle;
  v.bombard = s.bombard;
  v.elimination = s.elimination;
  v.pending_battles = pending_battles(s);
  v.turn_order = s.turn_order;
  // Exploration Balancing is not played with independent exploration (docs/rules-notes.md),
  // so the water hexes and the drawn land tile are on the shared table for all to see.
  v.balance = s.balance;
  v.relocation = s.relocation;
  v.capital_return = s.capital_return;
  v.doomsday_started = s.doomsday_started;
  v.winners = s.winners;
  v.ended_by = s.ended_by;
  v.action_count = s.action_count;
  v.battle_entries = s.entries;
  v.placement_battles = s.placement_battles;
  v.ending_turn = s.ending_turn;
  if (fog_applies(s, viewer)) apply_fog(s, viewer, sight_of(s, viewer), v);
  return v;
}

namespace {

// Fog of war: the hexes of Battles and Bombardments `viewer` takes part in during these events
// (or still pending after them): he follows those whatever his sight.
std::vector<int> fights_of(const GameState& after, const std::vector<Event>& events, int viewer) {
  std::vector<int> hexes;
  // A spectator fights no Battle. kSpectator and kNoPlayer are both -1, and a Battle the
  // attacker lost ends with no winner (player kNoPlayer): without this a spectator would
  // follow that Battle's hex and see the attacker's units retreat out of it.
  if (viewer < 0) return hexes;
  if (after.battle && (after.battle->attacker == viewer || after.battle->defender == viewer)) {
    hexes.push_back(after.battle->hex);
  }
  if (after.bombard && (after.bombard->firer == viewer || after.bombard->target == viewer)) {
    hexes.push_back(after.bombard->hex);
  }
  for (const Event& e : events) {
    switch (e.kind) {
      case EventKind::kBattleStarted:
      case EventKind::kBattleEnded:
        if (e.player == viewer || e.other_player == viewer) hexes.push_back(e.hex);
        break;
      case EventKind::kBombarded:
      case EventKind::kUnitHit:
      case EventKind::kUnitLost:
        if (e.player == viewer) hexes.push_back(e.hex);  // his bombardment, or his units hit
        break;
      default:
        break;
    }
  }
  return hexes;
}

// Drops or masks (kept = false: drop) one event for a viewer who sees `visible` hexes only.
// A unit seen leaving into the fog keeps where it came from, not where it went; one coming out
// of the fog, where it went, not where from.
template <typename Visible>
bool fog_event(Event& e, int viewer, const Visible& visible) {
  if (viewer >= 0 && e.player == viewer) return true;  // his own units and acts
  switch (e.kind) {
    case EventKind::kUnitMoved:
    case EventKind::kUnitRetreated:
    case EventKind::kUnitWithdrawn:
    case EventKind::kUnitRedeployed:     // house rule Redeployment: from_hex to hex, like a move
    case EventKind::kUnitEmbarked:       // from_hex: the land unit's hex, hex: the Frigate's
    case EventKind::kUnitDisembarked: {  // from_hex: the Frigate's hex, hex: where it landed
      const bool from = visible(e.from_hex), to = visible(e.hex);
      if (!from && !to) return false;
      if ((e.kind == EventKind::kUnitEmbarked && !to) ||
          (e.kind == EventKind::kUnitDisembarked && !from)) {
        e.other_unit = -1;  // the Frigate stands in the fog
      }
      if (!from) e.from_hex = -1;
      if (!to) e.hex = -1;
      return true;
    }
    case EventKind::kBombarded: {  // seen firing into the fog, or fired on from it
      const bool from = visible(e.from_hex), to = visible(e.hex);
      if (!from && !to) return false;
      if (!from) {
        e.from_hex = -1;
        e.unit = -1;
      }
      if (!to) e.hex = -1;
      return true;
    }
    case EventKind::kDiceRolled:
      return e.value == static_cast<int>(RollPurpose::kDoomsday) || visible(e.hex);
    case EventKind::kDiceAveraged:
    case EventKind::kBattleStarted:
    case EventKind::kBattleEnded:
    case EventKind::kUnitHit:
    case EventKind::kUnitLost:
    case EventKind::kUnitPlaced:
      return visible(e.hex);
    case EventKind::kUnitEliminated:  // [10.2] the type is public (what the Town supported)
      if (!visible(e.hex)) {
        e.unit = -1;
        e.hex = -1;
      }
      return true;
    case EventKind::kTileRevealed:
    case EventKind::kTileReplaced:
      // Fog hides units, not the map: the tile is turned over for all to see, but not who
      // turned it (that would tell where his unit stands).
      if (!visible(e.hex)) e.player = kNoPlayer;
      return true;
    default:
      return true;  // turns, phases, buildings, Capitals, players, alliances: public
  }
}

}  // namespace

std::vector<Event> filter_events_for(const GameState& after, const std::vector<Event>& events,
                                     int viewer) {
  std::vector<Event> out = events;
  for (Event& e : out) {
    e.draw = -1;  // the record's alone: the count of draws would tell of what he cannot see
    if ((e.kind == EventKind::kTileRevealed || e.kind == EventKind::kTileReplaced) &&
        !viewer_knows(after, viewer, e.hex)) {
      e.terrain = Terrain::kNone;  // he learns that someone explored, not what was found
    }
  }
  if (!fog_applies(after, viewer)) return out;
  const std::vector<bool> seen = sight_of(after, viewer);
  const std::vector<int> fights = fights_of(after, events, viewer);
  auto visible = [&](int hex) {
    return hex < 0 || seen[static_cast<std::size_t>(hex)] ||
           std::find(fights.begin(), fights.end(), hex) != fights.end();
  };
  std::erase_if(out, [&](Event& e) { return !fog_event(e, viewer, visible); });
  return out;
}

}  // namespace viktory
