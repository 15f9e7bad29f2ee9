#include "board_once.h"

#include "board.h"
#include "view.h"

namespace viktory::server {

const Message& BoardOnce::message(std::int64_t game_id, const GameState& state) {
  if (!message_) {
    // Any viewer's hexes carry the same coordinates, labels and perimeter; the spectator's view
    // is used, and only those fields of it (board_to_json takes nothing else).
    nlohmann::json board = protocol::board_to_json(view_for(state, kSpectator));
    id_ = board.at("id").get<std::string>();
    message_ = make_message(
        nlohmann::json{{"type", "game.board"}, {"game_id", game_id}, {"board", std::move(board)}});
  }
  return message_;
}

const std::string& BoardOnce::id(std::int64_t game_id, const GameState& state) {
  message(game_id, state);
  return id_;
}

void BoardOnce::deliver(Subscriber* subscriber, const Message& view_message, std::int64_t game_id,
                        const GameState& state) {
  if (sent_.insert(subscriber).second) subscriber->deliver(message(game_id, state));
  subscriber->deliver(view_message);
}

void BoardOnce::send(Subscriber* subscriber, std::int64_t game_id, const GameState& state) {
  sent_.insert(subscriber);
  subscriber->deliver(message(game_id, state));
}

}  // namespace viktory::server
