// viktory-loadgen: plays N concurrent games of bots (random legal actions) over real WebSockets
// against a running viktory-server on loopback, and reports actions per second and the latency
// from sending an action to every player of that game having been told about it.
//
// Loopback only, bounded in games, actions and time: it stops by itself.
#include <unistd.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstdio>
#include <deque>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "fair.h"
#include "view_delta.h"

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
  int port = 8080;
  int games = 10;
  int actions = 200;
  int players = 2;
  int timeout_seconds = 120;
  unsigned seed = 1;
  int server_pid = 0;  // whose CPU time (utime+stime from /proc) the window is charged with
  // Each bot waits this long (uniformly 0.5x to 1.5x, so games do not move in lockstep) before
  // it sends its action: players who think, for latency at a given rate rather than under
  // saturation. The latency is measured from the send, not from the start of the wait.
  int think_ms = 0;
};

// CPU seconds (user + system) the process has used so far; 0 without a pid.
double process_cpu_seconds(int pid) {
  if (pid <= 0) return 0;
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(stat.substr(close + 2));
  std::string field;
  double ticks = 0;
  for (int i = 0; i < 13 && fields >> field; ++i) {
    if (i == 11 || i == 12) ticks += std::stod(field);  // utime, stime (fields 14 and 15)
  }
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

// What is counted only while every game is playing (from the moment the last game was set up,
// so sign-ups, creates and joins are not charged to the actions).
struct Stats {
  bool measuring = false;
  std::vector<double> latencies_ms;
  long actions = 0;
  long errors = 0;
  long messages = 0;
  long bytes = 0;
  int games_playing = 0;
  std::function<void()> on_all_done;  // when the last game is done: the window ends
};

// Starts every game at once when the last one is set up (games set up while others already
// play would charge the set-up to the actions, and starve it).
struct StartLine {
  int games = 0;
  int ready = 0;
  std::vector<std::function<void()>> starters;
  std::function<void()> on_start;
  void arrive(std::function<void()> starter) {
    starters.push_back(std::move(starter));
    if (++ready < games) return;
    on_start();
    for (auto& start : starters) start();
  }
};

std::string sign_up(int port, const std::string& name) {
  net::io_context ioc;
  beast::tcp_stream stream(ioc);
  stream.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"),
                                        static_cast<unsigned short>(port)));
  http::request<http::string_body> req{http::verb::post, "/api/session", 11};
  req.set(http::field::host, "127.0.0.1");
  req.set(http::field::content_type, "application/json");
  req.body() = json{{"name", name}}.dump();
  req.prepare_payload();
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(stream, buffer, res);
  if (res.result() != http::status::ok) throw std::runtime_error("sign-up failed: " + res.body());
  return json::parse(res.body()).at("token");
}

class Game;

// One player's connection.
class Bot : public std::enable_shared_from_this<Bot> {
 public:
  Bot(net::io_context& ioc, Game& game, int index, std::string token)
      : ws_(net::make_strand(ioc)), game_(game), index_(index), token_(std::move(token)) {}

  void start(int port);
  void send(const json& message);
  void close() {
    if (closed_) return;
    closed_ = true;
    ws_.async_close(websocket::close_code::normal,
                    [self = shared_from_this()](beast::error_code) {});
  }
  int index() const { return index_; }
  auto executor() { return ws_.get_executor(); }

 private:
  void read();
  void write();

  websocket::stream<beast::tcp_stream> ws_;
  Game& game_;
  int index_;
  std::string token_;
  beast::flat_buffer buffer_;
  std::deque<std::string> outbox_;
  bool writing_ = false;
  bool closed_ = false;
};

// One game: its bots, its seq and the send time of the pending action.
class Game {
 public:
  Game(int number, const Options& options, Stats& stats, StartLine& start_line, std::mt19937& rng)
      : number_(number), options_(options), stats_(stats), start_line_(start_line), rng_(rng) {}

  std::vector<std::shared_ptr<Bot>> bots;
  bool done = false;

  void on_message(Bot& bot, const std::string& text);

 private:
  void act(Bot& bot, const json& update);
  void send_action(Bot& bot, int seq, const json& pick);
  void finish() {
    if (done) return;
    done = true;
    if (--stats_.games_playing == 0 && stats_.on_all_done) stats_.on_all_done();
    for (auto& b : bots) b->close();
  }

  int number_;
  const Options& options_;
  Stats& stats_;
  StartLine& start_line_;
  std::mt19937& rng_;
  std::int64_t game_id_ = -1;
  int welcomed_ = 0;  // bots whose sign-in was answered
  int ready_ = 0;
  std::map<int, int> seat_of_bot_;
  std::map<int, json> first_state_;
  std::map<int, json> view_of_bot_;  // each bot's view, kept up to date by the updates' deltas
  struct Pending {
    Clock::time_point sent_at;
    int told = 0;  // bots that got the update so far
  };
  std::map<int, Pending> pending_;  // by the seq of the update we wait for
  int sent_ = 0;
  bool thinking_ = false;  // an action is chosen and waits for its think time
};

void Bot::start(int port) {
  auto self = shared_from_this();
  beast::get_lowest_layer(ws_).async_connect(
      net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)),
      [self, port](beast::error_code ec) {
        if (ec) throw std::runtime_error("connect: " + ec.message());
        beast::get_lowest_layer(self->ws_).socket().set_option(net::ip::tcp::no_delay(true));
        self->ws_.read_message_max(16 * 1024 * 1024);
        self->ws_.async_handshake("127.0.0.1:" + std::to_string(port), "/ws",
                                  [self](beast::error_code hec) {
                                    if (hec)
                                      throw std::runtime_error("handshake: " + hec.message());
                                    self->send(json{{"type", "auth"}, {"token", self->token_}});
                                    self->read();
                                  });
      });
}

void Bot::send(const json& message) {
  net::post(ws_.get_executor(), [self = shared_from_this(), text = message.dump()] {
    if (self->closed_) return;
    self->outbox_.push_back(text);
    self->write();
  });
}

void Bot::write() {
  if (writing_ || outbox_.empty()) return;
  writing_ = true;
  ws_.async_write(net::buffer(outbox_.front()),
                  [self = shared_from_this()](beast::error_code ec, std::size_t) {
                    self->writing_ = false;
                    self->outbox_.pop_front();
                    if (!ec) self->write();
                  });
}

void Bot::read() {
  ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
    if (ec) return;
    std::string text = beast::buffers_to_string(self->buffer_.data());
    self->buffer_.consume(self->buffer_.size());
    self->game_.on_message(*self, text);
    self->read();
  });
}

void Game::on_message(Bot& bot, const std::string& text) {
  if (done) return;
  if (stats_.measuring) {
    ++stats_.messages;
    stats_.bytes += static_cast<long>(text.size());
  }
  const json m = json::parse(text);
  const std::string type = m.value("type", "");
  if (type == "error") {
    ++stats_.errors;
    std::cerr << "game " << number_ << ": error " << m.dump() << "\n";
    finish();
    return;
  }
  if (type == "welcome") {
    // Only once every bot is signed in: a game.join sent before its sender's sign-in was
    // answered would be refused (not_authenticated) or, worse, race it.
    if (++welcomed_ == static_cast<int>(bots.size())) {
      bots.front()->send(json{{"type", "game.create"}, {"seats", options_.players}});
    }
    return;
  }
  if (type == "game.created") {
    game_id_ = m["game_id"];
    for (auto& other : bots) {
      if (other.get() != &bot) other->send(json{{"type", "game.join"}, {"game_id", game_id_}});
    }
    return;
  }
  // Fair play's reveal round (docs/fair-play.md), answered as a browser does: a commitment when
  // asked, then the contribution. Made from the game's and the bot's numbers: no secret here.
  if (type == "game.commit_request" || type == "game.reveal_request") {
    viktory::protocol::fair::Contribution contribution{};
    contribution.fill(static_cast<std::uint8_t>(bot.index()));
    contribution[0] = static_cast<std::uint8_t>(number_);
    contribution[1] = static_cast<std::uint8_t>(number_ >> 8);
    if (type == "game.commit_request") {
      bot.send(json{{"type", "game.commit"},
                    {"game_id", m["game_id"]},
                    {"contribution_commitment",
                     viktory::protocol::fair::to_hex(
                         viktory::protocol::fair::contribution_commitment(contribution))}});
    } else {
      bot.send(json{{"type", "game.contribute"},
                    {"game_id", m["game_id"]},
                    {"contribution", viktory::protocol::fair::to_hex(contribution)}});
    }
    return;
  }
  if (type == "game.state") {
    game_id_ = m["game_id"];
    seat_of_bot_[bot.index()] = m["you"]["seat"];
    first_state_[bot.index()] = m;
    view_of_bot_[bot.index()] = m["view"];
    if (++ready_ == static_cast<int>(bots.size())) {
      // Everyone is in: when every game is, the decider starts, from his own state (legal
      // actions are per seat).
      start_line_.arrive([this] {
        for (auto& b : bots) {
          const json& mine = first_state_[b->index()];
          if (mine["you"]["seat"] == mine["view"]["decider"]) act(*b, mine);
        }
      });
    }
    return;
  }
  if (type == "game.update") {
    const int seq = m["seq"];
    // As a browser does: the whole view when sent, else the delta applied to the one held.
    json& view = view_of_bot_[bot.index()];
    view = m.contains("view") ? m["view"]
                              : viktory::protocol::apply_view_delta(std::move(view), m["delta"]);
    auto it = pending_.find(seq);
    if (it != pending_.end() && ++it->second.told == static_cast<int>(bots.size())) {
      if (stats_.measuring) {
        stats_.latencies_ms.push_back(
            std::chrono::duration<double, std::milli>(Clock::now() - it->second.sent_at).count());
        ++stats_.actions;
      }
      pending_.erase(it);
    }
    if (view["phase"] == "game_over" || sent_ >= options_.actions) {
      if (pending_.empty() && !thinking_) finish();
      return;
    }
    if (view["decider"] == seat_of_bot_[bot.index()]) act(bot, m);
  }
}

void Game::act(Bot& bot, const json& update) {
  std::vector<json> options;
  for (const json& a : update["legal"]) {
    if (a["kind"] != "concede") options.push_back(a);
  }
  if (options.empty()) {
    finish();
    return;
  }
  const json pick =
      options[std::uniform_int_distribution<std::size_t>(0, options.size() - 1)(rng_)];
  const int seq = update["seq"];
  ++sent_;  // counted at once, so an update arriving while he thinks does not end the game early
  if (options_.think_ms <= 0) {
    send_action(bot, seq, pick);
    return;
  }
  const int wait_ms =
      std::uniform_int_distribution<int>(options_.think_ms / 2, options_.think_ms * 3 / 2)(rng_);
  thinking_ = true;
  auto timer =
      std::make_shared<net::steady_timer>(bot.executor(), std::chrono::milliseconds(wait_ms));
  timer->async_wait([this, timer, self = bot.shared_from_this(), seq, pick](beast::error_code ec) {
    if (!ec && !done) send_action(*self, seq, pick);
  });
}

void Game::send_action(Bot& bot, int seq, const json& pick) {
  thinking_ = false;
  pending_[seq + 1] = Pending{Clock::now(), 0};
  bot.send(json{{"type", "game.action"}, {"game_id", game_id_}, {"seq", seq}, {"action", pick}});
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t i = std::min(v.size() - 1, static_cast<std::size_t>(p * (v.size() - 1) + 0.5));
  return v[i];
}

int usage(int code) {
  std::cout << "viktory-loadgen: bots play N concurrent games against viktory-server on loopback\n"
               "  --port N       server port on 127.0.0.1 (default 8080)\n"
               "  --games N      concurrent games (default 10, at most 500)\n"
               "  --actions M    actions per game (default 200, at most 10000)\n"
               "  --players P    seats per game, 2..6 (default 2)\n"
               "  --timeout S    stop after S seconds whatever happens (default 120, at most 600)\n"
               "  --seed N       bots' random seed (default 1)\n"
               "  --server-pid N the server's process: its CPU time over the run is reported\n"
               "  --think-ms N   each bot thinks about N ms (0.5N..1.5N) before acting (default\n"
               "                 0: at once, which saturates the server and measures queueing)\n"
               "Start the server with --max-connections-per-address >= games * players,\n"
               "--signups-per-minute >= games * players and --rate-limit 100000.\n";
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help") return usage(0);
    if (i + 1 >= argc) return usage(2);
    const int v = std::atoi(argv[++i]);
    if (flag == "--port")
      o.port = v;
    else if (flag == "--games")
      o.games = std::clamp(v, 1, 500);
    else if (flag == "--actions")
      o.actions = std::clamp(v, 1, 10000);
    else if (flag == "--players")
      o.players = std::clamp(v, 2, 6);
    else if (flag == "--timeout")
      o.timeout_seconds = std::clamp(v, 1, 600);
    else if (flag == "--seed")
      o.seed = static_cast<unsigned>(v);
    else if (flag == "--server-pid")
      o.server_pid = v;
    else if (flag == "--think-ms")
      o.think_ms = std::clamp(v, 0, 60000);
    else
      return usage(2);
  }

  Stats stats;
  std::mt19937 rng(o.seed);
  net::io_context ioc(1);
  std::vector<std::unique_ptr<Game>> games;
  StartLine start_line;
  start_line.games = o.games;
  Clock::time_point start;
  double cpu_at_start = 0;
  start_line.on_start = [&] {
    stats.measuring = true;
    start = Clock::now();
    cpu_at_start = process_cpu_seconds(o.server_pid);
  };
  stats.games_playing = o.games;
  Clock::time_point end;
  double cpu_at_end = 0;
  stats.on_all_done = [&] {
    end = Clock::now();
    cpu_at_end = process_cpu_seconds(o.server_pid);
    stats.measuring = false;
  };
  try {
    for (int g = 0; g < o.games; ++g) {
      games.push_back(std::make_unique<Game>(g, o, stats, start_line, rng));
      for (int p = 0; p < o.players; ++p) {
        const std::string token =
            sign_up(o.port, "bot" + std::to_string(g) + "-" + std::to_string(p));
        games.back()->bots.push_back(std::make_shared<Bot>(ioc, *games.back(), p, token));
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "viktory-loadgen: " << e.what() << "\n";
    return 1;
  }
  for (auto& g : games) {
    for (auto& b : g->bots) b->start(o.port);
  }
  net::steady_timer deadline(ioc, std::chrono::seconds(o.timeout_seconds));
  deadline.async_wait([&](beast::error_code ec) {
    if (!ec) {
      std::cerr << "viktory-loadgen: time limit reached\n";
      ioc.stop();
    }
  });
  // Stop the timer once every game is done so run() returns.
  std::function<void()> poll;
  net::steady_timer watcher(ioc);
  poll = [&] {
    watcher.expires_after(std::chrono::milliseconds(50));
    watcher.async_wait([&](beast::error_code ec) {
      if (ec) return;
      if (std::all_of(games.begin(), games.end(), [](auto& g) { return g->done; })) {
        deadline.cancel();
        return;
      }

      poll();
    });
  };
  poll();
  try {
    ioc.run();
  } catch (const std::exception& e) {
    std::cerr << "viktory-loadgen: " << e.what() << "\n";
    return 1;
  }
  if (stats.measuring) stats.on_all_done();  // the time limit ended the run
  const double seconds = std::chrono::duration<double>(end - start).count();
  const double server_cpu = cpu_at_end - cpu_at_start;
  std::printf("games %d x %d players, %ld actions in %.2f s: %.1f actions/s\n", o.games, o.players,
              stats.actions, seconds, stats.actions / seconds);
  std::printf(
      "latency (action sent -> every player told) ms: p50 %.2f p90 %.2f p99 %.2f max %.2f\n",
      percentile(stats.latencies_ms, 0.5), percentile(stats.latencies_ms, 0.9),
      percentile(stats.latencies_ms, 0.99), percentile(stats.latencies_ms, 1.0));
  std::printf("messages %ld, %.1f KiB received per message, errors %ld\n", stats.messages,
              stats.messages ? stats.bytes / 1024.0 / stats.messages : 0.0, stats.errors);
  const double actions = static_cast<double>(stats.actions);
  std::printf(
      "RESULT {\"system\":\"viktory\",\"games\":%d,\"players\":%d,\"actions\":%ld,"
      "\"seconds\":%.2f,\"actions_per_s\":%.1f,\"p50_ms\":%.2f,\"p99_ms\":%.2f,"
      "\"server_cpu_s\":%.2f,\"cpu_s_per_1000_actions\":%.3f,"
      "\"bytes_per_seat_per_action\":%.0f,\"errors\":%ld}\n",
      o.games, o.players, stats.actions, seconds, seconds > 0 ? actions / seconds : 0.0,
      percentile(stats.latencies_ms, 0.5), percentile(stats.latencies_ms, 0.99), server_cpu,
      actions > 0 ? server_cpu / actions * 1000 : 0.0,
      actions > 0 ? static_cast<double>(stats.bytes) / actions / o.players : 0.0, stats.errors);
  return stats.errors == 0 && stats.actions > 0 ? 0 : 1;
}
