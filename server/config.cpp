#include "config.h"

#include <charconv>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "client_address.h"
#include "email.h"

namespace viktory::server {
namespace {

bool parse_int(const std::string& s, int lo, int hi, int& out) {
  int v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || v < lo || v > hi) return false;
  out = v;
  return true;
}

bool valid_level(const std::string& level) {
  for (const char* l : {"trace", "debug", "info", "warn", "error", "critical", "off"}) {
    if (level == l) return true;
  }
  return false;
}

// Splits "a, b,c" into its non-empty parts and checks that each is an address or a range.
bool add_proxies(const std::string& list, std::vector<std::string>& out) {
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    std::string part = list.substr(start, end - start);
    part.erase(0, part.find_first_not_of(' '));
    part.erase(part.find_last_not_of(' ') + 1);
    if (!part.empty()) {
      if (!AddressSet().add(part)) return false;
      out.push_back(part);
    }
    start = end + 1;
  }
  return true;
}

// "Name <local@domain>" or "local@domain".
std::optional<std::pair<std::string, std::string>> split_mailbox(const std::string& text) {
  const auto open = text.rfind('<');
  if (open == std::string::npos) {
    if (!notify::is_valid_address(text)) return std::nullopt;
    return std::make_pair(std::string(), text);
  }
  const auto close = text.find('>', open);
  if (close == std::string::npos || close + 1 != text.size()) return std::nullopt;
  std::string name = text.substr(0, open);
  name.erase(name.find_last_not_of(' ') + 1);
  const std::string address = text.substr(open + 1, close - open - 1);
  if (!notify::is_valid_address(address)) return std::nullopt;
  return std::make_pair(name, address);
}

// Checks the SMTP settings as a whole; an error text, or "" when they are usable.
std::string check_smtp(const Config& c) {
  if (c.smtp_url.empty()) return "";
  try {
    notify::validate_smtp_url(c.smtp_url);
  } catch (const std::invalid_argument& e) {
    return std::string("--smtp-url: ") + e.what();
  }
  if (!notify::parse_start_tls(c.smtp_starttls)) {
    return "--smtp-starttls must be required, opportunistic or off";
  }
  if (c.smtp_from.empty() || !split_mailbox(c.smtp_from)) {
    return "--smtp-url needs --smtp-from, e.g. \"VIKTORY II <turns@example.org>\"";
  }
  return "";
}

}  // namespace

std::optional<std::pair<std::string, std::string>> parse_mailbox(const std::string& text) {
  return split_mailbox(text);
}

std::string usage() {
  return R"(viktory-server: the VIKTORY II game server (HTTP + WebSocket on one port)

Usage: viktory-server [options]

  --port N             TCP port (env VIKTORY_PORT, default 8080; 0 picks a free port)
  --bind ADDR          address to listen on (env VIKTORY_BIND, default 127.0.0.1)
  --db FILE|URI        SQLite database file (env VIKTORY_DB, default ./viktory.db), or a
                       PostgreSQL database: postgresql://user@host/dbname (docs/postgresql.md)
  --server-url URL     several servers on one PostgreSQL database (docs/postgresql.md): the
                       URL at which players reach this server itself; each game is served by
                       one server at a time, and a request for another's game is answered with
                       game_elsewhere and that server's URL (env VIKTORY_SERVER_URL)
  --lease-ms N         with --server-url: how long a server's hold on a game lasts unless it
                       renews it (every third of it); another server takes over the games of
                       one that stopped after this (default 10000)
  --check-db           do not serve: replay every game of the database (each snapshot must be
                       the state its actions give) and verify every finished game's record, say
                       what does not hold, and exit 0 when all does (for a restored backup; the
                       file must exist and is brought to this version's schema)
  --web-root DIR       static files of the web client (env VIKTORY_WEB_ROOT, default ./web-client)
  --log-level LEVEL    trace|debug|info|warn|error|critical|off (env VIKTORY_LOG_LEVEL, default info)
  --public-url URL     the URL players use, for invite links (env VIKTORY_PUBLIC_URL)
  --threads N          network threads (default 2)
  --max-connections-per-address N   WebSocket connections per client address
                       (env VIKTORY_MAX_CONNECTIONS_PER_ADDRESS, default 64)
  --snapshot-every N   store a whole game state every N actions (default 50)
  --rate-limit N       WebSocket messages per second per connection, burst 2N (default 20)
  --signups-per-minute N   new players (POST /api/session) per client address, burst 2N
                       (default 30)
  --idle-timeout N     seconds of silence before a WebSocket is pinged and then closed if the
                       ping is not answered (default 10; pings go out after N/2)
  --trusted-proxy LIST reverse proxies (IP addresses or CIDR ranges, comma-separated; the flag
                       may be repeated) whose X-Forwarded-For or Forwarded header names the
                       client's address (env VIKTORY_TRUSTED_PROXY; default: none, the headers
                       are ignored)
  --frame-timeout N    seconds a WebSocket message may take to arrive once it has begun
                       (default 30)
  --replays-per-minute N   replay pages per client address, burst N (default 120)
  --analysis-queue N   finished games being analysed or waiting for it, server-wide; 0: no
                       analyses (default 16)
  --analyses-per-hour N    new analyses of finished games per client address, burst 3
                       (default 12)
  --tutorials-per-hour N   guided first games (tutorial.start) a player may start per hour,
                       burst N; three times as many per client address (default 20)
  --presence-per-minute N  presence requests (GET /api/presence) per client address, burst N
  --max-mutes-per-player N  players one player may mute in chat (default 500)
  --mute-changes-per-minute N  mutes and unmutes of one player a minute, burst 3N (default 10)
                       (default 240: a page asks every 2 s while it shows presence)
  --max-open-games-per-player N   open games a player may hold a seat in, created or joined
                       (default 5)
  --max-open-games-per-address N  open games created from one client address (default 20)
  --max-open-games N   open games in all (default 1000)
  --lobby-page-size N  games on a page of the open list when the client asks for none
                       (default 10)
  --lobby-max-page-size N   the most games a client may ask for on one page (default 50)
  --lobby-bytes-per-minute N   changes of the open list sent to one subscriber, bytes a
                       minute, a quarter of it at once (default 24000)
  --games-to-watch N   running games listed by lobby.running (default 50)
  --my-games-active N  open and running games listed in "your games" (default 100)
  --my-games-finished N   finished games listed in "your games" (default 50)
  --read-connections N read-only database connections (default 3)
  --smtp-url URL       SMTP relay for e-mail: smtp://host:587 or smtps://host:465
                       (env VIKTORY_SMTP_URL; default: no e-mail)
  --smtp-starttls MODE required|opportunistic|off for smtp:// (env VIKTORY_SMTP_STARTTLS,
                       default required)
  --smtp-user NAME     login at the relay (env VIKTORY_SMTP_USER); the password comes from
                       env VIKTORY_SMTP_PASSWORD or the file named by VIKTORY_SMTP_PASSWORD_FILE
  --smtp-from MAILBOX  sender, e.g. "VIKTORY II <turns@example.org>" (env VIKTORY_SMTP_FROM)
  --smtp-ca-file FILE  CA bundle for a relay with a private CA (env VIKTORY_SMTP_CA_FILE)
  --vapid-subject URI  contact for push services, mailto: or https: (env VIKTORY_VAPID_SUBJECT)
  --allow-private-endpoints   push endpoints and webhooks may be http and private or
                       loopback addresses (tests and development only, never in production)
  --computer-threads N worker threads for computer players (default 0: one per core)
  --computer-budget-ms N   milliseconds per decision of a computer player of the search
                       level (default 300)
  --computer-games-per-player N   open or running games with computer players one player
                       may have created (env VIKTORY_COMPUTER_GAMES_PER_PLAYER, default 4)
  --computer-games-per-address N  the same per client address
                       (env VIKTORY_COMPUTER_GAMES_PER_ADDRESS, default 8)
  --computer-games N   the same on the whole server (env VIKTORY_COMPUTER_GAMES, default 128)
  --operator NAME      an account of the server's operator (repeatable; env VIKTORY_OPERATORS,
                       names separated by commas): his seats are marked in the lobby, the
                       game page and the game record (docs/fair-play.md)
  --reveal-wait-min N  seconds a game's reveal round waits at least for the players'
                       contributions (default 120; a clocked game waits a move's time)
  --reveal-wait-untimed N  hours the reveal round of a game without a clock waits (default 72)
  --reveal-rounds-per-hour N  reveal rounds one player may start per hour, twice that per
                       address (default 12)
  --dev                also serve the developer pages under /dev/ (never in production)
  --help               this text

On start the server prints "listening on ADDR:PORT" to the log. SIGTERM or SIGINT stop it
cleanly: connections get a close frame and the database is closed.
)";
}

ParsedConfig parse_config(const std::vector<std::string>& args, const GetEnv& getenv) {
  ParsedConfig result;
  Config c;
  auto env_error = [&](const char* name) {
    result.error = std::string("bad value in ") + name;
    return result;
  };
  if (auto v = getenv("VIKTORY_PORT")) {
    if (!parse_int(*v, 0, 65535, c.port)) return env_error("VIKTORY_PORT");
  }
  if (auto v = getenv("VIKTORY_BIND")) c.bind = *v;
  if (auto v = getenv("VIKTORY_DB")) c.db = *v;
  if (auto v = getenv("VIKTORY_WEB_ROOT")) c.web_root = *v;
  if (auto v = getenv("VIKTORY_LOG_LEVEL")) c.log_level = *v;
  if (auto v = getenv("VIKTORY_PUBLIC_URL")) c.public_url = *v;
  if (auto v = getenv("VIKTORY_SERVER_URL")) c.server_url = *v;
  // Behind a reverse proxy every player arrives from the proxy's address, so self-hosters need
  // to raise this limit without editing the command line of an image.
  if (auto v = getenv("VIKTORY_MAX_CONNECTIONS_PER_ADDRESS")) {
    if (!parse_int(*v, 1, 100000, c.max_connections_per_address)) {
      return env_error("VIKTORY_MAX_CONNECTIONS_PER_ADDRESS");
    }
  }
  // Caps on games with computer players: limits an operator sets for his machine.
  for (const auto& [name, out] :
       {std::pair<const char*, int*>{"VIKTORY_COMPUTER_GAMES_PER_PLAYER",
                                     &c.computer_games_per_player},
        std::pair<const char*, int*>{"VIKTORY_COMPUTER_GAMES_PER_ADDRESS",
                                     &c.computer_games_per_address},
        std::pair<const char*, int*>{"VIKTORY_COMPUTER_GAMES", &c.computer_games}}) {
    if (auto v = getenv(name)) {
      if (!parse_int(*v, 0, 1000000, *out)) return env_error(name);
    }
  }
  if (auto v = getenv("VIKTORY_TRUSTED_PROXY")) {
    if (!add_proxies(*v, c.trusted_proxies)) return env_error("VIKTORY_TRUSTED_PROXY");
  }
  if (auto v = getenv("VIKTORY_SMTP_URL")) c.smtp_url = *v;
  if (auto v = getenv("VIKTORY_SMTP_STARTTLS")) c.smtp_starttls = *v;
  if (auto v = getenv("VIKTORY_SMTP_USER")) c.smtp_user = *v;
  if (auto v = getenv("VIKTORY_SMTP_PASSWORD")) c.smtp_password = *v;
  if (auto v = getenv("VIKTORY_SMTP_PASSWORD_FILE")) {
    // Docker and systemd secrets: the password in a file, so it shows in no environment.
    std::ifstream file(*v);
    if (!file) return env_error("VIKTORY_SMTP_PASSWORD_FILE (cannot read the file)");
    std::ostringstream text;
    text << file.rdbuf();
    c.smtp_password = text.str();
    while (!c.smtp_password.empty() &&
           (c.smtp_password.back() == '\n' || c.smtp_password.back() == '\r')) {
      c.smtp_password.pop_back();
    }
  }
  if (auto v = getenv("VIKTORY_SMTP_FROM")) c.smtp_from = *v;
  if (auto v = getenv("VIKTORY_SMTP_CA_FILE")) c.smtp_ca_file = *v;
  if (auto v = getenv("VIKTORY_VAPID_SUBJECT")) c.vapid_subject = *v;
  if (auto v = getenv("VIKTORY_OPERATORS")) {
    // Names separated by commas; blanks around a name are not part of it.
    std::stringstream names(*v);
    for (std::string name; std::getline(names, name, ',');) {
      const auto first = name.find_first_not_of(' ');
      if (first == std::string::npos) continue;
      c.operators.push_back(name.substr(first, name.find_last_not_of(' ') - first + 1));
    }
  }
  bool operators_from_flags = false;
  bool proxies_from_flags = false;

  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (flag == "--help" || flag == "-h") {
      result.help = true;
      return result;
    }
    if (flag == "--check-db") {
      result.check_db = true;
      continue;
    }
    auto value = [&]() -> std::optional<std::string> {
      if (i + 1 >= args.size()) return std::nullopt;
      return args[++i];
    };
    std::optional<std::string> v;
    auto int_flag = [&](int lo, int hi, int& out) {
      v = value();
      if (!v || !parse_int(*v, lo, hi, out)) {
        result.error =
            flag + " needs a number from " + std::to_string(lo) + " to " + std::to_string(hi);
        return false;
      }
      return true;
    };
    if (flag == "--port") {
      if (!int_flag(0, 65535, c.port)) return result;
    } else if (flag == "--lease-ms") {
      if (!int_flag(300, 600000, c.lease_ms)) return result;
    } else if (flag == "--threads") {
      if (!int_flag(1, 64, c.threads)) return result;
    } else if (flag == "--max-connections-per-address") {
      if (!int_flag(1, 100000, c.max_connections_per_address)) return result;
    } else if (flag == "--signups-per-minute") {
      if (!int_flag(1, 1000000, c.signups_per_minute)) return result;
    } else if (flag == "--idle-timeout") {
      if (!int_flag(2, 3600, c.idle_timeout_seconds)) return result;
    } else if (flag == "--rate-limit") {
      int rate = 0;
      if (!int_flag(1, 1000000, rate)) return result;
      c.messages_per_second = rate;
      c.message_burst = 2.0 * rate;
    } else if (flag == "--snapshot-every") {
      if (!int_flag(1, 1000000, c.snapshot_every)) return result;
    } else if (flag == "--frame-timeout") {
      if (!int_flag(1, 3600, c.frame_timeout_seconds)) return result;
    } else if (flag == "--replays-per-minute") {
      if (!int_flag(1, 1000000, c.replays_per_minute)) return result;
    } else if (flag == "--analysis-queue") {
      if (!int_flag(0, 10000, c.analysis_queue)) return result;
    } else if (flag == "--analyses-per-hour") {
      if (!int_flag(1, 1000000, c.analyses_per_hour)) return result;
    } else if (flag == "--tutorials-per-hour") {
      if (!int_flag(1, 1000000, c.tutorials_per_hour)) return result;
    } else if (flag == "--max-mutes-per-player") {
      if (!int_flag(0, 100000, c.max_mutes_per_player)) return result;
    } else if (flag == "--mute-changes-per-minute") {
      if (!int_flag(1, 100000, c.mute_changes_per_minute)) return result;
    } else if (flag == "--presence-per-minute") {
      if (!int_flag(1, 1000000, c.presence_per_minute)) return result;
    } else if (flag == "--max-open-games-per-player") {
      if (!int_flag(1, 1000, c.max_open_games_per_player)) return result;
    } else if (flag == "--max-open-games-per-address") {
      if (!int_flag(1, 100000, c.max_open_games_per_address)) return result;
    } else if (flag == "--max-open-games") {
      if (!int_flag(1, 1000000, c.max_open_games)) return result;
    } else if (flag == "--lobby-page-size") {
      if (!int_flag(1, 1000, c.lobby_page_size)) return result;
    } else if (flag == "--lobby-max-page-size") {
      if (!int_flag(1, 1000, c.lobby_max_page_size)) return result;
    } else if (flag == "--lobby-bytes-per-minute") {
      if (!int_flag(1000, 100000000, c.lobby_bytes_per_minute)) return result;
    } else if (flag == "--games-to-watch") {
      if (!int_flag(1, 1000, c.games_to_watch)) return result;
    } else if (flag == "--my-games-active") {
      if (!int_flag(1, 10000, c.my_games_active)) return result;
    } else if (flag == "--my-games-finished") {
      if (!int_flag(0, 10000, c.my_games_finished)) return result;
    } else if (flag == "--read-connections") {
      if (!int_flag(1, 64, c.read_connections)) return result;
    } else if (flag == "--notify-queue") {
      if (!int_flag(1, 1000000, c.notify_queue_per_channel)) return result;
    } else if (flag == "--notify-account-mail-reserve") {
      if (!int_flag(1, 1000000, c.notify_account_mail_reserve)) return result;
    } else if (flag == "--notify-per-player") {
      if (!int_flag(1, 100000, c.notify_pending_per_player)) return result;
    } else if (flag == "--notify-running-per-player") {
      if (!int_flag(1, 1000, c.notify_running_per_player)) return result;
    } else if (flag == "--notify-turns-per-game") {
      if (!int_flag(1, 100000, c.notify_turns_per_game)) return result;
    } else if (flag == "--mails-per-recipient-per-hour") {
      if (!int_flag(1, 100000, c.mails_per_recipient_per_hour)) return result;
    } else if (flag == "--mails-per-client-per-hour") {
      if (!int_flag(1, 1000000, c.mails_per_client_per_hour)) return result;
    } else if (flag == "--computer-threads") {
      if (!int_flag(0, 64, c.computer_threads)) return result;
    } else if (flag == "--computer-games-per-player") {
      if (!int_flag(0, 1000000, c.computer_games_per_player)) return result;
    } else if (flag == "--computer-games-per-address") {
      if (!int_flag(0, 1000000, c.computer_games_per_address)) return result;
    } else if (flag == "--computer-games") {
      if (!int_flag(0, 1000000, c.computer_games)) return result;
    } else if (flag == "--computer-budget-ms") {
      if (!int_flag(1, 600000, c.computer_budget_ms)) return result;
    } else if (flag == "--operator") {
      v = value();
      if (!v || v->empty()) {
        result.error = "--operator needs an account's name";
        return result;
      }
      // Flags win over the environment: the first flag replaces what the variable said.
      if (!operators_from_flags) c.operators.clear();
      operators_from_flags = true;
      c.operators.push_back(*v);
    } else if (flag == "--reveal-wait-min") {
      if (!int_flag(10, 7 * 24 * 3600, c.reveal_wait_min_seconds)) return result;
    } else if (flag == "--reveal-wait-untimed") {
      if (!int_flag(1, 30 * 24, c.reveal_wait_untimed_hours)) return result;
    } else if (flag == "--reveal-rounds-per-hour") {
      if (!int_flag(1, 100000, c.reveal_rounds_per_hour)) return result;
    } else if (flag == "--dev") {
      c.dev = true;
    } else if (flag == "--allow-private-endpoints") {
      c.allow_private_endpoints = true;
    } else if (flag == "--trusted-proxy") {
      v = value();
      // Flags win over the environment: the first flag replaces what the variable said.
      if (!proxies_from_flags) c.trusted_proxies.clear();
      proxies_from_flags = true;
      if (!v || !add_proxies(*v, c.trusted_proxies)) {
        result.error = "--trusted-proxy needs IP addresses or CIDR ranges, e.g. 127.0.0.1,::1";
        return result;
      }
    } else if (flag == "--bind" || flag == "--db" || flag == "--web-root" ||
               flag == "--log-level" || flag == "--public-url" || flag == "--server-url" ||
               flag == "--smtp-url" || flag == "--smtp-starttls" || flag == "--smtp-user" ||
               flag == "--smtp-from" || flag == "--smtp-ca-file" || flag == "--vapid-subject") {
      v = value();
      if (!v) {
        result.error = flag + " needs a value";
        return result;
      }
      if (flag == "--bind") c.bind = *v;
      if (flag == "--db") c.db = *v;
      if (flag == "--web-root") c.web_root = *v;
      if (flag == "--log-level") c.log_level = *v;
      if (flag == "--public-url") c.public_url = *v;
      if (flag == "--server-url") c.server_url = *v;
      if (flag == "--smtp-url") c.smtp_url = *v;
      if (flag == "--smtp-starttls") c.smtp_starttls = *v;
      if (flag == "--smtp-user") c.smtp_user = *v;
      if (flag == "--smtp-from") c.smtp_from = *v;
      if (flag == "--smtp-ca-file") c.smtp_ca_file = *v;
      if (flag == "--vapid-subject") c.vapid_subject = *v;
    } else {
      result.error = "unknown option " + flag;
      return result;
    }
  }
  if (!valid_level(c.log_level)) {
    result.error = "unknown log level " + c.log_level;
    return result;
  }
  while (!c.public_url.empty() && c.public_url.back() == '/') c.public_url.pop_back();
  while (!c.server_url.empty() && c.server_url.back() == '/') c.server_url.pop_back();
  if (!c.server_url.empty() && c.db.rfind("postgresql://", 0) != 0 &&
      c.db.rfind("postgres://", 0) != 0) {
    result.error = "--server-url is for several servers on one PostgreSQL database; --db is " +
                   std::string("a file (one server per SQLite database)");
    return result;
  }
  if (std::string smtp_error = check_smtp(c); !smtp_error.empty()) {
    result.error = smtp_error;
    return result;
  }
  result.config = c;
  return result;
}

}  // namespace viktory::server
