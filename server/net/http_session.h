// The HTTP side of a connection: static files of the web client, /healthz, /metrics, the JSON
// API (handled by the Hub) and the upgrade to WebSocket on /ws.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "connections.h"
#include "server_context.h"

namespace viktory::server {

void start_http_session(boost::asio::ip::tcp::socket socket, ServerContext& context,
                        std::shared_ptr<ConnectionLimiter::Guard> guard);

// The file under `root` that a request path names, or nothing when the path is unsafe
// (traversal, hidden segments, bad escapes) or names no regular file. "/" -> index.html.
std::optional<std::filesystem::path> resolve_static_path(const std::filesystem::path& root,
                                                         std::string_view target);
std::string_view content_type_for(const std::filesystem::path& file);
// Whether a file is of a type the web client is made of (content_type_for knows it). Anything
// else under the web root (a database put there, its -wal and -shm, a backup) is neither read
// nor served: opening and closing a SQLite file in this process would drop the POSIX locks
// SQLite holds on it, and another process could then delete its write-ahead log.
bool is_web_file(const std::filesystem::path& file);
// Whether a resolved static file lies under the developer pages (<root>/dev/), which only a
// server started with --dev serves.
bool is_dev_page(const std::filesystem::path& root, const std::filesystem::path& file);

}  // namespace viktory::server
