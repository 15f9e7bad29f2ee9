// GameRoom::act_async: an action that does not hold its thread while the writer commits it
// (docs/server.md, "Threads and ordering"). Validated and applied to a copy under the room's
// lock, its viewers' updates built there too; the writer thread's completion installs the
// state and hands the prepared messages out, so it holds the room's lock only briefly.
#include <spdlog/spdlog.h>

#include "game_room.h"

namespace viktory::server {

void GameRoom::wait_idle() {
  // condition_variable_any waits on the room's mutex itself, which the caller holds (through
  // whatever guard): released while waiting, held again on return.
  idle_.wait(mutex_, [this] { return !commit_in_flight_; });
}

void GameRoom::prepare_updates(PendingAction& pending) {
  const int seq = pending.commit.record.seq;
  const Step step{seq, pending.events};
  // Delayed spectators are not sent live updates (install advances them itself).
  const bool skip_spectators = spectators_delayed();
  for (const auto& [subscriber, player] : subscribers_) {
    const int viewer = viewer_for(player);
    if (viewer == kSpectator && skip_spectators) continue;
    if (pending.updates.count(viewer) != 0) continue;
    const bool undo = viewer != kSpectator && !pending.finished &&
                      undo_allowed(pending.next, pending.commit.record, viewer);
    ViewerCache cache = build_cache(pending.next, seq, viewer, undo);
    // What this viewer's subscribers hold now: the view at the committed seq, if built.
    const GameView* before = nullptr;
    if (auto it = cache_.find(viewer); it != cache_.end() && it->second.seq == seq - 1) {
      before = it->second.view.get();
    }
    pending.updates.emplace(viewer, update_message_with(viewer, before, cache, pending.next, step));
    pending.caches.emplace(viewer, std::move(cache));
  }
}

Outcome GameRoom::act_async(std::int64_t player_id, int client_seq, Action action, ActDone done) {
  wait_idle();  // one commit in flight per room: its actions reach the database in seq order
  auto pending = std::make_shared<PendingAction>();
  if (auto refused = prepare_action(player_id, client_seq, std::move(action), *pending)) {
    return refused;
  }
  prepare_updates(*pending);
  commit_in_flight_ = true;
  try {
    // `pending` lives in the completion, which the writer keeps until it has run: the commit
    // (and its snapshot) stay valid while the writer reads them. The caller's `done` keeps
    // this room alive (the Hub passes its shared_ptr).
    store_.commit_action_async(pending->commit, [this, pending, done = std::move(done)](
                                                    const std::optional<DbError>& error) {
      {
        std::lock_guard lock(mutex_);
        if (!error) {
          try {
            install(*pending);
          } catch (const std::exception& e) {
            // Committed: the state stays behind the database until the room reloads.
            spdlog::error("install_failed game={} seq={} error=\"{}\"", record_.id,
                          pending->commit.record.seq, e.what());
          }
        }
        commit_in_flight_ = false;
        idle_.notify_all();
      }
      done(error);  // without the room's lock: it may post to an io thread
    });
  } catch (...) {
    commit_in_flight_ = false;
    idle_.notify_all();
    throw;
  }
  return std::nullopt;
}

}  // namespace viktory::server
