#include "lobby.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "bot.h"
#include "token.h"

namespace viktory::server {

using nlohmann::json;

Lobby::Lobby(Store& store, Metrics& metrics, RoomLimits limits)
    : store_(store), metrics_(metrics), limits_(limits) {
  // Open games make up the lobby list, so they are always in memory. One whose row cannot be
  // read stays out (and says why in the log); the others are served.
  Store::DamagedList damaged;
  for (GameRecord& g : store_.games_with_status(GameStatus::kOpen, &damaged)) {
    const std::int64_t id = g.id;
    auto& room =
        rooms_.emplace(id, std::make_unique<GameRoom>(store_, metrics_, std::move(g), limits_))
            .first->second;
    room->set_observer(&observers_);
    std::lock_guard lock(room->mutex());
    note(room);
  }
  for (auto& [id, why] : damaged) {
    spdlog::error("game_damaged game={} reason=\"{}\"", id, why);
    damaged_[id] = why;
  }
}

std::variant<GameRoom*, Failure> Lobby::create(const PlayerRecord& creator,
                                               const CreateRequest& req, std::string* invite_code) {
  auto made = make_game(creator, req, invite_code);
  if (auto* f = std::get_if<Failure>(&made)) return *f;
  return add_game(std::move(std::get<std::unique_ptr<GameRoom>>(made))).get();
}

std::variant<std::unique_ptr<GameRoom>, Failure> Lobby::make_game(const PlayerRecord& creator,
                                                                  const CreateRequest& req,
                                                                  std::string* invite_code) {
  if (req.options.players < 2 || req.options.players > kMaxPlayers) {
    return fail("bad_options", "a game has 2 to 6 seats");
  }
  if (req.seat < 0 || req.seat >= req.options.players) return fail("bad_seat", "no such seat");
  for (const auto& [seat, level] : req.computers) {
    if (seat < 0 || seat >= req.options.players) return fail("bad_seat", "no such seat");
    if (req.creator_plays && seat == req.seat) {
      return fail("bad_seat", "the creator's seat cannot be a computer's");
    }
    if (!ai::level_from_string(level)) {
      return fail("bad_options", "a computer's level is \"random\", \"heuristic\" or \"search\"");
    }
  }
  if (!req.creator_plays && static_cast<int>(req.computers.size()) != req.options.players) {
    return fail("bad_options", "a creator who does not play fills every seat with computers");
  }
  if (!req.creator_plays && req.spectators == SpectatorMode::kNone) {
    return fail("bad_options", "a creator who does not play watches: spectators cannot be none");
  }
  const bool delayed = req.spectators == SpectatorMode::kDelayed;
  if (delayed ? req.spectator_delay < 1 || req.spectator_delay > kMaxSpectatorDelay
              : req.spectator_delay != 0) {
    return fail("bad_options", "a spectator delay is 1 to " + std::to_string(kMaxSpectatorDelay) +
                                   " turns, and only with delayed spectators");
  }
  // Caps on computer games: held until the game is written, so that the count stays exact.
  std::unique_lock<std::mutex> admitted;
  if (computer_caps_ != nullptr && !req.computers.empty()) {
    if (Outcome refused = computer_caps_->admit(creator.id, req.address, admitted)) return *refused;
  }
  GameRecord g;
  g.options = req.options;
  g.status = GameStatus::kOpen;
  g.created = now_ms();
  g.creator = creator;
  g.is_private = req.is_private;
  g.spectators = req.spectators;
  g.spectator_delay = req.spectator_delay;
  if (req.is_private) {
    const std::string code = new_invite_code();
    g.invite_hash = invite_hash(code);
    if (invite_code != nullptr) *invite_code = code;
  }
  if (req.creator_plays) g.seats.push_back(SeatRecord{req.seat, creator.id, creator.name, ""});
  for (const auto& [seat, level] : req.computers) {
    // A player of its own per seat, whom nobody can sign in as (nobody knows its token).
    const PlayerRecord computer =
        store_.create_player("Computer (" + level + ")", token_hash(new_token()), g.created);
    g.seats.push_back(SeatRecord{seat, computer.id, computer.name, level});
  }
  std::sort(g.seats.begin(), g.seats.end(), [](auto& a, auto& b) { return a.seat < b.seat; });
  store_.create_game(g);
  if (admitted.owns_lock()) computer_caps_->created(g.id, req.address);
  ++metrics_.games_created;
  return std::make_unique<GameRoom>(store_, metrics_, std::move(g), limits_);
}

std::shared_ptr<GameRoom> Lobby::add_game(std::unique_ptr<GameRoom> made) {
  const std::int64_t id = made->id();
  // Someone may have loaded the new game from the store meanwhile (its id is no secret): then
  // that room is the game's, and the one made here is dropped unused.
  auto [it, inserted] = rooms_.emplace(id, std::move(made));
  std::lock_guard lock(it->second->mutex());
  if (inserted) it->second->set_observer(&observers_);
  it->second->start_if_full();  // every seat a computer's but the creator's
  note(it->second);
  return it->second;
}

GameRoom* Lobby::room(std::int64_t game_id) {
  auto it = rooms_.find(game_id);
  if (it != rooms_.end()) return it->second.get();
  if (damaged_.count(game_id) || unavailable_.count(game_id)) return nullptr;
  std::unique_ptr<GameRoom> loaded;
  try {
    loaded = GameRoom::load(store_, metrics_, game_id, limits_);
  } catch (const DamagedGame& e) {
    // Refuse this game, clearly and for good (until a restart); every other game goes on.
    spdlog::error("game_damaged game={} reason=\"{}\"", game_id, e.what());
    damaged_[game_id] = e.what();
    return nullptr;
  }
  if (!loaded) return nullptr;
  const std::shared_ptr<GameRoom>& room = rooms_.emplace(game_id, std::move(loaded)).first->second;
  room->set_observer(&observers_);
  {
    std::lock_guard lock(room->mutex());
    observers_.on_room_changed(*room);  // e.g. a computer's turn, a clock
    note(room);
  }
  return room.get();
}

std::shared_ptr<GameRoom> Lobby::shared_room(std::int64_t game_id) {
  if (room(game_id) == nullptr) return nullptr;
  return rooms_.at(game_id);
}

std::optional<std::string> Lobby::damaged(std::int64_t game_id) const {
  auto it = damaged_.find(game_id);
  if (it == damaged_.end()) return std::nullopt;
  return it->second;
}

void Lobby::set_unavailable(std::int64_t game_id, std::map<Subscriber*, std::int64_t>* dropped) {
  if (auto it = rooms_.find(game_id); it != rooms_.end()) {
    // Kept alive past the erase: the lock below must not outlive the room it locks.
    const std::shared_ptr<GameRoom> held = it->second;
    std::lock_guard lock(held->mutex());
    std::map<Subscriber*, std::int64_t> watchers = held->take_subscribers();
    if (dropped != nullptr) *dropped = std::move(watchers);
    rooms_.erase(game_id);
  }
  unavailable_.insert(game_id);
  std::lock_guard list_lock(list_mutex_);
  listed_.erase(game_id);
}

GameRoom* Lobby::reload(std::int64_t game_id, std::map<Subscriber*, std::int64_t>* dropped) {
  std::map<Subscriber*, std::int64_t> watchers;
  if (auto it = rooms_.find(game_id); it != rooms_.end()) {
    // Kept alive past the erase: the lock below must not outlive the room it locks.
    const std::shared_ptr<GameRoom> held = it->second;
    std::lock_guard lock(held->mutex());
    watchers = held->take_subscribers();  // retires it: a request holding it retries
    rooms_.erase(game_id);
  }
  {
    std::lock_guard list_lock(list_mutex_);
    listed_.erase(game_id);  // the fresh room notes itself
  }
  GameRoom* fresh = nullptr;
  try {
    fresh = room(game_id);
  } catch (const std::exception& e) {
    spdlog::error("game_reload_failed game={} error=\"{}\"", game_id, e.what());
  }
  if (fresh == nullptr) {
    if (dropped != nullptr) *dropped = std::move(watchers);
    return nullptr;
  }
  std::lock_guard lock(fresh->mutex());
  for (auto& [subscriber, player] : watchers) fresh->watch(subscriber, player);
  return fresh;
}

void Lobby::subscribe(Subscriber* subscriber) {
  std::lock_guard lock(list_mutex_);
  subscribers_.insert(subscriber);
  subscriber->deliver(make_message(json{{"type", "lobby"}, {"games", open_games_locked()}}));
}

void Lobby::unsubscribe(Subscriber* subscriber) {
  std::lock_guard lock(list_mutex_);
  subscribers_.erase(subscriber);
}

void Lobby::note(const std::shared_ptr<GameRoom>& room) {
  std::lock_guard lock(list_mutex_);
  auto it = listed_.find(room->id());
  if (room->retired()) {
    // No longer the game's room: the one that replaced it notes itself.
    if (it != listed_.end() && it->second.room.lock() == room) listed_.erase(it);
    return;
  }
  if (room->status() == GameStatus::kOpen && !room->record().is_private) {
    listed_[room->id()] = Listed{room, room->summary()};
  } else if (it != listed_.end()) {
    listed_.erase(it);
  }
}

void Lobby::forget(Subscriber* subscriber, std::mutex& lobby_mutex) {
  unsubscribe(subscriber);
  // The rooms are unwatched without the Lobby lock. A reload meanwhile (a storage failure)
  // hands a room's subscribers to a fresh room, so the rooms are looked at again until no
  // room is new.
  std::set<std::shared_ptr<GameRoom>> done;  // kept alive, so no new room reuses an address
  for (;;) {
    std::vector<std::shared_ptr<GameRoom>> todo;
    {
      std::lock_guard lock(lobby_mutex);
      for (auto& [id, room] : rooms_) {
        if (!done.count(room)) todo.push_back(room);
      }
    }
    if (todo.empty()) return;
    for (auto& room : todo) {
      std::lock_guard lock(room->mutex());
      room->unwatch(subscriber);
      done.insert(room);
    }
  }
}

json Lobby::open_games() const {
  std::lock_guard lock(list_mutex_);
  return open_games_locked();
}

json Lobby::open_games_locked() const {
  json games = json::array();
  for (const auto& [id, listed] : listed_) games.push_back(listed.summary);
  return games;
}

void Lobby::changed() {
  std::vector<std::shared_ptr<GameRoom>> listed;
  {
    std::lock_guard lock(list_mutex_);
    for (auto it = listed_.begin(); it != listed_.end();) {
      if (auto room = it->second.room.lock()) {
        listed.push_back(std::move(room));
        ++it;
      } else {
        it = listed_.erase(it);
      }
    }
  }
  for (const auto& room : listed) {
    std::lock_guard room_lock(room->mutex());
    note(room);
  }
  std::lock_guard lock(list_mutex_);
  const Message message = make_message(json{{"type", "lobby"}, {"games", open_games_locked()}});
  if (*message == last_sent_) return;
  last_sent_ = *message;
  for (Subscriber* s : subscribers_) s->deliver(message);
}

std::vector<std::shared_ptr<GameRoom>> Lobby::rooms() const {
  std::vector<std::shared_ptr<GameRoom>> out;
  out.reserve(rooms_.size());
  for (const auto& [id, room] : rooms_) out.push_back(room);
  return out;
}

void Lobby::evict_idle() {
  for (auto it = rooms_.begin(); it != rooms_.end();) {
    // Only tried: a room whose lock is held is in use (and the Lobby lock is not held while
    // waiting for a room).
    std::unique_lock lock(it->second->mutex(), std::try_to_lock);
    if (lock.owns_lock() && it->second->status() != GameStatus::kOpen &&
        !it->second->has_subscribers()) {
      // A request that found it before looks the game up again (and loads it afresh).
      it->second->retire();
      lock.unlock();
      it = rooms_.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace viktory::server
