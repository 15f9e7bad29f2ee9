// viktory-server: configuration, logging, signals and the thread pool. See docs/server.md.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "accounts.h"
#include "catalog.h"
#include "clock_sweeper.h"
#include "config.h"
#include "connections.h"
#include "deliveries.h"
#include "fair_play.h"
#include "game_leases.h"
#include "hub.h"
#include "listener.h"
#include "metrics.h"
#include "notifier.h"
#include "peer_bus.h"
#include "presence.h"
#include "store.h"
#include "stored_check.h"
#include "token.h"

namespace net = boost::asio;
namespace notify = viktory::notify;
using namespace viktory::server;

namespace {

// --check-db: every game replayed and every finished game's record verified (docs/backup.md).
int check_database(const std::string& path) {
  const bool postgresql = is_postgresql_location(path);
  if (!postgresql && !std::filesystem::is_regular_file(path)) {
    // Opening a Store would create an empty database, which would check as sound.
    std::cerr << "viktory-server: " << path << ": no such database file\n";
    return 1;
  }
  try {
    // On PostgreSQL read only: a database without a server's schema is refused, not migrated.
    std::optional<Store> opened;
    if (postgresql) {
      opened.emplace(path, Store::ReadOnly{});
    } else {
      opened.emplace(path, 1);
    }
    Store& store = *opened;
    const StoredCheck games = check_every_game(store);
    for (const std::string& problem : games.problems)
      std::cout << "does not replay: " << problem << "\n";
    std::cout << "replayed " << games.games << " games: " << games.actions << " actions, "
              << games.snapshots << " snapshots agree\n";
    const RecordsCheck records = verify_finished_records(store);
    for (const std::string& failure : records.failures) {
      std::cout << "record does not verify: " << failure << "\n";
    }
    std::cout << records.verified << " finished games' records verify\n";
    return games.problems.empty() && records.failures.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "viktory-server: " << e.what() << "\n";
    return 1;
  }
}

// Renews this server's game leases every `every_ms` on a thread of its own (a renewal waits
// for the database's commit, which no network thread should). 0: no leases, no thread.
class LeaseKeeper {
 public:
  LeaseKeeper(Hub& hub, int every_ms) : hub_(hub) {
    if (every_ms > 0) thread_ = std::thread([this, every_ms] { run(every_ms); });
  }
  ~LeaseKeeper() { stop(); }
  void stop() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

 private:
  void run(int every_ms) {
    std::unique_lock lock(mutex_);
    while (
        !wake_.wait_for(lock, std::chrono::milliseconds(every_ms), [this] { return stopping_; })) {
      lock.unlock();
      hub_.keep_leases();
      lock.lock();
    }
  }
  Hub& hub_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

// Several servers on one database: the open games each lists and the players online at each
// reach the others' lobbies and presence, and the charges of the shared budgets (sign-ups and
// account mails) their buckets (peer_bus.h). Ends before the Hub and Presence it
// feeds, taking its sinks out of them first.
class PeerLink {
 public:
  PeerLink(const Config& config, Hub& hub, Accounts& accounts, Presence& presence)
      : hub_(hub), lobby_(hub.lobby_list()), accounts_(accounts), presence_(presence) {
    Lobby& lobby = lobby_;
    PeerBus::Handlers handlers;
    handlers.listing = [&lobby](const std::string& server, std::int64_t game,
                                const nlohmann::json* summary) {
      lobby.list_remote(server, game, summary);
      lobby.changed();
    };
    handlers.presence = [&presence](const std::string& server, std::int64_t player, bool online,
                                    std::int64_t last_seen) {
      presence.set_remote(server, player, online, last_seen);
    };
    handlers.gone = [&lobby, &presence](const std::string& server) {
      lobby.drop_remote(server);
      lobby.changed();
      presence.drop_remote(server);
    };
    handlers.charge = [&hub, &accounts](const std::string& budget, const std::string& key,
                                        double cost) {
      hub.charge_remote(budget, key, cost);
      accounts.charge_remote(budget, key, cost);
    };
    bus_ = std::make_unique<PeerBus>(config.db, config.server_url, config.lease_ms / 3,
                                     config.lease_ms, std::move(handlers));
    PeerBus* bus = bus_.get();
    lobby.set_listing_sink([bus](std::int64_t game, const std::string* summary) {
      bus->publish_listing(game, summary);
    });
    presence.set_sink([bus](std::int64_t player, bool online, std::int64_t last_seen) {
      bus->publish_presence(player, online, last_seen);
    });
    const ChargeSink charges = [bus](const std::string& budget, const std::string& key,
                                     double cost) { bus->publish_charge(budget, key, cost); };
    hub.set_charge_sink(charges);
    accounts.set_charge_sink(charges);
  }
  ~PeerLink() { stop(); }
  // Says bye: the others take this server's games off their lists at once.
  void stop() {
    if (!bus_) return;
    lobby_.set_listing_sink(nullptr);
    presence_.set_sink(nullptr);
    hub_.set_charge_sink(nullptr);
    accounts_.set_charge_sink(nullptr);
    bus_->stop();
    bus_.reset();
  }

 private:
  Hub& hub_;
  Lobby& lobby_;
  Accounts& accounts_;
  Presence& presence_;
  std::unique_ptr<PeerBus> bus_;
};

}  // namespace

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
  if (parsed.check_db) return check_database(config.db);

  auto logger = spdlog::stdout_color_mt("viktory");
  spdlog::set_default_logger(logger);
  spdlog::set_level(spdlog::level::from_str(config.log_level));
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
  spdlog::flush_on(spdlog::level::info);

  try {
    // Refuses a database it cannot write: better not to start than to accept players whose
    // every move would fail.
    const bool shared = !config.server_url.empty();
    Store store(config.db, config.read_connections, shared);
    // Several servers on one database: each game is served by the one that holds its lease,
    // and each action's commit holds it too (game_leases.h). The owner's id is new at each
    // start: a restarted server holds nothing until it takes games again.
    std::unique_ptr<GameLeases> leases;
    if (shared) {
      leases = std::make_unique<GameLeases>(store.db(), new_invite_code(), config.server_url,
                                            config.lease_ms);
      store.set_leases(leases.get());
      spdlog::info("sharing the database with other servers as {} (leases of {} ms)",
                   config.server_url, config.lease_ms);
    }
    // One writer thread commits the actions of every game, many in one fsync (docs/server.md).
    store.start_group_commit();
    Metrics metrics;
    // The message catalogs for the texts the server writes in a reader's language: the built-in
    // ones and, winning over them, those of the web root it serves (a new language is a file).
    {
      auto catalogs = std::make_shared<viktory::text::Catalogs>(viktory::text::Catalogs::builtin());
      for (const auto& problem :
           catalogs->add_directory(std::filesystem::path(config.web_root) / "i18n")) {
        spdlog::warn("message catalog {} left out", problem);
      }
      viktory::text::install_catalogs(catalogs);
    }
    HubOptions hub_options;
    hub_options.room.snapshot_every = config.snapshot_every;
    hub_options.public_url = config.public_url;
    hub_options.messages_per_second = config.messages_per_second;
    hub_options.message_burst = config.message_burst;
    hub_options.signups_per_minute = config.signups_per_minute;
    hub_options.replay.requests_per_minute = config.replays_per_minute;
    hub_options.tutorial.per_player_per_hour = config.tutorials_per_hour;
    hub_options.analysis.queue = config.analysis_queue;
    hub_options.analysis.per_address_per_hour = config.analyses_per_hour;
    hub_options.lobby.open_games_per_player = config.max_open_games_per_player;
    hub_options.lobby.open_games_per_address = config.max_open_games_per_address;
    hub_options.lobby.open_games = config.max_open_games;
    hub_options.lobby.page_size = std::min(config.lobby_page_size, config.lobby_max_page_size);
    hub_options.lobby.max_page_size = config.lobby_max_page_size;
    hub_options.lobby.subscriber_bytes_per_minute = config.lobby_bytes_per_minute;
    hub_options.games_to_watch = config.games_to_watch;
    hub_options.my_games_active = config.my_games_active;
    hub_options.my_games_finished = config.my_games_finished;
    // Notifications and e-mail leave through the notifier's own thread; the game never waits.
    notify::NotifierOptions notifier_options;
    notifier_options.queue_capacity = static_cast<std::size_t>(config.notify_queue_per_channel);
    notifier_options.priority_capacity =
        static_cast<std::size_t>(config.notify_account_mail_reserve);
    notifier_options.max_pending_per_owner =
        static_cast<std::size_t>(config.notify_pending_per_player);
    notifier_options.max_in_flight_per_owner =
        static_cast<std::size_t>(config.notify_running_per_player);
    notify::Notifier notifier(notifier_options);
    std::shared_ptr<const notify::SmtpSettings> smtp;
    if (!config.smtp_url.empty()) {
      auto settings = std::make_shared<notify::SmtpSettings>();
      settings->url = config.smtp_url;
      settings->start_tls = *notify::parse_start_tls(config.smtp_starttls);
      settings->username = config.smtp_user;
      settings->password = config.smtp_password;
      const auto from = parse_mailbox(config.smtp_from);  // checked by parse_config
      settings->from = notify::Mailbox{from->second, from->first};
      settings->ca_file = config.smtp_ca_file;
      smtp = settings;
      spdlog::info("e-mail through {}", notify::redact_url(config.smtp_url));
      if (config.public_url.empty()) {
        spdlog::warn("e-mail needs --public-url for its links; no e-mail is sent without it");
      }
    }
    AccountOptions account_options;
    account_options.public_url = config.public_url;
    account_options.mails_per_recipient_per_hour = config.mails_per_recipient_per_hour;
    account_options.mails_per_client_per_hour = config.mails_per_client_per_hour;
    if (smtp) account_options.send_mail = account_mailer(notifier, smtp);
    Accounts accounts(config.db, account_options);
    TurnNotificationOptions turn_options;
    turn_options.public_url = config.public_url;
    turn_options.vapid_subject = config.vapid_subject;
    turn_options.smtp = smtp;
    turn_options.max_waiting_per_game = static_cast<std::size_t>(config.notify_turns_per_game);
    if (config.allow_private_endpoints) {
      spdlog::warn("--allow-private-endpoints: push endpoints and webhooks are not filtered");
      turn_options.endpoints = notify::EndpointPolicy::local_testing();
    }
    TurnNotifications turns(config.db, notifier, turn_options);
    // After each commit that changes who must act, the room hands a value over and goes on.
    hub_options.room.on_turn = [&turns](TurnChange change) { turns.post(std::move(change)); };
    // Mutes (chat_comforts.h): the rooms filter chat by them; POST /api/mute changes them.
    ChatMuteLimits mute_limits;
    mute_limits.max_per_player = config.max_mutes_per_player;
    mute_limits.changes_per_minute = config.mute_changes_per_minute;
    mute_limits.change_burst = 3.0 * config.mute_changes_per_minute;
    ChatMutes chat_mutes(store, mute_limits);
    hub_options.room.mutes = &chat_mutes;
    Presence presence;
    hub_options.presence = &presence;
    hub_options.computers.pool.threads = config.computer_threads;
    hub_options.computer_caps.per_player = config.computer_games_per_player;
    hub_options.computer_caps.per_address = config.computer_games_per_address;
    hub_options.computer_caps.total = config.computer_games;
    hub_options.room.contributions.operators = config.operators;
    hub_options.room.contributions.min_wait_ms = 1000LL * config.reveal_wait_min_seconds;
    hub_options.room.contributions.untimed_wait_ms =
        3600LL * 1000 * config.reveal_wait_untimed_hours;
    hub_options.room.contributions.rounds_per_hour = config.reveal_rounds_per_hour;
    hub_options.computers.search_budget = std::chrono::milliseconds(config.computer_budget_ms);
    hub_options.leases = leases.get();
    Hub hub(store, metrics, hub_options);
    LeaseKeeper lease_keeper(hub, shared ? config.lease_ms / 3 : 0);
    std::optional<PeerLink> peers;
    if (shared) peers.emplace(config, hub, accounts, presence);
    ConnectionLimiter limiter(config.max_connections_per_address,
                              config.max_queued_bytes_per_address);
    SessionRegistry registry;
    AddressSet trusted_proxies;
    for (const std::string& proxy : config.trusted_proxies) trusted_proxies.add(proxy);
    PresenceApi presence_api(presence, store, config.presence_per_minute);
    // The web client in memory, with versions and gzip forms (static_files.h).
    StaticFiles static_files(config.web_root);
    ServerContext context{config,    hub,    metrics,   limiter,       registry, trusted_proxies,
                          &accounts, &turns, &notifier, &presence_api, &store,   &static_files};
    context.mutes = &chat_mutes;

    net::io_context ioc(config.threads);
    const auto address = net::ip::make_address(config.bind);
    Listener listener(
        ioc, net::ip::tcp::endpoint(address, static_cast<unsigned short>(config.port)), context);
    listener.start();
    ClockSweeper sweeper(ioc, hub);
    sweeper.start();
    spdlog::info("database {} (schema {})", redacted_location(config.db), store.schema_version());
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
    lease_keeper.stop();
    if (peers) peers->stop();
    // Actions still in the writer's queue are committed and their completions run while the
    // Hub (which they reference) is still there.
    store.drain_group_commit();
    // Then the other servers may take this one's games at once, not after the term.
    if (leases) {
      try {
        leases->release_all();
      } catch (const std::exception& e) {
        spdlog::error("lease_release_failed error=\"{}\"", e.what());
      }
    }
    // Deliveries still queued get a few seconds; their callbacks must not outlive `turns`.
    notifier.shutdown(std::chrono::seconds(5));
    spdlog::info("stopped; closing the database");
  } catch (const std::exception& e) {
    spdlog::critical("fatal: {}", e.what());
    return 1;
  }
  spdlog::info("bye");
  return 0;
}
