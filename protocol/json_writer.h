// A minimal JSON text writer that appends to a std::string, for the forms the server sends on
// every action (protocol/view_text.h): no nlohmann tree is built and freed per message.
//
// Its output is byte for byte what nlohmann::json::dump(-1, ' ', false,
// error_handler_t::replace) writes for the same value, which is how the server serialises
// everything else: compact, no ASCII escaping of UTF-8, invalid UTF-8 replaced by U+FFFD.
// nlohmann keeps object keys sorted (std::map), so callers must write each object's keys in
// byte order; tests/protocol/view_text_test.cpp holds them to it (each text is the dump of its
// own parsed tree).
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace viktory::protocol {

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : out_(out) {}

  void begin_object() {
    separate();
    out_ += '{';
    first_ = true;
  }
  void end_object() {
    out_ += '}';
    first_ = false;
  }
  void begin_array() {
    separate();
    out_ += '[';
    first_ = true;
  }
  void end_array() {
    out_ += ']';
    first_ = false;
  }

  // An object key; the next value written is its value. `name` must need no escaping (the
  // protocol's keys are lower_snake_case ASCII).
  void key(std::string_view name) {
    if (!first_) out_ += ',';
    out_ += '"';
    out_ += name;
    out_ += "\":";
    first_ = true;  // the value that follows takes no comma
  }

  void value(bool b) {
    separate();
    out_ += b ? "true" : "false";
  }
  void value(int n) { integer(n); }
  void value(std::int64_t n) { integer(n); }
  void value(std::size_t n) { integer(n); }
  void value(std::string_view text) {
    separate();
    string(text);
  }
  void value(const char* text) { value(std::string_view(text)); }
  void null() {
    separate();
    out_ += "null";
  }
  void value(const std::vector<int>& values) {
    begin_array();
    for (int v : values) integer(v);
    end_array();
  }

  // Appends already serialised JSON as one value (e.g. a part cached as text).
  void raw(std::string_view json_text) {
    separate();
    out_ += json_text;
  }
  // One value appended by `append(out)`, a function that writes it into the same string (e.g.
  // append_view_json of protocol/view_text.h), so that no copy of it is made.
  template <typename Append>
  void value_appended_by(Append&& append) {
    separate();
    append(out_);
  }

 private:
  void separate() {
    if (!first_) out_ += ',';
    first_ = false;
  }

  template <typename Int>
  void integer(Int n) {
    separate();
    char buffer[24];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, n);
    out_.append(buffer, result.ptr);
  }

  // As nlohmann writes a string: quotes, backslash and control characters escaped, everything
  // else as it is. Text that is not plain ASCII goes through nlohmann itself (rare in the
  // protocol's forms), so UTF-8 checking and replacement are exactly its own.
  void string(std::string_view text);

  std::string& out_;
  bool first_ = true;
};

}  // namespace viktory::protocol
