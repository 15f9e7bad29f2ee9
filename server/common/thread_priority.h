// The OS priority of a server worker thread: the computer players' pool and the look back's
// worker run below the network threads, so that a person's move is never kept waiting by them.
#pragma once

#include <string_view>

namespace viktory::server {

// Lowers the calling thread's OS priority by `nice` steps (Linux: niceness is per thread); 0
// leaves it. On failure it logs a warning naming `who` and the thread runs on at normal
// priority.
void lower_thread_priority(int nice, std::string_view who);

}  // namespace viktory::server
