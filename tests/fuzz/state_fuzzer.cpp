// libFuzzer harness: the snapshot reader protocol::state_from_json (the server loads its
// snapshots with it; scenarios of the "state" form use it too).
//
// Oracles: the reader throws nothing but JsonError; an accepted state survives
// state_to_json -> state_from_json unchanged and keeps the engine's invariants; the engine
// works on it: views for every seat and a spectator, legal actions of every seat, and each
// legal action of the decider applies and keeps the invariants.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "fuzz_support.h"
#include "json.h"
#include "json_mutator.h"

using nlohmann::json;
using namespace viktory;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const json j = json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return -1;  // not JSON: not interesting for the corpus
  GameState state;
  try {
    state = protocol::state_from_json(j);
  } catch (const protocol::JsonError&) {
    return 0;
  }
  const json written = protocol::state_to_json(state);
  fuzz::require(protocol::state_from_json(written) == state,
                "state_to_json/state_from_json do not round-trip");
  if (auto broken = check_invariants(state)) {
    fuzz::report("state_from_json accepted a state that breaks an invariant: " + *broken);
  }
  fuzz::exercise_state(state, 64);
  return 0;
}
