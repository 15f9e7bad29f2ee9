// viktory-abuse: see abuse.h.
//
//   viktory-abuse --server build/server/viktory-server --scenario NAME [--attack on|off]
//                 [--seconds N] [--param key=value ...] [--web-root web-client]
//   viktory-abuse --list
#include "abuse.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "support/server_process.h"

namespace viktory::abuse {

namespace {
std::vector<Scenario>& registry() {
  static std::vector<Scenario> list;
  return list;
}
}  // namespace

long Context::param(const std::string& key, long fallback) const {
  const auto it = params.find(key);
  return it == params.end() ? fallback : std::stol(it->second);
}

void Report::add(const std::string& name, double value, const char* unit) {
  char text[64];
  std::snprintf(text, sizeof text, "%.3f%s", value, unit);
  figures.emplace_back(name, text);
}

void Report::add(const std::string& name, const std::string& value) {
  figures.emplace_back(name, value);
}

bool register_scenario(Scenario scenario) {
  registry().push_back(std::move(scenario));
  return true;
}

const std::vector<Scenario>& scenarios() { return registry(); }

double Samples::percentile(double p) const {
  if (values_.empty()) return 0;
  std::vector<double> sorted = values_;
  std::sort(sorted.begin(), sorted.end());
  const auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * double(sorted.size())));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

double Samples::max() const {
  return values_.empty() ? 0 : *std::max_element(values_.begin(), values_.end());
}

std::string address(int i) {
  // 198.18.0.0/15 is set aside for benchmarks (RFC 2544): 65,536 addresses.
  return "198.18." + std::to_string((i >> 8) & 0xff) + "." + std::to_string(i & 0xff);
}

Account new_player(int port, const std::string& name, const std::string& address) {
  using viktory::server::testing::http_request;
  const auto reply =
      http_request(port, "POST", "/api/session", nlohmann::json{{"name", name}}.dump(), "",
                   {{"X-Forwarded-For", address}});
  if (reply.status != 200) {
    throw std::runtime_error("sign-up refused (" + std::to_string(reply.status) +
                             "): " + reply.body);
  }
  const nlohmann::json j = reply.json();
  return Account{j.at("player_id"), j.at("name"), j.at("token")};
}

std::unique_ptr<WsClient> connect_as(int port, const Account& account, const std::string& address) {
  auto ws = std::make_unique<WsClient>();
  ws->connect(port, "/ws", true, {{"X-Forwarded-For", address}});
  viktory::server::testing::sign_in(*ws, account);
  return ws;
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace viktory::abuse

namespace {

int usage() {
  std::cerr << "usage: viktory-abuse --server PATH --scenario NAME [--attack on|off] "
               "[--seconds N] [--param key=value ...] [--web-root DIR]\n"
               "       viktory-abuse --list\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace viktory::abuse;
  std::string server, scenario_name, web_root = "web-client";
  Context context;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
      return argv[++i];
    };
    try {
      if (arg == "--list") {
        for (const Scenario& s : scenarios()) std::cout << s.name << "\t" << s.what << "\n";
        return 0;
      } else if (arg == "--server") {
        server = value();
      } else if (arg == "--scenario") {
        scenario_name = value();
      } else if (arg == "--web-root") {
        web_root = value();
      } else if (arg == "--seconds") {
        context.duration = std::chrono::seconds(std::stoi(value()));
      } else if (arg == "--attack") {
        const std::string v = value();
        if (v != "on" && v != "off") return usage();
        context.attack = v == "on";
      } else if (arg == "--param") {
        const std::string kv = value();
        const auto eq = kv.find('=');
        if (eq == std::string::npos) return usage();
        context.params[kv.substr(0, eq)] = kv.substr(eq + 1);
      } else {
        return usage();
      }
    } catch (const std::exception& e) {
      std::cerr << "viktory-abuse: " << e.what() << "\n";
      return usage();
    }
  }
  if (server.empty() || scenario_name.empty()) return usage();
  const auto found = std::find_if(scenarios().begin(), scenarios().end(),
                                  [&](const Scenario& s) { return s.name == scenario_name; });
  if (found == scenarios().end()) {
    std::cerr << "viktory-abuse: no scenario '" << scenario_name << "' (--list)\n";
    return 2;
  }
  namespace fs = std::filesystem;
  char dir_template[] = "/tmp/viktory-abuse.XXXXXX";
  if (mkdtemp(dir_template) == nullptr) {
    std::cerr << "viktory-abuse: mkdtemp failed\n";
    return 1;
  }
  const fs::path dir = dir_template;
  int status = 0;
  try {
    std::vector<std::string> args = {"--trusted-proxy", "127.0.0.1", "--log-level", "info"};
    args.insert(args.end(), found->server_args.begin(), found->server_args.end());
    context.server = server;
    context.web_root = web_root;
    context.db = (dir / "abuse.db").string();
    if (found->prepare) found->prepare(context);
    if (found->more_server_args) {
      const std::vector<std::string> more = found->more_server_args(context);
      args.insert(args.end(), more.begin(), more.end());
    }
    viktory::server::testing::ServerProcess process(context.db, web_root, args,
                                                    {server, false, {}});
    context.port = process.port();
    context.server_pid = process.pid();
    std::cout << "scenario " << found->name << "\nattack " << (context.attack ? "on" : "off")
              << "\nseconds " << context.duration.count() << "\n";
    const Report report = found->run(context);
    for (const auto& [name, value] : report.figures) std::cout << name << " " << value << "\n";
  } catch (const std::exception& e) {
    std::cerr << "viktory-abuse: " << e.what() << "\n";
    status = 1;
  }
  std::error_code ignored;
  fs::remove_all(dir, ignored);
  return status;
}
