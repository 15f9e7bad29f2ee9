// The words of every notification, all of them in this file, each a text of the message catalogs
// (server/text/catalog.h: keys push.*, mail.*, webhook.*) in the reader's language: the
// recipient's for a push or an e-mail, that of the player who set up a webhook for the group's
// chat. The caller fills GameEvent from what the recipient may see anyway:
// game number, seat names, round, whose turn, the winners, and what happened since he last
// acted, built from the events filtered for him (for a group chat: for a spectator). The structs
// have no field for terrain, units, dice or the seed, so none of those can end up in a push
// message, an e-mail or a chat.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "email.h"
#include "time_zone.h"
#include "webhook.h"

namespace viktory::notify {

enum class EventKind {
  your_turn,         // to the player whose Player Turn (or decision) it now is
  game_started,      // the last seat was taken
  game_over,         // the game ended (winners, or none when every player left)
  time_running_out,  // to the player who must act: his clock's deadline is near (reminder)
  must_decide,       // to a player who must decide out of his turn (casualties, a retreat ...)
  friend_invite,     // a player (`player`) invites the recipient, whom he follows, into a game
};
const char* to_string(EventKind kind);

// One thing that happened since the recipient last acted, as he was shown it. Names are seat
// names; an empty name is the recipient himself ("you"). Only battles, captures and players
// leaving the game are told: no terrain, no units.
struct Happening {
  enum class Kind {
    battle,         // `actor` won a battle against `other` at `hex`
    town_taken,     // `actor` took `other`'s Town at `hex` (`other` empty: a neutral one)
    city_taken,     // the same for a City
    capital_taken,  // `actor` took `other`'s Capital at `hex`
    eliminated,     // `actor` was eliminated
    conceded,       // `actor` conceded
  };
  Kind kind = Kind::battle;
  std::string actor;
  std::string other;
  std::string hex;  // the hex label ("F6"), public
  bool actor_is_you = false;
  bool other_is_you = false;
};

struct GameEvent {
  EventKind kind = EventKind::your_turn;
  // The reader's language (a catalog's, text::Catalogs::choose): every text of the message is
  // written in it.
  std::string language = "en";
  std::int64_t game_id = 0;
  int round = 0;                     // 0: not mentioned
  std::string player;                // whose turn it is (your_turn) or who moves first
  std::vector<std::string> winners;  // game_over
  std::int64_t time_left_ms = -1;    // time_running_out: how long is left (-1: not known)
  std::string game_url;              // link that opens the game
  // must_decide: whose Player Turn waits for the decision.
  std::string turn_player;
  // Since the recipient last acted (the group: since the last message to it), oldest first.
  std::vector<Happening> happened;
  // The deadline of the clock of whoever must act, in the recipient's time zone (UTC for a
  // group); none without a clock.
  std::optional<LocalTime> deadline;
};

// At most this many lines of what happened in one message; the rest are counted.
inline constexpr std::size_t kMaxHappeningLines = 6;

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

// The lines of what happened, for the recipient ("Bob took your Town at F6.") or, with
// `for_group`, for a chat ("Bob took Alice's Town at F6.").
std::vector<std::string> happening_lines(const std::vector<Happening>& happened, bool for_group,
                                         std::string_view language = "en");
// "Friday 28 November, 18:00 (Europe/Berlin)", "Friday 28 November, 17:00 UTC"; German
// "Freitag, 28. November, 18:00 Uhr (Europe/Berlin)".
std::string deadline_text(const LocalTime& when, std::string_view language = "en");
// A time left for people: "6 hours", "2 days", "1 minute" (German "6 Stunden").
std::string duration_text(std::int64_t ms, std::string_view language = "en");

// The daily digest: one mail listing the recipient's games where he must act.
struct DigestGame {
  GameEvent event;  // your_turn or must_decide, with what happened and the deadline
};
// In the recipient's `language` (each game's event is written in it too).
EmailMessage digest_email(const std::vector<DigestGame>& games, const Mailbox& to,
                          std::string_view language);

}  // namespace viktory::notify
