// The words of every notification, made from public facts only. The caller fills GameEvent
// from what every seat of the game may see anyway (game number, seat names, round, whose turn,
// the winners); the struct has no field for anything else, so no terrain, unit, die or seed can
// end up in a push message, an e-mail or a chat.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "email.h"
#include "webhook.h"

namespace viktory::notify {

enum class EventKind {
  your_turn,         // to the player whose Player Turn (or decision) it now is
  game_started,      // the last seat was taken
  game_over,         // the game ended (winners, or none when every player left)
  time_running_out,  // to the player who must act: his clock's deadline is near (reminder)
};
const char* to_string(EventKind kind);

struct GameEvent {
  EventKind kind = EventKind::your_turn;
  std::int64_t game_id = 0;
  int round = 0;                     // 0: not mentioned
  std::string player;                // whose turn it is (your_turn) or who moves first
  std::vector<std::string> winners;  // game_over
  std::string time_left;             // time_running_out: "6 hours"
  std::string game_url;              // link that opens the game
};

struct NotificationText {
  std::string title;  // "Your turn in Game 12 (round 3)"
  std::string body;   // one or two sentences
};

// For the player himself (push and e-mail): "Your turn in Game 12 (round 3)".
NotificationText personal_text(const GameEvent& event);
// For a group (webhook): "Alice's turn in Game 12 (round 3)".
std::string group_text(const GameEvent& event);

// The JSON the service worker receives: {"kind","game","title","body","url","tag"}; `tag` lets
// the browser replace the previous notification of the same game.
std::string push_payload(const GameEvent& event);
// The Topic header: one per game, so the push service keeps only the newest undelivered one.
std::string push_topic_for(const GameEvent& event);

EmailMessage email_for(const GameEvent& event, const Mailbox& to);
WebhookEvent webhook_event_for(const GameEvent& event);

}  // namespace viktory::notify
