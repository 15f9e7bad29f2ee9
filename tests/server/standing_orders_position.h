// The position of the standing-order tests (unit and over loopback): a Battle in which the
// defender chooses his losses [10.1] out of turn, round after round; and how a test puts it in
// place of a stored game's position while the server is down.
#pragma once

#include <string>
#include <vector>

#include "fixture.h"
#include "json.h"
#include "store.h"

namespace viktory::server::testing {

using U = UnitType;

// Battle at E5 (plains): Alice's Infantry has moved in from E4; Bob defends with two
// Artillery, a Cavalry and two Infantry (or one). Each round Alice's one die hits (a '2' or '3':
// Bob chooses his loss [10.1]) and Bob's dice miss.
struct BattlePosition {
  viktory::testing::Position p{2};
  int hex = -1;
  std::vector<int> art, inf;
  int cav = -1;
  explicit BattlePosition(int infantry = 2) {
    p.fill(Terrain::kPlains);
    hex = p.at("E5");
    p.capital(0, p.at("B5")).capital(1, p.at("H2"));
    p.terrain(p.at("B3"), Terrain::kGrassland).city(0, p.at("B3"));
    p.terrain(p.at("F2"), Terrain::kMountain).city(1, p.at("F2"));
    p.terrain(p.at("H4"), Terrain::kMountain).city(1, p.at("H4"));
    p.terrain(p.at("G6"), Terrain::kGrassland).city(1, p.at("G6"));
    art = {p.unit(1, U::kArtillery, hex), p.unit(1, U::kArtillery, hex)};
    cav = p.unit(1, U::kCavalry, hex);
    for (int i = 0; i < infantry; ++i) inf.push_back(p.unit(1, U::kInfantry, hex));
    const int a = p.unit(0, U::kInfantry, p.at("E4"));
    p.start_turn(0, Phase::kMovement);
    p.apply_ok(act::move(0, a, hex));
    // Round by round: Alice's die, then Bob's (one per unit type he still has in the Battle).
    p.dice({2, 6, 6, 6, 3, 6, 6, 6, 2, 6, 6, 3, 6, 6});
  }
};

// Puts `state` in place of game `id`'s position (the server is down: nobody holds the file).
inline void store_position(const std::string& file, std::int64_t id, const GameState& state) {
  Store store(file);
  store.db()
      .prepare("INSERT OR REPLACE INTO snapshots(game_id, seq, state) VALUES(?, 0, ?)")
      .bind(1, id)
      .bind(2, protocol::state_to_json(state).dump())
      .run();
}

}  // namespace viktory::server::testing
