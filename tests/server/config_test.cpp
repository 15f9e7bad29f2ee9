#include "config.h"

#include <gtest/gtest.h>

#include <map>

namespace viktory::server {
namespace {

ParsedConfig parse(std::vector<std::string> args, std::map<std::string, std::string> env = {}) {
  return parse_config(args, [&](const char* name) -> std::optional<std::string> {
    auto it = env.find(name);
    if (it == env.end()) return std::nullopt;
    return it->second;
  });
}

TEST(Config, Defaults) {
  auto p = parse({});
  ASSERT_TRUE(p.config);
  EXPECT_EQ(p.config->port, 8080);
  EXPECT_EQ(p.config->bind, "127.0.0.1");
  EXPECT_EQ(p.config->db, "./viktory.db");
  EXPECT_EQ(p.config->web_root, "./web-client");
  EXPECT_EQ(p.config->log_level, "info");
}

TEST(Config, CheckDbIsAModeThatKeepsTheOtherSettings) {
  EXPECT_FALSE(parse({}).check_db);
  auto p = parse({"--check-db", "--db", "restored.db"});
  EXPECT_TRUE(p.check_db);
  ASSERT_TRUE(p.config);
  EXPECT_EQ(p.config->db, "restored.db");
  EXPECT_NE(usage().find("--check-db"), std::string::npos);
}

TEST(Config, FlagsBeatEnvironmentWhichBeatsDefaults) {
  auto p =
      parse({"--port", "9000", "--db", "x.db"}, {{"VIKTORY_PORT", "7000"},
                                                 {"VIKTORY_BIND", "0.0.0.0"},
                                                 {"VIKTORY_DB", "env.db"},
                                                 {"VIKTORY_PUBLIC_URL", "https://example.org/"}});
  ASSERT_TRUE(p.config);
  EXPECT_EQ(p.config->port, 9000);
  EXPECT_EQ(p.config->bind, "0.0.0.0");
  EXPECT_EQ(p.config->db, "x.db");
  EXPECT_EQ(p.config->public_url, "https://example.org");  // trailing slash dropped
  auto limited = parse({"--rate-limit", "100"});
  ASSERT_TRUE(limited.config);
  EXPECT_EQ(limited.config->messages_per_second, 100);
  EXPECT_EQ(limited.config->message_burst, 200);
  EXPECT_FALSE(parse({"--rate-limit", "0"}).config);
  EXPECT_EQ(parse({"--idle-timeout", "5"}).config->idle_timeout_seconds, 5);
  EXPECT_FALSE(parse({"--idle-timeout", "1"}).config);
  EXPECT_EQ(parse({"--signups-per-minute", "600"}).config->signups_per_minute, 600);
}

TEST(Config, ConnectionLimitFromEnvironmentForProxiedSetups) {
  auto p = parse({}, {{"VIKTORY_MAX_CONNECTIONS_PER_ADDRESS", "5000"}});
  ASSERT_TRUE(p.config);
  EXPECT_EQ(p.config->max_connections_per_address, 5000);
  EXPECT_EQ(parse({"--max-connections-per-address", "7"},
                  {{"VIKTORY_MAX_CONNECTIONS_PER_ADDRESS", "5000"}})
                .config->max_connections_per_address,
            7);
  EXPECT_FALSE(parse({}, {{"VIKTORY_MAX_CONNECTIONS_PER_ADDRESS", "0"}}).config);
}

TEST(Config, ComputerWorkersAndCapsOnComputerGames) {
  auto defaults = parse({});
  ASSERT_TRUE(defaults.config);
  EXPECT_EQ(defaults.config->computer_threads, 0);  // one per core
  EXPECT_EQ(defaults.config->computer_games_per_player, 4);
  EXPECT_EQ(defaults.config->computer_games_per_address, 8);
  EXPECT_EQ(defaults.config->computer_games, 128);
  auto p = parse({"--computer-games-per-player", "2", "--computer-threads", "3"},
                 {{"VIKTORY_COMPUTER_GAMES_PER_PLAYER", "9"},
                  {"VIKTORY_COMPUTER_GAMES_PER_ADDRESS", "20"},
                  {"VIKTORY_COMPUTER_GAMES", "500"}});
  ASSERT_TRUE(p.config);
  EXPECT_EQ(p.config->computer_games_per_player, 2);  // the flag wins
  EXPECT_EQ(p.config->computer_games_per_address, 20);
  EXPECT_EQ(p.config->computer_games, 500);
  EXPECT_EQ(p.config->computer_threads, 3);
  EXPECT_EQ(parse({"--computer-games", "0"}).config->computer_games, 0);  // none at all
  EXPECT_FALSE(parse({"--computer-games-per-address", "-1"}).config);
  EXPECT_FALSE(parse({}, {{"VIKTORY_COMPUTER_GAMES", "many"}}).config);
  EXPECT_FALSE(parse({"--computer-threads", "65"}).config);
}

TEST(Config, ErrorsAndHelp) {
  EXPECT_TRUE(parse({"--help"}).help);
  EXPECT_FALSE(parse({"--port", "70000"}).config);
  EXPECT_FALSE(parse({"--port"}).config);
  EXPECT_FALSE(parse({"--port", "12x"}).config);
  EXPECT_FALSE(parse({"--frobnicate"}).config);
  EXPECT_FALSE(parse({"--log-level", "loud"}).config);
  EXPECT_FALSE(parse({}, {{"VIKTORY_PORT", "abc"}}).config);
  EXPECT_NE(parse({"--frobnicate"}).error.find("--frobnicate"), std::string::npos);
  EXPECT_NE(usage().find("--public-url"), std::string::npos);
}

TEST(Config, TrustedProxiesFromFlagsOrEnvironment) {
  EXPECT_TRUE(parse({}).config->trusted_proxies.empty());
  auto env = parse({}, {{"VIKTORY_TRUSTED_PROXY", "127.0.0.1, 10.0.0.0/8"}});
  ASSERT_TRUE(env.config);
  EXPECT_EQ(env.config->trusted_proxies, (std::vector<std::string>{"127.0.0.1", "10.0.0.0/8"}));
  auto flags = parse({"--trusted-proxy", "::1", "--trusted-proxy", "172.16.0.0/12,127.0.0.1"},
                     {{"VIKTORY_TRUSTED_PROXY", "10.0.0.1"}});
  ASSERT_TRUE(flags.config);
  EXPECT_EQ(flags.config->trusted_proxies,
            (std::vector<std::string>{"::1", "172.16.0.0/12", "127.0.0.1"}));
  EXPECT_FALSE(parse({"--trusted-proxy", "proxy.example.org"}).config);
  EXPECT_FALSE(parse({}, {{"VIKTORY_TRUSTED_PROXY", "10.0.0.0/99"}}).config);
}

// Fair play (docs/fair-play.md): the operator's accounts and the reveal round's deadline.
TEST(Config, OperatorAccountsAndTheRevealRound) {
  EXPECT_TRUE(parse({}).config->operators.empty());
  const auto env = parse({}, {{"VIKTORY_OPERATORS", "Host,Host's second, "}});
  ASSERT_TRUE(env.config);
  EXPECT_EQ(env.config->operators, (std::vector<std::string>{"Host", "Host's second"}));
  const auto flags =
      parse({"--operator", "Admin", "--operator", "Other"}, {{"VIKTORY_OPERATORS", "Host"}});
  ASSERT_TRUE(flags.config);
  EXPECT_EQ(flags.config->operators, (std::vector<std::string>{"Admin", "Other"}));
  EXPECT_FALSE(parse({"--operator"}).config);
  const auto waits = parse(
      {"--reveal-wait-min", "300", "--reveal-wait-untimed", "24", "--reveal-rounds-per-hour", "3"});
  ASSERT_TRUE(waits.config);
  EXPECT_EQ(waits.config->reveal_wait_min_seconds, 300);
  EXPECT_EQ(waits.config->reveal_wait_untimed_hours, 24);
  EXPECT_EQ(waits.config->reveal_rounds_per_hour, 3);
  EXPECT_FALSE(parse({"--reveal-wait-min", "1"}).config);
}

TEST(Config, DeveloperPagesAndFrameTimeout) {
  auto p = parse({});
  EXPECT_FALSE(p.config->dev);
  EXPECT_EQ(p.config->frame_timeout_seconds, 30);
  auto d = parse({"--dev", "--frame-timeout", "5", "--replays-per-minute", "10"});
  ASSERT_TRUE(d.config);
  EXPECT_TRUE(d.config->dev);
  EXPECT_EQ(d.config->frame_timeout_seconds, 5);
  EXPECT_EQ(d.config->replays_per_minute, 10);
  EXPECT_FALSE(parse({"--frame-timeout", "0"}).config);
}

TEST(Config, PresenceLimitAndIdleTimeout) {
  auto p = parse({});
  EXPECT_EQ(p.config->presence_per_minute, 240);
  EXPECT_EQ(p.config->idle_timeout_seconds, 10);  // presence within 10 s of a silent peer
  EXPECT_EQ(parse({"--presence-per-minute", "30"}).config->presence_per_minute, 30);
  EXPECT_FALSE(parse({"--presence-per-minute", "0"}).config);
}

TEST(Config, NotificationBudgetsAndMailLimits) {
  auto p = parse({});
  EXPECT_EQ(p.config->notify_queue_per_channel, 1000);
  EXPECT_EQ(p.config->notify_account_mail_reserve, 200);
  EXPECT_EQ(p.config->notify_pending_per_player, 30);
  EXPECT_EQ(p.config->notify_running_per_player, 4);
  EXPECT_EQ(p.config->notify_turns_per_game, 16);
  EXPECT_EQ(p.config->mails_per_recipient_per_hour, 4);
  EXPECT_EQ(p.config->mails_per_client_per_hour, 30);
  auto c =
      parse({"--notify-queue", "50", "--notify-account-mail-reserve", "5", "--notify-per-player",
             "7", "--notify-running-per-player", "2", "--notify-turns-per-game", "3",
             "--mails-per-recipient-per-hour", "9", "--mails-per-client-per-hour", "11"});
  ASSERT_TRUE(c.config) << c.error;
  EXPECT_EQ(c.config->notify_queue_per_channel, 50);
  EXPECT_EQ(c.config->notify_account_mail_reserve, 5);
  EXPECT_EQ(c.config->notify_pending_per_player, 7);
  EXPECT_EQ(c.config->notify_running_per_player, 2);
  EXPECT_EQ(c.config->notify_turns_per_game, 3);
  EXPECT_EQ(c.config->mails_per_recipient_per_hour, 9);
  EXPECT_EQ(c.config->mails_per_client_per_hour, 11);
  EXPECT_FALSE(parse({"--notify-per-player", "0"}).config);
  EXPECT_FALSE(parse({"--mails-per-recipient-per-hour", "x"}).config);
}

}  // namespace
}  // namespace viktory::server

namespace viktory::server {
namespace {

TEST(Config, SmtpRelayFromFlagsAndEnvironmentPasswordNeverAFlag) {
  auto p = parse({"--smtp-url", "smtp://mail.example.org:587", "--smtp-from",
                  "VIKTORY II <turns@example.org>", "--smtp-user", "turns"},
                 {{"VIKTORY_SMTP_PASSWORD", "secret"}, {"VIKTORY_SMTP_STARTTLS", "opportunistic"}});
  ASSERT_TRUE(p.config) << p.error;
  EXPECT_EQ(p.config->smtp_url, "smtp://mail.example.org:587");
  EXPECT_EQ(p.config->smtp_user, "turns");
  EXPECT_EQ(p.config->smtp_password, "secret");
  EXPECT_EQ(p.config->smtp_starttls, "opportunistic");
  const auto from = parse_mailbox(p.config->smtp_from);
  ASSERT_TRUE(from);
  EXPECT_EQ(from->first, "VIKTORY II");
  EXPECT_EQ(from->second, "turns@example.org");

  EXPECT_FALSE(parse({"--smtp-password", "x"}).config);  // no such flag: it would show in ps
  EXPECT_FALSE(parse({"--smtp-url", "http://mail.example.org"}).config);
  EXPECT_FALSE(parse({"--smtp-url", "smtp://mail.example.org"}).config);  // no sender
  EXPECT_FALSE(parse({"--smtp-url", "smtp://m.example.org", "--smtp-from", "a@b.org",
                      "--smtp-starttls", "maybe"})
                   .config);
  EXPECT_FALSE(parse({}, {{"VIKTORY_SMTP_PASSWORD_FILE", "/nonexistent/secret"}}).config);
  EXPECT_TRUE(parse({}).config->smtp_url.empty());  // no relay: no e-mail
}

}  // namespace
}  // namespace viktory::server
