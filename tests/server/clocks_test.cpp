// Game clocks with an injected clock (no sleeping): options, the bank, reminders, over time,
// skipping a late player's turn, the vote to expel (concede [5.1] or a computer takes the
// seat), and a deadline that fell due while the server was down.
#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <thread>

#include "catalog.h"
#include "fake_clients.h"
#include "game_clock.h"
#include "hub.h"
#include "log_text.h"
#include "test_support.h"

namespace viktory::server {
namespace {

using nlohmann::json;
using testing::TempDir;

constexpr std::int64_t kHour = 3600 * 1000;
constexpr std::int64_t kDay = 24 * kHour;

using testing::FakeClock;  // fake_clients.h
using FakeClient = testing::ListClient;

class ClockHub {
 public:
  ClockHub(const std::string& file, FakeClock& clock)
      : store(file), hub(store, metrics, options(clock)) {}
  HubOptions options(FakeClock& clock) {
    HubOptions o;
    o.clock = &clock;
    // What the turn notifications would get (turn_hook.h), reminders included.
    o.room.on_turn = [this](TurnChange change) {
      std::lock_guard lock(turns_mutex);
      turns.push_back(std::move(change));
    };
    return o;
  }
  std::vector<TurnChange> reminders() {
    std::lock_guard lock(turns_mutex);
    std::vector<TurnChange> out;
    for (const TurnChange& t : turns) {
      if (t.kind == TurnChange::Kind::reminder) out.push_back(t);
    }
    return out;
  }
  void connect(FakeClient& c, const std::string& name) {
    const ApiResponse r = hub.handle_api("POST", "/api/session", json{{"name", name}}.dump(), "");
    hub.on_open(&c);
    send(c, {{"type", "auth"}, {"token", json::parse(r.body)["token"]}});
  }
  // Fair play's reveal round is answered as the browser does (fake_clients.h).
  void send(FakeClient& c, const json& m) { round.send(hub, c, m); }
  testing::RoundAnswerer<FakeClient> round;

  std::mutex turns_mutex;
  std::vector<TurnChange> turns;
  Store store;
  Metrics metrics;
  Hub hub;
};

json clock_options(std::int64_t per_move_seconds, int skips, const char* expel) {
  return json{{"per_move_seconds", per_move_seconds},
              {"bank_seconds", 3600},
              {"skips_before_expel", skips},
              {"expel", expel}};
}

TEST(ClockOptionsTest, OnlyTheOfferedTimesAndSaneValues) {
  EXPECT_FALSE(clock_options_from_json(nullptr).enabled());
  EXPECT_EQ(clock_options_from_json(json{{"per_move_seconds", 120}}).per_move_ms, 120000);
  EXPECT_EQ(clock_options_from_json(json{{"per_move_seconds", 14 * 86400}}).per_move_ms, 14 * kDay);
  EXPECT_THROW(clock_options_from_json(json{{"per_move_seconds", 100}}), std::invalid_argument);
  EXPECT_THROW(clock_options_from_json(json{{"per_move_seconds", "1d"}}), std::invalid_argument);
  EXPECT_THROW(clock_options_from_json(json{{"bank_seconds", 60}}), std::invalid_argument);
  EXPECT_THROW(clock_options_from_json(json{{"per_move_seconds", 300}, {"expel", "ban"}}),
               std::invalid_argument);
  EXPECT_THROW(clock_options_from_json(json{{"per_move_seconds", 300}, {"skips_before_expel", 0}}),
               std::invalid_argument);
  const ClockOptions o = clock_options_from_json(
      json{{"per_move_seconds", 86400}, {"vacation_days", 3}, {"expel", "computer"}});
  EXPECT_EQ(clock_options_from_json(clock_options_to_json(o)).vacation_days, 3);
  EXPECT_EQ(clock_options_from_json(clock_options_to_json(o)).expel_to, ExpelTo::kComputer);
}

TEST(ClockStateTest, TimeBeyondTheMoveComesFromTheBankThenTheVacation) {
  ClockOptions o;
  o.per_move_ms = kDay;
  o.bank_ms = 2 * kHour;
  o.vacation_days = 1;
  ClockState s = new_clock_state(o, 2);
  const std::int64_t t0 = 1000;
  EXPECT_TRUE(clock_on_change(o, s, 0, t0));
  EXPECT_EQ(s.deadline, t0 + kDay + 2 * kHour + kDay);
  EXPECT_FALSE(clock_on_change(o, s, 0, t0 + kHour));  // the same seat acts on
  EXPECT_EQ(clock_sweep(s, t0 + kHour), ClockDue::kNothing);
  // Seat 0 took a day and 3 hours: 2 hours from the bank, 1 from the vacation.
  EXPECT_TRUE(clock_on_change(o, s, 1, t0 + kDay + 3 * kHour));
  EXPECT_EQ(s.seats[0].bank_ms, 0);
  EXPECT_EQ(s.seats[0].vacation_ms, kDay - kHour);
  EXPECT_EQ(s.seats[1].bank_ms, 2 * kHour);
  const std::int64_t t1 = t0 + kDay + 3 * kHour;
  EXPECT_EQ(s.remind_at, s.deadline - kDay / 4);
  EXPECT_EQ(clock_sweep(s, s.remind_at - 1), ClockDue::kNothing);
  EXPECT_EQ(clock_sweep(s, s.remind_at), ClockDue::kReminder);
  EXPECT_EQ(clock_sweep(s, s.remind_at), ClockDue::kNothing);
  EXPECT_EQ(clock_sweep(s, s.deadline), ClockDue::kOverdue);
  EXPECT_EQ(s.next_due(), 0);
  // Saved and read back as it was.
  const ClockState back = clock_state_from_json(clock_state_to_json(s));
  EXPECT_EQ(back.deadline, s.deadline);
  EXPECT_EQ(back.stage, ClockStage::kOverdue);
  EXPECT_EQ(back.seats[0].vacation_ms, kDay - kHour);
  (void)t1;
}

TEST(ClockStateTest, ADeclaredVacationStopsTheClockAndItsUnusedPartComesBack) {
  ClockOptions o;
  o.per_move_ms = kDay;
  o.bank_ms = 2 * kHour;
  o.vacation_days = 5;
  ClockState s = new_clock_state(o, 2);
  const std::int64_t t0 = 1000;
  // Seat 1 goes on vacation for 2 days before its turn comes.
  EXPECT_FALSE(clock_declare_vacation(o, s, 1, 2, 7, t0));
  EXPECT_EQ(s.seats[1].vacation_until, t0 + 2 * kDay);
  EXPECT_EQ(s.seats[1].vacation_ms, 3 * kDay);
  EXPECT_TRUE(clock_declare_vacation(o, s, 1, 1, 7, t0));  // already on vacation
  EXPECT_TRUE(clock_declare_vacation(o, s, 0, 6, 7, t0));  // more days than it has
  EXPECT_TRUE(clock_declare_vacation(o, s, 0, 0, 7, t0));  // no days at all
  // Its turn comes during the vacation: the clock counts from the vacation's end.
  EXPECT_TRUE(clock_on_change(o, s, 1, t0 + kHour));
  EXPECT_EQ(s.since, t0 + 2 * kDay);
  EXPECT_EQ(s.deadline, t0 + 2 * kDay + kDay + 2 * kHour + 3 * kDay);
  const std::int64_t deadline = s.deadline;
  // It acts after a day: a day of vacation comes back; the deadline stays.
  EXPECT_TRUE(clock_end_vacation(o, s, 1, t0 + kDay));
  EXPECT_EQ(s.seats[1].vacation_until, 0);
  EXPECT_EQ(s.seats[1].vacation_ms, 4 * kDay);
  EXPECT_EQ(s.deadline, deadline);
  EXPECT_FALSE(clock_end_vacation(o, s, 1, t0 + kDay));
  // Declared while its own clock runs: the deadline stays, the time before it stays used and
  // the time during it uses neither the time per move nor the bank.
  EXPECT_FALSE(clock_declare_vacation(o, s, 1, 1, 9, t0 + kDay + kHour));
  EXPECT_EQ(s.deadline, deadline);
  EXPECT_TRUE(clock_on_change(o, s, 0, t0 + 2 * kDay + kHour));
  EXPECT_EQ(s.seats[1].bank_ms, 2 * kHour);
  // Over time, nobody may slip into a vacation.
  s.stage = ClockStage::kOverdue;
  EXPECT_TRUE(clock_declare_vacation(o, s, 0, 1, 9, s.deadline + 1));
  // Read back from a clock stored before vacations could be declared.
  json old = clock_state_to_json(s);
  for (json& seat : old["seats"]) {
    seat.erase("vacation_until");
    seat.erase("vacation_seq");
  }
  EXPECT_EQ(clock_state_from_json(old).seats[1].vacation_until, 0);
  EXPECT_EQ(clock_state_from_json(clock_state_to_json(s)).seats[1].vacation_until,
            s.seats[1].vacation_until);
}

class Clocks : public ::testing::Test {
 protected:
  // Alice creates a 2-player game with a clock, Bob joins: it starts.
  std::int64_t start(ClockHub& f, const json& clock_fields) {
    f.connect(a, "Alice");
    f.connect(b, "Bob");
    f.send(a, {{"type", "game.create"}, {"seats", 2}, {"clock", clock_fields}});
    const std::int64_t id = a.last("game.created")["game_id"];
    f.send(b, {{"type", "game.join"}, {"game_id", id}});
    return id;
  }
  int decider() const { return b.last("game.state")["view"]["decider"]; }
  // The whole game.state now (watching again sends it).
  static json full_state(ClockHub& f, FakeClient& client, std::int64_t id) {
    f.send(client, {{"type", "game.watch"}, {"game_id", id}});
    return client.last("game.state");
  }
  FakeClient& of(int seat) { return seat == 0 ? a : b; }

  // Declared before the hubs of the tests: destroyed after them.
  FakeClient a, b, c;
  TempDir dir;
  FakeClock clock;
};

TEST_F(Clocks, ReminderThenOverTimeThenSkipThenExpelConcedes) {
  ClockHub f(dir.file("clock.db"), clock);
  const std::int64_t id = start(f, clock_options(86400, 1, "concede"));
  const int late = decider();
  const json told = b.last("game.clock");
  ASSERT_FALSE(told.is_null());
  EXPECT_EQ(told["clock"]["seat"], late);
  EXPECT_EQ(told["clock"]["deadline"], clock.now + kDay + kHour);  // the move and the bank
  EXPECT_EQ(told["clock"]["stage"], "running");

  // Too early: nobody may skip yet.
  f.send(of(1 - late), {{"type", "game.skip_turn"}, {"game_id", id}, {"req", 1}});
  EXPECT_EQ(of(1 - late).last("error")["code"], "not_overdue");
  EXPECT_EQ(f.hub.sweep_clocks(), clock.now + kDay + kHour - kDay / 4);

  clock.now += kDay + kHour - kDay / 4;  // the reminder is due
  f.hub.sweep_clocks();
  // The reminder goes to the turn notifications (push, e-mail, webhook: tests/notify).
  const std::vector<TurnChange> reminded = f.reminders();
  ASSERT_EQ(reminded.size(), 1u);
  EXPECT_EQ(reminded[0].game_id, id);
  EXPECT_EQ(reminded[0].decider_seat, late);
  EXPECT_EQ(reminded[0].decider_player,
            reminded[0].seats[static_cast<std::size_t>(late)].player_id);
  EXPECT_EQ(reminded[0].deadline, clock.now + kDay / 4);
  EXPECT_EQ(reminded[0].time_left, "6 hours");
  EXPECT_NE(a.last("game.clock")["line"].get<std::string>().find("Reminder"), std::string::npos);

  clock.now += kDay / 4;  // the deadline
  f.hub.sweep_clocks();
  EXPECT_EQ(a.last("game.clock")["clock"]["stage"], "overdue");
  EXPECT_EQ(a.last("game.clock")["clock"]["may_skip"], true);
  // The late player himself cannot skip; an outsider cannot either.
  f.send(of(late), {{"type", "game.skip_turn"}, {"game_id", id}});
  EXPECT_EQ(of(late).last("error")["code"], "own_turn");
  f.connect(c, "Carol");
  f.send(c, {{"type", "game.skip_turn"}, {"game_id", id}});
  EXPECT_EQ(c.last("error")["code"], "not_seated");
  // Expelling needs skipped turns first.
  f.send(of(1 - late), {{"type", "game.vote_expel"}, {"game_id", id}, {"seat", late}});
  EXPECT_EQ(of(1 - late).last("error")["code"], "too_few_skips");

  // The opponent skips: the late seat's decision (its Capital [4.0]) is made for it.
  const int seq_before = of(1 - late).last("game.state")["seq"];
  of(1 - late).messages.clear();
  f.send(of(1 - late), {{"type", "game.skip_turn"}, {"game_id", id}, {"req", 2}});
  EXPECT_TRUE(of(1 - late).last("error").is_null()) << of(1 - late).last("error").dump();
  const json update = of(1 - late).last("game.update");
  ASSERT_FALSE(update.is_null());
  EXPECT_GT(int(update["seq"]), seq_before);
  // Decided by the clock, not by the late player: the log lines say so, and so does the store.
  ASSERT_FALSE(update["log"].empty());
  for (const json& line : update["log"]) EXPECT_EQ(line["by"], "clock") << line.dump();
  for (const ActionRecord& r : f.store.actions(id)) EXPECT_EQ(r.source, ActionSource::kClock);
  const json skipped = of(1 - late).last("game.clock");
  // Updates carry view deltas: the whole view from a fresh game.state.
  const json after = full_state(f, of(1 - late), id);
  EXPECT_GE(int(after["view"]["players"][late]["capital_hex"]), 0);
  EXPECT_NE(after["view"]["decider"], late);
  EXPECT_EQ(skipped["clock"]["seats"][late]["skips"], 1);
  EXPECT_NE(skipped["line"].get<std::string>().find("skipped"), std::string::npos);
  EXPECT_EQ(skipped["clock"]["seat"], 1 - late);             // the other seat's clock runs now
  EXPECT_EQ(skipped["clock"]["seats"][late]["bank_ms"], 0);  // the bank was used up

  // Now the vote: one of one other player is a majority; the late player concedes [5.1].
  f.send(of(1 - late), {{"type", "game.vote_expel"}, {"game_id", id}, {"seat", late}});
  EXPECT_TRUE(of(1 - late).last("error").is_null());
  const json over = full_state(f, of(1 - late), id);
  EXPECT_EQ(over["view"]["phase"], "game_over");
  EXPECT_EQ(over["view"]["players"][late]["conceded"], true);
  EXPECT_EQ(over["view"]["winners"], json::array({1 - late}));
  const json log = of(1 - late).last("game.clock")["clock"]["log"];
  ASSERT_GE(log.size(), 4u);
  EXPECT_NE(log.back()["text"].get<std::string>().find("concedes"), std::string::npos);
  EXPECT_EQ(f.hub.sweep_clocks(), 0);  // nothing more is due
}

TEST_F(Clocks, AnExpelledPlayersSeatIsTakenByTheComputer) {
  ClockHub f(dir.file("takeover.db"), clock);
  const std::int64_t id = start(f, clock_options(120, 1, "computer"));
  const int late = decider();
  clock.now += 2 * 60 * 1000 + kHour;
  f.hub.sweep_clocks();
  f.hub.sweep_clocks();
  EXPECT_EQ(a.last("game.clock")["clock"]["stage"], "overdue");
  f.send(of(1 - late), {{"type", "game.skip_turn"}, {"game_id", id}});
  ASSERT_TRUE(of(1 - late).last("error").is_null()) << of(1 - late).last("error").dump();
  f.send(of(1 - late), {{"type", "game.vote_expel"}, {"game_id", id}, {"seat", late}});
  ASSERT_TRUE(of(1 - late).last("error").is_null()) << of(1 - late).last("error").dump();
  const json seats = of(1 - late).last("game.seats");
  EXPECT_EQ(seats["seats"][late]["computer"], "heuristic");
  EXPECT_EQ(seats["status"], "running");
  // A second vote is refused: the seat is the computer's now.
  f.send(of(1 - late), {{"type", "game.vote_expel"}, {"game_id", id}, {"seat", late}});
  EXPECT_EQ(of(1 - late).last("error")["code"], "bad_seat");
  // The computer plays the seat from now on; its takeover survives a reload (stored).
  EXPECT_EQ(f.store.game(id)->seats[static_cast<std::size_t>(late)].computer, "heuristic");

  // Only the seat's owner may take it back, and only a seat the computer took over.
  f.send(of(1 - late), {{"type", "game.take_back"}, {"game_id", id}});
  EXPECT_EQ(of(1 - late).last("error")["code"], "not_taken_over");
  f.send(of(late), {{"type", "game.take_back"}, {"game_id", id}, {"req", 7}});
  ASSERT_TRUE(of(late).last("error").is_null()) << of(late).last("error").dump();
  EXPECT_TRUE(of(late).last("game.seats")["seats"][late]["computer"].is_null());
  const json back = of(1 - late).last("game.clock");
  EXPECT_NE(back["line"].get<std::string>().find("takes the seat back"), std::string::npos);
  EXPECT_EQ(back["clock"]["seats"][late]["expelled"], false);
  EXPECT_EQ(back["clock"]["seats"][late]["skips"], 0);
  EXPECT_EQ(f.store.game(id)->seats[static_cast<std::size_t>(late)].computer, "");
  f.send(of(late), {{"type", "game.take_back"}, {"game_id", id}});
  EXPECT_EQ(of(late).last("error")["code"], "not_taken_over");
}

// Three players: one vote of two is no majority. The same voter voting again is refused and
// tells nobody anything (issue 19); the clock's lines name the players and the seat they are
// about (for that seat's catch-up, catch_up.h).
TEST_F(Clocks, ARepeatedExpelVoteIsRefusedAndAddsNoLine) {
  ClockHub f(dir.file("votes.db"), clock);
  FakeClient d;
  f.connect(a, "Alice");
  f.connect(b, "Bob");
  f.connect(d, "Dora");
  f.send(a, {{"type", "game.create"}, {"seats", 3}, {"clock", clock_options(120, 1, "concede")}});
  const std::int64_t id = a.last("game.created")["game_id"];
  f.send(b, {{"type", "game.join"}, {"game_id", id}});
  f.send(d, {{"type", "game.join"}, {"game_id", id}});
  ASSERT_FALSE(d.last("game.state").is_null());
  const int late = d.last("game.state")["view"]["decider"];
  FakeClient* clients[] = {&a, &b, &d};
  const char* names[] = {"Alice (Red)", "Bob (Yellow)", "Dora (Blue)"};  // common.h, seat_color
  const int voter = (late + 1) % 3;
  FakeClient& v = *clients[voter];
  FakeClient& other = *clients[(late + 2) % 3];
  clock.now += 2 * 60 * 1000 + kHour;
  f.hub.sweep_clocks();
  f.hub.sweep_clocks();
  ASSERT_EQ(v.last("game.clock")["clock"]["stage"], "overdue");
  f.send(v, {{"type", "game.skip_turn"}, {"game_id", id}});
  ASSERT_TRUE(v.last("error").is_null()) << v.last("error").dump();
  const json skipped = other.last("game.clock");
  EXPECT_NE(skipped["line"].get<std::string>().find(std::string(names[voter]) +
                                                    " skipped the turn of " + names[late]),
            std::string::npos)
      << skipped["line"];
  EXPECT_EQ(skipped["clock"]["log"].back()["seat"], late);
  // The line as a message too, which each reader's language words (docs/protocol.md): its
  // English is the text; in German the seats' colours are German as well.
  const json said = skipped["clock"]["log"].back();
  ASSERT_TRUE(said.contains("msg")) << said.dump();
  EXPECT_EQ(said["msg"]["key"], "log.clock.skippedVote");
  EXPECT_EQ(english(said["msg"]), said["text"]);
  const char* german[] = {"Alice (Rot)", "Bob (Gelb)", "Dora (Blau)"};
  EXPECT_EQ(
      text::catalogs().text_of("de", said["msg"]["key"].get<std::string>(), said["msg"]["params"]),
      std::string(german[voter]) + " hat den Zug von " + german[late] +
          " übersprungen: 1 übersprungener Zug. Die anderen Spieler dürfen jetzt über "
          "den Ausschluss von " +
          german[late] + " abstimmen.");

  f.send(v, {{"type", "game.vote_expel"}, {"game_id", id}, {"seat", late}});
  ASSERT_TRUE(v.last("error").is_null()) << v.last("error").dump();
  const json voted = other.last("game.clock");
  EXPECT_NE(voted["line"].get<std::string>().find("votes to expel"), std::string::npos);
  EXPECT_EQ(voted["clock"]["seats"][late]["expel_votes"], json::array({voter}));
  EXPECT_EQ(voted["clock"]["seats"][late]["expelled"], false);
  const std::size_t lines = voted["clock"]["log"].size();
  const std::size_t told = other.messages.size();

  f.send(v, {{"type", "game.vote_expel"}, {"game_id", id}, {"seat", late}, {"req", 9}});
  EXPECT_EQ(v.last("error")["code"], "already_voted");
  EXPECT_EQ(other.messages.size(), told) << other.messages.back().dump();  // nothing broadcast
  f.send(other, {{"type", "game.watch"}, {"game_id", id}});
  const json now = other.last("game.clock");
  EXPECT_EQ(now["clock"]["log"].size(), lines);
  EXPECT_EQ(now["clock"]["seats"][late]["expel_votes"], json::array({voter}));
}

// games.vacation (the account page): the vacation is declared in each running game with a
// clock where Bob plays; per game the reply says until when, or why not.
TEST_F(Clocks, VacationInEveryGameAtOnce) {
  ClockHub f(dir.file("everywhere.db"), clock);
  json with_days = clock_options(86400, 2, "concede");
  with_days["vacation_days"] = 5;
  const std::int64_t first = start(f, with_days);
  // A second game with no vacation days, a third without a clock, a fourth still open.
  f.send(a, {{"type", "game.create"}, {"seats", 2}, {"clock", clock_options(86400, 2, "concede")}});
  const std::int64_t second = a.last("game.created")["game_id"];
  f.send(b, {{"type", "game.join"}, {"game_id", second}});
  f.send(a, {{"type", "game.create"}, {"seats", 2}});
  const std::int64_t unclocked = a.last("game.created")["game_id"];
  f.send(b, {{"type", "game.join"}, {"game_id", unclocked}});
  f.send(a, {{"type", "game.create"}, {"seats", 3}, {"clock", with_days}});
  const std::int64_t open = a.last("game.created")["game_id"];
  f.send(b, {{"type", "game.join"}, {"game_id", open}});

  f.send(b, {{"type", "games.vacation"}, {"days", 2}, {"req", 4}});
  ASSERT_TRUE(b.last("error").is_null()) << b.last("error").dump();
  const json reply = b.last("games.vacation");
  ASSERT_FALSE(reply.is_null());
  EXPECT_EQ(reply["days"], 2);
  std::map<std::int64_t, json> by_game;
  for (const json& g : reply["games"]) by_game[g["game_id"]] = g;
  ASSERT_EQ(by_game.size(), 2u) << reply.dump();
  EXPECT_EQ(by_game[first]["until"], clock.now + 2 * kDay);
  EXPECT_EQ(by_game[second]["code"], "bad_vacation");
  // Told in the game like a game.vacation.
  EXPECT_EQ(a.last("game.clock")["clock"]["seats"][1]["vacation_until"], clock.now + 2 * kDay);
  // Asked again: already on vacation there.
  f.send(b, {{"type", "games.vacation"}, {"days", 1}});
  EXPECT_EQ(b.last("games.vacation")["games"][0]["code"], "bad_vacation");
  f.send(b, {{"type", "games.vacation"}});
  EXPECT_EQ(b.last("error")["code"], "bad_message");
}

TEST_F(Clocks, ADeadlineThatFellDueWhileTheServerWasDownIsActedUponAtTheStart) {
  std::int64_t id = 0;
  int late = -1;
  {
    ClockHub f(dir.file("restart.db"), clock);
    id = start(f, clock_options(300, 2, "concede"));
    late = decider();
    f.hub.on_close(&a);
    f.hub.on_close(&b);
  }
  clock.now += 300 * 1000 + kHour + 1;  // past the deadline while the server was down
  a.messages.clear();
  b.messages.clear();
  ClockHub f(dir.file("restart.db"), clock);
  EXPECT_EQ(f.hub.sweep_clocks(), 0);  // reminder and deadline at once; nothing due after
  f.connect(c, "Carol");
  f.send(c, {{"type", "game.watch"}, {"game_id", id}});
  const json told = c.last("game.clock");
  ASSERT_FALSE(told.is_null());
  EXPECT_EQ(told["clock"]["stage"], "overdue");
  EXPECT_EQ(told["clock"]["seat"], late);
  ASSERT_EQ(told["clock"]["log"].size(), 2u);
  EXPECT_NE(told["clock"]["log"][1]["text"].get<std::string>().find("over time"),
            std::string::npos);
}

TEST_F(Clocks, APlayerDeclaresVacationTheOthersSeeItItEndsWhenHeActsAndSurvivesARestart) {
  std::int64_t id = 0;
  int late = -1;
  const std::string file = dir.file("vacation.db");
  {
    ClockHub f(file, clock);
    json options = clock_options(86400, 2, "concede");
    options["vacation_days"] = 5;
    id = start(f, options);
    late = decider();
    const std::int64_t deadline = b.last("game.clock")["clock"]["deadline"];
    // Refused: no days, more than he has; then 2 days for the player who must act.
    f.send(of(late), {{"type", "game.vacation"}, {"game_id", id}, {"days", 0}});
    EXPECT_EQ(of(late).last("error")["code"], "bad_vacation");
    f.send(of(late), {{"type", "game.vacation"}, {"game_id", id}, {"days", 6}});
    EXPECT_EQ(of(late).last("error")["code"], "bad_vacation");
    of(late).messages.clear();
    f.send(of(late), {{"type", "game.vacation"}, {"game_id", id}, {"days", 2}, {"req", 3}});
    ASSERT_TRUE(of(late).last("error").is_null()) << of(late).last("error").dump();
    // The others see it, with its end, in the clock and its log.
    const json told = of(1 - late).last("game.clock");
    EXPECT_EQ(told["clock"]["seats"][late]["vacation_until"], clock.now + 2 * kDay);
    EXPECT_EQ(told["clock"]["seats"][late]["vacation_ms"], 3 * kDay);
    EXPECT_EQ(told["clock"]["deadline"], deadline);
    EXPECT_NE(told["line"].get<std::string>().find("on vacation for 2 days, until 2027-01-17"),
              std::string::npos)
        << told["line"];
    f.send(of(late), {{"type", "game.vacation"}, {"game_id", id}, {"days", 1}});
    EXPECT_EQ(of(late).last("error")["code"], "bad_vacation");  // already on vacation
    // The other one declares 3 days, and does not act: his lasts across the restart.
    f.send(of(1 - late), {{"type", "game.vacation"}, {"game_id", id}, {"days", 3}});
    ASSERT_TRUE(of(1 - late).last("error").is_null()) << of(1 - late).last("error").dump();

    // A day later the late player acts: his vacation ends, the unused day comes back.
    clock.now += kDay;
    of(late).messages.clear();  // the refusals above
    const json state = full_state(f, of(late), id);
    json move;
    for (const json& legal : state["legal"]) {
      if (legal.value("kind", "") != "concede") move = legal;
    }
    ASSERT_FALSE(move.is_null());
    f.send(of(late),
           {{"type", "game.action"}, {"game_id", id}, {"seq", state["seq"]}, {"action", move}});
    ASSERT_TRUE(of(late).last("error").is_null()) << of(late).last("error").dump();
    const json back = of(1 - late).last("game.clock");
    EXPECT_TRUE(back["clock"]["seats"][late]["vacation_until"].is_null());
    EXPECT_EQ(back["clock"]["seats"][late]["vacation_ms"], 4 * kDay);
    bool said = false;
    for (const json& line : back["clock"]["log"]) {
      said |= line["text"].get<std::string>().find("back from vacation") != std::string::npos;
    }
    EXPECT_TRUE(said) << back.dump();
    f.hub.on_close(&a);
    f.hub.on_close(&b);
  }
  ClockHub f(file, clock);
  f.connect(c, "Carol");
  f.send(c, {{"type", "game.watch"}, {"game_id", id}});
  const json told = c.last("game.clock");
  ASSERT_FALSE(told.is_null());
  EXPECT_EQ(told["clock"]["seats"][1 - late]["vacation_until"], clock.now + 2 * kDay);
  EXPECT_EQ(told["clock"]["seats"][late]["vacation_ms"], 4 * kDay);
}

TEST_F(Clocks, BadClockRequestsAreRefused) {
  ClockHub f(dir.file("bad.db"), clock);
  f.connect(a, "Alice");
  f.send(a, {{"type", "game.create"}, {"seats", 2}, {"clock", {{"per_move_seconds", 61}}}});
  EXPECT_EQ(a.last("error")["code"], "bad_options");
  EXPECT_TRUE(a.last("game.created").is_null());
  f.send(a, {{"type", "game.create"}, {"seats", 2}});
  const std::int64_t id = a.last("game.created")["game_id"];
  f.send(a, {{"type", "game.skip_turn"}, {"game_id", id}});
  EXPECT_EQ(a.last("error")["code"], "no_clock");
  f.send(a, {{"type", "game.vote_expel"}, {"game_id", id}});
  EXPECT_EQ(a.last("error")["code"], "bad_message");
  f.send(a, {{"type", "game.vacation"}, {"game_id", id}, {"days", 1}});
  EXPECT_EQ(a.last("error")["code"], "no_clock");
  f.send(a, {{"type", "game.vacation"}, {"game_id", id}});
  EXPECT_EQ(a.last("error")["code"], "bad_message");
}

}  // namespace
}  // namespace viktory::server
