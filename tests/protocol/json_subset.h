// "Does this JSON contain that JSON?" for the CLI expectations in tests/scenarios/.
//
// expected matches actual when:
//  - expected is an object: actual is an object and every key of expected matches the same
//    key of actual; the value "$absent" demands that actual does NOT have the key, "$any" that
//    it has it with any value. Keys of actual not named in expected are ignored.
//  - expected is {"$contains": [e1, e2, ...]}: actual is an array and each ei matches some
//    element of actual (in any order).
//  - expected is an array: actual is an array of the same length, matching element by element.
//  - otherwise: the values are equal.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace viktory::testing {

// "" when `actual` matches `expected`, else where and how they differ.
inline std::string json_subset_mismatch(const nlohmann::json& expected,
                                        const nlohmann::json& actual,
                                        const std::string& path = "$") {
  auto describe = [](const nlohmann::json& j) {
    std::string text = j.dump();
    return text.size() > 200 ? text.substr(0, 200) + "..." : text;
  };
  if (expected.is_object() && expected.size() == 1 && expected.contains("$contains")) {
    if (!actual.is_array()) return path + ": expected an array, got " + describe(actual);
    const auto& wanted = expected["$contains"];
    for (std::size_t i = 0; i < wanted.size(); ++i) {
      bool found = false;
      for (const auto& element : actual) {
        if (json_subset_mismatch(wanted[i], element, path).empty()) {
          found = true;
          break;
        }
      }
      if (!found) return path + ": no element matches " + describe(wanted[i]);
    }
    return "";
  }
  if (expected.is_object()) {
    if (!actual.is_object()) return path + ": expected an object, got " + describe(actual);
    for (const auto& [key, value] : expected.items()) {
      const std::string child = path + "." + key;
      const bool present = actual.contains(key);
      if (value == "$absent") {
        if (present) return child + ": should be absent, is " + describe(actual[key]);
        continue;
      }
      if (!present) return child + ": missing";
      if (value == "$any") continue;
      std::string mismatch = json_subset_mismatch(value, actual[key], child);
      if (!mismatch.empty()) return mismatch;
    }
    return "";
  }
  if (expected.is_array()) {
    if (!actual.is_array()) return path + ": expected an array, got " + describe(actual);
    if (expected.size() != actual.size()) {
      return path + ": expected " + std::to_string(expected.size()) + " elements, got " +
             std::to_string(actual.size()) + ": " + describe(actual);
    }
    for (std::size_t i = 0; i < expected.size(); ++i) {
      std::string mismatch =
          json_subset_mismatch(expected[i], actual[i], path + "[" + std::to_string(i) + "]");
      if (!mismatch.empty()) return mismatch;
    }
    return "";
  }
  if (expected != actual) {
    return path + ": expected " + describe(expected) + ", got " + describe(actual);
  }
  return "";
}

}  // namespace viktory::testing
