// The words of turn messages (issue 20): what happened since the recipient last acted, the
// deadline in his time zone, "you must decide", the group's version, the daily digest; and the
// time zones they are told in (the system's tz database through our TZif reader).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "notification_text.h"
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
      digest_email({DigestGame{first}, DigestGame{second}}, Mailbox{"bob@example.org", ""});
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

}  // namespace
}  // namespace viktory::notify
