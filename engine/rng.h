// The game's random generators (docs/fair-play.md, "The generator"). Two schemes:
//  1. one xoshiro256** stream seeded through splitmix64 (Rng): games made before fair play v2.
//     Tiles and dice share it, so revealing one more hex shifts every later die.
//  2. three counter-based streams (StreamCounters): setup, tiles and dice, each value indexed
//     by its number in its stream, so no draw in one stream moves a value of another.
// The whole state lives inside GameState, so (seed, options, actions) always replays the same
// game and a stored snapshot resumes the same dice. It never leaves the server.
#pragma once

#include <array>
#include <cstdint>

namespace viktory {

// below(n) takes a value x uniform in [0, 2^64) and keeps x % n if x < below_limit(n), the
// largest multiple of n not above 2^64 - 1; otherwise it draws again (no modulo bias).
constexpr std::uint64_t below_limit(std::uint64_t n) { return UINT64_MAX - UINT64_MAX % n; }

inline constexpr std::uint64_t kGoldenGamma = 0x9E3779B97F4A7C15ULL;

// splitmix64's finaliser: a bijection of 64-bit words that mixes every input bit into every
// output bit.
constexpr std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// Two words into one well-mixed seed (the computer players' own seeds: a decision's, a
// sample's, a playout's); never part of the game's own generator.
constexpr std::uint64_t mix_seed(std::uint64_t a, std::uint64_t b) {
  return mix64(a + kGoldenGamma * (b + 1));
}

class Rng {
 public:
  Rng() : Rng(0) {}
  explicit Rng(std::uint64_t seed) {
    for (auto& word : s_) {
      seed += kGoldenGamma;
      word = mix64(seed);
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
    const std::uint64_t limit = below_limit(n);
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

enum class RandomScheme : std::uint8_t {
  kSingleStream = 1,  // scheme 1: Rng, one stream for everything
  kStreams = 2,       // scheme 2: StreamCounters
};

// Scheme 2's streams, by id (the id enters the stream's key).
enum class RandomStream : std::uint8_t {
  kSetup = 1,  // everything new_game draws: seating [15.2], first player [4.0], tiles it lays
  kTiles = 2,  // every tile drawn during play, and the Exploration Balancing land tile [15.3]
  kDice = 3,   // every die, the Doomsday Clock's included
};
inline constexpr int kRandomStreams = 3;

// key_s = mix64(seed + s * gamma) (mod 2^64).
constexpr std::uint64_t stream_key(std::uint64_t seed, RandomStream stream) {
  return mix64(seed + static_cast<std::uint64_t>(stream) * kGoldenGamma);
}

// Value number `draw` (0, 1, 2, ...) of the stream with key `key`:
// mix64(key + (draw + 1) * gamma) (mod 2^64).
constexpr std::uint64_t stream_value(std::uint64_t key, std::uint64_t draw) {
  return mix64(key + (draw + 1) * kGoldenGamma);
}

// Scheme 2's state: the seed and how many values each stream has given so far, i.e. the
// number of the next value of each.
struct StreamCounters {
  std::uint64_t seed = 0;
  std::array<std::uint64_t, kRandomStreams> drawn{};

  std::uint64_t& counter(RandomStream stream) {
    return drawn[static_cast<std::size_t>(stream) - 1];
  }
  std::uint64_t next_draw(RandomStream stream) const {
    return drawn[static_cast<std::size_t>(stream) - 1];
  }
  std::uint64_t next(RandomStream stream) {
    return stream_value(stream_key(seed, stream), counter(stream)++);
  }
  // As Rng::below: a rejected value uses up its draw number too.
  std::uint64_t below(RandomStream stream, std::uint64_t n) {
    const std::uint64_t limit = below_limit(n);
    std::uint64_t x;
    do {
      x = next(stream);
    } while (x >= limit);
    return x % n;
  }
  friend bool operator==(const StreamCounters&, const StreamCounters&) = default;
};

}  // namespace viktory
