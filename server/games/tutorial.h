// The guided first game (docs/server.md, "The guided first game"; docs/protocol.md,
// "tutorial.start"): a private, unrated game of one player against the passive computer
// (ai::Level::kPassive), started from the scenario server/tutorial/first-game.json. The
// scenario is compiled into the server and holds every secret of the game (face-down tiles,
// scripted dice): like any scenario it never goes to a client, who gets his view as always.
//
// A player has at most one guided game running: starting a new one cancels the old. Guided
// games count against no cap of open or computer games (they are never open, and their
// computer searches nothing), so their own budget bounds what one client can make of them:
// new games per player and per client address per hour (`--tutorials-per-hour`).
#pragma once

#include <cstdint>
#include <mutex>
#include <string>

#include "game.h"
#include "rate_limit.h"

namespace viktory::server {

// The scenario's text (generated from server/tutorial/first-game.json).
const char* tutorial_scenario_json();

struct TutorialLimits {
  // New guided games a player may start per hour (burst as many); an address gets three times
  // as many (a household, a school).
  int per_player_per_hour = 20;
};

class Tutorials {
 public:
  // Reads the scenario: a bad one throws (protocol::JsonError), so the server does not start.
  explicit Tutorials(TutorialLimits limits = {});

  // The position a guided game starts from, with its options.
  const GameState& start_position() const { return start_; }

  // Takes one new guided game from the player's budget, then from the address's; false when
  // either is spent.
  bool admit(std::int64_t player_id, const std::string& address);

  // Held by tutorial.start from finding the player's guided game to the new one's start, so
  // that two requests of his at once cannot both make one. Taken under no other lock.
  std::mutex& creating() { return creating_; }

 private:
  std::mutex creating_;
  GameState start_;
  std::mutex mutex_;
  AddressBuckets players_;
  AddressBuckets addresses_;
};

}  // namespace viktory::server
