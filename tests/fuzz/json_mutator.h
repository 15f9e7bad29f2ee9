// A structure-aware mutator for the JSON harnesses (action, state, scenario). libFuzzer's
// byte mutations mostly break the syntax of a large JSON document, so the fuzzer would spend
// its time in the parser's error paths. Most of the time this mutator instead parses the input,
// changes one value of the tree the way a corrupt or hostile document would (a number nudged
// or pushed to a limit, a flag flipped, a name swapped for another known name, an element or
// field dropped or doubled) and writes it back. The rest of the time, and for input that is not
// JSON, it leaves the work to libFuzzer's own mutations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace viktory::fuzz {

// Strings worth trying in place of a string value: the names the readers know.
inline const std::vector<std::string>& known_names() {
  static const std::vector<std::string> names = {
      // action kinds
      "place_capital", "build_town", "upgrade_city", "end_phase", "move", "embark", "disembark",
      "bombard", "start_battle", "choose_casualty", "retreat", "continue_battle", "eliminate_unit",
      "place_reserve", "concede",
      // unit types and places, terrain, phases, battle stages
      "infantry", "cavalry", "artillery", "frigate", "map", "reserve", "stock", "none", "water",
      "plains", "grassland", "forest", "mountain", "setup", "build", "movement", "game_over",
      "assign_pre_fire", "assign_attacker_fire", "assign_defender_fire", "retreat_option",
      "retreating",
      // options
      "standard", "shorter", "race", "doomsday", "land_rich", "islands",
      // scenario forms: hex labels, unit lines, generator words
      "A1", "D4", "E5", "I9", "0 infantry E5", "1 frigate A1 x3", "0 artillery reserve",
      "0x0000000000000001", "18446744073709551615", "viktory-state", ""};
  return names;
}

namespace detail {

inline void collect(nlohmann::json& node, std::vector<nlohmann::json*>& out) {
  out.push_back(&node);
  if (node.is_structured()) {
    for (auto& child : node) collect(child, out);
  }
}

// Changes one value in place; false if nothing could be done to it.
inline bool mutate_value(nlohmann::json& node, std::minstd_rand& rng) {
  auto pick = [&rng](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  // Wraps around instead of overflowing (signed overflow would be a finding of our own).
  auto plus = [](std::int64_t v, std::int64_t d) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(v) + static_cast<std::uint64_t>(d));
  };
  if (node.is_number_integer()) {
    const std::int64_t v = node.get<std::int64_t>();
    switch (pick(6)) {
      case 0:
        node = plus(v, 1);
        break;
      case 1:
        node = plus(v, -1);
        break;
      case 2:
        node = plus(v, static_cast<std::int64_t>(pick(21)) - 10);
        break;
      case 3:
        node = static_cast<std::int64_t>(pick(130)) - 2;
        break;
      case 4: {
        static constexpr std::int64_t kLimits[] = {-1,
                                                   0,
                                                   255,
                                                   256,
                                                   1000000,
                                                   std::numeric_limits<std::int32_t>::max(),
                                                   std::int64_t{1} << 32,
                                                   std::numeric_limits<std::int64_t>::max(),
                                                   std::numeric_limits<std::int64_t>::min()};
        node = kLimits[pick(std::size(kLimits))];
        break;
      }
      default:
        node = nullptr;
        break;
    }
    return true;
  }
  if (node.is_boolean()) {
    node = !node.get<bool>();
    return true;
  }
  if (node.is_string()) {
    if (pick(4) == 0) {
      std::string s = node.get<std::string>();
      if (!s.empty()) s[pick(s.size())] = static_cast<char>(rng());
      node = s;
    } else {
      node = known_names()[pick(known_names().size())];
    }
    return true;
  }
  if (node.is_null()) {
    node = static_cast<std::int64_t>(pick(8));
    return true;
  }
  if (node.is_array() && !node.empty()) {
    const std::size_t i = pick(node.size());
    switch (pick(3)) {
      case 0:
        node.erase(i);
        break;
      case 1: {
        const nlohmann::json copy = node[i];  // inserting may move node[i]
        node.insert(node.begin() + static_cast<std::ptrdiff_t>(i), copy);
        break;
      }
      default:
        std::swap(node[i], node[pick(node.size())]);
        break;
    }
    return true;
  }
  if (node.is_object() && !node.empty()) {
    auto it = node.begin();
    std::advance(it, static_cast<std::ptrdiff_t>(pick(node.size())));
    if (pick(2) == 0) {
      node.erase(it);
    } else {
      *it = nlohmann::json::object();  // a value of the wrong shape
    }
    return true;
  }
  return false;
}

}  // namespace detail

inline std::size_t mutate_json(std::uint8_t* data, std::size_t size, std::size_t max_size,
                               unsigned int seed) {
  std::minstd_rand rng(seed);
  if (rng() % 5 != 0) {
    nlohmann::json doc = nlohmann::json::parse(data, data + size, nullptr, false);
    if (!doc.is_discarded()) {
      std::vector<nlohmann::json*> nodes;
      detail::collect(doc, nodes);
      // One to three changes, each to a value chosen anywhere in the tree.
      const int changes = 1 + static_cast<int>(rng() % 3);
      bool changed = false;
      for (int i = 0; i < changes; ++i) {
        changed |= detail::mutate_value(*nodes[rng() % nodes.size()], rng);
        nodes.clear();
        detail::collect(doc, nodes);
      }
      const std::string text = doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      if (changed && text.size() <= max_size) {
        std::memcpy(data, text.data(), text.size());
        return text.size();
      }
    }
  }
  return LLVMFuzzerMutate(data, size, max_size);
}

}  // namespace viktory::fuzz

// Every harness that includes this file uses the mutator.
extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                               std::size_t max_size, unsigned int seed) {
  return viktory::fuzz::mutate_json(data, size, max_size, seed);
}
