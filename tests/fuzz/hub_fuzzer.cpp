// libFuzzer harness: the server's Hub without sockets. Six fake clients (subscribers that
// check every message they get) send messages and API calls to a Hub over a real SQLite file; the
// input is a program of operations (sign up, sign in, create/join/start/watch, actions, undo, chat,
// the HTTP API, raw text, connection loss, server restart), decoded as described in docs/fuzzing.md
// and written by tests/fuzz/hub_corpus.py.
//
// Oracles: no crash or sanitizer report; every message sent is a JSON object with a "type";
// a request with an integer "req" gets exactly one reply echoing it (ack or error), and an ack
// comes last; no request ends in error "internal" or HTTP 500 (an exception the Hub did not
// expect); the seed of a game never appears in anything sent; the seed the store keeps is the
// one the harness handed out (so findings replay).
//
// The game seed normally comes from /dev/urandom, or is derived from the game's fair-play
// secret, which does. The harness is linked with --wrap=<new_seed> and
// --wrap=<draw_fair_secrets> (tests/fuzz/CMakeLists.txt), so both come from the input instead
// and a finding replays exactly. (The secret itself is revealed when a game is over; the
// integration tests check that it never gets out before.)
#include <signal.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fair_play.h"
#include "fuzz_support.h"
#include "hub.h"

namespace {

using nlohmann::json;
using namespace viktory;
using namespace viktory::server;

// ---------------------------------------------------------------- the seed handed out

std::uint64_t g_seed_state = 0;
std::vector<std::uint64_t> g_seeds;  // every seed handed out for this input

}  // namespace

// Replaces viktory::server::new_seed() (the linker's --wrap): deterministic per input.
extern "C" std::uint64_t __wrap__ZN7viktory6server8new_seedEv() {
  const std::uint64_t seed = viktory::fuzz::splitmix64(g_seed_state);
  g_seeds.push_back(seed);
  return seed;
}

// Replaces viktory::server::draw_fair_secrets() the same way. The seeds a game may derive from
// the secret (2..8 seats, no contributions, either random scheme) count as handed out. FairSecrets
// is plain bytes, returned the same way with C or C++ linkage.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wreturn-type-c-linkage"
extern "C" viktory::server::FairSecrets __wrap__ZN7viktory6server17draw_fair_secretsEv() {
  viktory::server::FairSecrets secrets;
  auto fill = [](auto& bytes) {
    for (std::size_t i = 0; i < bytes.size(); i += 8) {
      const std::uint64_t word = viktory::fuzz::splitmix64(g_seed_state);
      for (std::size_t k = 0; k < 8 && i + k < bytes.size(); ++k) {
        bytes[i + k] = static_cast<std::uint8_t>(word >> (8 * k));
      }
    }
  };
  fill(secrets.secret);
  fill(secrets.salt);
  // Both random schemes: games created now use scheme 2 (its own seed label), stored ones 1.
  for (std::size_t players = 2; players <= static_cast<std::size_t>(viktory::kMaxPlayers);
       ++players) {
    const std::vector<std::optional<viktory::protocol::fair::Contribution>> none(players);
    for (viktory::RandomScheme scheme :
         {viktory::RandomScheme::kSingleStream, viktory::RandomScheme::kStreams}) {
      g_seeds.push_back(viktory::protocol::fair::derive_seed(secrets.secret, none, scheme));
    }
  }
  return secrets;
}
#pragma clang diagnostic pop

namespace {

// ---------------------------------------------------------------- reading the input

class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool empty() const { return pos_ >= size_; }
  std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  std::size_t u16() {
    const std::size_t high = byte();
    return (high << 8) | byte();
  }
  std::string bytes(std::size_t n) {
    n = std::min(n, size_ - std::min(pos_, size_));
    std::string out(reinterpret_cast<const char*>(data_ + pos_), n);
    pos_ += n;
    return out;
  }
  std::string text() { return bytes(byte()); }      // up to 255 bytes
  std::string long_text() { return bytes(u16()); }  // up to 64 KiB - 1, as a WebSocket frame

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

// ---------------------------------------------------------------- clients

constexpr int kClients = 6;
// Bounds on the work per input, so that no input runs for long: every action is committed
// and sent to every watcher with a full view, and an API replay costs a view per action.
constexpr int kMaxSends = 160;
constexpr int kMaxApiCalls = 16;
bool g_trace = false;  // VIKTORY_FUZZ_TRACE=1: print every operation and message

struct Seen {  // what a client last saw of a game
  int seq = 0;
  json legal = json::array();
};

class Harness;

struct FakeClient : Client {
  FakeClient(Harness& h, int i) : harness(h), index(i) {}
  void deliver(Message message) override;
  void close(std::string_view) override { close_requested = true; }

  Harness& harness;
  int index;
  bool open = false;
  bool close_requested = false;
  std::string token;  // of the player this client signed up as
  std::map<std::int64_t, Seen> seen;
  // While a request with "req" is handled: the replies (ack or error) that echo it, and
  // whether an ack was followed by another message.
  std::optional<json> pending_req;
  int replies = 0;
  bool last_reply_was_ack = false;
  bool message_after_ack = false;
};

class Harness {
 public:
  explicit Harness(const std::string& db_path) : db_path_(db_path) {
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_path_ + suffix);
    for (int i = 0; i < kClients; ++i) clients_.push_back(std::make_unique<FakeClient>(*this, i));
    start_server();
  }
  ~Harness() {
    stop_server();
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_path_ + suffix);
  }

  void run(Input& in);
  void received(FakeClient& client, const std::string& text);

 private:
  void start_server() {
    store_ = std::make_unique<Store>(db_path_);
    // The file is scratch: durability would only slow the fuzzer down.
    store_->db().exec("PRAGMA synchronous=OFF");
    HubOptions options;
    options.room.snapshot_every = 4;  // snapshots, loading from them and undo across them
    options.room.log_keep = 8;
    options.room.chat_keep = 4;
    options.messages_per_second = 1e12;  // the rate limit depends on the clock: keep it out
    options.message_burst = 1e12;
    options.signups_per_minute = 1e12;
    hub_ = std::make_unique<Hub>(*store_, metrics_, options);
  }
  void stop_server() {
    for (auto& c : clients_) disconnect(*c);
    hub_.reset();
    store_.reset();
  }
  void connect(FakeClient& c) {
    if (c.open) disconnect(c);
    c.open = true;
    c.close_requested = false;
    c.seen.clear();
    hub_->on_open(&c);
  }
  void disconnect(FakeClient& c) {
    if (!c.open) return;
    c.open = false;
    hub_->on_close(&c);
  }
  void send(FakeClient& c, const std::string& text) {
    ++sends_;
    if (!c.open) connect(c);
    if (g_trace) std::fprintf(stderr, "client %d -> %s\n", c.index, text.c_str());
    // docs/protocol.md: a message with an integer "req" gets exactly one reply echoing it, an
    // error or an ack, and an ack comes after every message the request caused.
    const json sent = json::parse(text, nullptr, false);
    c.pending_req.reset();
    if (sent.is_object() && sent.contains("req") && sent["req"].is_number_integer()) {
      c.pending_req = sent["req"];
    }
    c.replies = 0;
    c.last_reply_was_ack = false;
    c.message_after_ack = false;
    hub_->on_message(&c, text);
    if (c.pending_req) {
      fuzz::require(c.replies == 1, "a request got " + std::to_string(c.replies) +
                                        " replies echoing its req: " + text.substr(0, 200));
      fuzz::require(!c.message_after_ack, "a message came after the ack: " + text.substr(0, 200));
      c.pending_req.reset();
    }
    if (c.close_requested) disconnect(c);  // what the WebSocket session does
    check_seeds();
  }
  void check_seeds() {
    for (std::int64_t id : seed_checks_due_) {
      const std::optional<GameRecord> stored = store_->game(id);
      fuzz::require(stored.has_value() &&
                        std::find(g_seeds.begin(), g_seeds.end(), stored->seed) != g_seeds.end(),
                    "the game's seed did not come from the harness: is new_seed wrapped?");
    }
    seed_checks_due_.clear();
  }
  // Text from the input may be invalid UTF-8, which nlohmann refuses to write: such bytes
  // become U+FFFD here (raw text, operation 3, sends them as they are).
  static std::string text_of(const json& message) {
    return message.dump(-1, ' ', false, json::error_handler_t::replace);
  }
  void send(FakeClient& c, const json& message) { send(c, text_of(message)); }
  ApiResponse api(std::string_view method, const std::string& target, const std::string& body,
                  const std::string& authorization, const std::string& address) {
    if (g_trace) {
      std::fprintf(stderr, "api %.*s %s %s\n", static_cast<int>(method.size()), method.data(),
                   target.c_str(), body.c_str());
    }
    ++api_calls_;
    ApiResponse r = hub_->handle_api(method, target, body, authorization, address);
    if (g_trace) std::fprintf(stderr, "api <- %d %s\n", r.status, r.body.c_str());
    fuzz::require(r.status != 500, "API answered 500: " + r.body);
    check_no_secret(r.body);
    fuzz::require(json::accept(r.body), "API answered something that is not JSON");
    return r;
  }
  void check_no_secret(const std::string& text) const {
    for (std::uint64_t seed : g_seeds) {
      char hex[17];
      std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(seed));
      fuzz::require(text.find(std::to_string(seed)) == std::string::npos &&
                        text.find(hex) == std::string::npos,
                    "a game seed was sent: " + text.substr(0, 200));
    }
  }

  FakeClient& client(Input& in) { return *clients_[in.byte() % kClients]; }
  std::int64_t game(Input& in) const {
    const std::uint8_t pick = in.byte();
    if (pick >= 0xf8) {  // an id no client was told about
      static constexpr std::array<std::int64_t, 8> kOdd = {
          0, -1, 999, std::int64_t{1} << 31, std::int64_t{1} << 53, INT64_MAX, INT64_MIN, 2};
      return kOdd[pick & 7];
    }
    return games_.empty() ? 1 : games_[pick % games_.size()];
  }
  std::string invite_for(std::int64_t game_id) const {
    auto it = invites_.find(game_id);
    return it == invites_.end() ? std::string() : it->second;
  }
  // One field of a message made wrong (mostly: none). A byte from 0xc0 up breaks a field; the
  // next byte chooses which field other than "type", and how: removed, or a wrong value.
  static void maybe_break(json& message, Input& in) {
    if (in.byte() < 0xc0) return;
    const std::uint8_t what = in.byte();
    std::vector<std::string> keys;
    for (const auto& item : message.items()) {
      if (item.key() != "type") keys.push_back(item.key());
    }
    if (keys.empty()) return;
    const std::string& key = keys[what % keys.size()];
    static const std::array<json, 8> kWrong = {json(nullptr),
                                               json("x"),
                                               json(-1),
                                               json(1.5),
                                               json::array(),
                                               json::object(),
                                               json(std::int64_t{1} << 40),
                                               json(true)};
    const std::size_t how = (what / keys.size()) % (kWrong.size() + 1);
    if (how == kWrong.size()) {
      message.erase(key);
    } else {
      message[key] = kWrong[how];
    }
  }

  void op_signup(FakeClient& c, Input& in) {
    const std::string name = in.text();
    const std::string body = (in.byte() & 1) ? name : text_of(json{{"name", name}});
    const ApiResponse r =
        api("POST", "/api/session", body, "", "10.0.0." + std::to_string(c.index));
    if (r.status == 200) c.token = json::parse(r.body)["token"];
  }
  void op_auth(FakeClient& c, Input& in) {
    const std::uint8_t how = in.byte();
    std::string token = c.token;
    if (how % 4 == 1) token = clients_[(how / 4) % kClients]->token;
    if (how % 4 == 2) token = std::string(64, 'a');
    if (how % 4 == 3) token = in.text();
    send(c, json{{"type", "auth"}, {"token", token}, {"req", how}});
  }
  void op_create(FakeClient& c, Input& in) {
    static constexpr std::array<const char*, 5> kVictory = {"standard", "shorter", "race",
                                                            "doomsday", "bogus"};
    static constexpr std::array<const char*, 4> kMix = {"standard", "land_rich", "islands", ""};
    const std::uint8_t seats = in.byte();
    const std::uint8_t flags = in.byte();
    json m{{"type", "game.create"},
           {"req", 1},
           {"seats", seats < 0xf0 ? 2 + seats % 5 : seats % 16 - 4},
           {"victory", kVictory[(flags & 7) % kVictory.size()]},
           {"tile_mix", kMix[(flags >> 3) % kMix.size()]},
           {"independent_exploration", (flags & 0x20) != 0},
           {"private", (flags & 0x40) != 0}};
    if (flags & 0x80) m["seat"] = in.byte() % 7;
    maybe_break(m, in);
    send(c, m);
  }
  void op_game(FakeClient& c, Input& in) {
    static constexpr std::array<const char*, 6> kTypes = {
        "game.join", "game.leave", "game.start", "game.watch", "game.unwatch", "chat.send"};
    const std::uint8_t pick = in.byte();
    const std::int64_t id = game(in);
    json m{{"type", kTypes[(pick & 7) % kTypes.size()]}, {"req", 2}, {"game_id", id}};
    if (pick & 0x08) m["invite"] = (pick & 0x10) ? invite_for(id) : "0123456789abcdef";
    if (m["type"] == "game.join" && (pick & 0x20)) m["seat"] = in.byte() % 7;
    if (m["type"] == "chat.send") m["text"] = in.text();
    maybe_break(m, in);
    send(c, m);
  }
  // A legal action the client was offered (pick % count), perhaps with one number shifted.
  void op_play(FakeClient& c, Input& in) {
    const std::int64_t id = game(in);
    const std::uint8_t pick = in.byte();
    const std::uint8_t tweak = in.byte();
    const Seen seen = c.seen.count(id) ? c.seen.at(id) : Seen{};
    json action =
        seen.legal.empty() ? json{{"kind", "end_phase"}} : seen.legal[pick % seen.legal.size()];
    if (tweak >= 0xe0) {
      const char* key = (tweak & 1) ? "unit" : "hex";
      if (action.contains(key))
        action[key] = action[key].get<int>() + static_cast<int>(tweak & 0x0f) - 8;
    }
    const int seq =
        seen.seq + ((tweak >= 0xd0 && tweak < 0xe0) ? static_cast<int>(tweak & 3) - 2 : 0);
    json m{{"type", "game.action"}, {"req", 3}, {"game_id", id}, {"seq", seq}, {"action", action}};
    maybe_break(m, in);
    send(c, m);
  }
  void op_undo(FakeClient& c, Input& in) {
    const std::int64_t id = game(in);
    const std::uint8_t tweak = in.byte();
    const int seq = (c.seen.count(id) ? c.seen.at(id).seq : 0) + (tweak & 3) - (tweak >> 7);
    send(c, json{{"type", "game.undo"}, {"req", 4}, {"game_id", id}, {"seq", seq}});
  }
  // Up to 64 actions of a game, each by the client that is offered more than "concede",
  // chosen by a generator seeded from the input: reaches the middle of a game cheaply.
  void op_autoplay(Input& in) {
    const std::int64_t id = game(in);
    const int steps = 1 + in.byte() % 64;
    std::uint64_t chooser = in.byte();
    for (int step = 0; step < steps && sends_ < kMaxSends; ++step) {
      FakeClient* mover = nullptr;
      for (auto& c : clients_) {
        auto it = c->seen.find(id);
        if (c->open && it != c->seen.end() && it->second.legal.size() > 1) {
          mover = c.get();
          break;
        }
      }
      if (mover == nullptr) return;
      const Seen& seen = mover->seen.at(id);
      const json action = seen.legal[fuzz::splitmix64(chooser) % (seen.legal.size() - 1)];
      send(*mover,
           json{{"type", "game.action"}, {"game_id", id}, {"seq", seen.seq}, {"action", action}});
    }
  }
  void op_api(FakeClient& c, Input& in) {
    const std::uint8_t what = in.byte();
    const std::uint8_t who = in.byte();
    const std::string id = std::to_string(game(in));
    std::string target;
    switch (what % 8) {
      case 0:
        target = "/api/games";
        break;
      case 1:
        target = "/api/my-games";
        break;
      case 2:
        target = "/api/games/" + id;
        break;
      case 3:
        target = "/api/games/" + id + "/replay";
        break;
      case 4:
        target = "/api/games/" + id + "/replay?seat=" + std::to_string(who % 7);
        break;
      case 5:
        target = "/api/games/" + id + "?invite=" + invite_for(std::stoll(id));
        break;
      case 6:
        target = "/api/games/" + id + "/replay?invite=" + invite_for(std::stoll(id));
        break;
      default:
        target = in.text();
        break;
    }
    std::string authorization;
    if (who % 4 == 1) authorization = "Bearer " + c.token;
    if (who % 4 == 2) authorization = "Bearer " + clients_[(who / 4) % kClients]->token;
    if (who % 4 == 3) authorization = "Bearer " + std::string(64, '0');
    const char* method = (what & 0x80) ? "DELETE" : "GET";
    api(method, target, "", authorization, "10.0.0." + std::to_string(c.index));
  }
  void op_misc(FakeClient& c, Input& in) {
    static constexpr std::array<const char*, 6> kTypes = {
        "ping", "lobby.subscribe", "lobby.unsubscribe", "my_games", "game.nonsense", ""};
    const std::uint8_t pick = in.byte();
    json m{{"type", kTypes[pick % kTypes.size()]}, {"req", 5}};
    maybe_break(m, in);
    send(c, m);
  }

  std::string db_path_;
  Metrics metrics_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<Hub> hub_;
  std::vector<std::unique_ptr<FakeClient>> clients_;
  std::vector<std::int64_t> games_;              // every game id a client was told about
  std::map<std::int64_t, std::string> invites_;  // invite codes the creators were given
  int sends_ = 0;                                // messages sent in this input
  int api_calls_ = 0;                            // API calls made in this input
  std::vector<std::int64_t> seed_checked_;       // running games whose stored seed was checked
  std::vector<std::int64_t> seed_checks_due_;    // ... or is to be checked
};

void FakeClient::deliver(Message message) { harness.received(*this, *message); }

void Harness::received(FakeClient& client, const std::string& text) {
  if (g_trace) std::fprintf(stderr, "client %d <- %.300s\n", client.index, text.c_str());
  check_no_secret(text);
  // The view is big and not needed here: it is checked as JSON but not kept.
  const json m = json::parse(
      text,
      [](int depth, json::parse_event_t event, json& parsed) {
        return !(depth == 1 && event == json::parse_event_t::key && parsed == "view");
      },
      false);
  fuzz::require(!m.is_discarded() && m.is_object() && m.contains("type") && m["type"].is_string(),
                "a message that is not a JSON object with a type: " + text.substr(0, 200));
  const std::string type = m["type"];
  if (client.pending_req) {
    if (client.last_reply_was_ack) client.message_after_ack = true;
    if ((type == "ack" || type == "error") && m.contains("req") &&
        m["req"] == *client.pending_req) {
      ++client.replies;
      client.last_reply_was_ack = type == "ack";
    }
  }
  const auto id_it = m.find("game_id");
  if (id_it == m.end() || !id_it->is_number_integer()) return;
  const std::int64_t id = id_it->get<std::int64_t>();
  if (std::find(games_.begin(), games_.end(), id) == games_.end()) games_.push_back(id);
  if (type == "game.created" && m.contains("invite")) invites_[id] = m["invite"];
  if (type == "game.state" || type == "game.update") {
    Seen& seen = client.seen[id];
    seen.seq = m["seq"];
    seen.legal = m["legal"];
    // Checked once the Hub returns: a subscriber must not call into the server meanwhile.
    if (std::find(seed_checked_.begin(), seed_checked_.end(), id) == seed_checked_.end()) {
      seed_checked_.push_back(id);
      seed_checks_due_.push_back(id);
    }
  }
}

void Harness::run(Input& in) {
  g_seed_state = in.byte();
  while (!in.empty() && sends_ < kMaxSends && api_calls_ < kMaxApiCalls) {
    const std::uint8_t op = in.byte();
    switch (op % 13) {
      case 0:
        connect(client(in));
        break;
      case 1: {
        FakeClient& c = client(in);
        op_signup(c, in);
        break;
      }
      case 2: {
        FakeClient& c = client(in);
        op_auth(c, in);
        break;
      }
      case 3: {
        FakeClient& c = client(in);
        send(c, in.long_text());
        break;
      }
      case 4: {
        FakeClient& c = client(in);
        op_create(c, in);
        break;
      }
      case 5: {
        FakeClient& c = client(in);
        op_game(c, in);
        break;
      }
      case 6: {
        FakeClient& c = client(in);
        op_play(c, in);
        break;
      }
      case 7: {
        FakeClient& c = client(in);
        op_undo(c, in);
        break;
      }
      case 8: {
        FakeClient& c = client(in);
        op_api(c, in);
        break;
      }
      case 9:
        disconnect(client(in));
        break;
      case 10:
        stop_server();
        start_server();
        break;  // a restart: everything from the file
      case 11:
        op_autoplay(in);
        break;
      default: {
        FakeClient& c = client(in);
        op_misc(c, in);
        break;
      }
    }
  }
}

std::string g_db_path;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  spdlog::set_level(spdlog::level::off);
  g_trace = std::getenv("VIKTORY_FUZZ_TRACE") != nullptr;
  // A RAM disk when there is one: the store writes on every action.
  const std::filesystem::path base = std::filesystem::exists("/dev/shm")
                                         ? std::filesystem::path("/dev/shm")
                                         : std::filesystem::temp_directory_path();
  // A run that ended in a finding (abort) left its folder behind: remove those whose process
  // is gone.
  constexpr std::string_view kPrefix = "viktory-hub-fuzz-";
  std::error_code ignored;
  for (const auto& entry : std::filesystem::directory_iterator(base, ignored)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(kPrefix, 0) != 0) continue;
    const long pid = std::strtol(name.c_str() + kPrefix.size(), nullptr, 10);
    if (pid > 0 && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
      std::filesystem::remove_all(entry.path(), ignored);
    }
  }
  std::filesystem::path dir = base / (std::string(kPrefix) + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  g_db_path = (dir / "hub.db").string();
  std::atexit([] {
    std::error_code ignored;
    std::filesystem::remove_all(std::filesystem::path(g_db_path).parent_path(), ignored);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  g_seeds.clear();
  Input in(data, size);
  Harness harness(g_db_path);
  harness.run(in);
  return 0;
}
