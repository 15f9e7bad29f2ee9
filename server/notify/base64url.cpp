#include "base64url.h"

namespace viktory::notify {
namespace {

constexpr char kUrlAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
constexpr char kStdAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string encode(const std::uint8_t* data, std::size_t size, const char* alphabet, bool pad) {
  std::string out;
  out.reserve((size + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= size; i += 3) {
    const std::uint32_t n = (std::uint32_t{data[i]} << 16) | (std::uint32_t{data[i + 1]} << 8) |
                            std::uint32_t{data[i + 2]};
    out += alphabet[(n >> 18) & 63];
    out += alphabet[(n >> 12) & 63];
    out += alphabet[(n >> 6) & 63];
    out += alphabet[n & 63];
  }
  const std::size_t rest = size - i;
  if (rest == 1) {
    const std::uint32_t n = std::uint32_t{data[i]} << 16;
    out += alphabet[(n >> 18) & 63];
    out += alphabet[(n >> 12) & 63];
    if (pad) out += "==";
  } else if (rest == 2) {
    const std::uint32_t n = (std::uint32_t{data[i]} << 16) | (std::uint32_t{data[i + 1]} << 8);
    out += alphabet[(n >> 18) & 63];
    out += alphabet[(n >> 12) & 63];
    out += alphabet[(n >> 6) & 63];
    if (pad) out += '=';
  }
  return out;
}

int digit_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-' || c == '+') return 62;
  if (c == '_' || c == '/') return 63;
  return -1;
}

}  // namespace

Bytes to_bytes(std::string_view text) { return Bytes(text.begin(), text.end()); }

std::string to_string(const Bytes& bytes) { return std::string(bytes.begin(), bytes.end()); }

std::string base64url_encode(const std::uint8_t* data, std::size_t size) {
  return encode(data, size, kUrlAlphabet, false);
}

std::string base64url_encode(const Bytes& bytes) {
  return base64url_encode(bytes.data(), bytes.size());
}

std::string base64url_encode(std::string_view text) {
  return base64url_encode(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

std::optional<Bytes> base64url_decode(std::string_view text) {
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  if (text.size() % 4 == 1) return std::nullopt;
  Bytes out;
  out.reserve(text.size() * 3 / 4);
  std::uint32_t buffer = 0;
  int bits = 0;
  for (const char c : text) {
    const int value = digit_value(c);
    if (value < 0) return std::nullopt;
    buffer = (buffer << 6) | static_cast<std::uint32_t>(value);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>((buffer >> bits) & 0xff));
    }
  }
  return out;
}

std::string base64_encode(std::string_view data) {
  return encode(reinterpret_cast<const std::uint8_t*>(data.data()), data.size(), kStdAlphabet,
                true);
}

}  // namespace viktory::notify
