#include "gzip.h"

#include <zlib.h>

#include <cctype>
#include <stdexcept>

namespace viktory::server {

namespace {

constexpr int kGzipWindowBits = 15 + 16;  // the largest window, with a gzip header and trailer

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// Whether the q value of one Accept-Encoding element's parameters ("q=0.5") is above zero (no
// q value: 1).
bool quality_above_zero(std::string_view parameters) {
  while (!parameters.empty()) {
    const auto semicolon = parameters.find(';');
    std::string_view parameter = trim(parameters.substr(0, semicolon));
    parameters = semicolon == std::string_view::npos ? "" : parameters.substr(semicolon + 1);
    if (parameter.size() < 2 || (parameter[0] != 'q' && parameter[0] != 'Q') || parameter[1] != '=')
      continue;
    parameter.remove_prefix(2);
    // "0", "0.", "0.000" are zero; anything else that starts with a digit is taken as > 0
    // unless all its digits are zeros.
    bool any_nonzero = false;
    for (char c : parameter) {
      if (c >= '1' && c <= '9') any_nonzero = true;
      if (c != '.' && (c < '0' || c > '9')) return false;
    }
    return any_nonzero;
  }
  return true;
}

}  // namespace

std::string gzip_compress(std::string_view data, int level) {
  z_stream stream{};
  if (deflateInit2(&stream, level, Z_DEFLATED, kGzipWindowBits, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("gzip: deflateInit2 failed");
  }
  std::string out(deflateBound(&stream, static_cast<uLong>(data.size())), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  // deflateBound leaves room for everything: one call finishes the stream.
  const int result = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  if (result != Z_STREAM_END) throw std::runtime_error("gzip: deflate did not finish");
  return out;
}

std::optional<std::string> gzip_decompress(std::string_view data, std::size_t max_size) {
  z_stream stream{};
  if (inflateInit2(&stream, kGzipWindowBits) != Z_OK) return std::nullopt;
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  std::string out;
  char chunk[16 * 1024];
  int result = Z_OK;
  while (result == Z_OK) {
    stream.next_out = reinterpret_cast<Bytef*>(chunk);
    stream.avail_out = sizeof chunk;
    result = inflate(&stream, Z_NO_FLUSH);
    out.append(chunk, sizeof chunk - stream.avail_out);
    if (out.size() > max_size) result = Z_BUF_ERROR;
  }
  const bool whole = result == Z_STREAM_END && stream.avail_in == 0;
  inflateEnd(&stream);
  if (!whole) return std::nullopt;
  return out;
}

bool accepts_gzip(std::string_view accept_encoding) {
  // An element naming gzip decides; "*" only when gzip is not named.
  std::optional<bool> named, any;
  while (!accept_encoding.empty()) {
    const auto comma = accept_encoding.find(',');
    const std::string_view element = trim(accept_encoding.substr(0, comma));
    accept_encoding = comma == std::string_view::npos ? "" : accept_encoding.substr(comma + 1);
    const auto semicolon = element.find(';');
    const std::string_view coding = trim(element.substr(0, semicolon));
    const bool wanted = quality_above_zero(
        semicolon == std::string_view::npos ? "" : element.substr(semicolon + 1));
    if (iequals(coding, "gzip") || iequals(coding, "x-gzip")) {
      named = named.value_or(false) || wanted;
    } else if (coding == "*") {
      any = wanted;
    }
  }
  return named ? *named : any.value_or(false);
}

}  // namespace viktory::server
