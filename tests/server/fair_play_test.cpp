// Fair play over real WebSockets against the real server (docs/fair-play.md): the commitment is
// published when the game is created, neither the secret nor the salt (nor the seed) reaches
// any player or spectator while the game runs, they are revealed to everyone when it ends by a
// concession, and the record downloaded afterwards verifies with the verifier library, while a
// tampered one fails with a clear reason. A game stored before fair play still loads, replays
// and is reported as not verifiable.
#include "fair_play.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <random>

#include "game_record.h"
#include "reveal_round.h"
#include "store.h"
#include "support/play.h"
#include "support/server_process.h"
#include "test_support.h"
#include "verify.h"

namespace viktory::server::testing {
namespace {

using nlohmann::json;
namespace fair = protocol::fair;

bool is_hex64(const json& j) {
  if (!j.is_string() || j.get<std::string>().size() != 64) return false;
  const std::string s = j;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isxdigit(c) && !std::isupper(c); });
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

class FairPlay : public ::testing::Test {
 protected:
  void SetUp() override {
    db = dir.file("fair.db");
    start_server();
    alice = sign_up(server->port(), "Alice");
    bob = sign_up(server->port(), "Bob");
    carol = sign_up(server->port(), "Carol");
    connect_all();
  }

  void start_server() {
    std::filesystem::create_directories(dir.path() / "web");
    server = std::make_unique<ServerProcess>(db, (dir.path() / "web").string());
  }

  void connect_all() {
    a = std::make_unique<WsClient>();
    b = std::make_unique<WsClient>();
    c = std::make_unique<WsClient>();
    a->connect(server->port());
    b->connect(server->port());
    c->connect(server->port());
    sign_in(*a, alice);
    sign_in(*b, bob);
    sign_in(*c, carol);
  }

  // Random legal actions other than conceding, `count` of them at most.
  void play(std::int64_t game_id, int count, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<WsClient*> both = {a.get(), b.get()};
    for (int i = 0; i < count && seen[0].view["phase"] != "game_over"; ++i) {
      const int who = seen[0].view["decider"];
      std::vector<json> options;
      for (const json& action : seen[static_cast<std::size_t>(who)].legal) {
        if (action["kind"] != "concede") options.push_back(action);
      }
      if (options.empty()) break;
      const json pick =
          options[std::uniform_int_distribution<std::size_t>(0, options.size() - 1)(rng)];
      act_and_wait(*both[static_cast<std::size_t>(who)], game_id, pick, both, seen,
                   static_cast<std::size_t>(who));
    }
  }

  void concede(std::int64_t game_id, int seat) {
    WsClient& loser = seat == 0 ? *a : *b;
    loser.send(json{{"type", "game.action"},
                    {"game_id", game_id},
                    {"seq", seen[static_cast<std::size_t>(seat)].seq},
                    {"action", {{"kind", "concede"}}}});
  }

  HttpReply record_of(std::int64_t game_id, const std::string& token = "") {
    return http_request(server->port(), "GET", "/api/games/" + std::to_string(game_id) + "/record",
                        "", token);
  }

  TempDir dir;
  std::string db;
  std::unique_ptr<ServerProcess> server;
  Account alice, bob, carol;
  std::unique_ptr<WsClient> a, b, c;  // Alice and Bob play, Carol watches
  std::vector<Seen> seen;
};

TEST_F(FairPlay, AConcededGameRevealsItsSecretAndItsRecordVerifies) {
  // The commitment is published as soon as the game is created: in the lobby and the game's
  // summary, then in the seats message and every full state.
  a->send(json{{"type", "game.create"}, {"seats", 2}});
  const std::int64_t game_id = a->wait_type("game.created")["game_id"];
  const json summary =
      http_request(server->port(), "GET", "/api/games/" + std::to_string(game_id)).json();
  ASSERT_TRUE(is_hex64(summary["commitment"])) << summary.dump();
  const std::string commitment = summary["commitment"];
  const json lobby = http_request(server->port(), "GET", "/api/games").json();
  ASSERT_EQ(lobby["games"].size(), 1u);
  EXPECT_EQ(lobby["games"][0]["commitment"], commitment);
  b->send(json{{"type", "game.join"}, {"game_id", game_id}});
  seen.assign(2, Seen{});
  for (std::size_t i = 0; i < 2; ++i) {
    const json state = (i == 0 ? *a : *b).wait_type("game.state");
    EXPECT_EQ(state["commitment"], commitment);
    seen[i].absorb(state);
  }
  int seats_messages = 0;
  for (const std::string& raw : b->history()) {
    const json m = json::parse(raw);
    if (m["type"] != "game.seats") continue;
    EXPECT_EQ(m["commitment"], commitment);
    ++seats_messages;
  }
  EXPECT_GT(seats_messages, 0);
  c->send(json{{"type", "game.watch"}, {"game_id", game_id}});
  EXPECT_EQ(c->wait_type("game.state")["commitment"], commitment);

  play(game_id, 40, 5);
  ASSERT_NE(seen[0].view["phase"], "game_over");
  ASSERT_GT(seen[0].seq, 5);
  // Before the end the record is refused: it holds the secret and every tile.
  const HttpReply early = record_of(game_id, alice.token);
  EXPECT_EQ(early.status, 409);
  EXPECT_EQ(early.json()["error"]["code"], "not_finished");

  // What the server keeps: the secret and salt match the published commitment, and the seed
  // is derived from the secret and both players' contributions (their clients committed when
  // the seats were final and revealed when asked: support/ws_client.cpp, as the browser does),
  // for random scheme 2, which every game created now uses (docs/fair-play.md).
  std::optional<FairSecrets> secrets;
  std::uint64_t seed = 0;
  std::vector<std::string> commitments;
  {
    Store store(db, Store::ReadOnly{});
    secrets = load_fair_secrets(store.db(), game_id);
    const GameRecord stored = *store.game(game_id);
    seed = stored.seed;
    EXPECT_EQ(stored.random_scheme, RandomScheme::kStreams);
    for (const SeatRecord& s : stored.seats) commitments.push_back(s.contribution_commitment);
  }
  ASSERT_TRUE(secrets.has_value());
  ASSERT_EQ(commitments.size(), 2u);
  EXPECT_EQ(commitment_hex(*secrets), commitment);
  const std::string mine_a = a->contribution_for(commitments[0]);
  const std::string mine_b = b->contribution_for(commitments[1]);
  ASSERT_EQ(mine_a.size(), 64u);
  ASSERT_EQ(mine_b.size(), 64u);
  EXPECT_EQ(seed, fair::derive_seed(secrets->secret,
                                    {fair::from_hex<32>(mine_a), fair::from_hex<32>(mine_b)},
                                    RandomScheme::kStreams));
  const std::string secret_hex = fair::to_hex(secrets->secret);
  const std::string salt_hex = fair::to_hex(secrets->salt);
  const std::vector<std::string> hidden = {secret_hex, salt_hex, upper(secret_hex), upper(salt_hex),
                                           std::to_string(seed)};
  // A contribution reaches nobody but the server while the game runs (not even in the game.seats
  // everyone gets): no player could have chosen his after seeing another's.
  for (const std::string& raw : b->history()) EXPECT_EQ(raw.find(mine_a), std::string::npos);
  for (const std::string& raw : a->history()) EXPECT_EQ(raw.find(mine_b), std::string::npos);
  for (const std::string& raw : c->history()) {
    EXPECT_EQ(raw.find(mine_a), std::string::npos);
    EXPECT_EQ(raw.find(mine_b), std::string::npos);
  }
  // Not a byte a player or the spectator received so far spells the secret, the salt or the
  // seed. (The leak test scans more spellings of the seed over many games.)
  auto leaked = [&](const WsClient& client) -> std::string {
    for (const std::string& raw : client.history()) {
      for (const std::string& secret : hidden) {
        if (raw.find(secret) != std::string::npos) return raw;
      }
    }
    return "";
  };
  std::size_t received = 0;
  for (const WsClient* client : {a.get(), b.get(), c.get()}) {
    EXPECT_EQ(leaked(*client), "") << "a secret reached a client";
    received += client->history().size();
  }
  EXPECT_GT(received, 40u);
  EXPECT_EQ(early.body.find(secret_hex), std::string::npos);
  const std::string log_before = server->log();
  EXPECT_EQ(log_before.find(secret_hex), std::string::npos);
  EXPECT_EQ(log_before.find(salt_hex), std::string::npos);
  EXPECT_NE(log_before.find(commitment), std::string::npos) << "the log publishes the commitment";

  // The end, by a concession: everyone watching is told the secret and the salt.
  concede(game_id, 1);
  for (WsClient* client : {a.get(), b.get(), c.get()}) {
    const json reveal = client->wait_type("game.reveal");
    EXPECT_EQ(reveal["game_id"], game_id);
    EXPECT_EQ(reveal["commitment"], commitment);
    EXPECT_EQ(reveal["secret"], secret_hex);
    EXPECT_EQ(reveal["salt"], salt_hex);
    EXPECT_EQ(reveal["record"], "/api/games/" + std::to_string(game_id) + "/record");
  }

  // The record, downloaded by anyone (a public game), verifies.
  const HttpReply download = record_of(game_id);
  ASSERT_EQ(download.status, 200) << download.body;
  const protocol::GameRecord record = protocol::parse_record(download.body);
  EXPECT_EQ(json::parse(download.body)["version"], 2);
  EXPECT_EQ(record.game_id, game_id);
  ASSERT_EQ(record.seats.size(), 2u);
  EXPECT_EQ(record.seats[0].name, "Alice");
  EXPECT_EQ(fair::to_hex(*record.commitment), commitment);
  ASSERT_TRUE(record.result.has_value());
  EXPECT_EQ(record.result->winners, std::vector<int>{0});
  EXPECT_EQ(record.actions.back().action.kind, ActionKind::kConcede);
  const protocol::VerifyReport report = protocol::verify_record(record);
  EXPECT_TRUE(report.verified) << report.failure;
  EXPECT_EQ(report.seed, seed);
  EXPECT_EQ(report.actions, static_cast<int>(record.actions.size()));
  EXPECT_GT(report.tiles, 0);
  // Both contributed: the record carries their commitments and contributions, and no note says
  // that the seed depends on the server's secret alone.
  EXPECT_EQ(fair::to_hex(*record.seats[0].contribution_commitment), commitments[0]);
  EXPECT_EQ(fair::to_hex(*record.seats[1].contribution), mine_b);
  for (const std::string& note : report.notes) {
    EXPECT_EQ(note.find("made no contribution"), std::string::npos) << note;
  }

  // Tampered copies fail, each with its reason in words.
  auto failure_of = [](const protocol::GameRecord& r) {
    const protocol::VerifyReport rep = protocol::verify_record(r);
    EXPECT_FALSE(rep.verified);
    return rep.failure;
  };
  {
    protocol::GameRecord forged = record;  // another secret: the seed is not the committed one
    forged.reveal->secret->at(0) ^= 1;
    EXPECT_NE(failure_of(forged).find("the revealed secret and salt do not match the commitment"),
              std::string::npos);
  }
  {
    protocol::GameRecord forged = record;  // a contribution that is not the committed one
    forged.seats[0].contribution->at(5) ^= 1;
    EXPECT_FALSE(protocol::verify_record(forged).verified);
  }
  {
    protocol::GameRecord forged = record;  // a die that was not rolled
    protocol::RecordedAction& entry = forged.actions.at(2);
    entry.dice.push_back(
        protocol::RecordedRoll{entry.action.player, RollPurpose::kBombard, 0, {6}});
    const std::string why = failure_of(forged);
    EXPECT_NE(why.find("action 3 (turn "), std::string::npos) << why;
    EXPECT_NE(why.find("rolled"), std::string::npos) << why;
  }
  {
    protocol::GameRecord forged = record;  // an action replaced by another
    forged.actions.at(0).action = forged.actions.at(1).action;
    const std::string why = failure_of(forged);
    EXPECT_EQ(why.rfind("action 1 (turn 0): ", 0), 0u) << why;
  }
  {
    protocol::GameRecord forged = record;  // a start tile of another terrain
    ASSERT_FALSE(forged.setup_tiles.empty());
    forged.setup_tiles[0].terrain =
        forged.setup_tiles[0].terrain == Terrain::kWater ? Terrain::kPlains : Terrain::kWater;
    EXPECT_EQ(failure_of(forged).rfind("setup: the record says ", 0), 0u);
  }
  // The command-line check over the exported file: 0 verified, 1 not verified.
  auto cli_status = [&](const protocol::GameRecord& r, const std::string& name) {
    const std::string file = dir.file(name);
    std::ofstream(file) << protocol::record_to_json(r).dump();
    const int status =
        std::system((std::string(VIKTORY_VERIFY_BINARY) + " " + file + " > /dev/null").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  EXPECT_EQ(cli_status(record, "record.json"), 0);
  {
    protocol::GameRecord forged = record;
    forged.reveal->salt->at(3) ^= 0x40;
    EXPECT_EQ(cli_status(forged, "forged.json"), 1);
  }

  // Downloaded again: the same bytes (cached; a finished game never changes).
  EXPECT_EQ(record_of(game_id, bob.token).body, download.body);
}

// The reveal round is stored: a server restarted while the round waits for a seat still waits
// for it, keeps the contribution revealed before, asks the seat again when it comes back and
// starts the game from both contributions.
TEST_F(FairPlay, TheRevealRoundSurvivesARestart) {
  b->set_fair_play(false);  // Bob's client answers by hand here
  a->send(json{{"type", "game.create"}, {"seats", 2}});
  const std::int64_t game_id = a->wait_type("game.created")["game_id"];
  b->send(json{{"type", "game.join"},
               {"game_id", game_id},
               {"contribution_commitment", test_commitment(2)}});
  // Alice's client commits and reveals by itself; Bob's is asked and stays silent.
  const json asked = b->wait_type("game.reveal_request");
  EXPECT_EQ(asked["contribution_commitment"], test_commitment(2));
  b->wait_for([](const json& m) {
    return m.value("type", "") == "game.seats" && m["seats"][0].value("revealed", false);
  });
  const std::string alices = a->contribution_for(asked["contribution_commitments"][0]);
  ASSERT_EQ(alices.size(), 64u);
  a->close();
  b->close();
  c->close();
  ASSERT_EQ(server->terminate(), 0);
  start_server();
  connect_all();
  b->set_fair_play(false);
  b->send(json{{"type", "game.watch"}, {"game_id", game_id}});
  const json again = b->wait_type("game.reveal_request");
  EXPECT_EQ(again["contribution_commitments"], asked["contribution_commitments"]);
  EXPECT_EQ(again["deadline"], asked["deadline"]);
  EXPECT_EQ(http_request(server->port(), "GET", "/api/games/" + std::to_string(game_id))
                .json()["reveal"]["waiting"],
            1);
  b->send(json{{"type", "game.contribute"},
               {"game_id", game_id},
               {"contribution", fair::to_hex(test_contribution(2))}});
  b->wait_type("game.state");
  Store store(db, Store::ReadOnly{});
  const std::optional<FairSecrets> secrets = load_fair_secrets(store.db(), game_id);
  EXPECT_EQ(store.game(game_id)->seed,
            fair::derive_seed(secrets->secret, {fair::from_hex<32>(alices), test_contribution(2)},
                              RandomScheme::kStreams));
}

TEST_F(FairPlay, AGameStoredBeforeFairPlayLoadsReplaysAndIsNotVerifiable) {
  const std::int64_t game_id = start_game({a.get(), b.get()}, seen);
  play(game_id, 6, 9);
  const int seq = seen[0].seq;
  a->close();
  b->close();
  c->close();
  ASSERT_EQ(server->terminate(), 0);
  {
    // What a database of the previous schema holds after the migration: no commitment and no
    // secret; the game runs from its plain seed (the one it has: a legacy seed is any seed).
    Store store(db);
    store.db().exec("UPDATE games SET commitment = NULL WHERE id = " + std::to_string(game_id));
    store.db().exec("DELETE FROM game_secrets WHERE game_id = " + std::to_string(game_id));
  }
  start_server();
  connect_all();
  a->send(json{{"type", "game.watch"}, {"game_id", game_id}});
  b->send(json{{"type", "game.watch"}, {"game_id", game_id}});
  seen.assign(2, Seen{});
  seen[0].absorb(a->wait_type("game.state"));
  seen[1].absorb(b->wait_type("game.state"));
  EXPECT_EQ(seen[0].seq, seq);
  EXPECT_TRUE(a->history().back().find("\"commitment\":null") != std::string::npos);
  concede(game_id, 0);
  a->wait_for([](const json& m) {
    // Updates carry view deltas: the seats message tells that the game is over.
    return m["type"] == "game.seats" && m.value("status", "") == "finished";
  });
  const HttpReply replay = http_request(
      server->port(), "GET", "/api/games/" + std::to_string(game_id) + "/replay", "", alice.token);
  EXPECT_EQ(replay.status, 200);
  const HttpReply download = record_of(game_id);
  ASSERT_EQ(download.status, 200) << download.body;
  const json raw = json::parse(download.body);
  EXPECT_TRUE(raw["commitment"].is_null());
  EXPECT_TRUE(raw["reveal"].contains("seed"));
  const protocol::VerifyReport report =
      protocol::verify_record(protocol::parse_record(download.body));
  EXPECT_FALSE(report.verified);
  EXPECT_EQ(report.failure.rfind("the game was created before fair play", 0), 0u) << report.failure;
  EXPECT_EQ(report.actions, seq + 1);  // it still replays, every die matching
  // No game.reveal for it: there is no secret to reveal.
  for (const std::string& m : a->history()) EXPECT_EQ(m.find("game.reveal"), std::string::npos);
}

TEST_F(FairPlay, ARecordIsOnlyForThoseWhoMayViewTheGame) {
  a->send(json{{"type", "game.create"}, {"seats", 2}, {"private", true}});
  const json created = a->wait_type("game.created");
  const std::int64_t game_id = created["game_id"];
  b->send(json{{"type", "game.join"}, {"game_id", game_id}, {"invite", created["invite"]}});
  seen.assign(2, Seen{});
  seen[0].absorb(a->wait_type("game.state"));
  seen[1].absorb(b->wait_type("game.state"));
  concede(game_id, 0);
  a->wait_type("game.reveal");
  EXPECT_EQ(record_of(game_id).status, 404);               // private: no such game
  EXPECT_EQ(record_of(game_id, carol.token).status, 404);  // not seated, no invite
  EXPECT_EQ(record_of(game_id, bob.token).status, 200);    // a player
  EXPECT_EQ(record_of(game_id + 1000, bob.token).status, 404);
  EXPECT_EQ(http_request(server->port(), "POST",
                         "/api/games/" + std::to_string(game_id) + "/record", "", bob.token)
                .status,
            405);
}

}  // namespace
}  // namespace viktory::server::testing
