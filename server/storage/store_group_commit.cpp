// Group commit (store.h): one writer thread takes the actions that arrive together and commits
// them in one transaction, a savepoint each, so that one fsync carries many; an action is
// acknowledged after its group's COMMIT. Split from store.cpp.
#include "store_group_commit.h"

#include <spdlog/spdlog.h>

#include <exception>
#include <stdexcept>
#include <string>

namespace viktory::server {

Store::GroupCommitStats Store::group_commit_stats() const {
  if (!group_) return {};
  std::lock_guard lock(group_->mutex);
  return GroupCommitStats{group_->commits, group_->taken, group_->queue.size()};
}

std::string Store::group_commit_metrics() const {
  const GroupCommitStats stats = group_commit_stats();
  return "# HELP viktory_commit_groups_total Transactions (fsyncs) of group commit.\n"
         "# TYPE viktory_commit_groups_total counter\n"
         "viktory_commit_groups_total " +
         std::to_string(stats.groups) +
         "\n# HELP viktory_commit_group_actions_total Actions the group commit writer took.\n"
         "# TYPE viktory_commit_group_actions_total counter\n"
         "viktory_commit_group_actions_total " +
         std::to_string(stats.taken) + "\n";
}

void Store::start_group_commit() {
  if (group_) return;
  group_ = std::make_unique<GroupCommit>();
  group_->writer = std::thread([this] { run_group_commit(); });
}

void Store::run_group_commit() {
  for (;;) {
    std::vector<std::shared_ptr<GroupCommit::Waiting>> group;
    {
      std::unique_lock lock(group_->mutex);
      group_->work.wait(lock, [&] { return group_->stopping || !group_->queue.empty(); });
      if (group_->queue.empty()) return;  // stopping, and nothing is waiting
      group.swap(group_->queue);
      group_->busy = true;
      group_->taken += static_cast<std::int64_t>(group.size());
    }
    std::optional<DbError> group_error;
    try {
      Transaction tx(db_);
      for (const auto& w : group) {
        // One action's rows that cannot be written (a constraint: a bug) fail that action
        // only; a failing disk fails the whole group.
        db_.cached("SAVEPOINT one_action").run();
        try {
          write_action(*w->commit);
        } catch (const DbError& e) {
          if (e.storage_failure()) throw;
          w->error = e;
          db_.exec("ROLLBACK TO one_action");
        } catch (const std::exception& e) {
          w->error = DbError(e.what());
          db_.exec("ROLLBACK TO one_action");
        }
        db_.cached("RELEASE one_action").run();
      }
      tx.commit();
    } catch (const DbError& e) {
      group_error = e;
    } catch (const std::exception& e) {
      group_error = DbError(e.what());
    }
    {
      std::lock_guard lock(group_->mutex);
      for (const auto& w : group) {
        if (group_error) w->error = group_error;
        w->done = true;
      }
      ++group_->commits;
    }
    group_->finished.notify_all();
    // The asynchronous ones, in queue order (a game's actions stay in seq order), with no lock
    // of the Store held: a completion takes its room's lock and may read the database.
    for (const auto& w : group) {
      if (!w->on_done) continue;
      try {
        w->on_done(w->error);
      } catch (const std::exception& e) {
        spdlog::error("commit_completion_failed game={} error=\"{}\"", w->commit->game_id,
                      e.what());
      }
    }
    group.clear();  // the completions (and what they keep alive) go before the writer says so
    {
      std::lock_guard lock(group_->mutex);
      group_->busy = false;
    }
    group_->finished.notify_all();
  }
}

void Store::commit_action(const ActionCommit& commit) {
  if (group_) {
    auto waiting = std::make_shared<GroupCommit::Waiting>();
    waiting->commit = &commit;
    std::unique_lock lock(group_->mutex);
    group_->queue.push_back(waiting);
    group_->work.notify_one();
    group_->finished.wait(lock, [&] { return waiting->done; });
    if (waiting->error) throw *waiting->error;
    return;
  }
  commit_action_direct(commit);
}

void Store::commit_action_direct(const ActionCommit& commit) {
  const auto guard = db_.lock();
  Transaction tx(db_);
  write_action(commit);
  tx.commit();
}

void Store::drain_group_commit() {
  if (!group_) return;
  std::unique_lock lock(group_->mutex);
  group_->finished.wait(lock, [&] { return group_->queue.empty() && !group_->busy; });
}

void Store::commit_action_async(const ActionCommit& commit, CommitDone done) {
  if (!group_) throw std::logic_error("commit_action_async needs group commit");
  auto waiting = std::make_shared<GroupCommit::Waiting>();
  waiting->commit = &commit;
  waiting->on_done = std::move(done);
  {
    std::lock_guard lock(group_->mutex);
    group_->queue.push_back(std::move(waiting));
  }
  group_->work.notify_one();
}

}  // namespace viktory::server
