// Who took an action for its seat. The engine knows only the seat; players reading the log, and
// coming back to a game, are told when it was not the seat's player himself.
#pragma once

#include <cstdint>
#include <string_view>

namespace viktory::server {

enum class ActionSource : std::uint8_t {
  kPlayer,         // the seat's player (or, for a computer's own seat, that computer)
  kComputer,       // a computer player deciding for a seat it controls (docs/ai.md)
  kStandingOrder,  // the player's standing order, applied while he was away
  kClock,          // the clock: a skipped turn's decisions, an expulsion's concession
};

// "computer", "standing_order", "clock"; "" for kPlayer (stored as NULL, never sent).
constexpr std::string_view to_string(ActionSource source) {
  switch (source) {
    case ActionSource::kPlayer:
      return "";
    case ActionSource::kComputer:
      return "computer";
    case ActionSource::kStandingOrder:
      return "standing_order";
    case ActionSource::kClock:
      return "clock";
  }
  return "";
}

// The stored text back; anything else (NULL, unknown): kPlayer.
constexpr ActionSource action_source_from_string(std::string_view text) {
  for (ActionSource s :
       {ActionSource::kComputer, ActionSource::kStandingOrder, ActionSource::kClock}) {
    if (text == to_string(s)) return s;
  }
  return ActionSource::kPlayer;
}

}  // namespace viktory::server
