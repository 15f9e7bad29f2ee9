// viktory-abuse: what one hostile client can take from everyone else. Each scenario runs an
// attacker's pattern against a real viktory-server (started by the bench, on loopback, with a
// fresh database and the server's own default limits) while an honest player measures what he
// gets (latency of his computer opponent, bytes of his lobby, his sign-in, ...). Run it with
// `--attack off` for the honest figures alone, and against an older build (`--server PATH`) for
// the figures before a fix. docs/performance.md ("Abuse") has the figures and the commands.
//
// Every client names its own address in X-Forwarded-For and the server trusts 127.0.0.1 as a
// proxy, so that per-address limits see the attacker's addresses and the honest player's as
// different ones, as they would be on the internet.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "support/play.h"
#include "support/ws_client.h"

namespace viktory::abuse {

using viktory::server::testing::Account;
using viktory::server::testing::WsClient;

struct Context {
  int port = 0;
  int server_pid = 0;
  bool attack = true;                         // false: the honest player alone (the baseline)
  std::chrono::seconds duration{30};          // how long the honest player measures
  std::map<std::string, std::string> params;  // --param key=value
  std::string server;                         // the server build under test (--server)
  std::string web_root;
  std::string db;  // the server's database file
  // A parameter as a number, or `fallback` when it was not given.
  long param(const std::string& key, long fallback) const;
};

// Named figures, in the order they were added, printed as "name value" lines.
struct Report {
  std::vector<std::pair<std::string, std::string>> figures;
  void add(const std::string& name, double value, const char* unit = "");
  void add(const std::string& name, const std::string& value);
};

struct Scenario {
  std::string name;
  std::string what;                      // one line: the attack and what the honest player measures
  std::vector<std::string> server_args;  // flags for the server under test, beyond the defaults
  std::function<Report(Context&)> run;
  // Optional: fills the database (c.db) before the server under test starts.
  std::function<void(Context&)> prepare = nullptr;
  // Optional, called before the server starts: more flags that depend on what the scenario
  // starts itself (the port of a local SMTP sink, say).
  std::function<std::vector<std::string>(Context&)> more_server_args = nullptr;
};

// Scenarios register themselves: `static const bool registered = register_scenario({...});`.
bool register_scenario(Scenario scenario);
const std::vector<Scenario>& scenarios();

// Latencies and sizes; percentiles by the nearest rank.
class Samples {
 public:
  void add(double value) { values_.push_back(value); }
  std::size_t count() const { return values_.size(); }
  double percentile(double p) const;  // 0 with no samples
  double max() const;

 private:
  std::vector<double> values_;
};

// A client address of its own for client number `i` (TEST-NET ranges; 0 is the honest player).
std::string address(int i);
// A new player who signs up from `address` (X-Forwarded-For); throws when refused.
Account new_player(int port, const std::string& name, const std::string& address);
// A WebSocket connection from `address`, signed in as `account`.
std::unique_ptr<WsClient> connect_as(int port, const Account& account, const std::string& address);
// Milliseconds since `start`.
double ms_since(std::chrono::steady_clock::time_point start);

}  // namespace viktory::abuse
