// docs/fair-play.md is the specification of fair play: its test vectors (the ```json test-vector
// blocks) are read from the source tree and checked against the code, so the document and the
// code cannot drift apart. Changing any value in a vector makes one of these tests fail.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "fair.h"
#include "game.h"
#include "game_record.h"
#include "tiles.h"
#include "verify.h"

namespace viktory::protocol {
namespace {

using nlohmann::json;

// Every vector of the document, by its "vector" name.
std::map<std::string, json> document_vectors() {
  std::ifstream in(VIKTORY_FAIR_PLAY_DOC);
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  std::map<std::string, json> out;
  const std::string open = "```json test-vector\n";
  for (std::size_t at = doc.find(open); at != std::string::npos; at = doc.find(open, at)) {
    at += open.size();
    const std::size_t end = doc.find("\n```", at);
    if (end == std::string::npos) break;
    const json vector = json::parse(doc.substr(at, end - at));
    out[vector.at("vector").get<std::string>()] = vector;
    at = end;
  }
  return out;
}

const json& vector_named(const std::string& name) {
  static const std::map<std::string, json> vectors = document_vectors();
  const auto it = vectors.find(name);
  if (it == vectors.end()) throw std::runtime_error("docs/fair-play.md has no vector " + name);
  return it->second;
}

std::uint64_t word(const json& j) { return std::stoull(j.get<std::string>(), nullptr, 16); }

template <std::size_t N>
std::array<std::uint8_t, N> bytes(const json& j) {
  const auto out = fair::from_hex<N>(j.get<std::string>());
  if (!out) throw std::runtime_error("not " + std::to_string(N) + " bytes: " + j.dump());
  return *out;
}

RandomStream stream_named(const std::string& name) {
  if (name == "setup") return RandomStream::kSetup;
  if (name == "tiles") return RandomStream::kTiles;
  return RandomStream::kDice;
}

TEST(FairPlayDocument, HasEveryVector) {
  for (const char* name : {"scheme", "streams", "below", "new_game", "record"}) {
    EXPECT_NO_THROW(vector_named(name)) << name;
  }
}

TEST(FairPlayDocument, CommitmentsAndSeedsAreTheCodes) {
  const json& v = vector_named("scheme");
  const auto secret = bytes<32>(v["secret"]);
  const auto salt = bytes<16>(v["salt"]);
  EXPECT_EQ(fair::to_hex(fair::commitment(salt, secret)), v["commitment"]);
  std::vector<std::optional<fair::Contribution>> contributions;
  for (std::size_t i = 0; i < v["contributions"].size(); ++i) {
    const auto c = bytes<32>(v["contributions"][i]);
    EXPECT_EQ(fair::to_hex(fair::contribution_commitment(c)), v["contribution_commitments"][i]);
    contributions.push_back(c);
  }
  // The hash input, byte by byte, is the documented one: its digest's first 8 bytes.
  const std::string input = v["seed_v2_input"];
  std::vector<std::uint8_t> message;
  for (std::size_t i = 0; i < input.size(); i += 2) {
    message.push_back(static_cast<std::uint8_t>(std::stoul(input.substr(i, 2), nullptr, 16)));
  }
  const auto digest = sha256(message);
  std::uint64_t from_input = 0;
  for (int i = 0; i < 8; ++i) from_input = (from_input << 8) | digest[static_cast<std::size_t>(i)];
  EXPECT_EQ(from_input, word(v["seed_v2"]));
  EXPECT_EQ(fair::derive_seed(secret, contributions, RandomScheme::kStreams), word(v["seed_v2"]));
  EXPECT_EQ(fair::derive_seed(secret, contributions, RandomScheme::kSingleStream),
            word(v["seed_v1"]));
  contributions[1].reset();
  EXPECT_EQ(fair::derive_seed(secret, contributions, RandomScheme::kStreams),
            word(v["seed_v2_unrevealed_1"]));
}

TEST(FairPlayDocument, StreamKeysAndValuesAreTheCodes) {
  const json& v = vector_named("streams");
  const std::uint64_t seed = word(v["seed"]);
  for (const char* name : {"setup", "tiles", "dice"}) {
    const std::uint64_t key = stream_key(seed, stream_named(name));
    EXPECT_EQ(key, word(v[name]["key"])) << name;
    StreamCounters counters{seed, {}};
    for (std::size_t i = 0; i < v[name]["values"].size(); ++i) {
      EXPECT_EQ(stream_value(key, i), word(v[name]["values"][i])) << name << " draw " << i;
      EXPECT_EQ(counters.next(stream_named(name)), word(v[name]["values"][i]));
    }
  }
}

TEST(FairPlayDocument, BelowRejectsAsDocumented) {
  const json& v = vector_named("below");
  const RandomStream stream = stream_named(v["stream"]);
  const std::uint64_t n = v["n"];
  EXPECT_EQ(below_limit(n), word(v["limit"]));
  const std::uint64_t key = stream_key(word(v["seed"]), stream);
  const std::uint64_t draw = v["draw"];
  EXPECT_EQ(stream_value(key, draw), word(v["value"]));
  EXPECT_EQ(stream_value(key, draw + 1), word(v["next_value"]));
  StreamCounters counters{word(v["seed"]), {}};
  counters.counter(stream) = draw;
  const std::uint64_t result = counters.below(stream, n);
  EXPECT_EQ(result, v["result"].get<std::uint64_t>());
  EXPECT_EQ(static_cast<int>(result) + 1, v["die"].get<int>());
  EXPECT_EQ(counters.next_draw(stream), v["next_draw"].get<std::uint64_t>());
}

TEST(FairPlayDocument, NewGameDrawsTheDocumentedFirstPlayerAndStartTiles) {
  const json& v = vector_named("new_game");
  const Options options = options_from_json(v["options"]);
  const Board& board = Board::for_radius(board_radius_for(options.players, options.board_hexes));
  auto bank_json = [](const std::array<int, kTerrainKinds>& bank) {
    json out = json::object();
    for (int slot = 0; slot < kTerrainKinds; ++slot) {
      out[std::string(to_string(terrain_of_bank_slot(slot)))] = bank[slot];
    }
    return out;
  };
  int interior = 0;
  for (int h = 0; h < board.size(); ++h) interior += board.is_perimeter(h) ? 0 : 1;
  EXPECT_EQ(bank_json(tile_bank_for(options.tile_mix, interior)), v["bank"]);
  json groups = json::array();
  for (const auto& group : board.start_groups(options.players)) {
    groups.push_back({board.label(group[0]), board.label(group[1]), board.label(group[2])});
  }
  EXPECT_EQ(groups, v["start_groups"]);

  SetupDraws drawn;
  const GameState s = new_game(options, word(v["seed"]), RandomScheme::kStreams, &drawn);
  EXPECT_EQ(s.first_player, v["first_player"]);
  EXPECT_EQ(drawn.first_player_draw, v["first_player_draw"]);
  json tiles = json::array();
  for (const Event& e : drawn.tiles) {
    tiles.push_back({{"hex", e.hex},
                     {"label", board.label(e.hex)},
                     {"terrain", to_string(e.terrain)},
                     {"draw", e.draw}});
  }
  EXPECT_EQ(tiles, v["start_tiles"]);
  EXPECT_EQ(bank_json(s.tile_bank), v["bank_after"]);
}

TEST(FairPlayDocument, TheSampleRecordVerifies) {
  const json& v = vector_named("record");
  const GameRecord record = record_from_json(v["record"]);
  EXPECT_EQ(record.scheme, RandomScheme::kStreams);
  const VerifyReport report = verify_record(record);
  EXPECT_EQ(report.verified, v["verifies"].get<bool>()) << report.failure;
  EXPECT_EQ(report.summary(), v["summary"]);
  // The record's seed is the scheme vector's.
  EXPECT_EQ(report.seed, word(vector_named("scheme")["seed_v2"]));
}

}  // namespace
}  // namespace viktory::protocol
