#include "support/ws_client.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>

#include "fair.h"

namespace viktory::server::testing {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;

struct WsClient::Impl {
  net::io_context ioc;
  std::optional<net::executor_work_guard<net::io_context::executor_type>> work;
  websocket::stream<beast::tcp_stream> ws{ioc};
  beast::flat_buffer buffer;
  std::thread thread;
  mutable std::mutex mutex;
  std::condition_variable cv;
  std::deque<std::string> inbox;
  std::vector<std::string> all;
  bool closed = false;
  bool reading = false;  // only a reading client learns that the connection closed
  std::deque<std::pair<std::string, bool>> outbox;
  bool writing = false;
  // Fair play's reveal round, answered as the browser client answers it (set_fair_play).
  bool fair_play = true;
  std::map<std::string, std::string> contributions;  // by commitment, hex

  // The automatic replies carry request ids of their own, far above any a test uses.
  static constexpr std::int64_t kOwnReplies = 1'000'000'000;
  std::int64_t own_replies = 0;

  static bool answers_own_reply(const std::string& text) {
    if (text.find("\"req\"") == std::string::npos) return false;
    const auto m = nlohmann::json::parse(text, nullptr, false);
    if (!m.is_object() || !m.contains("req") || !m["req"].is_number_integer()) return false;
    const std::string type = m.value("type", "");
    return (type == "ack" || type == "error") && m["req"].get<std::int64_t>() > kOwnReplies;
  }

  // On the io thread: a game.commit_request gets a fresh commitment, a game.reveal_request the
  // contribution of the commitment it names.
  void answer_round(const std::string& text) {
    if (!fair_play || text.find("_request\"") == std::string::npos) return;
    const auto m = nlohmann::json::parse(text, nullptr, false);
    if (!m.is_object() || !m.contains("game_id")) return;
    const std::string type = m.value("type", "");
    nlohmann::json answer;
    if (type == "game.commit_request") {
      static thread_local std::mt19937_64 random(std::random_device{}());
      protocol::fair::Contribution contribution{};
      for (auto& byte : contribution) byte = static_cast<std::uint8_t>(random());
      const std::string commitment =
          protocol::fair::to_hex(protocol::fair::contribution_commitment(contribution));
      contributions[commitment] = protocol::fair::to_hex(contribution);
      answer = {{"type", "game.commit"},
                {"game_id", m["game_id"]},
                {"contribution_commitment", commitment}};
    } else if (type == "game.reveal_request") {
      const auto it = contributions.find(m.value("contribution_commitment", ""));
      if (it == contributions.end()) return;  // not this client's: it cannot answer
      answer = {
          {"type", "game.contribute"}, {"game_id", m["game_id"]}, {"contribution", it->second}};
    } else {
      return;
    }
    answer["req"] = kOwnReplies + ++own_replies;
    outbox.emplace_back(answer.dump(), false);
    write();
  }

  void read() {
    ws.async_read(buffer, [this](beast::error_code ec, std::size_t) {
      std::lock_guard lock(mutex);
      if (ec) {
        closed = true;
        cv.notify_all();
        return;
      }
      std::string text = beast::buffers_to_string(buffer.data());
      buffer.consume(buffer.size());
      all.push_back(text);
      answer_round(text);
      // The answers to this client's own automatic replies (an ack, or a refusal when another
      // connection of the same player answered first: the round asks every one of them, and
      // each answers as a browser tab does) are no news for the test, as the browser ignores
      // them too.
      if (!answers_own_reply(text)) inbox.push_back(std::move(text));
      cv.notify_all();
      read();
    });
  }

  void write() {
    if (writing || outbox.empty()) return;
    writing = true;
    ws.binary(outbox.front().second);
    ws.async_write(net::buffer(outbox.front().first), [this](beast::error_code ec, std::size_t) {
      writing = false;
      outbox.pop_front();
      if (!ec) write();
    });
  }

  void stop() {
    if (!thread.joinable()) return;
    work.reset();
    ioc.stop();
    thread.join();
  }
};

WsClient::WsClient() : impl_(std::make_unique<Impl>()) {}

WsClient::~WsClient() {
  if (impl_->thread.joinable()) drop();
}

void WsClient::connect(int port, const std::string& path, bool start_reading,
                       const std::vector<std::pair<std::string, std::string>>& headers) {
  net::ip::tcp::resolver resolver(impl_->ioc);
  auto endpoints = resolver.resolve("127.0.0.1", std::to_string(port));
  beast::get_lowest_layer(impl_->ws).connect(endpoints);
  beast::get_lowest_layer(impl_->ws).socket().set_option(net::ip::tcp::no_delay(true));
  impl_->ws.read_message_max(16 * 1024 * 1024);
  if (!headers.empty()) {
    impl_->ws.set_option(websocket::stream_base::decorator([headers](websocket::request_type& req) {
      for (const auto& [name, value] : headers) req.insert(name, value);
    }));
  }
  impl_->ws.handshake("127.0.0.1:" + std::to_string(port), path);
  impl_->work.emplace(impl_->ioc.get_executor());
  impl_->reading = start_reading;
  if (start_reading) impl_->read();
  impl_->thread = std::thread([this] { impl_->ioc.run(); });
}

void WsClient::send(const nlohmann::json& message) { send_raw(message.dump()); }

void WsClient::set_fair_play(bool answer) {
  std::lock_guard lock(impl_->mutex);
  impl_->fair_play = answer;
}

std::string WsClient::contribution_for(const std::string& commitment) const {
  std::lock_guard lock(impl_->mutex);
  const auto it = impl_->contributions.find(commitment);
  return it == impl_->contributions.end() ? "" : it->second;
}

void WsClient::send_raw(const std::string& text, bool binary) {
  net::post(impl_->ioc, [this, text, binary] {
    impl_->outbox.emplace_back(text, binary);
    impl_->write();
  });
}

std::optional<std::string> WsClient::receive_raw(std::chrono::milliseconds timeout) {
  std::unique_lock lock(impl_->mutex);
  impl_->cv.wait_for(lock, timeout, [this] { return !impl_->inbox.empty() || impl_->closed; });
  if (impl_->inbox.empty()) return std::nullopt;
  std::string text = std::move(impl_->inbox.front());
  impl_->inbox.pop_front();
  return text;
}

std::optional<nlohmann::json> WsClient::receive(std::chrono::milliseconds timeout) {
  auto raw = receive_raw(timeout);
  if (!raw) return std::nullopt;
  return nlohmann::json::parse(*raw);
}

nlohmann::json WsClient::wait_for(const std::function<bool(const nlohmann::json&)>& want,
                                  std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    auto m = receive(left);
    if (!m) break;
    if (want(*m)) return *m;
  }
  throw std::runtime_error("timed out waiting for a message");
}

nlohmann::json WsClient::wait_type(const std::string& type, std::chrono::milliseconds timeout) {
  return wait_for([&](const nlohmann::json& m) { return m.value("type", "") == type; }, timeout);
}

bool WsClient::wait_closed(std::chrono::milliseconds timeout) {
  std::unique_lock lock(impl_->mutex);
  return impl_->cv.wait_for(lock, timeout, [this] { return impl_->closed; });
}

void WsClient::close() {
  if (!impl_->thread.joinable()) return;
  net::post(impl_->ioc, [this] {
    impl_->ws.async_close(websocket::close_code::normal, [](beast::error_code) {});
  });
  wait_closed(3s);
  impl_->stop();
}

void WsClient::drop() {
  if (!impl_->thread.joinable()) return;
  net::post(impl_->ioc, [this] {
    beast::error_code ignored;
    beast::get_lowest_layer(impl_->ws).socket().close(ignored);
  });
  if (impl_->reading) wait_closed(3s);
  impl_->stop();
}

std::vector<std::string> WsClient::history() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->all;
}

HttpReply http_request(int port, const std::string& method, const std::string& target,
                       const std::string& body, const std::string& bearer,
                       const std::vector<std::pair<std::string, std::string>>& headers) {
  net::io_context ioc;
  beast::tcp_stream stream(ioc);
  net::ip::tcp::resolver resolver(ioc);
  stream.connect(resolver.resolve("127.0.0.1", std::to_string(port)));
  http::request<http::string_body> req{http::string_to_verb(method), target, 11};
  req.set(http::field::host, "127.0.0.1");
  if (!bearer.empty()) req.set(http::field::authorization, "Bearer " + bearer);
  for (const auto& [name, value] : headers) req.insert(name, value);
  if (!body.empty()) {
    req.set(http::field::content_type, "application/json");
    req.body() = body;
  }
  req.prepare_payload();
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(stream, buffer, res);
  beast::error_code ignored;
  stream.socket().shutdown(net::ip::tcp::socket::shutdown_both, ignored);
  HttpReply reply;
  reply.status = static_cast<int>(res.result_int());
  reply.body = res.body();
  reply.content_type = std::string(res[http::field::content_type]);
  reply.content_disposition = std::string(res[http::field::content_disposition]);
  return reply;
}

}  // namespace viktory::server::testing
