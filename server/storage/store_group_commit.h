// Group commit's shared state (store_group_commit.cpp): private to the Store's own source files,
// which both need it whole (the Store's destructor stops the writer).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "store.h"

namespace viktory::server {

// The writer thread of group commit and the commits waiting for it.
struct Store::GroupCommit {
  struct Waiting {
    const ActionCommit* commit;
    std::optional<DbError> error;
    bool done = false;
    CommitDone on_done;  // asynchronous commits: called by the writer after the COMMIT
  };
  mutable std::mutex mutex;
  std::condition_variable work;      // the writer waits for commits
  std::condition_variable finished;  // callers wait for their group's COMMIT
  std::vector<std::shared_ptr<Waiting>> queue;
  bool stopping = false;
  bool busy = false;  // the writer holds a group (writing it or running its completions)
  std::int64_t commits = 0;
  std::int64_t taken = 0;
  std::thread writer;
};

}  // namespace viktory::server
