// Message texts, e-mail formatting (RFC 5322, RFC 2047, RFC 2045), webhook bodies and the
// classification of responses: everything that needs no network.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "base64url.h"
#include "delivery_result.h"
#include "email.h"
#include "mail_gate.h"
#include "notification_text.h"
#include "web_push.h"
#include "webhook.h"

namespace viktory::notify {
namespace {

using namespace std::chrono_literals;

GameEvent your_turn() {
  GameEvent event;
  event.kind = EventKind::your_turn;
  event.game_id = 12;
  event.round = 3;
  event.player = "Alice";
  event.game_url = "https://viktory.example.org/game/12";
  return event;
}

// Every line of `text` (CRLF separated) is at most `limit` characters.
bool lines_within(const std::string& text, std::size_t limit) {
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find("\r\n", start);
    if (end == std::string::npos) end = text.size();
    if (end - start > limit) return false;
    start = end + 2;
  }
  return true;
}

// Reverses quoted-printable (for checking the encoder against its own definition).
std::string decode_qp(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '=' && i + 2 < text.size() && text[i + 1] == '\r' && text[i + 2] == '\n') {
      i += 2;
    } else if (text[i] == '=' && i + 2 < text.size()) {
      out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      out += '\n';
      ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::string decode_words(const std::string& header) {
  std::string out;
  std::size_t at = 0;
  while ((at = header.find("=?UTF-8?B?", at)) != std::string::npos) {
    const auto end = header.find("?=", at + 10);
    out += to_string(*base64url_decode(header.substr(at + 10, end - at - 10)));
    at = end + 2;
  }
  return out;
}

TEST(NotificationText, YourTurnNamesTheGameAndRound) {
  const NotificationText text = personal_text(your_turn());
  EXPECT_EQ(text.title, "Your turn in Game 12 (round 3)");
  EXPECT_EQ(group_text(your_turn()),
            "Alice's turn in Game 12 (round 3) https://viktory.example.org/game/12");
  GameEvent no_round = your_turn();
  no_round.round = 0;
  EXPECT_EQ(personal_text(no_round).title, "Your turn in Game 12");
}

TEST(NotificationText, StartAndEnd) {
  GameEvent started = your_turn();
  started.kind = EventKind::game_started;
  EXPECT_EQ(personal_text(started).title, "Game 12 has started");
  EXPECT_EQ(personal_text(started).body, "Alice moves first.");
  GameEvent over = your_turn();
  over.kind = EventKind::game_over;
  over.winners = {"Bob"};
  EXPECT_EQ(personal_text(over).body, "Bob won.");
  over.winners = {"Bob", "Carol", "Dave"};
  EXPECT_EQ(personal_text(over).body, "Bob, Carol and Dave won together.");
  over.winners.clear();
  EXPECT_EQ(personal_text(over).body, "The game ended without a winner.");
}

TEST(NotificationText, PushPayloadCarriesOnlyTheListedPublicFields) {
  const auto payload = nlohmann::json::parse(push_payload(your_turn()));
  EXPECT_EQ(payload, (nlohmann::json{{"kind", "your_turn"},
                                     {"game", 12},
                                     {"title", "Your turn in Game 12 (round 3)"},
                                     {"body", "The other players are waiting for your move."},
                                     {"url", "https://viktory.example.org/game/12"},
                                     {"tag", "viktory-game-12"}}));
  EXPECT_EQ(push_topic_for(your_turn()), "game-12");
}

TEST(NotificationText, WebhookBodiesInTheThreeFormats) {
  const WebhookEvent event = webhook_event_for(your_turn());
  const auto discord = nlohmann::json::parse(webhook_body(WebhookFormat::discord, event));
  EXPECT_EQ(discord["content"], event.text);
  EXPECT_EQ(discord["allowed_mentions"]["parse"], nlohmann::json::array());
  EXPECT_EQ(nlohmann::json::parse(webhook_body(WebhookFormat::slack, event)),
            (nlohmann::json{{"text", event.text}}));
  EXPECT_EQ(nlohmann::json::parse(webhook_body(WebhookFormat::json, event)),
            (nlohmann::json{{"event", "your_turn"},
                            {"game", 12},
                            {"round", 3},
                            {"player", "Alice"},
                            {"url", "https://viktory.example.org/game/12"},
                            {"language", "en"},
                            {"text", event.text}}));
  EXPECT_EQ(parse_webhook_format("slack"), WebhookFormat::slack);
  EXPECT_FALSE(parse_webhook_format("teams").has_value());
}

TEST(NotificationText, InvalidUtf8InANameDoesNotBreakJson) {
  GameEvent event = your_turn();
  event.player =
      "Al\xff"
      "ice";
  EXPECT_NO_THROW(
      nlohmann::json::parse(webhook_body(WebhookFormat::json, webhook_event_for(event))));
}

TEST(Email, DateIsRfc5322InUtc) {
  EXPECT_EQ(rfc5322_date(std::chrono::system_clock::from_time_t(1'751'360'703)),
            "Tue, 01 Jul 2025 09:05:03 +0000");
}

TEST(Email, ShortAsciiSubjectsStayReadableOthersBecomeEncodedWords) {
  EXPECT_EQ(encode_header_text("Your turn in Game 12 (round 3)"), "Your turn in Game 12 (round 3)");
  const std::string umlauts = encode_header_text("Dein Zug in Spiel 12 – Runde 3, Jürgen");
  EXPECT_TRUE(umlauts.starts_with("=?UTF-8?B?"));
  EXPECT_EQ(decode_words(umlauts), "Dein Zug in Spiel 12 – Runde 3, Jürgen");
  // Long text: several words, each within 75 characters, folded, no UTF-8 character split.
  std::string long_text;
  for (int i = 0; i < 20; ++i) long_text += "Ä€😀 ";
  const std::string encoded = encode_header_text(long_text);
  EXPECT_NE(encoded.find("\r\n "), std::string::npos);
  EXPECT_TRUE(lines_within(encoded, 76));
  EXPECT_EQ(decode_words(encoded), long_text);
  std::size_t at = 0;
  while ((at = encoded.find("=?UTF-8?B?", at)) != std::string::npos) {
    const auto end = encoded.find("?=", at + 10);
    EXPECT_LE(end + 2 - at, 75u);
    const std::string word = to_string(*base64url_decode(encoded.substr(at + 10, end - at - 10)));
    EXPECT_NE(static_cast<unsigned char>(word.back()) & 0xc0, 0xc0) << "split after a lead byte";
    at = end + 2;
  }
  // A line break in a subject must not start a new header.
  EXPECT_EQ(encode_header_text("a\r\nBcc: x@example.org").find("\r\n"), std::string::npos);
}

TEST(Email, QuotedPrintableKeepsLinesShortAndRoundTrips) {
  const std::string text =
      "Jürgen, it is your turn.\n"
      ".a line starting with a dot\n"
      "trailing blanks  \n"
      "equals = sign\n" +
      std::string(200, 'x') + "\n" + std::string(60, 'x') + "ééééééééé\nend";
  const std::string encoded = quoted_printable(text);
  EXPECT_TRUE(lines_within(encoded, 76));
  EXPECT_EQ(decode_qp(encoded), text);
  EXPECT_NE(encoded.find("J=C3=BCrgen"), std::string::npos);
  EXPECT_NE(encoded.find("\r\n=2Ea line"), std::string::npos);
  EXPECT_NE(encoded.find("blanks =20\r\n"), std::string::npos);
  EXPECT_NE(encoded.find("equals =3D sign"), std::string::npos);
  for (const char c : encoded) EXPECT_LT(static_cast<unsigned char>(c), 0x80);
}

TEST(Email, CompleteMessageHasTheRequiredHeaders) {
  const Mailbox from{"viktory@example.org", "VIKTORY II"};
  const EmailMessage message = email_for(your_turn(), Mailbox{"alice@example.net", "Älice"});
  const std::string text = format_email(
      from, message, std::chrono::system_clock::from_time_t(1'751'360'703), "0123@example.org");
  const auto header_end = text.find("\r\n\r\n");
  ASSERT_NE(header_end, std::string::npos);
  const std::string headers = text.substr(0, header_end + 2);
  EXPECT_NE(headers.find("Date: Tue, 01 Jul 2025 09:05:03 +0000\r\n"), std::string::npos);
  EXPECT_NE(headers.find("From: \"VIKTORY II\" <viktory@example.org>\r\n"), std::string::npos);
  EXPECT_NE(headers.find("To: =?UTF-8?B?w4RsaWNl?= <alice@example.net>\r\n"), std::string::npos);
  EXPECT_NE(headers.find("Subject: Your turn in Game 12 (round 3)\r\n"), std::string::npos);
  EXPECT_NE(headers.find("Message-ID: <0123@example.org>\r\n"), std::string::npos);
  EXPECT_NE(headers.find("MIME-Version: 1.0\r\n"), std::string::npos);
  EXPECT_NE(headers.find("Content-Type: text/plain; charset=UTF-8\r\n"), std::string::npos);
  EXPECT_NE(headers.find("Content-Transfer-Encoding: quoted-printable\r\n"), std::string::npos);
  const std::string body = decode_qp(text.substr(header_end + 4));
  EXPECT_NE(body.find("Open the game: https://viktory.example.org/game/12"), std::string::npos);
  // No bare LF anywhere: SMTP wants CRLF.
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') {
      EXPECT_EQ(text[i - 1], '\r') << "bare LF at " << i;
    }
  }
  EXPECT_TRUE(lines_within(text, 78));
}

TEST(Email, MessageIdsAreUniqueAtTheSendersDomain) {
  const Mailbox from{"viktory@example.org", ""};
  const std::string a = new_message_id(from);
  EXPECT_TRUE(a.ends_with("@example.org"));
  EXPECT_EQ(a.size(), 32 + std::string("@example.org").size());
  EXPECT_NE(a, new_message_id(from));
}

TEST(Email, AddressesAndUrlsAreChecked) {
  EXPECT_TRUE(is_valid_address("alice@example.net"));
  EXPECT_FALSE(is_valid_address("alice"));
  EXPECT_FALSE(is_valid_address("alice@"));
  EXPECT_FALSE(is_valid_address("a@b@c"));
  EXPECT_FALSE(is_valid_address("alice@example.net>\r\nRCPT TO:<x@y"));
  EXPECT_FALSE(is_valid_address("al ice@example.net"));
  EXPECT_NO_THROW(validate_smtp_url("smtp://relay.example.org:587"));
  EXPECT_NO_THROW(validate_smtp_url("smtps://relay.example.org"));
  EXPECT_THROW(validate_smtp_url("http://relay.example.org"), std::invalid_argument);
  EXPECT_THROW(validate_smtp_url("relay"), std::invalid_argument);
  EXPECT_EQ(redact_url("smtp://user:secret@relay.example.org:587"),
            "smtp://relay.example.org:587/");
  EXPECT_EQ(parse_start_tls("opportunistic"), StartTls::opportunistic);
  EXPECT_FALSE(parse_start_tls("maybe").has_value());
  SmtpSettings settings;
  settings.url = "smtp://relay.example.org";
  settings.from = {"viktory@example.org", ""};
  EXPECT_THROW(make_email_transfer(settings, EmailMessage{{"bad", ""}, "s", "t"},
                                   std::chrono::system_clock::now()),
               std::invalid_argument);
}

TEST(DeliveryResult, HttpStatusesMapToTheFourOutcomes) {
  EXPECT_EQ(classify_http_status(201).outcome, Outcome::delivered);
  EXPECT_EQ(classify_http_status(204).outcome, Outcome::delivered);
  EXPECT_EQ(classify_http_status(404).outcome, Outcome::gone);
  EXPECT_EQ(classify_http_status(410).outcome, Outcome::gone);
  EXPECT_EQ(classify_http_status(429).outcome, Outcome::retry_later);
  EXPECT_EQ(classify_http_status(500).outcome, Outcome::retry_later);
  EXPECT_EQ(classify_http_status(503, 30s).retry_after, 30s);
  EXPECT_EQ(classify_http_status(400).outcome, Outcome::failed);
  EXPECT_EQ(classify_http_status(403).outcome, Outcome::failed);
  EXPECT_EQ(classify_http_status(413).outcome, Outcome::failed);
}

TEST(DeliveryResult, RetryAfterInSecondsOrAsADate) {
  const auto now = std::chrono::system_clock::from_time_t(1'751'360'703);  // 09:05:03
  EXPECT_EQ(parse_retry_after("120", now), 120s);
  EXPECT_EQ(parse_retry_after(" 0 ", now), 0s);
  EXPECT_EQ(parse_retry_after("Tue, 01 Jul 2025 09:06:03 GMT", now), 60s);
  EXPECT_EQ(parse_retry_after("Tue, 01 Jul 2025 09:00:00 GMT", now), 0s);
  EXPECT_FALSE(parse_retry_after("soon", now).has_value());
  EXPECT_FALSE(parse_retry_after("", now).has_value());
}

TEST(WebPush, SubscriptionJsonTopicsAndEndpoints) {
  const EcKey key = EcKey::generate();
  const std::string json = nlohmann::json{{"endpoint", "https://push.example.net/x"},
                                          {"expirationTime", nullptr},
                                          {"keys",
                                           {{"p256dh", base64url_encode(key.public_point())},
                                            {"auth", base64url_encode(random_bytes(16))}}}}
                               .dump();
  EXPECT_EQ(parse_push_subscription(json).endpoint, "https://push.example.net/x");
  EXPECT_THROW(parse_push_subscription("{"), std::invalid_argument);
  EXPECT_THROW(parse_push_subscription(R"({"endpoint":"https://x/"})"), std::invalid_argument);
  EXPECT_THROW(parse_push_subscription(
                   R"({"endpoint":"https://x/","keys":{"p256dh":"AAAA","auth":"AAAA"}})"),
               std::invalid_argument);
  EXPECT_EQ(push_topic("game-12"), "game-12");
  const std::string hashed = push_topic("game 12 with spaces and a very long name indeed");
  EXPECT_EQ(hashed.size(), 32u);
  EXPECT_EQ(push_topic(hashed), hashed);
  EXPECT_NO_THROW(validate_push_endpoint("https://push.example.net/x", EndpointPolicy{}));
  EXPECT_THROW(validate_push_endpoint("http://push.example.net/x", EndpointPolicy{}),
               std::invalid_argument);
  EXPECT_NO_THROW(validate_push_endpoint("http://127.0.0.1:1/x", EndpointPolicy::local_testing()));
  EXPECT_THROW(validate_push_endpoint("file:///etc/passwd", EndpointPolicy::local_testing()),
               std::invalid_argument);
  EXPECT_THROW(validate_webhook_url("http://chat.example.org/hook", EndpointPolicy{}),
               std::invalid_argument);
}

}  // namespace
}  // namespace viktory::notify

namespace viktory::notify {
namespace {

TEST(TurnMailGate, OneMailPerPlayerPerGamePerTurnAndNoneOnTheGamePage) {
  TurnMailGate gate;
  EXPECT_TRUE(gate.admit(1, 12, 5, false));
  EXPECT_FALSE(gate.admit(1, 12, 5, false));  // same turn again (a decision within the turn)
  EXPECT_TRUE(gate.admit(2, 12, 5, false));   // another player
  EXPECT_TRUE(gate.admit(1, 13, 5, false));   // another game
  EXPECT_FALSE(gate.admit(1, 12, 7, true));   // on the game page: no mail...
  EXPECT_TRUE(gate.admit(1, 12, 7, false));   // ...but one once he has left it
  EXPECT_FALSE(gate.admit(1, 12, 6, false));  // an older turn never mails again
  EXPECT_EQ(gate.size(), 3u);
  gate.forget_game(12);
  EXPECT_EQ(gate.size(), 1u);
  EXPECT_TRUE(gate.admit(1, 12, 7, false));
}

}  // namespace
}  // namespace viktory::notify
