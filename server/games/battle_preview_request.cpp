#include "battle_preview_request.h"

#include <algorithm>
#include <vector>

#include "battle_preview.h"
#include "json.h"
#include "view.h"

namespace viktory::server {

using nlohmann::json;

namespace {

constexpr std::size_t kMaxUnits = 64;  // more than any player can own on a board

bool small_int(const json& j, int& out) {
  if (!j.is_number_integer()) return false;
  const auto v = j.get<std::int64_t>();
  if (v < 0 || v > 1'000'000) return false;
  out = static_cast<int>(v);
  return true;
}

}  // namespace

std::variant<json, Failure> battle_preview_reply(const GameState& state, int seat,
                                                 std::int64_t game_id, const json& request) {
  int hex = -1;
  if (!request.contains("hex") || !small_int(request["hex"], hex)) {
    return fail("bad_message", "field 'hex' must be a hex number");
  }
  std::vector<int> units;
  if (request.contains("units")) {
    const json& list = request["units"];
    if (!list.is_array() || list.size() > kMaxUnits) {
      return fail("bad_message", "field 'units' must be a list of at most 64 unit ids");
    }
    for (const json& id : list) {
      int unit = -1;
      if (!small_int(id, unit)) return fail("bad_message", "field 'units' must hold unit ids");
      units.push_back(unit);
    }
  }
  // Everything below reads the seat's view only: what he may know, nothing more.
  const GameView view = view_for(state, seat);
  if (hex >= static_cast<int>(view.hexes.size())) {
    return fail("bad_message", "field 'hex' is not a hex of this board");
  }
  if (!view.hexes[hex].known) {
    return fail("unknown_hex", "you do not know that hex");
  }
  if (view.hexes[hex].unseen) {  // fog of war: the same answer whatever stands there
    return fail("unseen_hex", "you cannot see into that hex (fog of war)");
  }
  for (const UnitView& u : view.units) {
    if (u.owner == seat && u.place == UnitPlace::kMap && u.hex == hex &&
        std::find(units.begin(), units.end(), u.id) == units.end()) {
      units.push_back(u.id);
    }
  }
  std::sort(units.begin(), units.end());
  units.erase(std::unique(units.begin(), units.end()), units.end());
  for (int id : units) {
    const auto it = std::find_if(view.units.begin(), view.units.end(),
                                 [id](const UnitView& u) { return u.id == id; });
    if (it == view.units.end() || it->owner != seat) {
      return fail("no_battle", "only your own units can be previewed attacking");
    }
  }
  const std::optional<BattlePreview> preview = preview_battle(view, hex, units);
  if (!preview) return fail("no_battle", "there is nothing to attack there with those units");
  return json{{"type", "battle.preview"},
              {"game_id", game_id},
              {"hex", hex},
              {"units", units},
              {"preview", protocol::battle_preview_to_json(*preview)}};
}

}  // namespace viktory::server
