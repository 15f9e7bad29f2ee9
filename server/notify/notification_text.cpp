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
  }
  return "your_turn";
}

NotificationText personal_text(const GameEvent& event) {
  switch (event.kind) {
    case EventKind::your_turn:
      return {with_round(event, "Your turn in " + game_name(event)),
              "The other players are waiting for your move."};
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

WebhookEvent webhook_event_for(const GameEvent& event) {
  WebhookEvent out;
  out.text = group_text(event);
  out.event = {{"event", to_string(event.kind)}, {"game", event.game_id}, {"url", event.game_url}};
  if (event.round > 0) out.event["round"] = event.round;
  if (!event.player.empty()) out.event["player"] = event.player;
  if (event.kind == EventKind::game_over) out.event["winners"] = event.winners;
  return out;
}

}  // namespace viktory::notify
