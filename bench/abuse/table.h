// Two clients playing one two-player game after the other with random legal actions (never a
// concession), for scenarios that need games that move: who must act, one action at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "abuse.h"
#include "support/play.h"

namespace viktory::abuse {

class Table {
 public:
  // Signs both in (each from its own address); start() begins the first game.
  Table(int port, const Account& first, const std::string& first_address, const Account& second,
        const std::string& second_address, unsigned seed);

  // A new game: the first client creates it, the second joins.
  void start();
  // The index (0 or 1) of the client who must act, or -1 when the game is over.
  int decider() const;
  // One random legal action of the decider, waited for until both clients have its update.
  // False when the server refused it (rate limited): nothing changed. Starts a new game when
  // the game ended.
  bool act();
  std::int64_t game_id() const { return game_id_; }

 private:
  std::unique_ptr<WsClient> clients_[2];
  std::vector<viktory::server::testing::Seen> seen_;
  std::int64_t game_id_ = 0;
  std::mt19937 random_;
};

}  // namespace viktory::abuse
