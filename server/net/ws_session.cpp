#include "ws_session.h"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>
#include <optional>

namespace viktory::server {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;

// Once the server starts a close (an oversized message, too many failed sign-ins, shutdown), the
// connection ends within this time whatever the client does: its queued messages, our close
// frame, its answer and the end of its TCP connection all have to fit in; then it is cut. An
// honest client needs a round trip; a hostile one (that neither reads nor answers) must not keep
// a slot of its address, its subscriptions and a session for the 30 s of Beast's close handshake
// timeout (nor be cut then by the frame watchdog as if a message were late).
constexpr auto kCloseGrace = std::chrono::seconds(2);

class WsSession : public Client, public Closable, public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(ClientStream stream, ServerContext& context,
            std::shared_ptr<ConnectionLimiter::Guard> guard)
      : ws_(std::move(stream)),
        context_(context),
        guard_(std::move(guard)),
        frame_timer_(ws_.get_executor()),
        close_timer_(ws_.get_executor()) {
    ++context_.metrics.connections_total;
    ++context_.metrics.connections_open;
  }

  ~WsSession() override {
    if (opened_) context_.hub.on_close(this);
    if (queued_bytes_ > 0) guard_->release_bytes(queued_bytes_);
    context_.registry.remove(this);
    --context_.metrics.connections_open;
  }

  void run(http::request<http::string_body> request) {
    context_.registry.add(shared_from_this());
    beast::get_lowest_layer(ws_).expires_never();  // the websocket timeouts take over
    websocket::stream_base::timeout timeouts{};
    timeouts.handshake_timeout = std::chrono::seconds(30);
    timeouts.idle_timeout = std::chrono::seconds(context_.config.idle_timeout_seconds);
    timeouts.keep_alive_pings = true;  // ping at half the idle time; no pong -> closed
    ws_.set_option(timeouts);
    ws_.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) { res.set(http::field::server, "viktory-server"); }));
    // Messages up to the limit are handled; up to 4x we still answer "too_large" before
    // closing; beyond that Beast fails the connection by itself.
    ws_.read_message_max(context_.config.max_message_bytes * 4);
    // A control frame between messages ends whatever was counted as "arriving" (a pong
    // answering our keep-alive ping is not the start of a message). Inside a fragmented
    // message it does not: pings cannot keep a trickled message alive.
    ws_.control_callback([this](websocket::frame_type, beast::string_view) {
      if (ws_.is_message_done()) mark_boundary();
    });
    ws_.async_accept(request, beast::bind_front_handler(&WsSession::on_accept, shared_from_this()));
  }

  // Any thread. Queues the message on this connection's strand.
  void deliver(Message message) override {
    auto self = weak_from_this().lock();
    if (!self) return;  // being destroyed
    // Move `self` into the handler: if the handler ran and finished before we return, a copy
    // left here would be the last reference, and the destructor (which takes the Hub's lock)
    // would run inside the Hub's lock.
    net::post(ws_.get_executor(), [self = std::move(self), message = std::move(message)]() mutable {
      self->enqueue(std::move(message));
    });
  }

  void close(std::string_view reason) override {
    auto self = weak_from_this().lock();
    if (!self) return;
    net::post(ws_.get_executor(), [self = std::move(self), reason = std::string(reason)] {
      self->begin_close(websocket::close_code::policy_error, reason);
    });
  }

  // On the strand, inside on_read's call of Hub::on_message (an action waiting for its commit).
  Resume hold_reading() override {
    held_ = true;
    return [self = shared_from_this()](std::function<void()> then) mutable {
      auto session = std::move(self);  // the handler holds the last reference, if any
      const auto executor = session->ws_.get_executor();
      net::post(executor, [session = std::move(session), then = std::move(then)]() mutable {
        if (then) then();
        session->held_ = false;
        session->read();
      });
    };
  }

  void shutdown() override {
    auto self = weak_from_this().lock();
    if (!self) return;
    net::post(ws_.get_executor(), [self = std::move(self)] {
      self->begin_close(websocket::close_code::going_away, "server shutting down");
    });
  }

 private:
  void on_accept(beast::error_code ec) {
    if (ec) return;
    opened_ = true;
    // From now on Beast's "handshake" timeout bounds its closing handshakes: the one we start
    // (async_close) and the one it starts itself when a client breaks the protocol (a message
    // over read_message_max, bad UTF-8), which waits for the client's close frame and the end
    // of its TCP connection.
    websocket::stream_base::timeout timeouts{};
    timeouts.handshake_timeout = kCloseGrace;
    timeouts.idle_timeout = std::chrono::seconds(context_.config.idle_timeout_seconds);
    timeouts.keep_alive_pings = true;
    ws_.set_option(timeouts);
    context_.hub.on_open(this, guard_->address());
    mark_boundary();
    watch_frames();
    read();
  }

  // Bytes read up to the end of the last complete message (or control frame between
  // messages): anything read beyond belongs to a message that is still arriving.
  void mark_boundary() {
    boundary_bytes_ = beast::get_lowest_layer(ws_).rate_policy().bytes_read();
    arriving_since_.reset();
  }

  // Every quarter of the frame timeout: a message that has been arriving for (about) the
  // whole timeout closes the connection. Beast's idle timeout cannot see this case, since
  // every byte that trickles in counts as activity.
  void watch_frames() {
    const auto timeout = std::chrono::seconds(context_.config.frame_timeout_seconds);
    const auto tick =
        std::max<std::chrono::steady_clock::duration>(std::chrono::milliseconds(250), timeout / 4);
    frame_timer_.expires_after(tick);
    frame_timer_.async_wait([self = shared_from_this(), timeout, tick](beast::error_code ec) {
      // A close under way has a deadline of its own (kCloseGrace): what the close reads is
      // not a late message.
      if (ec || self->closing_ || self->close_wanted_) return;
      const auto now = std::chrono::steady_clock::now();
      if (beast::get_lowest_layer(self->ws_).rate_policy().bytes_read() > self->boundary_bytes_) {
        if (!self->arriving_since_) {
          self->arriving_since_ = now;
        } else if (now - *self->arriving_since_ >= timeout - tick) {
          ++self->context_.metrics.frame_timeouts;
          spdlog::info("closing a connection whose message took more than {} s to arrive",
                       self->context_.config.frame_timeout_seconds);
          self->drop();
          return;
        }
      } else {
        self->arriving_since_.reset();
      }
      self->watch_frames();
    });
  }

  // Closes the connection at once, without a close frame. The operations still pending end
  // with an error, and with the timers cancelled the last handler releases the session (and its
  // slot of the address, its subscriptions, its presence) right away.
  void drop() {
    closing_ = true;
    stop_timers();
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().shutdown(net::ip::tcp::socket::shutdown_both, ignored);
    beast::get_lowest_layer(ws_).socket().close(ignored);
  }

  void stop_timers() {
    frame_timer_.cancel();
    close_timer_.cancel();
  }

  void read() {
    // Once a close is under way Beast's close reads (and discards) what the client still sends.
    if (closing_ || close_wanted_) return;
    ws_.async_read(buffer_, beast::bind_front_handler(&WsSession::on_read, shared_from_this()));
  }

  void on_read(beast::error_code ec, std::size_t bytes) {
    if (ec) {
      if (ec != websocket::error::closed) spdlog::debug("websocket read ended: {}", ec.message());
      stop_timers();
      return;
    }
    mark_boundary();
    if (closing_) return;
    if (bytes > context_.config.max_message_bytes) {
      context_.metrics.count_error("too_large");
      enqueue(make_message(nlohmann::json{
          {"type", "error"},
          {"code", "too_large"},
          {"message", "a message may have at most " +
                          std::to_string(context_.config.max_message_bytes) + " bytes"}}));
      begin_close(websocket::close_code::too_big, "message too large");
      return;
    }
    if (!ws_.got_text()) {
      context_.metrics.count_error("bad_message");
      enqueue(make_message(nlohmann::json{
          {"type", "error"}, {"code", "bad_message"}, {"message", "send text frames"}}));
    } else {
      const auto data = buffer_.cdata();
      context_.hub.on_message(this,
                              std::string_view(static_cast<const char*>(data.data()), data.size()));
    }
    buffer_.consume(buffer_.size());
    if (held_) return;  // an action waits for its commit: its resume reads on
    read();
  }

  void enqueue(Message message) {
    // After the close is decided nothing more is queued: a busy game must not keep the close
    // frame waiting behind an endless stream of updates.
    if (closing_ || close_wanted_ || close_sent_) return;
    if (queue_.size() >= context_.config.max_send_queue_messages ||
        queued_bytes_ + message->size() > context_.config.max_send_queue_bytes ||
        !guard_->reserve_bytes(message->size())) {
      // A client that does not read would make us hold its messages forever: drop it. The
      // same when all connections of its address together hold too much.
      ++context_.metrics.slow_clients_dropped;
      spdlog::info("closing a slow client ({} messages queued)", queue_.size());
      drop();
      return;
    }
    queued_bytes_ += message->size();
    queue_.push_back(std::move(message));
    if (!writing_) write();
  }

  void write() {
    writing_ = true;
    ws_.text(true);
    ws_.async_write(net::buffer(*queue_.front()),
                    beast::bind_front_handler(&WsSession::on_write, shared_from_this()));
  }

  void on_write(beast::error_code ec, std::size_t) {
    writing_ = false;
    queued_bytes_ -= queue_.front()->size();
    guard_->release_bytes(queue_.front()->size());
    queue_.pop_front();
    ++context_.metrics.messages_out;
    if (ec) {
      drop();
      return;
    }
    if (!queue_.empty()) {
      write();
    } else if (close_wanted_) {
      send_close();
    }
  }

  void begin_close(websocket::close_code code, std::string reason) {
    if (closing_ || close_wanted_ || !opened_) {
      if (!opened_) {
        beast::error_code ignored;
        beast::get_lowest_layer(ws_).socket().close(ignored);
      }
      return;
    }
    close_wanted_ = true;
    close_reason_ = websocket::close_reason(code, reason);
    frame_timer_.cancel();
    // The whole close, queued messages included, gets kCloseGrace: a client whose send queue is
    // full (it does not read) would otherwise hold the close frame back for ever.
    close_timer_.expires_after(kCloseGrace);
    close_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec || self->closing_) return;
      spdlog::debug("cutting a connection whose close took more than {} s", kCloseGrace.count());
      self->drop();
    });
    if (!writing_) send_close();  // otherwise after the queued messages
  }

  void send_close() {
    if (close_sent_) return;
    close_sent_ = true;
    ws_.async_close(close_reason_,
                    [self = shared_from_this()](beast::error_code) { self->stop_timers(); });
  }

  websocket::stream<ClientStream> ws_;
  ServerContext& context_;
  std::shared_ptr<ConnectionLimiter::Guard> guard_;
  net::steady_timer frame_timer_;
  net::steady_timer close_timer_;  // the deadline of a close the server started (kCloseGrace)
  std::uint64_t boundary_bytes_ = 0;
  std::optional<std::chrono::steady_clock::time_point> arriving_since_;
  beast::flat_buffer buffer_;
  std::deque<Message> queue_;
  std::size_t queued_bytes_ = 0;
  bool opened_ = false;
  bool held_ = false;  // reading waits for hold_reading()'s resume
  bool writing_ = false;
  bool closing_ = false;       // the connection is being dropped: queue nothing more
  bool close_wanted_ = false;  // a close frame follows the queued messages
  bool close_sent_ = false;
  websocket::close_reason close_reason_;
};

}  // namespace

void start_ws_session(ClientStream stream, http::request<http::string_body> request,
                      ServerContext& context, std::shared_ptr<ConnectionLimiter::Guard> guard) {
  auto session = std::make_shared<WsSession>(std::move(stream), context, std::move(guard));
  session->run(std::move(request));
}

}  // namespace viktory::server
