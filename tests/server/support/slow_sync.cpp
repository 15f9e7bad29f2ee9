// An LD_PRELOAD library for a server under test whose disk should be slow: each fsync and
// fdatasync waits VIKTORY_TEST_SYNC_DELAY_MS (default 20) before the real one. On a fast disk,
// or a slow build (ThreadSanitizer), a commit may end before the next action arrives, so a test
// of what happens while the writer is busy would test nothing. It says once on standard error
// that it is in place, so the test can see it was.
#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <ctime>

namespace {

std::atomic<bool> announced{false};

void wait_like_a_slow_disk() {
  if (!announced.exchange(true)) {
    constexpr char kNote[] = "slow_sync: every fsync waits\n";
    [[maybe_unused]] const ssize_t n = write(STDERR_FILENO, kNote, sizeof kNote - 1);
  }
  const char* setting = std::getenv("VIKTORY_TEST_SYNC_DELAY_MS");
  const long ms = setting != nullptr ? std::atol(setting) : 20;
  timespec pause{ms / 1000, (ms % 1000) * 1'000'000L};
  while (nanosleep(&pause, &pause) != 0) {
  }
}

template <typename Function>
Function real(const char* name) {
  return reinterpret_cast<Function>(dlsym(RTLD_NEXT, name));
}

}  // namespace

extern "C" int fsync(int fd) {
  static const auto next = real<int (*)(int)>("fsync");
  wait_like_a_slow_disk();
  return next(fd);
}

extern "C" int fdatasync(int fd) {
  static const auto next = real<int (*)(int)>("fdatasync");
  wait_like_a_slow_disk();
  return next(fd);
}
