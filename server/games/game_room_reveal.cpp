// Fair play's reveal round (docs/fair-play.md, "The scheme"; contributions.h): when a game's
// seats are final (the last seat taken, or the creator starts it), every human seat commits
// (if it has not yet) and then reveals its contribution; when all are in, the seed is derived
// from the server's secret and every contribution and the game begins. No contribution is sent
// to anyone while the round runs: a player who saw another's before revealing his own could
// choose to drop out. A seat that stays silent until the deadline is removed (never silently
// left out) and the game is open again; the others' contributions, known to the server now,
// are thrown away with their commitments, and their clients commit afresh.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "game_room.h"

namespace viktory::server {
namespace {

using nlohmann::json;

bool human(const SeatRecord& s) { return s.computer.empty(); }

}  // namespace

bool GameRoom::all_committed() const {
  return std::all_of(record_.seats.begin(), record_.seats.end(), [](const SeatRecord& s) {
    return !human(s) || !s.contribution_commitment.empty();
  });
}

int GameRoom::waiting_reveals() const {
  return static_cast<int>(
      std::count_if(record_.seats.begin(), record_.seats.end(),
                    [](const SeatRecord& s) { return human(s) && s.contribution.empty(); }));
}

void GameRoom::start_when_revealed(std::vector<SeatRecord> seats) {
  // A guided game (tutorial.h) starts from a prepared position and has no record to prove;
  // a game of computers alone has nobody to contribute.
  if (start_position_ || std::none_of(seats.begin(), seats.end(), human)) {
    begin_game(std::move(seats));
    return;
  }
  begin_round(std::move(seats));
}

void GameRoom::begin_round(std::vector<SeatRecord> seats) {
  const ContributionOptions& options = limits_.contributions;
  const std::int64_t deadline =
      contribution_now_ms(options) + reveal_wait_ms(options, record_.clock);
  for (SeatRecord& s : seats) s.contribution.clear();  // a round starts with no reveal
  {
    Transaction tx(store_.db());
    store_.replace_seats(record_.id, seats, now_ms());
    store_.set_reveal_round(record_.id, deadline);
    tx.commit();
  }
  record_.seats = std::move(seats);
  record_.reveal_deadline = deadline;
  spdlog::info("reveal_round_started game={} seats={} deadline={}", record_.id,
               record_.seats.size(), deadline);
  broadcast_seats();
  ask_round();
}

json GameRoom::round_request(const SeatRecord& seat) const {
  if (!record_.reveal_deadline || !human(seat)) return nullptr;
  json request{
      {"game_id", record_.id}, {"seat", seat.seat}, {"deadline", *record_.reveal_deadline}};
  if (!all_committed()) {
    // Commitments first: nobody reveals before every seat is bound.
    if (!seat.contribution_commitment.empty()) return nullptr;
    request["type"] = "game.commit_request";
    return request;
  }
  if (!seat.contribution.empty()) return nullptr;
  request["type"] = "game.reveal_request";
  request["contribution_commitment"] = seat.contribution_commitment;
  // Every seat's, in seat order (null: a computer's): the client checks its own is there
  // before it reveals, and keeps the list in its witness.
  json commitments = json::array();
  for (const SeatRecord& s : record_.seats) {
    commitments.push_back(human(s) ? json(s.contribution_commitment) : json(nullptr));
  }
  request["contribution_commitments"] = std::move(commitments);
  return request;
}

void GameRoom::ask_round() {
  if (!record_.reveal_deadline) return;
  for (const auto& [subscriber, watcher] : subscribers_) {
    const std::int64_t player_id = watcher;  // clang 14 cannot capture a structured binding
    const auto seat = std::find_if(record_.seats.begin(), record_.seats.end(),
                                   [&](const SeatRecord& s) { return s.player_id == player_id; });
    if (seat == record_.seats.end()) continue;
    if (json request = round_request(*seat); !request.is_null()) {
      subscriber->deliver(make_message(request));
    }
  }
  // A round asked of everyone reaches the seats' other connections too (the lobby, another
  // game's page): their browsers answer without this game open.
  if (!limits_.contributions.ask_elsewhere) return;
  for (const SeatRecord& seat : record_.seats) {
    if (json request = round_request(seat); !request.is_null()) {
      limits_.contributions.ask_elsewhere(seat.player_id, record_.id, request);
    }
  }
}

void GameRoom::ask_round_of(Subscriber* connection, std::int64_t player_id) {
  const auto seat = std::find_if(record_.seats.begin(), record_.seats.end(),
                                 [&](const SeatRecord& s) { return s.player_id == player_id; });
  if (seat == record_.seats.end()) return;
  if (json request = round_request(*seat); !request.is_null()) {
    connection->deliver(make_message(request));
  }
}

Outcome GameRoom::commit(std::int64_t player_id, const std::string& commitment) {
  if (record_.status != GameStatus::kOpen) return fail("not_open", "the game is not open");
  const auto seat = std::find_if(record_.seats.begin(), record_.seats.end(),
                                 [&](const SeatRecord& s) { return s.player_id == player_id; });
  if (seat == record_.seats.end()) return fail("not_seated", "you hold no seat in this game");
  if (!seat->contribution_commitment.empty()) {
    return fail("already_committed", "your seat has a contribution commitment already");
  }
  std::vector<SeatRecord> next = record_.seats;
  next[static_cast<std::size_t>(seat - record_.seats.begin())].contribution_commitment = commitment;
  {
    Transaction tx(store_.db());
    store_.replace_seats(record_.id, next, now_ms());
    tx.commit();
  }
  record_.seats = std::move(next);
  broadcast_seats();
  // The last commitment of a round: every seat is bound, so all may reveal now.
  if (record_.reveal_deadline && all_committed()) ask_round();
  return std::nullopt;
}

Outcome GameRoom::contribute(std::int64_t player_id, const json& contribution) {
  if (record_.status != GameStatus::kOpen || !record_.reveal_deadline) {
    return fail("no_round", "the game is not waiting for contributions");
  }
  const auto seat = std::find_if(record_.seats.begin(), record_.seats.end(),
                                 [&](const SeatRecord& s) { return s.player_id == player_id; });
  if (seat == record_.seats.end()) return fail("not_seated", "you hold no seat in this game");
  if (!all_committed()) {
    return fail("not_asked", "not every seat has committed yet: wait for game.reveal_request");
  }
  if (!seat->contribution.empty()) {
    return fail("already_revealed", "your seat has revealed its contribution in this round");
  }
  std::string hex;
  if (auto f = check_contribution(contribution, seat->contribution_commitment, hex)) return f;
  std::vector<SeatRecord> next = record_.seats;
  next[static_cast<std::size_t>(seat - record_.seats.begin())].contribution = hex;
  if (std::all_of(next.begin(), next.end(),
                  [](const SeatRecord& s) { return !human(s) || !s.contribution.empty(); })) {
    spdlog::info("reveal_round_complete game={}", record_.id);
    begin_game(std::move(next));  // stores the contributions with the start, in one transaction
    return std::nullopt;
  }
  {
    Transaction tx(store_.db());
    store_.replace_seats(record_.id, next, now_ms());
    tx.commit();
  }
  record_.seats = std::move(next);
  broadcast_seats();  // who has revealed (never what)
  return std::nullopt;
}

bool GameRoom::expire_round(std::int64_t now) {
  if (record_.status != GameStatus::kOpen || !record_.reveal_deadline ||
      now < *record_.reveal_deadline) {
    return false;
  }
  std::vector<SeatRecord> kept;
  std::vector<std::int64_t> removed;
  for (const SeatRecord& s : record_.seats) {
    if (human(s) && s.contribution.empty()) {
      removed.push_back(s.player_id);
    } else {
      kept.push_back(s);
    }
  }
  spdlog::info("reveal_round_expired game={} removed={}", record_.id, removed.size());
  reset_round(std::move(kept), "the deadline passed");
  return true;
}

void GameRoom::reset_round(std::vector<SeatRecord> seats, const std::string& why) {
  // Whatever was revealed is known to the server now: none of it may feed a seed.
  for (SeatRecord& s : seats) {
    s.contribution_commitment.clear();
    s.contribution.clear();
  }
  {
    Transaction tx(store_.db());
    store_.replace_seats(record_.id, seats, now_ms());
    store_.set_reveal_round(record_.id, std::nullopt);
    tx.commit();
  }
  record_.seats = std::move(seats);
  record_.reveal_deadline.reset();
  spdlog::info("reveal_round_ended game={} why=\"{}\" seats={}", record_.id, why,
               record_.seats.size());
  broadcast_seats();
  // The seats that stay commit afresh (their clients do it when asked, or when game.seats
  // shows their seat without a commitment).
  for (const SeatRecord& s : record_.seats) {
    if (!human(s)) continue;
    const json request{{"type", "game.commit_request"}, {"game_id", record_.id}, {"seat", s.seat}};
    for (const auto& [subscriber, player_id] : subscribers_) {
      if (player_id == s.player_id) subscriber->deliver(make_message(request));
    }
    if (limits_.contributions.ask_elsewhere) {
      limits_.contributions.ask_elsewhere(s.player_id, record_.id, request);
    }
  }
}

}  // namespace viktory::server
