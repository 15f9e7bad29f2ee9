// Scenario "mail": mail bombing through address confirmations (issue 19).
//
// The bench runs an SMTP sink and starts the server with it (--smtp-url).
// Attack: from one client address, new players (as many as the sign-up limit lets through)
// each ask, again and again, to confirm the same address, victim@example.org; a refused
// sign-up is retried after 100 ms, a refused confirmation moves on to the next player.
// Measured: the mails that reach that address while the attack runs (`--seconds`, default 30).
// Honest: every 5 s a new player from an address of his own confirms his own address; his
// mails are counted and timed at the sink.
#include <atomic>
#include <mutex>
#include <thread>

#include "abuse.h"
#include "support/loopback_server.h"

namespace viktory::abuse {
namespace {

using nlohmann::json;
using viktory::server::testing::http_request;
namespace local = viktory::notify::testing;

std::unique_ptr<local::SmtpSink> sink;

std::vector<std::string> start_sink(Context&) {
  sink = std::make_unique<local::SmtpSink>(local::SmtpSinkOptions{});
  return {"--public-url",    "http://viktory.test",
          "--smtp-url",      "smtp://127.0.0.1:" + std::to_string(sink->port()),
          "--smtp-starttls", "off",
          "--smtp-from",     "VIKTORY II <turns@example.org>"};
}

std::size_t mails_to(const std::string& address) {
  std::size_t n = 0;
  for (const auto& mail : sink->mails()) {
    for (const auto& r : mail.recipients) n += r == "TO:<" + address + ">" ? 1 : 0;
  }
  return n;
}

Report run(Context& c) {
  const std::string victim = "victim@example.org";
  std::atomic<bool> stop{false};
  std::atomic<long> signups{0};
  std::atomic<long> asked{0};
  std::atomic<long> accepted{0};
  std::thread attacker;
  const auto start = std::chrono::steady_clock::now();
  if (c.attack) {
    attacker = std::thread([&] {
      const std::string from = address(1);
      for (int i = 0; !stop; ++i) {
        Account player;
        try {
          player = new_player(c.port, "Bomber " + std::to_string(i), from);
          ++signups;
        } catch (const std::exception&) {
          std::this_thread::sleep_for(std::chrono::milliseconds(100));  // sign-ups limited
          continue;
        }
        while (!stop) {
          ++asked;
          const auto reply =
              http_request(c.port, "POST", "/api/account/email", json{{"address", victim}}.dump(),
                           player.token, {{"X-Forwarded-For", from}});
          if (reply.status != 200) break;  // this player's (or this address's) limit
          ++accepted;
        }
      }
    });
  }
  // Honest newcomers.
  std::map<std::string, std::chrono::steady_clock::time_point> honest;
  const auto end = start + c.duration;
  for (int i = 0; std::chrono::steady_clock::now() < end; ++i) {
    const std::string from = address(2000 + i);
    const Account player = new_player(c.port, "Newcomer " + std::to_string(i), from);
    const std::string to = "newcomer" + std::to_string(i) + "@example.org";
    const auto asked_at = std::chrono::steady_clock::now();
    const auto reply =
        http_request(c.port, "POST", "/api/account/email", json{{"address", to}}.dump(),
                     player.token, {{"X-Forwarded-For", from}});
    if (reply.status == 200) honest[to] = asked_at;
    const auto next = asked_at + std::chrono::seconds(5);
    while (std::chrono::steady_clock::now() < std::min(next, end)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  const std::size_t victim_mails = mails_to(victim);  // within the attack's seconds
  stop = true;
  if (attacker.joinable()) attacker.join();
  // The honest mails get a few seconds more to arrive.
  Samples latency;
  std::size_t delivered = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  for (;;) {
    delivered = 0;
    latency = Samples{};
    const auto mails = sink->mails();
    for (const auto& [to, when] : honest) {
      for (const auto& mail : mails) {
        if (!mail.recipients.empty() && mail.recipients[0] == "TO:<" + to + ">") {
          ++delivered;
          latency.add(std::chrono::duration<double, std::milli>(mail.at - when).count());
          break;
        }
      }
    }
    if (delivered == honest.size() || std::chrono::steady_clock::now() > deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  Report r;
  r.add("victim_mails", static_cast<double>(victim_mails));
  r.add("attacker_signups", static_cast<double>(signups.load()));
  r.add("attacker_requests", static_cast<double>(asked.load()));
  r.add("attacker_requests_accepted", static_cast<double>(accepted.load()));
  r.add("honest_mails_asked", static_cast<double>(honest.size()));
  r.add("honest_mails_delivered", static_cast<double>(delivered));
  r.add("honest_mail_p50_ms", latency.percentile(50));
  r.add("honest_mail_max_ms", latency.max());
  return r;
}

const bool registered = register_scenario(
    {"mail",
     "new players from one address each asking to confirm the same address vs honest "
     "newcomers' confirmation mails",
     {},
     run,
     nullptr, start_sink});

}  // namespace
}  // namespace viktory::abuse
