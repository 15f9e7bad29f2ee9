#include "view.h"

#include "internal.h"

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
  return v;
}

std::vector<Event> filter_events_for(const GameState& after, const std::vector<Event>& events,
                                     int viewer) {
  std::vector<Event> out = events;
  for (Event& e : out) {
    if ((e.kind == EventKind::kTileRevealed || e.kind == EventKind::kTileReplaced) &&
        !viewer_knows(after, viewer, e.hex)) {
      e.terrain = Terrain::kNone;  // he learns that someone explored, not what was found
    }
  }
  return out;
}

}  // namespace viktory
