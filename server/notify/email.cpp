#include "email.h"

#include <curl/curl.h>

#include <cstring>
#include <ctime>
#include <stdexcept>

#include "ec_key.h"

namespace viktory::notify {
namespace {

constexpr std::size_t kMaxLine = 76;

std::unique_ptr<CURLU, void (*)(CURLU*)> parse_url(std::string_view url) {
  std::unique_ptr<CURLU, void (*)(CURLU*)> handle(curl_url(), curl_url_cleanup);
  if (!handle) throw std::runtime_error("curl_url failed");
  const std::string text(url);
  if (curl_url_set(handle.get(), CURLUPART_URL, text.c_str(), CURLU_NON_SUPPORT_SCHEME) !=
      CURLUE_OK) {
    throw std::invalid_argument("SMTP URL: not an absolute URL");
  }
  return handle;
}

std::string url_part(CURLU* handle, CURLUPart which) {
  char* value = nullptr;
  if (curl_url_get(handle, which, &value, 0) != CURLUE_OK || value == nullptr) return {};
  std::string result(value);
  curl_free(value);
  return result;
}

std::string domain_of(std::string_view address) {
  const auto at = address.rfind('@');
  return at == std::string_view::npos ? std::string() : std::string(address.substr(at + 1));
}

// Length of the UTF-8 sequence starting with `lead` (1 for anything that is not a lead byte, so
// broken input still advances).
std::size_t utf8_length(unsigned char lead) {
  if (lead >= 0xf0 && lead < 0xf8) return 4;
  if (lead >= 0xe0) return lead < 0xf0 ? 3 : 1;
  if (lead >= 0xc0) return 2;
  return 1;
}

std::string strip_line_breaks(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) out += (c == '\r' || c == '\n') ? ' ' : c;
  return out;
}

bool is_plain_ascii(std::string_view text) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte > 0x7e) return false;
  }
  return true;
}

class SmtpSubmission : public Transfer {
 public:
  SmtpSubmission(const SmtpSettings& settings, const std::string& url, std::string data,
                 const std::string& recipient)
      : Transfer(settings.timeouts), data_(std::move(data)) {
    curl_easy_setopt(easy_, CURLOPT_URL, url.c_str());
    curl_easy_setopt(easy_, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
    switch (settings.start_tls) {
      case StartTls::required:
        curl_easy_setopt(easy_, CURLOPT_USE_SSL, static_cast<long>(CURLUSESSL_ALL));
        break;
      case StartTls::opportunistic:
        curl_easy_setopt(easy_, CURLOPT_USE_SSL, static_cast<long>(CURLUSESSL_TRY));
        break;
      case StartTls::off:
        break;
    }
    if (!settings.ca_file.empty())
      curl_easy_setopt(easy_, CURLOPT_CAINFO, settings.ca_file.c_str());
    if (!settings.username.empty()) {
      curl_easy_setopt(easy_, CURLOPT_USERNAME, settings.username.c_str());
      curl_easy_setopt(easy_, CURLOPT_PASSWORD, settings.password.c_str());
    }
    const std::string mail_from = "<" + settings.from.address + ">";
    curl_easy_setopt(easy_, CURLOPT_MAIL_FROM, mail_from.c_str());
    recipients_ = curl_slist_append(nullptr, ("<" + recipient + ">").c_str());
    curl_easy_setopt(easy_, CURLOPT_MAIL_RCPT, recipients_);
    curl_easy_setopt(easy_, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(easy_, CURLOPT_READFUNCTION, &SmtpSubmission::on_read);
    curl_easy_setopt(easy_, CURLOPT_READDATA, this);
    curl_easy_setopt(easy_, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(data_.size()));
  }
  ~SmtpSubmission() override { curl_slist_free_all(recipients_); }

  DeliveryResult finish(int curl_code) override {
    long reply = 0;
    curl_easy_getinfo(easy_, CURLINFO_RESPONSE_CODE, &reply);
    if (curl_code == CURLE_OK) {
      return DeliveryResult{Outcome::delivered, reply, std::nullopt,
                            "SMTP " + std::to_string(reply)};
    }
    DeliveryResult result = classify_curl_error(curl_code, error_text(curl_code));
    result.status = reply;
    // RFC 5321 4.2.1: 4yz is transient, 5yz permanent (a refused recipient, failed AUTH).
    if (reply >= 400 && reply < 500) result.outcome = Outcome::retry_later;
    if (reply >= 500 && reply < 600) result.outcome = Outcome::failed;
    return result;
  }

 private:
  static std::size_t on_read(char* buffer, std::size_t size, std::size_t count, void* self) {
    auto* submission = static_cast<SmtpSubmission*>(self);
    const std::size_t room = size * count;
    const std::size_t left = submission->data_.size() - submission->offset_;
    const std::size_t length = std::min(room, left);
    std::memcpy(buffer, submission->data_.data() + submission->offset_, length);
    submission->offset_ += length;
    return length;
  }

  std::string data_;
  std::size_t offset_ = 0;
  struct curl_slist* recipients_ = nullptr;
};

}  // namespace

std::optional<StartTls> parse_start_tls(std::string_view text) {
  if (text == "required") return StartTls::required;
  if (text == "opportunistic") return StartTls::opportunistic;
  if (text == "off") return StartTls::off;
  return std::nullopt;
}

void validate_smtp_url(std::string_view url) {
  const auto handle = parse_url(url);
  const std::string scheme = url_part(handle.get(), CURLUPART_SCHEME);
  if (scheme != "smtp" && scheme != "smtps") {
    throw std::invalid_argument("SMTP URL: the scheme must be smtp:// or smtps://");
  }
  if (url_part(handle.get(), CURLUPART_HOST).empty()) {
    throw std::invalid_argument("SMTP URL: no host");
  }
}

bool is_valid_address(std::string_view address) {
  const auto at = address.find('@');
  if (at == std::string_view::npos || at == 0 || at + 1 == address.size() ||
      address.find('@', at + 1) != std::string_view::npos || address.size() > 254) {
    return false;
  }
  for (const char c : address) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || byte == 0x7f || c == '<' || c == '>' || c == '"' || c == '(' || c == ')' ||
        c == ',' || c == ';' || c == '\\' || c == '[' || c == ']') {
      return false;
    }
  }
  return true;
}

std::string rfc5322_date(std::chrono::system_clock::time_point when) {
  static constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const std::time_t seconds = std::chrono::system_clock::to_time_t(when);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  // Names from our own tables: strftime's %a and %b would follow the process locale.
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%s, %02d %s %04d %02d:%02d:%02d +0000", kDays[utc.tm_wday],
                utc.tm_mday, kMonths[utc.tm_mon], utc.tm_year + 1900, utc.tm_hour, utc.tm_min,
                utc.tm_sec);
  return buffer;
}

std::string encode_header_text(std::string_view utf8) {
  const std::string text = strip_line_breaks(utf8);
  // "Subject: " plus 68 characters keeps the line within 78.
  if (is_plain_ascii(text) && text.size() <= 68 && text.find("=?") == std::string::npos) {
    return text;
  }
  // 45 bytes become 60 base64 characters: "=?UTF-8?B?" + 60 + "?=" = 72 <= 75.
  constexpr std::size_t kChunk = 45;
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = start;
    while (end < text.size()) {
      const std::size_t step = utf8_length(static_cast<unsigned char>(text[end]));
      if (end + step - start > kChunk) break;
      end += step;
    }
    if (end == start) end = std::min(text.size(), start + 1);
    if (!out.empty()) out += "\r\n ";
    out += "=?UTF-8?B?" + base64_encode(std::string_view(text).substr(start, end - start)) + "?=";
    start = end;
  }
  return out;
}

std::string quoted_printable(std::string_view utf8) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  std::size_t line_start = 0;
  while (line_start <= utf8.size()) {
    std::size_t line_end = utf8.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = utf8.size();
    std::string_view line = utf8.substr(line_start, line_end - line_start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);

    std::size_t column = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
      const auto byte = static_cast<unsigned char>(line[i]);
      const bool last = i + 1 == line.size();
      std::string token;
      // A '.' opening a line is encoded so no SMTP hop ever sees a lone "." line; trailing
      // blanks are encoded because transports strip them (RFC 2045 6.7 rule 3).
      const bool encode = byte == '=' || byte > 0x7e || (byte < 0x20 && byte != '\t') ||
                          (last && (byte == ' ' || byte == '\t')) || (column == 0 && byte == '.');
      if (encode) {
        token = {'=', kHex[byte >> 4], kHex[byte & 15]};
      } else {
        token = std::string(1, static_cast<char>(byte));
      }
      // Keep room for the soft break '=' unless this token ends the line.
      const std::size_t limit = last ? kMaxLine : kMaxLine - 1;
      if (column + token.size() > limit) {
        out += "=\r\n";
        column = 0;
        if (byte == '.') token = "=2E";
      }
      out += token;
      column += token.size();
    }
    if (line_end == utf8.size()) break;
    out += "\r\n";
    line_start = line_end + 1;
  }
  return out;
}

std::string format_mailbox(const Mailbox& mailbox) {
  const std::string name = strip_line_breaks(mailbox.display_name);
  if (name.empty()) return "<" + mailbox.address + ">";
  if (is_plain_ascii(name) && name.find("=?") == std::string::npos) {
    std::string quoted = "\"";
    for (const char c : name) {
      if (c == '"' || c == '\\') quoted += '\\';
      quoted += c;
    }
    return quoted + "\" <" + mailbox.address + ">";
  }
  return encode_header_text(name) + " <" + mailbox.address + ">";
}

std::string format_email(const Mailbox& from, const EmailMessage& message,
                         std::chrono::system_clock::time_point date, std::string_view message_id) {
  std::string out;
  out += "Date: " + rfc5322_date(date) + "\r\n";
  out += "From: " + format_mailbox(from) + "\r\n";
  out += "To: " + format_mailbox(message.to) + "\r\n";
  out += "Subject: " + encode_header_text(message.subject) + "\r\n";
  out += "Message-ID: <" + std::string(message_id) + ">\r\n";
  out += "MIME-Version: 1.0\r\n";
  out += "Content-Type: text/plain; charset=UTF-8\r\n";
  out += "Content-Transfer-Encoding: quoted-printable\r\n";
  // RFC 3834: machine-made, so vacation responders stay quiet.
  out += "Auto-Submitted: auto-generated\r\n";
  out += "\r\n";
  out += quoted_printable(message.text);
  // The message ends with a line break, without adding an empty line to a text that has one.
  if (!out.ends_with("\r\n")) out += "\r\n";
  return out;
}

std::string new_message_id(const Mailbox& from) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id;
  for (const std::uint8_t byte : random_bytes(16)) {
    id += kHex[byte >> 4];
    id += kHex[byte & 15];
  }
  std::string domain = domain_of(from.address);
  return id + "@" + (domain.empty() ? "localhost" : domain);
}

std::unique_ptr<Transfer> make_email_transfer(const SmtpSettings& settings,
                                              const EmailMessage& message,
                                              std::chrono::system_clock::time_point now) {
  validate_smtp_url(settings.url);
  if (!is_valid_address(settings.from.address)) {
    throw std::invalid_argument("e-mail: the sender address is not valid");
  }
  if (!is_valid_address(message.to.address)) {
    throw std::invalid_argument("e-mail: the recipient address is not valid");
  }
  // libcurl greets with EHLO <the URL's path>; make it the sender's domain unless one is given.
  auto handle = parse_url(settings.url);
  std::string path = url_part(handle.get(), CURLUPART_PATH);
  if (path.empty() || path == "/") {
    const std::string domain = "/" + domain_of(settings.from.address);
    curl_url_set(handle.get(), CURLUPART_PATH, domain.c_str(), 0);
  }
  const std::string url = url_part(handle.get(), CURLUPART_URL);
  return std::make_unique<SmtpSubmission>(
      settings, url, format_email(settings.from, message, now, new_message_id(settings.from)),
      message.to.address);
}

std::string redact_url(std::string_view url) {
  try {
    auto handle = parse_url(url);
    curl_url_set(handle.get(), CURLUPART_USER, nullptr, 0);
    curl_url_set(handle.get(), CURLUPART_PASSWORD, nullptr, 0);
    curl_url_set(handle.get(), CURLUPART_OPTIONS, nullptr, 0);
    return url_part(handle.get(), CURLUPART_URL);
  } catch (const std::exception&) {
    return "(invalid URL)";
  }
}

}  // namespace viktory::notify
