// verify_record: checks a game record (game_record.h) the way a sceptical player would: the
// revealed secret against the commitment, the contributions against theirs, and every die and
// tile against a replay of the actions with the engine from the derived seed. The checks and
// what they prove are in docs/fair-play.md.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "game_record.h"

namespace viktory::protocol {

struct VerifyReport {
  bool verified = false;
  // The first check that failed, in words, e.g. "action 37 (turn 12): the record says Bob
  // rolled 2, 5 for the defender's fire at E4; the seed gives 6, 5". Empty when verified.
  std::string failure;
  std::vector<std::string> notes;     // remarks that do not fail the check
  std::optional<std::uint64_t> seed;  // once the reveal was read
  int actions = 0;                    // actions replayed and matched
  int rolls = 0;
  int dice = 0;
  int tiles = 0;  // tiles drawn, the start area included
  bool witness_checked = false;

  // One line: "verified: ..." or "NOT verified: <failure>".
  std::string summary() const;
};

// `witness`: what one player's client saw live, compared with the record too.
VerifyReport verify_record(const GameRecord& record, const Witness* witness = nullptr);

// {"verified", "failure"?, "summary", "notes", "seed" (0x-hex string)?, "actions", "rolls",
//  "dice", "tiles", "witness_checked"}
nlohmann::json report_to_json(const VerifyReport& report);

}  // namespace viktory::protocol
