// A raw WebSocket connection for the tests of hostile clients: the handshake by hand, then
// frames (or parts of frames) exactly as the test writes them; it reads only when asked, and it
// never answers a ping or a close frame.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace viktory::server::testing {

class RawSocket {
 public:
  // Throws when the server refuses the upgrade.
  explicit RawSocket(int port,
                     const std::vector<std::pair<std::string, std::string>>& headers = {});
  // Writes bytes as they are; false once the server has closed the connection.
  bool send(const std::string& bytes);
  // A whole masked text frame (a zero mask: the payload goes as it is), any length.
  bool send_text(const std::string& payload);
  // Whether the server closed the connection within `timeout` (data it sends is skipped).
  bool closed_within(std::chrono::milliseconds timeout);

 private:
  boost::asio::io_context ioc_;
  boost::asio::ip::tcp::socket socket_;
};

// The header of a masked text frame of `length` bytes, with a zero mask.
std::string text_frame_header(std::size_t length);

// A value of the server's /metrics ("viktory_connections_open"); -1 when it is missing.
double metric(int port, const std::string& name);

}  // namespace viktory::server::testing
