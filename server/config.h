// Command line and environment of viktory-server. Flags win over environment variables, which
// win over the defaults.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace viktory::server {

struct Config {
  int port = 8080;
  std::string bind = "127.0.0.1";
  std::string db = "./viktory.db";
  std::string web_root = "./web-client";
  std::string log_level = "info";
  std::string public_url;
  // Several servers on one PostgreSQL database (game_leases.h): this server's own URL, and
  // the term of its leases. Empty: the server serves its database alone.
  std::string server_url;
  int lease_ms = 10000;
  int threads = 2;
  int max_connections_per_address = 64;
  std::size_t max_message_bytes = 64 * 1024;
  std::size_t max_send_queue_bytes = 4 * 1024 * 1024;
  std::size_t max_send_queue_messages = 1024;
  int idle_timeout_seconds = 10;  // a silent peer is pinged after half, closed at the end
  double messages_per_second = 20;
  double message_burst = 40;
  int signups_per_minute = 30;
  int snapshot_every = 50;
  // Reverse proxies whose X-Forwarded-For / Forwarded headers name the real client (IP
  // addresses or CIDR ranges). From anyone else those headers are ignored.
  std::vector<std::string> trusted_proxies;
  int frame_timeout_seconds = 30;  // to receive a whole WebSocket message once it has begun
  std::size_t max_queued_bytes_per_address = 32 * 1024 * 1024;  // send queues of one address
  int replays_per_minute = 120;  // replay pages per client address, burst the same
  int tutorials_per_hour = 20;   // guided games a player may start (tutorial.h)
  int analysis_queue = 16;       // finished games analysed or waiting (game_analysis.h); 0: none
  int analyses_per_hour = 12;    // new analyses per client address (burst 3)
  // The lobby (lobby.h, LobbyLimits) and the lists read from the store.
  int max_open_games_per_player = 5;
  int max_open_games_per_address = 20;
  int max_open_games = 1000;
  int lobby_page_size = 10;
  int lobby_max_page_size = 50;
  int lobby_bytes_per_minute = 24000;
  int games_to_watch = 50;
  int my_games_active = 100;
  int my_games_finished = 50;
  int read_connections = 3;      // read-only SQLite connections (Store)
  bool dev = false;              // also serve the developer pages under /dev/
  int computer_threads = 0;      // workers for computer players' decisions; 0: one per core
  int computer_budget_ms = 300;  // time per decision of the search level
  // Open or running games with computer seats (computer_caps.h): per creator, per client
  // address, on the whole server.
  int computer_games_per_player = 4;
  int computer_games_per_address = 8;
  int computer_games = 128;
  // Fair play (contributions.h): the accounts of the server's operator, whose seats are marked
  // (--operator, repeatable), and the reveal round's deadline and budget.
  std::vector<std::string> operators;
  int reveal_wait_min_seconds = 120;
  int reveal_wait_untimed_hours = 72;
  int reveal_rounds_per_hour = 12;
  // E-mail through the operator's SMTP relay (docs/notifications.md); no e-mail without a URL.
  std::string smtp_url;
  std::string smtp_starttls = "required";  // required | opportunistic | off
  std::string smtp_user;
  std::string smtp_password;  // from the environment or a file only, never a flag
  std::string smtp_from;      // "VIKTORY II <turns@example.org>" or "turns@example.org"
  std::string smtp_ca_file;
  std::string vapid_subject;  // the operator's contact for push services
  // Lets push endpoints and webhooks be plain http and private or loopback addresses: for
  // tests and development only (the address filter guards a real server).
  bool allow_private_endpoints = false;
  // GET /api/presence per client address, burst the same (a page asks every 2 s).
  int presence_per_minute = 240;
  int max_mutes_per_player = 500;    // chat mutes (chat_comforts.h)
  int mute_changes_per_minute = 10;  // mutes and unmutes of one player, burst 3x
  // Budgets of the notifier (docs/notifications.md, "Budgets").
  int notify_queue_per_channel = 1000;    // waiting deliveries of each channel
  int notify_account_mail_reserve = 200;  // waiting account mails, beside the channels
  int notify_pending_per_player = 30;     // one player's deliveries not finished
  int notify_running_per_player = 4;      // one player's transfers at once
  int notify_turns_per_game = 16;         // turn changes of one game waiting to be told
  // Account mails (confirmations, sign-in links) per recipient address and per client address
  // and hour, whoever asks.
  int mails_per_recipient_per_hour = 4;
  int mails_per_client_per_hour = 30;
};

struct ParsedConfig {
  std::optional<Config> config;  // empty on --help or an error
  std::string error;             // set on an error
  bool help = false;
  // --check-db: replay every game of the database and verify every finished game's record, then
  // exit (a restored backup, docs/backup.md); the server is not started.
  bool check_db = false;
};

using GetEnv = std::function<std::optional<std::string>(const char*)>;

ParsedConfig parse_config(const std::vector<std::string>& args, const GetEnv& getenv);
std::string usage();
// "Name <local@domain>" or "local@domain" as (name, address); nullopt if malformed.
std::optional<std::pair<std::string, std::string>> parse_mailbox(const std::string& text);

}  // namespace viktory::server
