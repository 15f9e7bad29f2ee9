#include "notification_text.h"

#include <nlohmann/json.hpp>

#include "web_push.h"

namespace viktory::notify {
namespace {

std::string game_name(const GameEvent& event) { return "Game " + std::to_string(event.game_id); }

std::string with_round(const GameEvent& event, std::string text) {
  if (event.round > 0) text += " (round " + std::to_string(event.round) + ")";
  return text;
}

std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " and " : ", ";
    out += names[i];
  }
  return out;
}

std::string result_sentence(const GameEvent& event) {
  if (event.winners.empty()) return "The game ended without a winner.";
  return join_names(event.winners) + (event.winners.size() == 1 ? " won." : " won together.");
}

// "you", "your" for the recipient; a seat's name otherwise.
std::string subject_name(const std::string& name, bool is_you, bool capital) {
  if (is_you) return capital ? "You" : "you";
  return name;
}
std::string possessive(const std::string& name, bool is_you) {
  if (is_you) return "your";
  if (name.empty()) return "a neutral";
  return name + "'s";
}

std::string happening_line(const Happening& h) {
  const std::string actor = subject_name(h.actor, h.actor_is_you, true);
  const std::string other = subject_name(h.other, h.other_is_you, false);
  switch (h.kind) {
    case Happening::Kind::battle:
      return actor + " won a battle against " + other + " at " + h.hex + ".";
    case Happening::Kind::town_taken:
      return actor + " took " + possessive(h.other, h.other_is_you) + " Town at " + h.hex + ".";
    case Happening::Kind::city_taken:
      return actor + " took " + possessive(h.other, h.other_is_you) + " City at " + h.hex + ".";
    case Happening::Kind::capital_taken:
      return actor + " took " + possessive(h.other, h.other_is_you) + " Capital at " + h.hex + ".";
    case Happening::Kind::eliminated:
      return actor + (h.actor_is_you ? " were eliminated." : " was eliminated.");
    case Happening::Kind::conceded:
      return actor + " conceded.";
  }
  return "";
}

const char* const kWeekdays[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                 "Thursday", "Friday", "Saturday"};
const char* const kMonths[] = {"January",   "February", "March",    "April",
                               "May",       "June",     "July",     "August",
                               "September", "October",  "November", "December"};

std::string two_digits(int n) { return (n < 10 ? "0" : "") + std::to_string(n); }

// The lines of a personal message's body, without the link.
std::vector<std::string> personal_lines(const GameEvent& event) {
  std::vector<std::string> lines;
  if (event.kind == EventKind::must_decide) {
    lines.push_back(
        (event.turn_player.empty() ? std::string("The game") : event.turn_player + "'s turn") +
        " waits for your decision.");
  }
  for (std::string& line : happening_lines(event.happened, false)) lines.push_back(line);
  if (event.kind == EventKind::your_turn && lines.empty()) {
    lines.push_back("The other players are waiting for your move.");
  }
  if (event.deadline) {
    lines.push_back((event.kind == EventKind::must_decide ? "Decide by " : "Move by ") +
                    deadline_text(*event.deadline) + ".");
  }
  return lines;
}

std::string joined(const std::vector<std::string>& lines, const char* separator) {
  std::string out;
  for (const std::string& line : lines) out += (out.empty() ? "" : separator) + line;
  return out;
}

std::string dump(const nlohmann::json& json) {
  return json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

const char* to_string(EventKind kind) {
  switch (kind) {
    case EventKind::your_turn:
      return "your_turn";
    case EventKind::game_started:
      return "game_started";
    case EventKind::game_over:
      return "game_over";
    case EventKind::time_running_out:
      return "time_running_out";
    case EventKind::must_decide:
      return "must_decide";
  }
  return "your_turn";
}

std::vector<std::string> happening_lines(const std::vector<Happening>& happened, bool for_group) {
  std::vector<std::string> lines;
  for (const Happening& h : happened) {
    if (lines.size() == kMaxHappeningLines) {
      const std::size_t more = happened.size() - kMaxHappeningLines;
      lines.push_back("And " + std::to_string(more) + " more " + (more == 1 ? "thing" : "things") +
                      " in the game's log.");
      break;
    }
    Happening shown = h;
    if (for_group) shown.actor_is_you = shown.other_is_you = false;
    lines.push_back(happening_line(shown));
  }
  return lines;
}

std::string deadline_text(const LocalTime& when) {
  std::string text = std::string(kWeekdays[when.weekday % 7]) + " " + std::to_string(when.day) +
                     " " + kMonths[(when.month + 11) % 12] + ", " + two_digits(when.hour) + ":" +
                     two_digits(when.minute);
  if (when.zone.empty() || when.zone == "UTC") return text + " UTC";
  return text + " (" + when.zone + ")";
}

NotificationText personal_text(const GameEvent& event) {
  switch (event.kind) {
    case EventKind::your_turn:
      return {with_round(event, "Your turn in " + game_name(event)),
              joined(personal_lines(event), "\n")};
    case EventKind::must_decide:
      return {with_round(event, "You must decide in " + game_name(event)),
              joined(personal_lines(event), "\n")};
    case EventKind::game_started:
      return {game_name(event) + " has started",
              event.player.empty() ? "Every seat is taken." : event.player + " moves first."};
    case EventKind::game_over:
      return {game_name(event) + " is over", result_sentence(event)};
    case EventKind::time_running_out:
      return {"Your time runs out in " + game_name(event),
              (event.time_left.empty() ? "Little time" : event.time_left) +
                  " left to move; after that the other players may skip your turn."};
  }
  return {};
}

std::string group_text(const GameEvent& event) {
  std::string text;
  switch (event.kind) {
    case EventKind::your_turn:
      text = with_round(event, event.player + "'s turn in " + game_name(event));
      break;
    case EventKind::game_started:
      text = game_name(event) + " has started" +
             (event.player.empty() ? "." : ": " + event.player + " moves first.");
      break;
    case EventKind::game_over:
      text = game_name(event) + " is over. " + result_sentence(event);
      break;
    case EventKind::time_running_out:
      text = event.player + "'s time runs out in " + game_name(event) +
             (event.time_left.empty() ? "." : ": " + event.time_left + " left.");
      break;
    case EventKind::must_decide:
      text = with_round(event, event.player + " must decide in " + game_name(event));
      break;
  }
  // What happened and the deadline, as sentences after the headline.
  std::vector<std::string> more = happening_lines(event.happened, true);
  if (event.deadline &&
      (event.kind == EventKind::your_turn || event.kind == EventKind::must_decide)) {
    more.push_back("Deadline " + deadline_text(*event.deadline) + ".");
  }
  if (!more.empty()) {
    if (text.back() != '.') text += ".";
    text += " " + joined(more, " ");
  }
  if (!event.game_url.empty()) text += " " + event.game_url;
  return text;
}

std::string push_topic_for(const GameEvent& event) {
  return push_topic("game-" + std::to_string(event.game_id));
}

std::string push_payload(const GameEvent& event) {
  const NotificationText text = personal_text(event);
  return dump({{"kind", to_string(event.kind)},
               {"game", event.game_id},
               {"title", text.title},
               {"body", text.body},
               {"url", event.game_url},
               {"tag", "viktory-game-" + std::to_string(event.game_id)}});
}

EmailMessage email_for(const GameEvent& event, const Mailbox& to) {
  const NotificationText text = personal_text(event);
  EmailMessage message;
  message.to = to;
  message.subject = text.title;
  message.text = text.body + "\n";
  if (!event.game_url.empty()) message.text += "\nOpen the game: " + event.game_url + "\n";
  message.text +=
      "\n-- \nVIKTORY II online. You get this e-mail because you turned on turn notifications;\n"
      "you can turn them off for this game or for all games in your settings.\n";
  return message;
}

EmailMessage digest_email(const std::vector<DigestGame>& games, const Mailbox& to) {
  EmailMessage message;
  message.to = to;
  message.subject = games.size() == 1
                        ? "VIKTORY II: 1 game waits for you"
                        : "VIKTORY II: " + std::to_string(games.size()) + " games wait for you";
  for (const DigestGame& game : games) {
    const NotificationText text = personal_text(game.event);
    message.text += text.title + "\n";
    for (const std::string& line : personal_lines(game.event)) message.text += "  " + line + "\n";
    if (!game.event.game_url.empty()) message.text += "  " + game.event.game_url + "\n";
    message.text += "\n";
  }
  message.text +=
      "-- \nVIKTORY II online. Your daily digest, instead of one e-mail per turn; you can turn\n"
      "it off (or e-mail altogether) in your settings.\n";
  return message;
}

WebhookEvent webhook_event_for(const GameEvent& event) {
  WebhookEvent out;
  out.text = group_text(event);
  out.event = {{"event", to_string(event.kind)}, {"game", event.game_id}, {"url", event.game_url}};
  if (event.round > 0) out.event["round"] = event.round;
  if (!event.player.empty()) out.event["player"] = event.player;
  if (event.kind == EventKind::game_over) out.event["winners"] = event.winners;
  if (!event.happened.empty()) out.event["happened"] = happening_lines(event.happened, true);
  if (event.deadline) out.event["deadline"] = deadline_text(*event.deadline);
  return out;
}

}  // namespace viktory::notify
