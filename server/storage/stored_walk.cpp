#include "stored_walk.h"

#include <optional>
#include <string>
#include <utility>

#include "json.h"

namespace viktory::server {

StoredWalk::StoredWalk(Store& store, const GameRecord& record, int from)
    : where_("game " + std::to_string(record.id) + ": ") {
  std::optional<std::pair<int, GameState>> snapshot;
  try {
    snapshot = store.latest_snapshot(record.id, from);
    actions_ = store.actions(record.id, snapshot ? snapshot->first : 0);
  } catch (const nlohmann::json::exception&) {
    throw DamagedGame(where_ + "an action or a snapshot cannot be read");
  } catch (const protocol::JsonError&) {
    throw DamagedGame(where_ + "an action or a snapshot cannot be read");
  }
  state_ = snapshot ? std::move(snapshot->second)
                    : new_game(record.options, record.seed, record.random_scheme);
  seq_ = snapshot ? snapshot->first : 0;
  next_ = actions_.begin();
  while (seq_ < from) step(nullptr);
}

const Action& StoredWalk::next_action() const {
  static const Action kNone{};
  return next_ != actions_.end() ? next_->action : kNone;
}

ActionSource StoredWalk::next_source() const {
  return next_ != actions_.end() ? next_->source : ActionSource::kPlayer;
}

void StoredWalk::step(std::vector<Event>* events) {
  if (next_ == actions_.end() || next_->seq != seq_ + 1) {
    throw DamagedGame(where_ + "the action log has a gap at action " + std::to_string(seq_ + 1));
  }
  if (auto error = apply_in_place(state_, next_->action, events)) {
    throw DamagedGame(where_ + "stored action " + std::to_string(seq_ + 1) +
                      " no longer applies: " + error->code);
  }
  ++seq_;
  ++next_;
}

}  // namespace viktory::server
