// The WebSocket side of a connection: after the HTTP upgrade on /ws, one session per client
// with its own strand, one reader, one writer and a bounded send queue.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <memory>

#include "client_stream.h"
#include "connections.h"
#include "server_context.h"

namespace viktory::server {

// Takes over the stream of an HTTP session whose request is a WebSocket upgrade.
void start_ws_session(ClientStream stream,
                      boost::beast::http::request<boost::beast::http::string_body> request,
                      ServerContext& context, std::shared_ptr<ConnectionLimiter::Guard> guard);

}  // namespace viktory::server
