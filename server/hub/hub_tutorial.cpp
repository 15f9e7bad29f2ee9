// tutorial.start: the guided first game (tutorial.h; docs/protocol.md, "tutorial.start").
#include <spdlog/spdlog.h>

#include "hub.h"
#include "token.h"

namespace viktory::server {

using nlohmann::json;

Outcome Hub::start_tutorial(Client* client, const PlayerRecord& me, const json& msg) {
  bool restart = false;
  if (auto it = msg.find("restart"); it != msg.end() && !it->is_null()) {
    if (!it->is_boolean()) return fail("bad_message", "field 'restart' must be true or false");
    restart = it->get<bool>();
  }
  std::string address;
  {
    std::lock_guard lock(clients_mutex_);
    auto state = clients_.find(client);
    if (state == clients_.end()) return Failure{};  // closed meanwhile
    address = state->second.address;
  }
  // One guided game per player, also when two of his connections ask at once: the lookup and
  // the new game's start are one step (an outermost lock, held under no other; tutorial.h).
  std::lock_guard one_at_a_time(tutorials_.creating());
  const std::optional<std::int64_t> running = store_.running_tutorial_of(me.id);
  if (running && !restart) {
    // Resumed where it was left: the game page watches it.
    client->deliver(
        make_message(json{{"type", "tutorial.started"}, {"game_id", *running}, {"resumed", true}}));
    return std::nullopt;
  }
  if (!tutorials_.admit(me.id, address)) {
    return fail("rate_limited",
                "too many guided games started; go on with the one you have, or wait a while");
  }
  if (running) {
    // One guided game per player: the new one replaces the old.
    std::shared_ptr<GameRoom> old;
    std::unique_lock<std::mutex> old_lock;
    if (!lock_room(*running, old, old_lock)) old->cancel_running();
  }
  const GameState& start = tutorials_.start_position();
  GameRecord g;
  g.options = start.options;
  g.status = GameStatus::kOpen;  // begin_game (add_game) starts it at once
  g.created = now_ms();
  g.creator = me;
  g.is_private = true;  // nobody else may see it (no invite code exists)
  g.spectators = SpectatorMode::kNone;
  g.seats.push_back(SeatRecord{0, me.id, me.name, ""});
  // A player of its own, whom nobody can sign in as (nobody knows its token).
  const std::string level(ai::to_string(ai::Level::kPassive));
  const PlayerRecord computer =
      store_.create_player("Computer", token_hash(new_token()), g.created);
  g.seats.push_back(SeatRecord{1, computer.id, computer.name, level});
  store_.create_game(g);
  auto made = std::make_unique<GameRoom>(store_, metrics_, std::move(g), options_.room);
  made->set_start_position(start);
  std::shared_ptr<GameRoom> room;
  {
    std::lock_guard lobby_lock(mutex_);
    room = lobby_.add_game(std::move(made));
  }
  {
    std::lock_guard room_lock(room->mutex());
    clocks_->create(*room, ClockOptions{});
    standing_->create(*room, 0);
  }
  client->deliver(make_message(
      json{{"type", "tutorial.started"}, {"game_id", room->id()}, {"resumed", false}}));
  spdlog::info("tutorial_started game={} player={} replaced={}", room->id(), me.id,
               running ? *running : 0);
  return std::nullopt;
}

}  // namespace viktory::server
