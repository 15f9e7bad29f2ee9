// libFuzzer harness: the scenario reader (protocol/scenario.h), all three forms, and the
// scenario's own actions played from the position it describes.
//
// Oracles: the reader throws nothing but JsonError; an accepted position keeps the engine's
// invariants and the engine works on it (views, legal actions, each legal action of the
// decider); every scenario action that the engine accepts keeps the invariants.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "fuzz_support.h"
#include "json_mutator.h"
#include "scenario.h"

using nlohmann::json;
using namespace viktory;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const json j = json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return -1;  // not JSON: not interesting for the corpus
  protocol::Scenario scenario;
  try {
    scenario = protocol::scenario_from_json(j);
  } catch (const protocol::JsonError&) {
    return 0;
  }
  if (auto broken = check_invariants(scenario.state)) {
    fuzz::report("scenario_from_json accepted a state that breaks an invariant: " + *broken);
  }
  fuzz::exercise_state(scenario.state, 16);

  // The scenario's actions, as viktory-scenario plays them (at most a few dozen: a long
  // list would only slow the fuzzer down).
  GameState state = scenario.state;
  constexpr std::size_t kMaxActions = 32;
  for (std::size_t i = 0; i < scenario.actions.size() && i < kMaxActions; ++i) {
    Action action;
    try {
      action = protocol::scenario_action(scenario.actions[i], state, scenario.unit_names);
    } catch (const protocol::JsonError&) {
      continue;
    }
    std::vector<Event> events;
    if (apply_in_place(state, action, &events)) continue;
    if (auto broken = check_invariants(state)) {
      fuzz::report("a scenario action broke an invariant: " + *broken);
    }
    for (int viewer = kSpectator; viewer < static_cast<int>(state.players.size()); ++viewer) {
      (void)view_for(state, viewer);
      (void)filter_events_for(state, events, viewer);
    }
  }
  return 0;
}
