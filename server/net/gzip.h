// gzip (RFC 1952) through zlib, and what a request's Accept-Encoding says of it. The server
// compresses its static files once, when it loads them (static_files.h), and the JSON answers
// that carry no secret (http_session.cpp; docs/server.md, "Compression").
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace viktory::server {

// `data` compressed as one gzip member; `level` 1 (fast) to 9 (small).
std::string gzip_compress(std::string_view data, int level);
// The inverse, for tests and checks; nothing when `data` is not one whole gzip member or would
// inflate past `max_size`.
std::optional<std::string> gzip_decompress(std::string_view data, std::size_t max_size);

// Whether an Accept-Encoding header value accepts gzip: "gzip" (or "x-gzip", or "*") with a
// quality above zero.
bool accepts_gzip(std::string_view accept_encoding);

}  // namespace viktory::server
