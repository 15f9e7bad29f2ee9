// Identity across devices (accounts.h): sign-in links, recovery codes, e-mail verification and
// signing other devices out, through the real HTTP handler over a real SQLite file. The WebSocket
// sign-in goes through Store::player_by_token_hash, which must accept every device's token.
#include "accounts.h"

#include <gtest/gtest.h>

#include <regex>
#include <tuple>

#include "store.h"
#include "test_support.h"
#include "token.h"

namespace viktory::server {
namespace {

using nlohmann::json;
using testing::TempDir;

struct Fixture {
  TempDir dir;
  std::string path = dir.file("accounts.db");
  Store store{path};
  std::int64_t clock = 1'000'000;
  std::vector<notify::EmailMessage> mails;
  std::unique_ptr<Accounts> accounts;
  std::string alice_token = new_token();
  PlayerRecord alice = store.create_player("Alice", token_hash(alice_token), 1);

  explicit Fixture(bool with_mail = true, std::string public_url = "https://viktory.example.org") {
    AccountOptions options;
    options.public_url = std::move(public_url);
    options.now = [this] { return clock; };
    options.redeems_per_minute = 1000;
    if (with_mail) {
      options.send_mail = [this](const notify::EmailMessage& mail) {
        mails.push_back(mail);
        return true;
      };
    }
    accounts = std::make_unique<Accounts>(path, options);
  }

  ApiResponse call(std::string_view method, std::string_view path_, const json& body = nullptr,
                   const std::string& token = "", std::string_view address = "192.0.2.1",
                   std::string_view accept_language = "") {
    const std::string text = body.is_null() ? "" : body.dump();
    return accounts->handle_api(method, path_, text, token.empty() ? "" : "Bearer " + token,
                                address, accept_language);
  }
  std::optional<std::string> stored_language() {
    Statement s = store.db().prepare("SELECT language FROM players WHERE id = ?");
    s.bind(1, alice.id);
    if (!s.step() || s.is_null(0)) return std::nullopt;
    return s.text(0);
  }
  json ok(std::string_view method, std::string_view path_, const json& body = nullptr,
          const std::string& token = "") {
    const ApiResponse r = call(method, path_, body, token);
    EXPECT_EQ(r.status, 200) << r.body;
    return json::parse(r.body);
  }
  std::optional<PlayerRecord> who(const std::string& token) {
    return store.player_by_token_hash(token_hash(token));
  }
};

std::string code_in(const std::string& text, const std::string& route) {
  std::smatch m;
  const std::regex pattern("#/" + route + "/([0-9a-f]{32})");
  if (!std::regex_search(text, m, pattern)) return "";
  return m[1];
}

TEST(Accounts, ASignInLinkOpensTheSamePlayerOnASecondDeviceAndTheFirstKeepsWorking) {
  Fixture f;
  const json link = f.ok("POST", "/api/account/sign-in-link", json::object(), f.alice_token);
  const std::string code = link["code"];
  EXPECT_EQ(link["url"], "https://viktory.example.org/#/signin/" + code);
  EXPECT_EQ(link["expires"], f.clock + 24LL * 3600 * 1000);

  const json session = f.ok("POST", "/api/session/redeem", json{{"code", code}});
  EXPECT_EQ(session["player_id"], std::to_string(f.alice.id));
  EXPECT_EQ(session["name"], "Alice");
  const std::string phone = session["token"];
  EXPECT_NE(phone, f.alice_token);
  ASSERT_TRUE(f.who(phone));
  EXPECT_EQ(f.who(phone)->id, f.alice.id);
  ASSERT_TRUE(f.who(f.alice_token));  // the first device is still signed in
  EXPECT_EQ(f.ok("GET", "/api/account", nullptr, phone)["devices"], 2);

  // Single use: the same link again is refused, and nothing was stored in clear.
  const ApiResponse again = f.call("POST", "/api/session/redeem", json{{"code", code}});
  EXPECT_EQ(again.status, 404);
  EXPECT_EQ(json::parse(again.body)["error"]["code"], "bad_code");
  Statement plain = f.store.db().prepare(
      "SELECT COUNT(*) FROM sign_in_codes WHERE code_hash = ? OR code_hash = ?");
  plain.bind(1, code).bind(2, token_hash(code));
  plain.step();
  EXPECT_EQ(plain.int64(0), 0);
}

TEST(Accounts, ASignInLinkExpires) {
  Fixture f;
  const std::string code =
      f.ok("POST", "/api/account/sign-in-link", json::object(), f.alice_token)["code"];
  f.clock += 24LL * 3600 * 1000 + 1;
  EXPECT_EQ(f.call("POST", "/api/session/redeem", json{{"code", code}}).status, 404);
}

TEST(Accounts, AWithoutPublicUrlTheLinkHasNoUrlAndTheClientBuildsIt) {
  Fixture f(/*with_mail=*/false, /*public_url=*/"");
  const json link = f.ok("POST", "/api/account/sign-in-link", json::object(), f.alice_token);
  EXPECT_EQ(link["url"], "");
  EXPECT_EQ(f.ok("GET", "/api/account", nullptr, f.alice_token)["email_available"], false);
}

TEST(Accounts, ARecoveryCodeWorksOnceAsTypedByAPersonAndANewOneReplacesIt) {
  Fixture f;
  const std::string first =
      f.ok("POST", "/api/account/recovery-code", json::object(), f.alice_token)["code"];
  EXPECT_TRUE(std::regex_match(first, std::regex("([0-9a-f]{4}-){7}[0-9a-f]{4}"))) << first;
  const std::string second =
      f.ok("POST", "/api/account/recovery-code", json::object(), f.alice_token)["code"];
  EXPECT_EQ(f.call("POST", "/api/session/redeem", json{{"code", first}}).status, 404);

  std::string typed;  // upper case, spaces instead of dashes
  for (char c : second) typed.push_back(c == '-' ? ' ' : static_cast<char>(std::toupper(c)));
  const json session = f.ok("POST", "/api/session/redeem", json{{"code", typed}});
  EXPECT_EQ(session["name"], "Alice");
  EXPECT_EQ(f.call("POST", "/api/session/redeem", json{{"code", second}}).status, 404);
  // Used up: none left.
  EXPECT_TRUE(
      f.ok("GET", "/api/account", nullptr, f.alice_token)["recovery_code_created"].is_null());
}

// Issue 19: "sign out other devices" left a recovery code standing, so a thief who had made
// one with a stolen token kept a way back in. It is revoked with the devices, and the answer
// says so (the page asks the player to make a new one).
TEST(Accounts, SigningOutOtherDevicesInvalidatesTheirTokensPendingLinksAndTheRecoveryCode) {
  Fixture f;
  const std::string phone =
      f.ok("POST", "/api/session/redeem",
           json{{"code", f.ok("POST", "/api/account/sign-in-link", json::object(),
                              f.alice_token)["code"]}})["token"];
  const std::string pending =
      f.ok("POST", "/api/account/sign-in-link", json::object(), f.alice_token)["code"];
  // The thief, on the stolen device, makes himself a recovery code.
  const std::string thiefs_code =
      f.ok("POST", "/api/account/recovery-code", json::object(), phone)["code"];

  // From Alice's own browser: it gets a new token; the old ones stop working.
  const json fresh = f.ok("POST", "/api/account/sign-out-others", json::object(), f.alice_token);
  EXPECT_EQ(fresh["recovery_code_revoked"], true);
  const std::string alice2 = fresh["token"];
  EXPECT_FALSE(f.who(f.alice_token));
  EXPECT_FALSE(f.who(phone));
  ASSERT_TRUE(f.who(alice2));
  EXPECT_EQ(f.who(alice2)->id, f.alice.id);
  EXPECT_EQ(f.call("GET", "/api/account", nullptr, phone).status, 401);
  EXPECT_EQ(f.call("POST", "/api/session/redeem", json{{"code", pending}}).status, 404);
  EXPECT_EQ(f.call("POST", "/api/session/redeem", json{{"code", thiefs_code}}).status, 404);
  EXPECT_TRUE(f.ok("GET", "/api/account", nullptr, alice2)["recovery_code_created"].is_null());

  // Without a code to revoke the answer says that too; a new code works as before.
  EXPECT_EQ(
      f.ok("POST", "/api/account/sign-out-others", json::object(), alice2)["recovery_code_revoked"],
      false);
}

TEST(Accounts, AnEmailAddressIsVerifiedByALinkAndThenGetsSignInLinks) {
  Fixture f;
  json account =
      f.ok("POST", "/api/account/email", json{{"address", "Alice@Example.org"}}, f.alice_token);
  EXPECT_EQ(account["email"]["address"], "alice@example.org");
  EXPECT_EQ(account["email"]["verified"], false);
  ASSERT_EQ(f.mails.size(), 1u);
  EXPECT_EQ(f.mails[0].to.address, "alice@example.org");
  const std::string verify = code_in(f.mails[0].text, "verify-email");
  ASSERT_FALSE(verify.empty()) << f.mails[0].text;

  // Before it is verified, asking for a link by e-mail sends nothing (and says the same).
  EXPECT_EQ(f.ok("POST", "/api/session/email-link", json{{"address", "alice@example.org"}})["sent"],
            true);
  EXPECT_EQ(f.mails.size(), 1u);

  EXPECT_EQ(f.ok("POST", "/api/account/email/verify", json{{"code", verify}})["verified"], true);
  EXPECT_EQ(f.call("POST", "/api/account/email/verify", json{{"code", verify}}).status, 404);
  EXPECT_EQ(f.ok("GET", "/api/account", nullptr, f.alice_token)["email"]["verified"], true);

  EXPECT_EQ(f.ok("POST", "/api/session/email-link", json{{"address", "ALICE@example.org"}})["sent"],
            true);
  ASSERT_EQ(f.mails.size(), 2u);
  const std::string code = code_in(f.mails[1].text, "signin");
  ASSERT_FALSE(code.empty()) << f.mails[1].text;
  const json session = f.ok("POST", "/api/session/redeem", json{{"code", code}});
  EXPECT_EQ(session["player_id"], std::to_string(f.alice.id));

  // An unknown address gets the same answer and no mail.
  EXPECT_EQ(f.ok("POST", "/api/session/email-link", json{{"address", "bob@example.org"}})["sent"],
            true);
  EXPECT_EQ(f.mails.size(), 2u);
}

TEST(Accounts, AVerificationLinkExpiresAndTheAddressCanBeRemoved) {
  Fixture f;
  f.ok("POST", "/api/account/email", json{{"address", "alice@example.org"}}, f.alice_token);
  const std::string verify = code_in(f.mails.at(0).text, "verify-email");
  f.clock += 48LL * 3600 * 1000 + 1;
  EXPECT_EQ(f.call("POST", "/api/account/email/verify", json{{"code", verify}}).status, 404);
  const json account =
      f.ok("POST", "/api/account/email", json{{"address", nullptr}}, f.alice_token);
  EXPECT_TRUE(account["email"].is_null());
}

TEST(Accounts, WithoutARelayNoAddressIsTaken) {
  Fixture f(/*with_mail=*/false);
  const ApiResponse r =
      f.call("POST", "/api/account/email", json{{"address", "alice@example.org"}}, f.alice_token);
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(json::parse(r.body)["error"]["code"], "email_unavailable");
}

TEST(Accounts, BadInputGetsAClearErrorAndChangesNothing) {
  Fixture f;
  EXPECT_EQ(f.call("GET", "/api/account").status, 401);
  EXPECT_EQ(f.call("GET", "/api/account", nullptr, new_token()).status, 401);
  EXPECT_EQ(f.accounts->handle_api("POST", "/api/session/redeem", "{not json", "", "x").status,
            400);
  EXPECT_EQ(f.call("POST", "/api/session/redeem", json{{"code", 12}}).status, 400);
  EXPECT_EQ(f.call("POST", "/api/session/redeem", json{{"code", "short"}}).status, 404);
  EXPECT_EQ(f.call("GET", "/api/session/redeem").status, 405);
  EXPECT_EQ(f.call("PUT", "/api/account", json::object(), f.alice_token).status, 405);
  EXPECT_EQ(f.call("POST", "/api/account/nothing", json::object(), f.alice_token).status, 404);
  for (const char* bad :
       {"alice", "a b@example.org", "<a@example.org>", "a@b\r\nBcc: x@y.org", "a@localhost"}) {
    EXPECT_EQ(f.call("POST", "/api/account/email", json{{"address", bad}}, f.alice_token).status,
              400)
        << bad;
  }
  EXPECT_TRUE(f.mails.empty());
  EXPECT_EQ(f.ok("GET", "/api/account", nullptr, f.alice_token)["devices"], 1);
}

TEST(Accounts, RedeemingIsRateLimitedPerAddress) {
  TempDir dir;
  Store store(dir.file("r.db"));
  AccountOptions options;
  options.redeems_per_minute = 3;
  Accounts accounts(dir.file("r.db"), options);
  const std::string body = json{{"code", std::string(32, 'a')}}.dump();
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(accounts.handle_api("POST", "/api/session/redeem", body, "", "198.51.100.7").status,
              404);
  }
  EXPECT_EQ(accounts.handle_api("POST", "/api/session/redeem", body, "", "198.51.100.7").status,
            429);
  EXPECT_EQ(accounts.handle_api("POST", "/api/session/redeem", body, "", "198.51.100.8").status,
            404);
}

// Issue 19: new players each asking to confirm the same address sent it a thousand mails in
// 30 s from one client address (the limit was per player). Now at most
// mails_per_recipient_per_hour mails go to one address whoever asks, and one client address
// asks for at most mails_per_client_per_hour.
TEST(Accounts, MailsToOneAddressAreLimitedAcrossPlayersAndClientAddresses) {
  Fixture f;
  int sent = 0;
  int limited = 0;
  for (int i = 0; i < 20; ++i) {
    const std::string token = new_token();
    f.store.create_player("New " + std::to_string(i), token_hash(token), 1);
    // Every one from a client address of its own: only the recipient's budget holds.
    const ApiResponse r =
        f.call("POST", "/api/account/email", json{{"address", "victim@example.org"}}, token,
               "198.51.100." + std::to_string(i));
    if (r.status == 200) ++sent;
    if (r.status == 429 && json::parse(r.body)["error"]["code"] == "mail_limited") ++limited;
  }
  EXPECT_EQ(sent, 4);
  EXPECT_EQ(limited, 16);
  EXPECT_EQ(f.mails.size(), 4u);
  // Sign-in links by e-mail to that address come out of the same budget.
  const std::size_t before = f.mails.size();
  EXPECT_EQ(
      f.ok("POST", "/api/session/email-link", json{{"address", "victim@example.org"}})["sent"],
      true);
  EXPECT_EQ(f.mails.size(), before);
}

// Several servers on one database (rate_limit.h, ChargeSink): a mail charged here is told to
// the others with hashed keys only, and mails charged at the others are spent here.
TEST(Accounts, MailBudgetsAreSharedWithTheOtherServersByHashedKeys) {
  Fixture f;
  std::vector<std::tuple<std::string, std::string, double>> told;
  f.accounts->set_charge_sink([&](const std::string& budget, const std::string& key, double cost) {
    told.emplace_back(budget, key, cost);
  });
  ASSERT_EQ(f.call("POST", "/api/account/email", json{{"address", "alice@example.org"}},
                   f.alice_token, "198.51.100.1")
                .status,
            200);
  ASSERT_EQ(told.size(), 2u);
  EXPECT_EQ(told[0],
            std::make_tuple(std::string("mail_from"), shared_budget_key("198.51.100.1"), 1.0));
  EXPECT_EQ(told[1],
            std::make_tuple(std::string("mail_to"), shared_budget_key("alice@example.org"), 1.0));
  for (const auto& [budget, key, cost] : told) {
    EXPECT_EQ(key.find('@'), std::string::npos);
    EXPECT_EQ(key.find("198.51"), std::string::npos);
  }
  // The other servers sent four mails to the victim this hour: none more from here.
  f.accounts->charge_remote("mail_to", shared_budget_key("victim@example.org"), 4);
  const ApiResponse r =
      f.call("POST", "/api/account/email", json{{"address", "victim@example.org"}}, f.alice_token,
             "198.51.100.2");
  EXPECT_EQ(r.status, 429) << r.body;
  EXPECT_EQ(f.mails.size(), 1u);
  f.accounts->set_charge_sink(nullptr);
}

TEST(Accounts, MailsAskedForFromOneClientAddressAreLimited) {
  Fixture f;
  int sent = 0;
  for (int i = 0; i < 40; ++i) {
    const std::string token = new_token();
    f.store.create_player("New " + std::to_string(i), token_hash(token), 1);
    const ApiResponse r =
        f.call("POST", "/api/account/email",
               json{{"address", "p" + std::to_string(i) + "@example.org"}}, token, "203.0.113.9");
    if (r.status == 200) ++sent;
  }
  EXPECT_EQ(sent, 30);
  EXPECT_EQ(f.mails.size(), 30u);
  // Another client address is not held up by this one.
  const std::string token = new_token();
  f.store.create_player("Elsewhere", token_hash(token), 1);
  EXPECT_EQ(f.call("POST", "/api/account/email", json{{"address", "x@example.org"}}, token,
                   "203.0.113.10")
                .status,
            200);
}

// The recipient's budget is spent by every request for a link by e-mail, whether or not the
// address belongs to somebody: the limit answers the same for a known and an unknown address,
// so it tells nobody who plays here.
TEST(Accounts, TheMailLimitAnswersTheSameForKnownAndUnknownAddresses) {
  Fixture f;
  f.store.db()
      .prepare(
          "INSERT INTO player_emails(player_id, address, verified, created) VALUES(?, ?, 1, 1)")
      .bind(1, f.alice.id)
      .bind(2, "known@example.org")
      .run();
  std::vector<std::pair<int, std::string>> answers;
  for (const char* address : {"known@example.org", "unknown@example.org"}) {
    for (int i = 0; i < 4; ++i) {
      const ApiResponse r = f.call("POST", "/api/session/email-link", json{{"address", address}},
                                   "", "198.51.100." + std::to_string(i));
      answers.emplace_back(r.status, r.body);
    }
    const std::string token = new_token();
    f.store.create_player(std::string("Asker for ") + address, token_hash(token), 1);
    const ApiResponse r =
        f.call("POST", "/api/account/email", json{{"address", address}}, token, "198.51.100.99");
    answers.emplace_back(r.status, r.body);
  }
  ASSERT_EQ(answers.size(), 10u);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(answers[i], answers[i + 5]) << i;  // known and unknown: the same
  }
  EXPECT_EQ(answers[0], (std::pair<int, std::string>{200, R"({"sent":true})"}));
  EXPECT_EQ(answers[4].first, 429);  // the budget was spent in both cases
  EXPECT_EQ(f.mails.size(), 4u);     // the links to the known address
}

// Issue 19 (LOW): the asker's display name was written into the confirmation mail's body as
// free text, and the mail may go to somebody else's address.
TEST(Accounts, TheConfirmationMailCarriesNoDisplayName) {
  Fixture f;
  const std::string token = new_token();
  f.store.create_player("Prize at evil.example", token_hash(token), 1);
  f.ok("POST", "/api/account/email", json{{"address", "someone@example.org"}}, token);
  ASSERT_EQ(f.mails.size(), 1u);
  EXPECT_EQ(f.mails[0].text.find("Prize"), std::string::npos) << f.mails[0].text;
  EXPECT_EQ(f.mails[0].text.find("evil.example"), std::string::npos);
  EXPECT_FALSE(code_in(f.mails[0].text, "verify-email").empty());
}

TEST(Accounts, TooManyUnusedLinksAreRefused) {
  Fixture f;
  for (int i = 0; i < 10; ++i)
    f.ok("POST", "/api/account/sign-in-link", json::object(), f.alice_token);
  EXPECT_EQ(f.call("POST", "/api/account/sign-in-link", json::object(), f.alice_token).status, 429);
  f.clock += 24LL * 3600 * 1000 + 1;  // expired links no longer count
  f.ok("POST", "/api/account/sign-in-link", json::object(), f.alice_token);
}

// Issue 21: the language a player reads, told by his browser: a catalog's language by its tag
// or base, stored; anything else a clear error that changes nothing.
TEST(Accounts, ThePlayersLanguageIsStoredOnlyWhenACatalogHasIt) {
  Fixture f;
  EXPECT_EQ(f.ok("GET", "/api/account", nullptr, f.alice_token)["language"], nullptr);
  EXPECT_EQ(
      f.ok("POST", "/api/account/language", json{{"language", "de-AT"}}, f.alice_token)["language"],
      "de");
  EXPECT_EQ(f.stored_language(), "de");
  EXPECT_EQ(f.ok("GET", "/api/account", nullptr, f.alice_token)["language"], "de");
  for (const json& bad :
       {json{{"language", "xx"}}, json{{"language", ""}}, json{{"language", 7}},
        json{{"language", nullptr}}, json{{"language", "de,en;q=0.5"}}, json{{"language", "de_DE"}},
        json{{"language", "de-" + std::string(40, 'x')}}, json{{"language", "en\n"}},
        json::object()}) {
    const ApiResponse r = f.call("POST", "/api/account/language", bad, f.alice_token);
    EXPECT_EQ(r.status, 400) << bad.dump();
    EXPECT_NE(r.body.find("\"bad_language\""), std::string::npos) << r.body;
    EXPECT_NE(r.body.find("one of: de, en"), std::string::npos) << r.body;
    EXPECT_EQ(f.stored_language(), "de") << bad.dump();
  }
  EXPECT_EQ(f.call("POST", "/api/account/language", json{{"language", "en"}}).status, 401);
  EXPECT_EQ(f.call("GET", "/api/account/language", nullptr, f.alice_token).status, 405);
  EXPECT_EQ(
      f.ok("POST", "/api/account/language", json{{"language", "EN-gb"}}, f.alice_token)["language"],
      "en");
  EXPECT_EQ(f.stored_language(), "en");
  // One browser tells it once per page load: a burst beyond that is refused.
  int refused = 0;
  for (int i = 0; i < 40; ++i) {
    refused +=
        f.call("POST", "/api/account/language", json{{"language", "de"}}, f.alice_token).status ==
        429;
  }
  EXPECT_GT(refused, 0);
}

// The account mails in the asker's language: a sign-in link asked for before signing in in the
// page's language (`language`), else the browser's (Accept-Language); the confirmation of an
// address in the player's stored language.
TEST(Accounts, AccountMailsAreInTheAskersLanguage) {
  Fixture f;
  f.ok("POST", "/api/account/email", json{{"address", "alice@example.org"}}, f.alice_token);
  ASSERT_EQ(f.mails.size(), 1u);
  EXPECT_EQ(f.mails[0].subject, "Confirm your e-mail address for VIKTORY II");
  f.ok("POST", "/api/account/email/verify",
       json{{"code", code_in(f.mails[0].text, "verify-email")}});

  const auto link_mail = [&](const json& body, std::string_view accept_language) {
    const ApiResponse r =
        f.call("POST", "/api/session/email-link", body, "", "192.0.2.1", accept_language);
    EXPECT_EQ(r.status, 200) << r.body;
    return f.mails.back();
  };
  const json to{{"address", "alice@example.org"}};
  notify::EmailMessage mail = link_mail(to, "de-CH,de;q=0.9,en;q=0.8");
  EXPECT_EQ(mail.subject, "Bei VIKTORY II anmelden");
  EXPECT_NE(mail.text.find("Öffne diesen Link auf dem Gerät"), std::string::npos) << mail.text;
  EXPECT_EQ(mail.text.find("Open this link"), std::string::npos) << mail.text;
  EXPECT_FALSE(code_in(mail.text, "signin").empty()) << mail.text;

  json in_german = to;
  in_german["language"] = "de";
  mail = link_mail(in_german, "en-US,en;q=0.9");
  EXPECT_EQ(mail.subject, "Bei VIKTORY II anmelden");

  mail = link_mail(to, "");
  EXPECT_EQ(mail.subject, "Sign in to VIKTORY II");
  EXPECT_NE(mail.text.find("Open this link on the device"), std::string::npos) << mail.text;

  // A language the server does not offer: a clear error, and no mail.
  const std::size_t before = f.mails.size();
  json klingon = to;
  klingon["language"] = "tlh";
  EXPECT_EQ(f.call("POST", "/api/session/email-link", klingon).status, 400);
  EXPECT_EQ(f.mails.size(), before);

  // The confirmation of a new address in the player's stored language, whatever the browser.
  f.ok("POST", "/api/account/language", json{{"language", "de"}}, f.alice_token);
  ASSERT_EQ(f.call("POST", "/api/account/email", json{{"address", "alice2@example.org"}},
                   f.alice_token, "192.0.2.1", "en")
                .status,
            200);
  EXPECT_EQ(f.mails.back().subject, "Bestätige deine E-Mail-Adresse für VIKTORY II");
  EXPECT_NE(f.mails.back().text.find("Der Link funktioniert einmal, 48 Stunden lang."),
            std::string::npos)
      << f.mails.back().text;
  EXPECT_FALSE(code_in(f.mails.back().text, "verify-email").empty());
}

TEST(Accounts, HandlesOnlyItsOwnPaths) {
  EXPECT_TRUE(Accounts::handles("/api/account"));
  EXPECT_TRUE(Accounts::handles("/api/account/sign-in-link"));
  EXPECT_TRUE(Accounts::handles("/api/session/redeem"));
  EXPECT_FALSE(Accounts::handles("/api/session"));
  EXPECT_FALSE(Accounts::handles("/api/accounts"));
  EXPECT_FALSE(Accounts::handles("/api/games/1"));
}

}  // namespace
}  // namespace viktory::server
