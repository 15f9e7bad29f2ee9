// The players' part of fair play (docs/fair-play.md, "The scheme"): every human seat commits to a
// contribution when it takes its seat (game.create, game.join, game.commit) and reveals it once
// the seats are final (game.contribute, asked by game.reveal_request); the seed is derived from
// the server's secret and every contribution. The round itself lives in GameRoom
// (game_room_reveal.cpp); this header holds its options and the checks of what clients send.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common.h"
#include "game_clock.h"

namespace viktory::server {

struct ContributionOptions {
  // How long a reveal round waits for the last seat: the time a seat has for a move under the
  // game's clock, at least `min_wait_ms`; `untimed_wait_ms` for a game without a clock
  // (correspondence players are rarely online when the last seat fills).
  std::int64_t min_wait_ms = 2 * 60 * 1000;
  std::int64_t untimed_wait_ms = 3LL * 24 * 60 * 60 * 1000;
  // Reveal rounds one player (and, doubled, one address) may start per hour: each round that
  // fails makes every other seat commit afresh (docs/server.md, "Limits").
  int rounds_per_hour = 12;
  // The accounts of the server's operator (--operator NAME): a seat taken by one is marked.
  std::vector<std::string> operators;
  Clock* clock = nullptr;  // the rounds' time; nullptr: the system clock
  // Hands a round's request for a seated player to his connections that do not watch the game
  // (the Hub's; called under the room's lock): a browser open on the lobby or another game
  // answers by itself, so the round does not wait for him to open this one. Empty: watchers
  // alone are asked.
  std::function<void(std::int64_t player_id, std::int64_t game_id, const nlohmann::json& request)>
      ask_elsewhere;
};

// Whether `name` is one of the operator's accounts (exact name).
bool is_operator(const ContributionOptions& options, std::string_view name);
// The round's deadline from now (ms) for a game with these clock options (its summary's
// `clock`: null for none).
std::int64_t reveal_wait_ms(const ContributionOptions& options, const nlohmann::json& clock);
std::int64_t contribution_now_ms(const ContributionOptions& options);

// A contribution commitment as sent (64 hex digits): lowercase; Failure "bad_commitment".
std::variant<std::string, Failure> read_commitment(const nlohmann::json& value);
// The message's optional `contribution_commitment` (absent or null: none, an old client).
std::variant<std::string, Failure> optional_commitment(const nlohmann::json& msg);
// Whether `contribution_hex` (checked: 64 hex digits, else Failure "bad_contribution") is the
// contribution `commitment_hex` commits to; Failure "wrong_contribution" when it is not.
Outcome check_contribution(const nlohmann::json& value, const std::string& commitment_hex,
                           std::string& contribution_hex);

}  // namespace viktory::server
