#include "position_features.h"

#include <algorithm>
#include <vector>

#include "analysis.h"
#include "game.h"

namespace viktory::ai {
namespace {

double material_of(const GameState& s, int p) {
  double m = 0;
  for (const Unit& u : s.units) {
    if (u.owner == p && u.place != UnitPlace::kStock) m += unit_value(u.type);
  }
  return m;
}

bool holds_own_capital(const GameState& s, int p) {
  const int cap = s.players[static_cast<std::size_t>(p)].capital_hex;
  return cap >= 0 && s.hexes[static_cast<std::size_t>(cap)].town_owner == p;
}

// Sites where `p` could build a Town (or could once they are explored): 2-3 hexes from one of
// his Towns, not next to any Town [7.21]. Unexplored hexes count for the chance of land.
double room_of(const Analysis& a, int p) {
  const GameState& s = a.state();
  const Board& b = a.board();
  std::vector<int> towns;
  for (int h = 0; h < b.size(); ++h) {
    if (s.hexes[static_cast<std::size_t>(h)].town_owner == p) towns.push_back(h);
  }
  double room = 0;
  for (int h = 0; h < b.size(); ++h) {
    const HexCell& c = s.hexes[static_cast<std::size_t>(h)];
    if (c.town_owner != kNoPlayer || b.is_perimeter(h)) continue;
    bool near = false, crowded = false;
    for (int t : towns) {
      const int d = b.distance(h, t);
      near = near || d == 2 || d == 3;
    }
    if (!near) continue;
    for (int n : b.neighbors(h)) {
      if (n != Board::kNoHex && s.hexes[static_cast<std::size_t>(n)].town_owner != kNoPlayer) {
        crowded = true;
      }
    }
    if (crowded) continue;
    if (a.knows(h, p)) {
      room += is_land(c.terrain) ? 1.0 : 0.0;
    } else {
      room += 0.6;
    }
  }
  return room;
}

double town_risk(const Analysis& a, int p, double* capital_risk) {
  const GameState& s = a.state();
  double risk = 0;
  *capital_risk = 0;
  for (int h = 0; h < a.board().size(); ++h) {
    const HexCell& c = s.hexes[static_cast<std::size_t>(h)];
    if (c.town_owner != p) continue;
    Force garrison = a.force(h, p);
    garrison.frigates = 0;
    const double r = a.capture_risk(h, p, garrison);
    risk += r * (c.city ? 2 : 1);
    if (c.capital_of == p) *capital_risk = r;
  }
  return risk;
}

}  // namespace

int strongest_rival(const GameState& s, int me) {
  int best = kNoPlayer;
  double best_score = -1;
  for (int p = 0; p < static_cast<int>(s.players.size()); ++p) {
    if (p == me || !s.players[static_cast<std::size_t>(p)].in_game()) continue;
    const double score = 100.0 * victory_points(s, p) + material_of(s, p);
    if (score > best_score) {
      best_score = score;
      best = p;
    }
  }
  return best;
}

Features features(const GameState& s, int me) {
  Features f{};
  f[kBias] = 1;
  const int rival = strongest_rival(s, me);
  if (rival == kNoPlayer) return f;
  const Analysis a(s, me);
  const int my_vp = victory_points(s, me);
  const int rival_vp = victory_points(s, rival);
  f[kVictoryPoints] = my_vp - rival_vp;
  f[kMaterial] = material_of(s, me) - material_of(s, rival);
  f[kCapitalHeld] =
      (holds_own_capital(s, me) ? 1.0 : 0.0) - (holds_own_capital(s, rival) ? 1.0 : 0.0);
  int my_cities = 0, rival_cities = 0;
  for (const HexCell& c : s.hexes) {
    if (!c.city) continue;
    my_cities += c.town_owner == me;
    rival_cities += c.town_owner == rival;
  }
  f[kCities] = my_cities - rival_cities;
  f[kRoom] = (room_of(a, me) - room_of(a, rival)) / 5.0;
  double my_capital = 0, rival_capital = 0;
  f[kMyTownRisk] = town_risk(a, me, &my_capital);
  f[kRivalTownRisk] = town_risk(a, rival, &rival_capital);
  f[kMyCapitalRisk] = my_capital;
  f[kRivalCapitalRisk] = rival_capital;
  const double progress =
      std::min(1.0, static_cast<double>(s.turn) / (120.0 * static_cast<double>(s.players.size())));
  f[kLateVictoryPoints] = progress * (my_vp - rival_vp);
  f[kMyRaceLead] = std::max(0, my_vp - 14);
  f[kRivalRaceLead] = std::max(0, rival_vp - 14);
  int opponents = 0;
  for (int p = 0; p < static_cast<int>(s.players.size()); ++p) {
    opponents += p != me && s.players[static_cast<std::size_t>(p)].in_game();
  }
  f[kOpponentsLeft] = std::max(0, opponents - 1);
  return f;
}

}  // namespace viktory::ai
