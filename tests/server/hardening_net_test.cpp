// Hardening of the network side, against the real binary: trusted reverse proxies, messages
// trickled byte by byte, and the developer pages.
#include <gtest/gtest.h>

#include <fstream>
#include <thread>

#include "support/play.h"
#include "support/raw_socket.h"
#include "support/server_process.h"
#include "test_support.h"

namespace viktory::server::testing {
namespace {

using nlohmann::json;
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

TEST(FrameTimeout, AMessageTrickledByteByByteIsCutOff) {
  TempDir dir;
  ServerProcess server(dir.file("trickle.db"), dir.path().string(), {"--frame-timeout", "2"});
  RawSocket raw(server.port());
  const std::string payload = R"({"type":"ping","pad":"................................"})";
  ASSERT_LT(payload.size(), 126u);
  ASSERT_TRUE(raw.send(text_frame_header(payload.size())));
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
    ASSERT_TRUE(raw.send(text_frame_header(payload.size()) + payload));
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

// A database in the web root is not served, nor read: reading it would drop this process's
// SQLite locks on it (http_session.h, is_web_file), and the second server here, on the same
// file, would then delete the write-ahead log that holds the first one's writes.
TEST(StaticFiles, ADatabaseInTheWebRootIsNeitherServedNorReadAndKeepsItsWrites) {
  TempDir dir;
  std::ofstream(dir.path() / "index.html") << "<!doctype html><title>x</title>";
  const std::string db = dir.file("game.db");
  auto first = std::make_unique<ServerProcess>(db, dir.path().string());
  EXPECT_EQ(http_request(first->port(), "GET", "/game.db").status, 404);
  EXPECT_EQ(http_request(first->port(), "GET", "/game.db-wal").status, 404);
  auto second = std::make_unique<ServerProcess>(db, dir.path().string());
  first.reset();  // a clean shutdown while the second server has the file open
  const Account alice = sign_up(second->port(), "Alice");
  second->kill9();
  ServerProcess third(db, dir.path().string());
  WsClient ws;
  ws.connect(third.port());
  sign_in(ws, alice);  // her row survived
}

}  // namespace
}  // namespace viktory::server::testing
