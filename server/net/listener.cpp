#include "listener.h"

#include <spdlog/spdlog.h>

#include <boost/asio/strand.hpp>

#include "http_session.h"

namespace viktory::server {

namespace net = boost::asio;

Listener::Listener(net::io_context& ioc, const net::ip::tcp::endpoint& endpoint,
                   ServerContext& context)
    // The acceptor on a strand of its own: stop()'s close and the accept handler that arms the
    // next accept never run at the same time on two io threads (ThreadSanitizer saw that race).
    : ioc_(ioc), acceptor_(net::make_strand(ioc)), context_(context) {
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(net::socket_base::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen(net::socket_base::max_listen_connections);
  port_ = acceptor_.local_endpoint().port();
}

void Listener::start() { accept(); }

void Listener::stop() {
  net::post(acceptor_.get_executor(), [this] {
    boost::system::error_code ignored;
    acceptor_.close(ignored);
  });
}

void Listener::accept() {
  // Each connection gets its own strand: its handlers never run concurrently.
  acceptor_.async_accept(
      net::make_strand(ioc_), [this](boost::system::error_code ec, net::ip::tcp::socket socket) {
        if (ec == net::error::operation_aborted || !acceptor_.is_open()) return;
        if (!ec) {
          boost::system::error_code addr_ec;
          const auto remote = socket.remote_endpoint(addr_ec);
          const std::string address = addr_ec ? "unknown" : remote.address().to_string();
          // Small request/response messages: without TCP_NODELAY, Nagle's algorithm and delayed
          // ACKs add ~40 ms to every action round trip.
          boost::system::error_code nodelay_ec;
          socket.set_option(net::ip::tcp::no_delay(true), nodelay_ec);
          // A trusted proxy carries many clients; they are limited one by one once its
          // headers name them (http_session).
          const std::string peer = canonical_address(address).value_or(address);
          if (auto guard =
                  context_.limiter.try_acquire(peer, context_.trusted_proxies.contains(peer))) {
            start_http_session(std::move(socket), context_, std::move(guard));
          } else {
            ++context_.metrics.connections_rejected;
            spdlog::warn("connection limit reached for an address; connection refused");
            boost::system::error_code ignored;
            socket.close(ignored);
          }
        } else {
          spdlog::warn("accept failed: {}", ec.message());
        }
        accept();
      });
}

}  // namespace viktory::server
