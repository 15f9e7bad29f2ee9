// The one writer of a view's shape and of its deltas (protocol/view_text.h). A field added to
// a view part is added here, once: live updates, replays, the scenario tool and the tree forms
// of tests all take it from here. Every object's keys are written in byte order, the order in
// which nlohmann (std::map) dumps them, so that the text is exactly the dump of its own parsed
// tree (what the messages always were); tests/protocol/view_text_test.cpp holds it to that.
#include "view_text.h"

#include <algorithm>
#include <array>

#include "json.h"
#include "json_detail.h"
#include "json_writer.h"

namespace viktory::protocol {
namespace {

using detail::battle_stage_name;
using detail::reorganization_name;
using detail::return_stage_name;
using detail::unit_place_name;

// ------------------------------------------------------------------ parts of the view

void write_options(JsonWriter& w, const Options& o) {
  w.begin_object();
  w.key("exploration_balancing");
  w.value(o.exploration_balancing);
  if (o.fog_of_war) {  // absent when off: views of games without fog stay as they were
    w.key("fog_city_sight");
    w.value(o.fog_city_sight);
    w.key("fog_of_war");
    w.value(true);
  }
  w.key("independent_exploration");
  w.value(o.independent_exploration);
  w.key("luck_averaging");
  w.value(o.luck_averaging);
  w.key("no_exploration");
  w.value(o.no_exploration);
  w.key("players");
  w.value(o.players);
  w.key("subjugation");
  w.value(o.subjugation);
  w.key("terrain_leveling");
  w.value(o.terrain_leveling);
  w.key("tile_mix");
  w.value(to_string(o.tile_mix));
  w.key("town_relocation");
  w.value(o.town_relocation);
  w.key("victory");
  // One condition as a string, several as a list (detail::victory_set_to_json).
  const auto victories = o.victory.list();
  if (victories.size() == 1) {
    w.value(to_string(victories.front()));
  } else {
    w.begin_array();
    for (VictoryCondition v : victories) w.value(to_string(v));
    w.end_array();
  }
  w.end_object();
}

// Without the coordinates, label and perimeter: those are in the board (protocol/board.h).
void write_hex(JsonWriter& w, const HexView& h) {
  w.begin_object();
  w.key("battle_this_turn");
  w.value(h.battle_this_turn);
  w.key("began_turn_with_land_unit");
  w.value(h.began_turn_with_land_unit);
  w.key("built_this_turn");
  w.value(h.built_this_turn);
  if (h.capital_of != kNoPlayer) {
    w.key("capital_of");
    w.value(h.capital_of);
  }
  w.key("city");
  w.value(h.city);
  w.key("hex");
  w.value(h.hex);
  w.key("known");
  w.value(h.known);
  w.key("placed_infantry");
  w.value(h.placed_infantry);
  w.key("placed_other");
  w.value(h.placed_other);
  // Absent, not null, for a hex whose terrain the viewer does not know.
  if (h.known && h.terrain != Terrain::kNone) {
    w.key("terrain");
    w.value(to_string(h.terrain));
  }
  if (h.town_owner != kNoPlayer) {
    w.key("town_owner");
    w.value(h.town_owner);
  }
  if (h.unseen) {  // fog of war only: outside the viewer's sight
    w.key("unseen");
    w.value(true);
  }
  w.end_object();
}

void write_unit(JsonWriter& w, const UnitView& u) {
  w.begin_object();
  w.key("attacked");
  w.value(u.attacked);
  w.key("carried_this_turn");
  w.value(u.carried_this_turn);
  w.key("carrier");
  w.value(u.carrier);
  w.key("disembark_hex");
  w.value(u.disembark_hex);
  w.key("has_moved");
  w.value(u.has_moved);
  w.key("hex");
  w.value(u.hex);
  w.key("id");
  w.value(u.id);
  w.key("move_done");
  w.value(u.move_done);
  w.key("moves_left");
  w.value(u.moves_left);
  w.key("owner");
  w.value(u.owner);
  w.key("place");
  w.value(unit_place_name(u.place));
  w.key("transported");
  w.value(u.transported);
  w.key("type");
  w.value(to_string(u.type));
  w.end_object();
}

// The unit types in the byte order of their names: the order of the "reserve" object's keys.
const std::array<UnitType, kUnitTypes>& unit_types_by_name() {
  static const std::array<UnitType, kUnitTypes> order = [] {
    std::array<UnitType, kUnitTypes> types{};
    for (int i = 0; i < kUnitTypes; ++i)
      types[static_cast<std::size_t>(i)] = static_cast<UnitType>(i);
    std::sort(types.begin(), types.end(),
              [](UnitType a, UnitType b) { return to_string(a) < to_string(b); });
    return types;
  }();
  return order;
}

void write_player(JsonWriter& w, const PlayerView& p) {
  w.begin_object();
  w.key("capital_hex");
  w.value(p.capital_hex);
  w.key("conceded");
  w.value(p.conceded);
  w.key("doomsday_coin");
  w.value(p.doomsday_coin);
  if (p.doomsday_roll != 0) {  // [5.5] only once he has rolled (most games never do)
    w.key("doomsday_roll");
    w.value(p.doomsday_roll);
  }
  w.key("eliminated");
  w.value(p.eliminated);
  w.key("holds_capital");
  w.value(p.holds_capital);
  w.key("index");
  w.value(p.index);
  w.key("reorganization");
  w.value(reorganization_name(p.reorganization));
  w.key("reserve");
  w.begin_object();
  for (UnitType t : unit_types_by_name()) {
    w.key(to_string(t));
    w.value(p.reserve[static_cast<std::size_t>(t)]);
  }
  w.end_object();
  w.key("ruler");
  w.value(p.ruler);
  w.key("vassals");
  w.value(p.vassals);
  w.key("victory_points");
  w.value(p.victory_points);
  w.end_object();
}

void write_battle(JsonWriter& w, const Battle& b) {
  w.begin_object();
  w.key("attacker");
  w.value(b.attacker);
  w.key("attacker_dice");
  w.value(b.attacker_dice);
  w.key("attacker_pairs");
  w.value(b.attacker_pairs);
  w.key("defender");
  w.value(b.defender);
  w.key("defender_dice");
  w.value(b.defender_dice);
  w.key("defender_pairs");
  w.value(b.defender_pairs);
  w.key("dice_due");
  w.value(b.dice_due);
  w.key("hex");
  w.value(b.hex);
  w.key("marked");
  w.value(b.marked);
  w.key("naval");
  w.value(b.naval);
  w.key("picks_by_firer");
  w.value(b.picks_by_firer);
  w.key("picks_by_target");
  w.value(b.picks_by_target);
  w.key("placement");
  w.value(b.placement);
  w.key("round");
  w.value(b.round);
  w.key("stage");
  w.value(battle_stage_name(b.stage));
  w.key("suppression");
  w.value(b.suppression);
  w.end_object();
}

void write_bombard(JsonWriter& w, const PendingBombard& b) {
  w.begin_object();
  w.key("firer");
  w.value(b.firer);
  w.key("hex");
  w.value(b.hex);
  w.key("picks_by_firer");
  w.value(b.picks_by_firer);
  w.key("picks_by_target");
  w.value(b.picks_by_target);
  w.key("target");
  w.value(b.target);
  w.end_object();
}

void write_elimination(JsonWriter& w, const PendingElimination& e) {
  w.begin_object();
  w.key("owed");
  w.begin_array();
  for (UnitType t : e.owed) w.value(to_string(t));
  w.end_array();
  w.key("player");
  w.value(e.player);
  w.end_object();
}

void write_balance(JsonWriter& w, const PendingBalance& b) {
  w.begin_object();
  w.key("land");
  w.value(to_string(b.land));
  w.key("player");
  w.value(b.player);
  w.key("water");
  w.value(b.water);
  w.end_object();
}

void write_relocation(JsonWriter& w, const PendingRelocation& r) {
  w.begin_object();
  w.key("city");
  w.value(r.city);
  w.key("from_hex");
  w.value(r.from_hex);
  w.key("player");
  w.value(r.player);
  w.end_object();
}

void write_capital_return(JsonWriter& w, const CapitalReturn& r) {
  w.begin_object();
  w.key("hex");
  w.value(r.hex);
  w.key("naval_battles");
  w.value(r.naval_battles);
  w.key("ruler");
  w.value(r.ruler);
  w.key("stage");
  w.value(return_stage_name(r.stage));
  w.key("vassal");
  w.value(r.vassal);
  w.end_object();
}

void write_entries(JsonWriter& w, const std::vector<BattleEntry>& entries) {
  w.begin_array();
  for (const BattleEntry& e : entries) {
    w.begin_object();
    w.key("battle_hex");
    w.value(e.battle_hex);
    w.key("from_hex");
    w.value(e.from_hex);
    w.end_object();
  }
  w.end_array();
}

// Fog of war: {"hex", "owner", "turn", "units": {type: count}} with zero counts left out.
void write_last_seen(JsonWriter& w, const LastSeen& e) {
  w.begin_object();
  w.key("hex");
  w.value(e.hex);
  w.key("owner");
  w.value(e.owner);
  w.key("turn");
  w.value(e.turn);
  w.key("units");
  w.begin_object();
  for (UnitType t : unit_types_by_name()) {
    const int n = e.units[static_cast<std::size_t>(t)];
    if (n == 0) continue;
    w.key(to_string(t));
    w.value(n);
  }
  w.end_object();
  w.end_object();
}

template <typename Item>
void write_all(JsonWriter& w, const std::vector<Item>& items,
               void (*write)(JsonWriter&, const Item&)) {
  w.begin_array();
  for (const Item& item : items) write(w, item);
  w.end_array();
}

// ------------------------------------------------------------------ top-level fields

// A top-level key of the view, in byte order (the order of the keys of a dumped tree).
// `present` is null for the keys that are always there; the collections are only in whole
// views (deltas send their changed entries separately).
struct TopField {
  std::string_view key;
  bool (*present)(const GameView&);
  void (*write)(JsonWriter&, const GameView&);
  bool collection = false;
};

// Captureless lambdas, so that the table is a constant array of function pointers.
#define VIKTORY_WRITE(expression) [](JsonWriter& w, const GameView& v) { expression; }
#define VIKTORY_HAS(member) [](const GameView& v) { return v.member.has_value(); }

const TopField kTopFields[] = {
    {"action_count", nullptr, VIKTORY_WRITE(w.value(v.action_count))},
    {"active_unit", nullptr, VIKTORY_WRITE(w.value(v.active_unit))},
    {"battle", VIKTORY_HAS(battle), VIKTORY_WRITE(write_battle(w, *v.battle))},
    {"battle_entries", nullptr, VIKTORY_WRITE(write_entries(w, v.battle_entries))},
    {"bombard", VIKTORY_HAS(bombard), VIKTORY_WRITE(write_bombard(w, *v.bombard))},
    {"capital_choices", nullptr, VIKTORY_WRITE(w.value(v.capital_choices))},
    {"capital_return", VIKTORY_HAS(capital_return),
     VIKTORY_WRITE(write_capital_return(w, *v.capital_return))},
    {"current", nullptr, VIKTORY_WRITE(w.value(v.current))},
    {"decider", nullptr, VIKTORY_WRITE(w.value(v.decider))},
    {"doomsday_started", nullptr, VIKTORY_WRITE(w.value(v.doomsday_started))},
    {"elimination", VIKTORY_HAS(elimination), VIKTORY_WRITE(write_elimination(w, *v.elimination))},
    {"ended_by", nullptr, VIKTORY_WRITE(w.value(to_string(v.ended_by)))},
    {"ending_turn", nullptr, VIKTORY_WRITE(w.value(v.ending_turn))},
    {"exploration_choice", VIKTORY_HAS(balance), VIKTORY_WRITE(write_balance(w, *v.balance))},
    {"first_player", nullptr, VIKTORY_WRITE(w.value(v.first_player))},
    {"hexes", nullptr, VIKTORY_WRITE(write_all(w, v.hexes, write_hex)), true},
    {"last_seen", [](const GameView& v) { return v.options.fog_of_war; },
     VIKTORY_WRITE(write_all(w, v.last_seen, write_last_seen))},
    {"options", nullptr, VIKTORY_WRITE(write_options(w, v.options))},
    {"pending_battles", nullptr, VIKTORY_WRITE(w.value(v.pending_battles))},
    {"phase", nullptr, VIKTORY_WRITE(w.value(to_string(v.phase)))},
    {"placement_battles", nullptr, VIKTORY_WRITE(w.value(v.placement_battles))},
    {"players", nullptr, VIKTORY_WRITE(write_all(w, v.players, write_player)), true},
    {"radius", nullptr, VIKTORY_WRITE(w.value(v.radius))},
    {"relocation", VIKTORY_HAS(relocation), VIKTORY_WRITE(write_relocation(w, *v.relocation))},
    {"turn", nullptr, VIKTORY_WRITE(w.value(v.turn))},
    {"turn_order", nullptr, VIKTORY_WRITE(w.value(v.turn_order))},
    {"units", nullptr, VIKTORY_WRITE(write_all(w, v.units, write_unit)), true},
    {"viewer", nullptr, VIKTORY_WRITE(w.value(v.viewer))},
    {"winners", nullptr, VIKTORY_WRITE(w.value(v.winners))},
};

#undef VIKTORY_WRITE
#undef VIKTORY_HAS

bool is_present(const TopField& f, const GameView& v) { return !f.present || f.present(v); }

// Roughly the size of a view's text per hex, unit and player, so that one reservation fits.
std::size_t size_guess(const GameView& v) {
  return 1024 + v.hexes.size() * 180 + v.units.size() * 230 + v.players.size() * 320;
}

}  // namespace

void append_view_json(std::string& out, const GameView& view) {
  out.reserve(out.size() + size_guess(view));
  JsonWriter w(out);
  w.begin_object();
  for (const TopField& f : kTopFields) {
    if (!is_present(f, view)) continue;
    w.key(f.key);
    f.write(w, view);
  }
  w.end_object();
}

std::string view_json_text(const GameView& view) {
  std::string out;
  append_view_json(out, view);
  return out;
}

void append_view_delta_json(std::string& out, const ViewDelta& d, const GameView& after) {
  JsonWriter w(out);
  w.begin_object();
  if (d.whole_head) {
    w.key("head");
    w.begin_object();
    for (const TopField& f : kTopFields) {
      if (f.collection || !is_present(f, after)) continue;
      w.key(f.key);
      f.write(w, after);
    }
    w.end_object();
  }
  if (d.hex_count_changed) {
    w.key("hex_count");
    w.value(after.hexes.size());
  }
  if (!d.hexes.empty()) {
    w.key("hexes");
    w.begin_array();
    for (int i : d.hexes) write_hex(w, after.hexes[static_cast<std::size_t>(i)]);
    w.end_array();
  }
  if (d.player_count_changed) {
    w.key("player_count");
    w.value(after.players.size());
  }
  if (!d.players.empty()) {
    w.key("players");
    w.begin_array();
    for (int i : d.players) write_player(w, after.players[static_cast<std::size_t>(i)]);
    w.end_array();
  }
  auto changed = [&](std::string_view key) {
    return std::find(d.fields.begin(), d.fields.end(), key) != d.fields.end();
  };
  if (!d.whole_head) {
    // "set": the changed fields that the later view has, in key order.
    bool any_set = false;
    for (const TopField& f : kTopFields) {
      if (f.collection || !is_present(f, after) || !changed(f.key)) continue;
      if (!any_set) {
        w.key("set");
        w.begin_object();
        any_set = true;
      }
      w.key(f.key);
      f.write(w, after);
    }
    if (any_set) w.end_object();
  }
  if (!d.units.empty()) {
    w.key("units");
    w.begin_array();
    std::size_t next = 0;  // d.units follows the order of after.units
    for (const UnitView& u : after.units) {
      if (next < d.units.size() && d.units[next] == u.id) {
        write_unit(w, u);
        ++next;
      }
    }
    w.end_array();
  }
  if (!d.units_removed.empty()) {
    w.key("units_removed");
    w.value(d.units_removed);
  }
  if (!d.whole_head) {
    // "unset": the changed optional fields the later view no longer has, in the delta's order.
    bool any_unset = false;
    for (const std::string& key : d.fields) {
      const auto f = std::find_if(std::begin(kTopFields), std::end(kTopFields),
                                  [&](const TopField& t) { return t.key == key; });
      if (f != std::end(kTopFields) && is_present(*f, after)) continue;
      if (!any_unset) {
        w.key("unset");
        w.begin_array();
        any_unset = true;
      }
      w.value(std::string_view(key));
    }
    if (any_unset) w.end_array();
  }
  w.end_object();
}

std::string view_delta_json_text(const ViewDelta& delta, const GameView& after) {
  std::string out;
  append_view_delta_json(out, delta, after);
  return out;
}

std::string view_delta_json_text(const GameView& before, const GameView& after) {
  return view_delta_json_text(diff_views(before, after), after);
}

// The tree forms, for tests and tools only: parsed, so that no second description of the
// shape exists.
nlohmann::json view_to_json(const GameView& view) {
  return nlohmann::json::parse(view_json_text(view));
}

nlohmann::json view_delta_to_json(const ViewDelta& delta, const GameView& after) {
  return nlohmann::json::parse(view_delta_json_text(delta, after));
}

nlohmann::json view_delta_to_json(const GameView& before, const GameView& after) {
  return nlohmann::json::parse(view_delta_json_text(before, after));
}

}  // namespace viktory::protocol
