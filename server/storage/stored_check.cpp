#include "stored_check.h"

#include <exception>
#include <optional>
#include <utility>

#include "stored_walk.h"

namespace viktory::server {
namespace {

std::vector<int> snapshot_seqs(Store& store, std::int64_t game_id) {
  const auto guard = store.db().lock();
  Statement s = store.db().prepare("SELECT seq FROM snapshots WHERE game_id = ? ORDER BY seq");
  s.bind(1, game_id);
  std::vector<int> seqs;
  while (s.step()) seqs.push_back(static_cast<int>(s.int64(0)));
  return seqs;
}

void check_game(Store& store, const GameRecord& record, StoredCheck& check) {
  const std::string where = "game " + std::to_string(record.id) + ": ";
  const std::vector<int> snapshots = snapshot_seqs(store, record.id);
  // A guided game starts from its stored position (seq 0); every other game from its seed.
  StoredWalk walk(store, record, 0);
  auto next_snapshot = snapshots.begin();
  while (next_snapshot != snapshots.end() && *next_snapshot <= 0) ++next_snapshot;
  while (walk.seq() < record.seq) {
    walk.step(nullptr);
    ++check.actions;
    if (next_snapshot != snapshots.end() && *next_snapshot == walk.seq()) {
      const std::optional<std::pair<int, GameState>> stored =
          store.latest_snapshot(record.id, walk.seq());
      if (!stored || stored->first != walk.seq() || !(stored->second == walk.state())) {
        check.problems.push_back(where + "the snapshot after action " + std::to_string(walk.seq()) +
                                 " is not the state its actions give");
      }
      ++check.snapshots;
      ++next_snapshot;
    }
  }
  if (next_snapshot != snapshots.end()) {
    check.problems.push_back(where + "a snapshot after action " + std::to_string(*next_snapshot) +
                             ", past the game's " + std::to_string(record.seq) + " actions");
  }
  if (!store.actions(record.id, record.seq).empty()) {
    check.problems.push_back(where + "actions stored past the game's " +
                             std::to_string(record.seq));
  }
}

}  // namespace

StoredCheck check_every_game(Store& store) {
  StoredCheck check;
  for (GameStatus status :
       {GameStatus::kOpen, GameStatus::kRunning, GameStatus::kFinished, GameStatus::kCancelled}) {
    Store::DamagedList damaged;
    for (const GameRecord& record : store.games_with_status(status, &damaged)) {
      ++check.games;
      try {
        check_game(store, record, check);
      } catch (const DamagedGame& e) {
        check.problems.push_back(e.what());  // names the game and the action
      } catch (const std::exception& e) {
        // A snapshot that cannot be read throws the JSON reader's error.
        check.problems.push_back("game " + std::to_string(record.id) + ": " + e.what());
      }
    }
    for (const auto& [id, why] : damaged) {
      ++check.games;
      check.problems.push_back("game " + std::to_string(id) + ": " + why);
    }
  }
  return check;
}

}  // namespace viktory::server
