// viktory-server: configuration, logging, signals and the thread pool. See docs/server.md.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstdlib>
#include <iostream>
#include <thread>
#include <vector>

#include "clock_sweeper.h"
#include "config.h"
#include "connections.h"
#include "hub.h"
#include "listener.h"
#include "metrics.h"
#include "store.h"

namespace net = boost::asio;
using namespace viktory::server;

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  const ParsedConfig parsed =
      parse_config(args, [](const char* name) -> std::optional<std::string> {
        const char* v = std::getenv(name);
        if (v == nullptr) return std::nullopt;
        return std::string(v);
      });
  if (parsed.help) {
    std::cout << usage();
    return 0;
  }
  if (!parsed.config) {
    std::cerr << "viktory-server: " << parsed.error << "\n\n" << usage();
    return 2;
  }
  const Config& config = *parsed.config;

  auto logger = spdlog::stdout_color_mt("viktory");
  spdlog::set_default_logger(logger);
  spdlog::set_level(spdlog::level::from_str(config.log_level));
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
  spdlog::flush_on(spdlog::level::info);

  try {
    // Refuses a database it cannot write: better not to start than to accept players whose
    // every move would fail.
    Store store(config.db);
    Metrics metrics;
    HubOptions hub_options;
    hub_options.room.snapshot_every = config.snapshot_every;
    hub_options.public_url = config.public_url;
    hub_options.messages_per_second = config.messages_per_second;
    hub_options.message_burst = config.message_burst;
    hub_options.signups_per_minute = config.signups_per_minute;
    hub_options.replay.requests_per_minute = config.replays_per_minute;
    hub_options.computers.threads = config.computer_threads;
    hub_options.computers.search_budget = std::chrono::milliseconds(config.computer_budget_ms);
    Hub hub(store, metrics, hub_options);
    ConnectionLimiter limiter(config.max_connections_per_address,
                              config.max_queued_bytes_per_address);
    SessionRegistry registry;
    AddressSet trusted_proxies;
    for (const std::string& proxy : config.trusted_proxies) trusted_proxies.add(proxy);
    ServerContext context{config, hub, metrics, limiter, registry, trusted_proxies};

    net::io_context ioc(config.threads);
    const auto address = net::ip::make_address(config.bind);
    Listener listener(
        ioc, net::ip::tcp::endpoint(address, static_cast<unsigned short>(config.port)), context);
    listener.start();
    ClockSweeper sweeper(ioc, hub);
    sweeper.start();
    spdlog::info("database {} (schema {})", config.db, store.schema_version());
    spdlog::info("serving {}{}", config.web_root, config.dev ? " (with the developer pages)" : "");
    if (!config.trusted_proxies.empty()) {
      spdlog::info("trusting forwarding headers from {} proxy address(es)",
                   config.trusted_proxies.size());
    }
    spdlog::info("listening on {}:{}", config.bind, listener.port());

    // SIGTERM/SIGINT: stop accepting, send close frames, wait up to 5 s for the sessions.
    net::signal_set signals(ioc, SIGINT, SIGTERM);
    net::steady_timer deadline(ioc);
    signals.async_wait([&](boost::system::error_code ec, int signal) {
      if (ec) return;
      spdlog::info("signal {}: shutting down", signal);
      listener.stop();
      sweeper.stop();
      deadline.expires_after(std::chrono::seconds(5));
      deadline.async_wait([&](boost::system::error_code timer_ec) {
        if (!timer_ec) {
          spdlog::warn("sessions still open after 5 s; stopping anyway");
          ioc.stop();
        }
      });
      registry.shutdown_all([&] { net::post(ioc, [&] { deadline.cancel(); }); });
    });

    std::vector<std::thread> threads;
    for (int i = 1; i < config.threads; ++i) threads.emplace_back([&] { ioc.run(); });
    ioc.run();
    for (auto& t : threads) t.join();
    spdlog::info("stopped; closing the database");
  } catch (const std::exception& e) {
    spdlog::critical("fatal: {}", e.what());
    return 1;
  }
  spdlog::info("bye");
  return 0;
}
