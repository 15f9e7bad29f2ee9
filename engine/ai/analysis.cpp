#include "analysis.h"

#include <algorithm>
#include <array>
#include <climits>

namespace viktory::ai {
namespace {

constexpr int kMaxBoard = 3 * Board::kMaxRadius * (Board::kMaxRadius + 1) + 1;

int allowance(UnitType t) {
  switch (t) {
    case UnitType::kCavalry:
      return 3;  // [9.11]
    case UnitType::kFrigate:
      return 5;  // [9.31]
    default:
      return 2;  // [9.11]
  }
}

}  // namespace

double unit_value(UnitType t) {
  switch (t) {
    case UnitType::kInfantry:
      return 1.0;
    case UnitType::kCavalry:
      return 1.5;
    case UnitType::kArtillery:
      return 1.4;
    case UnitType::kFrigate:
      return 1.3;
  }
  return 1.0;
}

Analysis::Analysis(const GameState& s, int me)
    : s_(s),
      board_(s.board()),
      me_(me),
      players_(static_cast<int>(s.players.size())),
      forces_(static_cast<std::size_t>(board_.size() * players_)),
      threat_(static_cast<std::size_t>(players_)),
      roads_(static_cast<std::size_t>(players_)),
      roads_done_(static_cast<std::size_t>(players_), false) {
  for (const Unit& u : s.units) {
    if (u.place != UnitPlace::kMap || u.carrier >= 0 || u.hex < 0) continue;
    forces_[static_cast<std::size_t>(u.hex * players_ + u.owner)].add(u.type);
  }
  // Who knows each hex, worked out once: the same test as viewer_knows (view.h), which is
  // too slow to ask per hex and player in the inner loops here.
  known_by_.assign(static_cast<std::size_t>(board_.size()), 0);
  const std::uint8_t everyone = everyone_mask(s.options.players);
  for (int h = 0; h < board_.size(); ++h) {
    const HexCell& c = s.hexes[static_cast<std::size_t>(h)];
    std::uint8_t mask = c.revealed ? everyone : 0;
    if (s.options.independent_exploration) mask = c.known_by;
    if (board_.is_perimeter(h)) mask = everyone;
    known_by_[static_cast<std::size_t>(h)] = mask;
  }
  for (int h = 0; h < board_.size(); ++h) {
    const int owner = s.hexes[static_cast<std::size_t>(h)].town_owner;
    if (owner == me) {
      my_towns_.push_back(h);
    } else if (owner != kNoPlayer) {
      enemy_towns_.push_back(h);
    }
  }
}

int Analysis::enemy_units_owner(int hex, int player) const {
  for (int p = 0; p < players_; ++p) {
    if (p == player) continue;
    const Force& f = force(hex, p);
    if (f.land() + f.frigates > 0) return p;
  }
  return kNoPlayer;
}

bool Analysis::hostile(int hex, int player) const {
  const int owner = s_.hexes[static_cast<std::size_t>(hex)].town_owner;
  if (owner != kNoPlayer && owner != player) return true;
  return enemy_units_owner(hex, player) != kNoPlayer;
}

bool Analysis::knows(int hex, int player) const {
  return (known_by_[static_cast<std::size_t>(hex)] >> player) & 1;
}

bool Analysis::known_land(int hex, int player) const {
  return is_land(s_.hexes[static_cast<std::size_t>(hex)].terrain) && knows(hex, player);
}

bool Analysis::known_water(int hex, int player) const {
  return s_.hexes[static_cast<std::size_t>(hex)].terrain == Terrain::kWater && knows(hex, player);
}

bool Analysis::began_here(int hex, int player) const {
  // This turn: the engine's record [9.12 B]; for another player's next turn: where his land
  // units stand now.
  if (player == s_.current) {
    return (s_.hexes[static_cast<std::size_t>(hex)].began_turn_with_land_unit & (1 << player)) != 0;
  }
  const Force& f = force(hex, player);
  return f.land() > 0;
}

void Analysis::compute_roads(int player) const {
  auto& out = roads_[static_cast<std::size_t>(player)];
  out.assign(static_cast<std::size_t>(board_.size()), {});
  std::vector<int> towns;
  for (int h = 0; h < board_.size(); ++h) {
    if (s_.hexes[static_cast<std::size_t>(h)].town_owner == player) towns.push_back(h);
  }
  std::array<std::int8_t, kMaxBoard> depth{};
  std::array<int, kMaxBoard> queue{};
  for (int from : towns) {
    bool any_near = false;
    for (int to : towns) {
      const int d = board_.distance(from, to);
      any_near = any_near || (d >= 2 && d <= 3);
    }
    if (!any_near) continue;
    std::fill(depth.begin(), depth.begin() + board_.size(), static_cast<std::int8_t>(-1));
    int head = 0, tail = 0;
    queue[static_cast<std::size_t>(tail++)] = from;
    depth[static_cast<std::size_t>(from)] = 0;
    auto& list = out[static_cast<std::size_t>(from)];
    while (head < tail) {
      const int h = queue[static_cast<std::size_t>(head++)];
      if (depth[static_cast<std::size_t>(h)] == 3) continue;
      for (int n : board_.neighbors(h)) {
        if (n == Board::kNoHex || depth[static_cast<std::size_t>(n)] >= 0 || !known_land(n, player))
          continue;
        depth[static_cast<std::size_t>(n)] =
            static_cast<std::int8_t>(depth[static_cast<std::size_t>(h)] + 1);
        if (s_.hexes[static_cast<std::size_t>(n)].town_owner == player) {
          const int d = board_.distance(from, n);
          if (d >= 2 && d <= 3) list.push_back(n);
        }
        if (enemy_units_owner(n, player) != kNoPlayer)
          continue;  // [9.13] no enemy units on the way
        queue[static_cast<std::size_t>(tail++)] = n;
      }
    }
  }
  roads_done_[static_cast<std::size_t>(player)] = true;
}

const std::vector<int>& Analysis::roads_from(int player, int town) const {
  if (!roads_done_[static_cast<std::size_t>(player)]) compute_roads(player);
  return roads_[static_cast<std::size_t>(player)][static_cast<std::size_t>(town)];
}

// A land hex a Frigate of `player` may sail through [9.32]: his Town or City next to water,
// not built this turn (when it is his turn, [9.13]).
bool Analysis::is_port_for(int hex, int player, bool current) const {
  const HexCell& c = s_.hexes[static_cast<std::size_t>(hex)];
  if (c.town_owner != player || (current && c.built_this_turn)) return false;
  for (int n : board_.neighbors(hex)) {
    if (n != Board::kNoHex && known_water(n, player)) return true;
  }
  return false;
}

void Analysis::reach(int player, const Unit& unit, Reach& out) const {
  const int size = board_.size();
  out.dist.assign(static_cast<std::size_t>(size), -1);
  out.first.assign(static_cast<std::size_t>(size), -1);
  const int mp = unit.moves_left;
  const int start = unit.hex;
  if (start < 0) return;
  std::array<int, kMaxBoard> queue{};
  int head = 0, tail = 0;
  queue[static_cast<std::size_t>(tail++)] = start;
  out.dist[static_cast<std::size_t>(start)] = 0;
  const bool land = is_land_unit(unit.type);
  const bool current = player == s_.current;
  auto visit = [&](int from, int to) {
    out.dist[static_cast<std::size_t>(to)] =
        static_cast<std::int8_t>(out.dist[static_cast<std::size_t>(from)] + 1);
    out.first[static_cast<std::size_t>(to)] =
        static_cast<std::int16_t>(from == start ? to : out.first[static_cast<std::size_t>(from)]);
    queue[static_cast<std::size_t>(tail++)] = to;
  };
  while (head < tail) {
    const int h = queue[static_cast<std::size_t>(head++)];
    const int d = out.dist[static_cast<std::size_t>(h)];
    if (d >= mp) continue;
    const HexCell& c = s_.hexes[static_cast<std::size_t>(h)];
    if (h != start) {
      if (hostile(h, player)) continue;  // entering an enemy hex ends the move [9.0]
      if (land && is_rough(c.terrain) && c.town_owner != player && !began_here(h, player))
        continue;  // slow terrain [9.12]
    }
    // A Frigate passes through a port (its own Town or City next to water) but goes on to
    // water from there: one port at a time, never ending its move in it [9.32].
    const bool in_port = !land && h != start && !known_water(h, player);
    for (int n : board_.neighbors(h)) {
      if (n == Board::kNoHex || out.dist[static_cast<std::size_t>(n)] >= 0) continue;
      if (land ? !known_land(n, player)
               : !known_water(n, player) && (in_port || !is_port_for(n, player, current))) {
        continue;
      }
      const HexCell& nc = s_.hexes[static_cast<std::size_t>(n)];
      if (current && nc.battle_this_turn && hostile(n, player)) continue;  // [12.2]
      visit(h, n);
    }
    if (land && c.town_owner == player && !(current && c.built_this_turn)) {
      for (int t : roads_from(player, h)) {
        if (out.dist[static_cast<std::size_t>(t)] >= 0) continue;
        if (current && s_.hexes[static_cast<std::size_t>(t)].built_this_turn) continue;
        visit(h, t);
      }
    }
  }
}

void Analysis::compute_threat(int player) const {
  auto& threat = threat_[static_cast<std::size_t>(player)];
  threat.assign(static_cast<std::size_t>(board_.size()), Force{});
  if (!s_.players[static_cast<std::size_t>(player)].in_game()) return;
  Reach r;
  for (const Unit& u : s_.units) {
    if (u.owner != player || u.place != UnitPlace::kMap || u.hex < 0) continue;
    if (u.carrier >= 0) continue;
    if (u.type == UnitType::kFrigate) {
      // Cargo can land anywhere next to water within the Frigate's sailing range [9.46].
      int cargo = 0;
      for (const Unit& c : s_.units) {
        if (c.place == UnitPlace::kMap && c.carrier == u.id) ++cargo;
      }
      if (cargo == 0) continue;
      for (const Unit& c : s_.units) {
        if (c.place != UnitPlace::kMap || c.carrier != u.id) continue;
        for (int h = 0; h < board_.size(); ++h) {
          if (board_.distance(u.hex, h) <= allowance(UnitType::kFrigate) + 1 &&
              is_land(s_.hexes[static_cast<std::size_t>(h)].terrain)) {
            threat[static_cast<std::size_t>(h)].add(c.type);
          }
        }
      }
      continue;
    }
    Unit probe = u;
    probe.moves_left = allowance(u.type);
    reach(player, probe, r);
    for (int h = 0; h < board_.size(); ++h) {
      if (r.dist[static_cast<std::size_t>(h)] > 0) threat[static_cast<std::size_t>(h)].add(u.type);
    }
  }
}

const Force& Analysis::threat(int player, int hex) const {
  auto& t = threat_[static_cast<std::size_t>(player)];
  if (t.empty()) compute_threat(player);
  return t[static_cast<std::size_t>(hex)];
}

Force Analysis::strongest_threat(int hex, int player, int* from_player) const {
  Force best;
  double best_score = -1;
  for (int p = 0; p < players_; ++p) {
    if (p == player || !s_.players[static_cast<std::size_t>(p)].in_game()) continue;
    const Force& f = threat(p, hex);
    const double score = f.infantry + 1.6 * f.cavalry + 1.4 * f.artillery;
    if (score > best_score) {
      best_score = score;
      best = f;
      if (from_player) *from_player = p;
    }
  }
  return best;
}

int Analysis::terrain_dice(int hex, int defender) const {
  const HexCell& c = s_.hexes[static_cast<std::size_t>(hex)];
  const bool town = c.town_owner == defender;
  const int capital = s_.players[static_cast<std::size_t>(defender)].capital_hex;
  const bool holds_capital =
      capital >= 0 && s_.hexes[static_cast<std::size_t>(capital)].town_owner == defender;
  if (c.terrain == Terrain::kMountain || (town && c.city && holds_capital)) return 2;
  if (c.terrain == Terrain::kForest || town) return 1;
  return 0;
}

bool Analysis::naval_support(int hex, int defender) const {
  for (int n : board_.neighbors(hex)) {
    if (n != Board::kNoHex && force(n, defender).frigates > 0) return true;
  }
  return false;
}

BattleOdds Analysis::attack_odds(const Force& attackers, int hex, int attacker) const {
  const HexCell& c = s_.hexes[static_cast<std::size_t>(hex)];
  int defender = enemy_units_owner(hex, attacker);
  if (defender == kNoPlayer) defender = c.town_owner;
  BattleSetup setup;
  setup.defender_pre_fire = s_.options.defender_prefire;  // house rule
  setup.attacker = attackers;
  if (defender == kNoPlayer || defender == attacker) {
    BattleOdds free;
    free.attacker_wins = 1;
    return free;
  }
  setup.defender = force(hex, defender);
  setup.naval = c.terrain == Terrain::kWater;
  setup.town = c.town_owner == defender;
  if (!setup.naval) {
    setup.terrain_dice = terrain_dice(hex, defender);
    setup.naval_support = (setup.town || setup.defender.land() > 0) && naval_support(hex, defender);
    setup.defender.frigates = 0;
  } else {
    setup.attacker.infantry = setup.attacker.cavalry = setup.attacker.artillery = 0;
  }
  return battle_odds(setup);
}

double Analysis::capture_risk(int hex, int owner, const Force& garrison) const {
  double worst = 0;
  for (int p = 0; p < players_; ++p) {
    if (p == owner || !s_.players[static_cast<std::size_t>(p)].in_game()) continue;
    const Force& f = threat(p, hex);
    if (f.land() == 0) continue;
    BattleSetup setup;
    setup.defender_pre_fire = s_.options.defender_prefire;  // house rule
    setup.attacker = f;
    setup.attacker.frigates = 0;
    setup.defender = garrison;
    setup.defender.frigates = 0;
    setup.town = true;
    setup.terrain_dice = terrain_dice(hex, owner);
    setup.naval_support = naval_support(hex, owner);
    worst = std::max(worst, battle_odds(setup).attacker_wins);
  }
  return worst;
}

int Analysis::enemy_town_distance(int hex) const {
  if (enemy_town_distance_.empty()) {
    enemy_town_distance_.assign(static_cast<std::size_t>(board_.size()), 99);
    for (int h = 0; h < board_.size(); ++h) {
      int best = 99;
      for (int t : enemy_towns_) best = std::min(best, board_.distance(h, t));
      enemy_town_distance_[static_cast<std::size_t>(h)] = best;
    }
  }
  return enemy_town_distance_[static_cast<std::size_t>(hex)];
}

namespace {

template <typename Passable>
std::vector<int> distance_field(const Board& board, const std::vector<int>& sources,
                                Passable passable) {
  std::vector<int> dist(static_cast<std::size_t>(board.size()), Analysis::kFar);
  std::array<int, kMaxBoard> queue{};
  int head = 0, tail = 0;
  for (int h : sources) {
    if (dist[static_cast<std::size_t>(h)] == 0) continue;
    dist[static_cast<std::size_t>(h)] = 0;
    queue[static_cast<std::size_t>(tail++)] = h;
  }
  while (head < tail) {
    const int h = queue[static_cast<std::size_t>(head++)];
    for (int n : board.neighbors(h)) {
      if (n == Board::kNoHex || dist[static_cast<std::size_t>(n)] != Analysis::kFar || !passable(n))
        continue;
      dist[static_cast<std::size_t>(n)] = dist[static_cast<std::size_t>(h)] + 1;
      queue[static_cast<std::size_t>(tail++)] = n;
    }
  }
  return dist;
}

}  // namespace

std::vector<int> Analysis::water_distance_from(const std::vector<int>& sources) const {
  // A Frigate may also pass through a port: a Town or City of its own next to water [9.32]
  // (it may not stop there; the planner only aims ships at water hexes).
  return distance_field(board_, sources,
                        [&](int h) { return known_water(h, me_) || is_port_for(h, me_, false); });
}

std::vector<int> Analysis::land_distance_from(const std::vector<int>& sources) const {
  return distance_field(board_, sources, [&](int h) { return known_land(h, me_); });
}

int Analysis::enemy_town_land_distance(int hex) const {
  if (enemy_town_land_distance_.empty())
    enemy_town_land_distance_ = land_distance_from(enemy_towns_);
  return enemy_town_land_distance_[static_cast<std::size_t>(hex)];
}

}  // namespace viktory::ai
