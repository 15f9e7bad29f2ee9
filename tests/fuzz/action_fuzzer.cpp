// libFuzzer harness: an action as a client sends it (JSON text) through
// protocol::action_from_json, and every accepted action against a set of real positions.
//
// Oracles: the reader throws nothing but JsonError; an accepted action survives
// action_to_json -> action_from_json unchanged; the engine refuses or applies it without
// crashing, and an applied action keeps check_invariants.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fuzz_support.h"
#include "json.h"
#include "json_mutator.h"

namespace {

using nlohmann::json;
using namespace viktory;

// Positions from the setup to the middle of a game, built once: every phase and, with luck,
// a battle or a pending bombard.
const std::vector<GameState>& positions() {
  static const std::vector<GameState> states = [] {
    std::vector<GameState> out;
    for (int players : {2, 3}) {
      Options options;
      options.players = players;
      for (GameState& s : fuzz::random_game_states(options, 11 + players, 400, 37)) {
        out.push_back(std::move(s));
      }
    }
    return out;
  }();
  return states;
}

void try_on(const GameState& state, Action action) {
  std::vector<Event> events;
  GameState next = state;
  if (apply_in_place(next, action, &events)) {
    fuzz::require(next == state, "a refused action changed the state");
    return;
  }
  if (auto broken = check_invariants(next)) {
    fuzz::report("an accepted action broke an invariant: " + *broken);
  }
  for (int viewer = kSpectator; viewer < static_cast<int>(next.players.size()); ++viewer) {
    for (const Event& e : filter_events_for(next, events, viewer)) (void)protocol::event_to_json(e);
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)positions();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const json j = json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return -1;  // not JSON: not interesting for the corpus
  Action action;
  try {
    action = protocol::action_from_json(j);
  } catch (const protocol::JsonError&) {
    return 0;
  }
  const json written = protocol::action_to_json(action);
  fuzz::require(protocol::action_from_json(written) == action,
                "action_to_json/action_from_json do not round-trip: " + written.dump());

  for (const GameState& state : positions()) {
    // As the server does it: the sender's seat acts (here the decider, and also a seat that
    // must not decide now); and as a scenario does it: the player written in the action.
    Action as_decider = action;
    as_decider.player = decider(state);
    try_on(state, as_decider);
    Action as_other = action;
    as_other.player = (decider(state) + 1) % static_cast<int>(state.players.size());
    try_on(state, as_other);
    if (action.player != kNoPlayer) try_on(state, action);
  }
  return 0;
}
