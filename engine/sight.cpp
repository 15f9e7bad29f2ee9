// Fog of war: sight and the memory of units last seen (engine/sight.h).
#include "sight.h"

#include <algorithm>

#include "game.h"
#include "internal.h"

namespace viktory {

namespace {

void mark_within(const Board& b, int hex, int reach, std::vector<bool>& seen) {
  for (int d = 0; d <= reach; ++d) {
    for (int h : b.ring_around(hex, d)) seen[static_cast<std::size_t>(h)] = true;
  }
}

// The sight of a player in the game: distance 1 from each of his units on the map (cargo at
// its Frigate's hex) and each of his Towns and Cities, fog_city_sight from each City (a
// Capital that is a City counts as one).
std::vector<bool> player_sight(const GameState& s, int player) {
  const Board& b = s.board();
  std::vector<bool> seen(static_cast<std::size_t>(b.size()), false);
  for (const Unit& u : s.units) {
    if (u.owner == player && u.place == UnitPlace::kMap && u.hex >= 0)
      mark_within(b, u.hex, 1, seen);
  }
  for (int h = 0; h < b.size(); ++h) {
    const HexCell& c = s.hexes[static_cast<std::size_t>(h)];
    if (c.town_owner != player) continue;
    mark_within(b, h, c.city ? std::max(1, s.options.fog_city_sight) : 1, seen);
  }
  // [15.5] While he rebuilds a removed Town or City, he still sees round the hex it stood on:
  // the rebuild sites are next to it, and whether one may take it must not depend on units
  // he could not see (docs/rules-notes.md).
  if (s.relocation && s.relocation->player == player)
    mark_within(b, s.relocation->from_hex, 1, seen);
  return seen;
}

bool in_game(const GameState& s, int viewer) {
  return viewer >= 0 && viewer < static_cast<int>(s.players.size()) && s.players[viewer].in_game();
}

}  // namespace

bool fog_applies(const GameState& s, int /*viewer*/) {
  return s.options.fog_of_war && s.phase != Phase::kGameOver;
}

std::vector<bool> sight_of(const GameState& s, int viewer) {
  const auto size = static_cast<std::size_t>(s.board().size());
  if (!fog_applies(s, viewer)) return std::vector<bool>(size, true);
  if (in_game(s, viewer)) return player_sight(s, viewer);
  // A spectator, or a player out of the game: what every player still in it sees, so that a
  // player watching his own game under a second name gains nothing.
  std::vector<bool> seen(size, true);
  for (int p = 0; p < static_cast<int>(s.players.size()); ++p) {
    if (!s.players[p].in_game()) continue;
    const auto theirs = player_sight(s, p);
    for (std::size_t h = 0; h < size; ++h) seen[h] = seen[h] && theirs[h];
  }
  return seen;
}

namespace detail {
bool in_sight(const GameState& s, int player, int hex) {
  if (!fog_applies(s, player)) return true;
  return sight_of(s, player)[static_cast<std::size_t>(hex)];
}
}  // namespace detail

GameState seen_world(const GameState& s, int player) {
  GameState world = s;
  if (!fog_applies(s, player)) return world;
  const auto seen = sight_of(s, player);
  for (Unit& u : world.units) {
    if (u.owner == player || u.place != UnitPlace::kMap || seen[static_cast<std::size_t>(u.hex)]) {
      continue;
    }
    u.place = UnitPlace::kStock;
    u.hex = -1;
    u.carrier = -1;
  }
  for (std::size_t h = 0; h < world.hexes.size(); ++h) {
    if (seen[h]) continue;
    HexCell& c = world.hexes[h];
    c.began_turn_with_land_unit &= player >= 0 ? detail::bit(player) : 0;
    c.placed_infantry = 0;
    c.placed_other = 0;
    c.battle_this_turn = false;
  }
  return world;
}

bool seals_turn(const GameState& before, const GameState& after, const std::vector<Event>& events) {
  if (seals_turn(events)) return true;
  if (!after.options.fog_of_war) return false;
  if (after.phase == Phase::kGameOver) return true;  // the fog lifts: everything shows
  // Looking into the fog cannot be taken back: a hex newly in anyone's sight shows what stands
  // there, or that nothing does (which his last-seen marks then forget).
  for (int p = 0; p < static_cast<int>(after.players.size()); ++p) {
    if (!after.players[p].in_game()) continue;
    const auto seen_before = sight_of(before, p);
    const auto seen_after = sight_of(after, p);
    for (std::size_t h = 0; h < seen_after.size(); ++h) {
      if (seen_after[h] && !seen_before[h]) return true;
    }
    // An enemy unit stepping into his sight shows itself too.
    for (std::size_t i = 0; i < after.units.size() && i < before.units.size(); ++i) {
      const Unit& now = after.units[i];
      if (now.owner == p || now.place != UnitPlace::kMap) continue;
      if (!seen_after[static_cast<std::size_t>(now.hex)]) continue;
      const Unit& then = before.units[i];
      if (then.place != UnitPlace::kMap || then.hex != now.hex) return true;
    }
  }
  return false;
}

void update_last_seen(GameState& s) {
  if (!s.options.fog_of_war) return;
  const int players = static_cast<int>(s.players.size());
  s.last_seen.resize(static_cast<std::size_t>(players));
  for (int p = 0; p < players; ++p) {
    auto& memory = s.last_seen[static_cast<std::size_t>(p)];
    if (!s.players[p].in_game()) {
      memory.clear();
      continue;
    }
    const auto seen = player_sight(s, p);
    std::vector<LastSeen> next;
    for (const LastSeen& e : memory) {
      if (!seen[static_cast<std::size_t>(e.hex)]) next.push_back(e);  // out of sight: as it was
    }
    for (const Unit& u : s.units) {
      if (u.place != UnitPlace::kMap || u.owner == p || u.hex < 0) continue;
      if (!seen[static_cast<std::size_t>(u.hex)]) continue;
      auto it = std::find_if(next.begin(), next.end(), [&](const LastSeen& e) {
        return e.hex == u.hex && e.owner == u.owner && e.turn == s.turn &&
               seen[static_cast<std::size_t>(e.hex)];
      });
      if (it == next.end()) {
        next.push_back(LastSeen{u.hex, u.owner, s.turn, {}});
        it = next.end() - 1;
      }
      ++it->units[static_cast<std::size_t>(u.type)];
    }
    std::sort(next.begin(), next.end(), [](const LastSeen& a, const LastSeen& b) {
      return a.hex != b.hex ? a.hex < b.hex : a.owner < b.owner;
    });
    memory = std::move(next);
  }
}

}  // namespace viktory
