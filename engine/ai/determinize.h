// Determinization: a whole GameState consistent with what one seat may know.
//
// A computer player sees the game only through view_for(its seat) and the events it was shown.
// To simulate with the engine it needs a GameState; this builds one in which everything the
// seat can see is exactly as it sees it, and everything hidden is sampled:
//  - the terrain of hexes other players explored but the seat does not know (independent
//    exploration), drawn from the tile bank's public composition (the initial bank of the
//    options minus the tiles the seat knows), respecting what the pieces on them show (a Town
//    or a land unit stands on land, a Frigate outside a port on water);
//  - the undrawn tiles, as the rest of that composition (drawn when revealed, as in the game);
//  - the generator: a fresh one from the caller's sample seed, never the game's;
//  - under fog of war, the other players' units outside the seat's sight: as many as their
//    Towns and Cities support beyond their Reserves and the units in sight [8.2], placed where
//    the seat last saw such units, else on their Towns and Cities outside sight.
// Different sample seeds give different samples of the hidden parts (the samples of a
// determinized search).
#pragma once

#include <cstdint>
#include <vector>

#include "event.h"
#include "state.h"
#include "view.h"

namespace viktory::ai {

// What a seat has seen happen: every event it was shown, in order (filter_events_for of each
// action's events for that seat). Under independent exploration it tells who explored which
// hex; without it, that is inferred from where everybody's pieces stand.
struct PublicHistory {
  std::vector<Event> events;
};

// A state whose view_for(view.viewer) equals `view` in everything the rules use. `view.viewer`
// must be a seat, not a spectator.
GameState determinize(const GameView& view, const PublicHistory& history,
                      std::uint64_t sample_seed);

}  // namespace viktory::ai
