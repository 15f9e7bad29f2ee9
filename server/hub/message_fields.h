// Readers of a WebSocket message's fields for the Hub's handlers (hub.cpp, hub_create.cpp): a
// field missing or of the wrong type throws BadField, which the Hub answers with "bad_message".
#pragma once

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>

namespace viktory::server::message_fields {

using nlohmann::json;

// A message field of the wrong type or missing: answered with error "bad_message".
struct BadField : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline std::int64_t int_field(const json& m, const char* name) {
  auto it = m.find(name);
  if (it == m.end() || !it->is_number_integer()) {
    throw BadField(std::string("field '") + name + "' must be an integer");
  }
  return it->get<std::int64_t>();
}

inline int small_int_field(const json& m, const char* name) {
  const std::int64_t v = int_field(m, name);
  if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) {
    throw BadField(std::string("field '") + name + "' is out of range");
  }
  return static_cast<int>(v);
}

inline std::optional<int> optional_small_int(const json& m, const char* name) {
  if (!m.contains(name) || m[name].is_null()) return std::nullopt;
  return small_int_field(m, name);
}

inline std::string string_field(const json& m, const char* name) {
  auto it = m.find(name);
  if (it == m.end() || !it->is_string()) {
    throw BadField(std::string("field '") + name + "' must be a string");
  }
  return it->get<std::string>();
}

inline std::string optional_string(const json& m, const char* name) {
  if (!m.contains(name) || m[name].is_null()) return "";
  return string_field(m, name);
}

inline bool bool_field(const json& m, const char* name, bool fallback) {
  auto it = m.find(name);
  if (it == m.end() || it->is_null()) return fallback;
  if (!it->is_boolean()) throw BadField(std::string("field '") + name + "' must be true or false");
  return it->get<bool>();
}

}  // namespace viktory::server::message_fields
