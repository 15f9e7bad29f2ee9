#include "lobby.h"

#include "token.h"

namespace viktory::server {

using nlohmann::json;

Lobby::Lobby(Store& store, Metrics& metrics, RoomLimits limits)
    : store_(store), metrics_(metrics), limits_(limits) {
  // Open games make up the lobby list, so they are always in memory.
  for (GameRecord& g : store_.games_with_status(GameStatus::kOpen)) {
    const std::int64_t id = g.id;
    rooms_.emplace(id, std::make_unique<GameRoom>(store_, metrics_, std::move(g), limits_));
  }
}

std::variant<GameRoom*, Failure> Lobby::create(const PlayerRecord& creator,
                                               const CreateRequest& req) {
  if (req.options.players < 2 || req.options.players > kMaxPlayers) {
    return fail("bad_options", "a game has 2 to 6 seats");
  }
  if (req.seat < 0 || req.seat >= req.options.players) return fail("bad_seat", "no such seat");
  GameRecord g;
  g.options = req.options;
  g.status = GameStatus::kOpen;
  g.created = now_ms();
  g.creator = creator;
  g.is_private = req.is_private;
  if (req.is_private) g.invite_code = new_invite_code();
  g.seats.push_back(SeatRecord{req.seat, creator.id, creator.name});
  store_.create_game(g);
  ++metrics_.games_created;
  const std::int64_t id = g.id;
  auto [it, inserted] =
      rooms_.emplace(id, std::make_unique<GameRoom>(store_, metrics_, std::move(g), limits_));
  return it->second.get();
}

GameRoom* Lobby::room(std::int64_t game_id) {
  auto it = rooms_.find(game_id);
  if (it != rooms_.end()) return it->second.get();
  std::unique_ptr<GameRoom> loaded = GameRoom::load(store_, metrics_, game_id, limits_);
  if (!loaded) return nullptr;
  return rooms_.emplace(game_id, std::move(loaded)).first->second.get();
}

void Lobby::subscribe(Subscriber* subscriber) {
  subscribers_.insert(subscriber);
  subscriber->deliver(make_message(json{{"type", "lobby"}, {"games", open_games()}}));
}

void Lobby::unsubscribe(Subscriber* subscriber) { subscribers_.erase(subscriber); }

void Lobby::forget(Subscriber* subscriber) {
  subscribers_.erase(subscriber);
  for (auto& [id, room] : rooms_) room->unwatch(subscriber);
}

json Lobby::open_games() const {
  json games = json::array();
  for (const auto& [id, room] : rooms_) {
    if (room->status() == GameStatus::kOpen && !room->record().is_private) {
      games.push_back(room->summary());
    }
  }
  return games;
}

void Lobby::changed() {
  const Message message = make_message(json{{"type", "lobby"}, {"games", open_games()}});
  if (*message == last_sent_) return;
  last_sent_ = *message;
  for (Subscriber* s : subscribers_) s->deliver(message);
}

void Lobby::evict_idle() {
  for (auto it = rooms_.begin(); it != rooms_.end();) {
    if (it->second->status() != GameStatus::kOpen && !it->second->has_subscribers()) {
      it = rooms_.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace viktory::server
