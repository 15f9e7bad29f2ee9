#include "tutorial.h"

#include <nlohmann/json.hpp>

#include "scenario.h"

namespace viktory::server {

namespace {

GameState read_scenario() {
  protocol::Scenario scenario =
      protocol::scenario_from_json(nlohmann::json::parse(tutorial_scenario_json()));
  return std::move(scenario.state);
}

}  // namespace

Tutorials::Tutorials(TutorialLimits limits)
    : start_(read_scenario()),
      players_(limits.per_player_per_hour / 3600.0, limits.per_player_per_hour),
      addresses_(3.0 * limits.per_player_per_hour / 3600.0, 3.0 * limits.per_player_per_hour) {}

bool Tutorials::admit(std::int64_t player_id, const std::string& address) {
  std::lock_guard lock(mutex_);
  if (!players_.take(std::to_string(player_id))) return false;
  return address.empty() || addresses_.take(address);
}

}  // namespace viktory::server
