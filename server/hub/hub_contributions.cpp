// Fair play's reveal round in the Hub (contributions.h, game_room_reveal.cpp): game.commit and
// game.contribute, the budget of rounds per player and address, and the sweep that ends the
// rounds whose deadline passed (part of the clocks' sweep, so it works across restarts).
#include <spdlog/spdlog.h>

#include "hub.h"
#include "message_fields.h"

namespace viktory::server {

using nlohmann::json;

RoomLimits Hub::room_limits(const HubOptions& options) {
  RoomLimits limits = options.room;
  if (limits.contributions.clock == nullptr) limits.contributions.clock = options.clock;
  // Called by rooms only once the Hub is whole (a round needs a client's message or a sweep).
  limits.contributions.ask_elsewhere = [this](std::int64_t player_id, std::int64_t game_id,
                                              const nlohmann::json& request) {
    ask_elsewhere(player_id, game_id, request);
  };
  return limits;
}

// Under the room's lock; the connections' lock is the leaf after it (hub.h).
void Hub::ask_elsewhere(std::int64_t player_id, std::int64_t game_id,
                        const nlohmann::json& request) {
  Message message;  // built once, only if some connection needs it
  std::lock_guard lock(clients_mutex_);
  for (auto& [client, state] : clients_) {
    if (!state.player || state.player->id != player_id) continue;
    if (state.watched.count(game_id) != 0) continue;  // asked as a watcher already
    if (!message) message = make_message(request);
    client->deliver(message);
  }
}

Outcome Hub::charge_round(Client* client, const PlayerRecord& me) {
  std::lock_guard lock(clients_mutex_);
  const auto found = clients_.find(client);
  const std::string address = found == clients_.end() ? "" : found->second.address;
  // Each round that fails makes every other seat commit afresh: one player (or address) who
  // fills and leaves a game in a loop would keep the others' clients busy.
  if (!round_player_buckets_.take(std::to_string(me.id)) ||
      (!address.empty() && !round_address_buckets_.take(address))) {
    return fail("rate_limited",
                "too many games started from your seat lately; wait a few minutes and try again");
  }
  return std::nullopt;
}

Outcome Hub::contribution_message(Client* /*client*/, const PlayerRecord& me, const json& msg,
                                  const std::string& type, std::shared_ptr<GameRoom>& room,
                                  std::unique_lock<std::mutex>& room_lock) {
  if (type == "game.commit") {
    if (!msg.contains("contribution_commitment")) {
      return fail("bad_commitment", "field 'contribution_commitment' is missing");
    }
    const auto commitment = read_commitment(msg["contribution_commitment"]);
    if (auto* f = std::get_if<Failure>(&commitment)) return *f;
    if (auto f = room->commit(me.id, std::get<std::string>(commitment))) return f;
  } else {
    if (!msg.contains("contribution")) {
      return fail("bad_contribution", "field 'contribution' is missing");
    }
    if (auto f = room->contribute(me.id, msg["contribution"])) return f;
  }
  // The lobby shows how many seats a round waits for; the last reveal started the game.
  lobby_.note(room);
  room_lock.unlock();
  lobby_.changed();
  return std::nullopt;
}

void Hub::ask_pending_rounds(Client* client, std::int64_t player_id) {
  // One indexed query per sign-in (seats_by_player); usually no row.
  for (const std::int64_t game_id : store_.reveal_rounds_of(player_id)) {
    std::shared_ptr<GameRoom> room;
    std::unique_lock<std::mutex> room_lock;
    if (lock_room(game_id, room, room_lock)) continue;  // gone or damaged: nothing to ask
    room->ask_round_of(client, player_id);
  }
}

std::int64_t Hub::sweep_reveal_rounds() {
  const std::int64_t now = options_.clock != nullptr ? options_.clock->now_ms() : now_ms();
  std::int64_t next = 0;
  for (const auto& [game_id, deadline] : store_.reveal_rounds()) {
    if (deadline > now) {
      if (next == 0 || deadline < next) next = deadline;
      continue;
    }
    std::shared_ptr<GameRoom> room;
    std::unique_lock<std::mutex> room_lock;
    if (lock_room(game_id, room, room_lock)) continue;  // gone or damaged: nothing to end
    if (!room->expire_round(now)) continue;
    lobby_.note(room);
    room_lock.unlock();
    lobby_.changed();
  }
  return next;
}

}  // namespace viktory::server
