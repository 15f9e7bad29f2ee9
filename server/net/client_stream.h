// The TCP stream of a client connection: Beast's basic_stream (as tcp_stream) whose rate
// policy limits nothing but counts the bytes read, so that a WebSocket session can tell a
// message that is still arriving, byte by byte, from a quiet connection.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/basic_stream.hpp>
#include <boost/beast/core/rate_policy.hpp>
#include <cstdint>
#include <limits>

namespace viktory::server {

class ReadCounter {
 public:
  std::uint64_t bytes_read() const { return bytes_read_; }

 private:
  friend class boost::beast::rate_policy_access;
  static constexpr std::size_t kAll = (std::numeric_limits<std::size_t>::max)();
  std::size_t available_read_bytes() const noexcept { return kAll; }
  std::size_t available_write_bytes() const noexcept { return kAll; }
  void transfer_read_bytes(std::size_t n) noexcept { bytes_read_ += n; }
  void transfer_write_bytes(std::size_t) const noexcept {}
  void on_timer() const noexcept {}

  std::uint64_t bytes_read_ = 0;
};

using ClientStream =
    boost::beast::basic_stream<boost::asio::ip::tcp, boost::asio::any_io_executor, ReadCounter>;

}  // namespace viktory::server
