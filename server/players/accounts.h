// A player's identity across devices: single-use sign-in links, recovery codes, an optional
// e-mail address verified by a link, and signing other devices out. A guest without any of
// these keeps playing with the token his first browser holds, as before.
//
// Secrets (device tokens, codes, verification links) are 128 or 256 random bits from the
// operating system and are stored only as SHA-256 hashes; each is told once, when it is made.
// A code is deleted when it is used (single use); a sign-in link and a verification link
// expire. Redeeming a code gives the new device a token of its own: the old devices keep
// working until the player signs them out, which also revokes the recovery code (a thief with
// a stolen token could have made one).
//
// Accounts has its own read-write connection to the database (WAL) and its own lock, so none
// of its requests takes the game logic's lock.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "common.h"
#include "database.h"
#include "email.h"
#include "notifier.h"
#include "rate_limit.h"

namespace viktory::server {

struct AccountOptions {
  // The URL players use ("https://viktory.example.org"), for the links in e-mails and the
  // sign-in link's URL. Empty: the client builds the link from its own address.
  std::string public_url;
  std::int64_t sign_in_link_ms = 24LL * 3600 * 1000;  // a sign-in link is valid this long
  std::int64_t verify_link_ms = 48LL * 3600 * 1000;   // an e-mail verification link
  // Attempts to redeem a code (or ask for a link by e-mail) per client address.
  double redeems_per_minute = 10;
  // Account mails (address confirmations, sign-in links by e-mail) to one address, whoever asks
  // (across all players and client addresses), and asked for from one client address (across
  // all players and recipients); each a bucket of this many, refilled over an hour. The limit
  // per player (10 a minute) alone let new players mail one address a thousand times.
  double mails_per_recipient_per_hour = 4;
  double mails_per_client_per_hour = 30;
  // Hands a mail to the notifier (never waits for the relay); empty when no SMTP relay is
  // configured, and then e-mail addresses cannot be added.
  std::function<bool(const notify::EmailMessage&)> send_mail;
  // Milliseconds since the epoch; injectable so that tests can let links expire.
  std::function<std::int64_t()> now = now_ms;
};

// AccountOptions::send_mail of a server with a relay: each account mail is a priority delivery
// of the notifier (its reserve, started before turn messages), owned by its recipient.
std::function<bool(const notify::EmailMessage&)> account_mailer(
    notify::Notifier& notifier, std::shared_ptr<const notify::SmtpSettings> smtp);

// Kinds of codes in sign_in_codes.kind.
inline constexpr std::string_view kLinkCode = "link";          // made on a signed-in device
inline constexpr std::string_view kRecoveryCode = "recovery";  // one per player, no expiry
inline constexpr std::string_view kMailedLinkCode = "mail";    // sent to a verified address

class Accounts {
 public:
  Accounts(const std::string& db_path, AccountOptions options);

  // Several servers on one database (rate_limit.h, ChargeSink): the mail budgets ("mail_to",
  // "mail_from") are told to the sink as they are charged, and charged with what the other
  // servers took.
  void set_charge_sink(ChargeSink sink) {
    std::lock_guard lock(mutex_);
    charge_sink_ = std::move(sink);
  }
  void charge_remote(const std::string& budget, const std::string& key, double cost);

  // Whether `path` is one of ours: /api/account and /api/account/..., /api/session/redeem,
  // /api/session/email-link.
  static bool handles(std::string_view path);

  // `accept_language`: the request's Accept-Language header, the language of the account mails
  // asked for before signing in when the body names none.
  ApiResponse handle_api(std::string_view method, std::string_view path, std::string_view body,
                         std::string_view authorization, std::string_view address,
                         std::string_view accept_language = {});

  // The language a request asks for in `field` of its body ("de", "de-AT": a catalog's
  // language by its tag or base, text::Catalogs::choose): the catalog's language; nullopt for
  // anything else (not a string, a list, more than 35 characters, a language without a
  // catalog).
  static std::optional<std::string> offered_language(const nlohmann::json& field);

  // Normalises a code as typed by a person: lower case, without spaces and dashes.
  static std::string normalise_code(std::string_view typed);
  // A recovery code for people: 32 hex digits in eight groups of four.
  static std::string format_recovery_code(std::string_view hex);

 private:
  struct Player {
    std::int64_t id = 0;
    std::string name;
    std::string token_hash;  // the hash of the token the request came with
  };
  std::optional<Player> player_for_bearer(std::string_view authorization);
  nlohmann::json account_of(const Player& player);
  std::string new_code(std::int64_t player_id, std::string_view kind,
                       std::optional<std::int64_t> expires);
  ApiResponse redeem(const nlohmann::json& body, std::string_view address);
  ApiResponse mail_link(const nlohmann::json& body, std::string_view address,
                        std::string_view accept_language);
  ApiResponse set_email(const Player& player, const nlohmann::json& body, std::string_view address,
                        std::string_view accept_language);
  ApiResponse verify_email(const nlohmann::json& body, std::string_view address);
  ApiResponse sign_out_others(const Player& player);
  ApiResponse set_language(const Player& player, const nlohmann::json& body);
  // The player's stored language; empty when he has not told one.
  std::string stored_language(std::int64_t player_id);
  // Takes a mail from the client address's and the recipient's budgets (in that order, so that
  // a client over its own budget spends nobody's). False: no mail.
  bool admit_mail(std::string_view recipient, std::string_view client);
  std::string link_to(std::string_view route, std::string_view code) const;

  std::mutex mutex_;
  ChargeSink charge_sink_;  // several servers: the mail budgets' charges go to the others
  Database db_;
  AccountOptions options_;
  AddressBuckets redeem_buckets_;
  // Writes of standing orders (PUT /api/account/standing-orders) per player.
  AddressBuckets orders_buckets_{kOrderWritesPerMinute / 60.0, kOrderWritesPerMinute};
  static constexpr double kOrderWritesPerMinute = 30;
  // Changes of the language (POST /api/account/language) per player: a browser tells it once
  // per page load.
  AddressBuckets language_buckets_{kLanguageWritesPerMinute / 60.0, kLanguageWritesPerMinute};
  static constexpr double kLanguageWritesPerMinute = 30;
  AddressBuckets mails_to_;    // by recipient address (shared_budget_key)
  AddressBuckets mails_from_;  // by client address (shared_budget_key)
};

}  // namespace viktory::server
