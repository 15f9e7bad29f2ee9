#include "view_delta.h"

#include <algorithm>
#include <array>

#include "json.h"

namespace viktory::protocol {
namespace {

using nlohmann::json;

// A top-level field of GameView other than the three collections: its JSON key (the same as
// in the view's text, protocol/view_text.cpp), how to compare it and how to copy it.
struct HeadField {
  const char* key;
  bool (*same)(const GameView&, const GameView&);
  void (*copy)(GameView& to, const GameView& from);
};

// `key` is the field's name in the view's text where it differs from the member's.
#define VIKTORY_VIEW_FIELD_AS(member, key)                                          \
  HeadField {                                                                       \
    key, [](const GameView& a, const GameView& b) { return a.member == b.member; }, \
        [](GameView& to, const GameView& from) { to.member = from.member; }         \
  }
#define VIKTORY_VIEW_FIELD(member) VIKTORY_VIEW_FIELD_AS(member, #member)

// Every top-level field of GameView except hexes, units and players. A field missing here is
// caught by diff_views (whole_head) and by the view delta tests.
const std::array kHeadFields = {
    VIKTORY_VIEW_FIELD(viewer),
    VIKTORY_VIEW_FIELD(options),
    VIKTORY_VIEW_FIELD(radius),
    VIKTORY_VIEW_FIELD(turn),
    VIKTORY_VIEW_FIELD(current),
    VIKTORY_VIEW_FIELD(first_player),
    VIKTORY_VIEW_FIELD(phase),
    VIKTORY_VIEW_FIELD(decider),
    VIKTORY_VIEW_FIELD(active_unit),
    VIKTORY_VIEW_FIELD(capital_choices),
    VIKTORY_VIEW_FIELD(battle),
    VIKTORY_VIEW_FIELD(bombard),
    VIKTORY_VIEW_FIELD(elimination),
    VIKTORY_VIEW_FIELD(pending_battles),
    VIKTORY_VIEW_FIELD(turn_order),
    VIKTORY_VIEW_FIELD_AS(balance, "exploration_choice"),
    VIKTORY_VIEW_FIELD(relocation),
    VIKTORY_VIEW_FIELD(capital_return),
    VIKTORY_VIEW_FIELD(doomsday_started),
    VIKTORY_VIEW_FIELD(winners),
    VIKTORY_VIEW_FIELD(ended_by),
    VIKTORY_VIEW_FIELD(action_count),
    VIKTORY_VIEW_FIELD(battle_entries),
    VIKTORY_VIEW_FIELD(placement_battles),
    VIKTORY_VIEW_FIELD(ending_turn),
    VIKTORY_VIEW_FIELD(last_seen),
};

#undef VIKTORY_VIEW_FIELD
#undef VIKTORY_VIEW_FIELD_AS

constexpr const char* kCollections[] = {"hexes", "units", "players"};

bool is_collection(const std::string& key) {
  return std::find(std::begin(kCollections), std::end(kCollections), key) != std::end(kCollections);
}

// The view without its collections (which are what makes copying a view expensive).
GameView head_of(const GameView& v) {
  GameView out = v;
  out.hexes.clear();
  out.units.clear();
  out.players.clear();
  return out;
}

[[noreturn]] void bad_delta(const std::string& message) {
  throw JsonError("view delta: " + message);
}

int int_at(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer()) {
    bad_delta(std::string("an entry needs an integer '") + key + "'");
  }
  return it->get<int>();
}

const json& array_at(const json& delta, const char* key) {
  const json& a = delta.at(key);
  if (!a.is_array()) bad_delta(std::string("'") + key + "' must be an array");
  return a;
}

void resize_array(json& array, const json& count) {
  if (!count.is_number_integer() || count.get<std::int64_t>() < 0 ||
      count.get<std::int64_t>() > 100000) {
    bad_delta("a count must be a small non-negative integer");
  }
  const auto n = count.get<std::size_t>();
  while (array.size() > n) array.erase(array.size() - 1);
  while (array.size() < n) array.push_back(nullptr);
}

// Replaces array[entry[key]] with entry.
void put_indexed(json& array, const json& entry, const char* key) {
  if (!entry.is_object()) bad_delta("entries must be objects");
  const int index = int_at(entry, key);
  if (index < 0 || static_cast<std::size_t>(index) >= array.size()) {
    bad_delta(std::string("'") + key + "' out of range");
  }
  array[static_cast<std::size_t>(index)] = entry;
}

}  // namespace

ViewDelta diff_views(const GameView& before, const GameView& after) {
  ViewDelta d;
  for (const HeadField& f : kHeadFields) {
    if (!f.same(before, after)) d.fields.emplace_back(f.key);
  }
  // Copy the listed fields onto the earlier head: if that does not give the later head, a
  // field this file does not know changed, and every top-level field has to go.
  GameView patched = head_of(before);
  const GameView wanted = head_of(after);
  for (const HeadField& f : kHeadFields) f.copy(patched, wanted);
  if (!(patched == wanted)) {
    d.whole_head = true;
    d.fields.clear();
  }

  d.hex_count_changed = before.hexes.size() != after.hexes.size();
  for (std::size_t i = 0; i < after.hexes.size(); ++i) {
    if (i >= before.hexes.size() || !(before.hexes[i] == after.hexes[i])) {
      d.hexes.push_back(static_cast<int>(i));
    }
  }

  d.player_count_changed = before.players.size() != after.players.size();
  for (std::size_t i = 0; i < after.players.size(); ++i) {
    if (i >= before.players.size() || !(before.players[i] == after.players[i])) {
      d.players.push_back(static_cast<int>(i));
    }
  }

  // Units by id (ids are small: indexes into the state's unit table).
  int max_id = -1;
  for (const UnitView& u : before.units) max_id = std::max(max_id, u.id);
  for (const UnitView& u : after.units) max_id = std::max(max_id, u.id);
  std::vector<const UnitView*> earlier(static_cast<std::size_t>(max_id + 1), nullptr);
  std::vector<bool> still_there(static_cast<std::size_t>(max_id + 1), false);
  for (const UnitView& u : before.units) {
    if (u.id >= 0) earlier[static_cast<std::size_t>(u.id)] = &u;
  }
  for (const UnitView& u : after.units) {
    if (u.id < 0) continue;
    still_there[static_cast<std::size_t>(u.id)] = true;
    const UnitView* old = earlier[static_cast<std::size_t>(u.id)];
    if (old == nullptr || !(*old == u)) d.units.push_back(u.id);
  }
  for (const UnitView& u : before.units) {
    if (u.id >= 0 && !still_there[static_cast<std::size_t>(u.id)]) d.units_removed.push_back(u.id);
  }
  std::sort(d.units_removed.begin(), d.units_removed.end());
  return d;
}

json apply_view_delta(json view, const json& delta) {
  if (!view.is_object()) bad_delta("the view must be an object");
  if (!delta.is_object()) bad_delta("a delta must be an object");
  for (const auto& item : delta.items()) {
    // A plain name, not a structured binding: clang refuses to capture those in a lambda.
    const std::string& key = item.key();
    static constexpr const char* kKnown[] = {"head",          "set",       "unset",
                                             "hexes",         "hex_count", "units",
                                             "units_removed", "players",   "player_count"};
    if (std::find_if(std::begin(kKnown), std::end(kKnown),
                     [&](const char* k) { return key == k; }) == std::end(kKnown)) {
      bad_delta("unknown key '" + key + "'");
    }
  }
  if (delta.contains("head")) {
    const json& head = delta["head"];
    if (!head.is_object()) bad_delta("'head' must be an object");
    json next = json::object();
    for (const char* key : kCollections) {
      if (view.contains(key)) next[key] = std::move(view[key]);
    }
    for (const auto& [key, value] : head.items()) {
      if (is_collection(key)) bad_delta("'head' may not hold " + key);
      next[key] = value;
    }
    view = std::move(next);
  }
  if (delta.contains("set")) {
    const json& set = delta["set"];
    if (!set.is_object()) bad_delta("'set' must be an object");
    for (const auto& [key, value] : set.items()) {
      if (is_collection(key)) bad_delta("'set' may not hold " + key);
      view[key] = value;
    }
  }
  if (delta.contains("unset")) {
    for (const json& key : array_at(delta, "unset")) {
      if (!key.is_string() || is_collection(key.get<std::string>())) {
        bad_delta("'unset' holds names of top-level fields");
      }
      view.erase(key.get<std::string>());
    }
  }

  json& hexes = view["hexes"];
  if (!hexes.is_array()) bad_delta("the view has no hexes");
  if (delta.contains("hex_count")) resize_array(hexes, delta["hex_count"]);
  if (delta.contains("hexes")) {
    for (const json& h : array_at(delta, "hexes")) put_indexed(hexes, h, "hex");
  }

  json& players = view["players"];
  if (!players.is_array()) bad_delta("the view has no players");
  if (delta.contains("player_count")) resize_array(players, delta["player_count"]);
  if (delta.contains("players")) {
    for (const json& p : array_at(delta, "players")) put_indexed(players, p, "index");
  }

  json& units = view["units"];
  if (!units.is_array()) bad_delta("the view has no units");
  auto position_of = [&](int id) {
    // The first unit whose id is not below `id` (units are sorted by id).
    std::size_t i = 0;
    while (i < units.size() && int_at(units[i], "id") < id) ++i;
    return i;
  };
  if (delta.contains("units_removed")) {
    for (const json& id : array_at(delta, "units_removed")) {
      if (!id.is_number_integer()) bad_delta("'units_removed' holds unit ids");
      const std::size_t i = position_of(id.get<int>());
      if (i >= units.size() || int_at(units[i], "id") != id.get<int>()) {
        bad_delta("removed unit " + id.dump() + " is not in the view");
      }
      units.erase(i);
    }
  }
  if (delta.contains("units")) {
    for (const json& u : array_at(delta, "units")) {
      if (!u.is_object()) bad_delta("entries must be objects");
      const int id = int_at(u, "id");
      const std::size_t i = position_of(id);
      if (i < units.size() && int_at(units[i], "id") == id) {
        units[i] = u;
      } else {
        units.insert(units.begin() + static_cast<std::ptrdiff_t>(i), u);
      }
    }
  }
  for (const json& h : hexes) {
    if (h.is_null()) bad_delta("'hex_count' grew the map without sending the new hexes");
  }
  for (const json& p : players) {
    if (p.is_null()) bad_delta("'player_count' grew the players without sending them");
  }
  return view;
}

}  // namespace viktory::protocol
