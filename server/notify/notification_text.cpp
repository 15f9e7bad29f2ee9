#include "notification_text.h"

#include <nlohmann/json.hpp>

#include "catalog.h"
#include "web_push.h"

namespace viktory::notify {
namespace {

using nlohmann::json;
using text::operator""_key;

const text::Catalogs& words() { return text::catalogs(); }

std::string game_name(const GameEvent& event) {
  return words().text(event.language, "push.game"_key, {{"game", std::to_string(event.game_id)}});
}

std::string with_round(const GameEvent& event, std::string text) {
  if (event.round <= 0) return text;
  return words().text(event.language, "push.withRound"_key,
                      {{"text", std::move(text)}, {"round", std::to_string(event.round)}});
}

// "Alice", "Alice and Bob", "Alice, Bob and Carol".
std::string join_names(const std::vector<std::string>& names, std::string_view language) {
  if (names.empty()) return "";
  std::string out = names[0];
  for (std::size_t i = 1; i + 1 < names.size(); ++i) out += ", " + names[i];
  if (names.size() == 1) return out;
  return words().text(language, "push.namesAnd"_key, {{"names", out}, {"last", names.back()}});
}

std::string result_sentence(const GameEvent& event) {
  if (event.winners.empty()) return words().text(event.language, "push.noWinner"_key);
  const json names{{"names", join_names(event.winners, event.language)}};
  return event.winners.size() == 1 ? words().text(event.language, "push.won"_key, names)
                                   : words().text(event.language, "push.wonTogether"_key, names);
}

// One line in the reader's words: "you" for the recipient (never in a group's text), a seat's
// name otherwise; an empty `other` of a capture is a neutral Town or City.
std::string happening_line(const Happening& h, std::string_view language) {
  const json who{{"actor", h.actor}, {"other", h.other}, {"hex", h.hex}};
  const auto say = [&](text::Key key) { return words().text(language, key, who); };
  const bool neutral = h.other.empty() && !h.other_is_you;
  switch (h.kind) {
    case Happening::Kind::battle:
      if (h.actor_is_you) return say("push.youWonBattle"_key);
      if (h.other_is_you) return say("push.wonBattleAgainstYou"_key);
      return say("push.wonBattle"_key);
    case Happening::Kind::town_taken:
      if (h.actor_is_you)
        return say(neutral ? "push.youTookNeutralTown"_key : "push.youTookTown"_key);
      if (h.other_is_you) return say("push.tookYourTown"_key);
      return say(neutral ? "push.tookNeutralTown"_key : "push.tookTown"_key);
    case Happening::Kind::city_taken:
      if (h.actor_is_you)
        return say(neutral ? "push.youTookNeutralCity"_key : "push.youTookCity"_key);
      if (h.other_is_you) return say("push.tookYourCity"_key);
      return say(neutral ? "push.tookNeutralCity"_key : "push.tookCity"_key);
    case Happening::Kind::capital_taken:
      // A Capital is always some player's: no neutral one.
      if (h.actor_is_you) return say("push.youTookCapital"_key);
      if (h.other_is_you) return say("push.tookYourCapital"_key);
      return say("push.tookCapital"_key);
    case Happening::Kind::eliminated:
      return h.actor_is_you ? say("push.youWereEliminated"_key) : say("push.wasEliminated"_key);
    case Happening::Kind::conceded:
      return h.actor_is_you ? say("push.youConceded"_key) : say("push.conceded"_key);
  }
  return "";
}

constexpr text::Key kWeekdays[] = {"push.sunday"_key,    "push.monday"_key,   "push.tuesday"_key,
                                   "push.wednesday"_key, "push.thursday"_key, "push.friday"_key,
                                   "push.saturday"_key};
constexpr text::Key kMonths[] = {"push.january"_key, "push.february"_key, "push.march"_key,
                                 "push.april"_key,   "push.may"_key,      "push.june"_key,
                                 "push.july"_key,    "push.august"_key,   "push.september"_key,
                                 "push.october"_key, "push.november"_key, "push.december"_key};

std::string two_digits(int n) { return (n < 10 ? "0" : "") + std::to_string(n); }

// The lines of a personal message's body, without the link.
std::vector<std::string> personal_lines(const GameEvent& event) {
  const std::string_view language = event.language;
  std::vector<std::string> lines;
  if (event.kind == EventKind::must_decide) {
    lines.push_back(event.turn_player.empty() ? words().text(language, "push.gameWaits"_key)
                                              : words().text(language, "push.turnWaits"_key,
                                                             {{"player", event.turn_player}}));
  }
  for (std::string& line : happening_lines(event.happened, false, language)) {
    lines.push_back(line);
  }
  if (event.kind == EventKind::your_turn && lines.empty()) {
    lines.push_back(words().text(language, "push.othersWait"_key));
  }
  if (event.deadline) {
    const json deadline{{"deadline", deadline_text(*event.deadline, language)}};
    lines.push_back(event.kind == EventKind::must_decide
                        ? words().text(language, "push.decideBy"_key, deadline)
                        : words().text(language, "push.moveBy"_key, deadline));
  }
  return lines;
}

std::string joined(const std::vector<std::string>& lines, const char* separator) {
  std::string out;
  for (const std::string& line : lines) out += (out.empty() ? "" : separator) + line;
  return out;
}

std::string dump(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
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
    case EventKind::friend_invite:
      return "friend_invite";
  }
  return "your_turn";
}

std::vector<std::string> happening_lines(const std::vector<Happening>& happened, bool for_group,
                                         std::string_view language) {
  std::vector<std::string> lines;
  for (const Happening& h : happened) {
    if (lines.size() == kMaxHappeningLines) {
      const auto more = static_cast<std::int64_t>(happened.size() - kMaxHappeningLines);
      lines.push_back(words().text(language, "push.moreInLog"_key, {{"count", more}}));
      break;
    }
    Happening shown = h;
    if (for_group) shown.actor_is_you = shown.other_is_you = false;
    lines.push_back(happening_line(shown, language));
  }
  return lines;
}

std::string deadline_text(const LocalTime& when, std::string_view language) {
  const json parts{{"weekday", words().text(language, kWeekdays[when.weekday % 7])},
                   {"day", std::to_string(when.day)},
                   {"month", words().text(language, kMonths[(when.month + 11) % 12])},
                   {"time", two_digits(when.hour) + ":" + two_digits(when.minute)},
                   {"zone", when.zone}};
  if (when.zone.empty() || when.zone == "UTC") {
    return words().text(language, "push.deadlineUtc"_key, parts);
  }
  return words().text(language, "push.deadline"_key, parts);
}

std::string duration_text(std::int64_t ms, std::string_view language) {
  constexpr std::int64_t kMinute = 60'000, kHour = 60 * kMinute, kDay = 24 * kHour;
  const auto count = [&](text::Key key, std::int64_t n) {
    return words().text(language, key, {{"count", n}});
  };
  if (ms >= kDay && ms % kDay == 0) return count("push.days"_key, ms / kDay);
  if (ms >= kHour) return count("push.hours"_key, ms / kHour);
  if (ms >= kMinute) return count("push.minutes"_key, ms / kMinute);
  return count("push.seconds"_key, ms / 1000);
}

NotificationText personal_text(const GameEvent& event) {
  const std::string_view language = event.language;
  const json game{{"game", game_name(event)}};
  switch (event.kind) {
    case EventKind::your_turn:
      return {with_round(event, words().text(language, "push.yourTurn"_key, game)),
              joined(personal_lines(event), "\n")};
    case EventKind::must_decide:
      return {with_round(event, words().text(language, "push.mustDecide"_key, game)),
              joined(personal_lines(event), "\n")};
    case EventKind::game_started:
      return {words().text(language, "push.started"_key, game),
              event.player.empty()
                  ? words().text(language, "push.startedEverySeat"_key)
                  : words().text(language, "push.startedFirst"_key, {{"player", event.player}})};
    case EventKind::game_over:
      return {words().text(language, "push.over"_key, game), result_sentence(event)};
    case EventKind::time_running_out:
      return {words().text(language, "push.timeRunsOut"_key, game),
              event.time_left_ms < 0
                  ? words().text(language, "push.littleTimeLeft"_key)
                  : words().text(language, "push.timeLeft"_key,
                                 {{"left", duration_text(event.time_left_ms, language)}})};
    case EventKind::friend_invite:
      return {words().text(language, "push.friendInvite"_key,
                           {{"player", event.player}, {"game", game_name(event)}}),
              words().text(language, "push.friendInviteBody"_key)};
  }
  return {};
}

std::string group_text(const GameEvent& event) {
  const std::string_view language = event.language;
  const json names{{"game", game_name(event)}, {"player", event.player}};
  std::string text;
  switch (event.kind) {
    case EventKind::your_turn:
      text = with_round(event, words().text(language, "webhook.turn"_key, names));
      break;
    case EventKind::game_started:
      text = event.player.empty() ? words().text(language, "webhook.started"_key, names)
                                  : words().text(language, "webhook.startedFirst"_key, names);
      break;
    case EventKind::game_over:
      text = words().text(language, "webhook.over"_key,
                          {{"game", game_name(event)}, {"result", result_sentence(event)}});
      break;
    case EventKind::time_running_out:
      if (event.time_left_ms < 0) {
        text = words().text(language, "webhook.timeRunsOut"_key, names);
      } else {
        json left = names;
        left["left"] = duration_text(event.time_left_ms, language);
        text = words().text(language, "webhook.timeLeft"_key, left);
      }
      break;
    case EventKind::must_decide:
      text = with_round(event, words().text(language, "webhook.mustDecide"_key, names));
      break;
    case EventKind::friend_invite:  // never sent to a group (turn_notifications.cpp)
      text = words().text(language, "push.friendInvite"_key, names);
      break;
  }
  // What happened and the deadline, as sentences after the headline.
  std::vector<std::string> more = happening_lines(event.happened, true, language);
  if (event.deadline &&
      (event.kind == EventKind::your_turn || event.kind == EventKind::must_decide)) {
    more.push_back(words().text(language, "webhook.deadline"_key,
                                {{"deadline", deadline_text(*event.deadline, language)}}));
  }
  if (!more.empty()) {
    if (!text.empty() && text.back() != '.') text += ".";
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
  return dump(json{{"kind", to_string(event.kind)},
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
  if (!event.game_url.empty()) {
    message.text +=
        "\n" + words().text(event.language, "mail.openGame"_key, {{"url", event.game_url}}) + "\n";
  }
  message.text += "\n-- \n" + words().text(event.language, "mail.turnFooter"_key) + "\n";
  return message;
}

EmailMessage digest_email(const std::vector<DigestGame>& games, const Mailbox& to,
                          std::string_view language) {
  EmailMessage message;
  message.to = to;
  message.subject = words().text(language, "mail.digestSubject"_key,
                                 {{"count", static_cast<std::int64_t>(games.size())}});
  for (const DigestGame& game : games) {
    GameEvent event = game.event;
    event.language = std::string(language);
    const NotificationText text = personal_text(event);
    message.text += text.title + "\n";
    for (const std::string& line : personal_lines(event)) message.text += "  " + line + "\n";
    if (!event.game_url.empty()) message.text += "  " + event.game_url + "\n";
    message.text += "\n";
  }
  message.text += "-- \n" + words().text(language, "mail.digestFooter"_key) + "\n";
  return message;
}

WebhookEvent webhook_event_for(const GameEvent& event) {
  WebhookEvent out;
  out.text = group_text(event);
  out.event = {{"event", to_string(event.kind)},
               {"game", event.game_id},
               {"url", event.game_url},
               {"language", event.language}};
  if (event.round > 0) out.event["round"] = event.round;
  if (!event.player.empty()) out.event["player"] = event.player;
  if (event.kind == EventKind::game_over) out.event["winners"] = event.winners;
  if (!event.happened.empty()) {
    out.event["happened"] = happening_lines(event.happened, true, event.language);
  }
  if (event.deadline) out.event["deadline"] = deadline_text(*event.deadline, event.language);
  return out;
}

}  // namespace viktory::notify
