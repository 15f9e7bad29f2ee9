// Command-line reading shared by viktory-tournament and viktory-fit-evaluation: flags with
// one value each, numbers checked (a bad number is a usage error, not an exception).
//
//   Args args(argc, argv, usage);
//   while (args.next()) {
//     if (args.flag() == "--games") settings.games = args.integer();
//     else args.fail("unknown argument " + args.flag());
//   }
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>

#include "types.h"

namespace viktory::bench {

class Args {
 public:
  // Prints why and the program's usage, then exits; never returns.
  using Usage = void (*)(const char* why);

  Args(int argc, char** argv, Usage usage) : argc_(argc), argv_(argv), usage_(usage) {}

  // Moves to the next flag; false when there is none left.
  bool next() {
    if (++index_ >= argc_) return false;
    flag_ = argv_[index_];
    return true;
  }
  const std::string& flag() const { return flag_; }

  // The flag's value: the next word.
  std::string value() {
    if (index_ + 1 >= argc_) fail("missing value for " + flag_);
    return argv_[++index_];
  }
  int integer() { return static_cast<int>(number<long long>(std::strtoll)); }
  std::uint64_t unsigned_integer() {
    return static_cast<std::uint64_t>(number<unsigned long long>(std::strtoull));
  }
  double real() {
    const std::string word = value();
    char* end = nullptr;
    const double v = std::strtod(word.c_str(), &end);
    if (word.empty() || *end != '\0') fail("not a number for " + flag_ + ": " + word);
    return v;
  }
  VictoryCondition victory() {
    const auto v = victory_from_string(value());
    if (!v) fail("unknown victory condition");
    return *v;
  }

  [[noreturn]] void fail(const std::string& why) {
    usage_(why.c_str());
    std::exit(2);  // in case `usage` returned after all
  }

 private:
  template <typename T, typename Parse>
  T number(Parse parse) {
    const std::string word = value();
    char* end = nullptr;
    const T v = parse(word.c_str(), &end, 10);
    if (word.empty() || *end != '\0') fail("not a number for " + flag_ + ": " + word);
    return v;
  }

  int argc_;
  char** argv_;
  Usage usage_;
  int index_ = 0;
  std::string flag_;
};

}  // namespace viktory::bench
