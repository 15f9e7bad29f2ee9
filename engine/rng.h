// The game's random generator: xoshiro256** seeded through splitmix64. Its whole state is
// four words inside GameState, so (seed, options, actions) always replays the same game and
// a stored snapshot resumes the same dice. It never leaves the server.
#pragma once

#include <array>
#include <cstdint>

namespace viktory {

class Rng {
 public:
  Rng() : Rng(0) {}
  explicit Rng(std::uint64_t seed) {
    for (auto& word : s_) {
      seed += 0x9E3779B97F4A7C15ULL;
      std::uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      word = z ^ (z >> 31);
    }
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, n), without modulo bias.
  std::uint64_t below(std::uint64_t n) {
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    std::uint64_t x;
    do {
      x = next();
    } while (x >= limit);
    return x % n;
  }

  int die() { return static_cast<int>(below(6)) + 1; }

  const std::array<std::uint64_t, 4>& words() const { return s_; }
  static Rng from_words(const std::array<std::uint64_t, 4>& w) {
    Rng r;
    r.s_ = w;
    return r;
  }
  friend bool operator==(const Rng&, const Rng&) = default;

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::array<std::uint64_t, 4> s_{};
};

}  // namespace viktory
