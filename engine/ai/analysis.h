// A reading of a (determinized) position for one player, shared by the heuristic player and
// the evaluation: who stands where, where each player's land units can get to, and how strong
// a Town's defence and the threat against it are.
//
// Everything here estimates; the rules themselves stay in the engine (the players only ever
// choose among legal_actions).
#pragma once

#include <cstdint>
#include <vector>

#include "battle_odds.h"
#include "state.h"

namespace viktory::ai {

// Value of a unit in material terms (an Infantry is 1).
double unit_value(UnitType t);

class Analysis {
 public:
  Analysis(const GameState& s, int me);

  const GameState& state() const { return s_; }
  const Board& board() const { return board_; }
  int me() const { return me_; }
  int players() const { return players_; }

  // Military units standing in a hex (cargo excluded), by owner.
  const Force& force(int hex, int player) const {
    return forces_[static_cast<std::size_t>(hex * players_ + player)];
  }
  // The owner of units other than `player` in the hex, or kNoPlayer.
  int enemy_units_owner(int hex, int player) const;
  bool hostile(int hex, int player) const;  // enemy units or an enemy Town/City
  bool knows(int hex, int player) const;
  bool known_land(int hex, int player) const;
  bool known_water(int hex, int player) const;

  // Land units of `player` that could reach `hex` in his next turn, as a Force (estimate:
  // movement allowance over land he knows, slow terrain, roads between his Towns; Frigates'
  // cargo within sailing range). Computed on first use for each player.
  const Force& threat(int player, int hex) const;
  // The strongest single enemy's threat against `hex` (enemies do not fight together).
  Force strongest_threat(int hex, int player, int* from_player = nullptr) const;

  // Defensive Terrain dice a defender at `hex` gets (best of Mountain/City 2, Forest/Town 1)
  // and whether `defender` has a Frigate next to it for Naval Support [12.3 step 2].
  int terrain_dice(int hex, int defender) const;
  bool naval_support(int hex, int defender) const;

  // Odds of `attacker` with `force` attacking `hex` as it stands (its defenders, Town,
  // terrain and Naval Support).
  BattleOdds attack_odds(const Force& force, int hex, int attacker) const;
  // Chance the strongest enemy takes `hex` (a Town/City of `owner`) next turn if it holds
  // `garrison`.
  double capture_risk(int hex, int owner, const Force& garrison) const;

  // Movement: for one unit of `player` at `from` with `mp` Movement Points left, the hexes it
  // can reach this turn (dist >= 0) and the first step (hex of the first move action) towards
  // each. Land units: known land, entering a hostile hex or slow terrain stops [9.12], roads
  // [9.13]; Frigates: known water.
  struct Reach {
    std::vector<std::int8_t> dist;
    std::vector<std::int16_t> first;
  };
  void reach(int player, const Unit& unit, Reach& out) const;

  // Distance in hexes to the nearest Town/City of another player (large if none).
  int enemy_town_distance(int hex) const;
  // Steps over land `me` knows from the nearest of `sources` (kFar where none is reachable).
  static constexpr int kFar = 99;
  std::vector<int> land_distance_from(const std::vector<int>& sources) const;
  // The same over water `me` knows and his ports (for Frigates).
  std::vector<int> water_distance_from(const std::vector<int>& sources) const;
  bool is_port_for(int hex, int player, bool current) const;
  // The same from the nearest enemy Town/City, cached.
  int enemy_town_land_distance(int hex) const;
  const std::vector<int>& my_towns() const { return my_towns_; }
  const std::vector<int>& enemy_towns() const { return enemy_towns_; }
  // Hexes of `player`'s Towns 2-3 land hexes from `town` with a road between them [9.13].
  const std::vector<int>& roads_from(int player, int town) const;

 private:
  void compute_threat(int player) const;
  void compute_roads(int player) const;
  bool began_here(int hex, int player) const;

  const GameState& s_;
  const Board& board_;
  int me_;
  int players_;
  std::vector<Force> forces_;
  std::vector<std::uint8_t> known_by_;  // per hex: bit per player who knows its terrain
  std::vector<int> my_towns_, enemy_towns_;
  mutable std::vector<int> enemy_town_distance_;
  mutable std::vector<int> enemy_town_land_distance_;
  mutable std::vector<std::vector<Force>> threat_;            // [player][hex], empty until computed
  mutable std::vector<std::vector<std::vector<int>>> roads_;  // [player][hex]
  mutable std::vector<bool> roads_done_;
};

}  // namespace viktory::ai
