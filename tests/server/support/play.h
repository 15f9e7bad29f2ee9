// Steps shared by the integration tests: sign up, sign in, set up a game, act and wait.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/ws_client.h"

namespace viktory::server::testing {

struct Account {
  std::string player_id;
  std::string name;
  std::string token;
};

Account sign_up(int port, const std::string& name);
void sign_in(WsClient& ws, const Account& account);  // auth, waits for welcome

// What one client knows of a game: the latest full view (game.state, or the view before with
// a game.update's delta applied).
struct Seen {
  int seq = -1;
  int seat = -1;  // -1: spectator
  nlohmann::json view;
  nlohmann::json legal = nlohmann::json::array();
  bool can_undo = false;
  // Takes a game.state or game.update into account; returns whether it was one.
  bool absorb(const nlohmann::json& message);
};

// The first client creates a game with `fields` (merged into game.create), the others join in
// order; returns the game id once every client has its game.state.
std::int64_t start_game(const std::vector<WsClient*>& clients, std::vector<Seen>& seen,
                        nlohmann::json fields = nlohmann::json::object());

// Sends an action for the client and waits until every watcher has the update with seq+1.
// Returns the actor's update.
nlohmann::json act_and_wait(WsClient& actor, std::int64_t game_id, const nlohmann::json& action,
                            const std::vector<WsClient*>& watchers, std::vector<Seen>& seen,
                            std::size_t actor_index);

// Plays `actions` actions (fewer if the game ends), each the decider's first legal one that is
// not a concession, every one acknowledged and seen by every client (act_and_wait).
void play_actions(const std::vector<WsClient*>& clients, std::vector<Seen>& seen,
                  std::int64_t game_id, int actions);

}  // namespace viktory::server::testing
