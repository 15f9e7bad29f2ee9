#include "thread_priority.h"

#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace viktory::server {

void lower_thread_priority(int nice, std::string_view who) {
  if (nice == 0) return;
  const auto tid = static_cast<id_t>(gettid());
  errno = 0;
  const int current = getpriority(PRIO_PROCESS, tid);
  if (errno != 0 || setpriority(PRIO_PROCESS, tid, std::min(19, current + nice)) != 0) {
    spdlog::warn("{} run at normal priority: setpriority failed (errno {})", who, errno);
  }
}

}  // namespace viktory::server
