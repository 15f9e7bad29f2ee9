// game.create: a new game from the creator's message (options, seats, computers, clock,
// spectators, rated), written to the store with no lock held, then made known to the lobby.
// Split from hub.cpp (docs/protocol.md, "game.create").
#include <spdlog/spdlog.h>

#include "hub.h"
#include "json.h"
#include "message_fields.h"

namespace viktory::server {

using nlohmann::json;
using namespace message_fields;

Outcome Hub::create_game(Client* client, const PlayerRecord& me, const json& msg) {
  {
    CreateRequest req;
    req.options.players = small_int_field(msg, "seats");
    // The option fields sit beside the message's own fields; the engine's options reader
    // checks them (victory: one condition or a list [5.0]; the optional rules [15.x]).
    json option_fields = json::object();
    for (std::string_view key : protocol::option_keys()) {
      // The number of seats is the message's own field (`seats`), not `players`.
      if (key != "players" && msg.contains(key)) option_fields[std::string(key)] = msg[key];
    }
    try {
      const int seats = req.options.players;
      req.options = protocol::options_from_json(option_fields);
      req.options.players = seats;
    } catch (const protocol::JsonError& e) {
      return fail("bad_options", e.what());
    }
    const std::string spectators =
        msg.contains("spectators") ? string_field(msg, "spectators") : "live";
    auto sp = spectator_mode_from_string(spectators);
    if (!sp) return fail("bad_options", "spectators must be \"live\", \"none\" or \"delayed\"");
    req.is_private = bool_field(msg, "private", false);
    req.seat = optional_small_int(msg, "seat").value_or(0);
    req.creator_plays = bool_field(msg, "play", true);
    if (msg.contains("rated") && !msg["rated"].is_null())
      req.rated = bool_field(msg, "rated", true);
    ClockOptions clock;
    int decision_grace = 0;  // standing_order_service.h
    try {
      clock = clock_options_from_json(msg.value("clock", json(nullptr)));
      decision_grace =
          decision_grace_from_json(msg.value("decision_grace_seconds", json(nullptr)), clock);
    } catch (const std::invalid_argument& e) {
      return fail("bad_options", e.what());
    }
    if (msg.contains("computers") && !msg["computers"].is_null()) {
      const json& computers = msg["computers"];
      if (!computers.is_array() || computers.size() > kMaxPlayers) {
        return fail("bad_message", "field 'computers' must be a list of {seat, level}");
      }
      for (const json& c : computers) {
        if (!c.is_object()) return fail("bad_message", "field 'computers' holds {seat, level}");
        const int seat = small_int_field(c, "seat");
        if (!req.computers.emplace(seat, string_field(c, "level")).second) {
          return fail("bad_seat", "a seat is named twice in 'computers'");
        }
      }
    }
    const auto commitment = optional_commitment(msg);  // contributions.h
    if (auto* f = std::get_if<Failure>(&commitment)) return *f;
    req.commitment = std::get<std::string>(commitment);
    req.spectators = *sp;
    req.spectator_delay = optional_small_int(msg, "spectator_delay").value_or(0);
    if (clock.enabled()) req.clock = clock_options_to_json(clock);  // shown in the summaries
    {
      std::lock_guard lock(clients_mutex_);
      auto state = clients_.find(client);
      if (state == clients_.end()) return Failure{};  // closed meanwhile
      req.address = state->second.address;            // the cap on open games per address
      if (static_cast<int>(state->second.watched.size()) >= options_.max_watched_games) {
        return fail("too_many_games", "this connection watches too many games; unwatch some first");
      }
      req.address = state->second.address;  // caps on computer games count per address too
    }
    // Written to the store (the game, its computers: the writer's transaction and fsync)
    // with no lock held; then made known under the Lobby lock.
    std::string invite;
    auto made = lobby_.make_game(me, req, &invite);
    if (auto* f = std::get_if<Failure>(&made)) return *f;
    std::shared_ptr<GameRoom> room;
    {
      std::lock_guard lobby_lock(mutex_);
      room = lobby_.add_game(std::move(std::get<std::unique_ptr<GameRoom>>(made)));
    }
    json reply{{"type", "game.created"}, {"game_id", room->id()}};
    if (room->record().is_private) {
      // The only time the code is told: the server keeps its hash only.
      reply["invite"] = invite;
      if (auto url = invite_url(room->id(), invite); !url.empty()) reply["invite_url"] = url;
    }
    client->deliver(make_message(reply));
    {
      std::lock_guard room_lock(room->mutex());
      clocks_->create(*room, clock);
      standing_->create(*room, decision_grace);
      watch(client, room.get(), me.id, /*always=*/true);  // the limit was checked above
    }
    lobby_.changed();
    spdlog::info("game_created game={} player={} seats={} private={} spectators={} commitment={}",
                 room->id(), me.id, room->record().options.players, room->record().is_private,
                 to_string(room->record().spectators), room->record().commitment);
    return std::nullopt;
  }
}

}  // namespace viktory::server
