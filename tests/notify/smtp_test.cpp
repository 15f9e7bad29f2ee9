// E-mail through libcurl's SMTP client against a sink on loopback started by each test: plain,
// STARTTLS (required and opportunistic) with a self-signed certificate made at test time,
// implicit TLS (smtps), AUTH PLAIN; the bytes the sink received are checked.
#include <curl/curl.h>
#include <gtest/gtest.h>

#include "base64url.h"
#include "deliveries.h"
#include "notification_text.h"
#include "support/loopback_server.h"
#include "support/results.h"

namespace viktory::notify {
namespace {

using namespace std::chrono_literals;
using testing::SmtpSink;
using testing::SmtpSinkOptions;
using testing::TestCertificate;

SmtpSettings settings_for(const SmtpSink& sink, const std::string& scheme = "smtp") {
  SmtpSettings settings;
  settings.url = scheme + "://127.0.0.1:" + std::to_string(sink.port());
  settings.from = {"turns@viktory.example.org", "VIKTORY II"};
  settings.timeouts = {5s, 15s};
  return settings;
}

EmailMessage turn_mail() {
  GameEvent event;
  event.game_id = 12;
  event.round = 3;
  event.game_url = "https://viktory.example.org/game/12";
  return email_for(event, Mailbox{"alice@example.net", "Alice"});
}

std::string header(const std::string& data, const std::string& name);

// What format_email makes for `message` with the Date and Message-ID the sink received: equal
// to the received bytes when nothing was lost or altered on the way.
std::string expected_bytes(const SmtpSettings& settings, const EmailMessage& message,
                           const std::string& received) {
  const time_t date = curl_getdate(header(received, "Date").c_str(), nullptr);
  std::string id = header(received, "Message-ID");
  id = id.size() > 2 ? id.substr(1, id.size() - 2) : id;
  return format_email(settings.from, message, std::chrono::system_clock::from_time_t(date), id);
}

DeliveryResult send(const SmtpSettings& settings, const EmailMessage& message) {
  return make_email_transfer(settings, message, std::chrono::system_clock::now())->perform();
}

std::string header(const std::string& data, const std::string& name) {
  if (data.starts_with(name + ": "))
    return data.substr(name.size() + 2, data.find("\r\n") - name.size() - 2);
  const auto at = data.find("\r\n" + name + ": ");
  if (at == std::string::npos) return "";
  const auto start = at + 4 + name.size();
  return data.substr(start, data.find("\r\n", start) - start);
}

TEST(Smtp, PlainDeliveryWithoutTlsWhenTurnedOff) {
  SmtpSink sink(SmtpSinkOptions{});
  SmtpSettings settings = settings_for(sink);
  settings.start_tls = StartTls::off;
  const DeliveryResult result = send(settings, turn_mail());
  ASSERT_EQ(result.outcome, Outcome::delivered) << result.detail;
  EXPECT_EQ(result.status, 250);
  const auto mails = sink.mails();
  ASSERT_EQ(mails.size(), 1u);
  const auto& mail = mails.front();
  EXPECT_EQ(mail.helo, "viktory.example.org");
  EXPECT_EQ(mail.mail_from.substr(0, 31), "FROM:<turns@viktory.example.org");
  ASSERT_EQ(mail.recipients.size(), 1u);
  EXPECT_EQ(mail.recipients.front(), "TO:<alice@example.net>");
  EXPECT_FALSE(mail.tls);
  EXPECT_TRUE(mail.data.starts_with("Date: "));
  EXPECT_EQ(header(mail.data, "From"), "\"VIKTORY II\" <turns@viktory.example.org>");
  EXPECT_EQ(header(mail.data, "To"), "\"Alice\" <alice@example.net>");
  EXPECT_EQ(header(mail.data, "Subject"), "Your turn in Game 12 (round 3)");
  EXPECT_TRUE(header(mail.data, "Message-ID").ends_with("@viktory.example.org>"));
  EXPECT_EQ(header(mail.data, "Content-Type"), "text/plain; charset=UTF-8");
  EXPECT_NE(mail.data.find("Open the game: https://viktory.example.org/game/12"),
            std::string::npos);
  // Exactly the message we formatted, byte for byte (the sink undid the dot-stuffing).
  EXPECT_TRUE(mail.data.ends_with("in your settings.\r\n"));
  EXPECT_EQ(mail.data, expected_bytes(settings, turn_mail(), mail.data));
}

TEST(Smtp, StartTlsRequiredUpgradesAndAuthenticates) {
  TestCertificate certificate;
  SmtpSinkOptions options;
  options.offer_starttls = true;
  options.require_tls = true;
  options.credentials = std::make_pair("viktory", "s3cret pass");
  options.cert_file = certificate.cert_file();
  options.key_file = certificate.key_file();
  SmtpSink sink(options);
  SmtpSettings settings = settings_for(sink);
  settings.start_tls = StartTls::required;
  settings.ca_file = certificate.cert_file();
  settings.username = "viktory";
  settings.password = "s3cret pass";
  EmailMessage message = turn_mail();
  message.subject = "Dein Zug in Spiel 12 – Runde 3";
  message.text = "Grüße!\n.\n..two dots\n";
  const DeliveryResult result = send(settings, message);
  ASSERT_EQ(result.outcome, Outcome::delivered) << result.detail;
  const auto mails = sink.mails();
  ASSERT_EQ(mails.size(), 1u);
  EXPECT_TRUE(mails.front().tls);
  EXPECT_EQ(mails.front().auth_user, "viktory");
  const std::string subject = header(mails.front().data, "Subject");
  EXPECT_TRUE(subject.starts_with("=?UTF-8?B?")) << subject;
  EXPECT_EQ(to_string(*base64url_decode(subject.substr(10, subject.size() - 12))),
            "Dein Zug in Spiel 12 – Runde 3");
  EXPECT_NE(mails.front().data.find("\r\n\r\nGr=C3=BC=C3=9Fe!\r\n=2E\r\n=2E.two dots\r\n"),
            std::string::npos)
      << mails.front().data;
  EXPECT_EQ(mails.front().data, expected_bytes(settings, message, mails.front().data));
  // The dialogue: STARTTLS came before AUTH, and the password never went over plain TCP.
  const auto commands = sink.commands();
  std::size_t starttls_at = commands.size();
  std::size_t auth_at = commands.size();
  for (std::size_t i = 0; i < commands.size(); ++i) {
    if (commands[i] == "STARTTLS") starttls_at = std::min(starttls_at, i);
    if (commands[i].starts_with("AUTH")) auth_at = std::min(auth_at, i);
  }
  EXPECT_LT(starttls_at, auth_at);
}

TEST(Smtp, StartTlsRequiredRefusesARelayWithoutIt) {
  SmtpSinkOptions options;
  options.credentials = std::make_pair("viktory", "secret");
  SmtpSink sink(options);  // offers AUTH in plain text but no STARTTLS
  SmtpSettings settings = settings_for(sink);
  settings.start_tls = StartTls::required;
  settings.username = "viktory";
  settings.password = "secret";
  const DeliveryResult result = send(settings, turn_mail());
  EXPECT_EQ(result.outcome, Outcome::failed) << result.detail;
  EXPECT_TRUE(sink.mails().empty());
  for (const auto& command : sink.commands()) EXPECT_FALSE(command.starts_with("AUTH")) << command;
}

TEST(Smtp, OpportunisticUsesTlsWhenOfferedAndPlainOtherwise) {
  TestCertificate certificate;
  SmtpSinkOptions with_tls;
  with_tls.offer_starttls = true;
  with_tls.cert_file = certificate.cert_file();
  with_tls.key_file = certificate.key_file();
  SmtpSink tls_sink(with_tls);
  SmtpSettings settings = settings_for(tls_sink);
  settings.start_tls = StartTls::opportunistic;
  settings.ca_file = certificate.cert_file();
  ASSERT_EQ(send(settings, turn_mail()).outcome, Outcome::delivered);
  ASSERT_EQ(tls_sink.mails().size(), 1u);
  EXPECT_TRUE(tls_sink.mails().front().tls);

  SmtpSink plain_sink(SmtpSinkOptions{});
  settings = settings_for(plain_sink);
  settings.start_tls = StartTls::opportunistic;
  ASSERT_EQ(send(settings, turn_mail()).outcome, Outcome::delivered);
  ASSERT_EQ(plain_sink.mails().size(), 1u);
  EXPECT_FALSE(plain_sink.mails().front().tls);
}

TEST(Smtp, ImplicitTlsWithSmtps) {
  TestCertificate certificate;
  SmtpSinkOptions options;
  options.implicit_tls = true;
  options.cert_file = certificate.cert_file();
  options.key_file = certificate.key_file();
  SmtpSink sink(options);
  SmtpSettings settings = settings_for(sink, "smtps");
  settings.ca_file = certificate.cert_file();
  ASSERT_EQ(send(settings, turn_mail()).outcome, Outcome::delivered);
  ASSERT_EQ(sink.mails().size(), 1u);
  EXPECT_TRUE(sink.mails().front().tls);
}

TEST(Smtp, AnUntrustedCertificateIsAPermanentFailure) {
  TestCertificate certificate;
  SmtpSinkOptions options;
  options.offer_starttls = true;
  options.cert_file = certificate.cert_file();
  options.key_file = certificate.key_file();
  SmtpSink sink(options);
  SmtpSettings settings = settings_for(sink);  // system CAs only: the test certificate fails
  const DeliveryResult result = send(settings, turn_mail());
  EXPECT_EQ(result.outcome, Outcome::failed) << result.detail;
  EXPECT_TRUE(sink.mails().empty());
}

TEST(Smtp, WrongPasswordFailsTemporaryRefusalRetriesPermanentRefusalFails) {
  SmtpSinkOptions options;
  options.credentials = std::make_pair("viktory", "secret");
  SmtpSink auth_sink(options);
  SmtpSettings settings = settings_for(auth_sink);
  settings.start_tls = StartTls::off;
  settings.username = "viktory";
  settings.password = "wrong";
  DeliveryResult result = send(settings, turn_mail());
  EXPECT_EQ(result.outcome, Outcome::failed) << result.detail;
  EXPECT_EQ(result.status, 535);
  EXPECT_EQ(result.detail.find("wrong"), std::string::npos);

  SmtpSinkOptions busy;
  busy.rcpt_reply = 451;
  SmtpSink busy_sink(busy);
  settings = settings_for(busy_sink);
  settings.start_tls = StartTls::off;
  result = send(settings, turn_mail());
  EXPECT_EQ(result.outcome, Outcome::retry_later) << result.detail;
  EXPECT_EQ(result.status, 451);

  SmtpSinkOptions refusing;
  refusing.rcpt_reply = 550;
  SmtpSink refusing_sink(refusing);
  settings = settings_for(refusing_sink);
  settings.start_tls = StartTls::off;
  result = send(settings, turn_mail());
  EXPECT_EQ(result.outcome, Outcome::failed) << result.detail;
  EXPECT_EQ(result.status, 550);
}

TEST(Smtp, ThroughTheNotifier) {
  SmtpSink sink(SmtpSinkOptions{});
  SmtpSettings plain = settings_for(sink);
  plain.start_tls = StartTls::off;
  auto settings = std::make_shared<const SmtpSettings>(plain);
  testing::Results results;
  {
    Notifier notifier(NotifierOptions{});
    for (int i = 0; i < 3; ++i) {
      EmailMessage message = turn_mail();
      message.to.address = "player" + std::to_string(i) + "@example.net";
      ASSERT_TRUE(
          notifier.enqueue(email_delivery(settings, message, results.callback(std::to_string(i)))));
    }
    ASSERT_TRUE(results.wait_for_count(3, 30s));
    EXPECT_EQ(notifier.stats()[Channel::email].delivered, 3);
  }
  EXPECT_EQ(sink.mails().size(), 3u);
}

}  // namespace
}  // namespace viktory::notify
