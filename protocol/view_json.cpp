// JSON form of a view: what one viewer may know. No generator, no tile bank, no unknown
// terrain. See protocol/json.h.
#include "json.h"
#include "json_detail.h"

namespace viktory::protocol {

using namespace detail;

json hex_view_to_json(const HexView& h) {
  // The hex's coordinates, label and perimeter never change during a game: they are in the
  // board (protocol/board.h), sent once, not in every view and delta.
  json out = {{"hex", h.hex},
              {"known", h.known},
              {"city", h.city},
              {"built_this_turn", h.built_this_turn},
              {"battle_this_turn", h.battle_this_turn},
              {"placed_infantry", h.placed_infantry},
              {"placed_other", h.placed_other},
              {"began_turn_with_land_unit", h.began_turn_with_land_unit}};
  // The key is absent, not null, for a hex whose terrain the viewer does not know.
  if (h.known && h.terrain != Terrain::kNone) out["terrain"] = to_string(h.terrain);
  if (h.town_owner != kNoPlayer) out["town_owner"] = h.town_owner;
  if (h.capital_of != kNoPlayer) out["capital_of"] = h.capital_of;
  return out;
}

json unit_view_to_json(const UnitView& u) {
  return {{"id", u.id},
          {"owner", u.owner},
          {"type", to_string(u.type)},
          {"place", unit_place_name(u.place)},
          {"hex", u.hex},
          {"carrier", u.carrier},
          {"moves_left", u.moves_left},
          {"move_done", u.move_done},
          {"attacked", u.attacked},
          {"transported", u.transported},
          {"has_moved", u.has_moved},
          {"carried_this_turn", u.carried_this_turn},
          {"disembark_hex", u.disembark_hex}};
}

namespace {
json reserve_to_json(const std::array<int, kUnitTypes>& reserve) {
  json out = json::object();
  for (int i = 0; i < kUnitTypes; ++i) {
    out[std::string(to_string(static_cast<UnitType>(i)))] = reserve[static_cast<std::size_t>(i)];
  }
  return out;
}
}  // namespace

json player_view_to_json(const PlayerView& p) {
  json out{{"index", p.index},
           {"eliminated", p.eliminated},
           {"conceded", p.conceded},
           {"capital_hex", p.capital_hex},
           {"holds_capital", p.holds_capital},
           {"doomsday_coin", p.doomsday_coin},
           {"victory_points", p.victory_points},
           {"reserve", reserve_to_json(p.reserve)},
           {"ruler", p.ruler},
           {"vassals", p.vassals},
           {"reorganization", reorganization_name(p.reorganization)}};
  // [5.5] Only once he has rolled for the Doomsday Clock (most games never do).
  if (p.doomsday_roll != 0) out["doomsday_roll"] = p.doomsday_roll;
  return out;
}

json view_to_json(const GameView& v) {
  json hexes = json::array();
  for (const HexView& h : v.hexes) hexes.push_back(hex_view_to_json(h));
  json units = json::array();
  for (const UnitView& u : v.units) units.push_back(unit_view_to_json(u));
  json players = json::array();
  for (const PlayerView& p : v.players) players.push_back(player_view_to_json(p));

  json out = {{"viewer", v.viewer},
              {"options", options_to_json(v.options)},
              {"radius", v.radius},
              {"turn", v.turn},
              {"current", v.current},
              {"first_player", v.first_player},
              {"phase", to_string(v.phase)},
              {"decider", v.decider},
              {"active_unit", v.active_unit},
              {"hexes", hexes},
              {"units", units},
              {"players", players},
              {"capital_choices", v.capital_choices},
              {"pending_battles", v.pending_battles},
              {"turn_order", v.turn_order},
              {"doomsday_started", v.doomsday_started},
              {"winners", v.winners},
              {"ended_by", to_string(v.ended_by)},
              {"action_count", v.action_count}};
  json entries = json::array();
  for (const BattleEntry& e : v.battle_entries) entries.push_back(entry_to_json(e));
  out["battle_entries"] = entries;
  out["placement_battles"] = v.placement_battles;
  out["ending_turn"] = v.ending_turn;
  if (v.battle) out["battle"] = battle_to_json(*v.battle);
  if (v.bombard) out["bombard"] = bombard_to_json(*v.bombard);
  if (v.elimination) out["elimination"] = elimination_to_json(*v.elimination);
  if (v.balance) out["exploration_choice"] = balance_to_json(*v.balance);
  if (v.relocation) out["relocation"] = relocation_to_json(*v.relocation);
  if (v.capital_return) out["capital_return"] = capital_return_to_json(*v.capital_return);
  return out;
}

}  // namespace viktory::protocol
