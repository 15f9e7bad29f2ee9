// Scenario "oversized": connections closed for an oversized message, and how long they still
// count against their address.
//
// Attack: from one address, `rate` new connections a second (default 10); each signs in,
// subscribes to the lobby, sends a message over the 64 KiB limit (100 KiB), and then neither
// answers the server's close frame nor closes its side: the server alone decides when the
// connection ends. Measured: for each connection, from its oversized message until the server
// ends the TCP connection (it counts against the address until then); how many the address held
// at once (sampled from /metrics); how many new connections the limit refused. Honest: a
// neighbour behind the same address (a shared NAT) opens a connection every 500 ms and counts
// the refusals.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>

#include "abuse.h"

namespace viktory::abuse {
namespace {

using Clock = std::chrono::steady_clock;
using viktory::server::testing::http_request;

// A masked text frame (zero mask) carrying `payload`.
std::string text_frame(const std::string& payload) {
  std::string frame{static_cast<char>(0x81)};
  const std::size_t n = payload.size();
  if (n < 126) {
    frame += static_cast<char>(0x80 | n);
  } else if (n <= 0xffff) {
    frame += static_cast<char>(0x80 | 126);
    frame += static_cast<char>(n >> 8);
    frame += static_cast<char>(n & 0xff);
  } else {
    frame += static_cast<char>(0x80 | 127);
    for (int shift = 56; shift >= 0; shift -= 8) frame += static_cast<char>((n >> shift) & 0xff);
  }
  return frame + std::string(4, '\0') + payload;
}

bool send_all(int fd, const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

// A WebSocket upgrade by hand from `address` (X-Forwarded-For); -1 when refused.
int open_websocket(int port, const std::string& address) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(static_cast<std::uint16_t>(port));
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0 ||
      !send_all(fd,
                "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                "Sec-WebSocket-Version: 13\r\nX-Forwarded-For: " +
                    address + "\r\n\r\n")) {
    ::close(fd);
    return -1;
  }
  std::string head;
  char buf[512];
  while (head.find("\r\n\r\n") == std::string::npos) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 5000) <= 0) break;
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    head.append(buf, static_cast<std::size_t>(n));
  }
  if (head.rfind("HTTP/1.1 101", 0) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

struct Open {
  int fd;
  Clock::time_point sent;  // its oversized message
};

Report run(Context& c) {
  const std::string attacker_address = address(1);
  const Account attacker = new_player(c.port, "Attacker", attacker_address);
  const long rate = c.param("rate", 10);
  const std::string oversized = text_frame(nlohmann::json{
      {"type", "chat.send"},
      {"game_id", 1},
      {"text", std::string(100 * 1024, 'x')}}.dump());
  std::mutex mutex;
  std::vector<Open> open;
  Samples linger;
  std::atomic<long> opened{0}, refused{0};
  std::atomic<bool> attacking{c.attack};
  std::atomic<bool> done{false};

  // Reads (and ignores) what the server sends; records when it ends each connection.
  std::thread watcher([&] {
    while (!done) {
      std::vector<pollfd> fds;
      {
        std::lock_guard lock(mutex);
        for (const Open& o : open) fds.push_back(pollfd{o.fd, POLLIN, 0});
      }
      if (fds.empty()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        continue;
      }
      if (::poll(fds.data(), fds.size(), 50) <= 0) continue;
      for (const pollfd& p : fds) {
        if (p.revents == 0) continue;
        char buf[4096];
        const ssize_t n = ::recv(p.fd, buf, sizeof buf, MSG_DONTWAIT);
        if (n > 0 || (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))) continue;
        std::lock_guard lock(mutex);
        for (auto it = open.begin(); it != open.end(); ++it) {
          if (it->fd != p.fd) continue;
          linger.add(ms_since(it->sent));
          ::close(it->fd);
          open.erase(it);
          break;
        }
      }
    }
  });

  std::thread attack([&] {
    const auto pause = std::chrono::microseconds(1000000 / std::max(1L, rate));
    while (attacking) {
      const auto next = Clock::now() + pause;
      const int fd = open_websocket(c.port, attacker_address);
      if (fd < 0) {
        ++refused;
      } else {
        ++opened;
        const nlohmann::json auth{{"type", "auth"}, {"token", attacker.token}};
        send_all(fd, text_frame(auth.dump()));
        send_all(fd, text_frame(R"({"type":"lobby.subscribe"})"));
        const auto sent = Clock::now();
        send_all(fd, oversized);
        std::lock_guard lock(mutex);
        open.push_back(Open{fd, sent});
      }
      std::this_thread::sleep_until(next);
    }
  });

  // The neighbour, and the connections held, sampled every 500 ms.
  long neighbour_ok = 0, neighbour_refused = 0;
  double held_max = 0;
  const auto end = Clock::now() + c.duration;
  while (Clock::now() < end) {
    try {
      WsClient ws;
      ws.connect(c.port, "/ws", true, {{"X-Forwarded-For", attacker_address}});
      ws.send(nlohmann::json{{"type", "ping"}});
      ws.wait_type("pong", std::chrono::seconds(5));
      ++neighbour_ok;
      ws.close();
    } catch (const std::exception&) {
      ++neighbour_refused;
    }
    const std::string metrics = "\n" + http_request(c.port, "GET", "/metrics").body;
    const std::string key = "\nviktory_connections_open ";
    if (const auto at = metrics.find(key); at != std::string::npos) {
      held_max = std::max(held_max, std::stod(metrics.substr(at + key.size())));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  attacking = false;
  attack.join();
  // The connections still open get up to 40 s to be ended by the server.
  const auto drain_end = Clock::now() + std::chrono::seconds(40);
  while (Clock::now() < drain_end) {
    {
      std::lock_guard lock(mutex);
      if (open.empty()) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  done = true;
  watcher.join();
  long never_closed = 0;
  for (const Open& o : open) {
    ++never_closed;
    ::close(o.fd);
  }

  Report r;
  r.add("attacker_connections", static_cast<double>(opened.load()));
  r.add("attacker_refused", static_cast<double>(refused.load()));
  r.add("linger_p50_ms", linger.percentile(50));
  r.add("linger_p99_ms", linger.percentile(99));
  r.add("linger_max_ms", linger.max());
  r.add("still_open_after_40s", static_cast<double>(never_closed));
  r.add("connections_held_max", held_max);
  r.add("neighbour_connects", static_cast<double>(neighbour_ok));
  r.add("neighbour_refused", static_cast<double>(neighbour_refused));
  return r;
}

const bool registered = register_scenario(
    {"oversized",
     "connections from one address sending oversized messages and never closing (--param "
     "rate=N a second) vs a neighbour at the same address",
     {},
     run});

}  // namespace
}  // namespace viktory::abuse
