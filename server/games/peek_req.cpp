#include "peek_req.h"

#include <charconv>

namespace viktory::server {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// A cursor over the first kPeekBytes of a message, reading forward.
class Forward {
 public:
  explicit Forward(std::string_view text) : text_(text.substr(0, kPeekBytes)) {}
  void skip_space() {
    while (at_ < text_.size() && is_space(text_[at_])) ++at_;
  }
  bool take(char c) {
    skip_space();
    if (at_ >= text_.size() || text_[at_] != c) return false;
    ++at_;
    return true;
  }
  // A string without escapes; its contents in `out`.
  bool string(std::string_view& out) {
    if (!take('"')) return false;
    const auto end = text_.find_first_of("\"\\", at_);
    if (end == std::string_view::npos || text_[end] != '"') return false;
    out = text_.substr(at_, end - at_);
    at_ = end + 1;
    return true;
  }
  // An integer followed by ',' or '}' (not a fraction or exponent).
  std::optional<std::int64_t> integer() {
    skip_space();
    std::int64_t value = 0;
    const char* first = text_.data() + at_;
    const char* last = text_.data() + text_.size();
    auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec != std::errc() || ptr == first) return std::nullopt;
    at_ = static_cast<std::size_t>(ptr - text_.data());
    skip_space();
    if (at_ >= text_.size() || (text_[at_] != ',' && text_[at_] != '}')) return std::nullopt;
    return value;
  }

 private:
  std::string_view text_;
  std::size_t at_ = 0;
};

// `"req": N` as the first member, or as the second after `"type": "<no escapes>"`.
std::optional<std::int64_t> req_at_start(std::string_view text) {
  Forward in(text);
  std::string_view key;
  if (!in.take('{') || !in.string(key)) return std::nullopt;
  if (key == "type") {
    std::string_view type;
    if (!in.take(':') || !in.string(type) || !in.take(',') || !in.string(key)) return std::nullopt;
  }
  if (key != "req" || !in.take(':')) return std::nullopt;
  return in.integer();
}

// `, "req": N }` (or `{ "req": N }`) at the very end. A `}` right after the number closes the
// message itself (a nested object would close twice), and the `"req"` key must follow a ',' or
// the opening '{': inside a string a '"' is escaped, so `,"req":` there would not be valid JSON.
std::optional<std::int64_t> req_at_end(std::string_view text) {
  if (text.size() > kPeekBytes) text = text.substr(text.size() - kPeekBytes);
  std::size_t end = text.size();
  auto skip_space = [&] {
    while (end > 0 && is_space(text[end - 1])) --end;
  };
  auto take = [&](char c) {
    skip_space();
    if (end == 0 || text[end - 1] != c) return false;
    --end;
    return true;
  };
  if (!take('}')) return std::nullopt;
  skip_space();
  const std::size_t number_end = end;
  while (end > 0 && text[end - 1] >= '0' && text[end - 1] <= '9') --end;
  if (end > 0 && text[end - 1] == '-') --end;
  const std::size_t number_start = end;
  if (number_start == number_end) return std::nullopt;
  std::int64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data() + number_start, text.data() + number_end, value);
  if (ec != std::errc() || ptr != text.data() + number_end) return std::nullopt;
  constexpr std::string_view kKey = "\"req\"";
  if (!take(':')) return std::nullopt;
  skip_space();
  if (end < kKey.size() || text.substr(end - kKey.size(), kKey.size()) != kKey) return std::nullopt;
  end -= kKey.size();
  if (!take(',') && !take('{')) return std::nullopt;
  return value;
}

}  // namespace

std::optional<std::int64_t> peek_req(std::string_view text) {
  if (auto req = req_at_end(text)) return req;
  return req_at_start(text);
}

}  // namespace viktory::server
