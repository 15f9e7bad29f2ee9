#include "accounts.h"

#include <spdlog/spdlog.h>

#include <cctype>

#include "catalog.h"
#include "deliveries.h"
#include "standing_order_service.h"
#include "token.h"

namespace viktory::server {
namespace {

using nlohmann::json;
using text::operator""_key;

constexpr std::size_t kCodeDigits = 32;  // 128 bits
constexpr int kMaxPendingLinks = 10;     // sign-in links of one player not used yet
constexpr std::size_t kMaxAddressLength = 254;

ApiResponse ok(const json& body) { return ApiResponse{200, body.dump()}; }

ApiResponse bad_code() {
  // One answer for unknown, used and expired codes: nothing to learn from trying.
  return api_error(404, "bad_code", "this code is unknown, was used already or has expired");
}

std::optional<json> object_body(std::string_view body) {
  json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  return j;
}

std::optional<std::string> string_member(const json& j, const char* name) {
  auto it = j.find(name);
  if (it == j.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

constexpr std::size_t kMaxLanguageTagLength = 35;  // BCP 47's longest tags in practice

}  // namespace

std::optional<std::string> Accounts::offered_language(const json& field) {
  if (!field.is_string()) return std::nullopt;
  const std::string tag = lower(field.get<std::string>());
  if (tag.empty() || tag.size() > kMaxLanguageTagLength) return std::nullopt;
  for (const char c : tag) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') return std::nullopt;
  }
  // choose() falls back to English for a language it lacks: only a tag whose base is the chosen
  // catalog's language (or the catalog's own tag) is one on offer.
  const std::string chosen = text::catalogs().choose(tag);
  const std::string base = tag.substr(0, tag.find('-'));
  if (lower(chosen) != tag && lower(chosen) != base) return std::nullopt;
  return chosen;
}

std::function<bool(const notify::EmailMessage&)> account_mailer(
    notify::Notifier& notifier, std::shared_ptr<const notify::SmtpSettings> smtp) {
  return [&notifier, smtp = std::move(smtp)](const notify::EmailMessage& message) {
    // Account mails have the notifier's reserve and go first: turn messages never drop or
    // delay them.
    notify::Delivery delivery = notify::email_delivery(smtp, message);
    delivery.priority = true;
    delivery.owner = "mail:" + message.to.address;
    return notifier.enqueue(std::move(delivery));
  };
}

Accounts::Accounts(const std::string& db_path, AccountOptions options)
    : db_(db_path),
      options_(std::move(options)),
      redeem_buckets_(options_.redeems_per_minute / 60.0, options_.redeems_per_minute),
      mails_to_(options_.mails_per_recipient_per_hour / 3600.0,
                options_.mails_per_recipient_per_hour),
      mails_from_(options_.mails_per_client_per_hour / 3600.0, options_.mails_per_client_per_hour) {
}

bool Accounts::admit_mail(std::string_view recipient, std::string_view client) {
  const std::string from = shared_budget_key(client);
  if (!mails_from_.take(from)) return false;
  if (charge_sink_) charge_sink_("mail_from", from, 1);
  const std::string to = shared_budget_key(recipient);
  if (!mails_to_.take(to)) return false;
  if (charge_sink_) charge_sink_("mail_to", to, 1);
  return true;
}

void Accounts::charge_remote(const std::string& budget, const std::string& key, double cost) {
  std::lock_guard lock(mutex_);
  if (budget == "mail_from") mails_from_.spend(key, cost);
  if (budget == "mail_to") mails_to_.spend(key, cost);
}

bool Accounts::handles(std::string_view path) {
  // The export and the deletion are the Hub's (hub_leaving.cpp): deleting concedes games.
  if (path == "/api/account/export" || path == "/api/account/delete") return false;
  return path == "/api/account" || path.substr(0, 13) == "/api/account/" ||
         path == "/api/session/redeem" || path == "/api/session/email-link";
}

std::string Accounts::normalise_code(std::string_view typed) {
  std::string out;
  for (char c : typed) {
    if (c == '-' || c == ' ') continue;
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

std::string Accounts::format_recovery_code(std::string_view hex) {
  std::string out;
  for (std::size_t i = 0; i < hex.size(); ++i) {
    if (i > 0 && i % 4 == 0) out.push_back('-');
    out.push_back(hex[i]);
  }
  return out;
}

std::optional<Accounts::Player> Accounts::player_for_bearer(std::string_view authorization) {
  const std::optional<std::string> hash = bearer_token_hash(authorization);
  if (!hash) return std::nullopt;
  Statement s = db_.prepare(
      "SELECT id, name FROM players WHERE token_hash = ?1 UNION ALL SELECT p.id, p.name FROM "
      "device_tokens d JOIN players p ON p.id = d.player_id WHERE d.token_hash = ?1 LIMIT 1");
  s.bind(1, *hash);
  if (!s.step()) return std::nullopt;
  return Player{s.int64(0), s.text(1), *hash};
}

std::string Accounts::link_to(std::string_view route, std::string_view code) const {
  if (options_.public_url.empty()) return "";
  return options_.public_url + "/#/" + std::string(route) + "/" + std::string(code);
}

json Accounts::account_of(const Player& player) {
  json out{
      {"player_id", std::to_string(player.id)},
      {"name", player.name},
      {"email", nullptr},
      {"email_available", static_cast<bool>(options_.send_mail) && !options_.public_url.empty()},
      {"recovery_code_created", nullptr},
      {"language", nullptr}};
  if (std::string language = stored_language(player.id); !language.empty()) {
    out["language"] = std::move(language);
  }
  {
    Statement s = db_.prepare("SELECT address, verified FROM player_emails WHERE player_id = ?");
    s.bind(1, player.id);
    if (s.step()) out["email"] = json{{"address", s.text(0)}, {"verified", s.int64(1) != 0}};
  }
  {
    Statement s = db_.prepare(
        "SELECT created FROM sign_in_codes WHERE player_id = ? AND kind = ? ORDER BY created DESC "
        "LIMIT 1");
    s.bind(1, player.id).bind(2, kRecoveryCode);
    if (s.step()) out["recovery_code_created"] = s.int64(0);
  }
  {
    // The first device (players.token_hash) and every device signed in with a code since.
    Statement s = db_.prepare("SELECT COUNT(*) FROM device_tokens WHERE player_id = ?");
    s.bind(1, player.id);
    s.step();
    out["devices"] = 1 + s.int64(0);
  }
  {
    Statement s = db_.prepare(
        "SELECT COUNT(*) FROM sign_in_codes WHERE player_id = ? AND kind != ? AND expires >= ?");
    s.bind(1, player.id).bind(2, kRecoveryCode).bind(3, options_.now());
    s.step();
    out["pending_links"] = s.int64(0);
  }
  return out;
}

std::string Accounts::new_code(std::int64_t player_id, std::string_view kind,
                               std::optional<std::int64_t> expires) {
  const std::string code = new_invite_code();  // 128 random bits, 32 hex digits
  auto insert = db_.prepare(
      "INSERT INTO sign_in_codes(code_hash, player_id, kind, created, expires) "
      "VALUES(?, ?, ?, ?, ?)");
  insert.bind(1, token_hash(code)).bind(2, player_id).bind(3, kind).bind(4, options_.now());
  if (expires) {
    insert.bind(5, *expires);
  } else {
    insert.bind_null(5);
  }
  insert.run();
  return code;
}

ApiResponse Accounts::handle_api(std::string_view method, std::string_view path,
                                 std::string_view body, std::string_view authorization,
                                 std::string_view address, std::string_view accept_language) {
  std::lock_guard lock(mutex_);
  try {
    const bool orders_path = path == "/api/account/standing-orders";  // also PUT
    if (method != "GET" && method != "POST" && method != "DELETE" &&
        !(orders_path && method == "PUT")) {
      return api_error(405, "method", "use GET, POST or DELETE");
    }
    std::optional<json> j;
    if (method != "GET") {
      j = object_body(body.empty() ? std::string_view("{}") : body);
      if (!j) return api_error(400, "bad_message", "the body must be a JSON object");
    }
    // Without a session.
    if (path == "/api/session/redeem") {
      if (method != "POST") return api_error(405, "method", "use POST");
      return redeem(*j, address);
    }
    if (path == "/api/session/email-link") {
      if (method != "POST") return api_error(405, "method", "use POST");
      return mail_link(*j, address, accept_language);
    }
    if (path == "/api/account/email/verify") {
      if (method != "POST") return api_error(405, "method", "use POST");
      return verify_email(*j, address);
    }

    const auto player = player_for_bearer(authorization);
    if (!player) return api_error(401, "auth_failed", "send Authorization: Bearer <token>");
    if (path == "/api/account") {
      if (method != "GET") return api_error(405, "method", "use GET");
      return ok(account_of(*player));
    }
    if (path == "/api/account/sign-in-link") {
      if (method != "POST") return api_error(405, "method", "use POST");
      const std::int64_t now = options_.now();
      Transaction tx(db_);
      db_.prepare("DELETE FROM sign_in_codes WHERE expires IS NOT NULL AND expires < ?")
          .bind(1, now)
          .run();
      Statement count =
          db_.prepare("SELECT COUNT(*) FROM sign_in_codes WHERE player_id = ? AND kind != ?");
      count.bind(1, player->id).bind(2, kRecoveryCode);
      count.step();
      if (count.int64(0) >= kMaxPendingLinks) {
        return api_error(429, "too_many_links",
                         "you have made many sign-in links that were not used; use one of them "
                         "or wait until they expire");
      }
      const std::int64_t expires = now + options_.sign_in_link_ms;
      const std::string code = new_code(player->id, kLinkCode, expires);
      tx.commit();
      spdlog::info("sign_in_link_created player={}", player->id);
      return ok(json{{"code", code}, {"url", link_to("signin", code)}, {"expires", expires}});
    }
    if (path == "/api/account/recovery-code") {
      if (method == "GET") return api_error(405, "method", "use POST or DELETE");
      Transaction tx(db_);
      // One recovery code per player: a new one replaces the old.
      db_.prepare("DELETE FROM sign_in_codes WHERE player_id = ? AND kind = ?")
          .bind(1, player->id)
          .bind(2, kRecoveryCode)
          .run();
      json out{{"code", nullptr}};
      if (method == "POST") {
        out["code"] = format_recovery_code(new_code(player->id, kRecoveryCode, std::nullopt));
      }
      tx.commit();
      spdlog::info("recovery_code_{} player={}", method == "POST" ? "created" : "deleted",
                   player->id);
      return ok(out);
    }
    if (path == "/api/account/sign-out-others") {
      if (method != "POST") return api_error(405, "method", "use POST");
      return sign_out_others(*player);
    }
    if (path == "/api/account/email") {
      if (method != "POST") return api_error(405, "method", "use POST");
      return set_email(*player, *j, address, accept_language);
    }
    if (path == "/api/account/language") {
      if (method != "POST") return api_error(405, "method", "use POST");
      return set_language(*player, *j);
    }
    if (orders_path) {  // standing_order_service.h
      if (method == "PUT" && !orders_buckets_.take(std::to_string(player->id))) {
        return api_error(429, "rate_limited", "too many changes of your orders; wait a minute");
      }
      return account_orders_api(db_, player->id, method, j ? *j : json::object());
    }
    return api_error(404, "not_found", "no such path");
  } catch (const std::exception& e) {
    spdlog::error("account_request_failed path={} error={}", path, e.what());
    return api_error(500, "internal", "the server could not handle this request");
  }
}

ApiResponse Accounts::redeem(const json& body, std::string_view address) {
  if (!redeem_buckets_.take(address)) {
    return api_error(429, "rate_limited", "too many attempts from this address; wait a minute");
  }
  const auto typed = string_member(body, "code");
  if (!typed) return api_error(400, "bad_message", "send {\"code\":\"...\"}");
  const std::string code = normalise_code(*typed);
  if (!looks_like_hex_secret(code, kCodeDigits)) return bad_code();
  const std::int64_t now = options_.now();
  Transaction tx(db_);
  Statement find = db_.prepare(
      "SELECT c.player_id, c.kind, c.expires, p.name FROM sign_in_codes c JOIN players p ON "
      "p.id = c.player_id WHERE c.code_hash = ?");
  find.bind(1, token_hash(code));
  if (!find.step()) return bad_code();
  const std::int64_t player_id = find.int64(0);
  const std::string kind = find.text(1);
  const std::optional<std::int64_t> expires = find.optional_int64(2);
  const std::string name = find.text(3);
  // Single use: the code is gone whether it still worked or had expired.
  db_.prepare("DELETE FROM sign_in_codes WHERE code_hash = ?").bind(1, token_hash(code)).run();
  if (expires && *expires < now) {
    tx.commit();
    return bad_code();
  }
  const std::string token = new_token();
  db_.prepare("INSERT INTO device_tokens(token_hash, player_id, created) VALUES(?, ?, ?)")
      .bind(1, token_hash(token))
      .bind(2, player_id)
      .bind(3, now)
      .run();
  tx.commit();
  spdlog::info("signed_in_with_code player={} kind={}", player_id, kind);
  return ok(json{{"player_id", std::to_string(player_id)}, {"name", name}, {"token", token}});
}

ApiResponse Accounts::sign_out_others(const Player& player) {
  const std::string token = new_token();
  Transaction tx(db_);
  db_.prepare("UPDATE players SET token_hash = ? WHERE id = ?")
      .bind(1, token_hash(token))
      .bind(2, player.id)
      .run();
  db_.prepare("DELETE FROM device_tokens WHERE player_id = ?").bind(1, player.id).run();
  // Pending sign-in links would let a device back in, and so would a recovery code: whoever
  // held a stolen token could have made one. The player makes a new one on this device.
  db_.prepare("DELETE FROM sign_in_codes WHERE player_id = ? AND kind != ?")
      .bind(1, player.id)
      .bind(2, kRecoveryCode)
      .run();
  db_.prepare("DELETE FROM sign_in_codes WHERE player_id = ? AND kind = ?")
      .bind(1, player.id)
      .bind(2, kRecoveryCode)
      .run();
  const bool recovery_revoked = db_.changes() > 0;
  tx.commit();
  spdlog::info("signed_out_other_devices player={} recovery_code_revoked={}", player.id,
               recovery_revoked);
  return ok(json{{"player_id", std::to_string(player.id)},
                 {"name", player.name},
                 {"token", token},
                 {"recovery_code_revoked", recovery_revoked}});
}

std::string Accounts::stored_language(std::int64_t player_id) {
  Statement s = db_.prepare("SELECT language FROM players WHERE id = ?");
  s.bind(1, player_id);
  if (!s.step() || s.is_null(0)) return "";
  return s.text(0);
}

ApiResponse Accounts::set_language(const Player& player, const json& body) {
  const auto field = body.find("language");
  const std::optional<std::string> language =
      field == body.end() ? std::nullopt : offered_language(*field);
  if (!language) {
    std::string offered;
    for (const std::string& l : text::catalogs().languages()) {
      offered += (offered.empty() ? "" : ", ") + l;
    }
    return api_error(400, "bad_language", "send {\"language\":\"...\"}, one of: " + offered);
  }
  if (!language_buckets_.take(std::to_string(player.id))) {
    return api_error(429, "rate_limited", "too many changes of your language; wait a minute");
  }
  db_.prepare("UPDATE players SET language = ?1 WHERE id = ?2 AND language IS NOT ?1")
      .bind(1, *language)
      .bind(2, player.id)
      .run();
  return ok(json{{"language", *language}});
}

ApiResponse Accounts::set_email(const Player& player, const json& body, std::string_view client,
                                std::string_view accept_language) {
  auto it = body.find("address");
  if (it == body.end() || (!it->is_null() && !it->is_string())) {
    return api_error(400, "bad_message", "send {\"address\":\"...\"} or {\"address\":null}");
  }
  if (it->is_null() || it->get<std::string>().empty()) {
    db_.prepare("DELETE FROM player_emails WHERE player_id = ?").bind(1, player.id).run();
    spdlog::info("email_removed player={}", player.id);
    return ok(account_of(player));
  }
  if (!options_.send_mail || options_.public_url.empty()) {
    return api_error(503, "email_unavailable", "this server does not send e-mail");
  }
  const std::string address = lower(it->get<std::string>());
  if (address.size() > kMaxAddressLength || !notify::is_valid_address(address) ||
      address.find('.', address.find('@')) == std::string::npos) {
    return api_error(400, "bad_address", "this is not an e-mail address");
  }
  // Each verification mail goes to an address somebody typed: not too many per player, per
  // client address, and to one address whoever asks. Sign-in links by e-mail take from the
  // same recipient budget whether or not the address belongs to anybody, so this answer says
  // nothing about who plays here.
  if (!redeem_buckets_.take("mail-player:" + std::to_string(player.id))) {
    return api_error(429, "rate_limited", "too many e-mails asked for; wait a minute");
  }
  if (!admit_mail(address, client)) {
    return api_error(429, "mail_limited",
                     "too many e-mails went to this address or from here lately; try again in "
                     "an hour");
  }
  const std::string code = new_invite_code();
  const std::int64_t now = options_.now();
  db_.prepare(
         "INSERT INTO player_emails(player_id, address, verified, verify_hash, verify_expires, "
         "created) VALUES(?1, ?2, 0, ?3, ?4, ?5) ON CONFLICT(player_id) DO UPDATE SET address = "
         "?2, verified = 0, verify_hash = ?3, verify_expires = ?4, created = ?5")
      .bind(1, player.id)
      .bind(2, address)
      .bind(3, token_hash(code))
      .bind(4, now + options_.verify_link_ms)
      .bind(5, now)
      .run();
  // In the player's language; before his browser told it, the request's.
  std::string language = stored_language(player.id);
  if (language.empty()) language = text::catalogs().choose(accept_language);
  notify::EmailMessage mail;
  mail.to = notify::Mailbox{address, ""};
  mail.subject = text::catalogs().text(language, "mail.verifySubject"_key);
  // No display name in the text: it is the asker's free text, and this mail may go to
  // somebody else's address (a name like "Claim your prize at http://..." would be phishing
  // sent in our name).
  mail.text = text::catalogs().text(language, "mail.verifyBody"_key,
                                    {{"link", link_to("verify-email", code)}}) +
              "\n";
  const bool queued = options_.send_mail(mail);
  spdlog::info("email_verification_sent player={} queued={}", player.id, queued);
  json out = account_of(player);
  out["sent"] = queued;
  return ok(out);
}

ApiResponse Accounts::verify_email(const json& body, std::string_view address) {
  if (!redeem_buckets_.take(address)) {
    return api_error(429, "rate_limited", "too many attempts from this address; wait a minute");
  }
  const auto typed = string_member(body, "code");
  if (!typed) return api_error(400, "bad_message", "send {\"code\":\"...\"}");
  const std::string code = normalise_code(*typed);
  if (!looks_like_hex_secret(code, kCodeDigits)) return bad_code();
  Statement s = db_.prepare(
      "UPDATE player_emails SET verified = 1, verify_hash = NULL, verify_expires = NULL WHERE "
      "verify_hash = ? AND verify_expires >= ? RETURNING player_id, address");
  s.bind(1, token_hash(code)).bind(2, options_.now());
  if (!s.step()) return bad_code();
  const std::int64_t player_id = s.int64(0);
  const std::string verified = s.text(1);
  while (s.step()) {
  }
  spdlog::info("email_verified player={}", player_id);
  return ok(json{{"address", verified}, {"verified", true}});
}

ApiResponse Accounts::mail_link(const json& body, std::string_view address,
                                std::string_view accept_language) {
  if (!redeem_buckets_.take(address)) {
    return api_error(429, "rate_limited", "too many attempts from this address; wait a minute");
  }
  const auto typed = string_member(body, "address");
  if (!typed) return api_error(400, "bad_message", "send {\"address\":\"...\"}");
  // The asker's language: the page's (`language`), else the browser's Accept-Language.
  std::string language = text::catalogs().choose(accept_language);
  if (const auto field = body.find("language"); field != body.end()) {
    const std::optional<std::string> offered = offered_language(*field);
    if (!offered) return api_error(400, "bad_language", "this language is not offered");
    language = *offered;
  }
  if (!options_.send_mail || options_.public_url.empty()) {
    return api_error(503, "email_unavailable", "this server does not send e-mail");
  }
  const std::string to = lower(*typed);
  // The same answer whether or not the address belongs to someone: the form tells nobody who
  // plays here.
  const ApiResponse answer = ok(json{{"sent", true}});
  if (to.size() > kMaxAddressLength || !notify::is_valid_address(to)) return answer;
  // Charged whether or not the address is known, so that set_email's `mail_limited` cannot tell.
  if (!admit_mail(to, address)) return answer;
  std::vector<std::pair<std::int64_t, std::string>> players;
  {
    Statement s = db_.prepare(
        "SELECT e.player_id, p.name FROM player_emails e JOIN players p ON p.id = e.player_id "
        "WHERE e.address = ? AND e.verified = 1 ORDER BY e.player_id LIMIT 10");
    s.bind(1, to);
    while (s.step()) players.emplace_back(s.int64(0), s.text(1));
  }
  if (players.empty()) return answer;
  const std::int64_t expires = options_.now() + options_.sign_in_link_ms;
  std::string links;
  {
    Transaction tx(db_);
    for (const auto& [id, name] : players) {
      links += name + ": " + link_to("signin", new_code(id, kMailedLinkCode, expires)) + "\n";
    }
    tx.commit();
  }
  notify::EmailMessage mail;
  mail.to = notify::Mailbox{to, ""};
  mail.subject = text::catalogs().text(language, "mail.signInSubject"_key);
  mail.text = text::catalogs().text(language, "mail.signInBody"_key, {{"links", links}}) + "\n";
  options_.send_mail(mail);
  spdlog::info("sign_in_link_mailed players={}", players.size());
  return answer;
}

}  // namespace viktory::server
