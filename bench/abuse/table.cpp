#include "table.h"

#include <stdexcept>

namespace viktory::abuse {

using nlohmann::json;

Table::Table(int port, const Account& first, const std::string& first_address,
             const Account& second, const std::string& second_address, unsigned seed)
    : random_(seed) {
  clients_[0] = connect_as(port, first, first_address);
  clients_[1] = connect_as(port, second, second_address);
}

void Table::start() {
  std::vector<WsClient*> both{clients_[0].get(), clients_[1].get()};
  game_id_ = viktory::server::testing::start_game(both, seen_);
}

int Table::decider() const {
  for (int i = 0; i < 2; ++i) {
    const json& view = seen_[static_cast<std::size_t>(i)].view;
    if (view.value("phase", "") == "game_over") return -1;
  }
  for (int i = 0; i < 2; ++i) {
    for (const json& action : seen_[static_cast<std::size_t>(i)].legal) {
      const std::string kind = action.value("kind", "");
      if (kind != "concede" && kind != "withdraw") return i;
    }
  }
  return -1;
}

bool Table::act() {
  const int who = decider();
  if (who < 0) {
    start();
    return true;
  }
  std::vector<json> moves;
  for (const json& action : seen_[static_cast<std::size_t>(who)].legal) {
    const std::string kind = action.value("kind", "");
    if (kind != "concede" && kind != "withdraw") moves.push_back(action);
  }
  const json action =
      moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(random_)];
  std::vector<WsClient*> both{clients_[0].get(), clients_[1].get()};
  try {
    viktory::server::testing::act_and_wait(*clients_[who], game_id_, action, both, seen_,
                                           static_cast<std::size_t>(who));
  } catch (const std::runtime_error& e) {
    if (std::string(e.what()).find("rate_limited") != std::string::npos) return false;
    throw;
  }
  return true;
}

}  // namespace viktory::abuse
