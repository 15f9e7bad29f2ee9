// The words of turn messages (issue 20): what happened since the recipient last acted, the
// deadline in his time zone, "you must decide", the group's version, the daily digest; and the
// time zones they are told in (the system's tz database through our TZif reader).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "notification_text.h"
#include "support/telltales.h"
#include "time_zone.h"

namespace viktory::notify {
namespace {

LocalTime at(const char* zone, std::int64_t ms) { return TimeZone::load(zone)->local(ms); }

TEST(TimeZone, OffsetsAndLocalTimesFromTheSystemsDatabase) {
  ASSERT_TRUE(TimeZone::load("Europe/Berlin"));
  const LocalTime winter = at("Europe/Berlin", 1768478400000);  // 2026-01-15 12:00 UTC
  EXPECT_EQ(winter.hour, 13);
  EXPECT_EQ(winter.day, 15);
  EXPECT_EQ(winter.month, 1);
  EXPECT_EQ(winter.weekday, 4);                            // Thursday
  EXPECT_EQ(at("Europe/Berlin", 1784116800000).hour, 14);  // summer time
  // The minute daylight saving time starts in New York.
  const LocalTime before = at("America/New_York", 1772953140000);
  const LocalTime after = at("America/New_York", 1772953200000);
  EXPECT_EQ(before.hour * 60 + before.minute, 1 * 60 + 59);
  EXPECT_EQ(after.hour * 60 + after.minute, 3 * 60);
  const LocalTime india = at("Asia/Kolkata", 1795750200000);  // a half-hour offset
  EXPECT_EQ(india.hour * 60 + india.minute, 9 * 60);
  EXPECT_EQ(india.zone, "Asia/Kolkata");
  EXPECT_EQ(TimeZone::utc().local(1795750200000).hour, 3);
}

TEST(TimeZone, OnlyNamesOfZonesAreTaken) {
  for (const char* bad :
       {"", "../../etc/passwd", "/etc/localtime", "Europe/../../etc/hosts", "Nowhere/Atlantis",
        "Europe/Berlin/x", "Europe//Berlin", "Europe Berlin", "Europe/Berlin\n"}) {
    EXPECT_FALSE(TimeZone::load(bad)) << bad;
  }
  for (const char* good : {"UTC", "Europe/Berlin", "America/Argentina/Buenos_Aires", "Etc/GMT+5"}) {
    EXPECT_TRUE(TimeZone::load(good)) << good;
  }
}

GameEvent turn() {
  GameEvent event;
  event.kind = EventKind::your_turn;
  event.game_id = 2;
  event.round = 6;
  event.player = "Bob";
  event.game_url = "https://viktory.example.org/#/game/2";
  return event;
}

Happening happening(Happening::Kind kind, std::string actor, std::string other, std::string hex,
                    bool actor_you = false, bool other_you = false) {
  Happening h;
  h.kind = kind;
  h.actor = std::move(actor);
  h.other = std::move(other);
  h.hex = std::move(hex);
  h.actor_is_you = actor_you;
  h.other_is_you = other_you;
  return h;
}

TEST(TurnMessages, YourTurnSaysWhatTheOpponentsDidAndTheDeadlineInYourTimeZone) {
  GameEvent event = turn();
  event.happened = {happening(Happening::Kind::battle, "Alice", "Bob", "F6", false, true),
                    happening(Happening::Kind::town_taken, "Alice", "Bob", "F6", false, true),
                    happening(Happening::Kind::battle, "Bob", "Alice", "C3", true, false),
                    happening(Happening::Kind::city_taken, "Alice", "Carol", "D4"),
                    happening(Happening::Kind::eliminated, "Carol", "", "")};
  event.deadline = at("Europe/Berlin", 1768478400000);
  const NotificationText text = personal_text(event);
  EXPECT_EQ(text.title, "Your turn in Game 2 (round 6)");
  EXPECT_EQ(text.body,
            "Alice won a battle against you at F6.\n"
            "Alice took your Town at F6.\n"
            "You won a battle against Alice at C3.\n"
            "Alice took Carol's City at D4.\n"
            "Carol was eliminated.\n"
            "Move by Thursday 15 January, 13:00 (Europe/Berlin).");
  const EmailMessage mail = email_for(event, Mailbox{"bob@example.org", ""});
  EXPECT_EQ(mail.subject, "Your turn in Game 2 (round 6)");
  EXPECT_NE(mail.text.find("Alice took your Town at F6.\n"), std::string::npos) << mail.text;
  EXPECT_NE(mail.text.find("Open the game: https://viktory.example.org/#/game/2"),
            std::string::npos);
  const auto payload = nlohmann::json::parse(push_payload(event));
  EXPECT_EQ(payload["body"], text.body);
  EXPECT_EQ(payload["url"], "https://viktory.example.org/#/game/2");
}

TEST(TurnMessages, YouMustDecideHasItsOwnSubjectAndText) {
  GameEvent event = turn();
  event.kind = EventKind::must_decide;
  event.turn_player = "Alice";
  event.deadline = TimeZone::utc().local(1768478400000);
  const NotificationText text = personal_text(event);
  EXPECT_EQ(text.title, "You must decide in Game 2 (round 6)");
  EXPECT_EQ(text.body,
            "Alice's turn waits for your decision.\n"
            "Decide by Thursday 15 January, 12:00 UTC.");
  EXPECT_EQ(email_for(event, Mailbox{"bob@example.org", ""}).subject,
            "You must decide in Game 2 (round 6)");
  EXPECT_EQ(nlohmann::json::parse(push_payload(event))["kind"], "must_decide");
  EXPECT_EQ(group_text(event),
            "Bob must decide in Game 2 (round 6). Deadline Thursday 15 January, 12:00 UTC. "
            "https://viktory.example.org/#/game/2");
}

TEST(TurnMessages, TheGroupIsToldByNamesNeverAsYou) {
  GameEvent event = turn();
  event.happened = {happening(Happening::Kind::capital_taken, "Alice", "Carol", "B2"),
                    happening(Happening::Kind::conceded, "Carol", "", "")};
  EXPECT_EQ(group_text(event),
            "Bob's turn in Game 2 (round 6). Alice took Carol's Capital at B2. Carol conceded. "
            "https://viktory.example.org/#/game/2");
  const WebhookEvent hook = webhook_event_for(event);
  EXPECT_EQ(hook.event["happened"],
            (nlohmann::json{"Alice took Carol's Capital at B2.", "Carol conceded."}));
}

TEST(TurnMessages, ALongListIsCutAndCounted) {
  GameEvent event = turn();
  for (int i = 0; i < 9; ++i) {
    event.happened.push_back(
        happening(Happening::Kind::battle, "Alice", "Carol", "E" + std::to_string(i + 1)));
  }
  const std::vector<std::string> lines = happening_lines(event.happened, false);
  ASSERT_EQ(lines.size(), kMaxHappeningLines + 1);
  EXPECT_EQ(lines.back(), "And 3 more things in the game's log.");
}

TEST(TurnMessages, TheDigestListsEachGameThatWaits) {
  GameEvent first = turn();
  first.happened = {happening(Happening::Kind::town_taken, "Alice", "", "F6")};
  GameEvent second = turn();
  second.game_id = 5;
  second.round = 2;
  second.kind = EventKind::must_decide;
  second.turn_player = "Carol";
  second.game_url = "https://viktory.example.org/#/game/5";
  const EmailMessage mail =
      digest_email({DigestGame{first}, DigestGame{second}}, Mailbox{"bob@example.org", ""}, "en");
  EXPECT_EQ(mail.subject, "VIKTORY II: 2 games wait for you");
  EXPECT_NE(mail.text.find("Your turn in Game 2 (round 6)\n  Alice took a neutral Town at F6.\n"
                           "  https://viktory.example.org/#/game/2\n"),
            std::string::npos)
      << mail.text;
  EXPECT_NE(mail.text.find("You must decide in Game 5 (round 2)\n"
                           "  Carol's turn waits for your decision.\n"),
            std::string::npos)
      << mail.text;
}

using testing::telltales;
using testing::telltales_in;

// Issue 21: a German player's push and e-mail are German through and through: the same event
// as above, every line, the deadline's weekday and month, the link's words and the mail's
// footer; and not one piece of the English catalog's texts of those keys is left.
TEST(TurnMessages, AGermanPlayersPushAndMailAreGerman) {
  GameEvent event = turn();
  event.language = "de";
  event.happened = {happening(Happening::Kind::battle, "Alice", "Bob", "F6", false, true),
                    happening(Happening::Kind::town_taken, "Alice", "Bob", "F6", false, true),
                    happening(Happening::Kind::battle, "Bob", "Alice", "C3", true, false),
                    happening(Happening::Kind::city_taken, "Alice", "Carol", "D4"),
                    happening(Happening::Kind::city_taken, "Alice", "", "D5"),
                    happening(Happening::Kind::eliminated, "Carol", "", "")};
  event.deadline = at("Europe/Berlin", 1768478400000);
  const NotificationText text = personal_text(event);
  EXPECT_EQ(text.title, "Du bist am Zug in Partie 2 (Runde 6)");
  EXPECT_EQ(text.body,
            "Alice hat eine Schlacht gegen dich auf F6 gewonnen.\n"
            "Alice hat dein Dorf auf F6 erobert.\n"
            "Du hast eine Schlacht gegen Alice auf C3 gewonnen.\n"
            "Alice hat die Stadt von Carol auf D4 erobert.\n"
            "Alice hat eine neutrale Stadt auf D5 erobert.\n"
            "Carol wurde eliminiert.\n"
            "Zieh bis Donnerstag, 15. Januar, 13:00 Uhr (Europe/Berlin).");
  const EmailMessage mail = email_for(event, Mailbox{"bob@example.org", ""});
  EXPECT_EQ(mail.subject, text.title);
  EXPECT_NE(mail.text.find("Zur Partie: https://viktory.example.org/#/game/2"), std::string::npos);
  EXPECT_NE(mail.text.find("Zug-Benachrichtigungen"), std::string::npos) << mail.text;
  const std::string payload = push_payload(event);
  EXPECT_EQ(nlohmann::json::parse(payload)["body"], text.body);

  const std::vector<std::string> english = telltales("en", "de", {"push.", "mail."});
  ASSERT_GT(english.size(), 40u);  // the test's own check: the catalog was read
  EXPECT_EQ(telltales_in(mail.subject + "\n" + mail.text, english), std::vector<std::string>{})
      << mail.text;
  EXPECT_EQ(telltales_in(payload, english), std::vector<std::string>{}) << payload;

  // Every other kind too, and a decision, a reminder, a long list and the end.
  for (const EventKind kind : {EventKind::must_decide, EventKind::game_started,
                               EventKind::game_over, EventKind::time_running_out}) {
    GameEvent other = event;
    other.kind = kind;
    other.turn_player = "Alice";
    other.winners = {"Alice", "Carol"};
    other.time_left_ms = 6 * 3600 * 1000;
    for (int i = 0; i < 9; ++i) other.happened.push_back(other.happened[0]);
    const NotificationText t = personal_text(other);
    const std::string all = t.title + "\n" + t.body + "\n" + email_for(other, mail.to).text;
    EXPECT_EQ(telltales_in(all, english), std::vector<std::string>{}) << all;
  }
  GameEvent over = event;
  over.kind = EventKind::game_over;
  over.winners = {"Alice", "Bob", "Carol"};
  EXPECT_EQ(personal_text(over).body, "Alice, Bob und Carol haben gemeinsam gewonnen.");
  GameEvent reminder = event;
  reminder.kind = EventKind::time_running_out;
  reminder.time_left_ms = 6 * 3600 * 1000;
  EXPECT_EQ(personal_text(reminder).body,
            "Noch 6 Stunden für deinen Zug; danach dürfen die anderen Spieler deinen Zug "
            "überspringen.");
  EXPECT_EQ(happening_lines(std::vector<Happening>(8, event.happened[5]), false, "de").back(),
            "Und 2 weitere Ereignisse im Protokoll der Partie.");
}

// ... and an English player's are English: none of the German catalog's words.
TEST(TurnMessages, AnEnglishPlayersPushAndMailHaveNoGerman) {
  const std::vector<std::string> german = telltales("de", "en", {"push.", "mail.", "webhook."});
  ASSERT_GT(german.size(), 40u);
  for (const EventKind kind :
       {EventKind::your_turn, EventKind::must_decide, EventKind::game_started, EventKind::game_over,
        EventKind::time_running_out}) {
    GameEvent event = turn();
    event.kind = kind;
    event.turn_player = "Alice";
    event.happened = {happening(Happening::Kind::capital_taken, "Alice", "Bob", "B2", false, true),
                      happening(Happening::Kind::conceded, "Carol", "", "")};
    event.deadline = at("Europe/Berlin", 1768478400000);
    const NotificationText text = personal_text(event);
    EXPECT_EQ(text.title.find("Partie"), std::string::npos);
    const std::string all = text.title + "\n" + push_payload(event) + "\n" +
                            email_for(event, Mailbox{"bob@example.org", ""}).text + "\n" +
                            group_text(event);
    EXPECT_EQ(telltales_in(all, german), std::vector<std::string>{}) << all;
  }
}

// A webhook is written in its setter's language: the group's text and the JSON's lines.
TEST(TurnMessages, AGermanSettersWebhookIsGerman) {
  GameEvent event = turn();
  event.language = "de";
  event.happened = {happening(Happening::Kind::capital_taken, "Alice", "Carol", "B2"),
                    happening(Happening::Kind::conceded, "Carol", "", "")};
  event.deadline = TimeZone::utc().local(1768478400000);
  EXPECT_EQ(group_text(event),
            "Bob ist am Zug in Partie 2 (Runde 6). Alice hat die Hauptstadt von Carol auf B2 "
            "erobert. Carol hat aufgegeben. Frist: Donnerstag, 15. Januar, 12:00 Uhr UTC. "
            "https://viktory.example.org/#/game/2");
  const WebhookEvent hook = webhook_event_for(event);
  EXPECT_EQ(hook.event["language"], "de");
  EXPECT_EQ(hook.event["happened"][1], "Carol hat aufgegeben.");
  const std::vector<std::string> english = telltales("en", "de", {"push.", "webhook."});
  EXPECT_EQ(telltales_in(hook.text + hook.event["happened"].dump() + hook.event["deadline"].dump(),
                         english),
            std::vector<std::string>{});
}

// The digest in the recipient's language, whatever its games' events said.
TEST(TurnMessages, AGermanDigest) {
  GameEvent first = turn();
  first.happened = {happening(Happening::Kind::town_taken, "Alice", "", "F6")};
  const EmailMessage mail = digest_email({DigestGame{first}}, Mailbox{"bob@example.org", ""}, "de");
  EXPECT_EQ(mail.subject, "VIKTORY II: 1 Partie wartet auf dich");
  EXPECT_NE(mail.text.find("Du bist am Zug in Partie 2 (Runde 6)\n"
                           "  Alice hat ein neutrales Dorf auf F6 erobert.\n"),
            std::string::npos)
      << mail.text;
  EXPECT_EQ(telltales_in(mail.subject + mail.text, telltales("en", "de", {"push.", "mail."})),
            std::vector<std::string>{})
      << mail.text;
}

}  // namespace
}  // namespace viktory::notify
