// Identity across devices (accounts.h): sign-in links, recovery codes, e-mail verification and
// signing other devices out, through the real HTTP handler over a real SQLite file. The WebSocket
// sign-in goes through Store::player_by_token_hash, which must accept every device's token.
#include "accounts.h"

#include <gtest/gtest.h>

#include <regex>

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
                   const std::string& token = "", std::string_view address = "192.0.2.1") {
    const std::string text = body.is_null() ? "" : body.dump();
    return accounts->handle_api(method, path_, text, token.empty() ? "" : "Bearer " + token,
                                address);
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

TEST(Accounts, SigningOutOtherDevicesInvalidatesTheirTokensAndPendingLinksButNotTheRecoveryCode) {
  Fixture f;
  const std::string phone =
      f.ok("POST", "/api/session/redeem",
           json{{"code", f.ok("POST", "/api/account/sign-in-link", json::object(),
                              f.alice_token)["code"]}})["token"];
  const std::string pending =
      f.ok("POST", "/api/account/sign-in-link", json::object(), f.alice_token)["code"];
  const std::string recovery =
      f.ok("POST", "/api/account/recovery-code", json::object(), f.alice_token)["code"];

  // From the phone: the phone gets a new token; the old ones stop working.
  const json fresh = f.ok("POST", "/api/account/sign-out-others", json::object(), phone);
  const std::string phone2 = fresh["token"];
  EXPECT_FALSE(f.who(f.alice_token));
  EXPECT_FALSE(f.who(phone));
  ASSERT_TRUE(f.who(phone2));
  EXPECT_EQ(f.who(phone2)->id, f.alice.id);
  EXPECT_EQ(f.call("GET", "/api/account", nullptr, phone).status, 401);
  EXPECT_EQ(f.call("POST", "/api/session/redeem", json{{"code", pending}}).status, 404);
  EXPECT_EQ(f.ok("POST", "/api/session/redeem", json{{"code", recovery}})["name"], "Alice");
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

TEST(Accounts, TooManyUnusedLinksAreRefused) {
  Fixture f;
  for (int i = 0; i < 10; ++i)
    f.ok("POST", "/api/account/sign-in-link", json::object(), f.alice_token);
  EXPECT_EQ(f.call("POST", "/api/account/sign-in-link", json::object(), f.alice_token).status, 429);
  f.clock += 24LL * 3600 * 1000 + 1;  // expired links no longer count
  f.ok("POST", "/api/account/sign-in-link", json::object(), f.alice_token);
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
