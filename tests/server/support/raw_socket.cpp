#include "support/raw_socket.h"

#include <poll.h>
#include <sys/socket.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <stdexcept>

#include "support/ws_client.h"

namespace viktory::server::testing {

namespace net = boost::asio;

RawSocket::RawSocket(int port, const std::vector<std::pair<std::string, std::string>>& headers)
    : socket_(ioc_) {
  net::ip::tcp::resolver resolver(ioc_);
  net::connect(socket_, resolver.resolve("127.0.0.1", std::to_string(port)));
  std::string request =
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n";
  for (const auto& [name, value] : headers) request += name + ": " + value + "\r\n";
  request += "\r\n";
  net::write(socket_, net::buffer(request));
  net::streambuf response;
  net::read_until(socket_, response, "\r\n\r\n");
  const std::string head(net::buffers_begin(response.data()),
                         net::buffers_begin(response.data()) + 12);
  if (head.find("101") == std::string::npos) throw std::runtime_error("no upgrade: " + head);
}

bool RawSocket::send(const std::string& bytes) {
  boost::system::error_code ec;
  net::write(socket_, net::buffer(bytes), ec);
  return !ec;
}

bool RawSocket::send_text(const std::string& payload) {
  return send(text_frame_header(payload.size()) + payload);
}

bool RawSocket::closed_within(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{socket_.native_handle(), POLLIN, 0};
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (::poll(&p, 1, static_cast<int>(std::max<long>(1, left.count()))) <= 0) continue;
    char buf[4096];
    const ssize_t n = ::recv(socket_.native_handle(), buf, sizeof buf, 0);
    if (n <= 0) return true;
  }
  return false;
}

std::string text_frame_header(std::size_t length) {
  std::string header{static_cast<char>(0x81)};
  if (length < 126) {
    header += static_cast<char>(0x80 | length);
  } else if (length <= 0xffff) {
    header += static_cast<char>(0x80 | 126);
    header += static_cast<char>(length >> 8);
    header += static_cast<char>(length & 0xff);
  } else {
    header += static_cast<char>(0x80 | 127);
    for (int shift = 56; shift >= 0; shift -= 8) {
      header += static_cast<char>((length >> shift) & 0xff);
    }
  }
  return header + std::string(4, '\0');  // the mask
}

double metric(int port, const std::string& name) {
  const std::string text = "\n" + http_request(port, "GET", "/metrics").body;
  const std::string key = "\n" + name + " ";
  const auto at = text.find(key);
  if (at == std::string::npos) return -1;
  return std::stod(text.substr(at + key.size()));
}

}  // namespace viktory::server::testing
