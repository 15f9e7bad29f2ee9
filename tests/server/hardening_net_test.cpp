// Hardening of the network side, against the real binary: trusted reverse proxies, messages
// trickled byte by byte, and the developer pages.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <fstream>
#include <thread>

#include "support/play.h"
#include "support/server_process.h"
#include "test_support.h"

namespace viktory::server::testing {
namespace {

using nlohmann::json;
namespace net = boost::asio;
using Headers = std::vector<std::pair<std::string, std::string>>;

int sign_up_status(int port, const std::string& forwarded_for) {
  return http_request(port, "POST", "/api/session", R"({"name":"Bot"})", "",
                      {{"X-Forwarded-For", forwarded_for}})
      .status;
}

TEST(TrustedProxy, PerAddressSignUpLimitsFollowTheForwardedAddress) {
  TempDir dir;
  ServerProcess server(dir.file("proxy.db"), dir.path().string(),
                       {"--trusted-proxy", "127.0.0.1", "--signups-per-minute", "1"});
  // Burst 2 per client address, as the proxy names it.
  EXPECT_EQ(sign_up_status(server.port(), "198.51.100.1"), 200);
  EXPECT_EQ(sign_up_status(server.port(), "198.51.100.1"), 200);
  EXPECT_EQ(sign_up_status(server.port(), "198.51.100.1"), 429);
  // One client does not block everyone behind the same proxy.
  EXPECT_EQ(sign_up_status(server.port(), "198.51.100.2"), 200);
  // What the client wrote on the left is not believed; the address the proxy added is.
  EXPECT_EQ(sign_up_status(server.port(), "198.51.100.2, 198.51.100.1"), 429);
}

TEST(TrustedProxy, WithoutTheSettingForwardingHeadersAreIgnored) {
  TempDir dir;
  ServerProcess server(dir.file("direct.db"), dir.path().string(), {"--signups-per-minute", "1"});
  EXPECT_EQ(sign_up_status(server.port(), "198.51.100.1"), 200);
  EXPECT_EQ(sign_up_status(server.port(), "198.51.100.2"), 200);
  EXPECT_EQ(sign_up_status(server.port(), "198.51.100.3"), 429);  // all from 127.0.0.1
}

TEST(TrustedProxy, ConnectionLimitsApplyToEachClientBehindTheProxy) {
  TempDir dir;
  ServerProcess server(dir.file("conn.db"), dir.path().string(),
                       {"--trusted-proxy", "127.0.0.1", "--max-connections-per-address", "2"});
  const Headers first = {{"X-Forwarded-For", "203.0.113.5"}};
  WsClient a, b, c, d;
  a.connect(server.port(), "/ws", true, first);
  b.connect(server.port(), "/ws", true, first);
  EXPECT_THROW(c.connect(server.port(), "/ws", true, first), std::exception);
  // Another client behind the same proxy is not affected (the proxy itself has 3 connections).
  d.connect(server.port(), "/ws", true, {{"Forwarded", "for=203.0.113.6"}});
  d.send(json{{"type", "ping"}});
  EXPECT_EQ(d.wait_type("pong")["type"], "pong");
}

// A raw WebSocket connection: the handshake by hand, then frames byte by byte.
class RawSocket {
 public:
  explicit RawSocket(int port) : socket_(ioc_) {
    net::ip::tcp::resolver resolver(ioc_);
    net::connect(socket_, resolver.resolve("127.0.0.1", std::to_string(port)));
    const std::string request =
        "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    net::write(socket_, net::buffer(request));
    net::streambuf response;
    net::read_until(socket_, response, "\r\n\r\n");
    const std::string head(net::buffers_begin(response.data()),
                           net::buffers_begin(response.data()) + 12);
    if (head.find("101") == std::string::npos) throw std::runtime_error("no upgrade: " + head);
  }
  bool send(const std::string& bytes) {
    boost::system::error_code ec;
    net::write(socket_, net::buffer(bytes), ec);
    return !ec;
  }
  // Whether the server closed the connection within `timeout` (data it sends is skipped).
  bool closed_within(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      pollfd p{socket_.native_handle(), POLLIN, 0};
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (::poll(&p, 1, static_cast<int>(std::max<long>(1, left.count()))) <= 0) continue;
      char buf[256];
      const ssize_t n = ::recv(socket_.native_handle(), buf, sizeof buf, 0);
      if (n <= 0) return true;
    }
    return false;
  }

 private:
  net::io_context ioc_;
  net::ip::tcp::socket socket_;
};

// A masked text frame header for `length` bytes (< 126), with a zero mask: the payload goes
// as it is.
std::string text_frame_header(int length) {
  return std::string{static_cast<char>(0x81), static_cast<char>(0x80 | length), 0, 0, 0, 0};
}

TEST(FrameTimeout, AMessageTrickledByteByByteIsCutOff) {
  TempDir dir;
  ServerProcess server(dir.file("trickle.db"), dir.path().string(), {"--frame-timeout", "2"});
  RawSocket raw(server.port());
  const std::string payload = R"({"type":"ping","pad":"................................"})";
  ASSERT_LT(payload.size(), 126u);
  ASSERT_TRUE(raw.send(text_frame_header(static_cast<int>(payload.size()))));
  const auto start = std::chrono::steady_clock::now();
  bool closed = false;
  // One byte every 250 ms would take 15 s; each byte is "activity" for the idle timeout.
  for (std::size_t i = 0; i < payload.size() && !closed; ++i) {
    if (!raw.send(payload.substr(i, 1))) {
      closed = true;
      break;
    }
    closed = raw.closed_within(std::chrono::milliseconds(250));
    if (std::chrono::steady_clock::now() - start > std::chrono::seconds(8)) break;
  }
  EXPECT_TRUE(closed) << "a trickled message kept the connection open";
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_GE(took, std::chrono::milliseconds(1400));  // not before about the timeout
  // The server writes the line as it closes the connection; its output reaches us through a
  // pipe and a reader thread, so it may come a moment after the close.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (server.log().find("took more than 2 s to arrive") == std::string::npos &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_NE(server.log().find("took more than 2 s to arrive"), std::string::npos);
}

TEST(FrameTimeout, QuietConnectionsThatAnswerPingsStayOpen) {
  TempDir dir;
  ServerProcess server(dir.file("quiet.db"), dir.path().string(),
                       {"--frame-timeout", "2", "--idle-timeout", "2"});
  WsClient ws;  // answers the server's keep-alive pings (every second) with pongs
  ws.connect(server.port());
  EXPECT_FALSE(ws.wait_closed(std::chrono::seconds(5)));
  ws.send(json{{"type", "ping"}});
  EXPECT_EQ(ws.wait_type("pong")["type"], "pong");
  // Whole messages, then silence: nothing is left arriving, nothing is cut off.
  ServerProcess plain(dir.file("plain.db"), dir.path().string(), {"--frame-timeout", "2"});
  RawSocket raw(plain.port());
  const std::string payload = R"({"type":"ping"})";
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(raw.send(text_frame_header(static_cast<int>(payload.size())) + payload));
  }
  EXPECT_FALSE(raw.closed_within(std::chrono::milliseconds(3500)));
}

TEST(DevPages, AreServedOnlyWithTheDevFlag) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "web" / "dev");
  std::ofstream(dir.path() / "web" / "index.html") << "<!doctype html><title>x</title>";
  std::ofstream(dir.path() / "web" / "dev" / "fixture.html") << "<!doctype html><title>dev</title>";
  const std::string root = (dir.path() / "web").string();
  {
    ServerProcess server(dir.file("prod.db"), root);
    EXPECT_EQ(http_request(server.port(), "GET", "/").status, 200);
    EXPECT_EQ(http_request(server.port(), "GET", "/dev/fixture.html").status, 404);
    EXPECT_EQ(http_request(server.port(), "GET", "/%64ev/fixture.html").status, 404);
    EXPECT_EQ(http_request(server.port(), "GET", "/dev/").status, 404);
  }
  ServerProcess dev(dir.file("dev.db"), root, {"--dev"});
  EXPECT_EQ(http_request(dev.port(), "GET", "/dev/fixture.html").status, 200);
}

}  // namespace
}  // namespace viktory::server::testing
