// game.invite_friend: a seated player of an open game with a free seat invites a player he
// follows (friends.h; docs/protocol.md, "game.invite_friend"). The friend is told through his
// own notification settings (a TurnChange of kind `invited` to the turn notifications), with
// the link that lets him join: the game's page, with the invite code for a private game.
#include <spdlog/spdlog.h>

#include <charconv>

#include "hub.h"

namespace viktory::server {

using nlohmann::json;

Outcome Hub::invite_friend(Client* client, const PlayerRecord& me, const json& msg, GameRoom& room,
                           std::unique_lock<std::mutex>& room_lock) {
  std::int64_t invitee = 0;
  if (auto it = msg.find("player"); it != msg.end() && it->is_string()) {
    const std::string& text = it->get_ref<const std::string&>();
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), invitee);
    if (ec != std::errc() || ptr != text.data() + text.size()) invitee = 0;
  }
  if (invitee <= 0) return fail("bad_message", "field 'player' must be a player's id");
  const GameRecord& record = room.record();
  if (room.status() != GameStatus::kOpen) {
    return fail("not_open", "only a game waiting for players takes invitations");
  }
  if (!room.seat_of(me.id)) return fail("not_seated", "only a seated player may invite");
  if (static_cast<int>(record.seats.size()) >= record.options.players) {
    return fail("no_free_seat", "this game has no free seat");
  }
  if (room.seat_of(invitee)) return fail("already_seated", "this player has a seat already");
  // A private game's link needs its code, which the server keeps only as a hash: the inviter
  // sends the one he holds (from game.created or game.invite), checked against the hash.
  std::string code;
  if (record.is_private) {
    if (auto it = msg.find("invite"); it != msg.end() && it->is_string()) code = *it;
    if (code.empty() || !room.may_view(0, code)) {
      return fail("invite_needed",
                  "send the private game's invite code in 'invite' (game.invite makes a new one)");
    }
  }
  TurnChange change;
  change.kind = TurnChange::Kind::invited;
  change.game_id = room.id();
  change.decider_player = invitee;
  change.inviter = me.name;
  change.invite = code;
  for (const SeatRecord& s : record.seats) change.seats.push_back({s.seat, s.player_id, s.name});
  room_lock.unlock();
  // Written with no lock of the Hub held (the writer's transaction).
  if (auto refused = friends_.record_invitation(me.id, invitee, change.game_id, now_ms())) {
    return refused;
  }
  if (options_.room.on_turn) options_.room.on_turn(std::move(change));
  spdlog::info("friend_invited game={} inviter={} invitee={}", room.id(), me.id, invitee);
  client->deliver(make_message(json{{"type", "game.friend_invited"},
                                    {"game_id", room.id()},
                                    {"player", std::to_string(invitee)}}));
  return std::nullopt;
}

}  // namespace viktory::server
