#include "clock_sweeper.h"

#include <algorithm>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/post.hpp>
#include <chrono>

namespace viktory::server {

namespace net = boost::asio;

ClockSweeper::ClockSweeper(net::io_context& ioc, Hub& hub)
    : hub_(hub), strand_(net::make_strand(ioc)), timer_(strand_) {}

ClockSweeper::~ClockSweeper() { hub_.on_clock_due(nullptr); }

void ClockSweeper::start() {
  hub_.on_clock_due([this](std::int64_t due) {
    net::post(strand_, [this, due] {
      if (!stopped_ && (armed_for_ == 0 || due < armed_for_)) arm(due);
    });
  });
  net::post(strand_, [this] { sweep(); });
}

void ClockSweeper::stop() {
  hub_.on_clock_due(nullptr);
  net::post(strand_, [this] {
    stopped_ = true;
    timer_.cancel();
  });
}

void ClockSweeper::sweep() {
  if (stopped_) return;
  arm(hub_.sweep_clocks());
}

void ClockSweeper::arm(std::int64_t due) {
  armed_for_ = due;
  const std::int64_t now = now_ms();
  constexpr std::int64_t kAtLeastEvery = 60 * 1000;
  const std::int64_t wait =
      due == 0 ? kAtLeastEvery : std::clamp<std::int64_t>(due - now, 0, kAtLeastEvery);
  timer_.expires_after(std::chrono::milliseconds(wait));
  timer_.async_wait(net::bind_executor(strand_, [this](boost::system::error_code ec) {
    if (!ec) sweep();
  }));
}

}  // namespace viktory::server
