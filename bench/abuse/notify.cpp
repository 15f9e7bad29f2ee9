// Scenario "notify": one player's dead push endpoints and fast play against an honest player's
// push delivery and account mails (issue 19).
//
// The bench runs a local push receiver (answers 201 to every push), ten blackhole endpoints
// (accept TCP, never answer: what a dead push service looks like until the 30 s transfer
// timeout) and an SMTP sink, and starts the server with them (--smtp-url,
// --allow-private-endpoints).
//
// Attack: `pairs` (default 1) pairs of accounts, each account from an address of its own with
// `subscriptions` (default 10) push subscriptions to the blackholes, play a game against each
// other as fast as the rate limit lets them (an action every 40 ms): every change of whose turn
// it is sends a push to each dead endpoint.
// Honest: Alice and Bob play at a person's pace; Bob's browser is subscribed at the push
// receiver. After each change that makes Bob the one to act (and the start), Bob waits (at
// most `wait_s`, default 10 s) until every push so far has arrived: the count in time and the
// latency from sending the action to the push's arrival; then how many arrived at all within
// 40 s after the run. Meanwhile a new player every 2 s asks to confirm his own address:
// those mails are counted and timed at the SMTP sink.
#include <atomic>
#include <mutex>
#include <thread>

#include "abuse.h"
#include "base64url.h"
#include "ec_key.h"
#include "support/loopback_server.h"
#include "table.h"

namespace viktory::abuse {
namespace {

using nlohmann::json;
using viktory::server::testing::http_request;
namespace local = viktory::notify::testing;

struct Services {
  local::HttpReceiver push_receiver;
  std::vector<std::unique_ptr<local::Blackhole>> dead;
  local::SmtpSink sink{local::SmtpSinkOptions{}};
  Services() {
    for (int i = 0; i < 10; ++i) dead.push_back(std::make_unique<local::Blackhole>());
  }
};
std::unique_ptr<Services> services;

std::vector<std::string> start_services(Context&) {
  services = std::make_unique<Services>();
  return {"--public-url",
          "http://viktory.test",
          "--smtp-url",
          "smtp://127.0.0.1:" + std::to_string(services->sink.port()),
          "--smtp-starttls",
          "off",
          "--smtp-from",
          "VIKTORY II <turns@example.org>",
          "--allow-private-endpoints"};
}

// A browser's subscription (real P-256 keys, so the server can encrypt) at `endpoint`.
void subscribe(int port, const Account& account, const std::string& from,
               const std::string& endpoint) {
  const viktory::notify::EcKey browser = viktory::notify::EcKey::generate();
  const json body{
      {"endpoint", endpoint},
      {"keys",
       {{"p256dh", viktory::notify::base64url_encode(browser.public_point())},
        {"auth", viktory::notify::base64url_encode(viktory::notify::random_bytes(16))}}}};
  const auto reply = http_request(port, "POST", "/api/push/subscription", body.dump(),
                                  account.token, {{"X-Forwarded-For", from}});
  if (reply.status != 200) {
    throw std::runtime_error("subscription refused (" + std::to_string(reply.status) +
                             "): " + reply.body);
  }
}

std::size_t pushes_to(const std::string& path) {
  std::size_t n = 0;
  for (const auto& r : services->push_receiver.requests()) n += r.target == path ? 1 : 0;
  return n;
}

// Sum of a counter's lines in /metrics whose labels contain `labels`.
double metric(int port, const std::string& name, const std::string& labels) {
  const auto reply = http_request(port, "GET", "/metrics");
  double sum = 0;
  std::size_t at = 0;
  while ((at = reply.body.find(name + "{", at)) != std::string::npos) {
    const std::size_t end = reply.body.find('\n', at);
    const std::string line = reply.body.substr(at, end - at);
    if (line.find(labels) != std::string::npos) sum += std::stod(line.substr(line.rfind(' ') + 1));
    at = end;
  }
  return sum;
}

Report run(Context& c) {
  std::atomic<bool> stop{false};
  std::atomic<long> attacker_actions{0};
  std::atomic<long> attacker_turn_changes{0};
  std::vector<std::thread> attackers;
  if (c.attack) {
    for (int p = 0; p < c.param("pairs", 1); ++p) {
      const std::string a_from = address(1 + 2 * p);
      const std::string b_from = address(2 + 2 * p);
      const Account a = new_player(c.port, "Mallory " + std::to_string(p), a_from);
      const Account b = new_player(c.port, "Mallet " + std::to_string(p), b_from);
      for (const auto& [account, from] : {std::pair{a, a_from}, std::pair{b, b_from}}) {
        for (int i = 0; i < c.param("subscriptions", 10); ++i) {
          subscribe(c.port, account, from,
                    services->dead[static_cast<std::size_t>(i) % services->dead.size()]->url(
                        "/push/" + account.player_id + "/" + std::to_string(i)));
        }
      }
      attackers.emplace_back([&, a, b, a_from, b_from, p] {
        try {
          Table table(c.port, a, a_from, b, b_from, 100 + static_cast<unsigned>(p));
          table.start();
          int last = table.decider();
          while (!stop) {
            if (table.act()) ++attacker_actions;
            const int now = table.decider();
            if (now != last) ++attacker_turn_changes;
            last = now;
            std::this_thread::sleep_for(std::chrono::milliseconds(40));
          }
        } catch (const std::exception& e) {
          std::fprintf(stderr, "attacker stopped: %s\n", e.what());
        }
      });
    }
    std::this_thread::sleep_for(std::chrono::seconds(2));  // the attack is under way
  }

  // Account mails: a new player every 2 s confirms his own address.
  std::mutex mails_mutex;
  std::map<std::string, std::chrono::steady_clock::time_point> asked;  // recipient -> when
  std::thread mailer([&] {
    for (int i = 0; !stop; ++i) {
      const std::string from = address(1000 + i);
      try {
        const Account player = new_player(c.port, "Newcomer " + std::to_string(i), from);
        const std::string to = "newcomer" + std::to_string(i) + "@example.org";
        const auto start = std::chrono::steady_clock::now();
        const auto reply =
            http_request(c.port, "POST", "/api/account/email", json{{"address", to}}.dump(),
                         player.token, {{"X-Forwarded-For", from}});
        if (reply.status == 200) {
          std::lock_guard lock(mails_mutex);
          asked[to] = start;
        }
      } catch (const std::exception& e) {
        std::fprintf(stderr, "newcomer %d: %s\n", i, e.what());
      }
      for (int t = 0; t < 20 && !stop; ++t)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });

  // The honest game.
  const Account alice = new_player(c.port, "Alice", address(0));
  const Account bob = new_player(c.port, "Bob", address(100));
  subscribe(c.port, bob, address(100), services->push_receiver.url("/push/bob"));
  const auto wait_limit = std::chrono::seconds(c.param("wait_s", 10));
  Samples latency;
  long pushes = 0;  // pushes Bob's browser should have had so far
  long in_time = 0;
  // After each push-worthy change Bob waits (at most wait_s) until every push so far arrived.
  const auto wait_for_push = [&](std::chrono::steady_clock::time_point since) {
    ++pushes;
    const auto deadline = since + wait_limit;
    while (std::chrono::steady_clock::now() < deadline) {
      if (static_cast<long>(pushes_to("/push/bob")) >= pushes) {
        ++in_time;
        latency.add(ms_since(since));
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  };
  Table honest(c.port, alice, address(0), bob, address(100), 7);
  const auto end = std::chrono::steady_clock::now() + c.duration;
  const auto starting = std::chrono::steady_clock::now();
  honest.start();
  wait_for_push(starting);  // "has started"
  int last = honest.decider();
  while (std::chrono::steady_clock::now() < end) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // a person's pace
    const std::int64_t game = honest.game_id();
    const auto sent = std::chrono::steady_clock::now();
    if (!honest.act()) continue;
    const int now = honest.decider();
    if (honest.game_id() != game) {
      wait_for_push(sent);  // a new game has started
    } else if (now == 1 && last != 1) {
      wait_for_push(sent);  // Bob must act
    }
    last = now;
  }
  stop = true;
  for (std::thread& t : attackers) t.join();
  mailer.join();
  // What is still on its way gets 40 s more (a dead endpoint's transfer times out after 30 s).
  const auto grace = std::chrono::steady_clock::now() + std::chrono::seconds(40);
  while (static_cast<long>(pushes_to("/push/bob")) < pushes &&
         std::chrono::steady_clock::now() < grace) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const auto arrived = static_cast<double>(pushes_to("/push/bob"));
  Samples mail_latency;
  std::size_t mails_delivered = 0;
  const auto mails_deadline = grace;
  for (;;) {
    mails_delivered = 0;
    mail_latency = Samples{};
    const auto mails = services->sink.mails();
    std::lock_guard lock(mails_mutex);
    for (const auto& [to, when] : asked) {
      for (const auto& mail : mails) {
        if (!mail.recipients.empty() && mail.recipients[0] == "TO:<" + to + ">") {
          ++mails_delivered;
          mail_latency.add(std::chrono::duration<double, std::milli>(mail.at - when).count());
          break;
        }
      }
    }
    if (mails_delivered == asked.size() || std::chrono::steady_clock::now() > mails_deadline) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  Report r;
  r.add("honest_pushes", static_cast<double>(pushes));
  r.add("honest_pushes_in_time", static_cast<double>(in_time));  // within wait_s
  r.add("honest_pushes_arrived", arrived);                       // within 40 s after the run
  r.add("honest_push_p50_ms", latency.percentile(50));
  r.add("honest_push_p99_ms", latency.percentile(99));
  r.add("honest_push_max_ms", latency.max());
  r.add("account_mails_asked", static_cast<double>(asked.size()));
  r.add("account_mails_delivered", static_cast<double>(mails_delivered));
  r.add("account_mail_p50_ms", mail_latency.percentile(50));
  r.add("account_mail_max_ms", mail_latency.max());
  r.add("attacker_actions", static_cast<double>(attacker_actions.load()));
  r.add("attacker_turn_changes", static_cast<double>(attacker_turn_changes.load()));
  r.add("server_push_dropped", metric(c.port, "viktory_notify_dropped_total", "\"push\""));
  r.add("server_email_dropped", metric(c.port, "viktory_notify_dropped_total", "\"email\""));
  return r;  // the services stay until the bench exits, after the server
}

const bool registered = register_scenario(
    {"notify",
     "dead push endpoints and fast play (--param pairs=N subscriptions=N) vs an honest player's "
     "push delivery and account mails",
     {},
     run,
     nullptr, start_services});

}  // namespace
}  // namespace viktory::abuse
