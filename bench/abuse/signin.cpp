// Scenario "signin": clients that repeat an expensive read while an honest player signs in.
//
// Attack: `attackers` clients (default 4), each from an address of its own, send `request`
// (default lobby.running) as fast as the server answers them. Honest: a new connection that
// signs in (auth -> welcome) every 100 ms; its latency is measured from sending auth.
#include <atomic>
#include <thread>

#include "abuse.h"

namespace viktory::abuse {
namespace {

Report run(Context& c) {
  const Account honest = new_player(c.port, "Honest", address(0));
  std::atomic<bool> stop{false};
  std::atomic<long> answered{0};
  std::vector<std::thread> attackers;
  const std::string request =
      c.params.count("request") ? c.params.at("request") : std::string("lobby.running");
  if (c.attack) {
    for (int i = 1; i <= c.param("attackers", 4); ++i) {
      const Account a = new_player(c.port, "Attacker " + std::to_string(i), address(i));
      attackers.emplace_back([&, a, i] {
        try {
          auto ws = connect_as(c.port, a, address(i));
          for (int req = 1; !stop; ++req) {
            ws->send(nlohmann::json{{"type", request}, {"req", req}});
            if (!ws->receive(std::chrono::seconds(5))) break;
            ++answered;
          }
        } catch (const std::exception&) {
          // refused or closed: the attacker is done
        }
      });
    }
  }
  Samples signin;
  const auto end = std::chrono::steady_clock::now() + c.duration;
  while (std::chrono::steady_clock::now() < end) {
    WsClient ws;
    ws.connect(c.port, "/ws", true, {{"X-Forwarded-For", address(0)}});
    const auto start = std::chrono::steady_clock::now();
    viktory::server::testing::sign_in(ws, honest);
    signin.add(ms_since(start));
    ws.close();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  stop = true;
  for (std::thread& t : attackers) t.join();
  Report r;
  r.add("signin_count", static_cast<double>(signin.count()));
  r.add("signin_p50_ms", signin.percentile(50));
  r.add("signin_p99_ms", signin.percentile(99));
  r.add("attacker_answers", static_cast<double>(answered.load()));
  return r;
}

const bool registered = register_scenario(
    {"signin",
     "clients repeating an expensive read (--param request=TYPE) vs an honest sign-in",
     {},
     run,
     nullptr});

}  // namespace
}  // namespace viktory::abuse
