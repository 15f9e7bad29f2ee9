#include "reach.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <utility>

#include "game.h"
#include "sight.h"

namespace viktory::server {

using nlohmann::json;

namespace {

constexpr std::size_t kMaxStates = 400;  // a unit has at most a few Movement Points [9.11]

struct Reached {
  int moves = 0;
  bool explores = false;
};

bool explored(const std::vector<Event>& events) {
  return std::any_of(events.begin(), events.end(),
                     [](const Event& e) { return e.kind == EventKind::kTileRevealed; });
}

}  // namespace

std::variant<json, Failure> reach_reply(const GameState& state, int seat, std::int64_t game_id,
                                        const json& request) {
  if (!request.contains("unit") || !request["unit"].is_number_integer()) {
    return fail("bad_message", "field 'unit' must be a unit id");
  }
  const std::int64_t requested = request["unit"].get<std::int64_t>();
  if (requested < 0 || requested >= static_cast<std::int64_t>(state.units.size())) {
    return fail("bad_message", "field 'unit' is not a unit of this game");
  }
  const int unit = static_cast<int>(requested);
  std::map<int, Reached> reached;
  // Fog of war: simulate in the world he may know of, so that no answer depends on units
  // outside his sight (engine/sight.h).
  const GameState world = seen_world(state, seat);
  if (world.units[unit].owner == seat) {
    // Breadth first, so the first time a hex is reached is with the fewest moves. States are
    // told apart by where the unit stands and what it has left.
    std::deque<std::pair<GameState, int>> queue;
    std::set<std::pair<int, int>> seen;
    queue.emplace_back(world, 0);
    seen.emplace(world.units[unit].hex, world.units[unit].moves_left);
    while (!queue.empty() && seen.size() < kMaxStates) {
      auto [from, depth] = std::move(queue.front());
      queue.pop_front();
      for (const Action& a : legal_actions(from, seat)) {
        if (a.kind != ActionKind::kMove || a.unit != unit) continue;
        ApplyResult next = apply(from, a);
        if (!next.ok()) continue;
        const bool explores = explored(next.events);
        auto [it, fresh] = reached.try_emplace(a.hex, Reached{depth + 1, explores});
        if (!fresh && it->second.moves == depth + 1) it->second.explores |= explores;
        if (explores) continue;  // what turned over is not known yet: go no further
        const Unit& moved = next.state.units[unit];
        if (!seen.emplace(moved.hex, moved.moves_left).second) continue;
        queue.emplace_back(std::move(next.state), depth + 1);
      }
    }
  }
  json hexes = json::array();
  for (const auto& [hex, r] : reached) {
    if (hex == state.units[unit].hex) continue;
    hexes.push_back({{"hex", hex}, {"moves", r.moves}, {"explores", r.explores}});
  }
  return json{{"type", "game.reach"}, {"game_id", game_id}, {"unit", unit}, {"hexes", hexes}};
}

}  // namespace viktory::server
