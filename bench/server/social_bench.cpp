// The social reads of issue 22 at their caps (docs/performance.md, "Friends, unread chat and
// export"): GET /api/friends for a player who follows 500 players, "your games" (my_games) with
// the unread chat counts of 150 games, and the account export of a player with 2,000 games and
// 5,000 chat lines. Each database holds 1,000 or 20,000 finished background games of 2 to 6
// players among 200 players (as records_bench), and besides them the subjects' own games.
//
//   build/bench/server/social_bench --benchmark_repetitions=5
#include <benchmark/benchmark.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "account_export.h"
#include "action.h"
#include "chat_comforts.h"
#include "hub.h"
#include "player_records.h"
#include "presence.h"
#include "store.h"
#include "token.h"

namespace {

using namespace viktory;
using namespace viktory::server;
using nlohmann::json;

constexpr int kBackgroundPlayers = 200;
constexpr int kFollowedPlayedWith = 250;  // followed players he played one game with
constexpr int kFollowedStrangers = 250;   // followed players he never played with
constexpr int kMyGamesRunning = 100;      // HubOptions::my_games_active
constexpr int kMyGamesFinished = 50;      // HubOptions::my_games_finished
constexpr int kChatPerGame = 200;         // the players' lines of each of those games
constexpr int kExportGames = 2000;        // ExportLimits::max_games
constexpr int kExportChat = 5000;         // ExportLimits::max_chat_lines
constexpr const char* kConditions[] = {"standard", "shorter", "race", "doomsday", "subjugation"};
constexpr const char* kPrivacy[] = {"everyone", "opponents", "nobody"};

struct Signed {
  PlayerRecord record;
  std::string token;
};

// The database (filled with synchronous off: the figures are of the reads), a Hub over it and
// the subjects: `follower` (friends), `unread` and `read` (seated in the same 150 games, one
// with every line unread, one with all read), `exporter`.
struct Social {
  std::filesystem::path dir;
  std::unique_ptr<Store> store;
  Metrics metrics;
  Presence presence;
  std::unique_ptr<Hub> hub;
  std::mt19937 rng{11};
  std::int64_t clock = 1000;
  std::vector<PlayerRecord> pool;
  Signed follower, unread, read, writer, exporter;

  Signed player(const std::string& name) {
    const std::string token = new_token();
    return Signed{store->create_player(name, token_hash(token), 1), token};
  }

  // One game of `seats` (their order is the seats'); finished (rated, a random winner) or left
  // running. Its id.
  std::int64_t game(const std::vector<PlayerRecord>& seats, bool finished) {
    const int n = static_cast<int>(seats.size());
    GameRecord g;
    g.options.players = n;
    g.created = ++clock;
    g.rated = true;
    g.is_private = rng() % 10 == 9;
    g.creator = seats[0];
    for (int s = 0; s < n; ++s) g.seats.push_back(SeatRecord{s, seats[s].id, seats[s].name, ""});
    store->create_game(g);
    g.status = GameStatus::kRunning;
    store->start_game(g);
    if (!finished) return g.id;
    ActionCommit c;
    c.game_id = g.id;
    c.record = ActionRecord{1, act::concede(0), false, 3 * n, ++clock, ActionSource::kPlayer};
    const int winner = static_cast<int>(rng() % n);
    c.finished = json{{"winners", {winner}}, {"ended_by", kConditions[rng() % 5]}};
    c.places.places.assign(n, 2);
    c.places.places[winner] = 1;
    c.places.first_round_complete = true;
    store->commit_action_direct(c);
    return g.id;
  }

  void chat(std::int64_t game_id, const PlayerRecord& who, int seat, std::size_t length) {
    std::string text(length, 'x');
    for (char& ch : text) ch = static_cast<char>('a' + rng() % 26);
    store->add_chat(game_id, ChatRecord{++clock, who.id, seat, who.name, text});
  }

  explicit Social(int background_games) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "viktory-social-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) std::abort();
    dir = pattern;
    store = std::make_unique<Store>((dir / "social.db").string());
    store->db().exec("PRAGMA synchronous = OFF");
    HubOptions options;
    options.presence = &presence;
    hub = std::make_unique<Hub>(*store, metrics, options);

    // The background: finished games among 200 players, the follower one of them.
    follower = player("Follower");
    pool.push_back(follower.record);
    for (int p = 1; p < kBackgroundPlayers; ++p)
      pool.push_back(player("P" + std::to_string(p)).record);
    for (int i = 0; i < background_games; ++i) {
      const int n = 2 + static_cast<int>(rng() % 5);
      std::vector<PlayerRecord> seats;
      while (static_cast<int>(seats.size()) < n) {
        const PlayerRecord& p = pool[rng() % pool.size()];
        if (std::none_of(seats.begin(), seats.end(), [&](auto& s) { return s.id == p.id; })) {
          seats.push_back(p);
        }
      }
      game(seats, true);
    }

    // The followed: 250 he played one game with, 250 he never met; privacy and presence mixed.
    std::vector<PlayerRecord> followed;
    for (int i = 0; i < kFollowedPlayedWith + kFollowedStrangers; ++i) {
      followed.push_back(
          player("F" + std::to_string(rng() % 100000) + "_" + std::to_string(i)).record);
    }
    for (int i = 0; i < kFollowedPlayedWith; ++i) {
      game(rng() % 2 ? std::vector{follower.record, followed[i]}
                     : std::vector{followed[i], follower.record},
           true);
    }
    std::shuffle(followed.begin(), followed.end(), rng);
    for (const PlayerRecord& f : followed) {
      store->db()
          .cached("INSERT INTO follows(follower, followee, since) VALUES(?, ?, ?)")
          .bind(1, follower.record.id)
          .bind(2, f.id)
          .bind(3, ++clock)
          .run();
      store->db()
          .cached("INSERT INTO profile_privacy(player_id, visible_to) VALUES(?, ?)")
          .bind(1, f.id)
          .bind(2, std::string(kPrivacy[rng() % 3]))
          .run();
      const unsigned state = rng() % 3;  // online, seen earlier, never seen
      if (state < 2) presence.connected(f.id);
      if (state == 1) presence.disconnected(f.id);
    }

    // "Your games": 100 running and 50 finished games of three, the writer's 200 lines in each
    // (interleaved across the games, as they come); `read` has read them all.
    unread = player("Unread");
    read = player("Read");
    writer = player("Writer");
    std::vector<std::int64_t> mine;
    for (int i = 0; i < kMyGamesRunning + kMyGamesFinished; ++i) {
      mine.push_back(game({unread.record, read.record, writer.record}, i >= kMyGamesRunning));
    }
    for (int line = 0; line < kChatPerGame; ++line) {
      for (const std::int64_t id : mine) chat(id, writer.record, 2, 1 + rng() % 120);
    }
    for (const std::int64_t id : mine) {
      mark_chat_read(*store, read.record.id, id, std::numeric_limits<std::int64_t>::max());
    }

    // The export: 2,000 finished rated games of two against background players, and 5,000 of
    // his lines (1 to 500 characters) spread over them.
    exporter = player("Exporter");
    std::vector<std::int64_t> exported;
    for (int i = 0; i < kExportGames; ++i) {
      const PlayerRecord& other = pool[1 + rng() % (pool.size() - 1)];
      const bool first = rng() % 2 == 0;
      exported.push_back(game(
          first ? std::vector{exporter.record, other} : std::vector{other, exporter.record}, true));
    }
    for (int i = 0; i < kExportChat; ++i) {
      chat(exported[rng() % exported.size()], exporter.record, 0, 1 + rng() % 500);
    }
  }
  ~Social() {
    hub.reset();
    store.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

Social& social(int games) {
  static std::map<int, std::unique_ptr<Social>> made;
  auto& s = made[games];
  if (!s) s = std::make_unique<Social>(games);
  return *s;
}

// Through the Hub's HTTP handler (no address: no bucket is charged), as the server serves it.
void api(benchmark::State& state, const std::string& path, Signed Social::*who) {
  Social& s = social(static_cast<int>(state.range(0)));
  const std::string authorization = "Bearer " + (s.*who).token;
  std::size_t bytes = 0;
  for (auto _ : state) {
    const ApiResponse a = s.hub->handle_api("GET", path, "", authorization, "");
    if (a.status != 200) state.SkipWithError(a.body.c_str());
    bytes = a.body.size();
    benchmark::DoNotOptimize(a);
  }
  state.counters["answer_bytes"] = static_cast<double>(bytes);
}

void BM_Friends(benchmark::State& state) { api(state, "/api/friends", &Social::follower); }
void BM_MyGamesUnread(benchmark::State& state) { api(state, "/api/my-games", &Social::unread); }
void BM_MyGamesAllRead(benchmark::State& state) { api(state, "/api/my-games", &Social::read); }

// The export as Hub::export_account_api builds it (its bucket allows one per 10 minutes).
void BM_Export(benchmark::State& state) {
  Social& s = social(static_cast<int>(state.range(0)));
  std::size_t bytes = 0;
  json document;
  for (auto _ : state) {
    s.store->with_reader([&](Database& db) {
      document = export_account(db, s.exporter.record.id, ExportLimits{}, now_ms());
    });
    const std::string body = document.dump(2, ' ', false, json::error_handler_t::replace);
    bytes = body.size();
    benchmark::DoNotOptimize(body);
  }
  state.counters["answer_bytes"] = static_cast<double>(bytes);
  state.counters["games"] = static_cast<double>(document["games"].size());
  state.counters["history_rows"] = static_cast<double>(document["rating_history"].size());
  state.counters["chat_lines"] = static_cast<double>(document["chat"].size());
}

BENCHMARK(BM_Friends)->Arg(1000)->Arg(20000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MyGamesUnread)->Arg(1000)->Arg(20000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MyGamesAllRead)->Arg(1000)->Arg(20000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Export)->Arg(1000)->Arg(20000)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  spdlog::set_level(spdlog::level::warn);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
