#include "battle_preview.h"

#include <algorithm>

#include "hex.h"
#include "rng.h"

namespace viktory {
namespace {

constexpr std::array<UnitType, kUnitTypes> kTypes{UnitType::kInfantry, UnitType::kCavalry,
                                                  UnitType::kArtillery, UnitType::kFrigate};

int total(const UnitCounts& u) { return u[0] + u[1] + u[2] + u[3]; }
int& at(UnitCounts& u, UnitType t) { return u[static_cast<std::size_t>(t)]; }

// What a unit type adds to its side's Fire Round: the dice lost when the type is gone.
int fire_value(UnitType t, bool attacking, bool naval) {
  if (naval) return t == UnitType::kFrigate ? 1 : 0;
  if (t == UnitType::kFrigate) return 0;
  return attacking && t == UnitType::kCavalry ? 2 : 1;
}

// The simulated players' choice of losses [10.1]. The firer ('1') takes the unit whose type
// is closest to disappearing (the most dice gone soonest); the target ('2', '3') gives up a
// unit of his most numerous type, so that he keeps his types (combined arms [12.0]).
UnitType firer_pick(const UnitCounts& left, bool target_attacking, bool naval) {
  UnitType best = UnitType::kInfantry;
  int best_left = 1 << 20;
  int best_value = -1;
  for (UnitType t : kTypes) {
    const int n = left[static_cast<std::size_t>(t)];
    if (n <= 0) continue;
    const int value = fire_value(t, target_attacking, naval);
    if (n < best_left || (n == best_left && value > best_value)) {
      best = t;
      best_left = n;
      best_value = value;
    }
  }
  return best;
}

UnitType target_pick(const UnitCounts& left, bool target_attacking, bool naval) {
  UnitType best = UnitType::kInfantry;
  int best_left = -1;
  int best_value = 1 << 20;
  for (UnitType t : kTypes) {
    const int n = left[static_cast<std::size_t>(t)];
    if (n <= 0) continue;
    const int value = fire_value(t, target_attacking, naval);
    if (n > best_left || (n == best_left && value < best_value)) {
      best = t;
      best_left = n;
      best_value = value;
    }
  }
  return best;
}

// Rolls `dice` and picks the hit units out of `left` (never more than there are) [10.1].
UnitCounts fire(Rng& rng, int dice, const UnitCounts& target, bool target_attacking, bool naval,
                int* hits) {
  int ones = 0;
  int others = 0;
  for (int i = 0; i < dice; ++i) {
    const int face = rng.die();
    ones += face == 1 ? 1 : 0;
    others += face == 2 || face == 3 ? 1 : 0;
  }
  *hits = ones + others;
  UnitCounts left = target;
  UnitCounts lost{};
  for (int i = 0; i < ones && total(left) > 0; ++i) {
    const UnitType t = firer_pick(left, target_attacking, naval);
    --at(left, t);
    ++at(lost, t);
  }
  for (int i = 0; i < others && total(left) > 0; ++i) {
    const UnitType t = target_pick(left, target_attacking, naval);
    --at(left, t);
    ++at(lost, t);
  }
  return lost;
}

enum class Outcome { kAttackerWins, kDefenderHolds, kUndecided };

// One Battle fought to the end without a retreat [12.3 steps 0-4].
Outcome simulate(Rng& rng, UnitCounts att, UnitCounts def, bool naval, const Defences& defences,
                 int* rounds) {
  *rounds = 0;
  int hits = 0;
  if (!naval && total(def) > 0) {
    const UnitCounts lost =
        fire(rng, pre_battle_fire_dice(att).entitled(), def, false, naval, &hits);
    for (std::size_t i = 0; i < def.size(); ++i) def[i] -= lost[i];  // at once [step 0]
    if (total(def) == 0 && !defences.town) return Outcome::kAttackerWins;
  }
  for (int round = 1; round <= kPreviewMaxRounds; ++round) {
    *rounds = round;
    UnitCounts def_lost{};
    int suppression = 0;
    if (total(def) > 0) {
      def_lost = fire(rng, attacker_fire_dice(naval, att).entitled(), def, false, naval, &hits);
      suppression = std::max(0, hits - total(def));  // [12.31]
    }
    // Hit defenders still fire back [12.3 step 1].
    const UnitCounts att_lost =
        fire(rng, defender_fire_dice(naval, def, defences, suppression).entitled(), att, true,
             naval, &hits);
    for (std::size_t i = 0; i < att.size(); ++i) {
      att[i] -= att_lost[i];
      def[i] -= def_lost[i];
    }
    if (total(att) == 0) return Outcome::kDefenderHolds;  // also when both fell [step 4]
    if (total(def) == 0) return Outcome::kAttackerWins;
  }
  return Outcome::kUndecided;
}

}  // namespace

std::optional<BattlePreview> preview_battle(const GameView& view, int hex,
                                            const std::vector<int>& attacking_units, int trials,
                                            std::uint64_t seed) {
  if (hex < 0 || hex >= static_cast<int>(view.hexes.size()) || attacking_units.empty()) {
    return std::nullopt;
  }
  // Fog of war: only a Battle the viewer sees; its garrison is not in his view.
  if (view.hexes[static_cast<std::size_t>(hex)].unseen) return std::nullopt;
  const Board& board = Board::for_radius(view.radius);
  auto unit_view = [&](int id) -> const UnitView* {
    for (const UnitView& u : view.units) {
      if (u.id == id) return &u;
    }
    return nullptr;
  };
  BattlePreview p;
  p.hex = hex;
  const HexView& h = view.hexes[static_cast<std::size_t>(hex)];
  p.terrain_known = h.known && h.terrain != Terrain::kNone;

  UnitCounts all_attackers{};
  for (int id : attacking_units) {
    const UnitView* u = unit_view(id);
    if (!u || u->place != UnitPlace::kMap) return std::nullopt;
    if (p.attacker == kNoPlayer) p.attacker = u->owner;
    if (u->owner != p.attacker) return std::nullopt;
    ++at(all_attackers, u->type);
  }
  p.naval = p.terrain_known ? h.terrain == Terrain::kWater
                            : all_attackers[static_cast<std::size_t>(UnitType::kFrigate)] ==
                                  static_cast<int>(attacking_units.size());
  // Who defends: the other player with units standing there, else the Town's owner [12.1].
  UnitCounts defenders{};
  for (const UnitView& u : view.units) {
    if (u.place != UnitPlace::kMap || u.hex != hex || u.carrier >= 0 || u.owner == p.attacker) {
      continue;
    }
    if (p.defender == kNoPlayer) p.defender = u.owner;
    if (u.owner == p.defender) ++at(defenders, u.type);
  }
  if (p.defender == kNoPlayer && h.town_owner != p.attacker) p.defender = h.town_owner;
  if (p.defender == kNoPlayer) return std::nullopt;

  // Only the arm of the Battle fights: land units in a land Battle, Frigates at sea [10.5].
  UnitCounts attackers{};
  for (UnitType t : kTypes) {
    if ((t == UnitType::kFrigate) == p.naval) at(attackers, t) = at(all_attackers, t);
  }
  Defences defences;
  defences.terrain = p.terrain_known ? h.terrain : Terrain::kNone;
  defences.town = h.town_owner == p.defender;
  const bool holds_capital = p.defender >= 0 &&
                             p.defender < static_cast<int>(view.players.size()) &&
                             view.players[static_cast<std::size_t>(p.defender)].holds_capital;
  defences.full_city = defences.town && h.city && holds_capital;  // [14.0]
  for (int n : board.neighbors(hex)) {
    if (n == Board::kNoHex) continue;
    for (const UnitView& u : view.units) {
      defences.naval_support =
          defences.naval_support || (u.place == UnitPlace::kMap && u.hex == n && u.carrier < 0 &&
                                     u.owner == p.defender && u.type == UnitType::kFrigate);
    }
  }
  defences.terrain_leveling = view.options.terrain_leveling;

  if (!p.naval && total(defenders) > 0) p.pre_battle_fire = pre_battle_fire_dice(attackers);
  if (total(defenders) > 0) p.attacker_fire = attacker_fire_dice(p.naval, attackers);
  p.defender_fire = defender_fire_dice(p.naval, defenders, defences, 0);

  p.trials = std::max(1, trials);
  p.seed = seed;
  Rng rng(seed);  // its own generator, never the game's
  int won = 0;
  int held = 0;
  long rounds_total = 0;
  for (int i = 0; i < p.trials; ++i) {
    int rounds = 0;
    const Outcome o = simulate(rng, attackers, defenders, p.naval, defences, &rounds);
    won += o == Outcome::kAttackerWins ? 1 : 0;
    held += o == Outcome::kDefenderHolds ? 1 : 0;
    rounds_total += rounds;
  }
  p.attacker_wins = static_cast<double>(won) / p.trials;
  p.defender_holds = static_cast<double>(held) / p.trials;
  p.undecided = static_cast<double>(p.trials - won - held) / p.trials;
  p.average_rounds = static_cast<double>(rounds_total) / p.trials;
  return p;
}

}  // namespace viktory
