// Accepts TCP connections, applies the per-address connection limit and hands each connection
// to an HTTP session (which may upgrade it to WebSocket).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "server_context.h"

namespace viktory::server {

class Listener {
 public:
  // Throws boost::system::system_error when the address cannot be bound.
  Listener(boost::asio::io_context& ioc, const boost::asio::ip::tcp::endpoint& endpoint,
           ServerContext& context);
  void start();
  void stop();  // stops accepting; open sessions are closed through the registry
  unsigned short port() const { return port_; }

 private:
  void accept();

  boost::asio::io_context& ioc_;
  boost::asio::ip::tcp::acceptor acceptor_;
  ServerContext& context_;
  unsigned short port_ = 0;
};

}  // namespace viktory::server
