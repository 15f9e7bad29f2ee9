#include "determinize.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "rng.h"
#include "sight.h"
#include "tiles.h"

namespace viktory::ai {
namespace {

std::uint8_t bit_of(int player) { return static_cast<std::uint8_t>(1 << player); }

bool valid_player(const GameView& v, int p) {
  return p >= 0 && p < static_cast<int>(v.players.size());
}

// Who knows each hex's terrain. Without independent exploration every revealed hex is known to
// all, and the viewer sees exactly which hexes are revealed. With it, the viewer knows his own
// hexes; the events tell who explored what (a reveal event keeps its player and hex even when
// its terrain is withheld), and pieces tell the rest: a player knows the hexes his Towns and
// units stand on and their neighbours, since building, moving and placing reveal them [7.3, 9.2].
std::vector<std::uint8_t> knowledge(const GameView& v, const PublicHistory& history,
                                    const Board& board) {
  const bool independent = v.options.independent_exploration;
  const std::uint8_t everyone = everyone_mask(v.options.players);
  std::vector<std::uint8_t> known_by(static_cast<std::size_t>(board.size()), 0);
  for (const HexView& h : v.hexes) {
    if (h.known)
      known_by[static_cast<std::size_t>(h.hex)] |= independent ? bit_of(v.viewer) : everyone;
  }
  if (!independent) return known_by;
  auto mark_around = [&](int hex, int player) {
    if (hex < 0 || hex >= board.size() || !valid_player(v, player)) return;
    known_by[static_cast<std::size_t>(hex)] |= bit_of(player);
    for (int n : board.neighbors(hex)) {
      if (n != Board::kNoHex) known_by[static_cast<std::size_t>(n)] |= bit_of(player);
    }
  };
  for (const Event& e : history.events) {
    if (e.kind == EventKind::kTileRevealed && e.hex >= 0 && e.hex < board.size() &&
        valid_player(v, e.player)) {
      known_by[static_cast<std::size_t>(e.hex)] |= bit_of(e.player);
    }
  }
  for (const UnitView& u : v.units) {
    if (u.place == UnitPlace::kMap) mark_around(u.hex, u.owner);
  }
  for (const HexView& h : v.hexes) {
    if (h.town_owner != kNoPlayer) mark_around(h.hex, h.town_owner);
  }
  for (int h = 0; h < board.size(); ++h) {
    if (board.is_perimeter(h)) known_by[static_cast<std::size_t>(h)] = everyone;
  }
  return known_by;
}

enum class Must : std::uint8_t { kAny, kLand, kWater };

// What the pieces on a hex say about its terrain (pieces are public).
std::vector<Must> terrain_hints(const GameView& v, int hexes) {
  std::vector<Must> must(static_cast<std::size_t>(hexes), Must::kAny);
  for (const HexView& h : v.hexes) {
    if (h.town_owner != kNoPlayer) must[static_cast<std::size_t>(h.hex)] = Must::kLand;
  }
  for (const UnitView& u : v.units) {
    if (u.place != UnitPlace::kMap || u.carrier >= 0 || u.hex < 0 || u.hex >= hexes) continue;
    auto& m = must[static_cast<std::size_t>(u.hex)];
    if (is_land_unit(u.type)) {
      m = Must::kLand;
    } else if (m == Must::kAny && v.hexes[static_cast<std::size_t>(u.hex)].town_owner != u.owner) {
      m = Must::kWater;  // a Frigate outside a port [9.32]
    }
  }
  return must;
}

Terrain draw(std::array<int, kTerrainKinds>& pool, Must must, Rng& rng) {
  auto allowed = [&](int slot) {
    const Terrain t = terrain_of_bank_slot(slot);
    return must == Must::kAny || (must == Must::kLand ? is_land(t) : t == Terrain::kWater);
  };
  int total = 0;
  for (int slot = 0; slot < kTerrainKinds; ++slot) total += allowed(slot) ? pool[slot] : 0;
  if (total <= 0) {
    // The composition cannot explain it (only a hand-made scenario can do that): a plausible
    // tile without touching the bank.
    return must == Must::kWater ? Terrain::kWater : Terrain::kPlains;
  }
  auto pick = static_cast<int>(rng.below(static_cast<std::uint64_t>(total)));
  for (int slot = 0; slot < kTerrainKinds; ++slot) {
    if (!allowed(slot)) continue;
    if (pick < pool[slot]) {
      --pool[slot];
      return terrain_of_bank_slot(slot);
    }
    pick -= pool[slot];
  }
  return Terrain::kPlains;  // not reached
}

// Terrains of Cities on hexes the viewer does not know, read from their owners' units; each is
// taken out of `pool`.
std::vector<std::pair<int, Terrain>> city_terrains(const GameView& v,
                                                   std::array<int, kTerrainKinds>& pool) {
  std::vector<std::pair<int, Terrain>> out;
  const std::size_t n = v.players.size();
  std::vector<std::array<int, kUnitTypes>> surplus(n);  // units minus what known Towns support
  for (const UnitView& u : v.units) {
    if (u.owner >= 0 && static_cast<std::size_t>(u.owner) < n) {
      ++surplus[static_cast<std::size_t>(u.owner)][static_cast<std::size_t>(u.type)];
    }
  }
  if (v.elimination && valid_player(v, v.elimination->player)) {
    for (UnitType t : v.elimination->owed) {
      --surplus[static_cast<std::size_t>(v.elimination->player)][static_cast<std::size_t>(t)];
    }
  }
  std::vector<std::vector<int>> unknown_cities(n);
  for (const HexView& h : v.hexes) {
    if (!valid_player(v, h.town_owner)) continue;
    auto& have = surplus[static_cast<std::size_t>(h.town_owner)];
    --have[static_cast<std::size_t>(UnitType::kInfantry)];  // every Town and City [8.1]
    if (!h.city) continue;
    if (h.known && h.terrain != Terrain::kNone) {
      --have[static_cast<std::size_t>(city_unit_for(h.terrain))];
    } else {
      unknown_cities[static_cast<std::size_t>(h.town_owner)].push_back(h.hex);
    }
  }
  for (std::size_t p = 0; p < n; ++p) {
    auto& have = surplus[p];
    for (int hex : unknown_cities[p]) {
      Terrain t = Terrain::kNone;
      if (have[static_cast<std::size_t>(UnitType::kCavalry)] > 0) {
        t = Terrain::kGrassland;
      } else if (have[static_cast<std::size_t>(UnitType::kArtillery)] > 0) {
        t = Terrain::kMountain;
      } else if (have[static_cast<std::size_t>(UnitType::kFrigate)] > 0) {
        t = Terrain::kForest;
      } else if (have[static_cast<std::size_t>(UnitType::kInfantry)] > 0) {
        t = Terrain::kPlains;
      }
      if (t == Terrain::kNone) continue;  // inconsistent: leave it to the bank
      --have[static_cast<std::size_t>(city_unit_for(t))];
      int& left = pool[static_cast<std::size_t>(bank_slot_of(t))];
      left = std::max(0, left - 1);
      out.emplace_back(hex, t);
    }
  }
  return out;
}

// Fog of war: the other players' units the seat cannot see, sampled from what it knows.
// Their number is public: every unit is supported by one of its owner's Towns or Cities
// [8.2 Key Concept], and his Reserve and the units in sight are known; what is missing stands
// somewhere outside the seat's sight. Each goes where the seat last saw units of that owner and
// type (engine/sight.h), else onto one of the owner's Towns or Cities outside sight (a Frigate:
// the water next to them), else onto another unseen hex it may stand on.
void add_hidden_units(const GameView& v, GameState& s, Rng& sampler) {
  const Board& board = s.board();
  const std::vector<bool> seen = sight_of(s, v.viewer);
  auto unseen = [&](int h) { return !seen[static_cast<std::size_t>(h)]; };
  auto fits = [&](int h, UnitType t) {
    const Terrain terrain = s.hexes[static_cast<std::size_t>(h)].terrain;
    return is_land_unit(t) ? is_land(terrain) : terrain == Terrain::kWater;
  };
  const int n = static_cast<int>(s.players.size());
  std::size_t free_id = 0;
  for (int q = 0; q < n; ++q) {
    if (q == v.viewer || !s.players[static_cast<std::size_t>(q)].in_game()) continue;
    std::array<int, kUnitTypes> need{};
    std::vector<int> towns;
    for (int h = 0; h < board.size(); ++h) {
      const HexCell& c = s.hexes[static_cast<std::size_t>(h)];
      if (c.town_owner != q) continue;
      ++need[static_cast<std::size_t>(UnitType::kInfantry)];
      if (c.city) ++need[static_cast<std::size_t>(city_unit_for(c.terrain))];
      if (unseen(h)) towns.push_back(h);
    }
    if (s.elimination && s.elimination->player == q) {
      for (UnitType t : s.elimination->owed) ++need[static_cast<std::size_t>(t)];
    }
    for (const Unit& u : s.units) {
      if (u.owner == q && u.place != UnitPlace::kStock) --need[static_cast<std::size_t>(u.type)];
    }
    for (int t = 0; t < kUnitTypes; ++t) {
      const auto type = static_cast<UnitType>(t);
      std::vector<int> last_seen;  // one spot per unit he saw there
      for (const LastSeen& e : v.last_seen) {
        if (e.owner != q || !unseen(e.hex) || !fits(e.hex, type)) continue;
        for (int k = 0; k < e.units[static_cast<std::size_t>(t)]; ++k) last_seen.push_back(e.hex);
      }
      std::vector<int> near;
      for (int h : towns) {
        if (fits(h, type)) near.push_back(h);
        for (int nb : board.neighbors(h)) {
          if (nb != Board::kNoHex && unseen(nb) && !fits(h, type) && fits(nb, type)) {
            near.push_back(nb);
          }
        }
      }
      std::vector<int> anywhere;
      for (int h = 0; h < board.size(); ++h) {
        if (unseen(h) && fits(h, type)) anywhere.push_back(h);
      }
      for (int k = 0; k < need[static_cast<std::size_t>(t)]; ++k) {
        int hex = -1;
        if (static_cast<std::size_t>(k) < last_seen.size()) {
          hex = last_seen[static_cast<std::size_t>(k)];
        } else if (!near.empty()) {
          hex = near[sampler.below(near.size())];
        } else if (!anywhere.empty()) {
          hex = anywhere[sampler.below(anywhere.size())];
        } else {
          break;  // nowhere hidden to stand (a hand-made position): left out
        }
        // Hidden units take the ids missing from the view (the rest went to stock), so that the
        // next unit gained gets the id it gets in the game.
        while (free_id < s.units.size() && s.units[free_id].place != UnitPlace::kStock) {
          ++free_id;
        }
        Unit u;
        u.id = static_cast<int>(free_id);
        u.owner = q;
        u.type = type;
        u.place = UnitPlace::kMap;
        u.hex = hex;
        // Whether it moved this turn is not known: the player whose turn it is may move it.
        const int allowance =
            type == UnitType::kCavalry ? 3 : (type == UnitType::kFrigate ? 5 : 2);  // [9.11, 9.31]
        u.moves_left = q == s.current && s.phase == Phase::kMovement ? allowance : 0;
        if (free_id < s.units.size()) {
          s.units[free_id] = u;
        } else {
          s.units.push_back(u);
        }
        ++free_id;
      }
    }
  }
}

}  // namespace

GameState determinize(const GameView& v, const PublicHistory& history, std::uint64_t sample_seed) {
  if (!valid_player(v, v.viewer)) {
    throw std::invalid_argument("determinize needs the view of a seat");
  }
  GameState s;
  s.options = v.options;
  s.radius = v.radius;
  const Board& board = s.board();
  if (static_cast<int>(v.hexes.size()) != board.size()) {
    throw std::invalid_argument("the view's hexes do not match its board");
  }
  s.hexes.assign(static_cast<std::size_t>(board.size()), HexCell{});
  const auto known_by = knowledge(v, history, board);
  const auto must = terrain_hints(v, board.size());

  // The public composition of what is still face down to the viewer.
  int interior = 0;
  for (int h = 0; h < board.size(); ++h) interior += board.is_perimeter(h) ? 0 : 1;
  std::array<int, kTerrainKinds> pool = tile_bank_for(v.options.tile_mix, interior);
  for (const HexView& h : v.hexes) {
    if (h.known && !h.perimeter && h.terrain != Terrain::kNone) {
      int& n = pool[static_cast<std::size_t>(bank_slot_of(h.terrain))];
      n = std::max(0, n - 1);
    }
  }

  Rng sampler(sample_seed ^ 0xA5A5A5A55A5A5A5AULL);
  std::vector<int> unknown_revealed;
  for (int h = 0; h < board.size(); ++h) {
    const HexView& hv = v.hexes[static_cast<std::size_t>(h)];
    HexCell& c = s.hexes[static_cast<std::size_t>(h)];
    c.known_by = known_by[static_cast<std::size_t>(h)];
    c.revealed = c.known_by != 0;
    if (hv.known) {
      c.terrain = hv.terrain;
    } else if (c.revealed) {
      unknown_revealed.push_back(h);  // explored by others: its tile exists, unseen
    }
    c.town_owner = hv.town_owner;
    c.city = hv.city;
    c.capital_of = hv.capital_of;
    c.built_this_turn = hv.built_this_turn;
    c.battle_this_turn = hv.battle_this_turn;
    c.placed_infantry = static_cast<std::uint8_t>(hv.placed_infantry);
    c.placed_other = static_cast<std::uint8_t>(hv.placed_other);
    c.began_turn_with_land_unit = static_cast<std::uint8_t>(hv.began_turn_with_land_unit);
  }
  // A City's terrain shows in its owner's units: every unit is supported by a Town or City
  // [8.2 Key Concept], so the units a player has beyond what his known Cities support name the
  // terrain of his Cities on unknown hexes.
  for (const auto& [h, t] : city_terrains(v, pool)) {
    s.hexes[static_cast<std::size_t>(h)].terrain = t;
  }
  // Then hexes whose pieces constrain the tile, so the rest of the bank stays consistent.
  std::stable_partition(unknown_revealed.begin(), unknown_revealed.end(),
                        [&](int h) { return must[static_cast<std::size_t>(h)] != Must::kAny; });
  for (int h : unknown_revealed) {
    Terrain& t = s.hexes[static_cast<std::size_t>(h)].terrain;
    if (t == Terrain::kNone) t = draw(pool, must[static_cast<std::size_t>(h)], sampler);
  }
  s.tile_bank = pool;  // the unrevealed hexes are drawn from what is left, when revealed

  int max_id = -1;
  for (const UnitView& u : v.units) max_id = std::max(max_id, u.id);
  // Every unit ever made was gained in the open (kUnitGained is never hidden): under fog of war
  // the highest id may belong to a unit out of sight.
  for (const Event& e : history.events) {
    if (e.kind == EventKind::kUnitGained) max_id = std::max(max_id, e.unit);
  }
  s.units.resize(static_cast<std::size_t>(max_id + 1));
  for (int id = 0; id <= max_id; ++id) {
    Unit& u = s.units[static_cast<std::size_t>(id)];
    u.id = id;
    u.owner = 0;
    u.place = UnitPlace::kStock;  // not in the view: returned to stock long ago
    u.move_done = true;
  }
  for (const UnitView& uv : v.units) {
    Unit& u = s.units[static_cast<std::size_t>(uv.id)];
    u.owner = uv.owner;
    u.type = uv.type;
    u.place = uv.place;
    u.hex = uv.hex;
    u.carrier = uv.carrier;
    u.moves_left = uv.moves_left;
    u.has_moved = uv.has_moved;
    u.move_done = uv.move_done;
    u.attacked = uv.attacked;
    u.transported = uv.transported;
    u.carried_this_turn = uv.carried_this_turn;
    u.disembark_hex = uv.disembark_hex;
  }

  s.players.resize(v.players.size());
  for (std::size_t p = 0; p < v.players.size(); ++p) {
    const PlayerView& pv = v.players[p];
    PlayerState& ps = s.players[p];
    ps.eliminated = pv.eliminated;
    ps.conceded = pv.conceded;
    ps.capital_hex = pv.capital_hex;
    // A player cannot lose his Capital during his own turn (only the player whose turn it is
    // attacks), so holding it now is holding it at the start of the turn where that matters [7.1].
    ps.held_capital_at_turn_start = pv.holds_capital;
    // Before the Clock starts the view shows no coins; those out of the game hold one [5.5].
    ps.doomsday_coin = pv.doomsday_coin || pv.eliminated || pv.conceded;
    ps.doomsday_roll = pv.doomsday_roll;
    ps.ruler = pv.ruler;  // alliances are public [15.61]
    ps.reorganization = pv.reorganization;
  }

  // The sampled world's own luck, whatever the real game's scheme: the view carries neither
  // the real seed nor its stream counters, and a search needs only plausible dice and tiles.
  // Scheme 1 (one stream) is enough for that and keeps the sampled worlds as they were.
  s.random_scheme = RandomScheme::kSingleStream;
  s.rng = Rng(sample_seed);
  s.streams = StreamCounters{};
  s.turn = v.turn;
  s.first_player = v.first_player;
  s.current = v.current;
  s.phase = v.phase;
  s.capital_choices = v.capital_choices;
  s.active_unit = v.active_unit;
  s.entries = v.battle_entries;
  s.battle = v.battle;
  s.bombard = v.bombard;
  s.elimination = v.elimination;
  s.placement_battles = v.placement_battles;
  s.ending_turn = v.ending_turn;
  s.doomsday_started = v.doomsday_started;
  // The optional rules' public parts: seating [15.2], Exploration Balancing's offer [15.3], a
  // Town Relocation [15.5] and a Capital's return to its Vassal [15.62].
  s.turn_order = v.turn_order;
  s.balance = v.balance;
  s.relocation = v.relocation;
  s.capital_return = v.capital_return;
  // [5.3] The first player to lose his Capital: one whose marker lies in another's Town.
  for (const HexView& h : v.hexes) {
    if (h.capital_of != kNoPlayer && h.town_owner != kNoPlayer && h.town_owner != h.capital_of) {
      s.capital_loser = h.capital_of;
      break;
    }
  }
  s.winners = v.winners;
  s.ended_by = v.ended_by;
  s.action_count = v.action_count;
  if (v.options.fog_of_war) {
    // The seat's memory is his own (the view shows it); the others' are not his to know.
    s.last_seen.assign(v.players.size(), {});
    s.last_seen[static_cast<std::size_t>(v.viewer)] = v.last_seen;
    if (v.phase != Phase::kGameOver) add_hidden_units(v, s, sampler);
    // Each memory also holds what is in sight now, as after every action of the game.
    update_last_seen(s);
  }
  return s;
}

}  // namespace viktory::ai
