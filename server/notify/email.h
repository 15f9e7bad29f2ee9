// E-mail through the operator's SMTP relay with libcurl: smtp:// with STARTTLS (required by
// default, or opportunistic), smtps:// (TLS from the first byte), AUTH with user and password.
// The message is a complete RFC 5322 text: Date, Message-ID, MIME headers, a UTF-8 subject as
// RFC 2047 encoded words and a UTF-8 body in quoted-printable, lines ending in CRLF.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "transfer.h"

namespace viktory::notify {

struct Mailbox {
  std::string address;       // local@domain
  std::string display_name;  // may be empty; any UTF-8
};

enum class StartTls {
  required,       // refuse to send (no credentials, no mail) unless the relay upgrades to TLS
  opportunistic,  // upgrade when the relay offers it, else continue in plain text
  off,            // never (a relay on the same host or network)
};
// "required", "opportunistic" or "off"; nullopt otherwise.
std::optional<StartTls> parse_start_tls(std::string_view text);

struct SmtpSettings {
  // smtp://host[:port] (STARTTLS per `start_tls`; port 587 is the submission port) or
  // smtps://host[:port] (implicit TLS, port 465 by default).
  std::string url;
  StartTls start_tls = StartTls::required;
  std::string username;  // empty: no AUTH
  std::string password;
  Mailbox from;
  // A CA bundle (PEM) to trust instead of the system's, for a relay with a private CA.
  std::string ca_file;
  Timeouts timeouts;
};

struct EmailMessage {
  Mailbox to;
  std::string subject;  // UTF-8, one line
  std::string text;     // UTF-8, lines separated by \n
};

// Throws std::invalid_argument with a reason unless `url` is smtp:// or smtps:// with a host.
void validate_smtp_url(std::string_view url);
// A plain address check (one '@', no spaces, controls, brackets or quotes): enough to keep
// header and SMTP command injection out, not a full RFC 5321 parser.
bool is_valid_address(std::string_view address);

// RFC 5322 date in UTC: "Tue, 01 Jul 2025 09:05:03 +0000".
std::string rfc5322_date(std::chrono::system_clock::time_point when);
// RFC 2047 "B" encoded words (each at most 75 characters, split between UTF-8 characters and
// folded with CRLF SP), or the text itself when it is short printable ASCII.
std::string encode_header_text(std::string_view utf8);
// RFC 2045 quoted-printable with CRLF line ends and lines of at most 76 characters.
std::string quoted_printable(std::string_view utf8);
// "Name <addr>" with the name as a quoted string or encoded words; "<addr>" without a name.
std::string format_mailbox(const Mailbox& mailbox);

// The complete message, ready for DATA. `message_id` is without angle brackets.
std::string format_email(const Mailbox& from, const EmailMessage& message,
                         std::chrono::system_clock::time_point date, std::string_view message_id);
// A unique id at the sender's domain: "<32 hex digits>@domain".
std::string new_message_id(const Mailbox& from);

// Throws std::invalid_argument for a bad URL or address.
std::unique_ptr<Transfer> make_email_transfer(const SmtpSettings& settings,
                                              const EmailMessage& message,
                                              std::chrono::system_clock::time_point now);

// The URL without user information, safe for a log line.
std::string redact_url(std::string_view url);

}  // namespace viktory::notify
