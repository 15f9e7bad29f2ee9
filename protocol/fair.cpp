#include "fair.h"

#include <stdexcept>

namespace viktory::protocol::fair {
namespace {

// Each label ends in a zero byte (string_view over the literal keeps it), so that no hash of
// one kind can be taken for another.
constexpr std::string_view kCommitmentLabel{"viktory commitment v1\0", 22};
constexpr std::string_view kContributionLabel{"viktory contribution v1\0", 24};
constexpr std::string_view kSeedLabel{"viktory seed v1\0", 16};
constexpr std::string_view kSeedLabelV2{"viktory seed v2\0", 16};

void append(std::vector<std::uint8_t>& out, std::string_view label) {
  out.insert(out.end(), label.begin(), label.end());
}
void append(std::vector<std::uint8_t>& out, std::span<const std::uint8_t> bytes) {
  out.insert(out.end(), bytes.begin(), bytes.end());
}

}  // namespace

Digest commitment(const Salt& salt, const Secret& secret) {
  std::vector<std::uint8_t> message;
  append(message, kCommitmentLabel);
  append(message, salt);
  append(message, secret);
  return sha256(message);
}

Digest contribution_commitment(const Contribution& contribution) {
  std::vector<std::uint8_t> message;
  append(message, kContributionLabel);
  append(message, contribution);
  return sha256(message);
}

std::uint64_t derive_seed(const Secret& secret,
                          const std::vector<std::optional<Contribution>>& contributions) {
  return derive_seed(secret, contributions, RandomScheme::kSingleStream);
}

std::uint64_t derive_seed(const Secret& secret,
                          const std::vector<std::optional<Contribution>>& contributions,
                          RandomScheme scheme) {
  if (contributions.size() > 255) throw std::invalid_argument("at most 255 seats");
  std::vector<std::uint8_t> message;
  append(message, scheme == RandomScheme::kStreams ? kSeedLabelV2 : kSeedLabel);
  append(message, secret);
  message.push_back(static_cast<std::uint8_t>(contributions.size()));
  for (const auto& contribution : contributions) {
    message.push_back(contribution ? 1 : 0);
    if (contribution) append(message, *contribution);
  }
  const Digest digest = sha256(message);
  std::uint64_t seed = 0;
  for (int i = 0; i < 8; ++i) seed = (seed << 8) | digest[static_cast<std::size_t>(i)];
  return seed;
}

std::string to_hex(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (std::uint8_t b : bytes) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

}  // namespace viktory::protocol::fair
