// The clocks' sweeper: a timer on the io_context that calls Hub::sweep_clocks() when the next
// reminder or deadline is due (read from the database, so it works across restarts), re-armed
// earlier when a new deadline comes up, and at least once a minute.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <cstdint>

#include "hub.h"

namespace viktory::server {

class ClockSweeper {
 public:
  ClockSweeper(boost::asio::io_context& ioc, Hub& hub);
  ~ClockSweeper();  // unhooks from the Hub
  ClockSweeper(const ClockSweeper&) = delete;
  ClockSweeper& operator=(const ClockSweeper&) = delete;

  void start();  // sweeps now (due deadlines of before a restart), then on time
  void stop();

 private:
  void sweep();
  void arm(std::int64_t due);

  Hub& hub_;
  boost::asio::strand<boost::asio::io_context::executor_type> strand_;
  boost::asio::steady_timer timer_;
  std::int64_t armed_for_ = 0;  // ms since the epoch; 0: only the periodic check
  bool stopped_ = false;
};

}  // namespace viktory::server
