// A game's summaries: its seats and the lines of the lobby, "my games" and records, made from
// its stored record (also for games not loaded).
#include <nlohmann/json.hpp>

#include "account_deletion.h"
#include "game_room.h"
#include "json.h"

namespace viktory::server {
namespace {

using nlohmann::json;

json player_id_json(std::int64_t id) { return std::to_string(id); }

json creator_json(const PlayerRecord& creator) {
  json out{{"player_id", player_id_json(creator.id)}};
  put_player_name(out, creator.name);
  return out;
}

}  // namespace

json GameRoom::commitment_of(const GameRecord& record) {
  return record.commitment.empty() ? json(nullptr) : json(record.commitment);
}

json GameRoom::reveal_json(const GameRecord& record) {
  if (!record.reveal_deadline) return nullptr;
  int humans = 0, committed = 0, waiting = 0;
  for (const SeatRecord& s : record.seats) {
    if (!s.computer.empty()) continue;
    ++humans;
    if (!s.contribution_commitment.empty()) ++committed;
    if (s.contribution.empty()) ++waiting;
  }
  return json{{"deadline", *record.reveal_deadline},
              {"waiting", waiting},
              {"committed", committed},
              {"phase", committed == humans ? "reveal" : "commit"}};
}

json GameRoom::seats_json(const GameRecord& record) {
  json seats = json::array();
  for (int i = 0; i < record.options.players; ++i) {
    json seat{{"seat", i},
              {"color", seat_color(i)},
              {"player_id", nullptr},
              {"name", nullptr},
              {"computer", nullptr}};
    for (const SeatRecord& s : record.seats) {
      if (s.seat == i) {
        seat["player_id"] = player_id_json(s.player_id);
        put_player_name(seat, s.name);  // a former player: no name, "former": true
        if (!s.computer.empty()) seat["computer"] = s.computer;
        // Fair play: a human seat's commitment is public (null: none yet); during the reveal
        // round whether it has revealed, never what. The operator's seat says so.
        if (s.computer.empty()) {
          seat["contribution_commitment"] =
              s.contribution_commitment.empty() ? json(nullptr) : json(s.contribution_commitment);
          if (record.reveal_deadline) seat["revealed"] = !s.contribution.empty();
        }
        if (s.host) seat["host"] = true;
      }
    }
    seats.push_back(std::move(seat));
  }
  return seats;
}

json GameRoom::seats_message() const {
  return json{{"type", "game.seats"},
              {"game_id", record_.id},
              {"status", to_string(record_.status)},
              {"creator", player_id_json(record_.creator.id)},
              {"seats", seats_json(record_)},
              {"options", protocol::options_to_json(record_.options)},
              {"private", record_.is_private},
              {"spectators", to_string(record_.spectators)},
              {"spectator_delay", record_.spectator_delay},
              {"commitment", commitment_of(record_)},
              {"reveal", reveal_json(record_)},
              {"clock", record_.clock},
              {"speed", speed_of(record_)}};
}

json GameRoom::summary_of(const GameRecord& record) {
  return json{{"game_id", record.id},
              {"status", to_string(record.status)},
              {"private", record.is_private},
              {"options", protocol::options_to_json(record.options)},
              {"spectators", to_string(record.spectators)},
              {"spectator_delay", record.spectator_delay},
              {"seats", seats_json(record)},
              {"creator", creator_json(record.creator)},
              {"created_at", record.created},
              {"last_move_at", record.last_move_at ? json(*record.last_move_at) : json(nullptr)},
              {"current_seat", record.status == GameStatus::kRunning && record.current_seat >= 0
                                   ? json(record.current_seat)
                                   : json(nullptr)},
              {"seq", record.seq},
              {"result", record.result ? *record.result : json(nullptr)},
              {"commitment", commitment_of(record)},
              {"reveal", reveal_json(record)},
              {"clock", record.clock},
              {"speed", speed_of(record)},
              {"rated", record.rated}};
}

const char* GameRoom::speed_of(const GameRecord& record) {
  constexpr std::int64_t kDaySeconds = 86400;
  const std::int64_t per_move =
      record.clock.is_object() ? record.clock.value("per_move_seconds", std::int64_t{0}) : 0;
  if (per_move <= 0) return "untimed";
  return per_move < kDaySeconds ? "live" : "daily";
}

}  // namespace viktory::server
