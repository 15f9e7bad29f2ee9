// Leaving (docs/server.md, "Leaving") over the real server process, real WebSockets and a real
// SQLite file: a player exports his data (his games and chat lines, nothing private of the
// others; once per 10 minutes) and deletes his account: a wrong confirmation changes nothing;
// the right one concedes his running seat [5.1] (the others play on), erases every personal
// table (account_deletion.cpp), takes him off the ladder without touching the others'
// ratings, and keeps the replay and the fair-play record of his finished game valid (the
// verifier passes before and after); everywhere he is "a former player".
#include <gtest/gtest.h>

#include <fstream>

#include "account_deletion.h"
#include "database.h"
#include "game_record.h"
#include "support/play.h"
#include "support/server_process.h"
#include "test_support.h"
#include "verify.h"

namespace viktory::server::testing {
namespace {

using nlohmann::json;

class Leaving : public ::testing::Test {
 protected:
  void SetUp() override {
    db_path = dir.file("leaving.db");
    std::filesystem::create_directories(dir.path() / "web");
    server = std::make_unique<ServerProcess>(db_path, (dir.path() / "web").string());
    port = server->port();
    alice = sign_up(port, "Alice");
    bob = sign_up(port, "Bob");
    carol = sign_up(port, "Carol");
    a.connect(port);
    b.connect(port);
    c.connect(port);
    sign_in(a, alice);
    sign_in(b, bob);
    sign_in(c, carol);
  }

  // A rated game of Alice and Bob played past every seat's first Player Turn, then conceded by
  // whoever decides: both have a rating and a history.
  std::int64_t finished_rated_game() {
    std::vector<WsClient*> clients{&a, &b};
    std::vector<Seen> seen;
    const std::int64_t id = start_game(clients, seen);
    for (int step = 0; step < 400 && seen[0].view["turn"].get<int>() < 3; ++step) {
      const std::size_t mover = seen[0].view["decider"].get<std::size_t>();
      json action;
      for (const json& l : seen[mover].legal) {
        if (l["kind"] == "end_phase") action = l;
      }
      for (const json& l : seen[mover].legal) {
        if (action.is_null() && l["kind"] != "concede") action = l;
      }
      act_and_wait(*clients[mover], id, action, clients, seen, mover);
    }
    const std::size_t loser = seen[0].view["decider"].get<std::size_t>();
    act_and_wait(*clients[loser], id, json{{"kind", "concede"}}, clients, seen, loser);
    return id;
  }

  void chat(WsClient& ws, std::int64_t game_id, const std::string& text) {
    ws.send(json{{"type", "chat.send"}, {"game_id", game_id}, {"text", text}, {"req", 7}});
    ws.wait_for([](const json& m) { return m["type"] == "ack" && m["req"] == 7; });
  }

  HttpReply get(const std::string& path, const std::string& token = "") {
    return http_request(port, "GET", path, "", token);
  }
  HttpReply delete_account(const Account& who, const std::string& confirm) {
    return http_request(port, "POST", "/api/account/delete", json{{"confirm", confirm}}.dump(),
                        who.token);
  }

  std::int64_t count(const std::string& sql) {
    Database d(db_path, /*read_only=*/true);
    Statement s = d.prepare(sql);
    s.step();
    return s.int64(0);
  }
  void exec(const std::string& sql) {
    Database d(db_path);
    d.exec(sql);
  }

  // Rows of each table account_deletion.cpp erases that still name `player` (for `players`:
  // whether the row still has a name; for chat: lines with text).
  std::map<std::string, std::int64_t> personal_rows(const std::string& player) {
    std::map<std::string, std::int64_t> rows;
    for (const AccountErasure& e : account_erasures()) {
      const std::string table(e.table);
      if (table == "former_players") continue;  // the marker, written by the deletion
      std::string where =
          table == "game_webhooks"    ? "set_by = " + player
          : table == "players"        ? "id = " + player + " AND name != ''"
          : table == "chat"           ? "player_id = " + player + " AND text != ''"
          : table == "follows"        ? "follower = " + player + " OR followee = " + player
          : table == "friend_invites" ? "inviter = " + player + " OR invitee = " + player
          : table == "player_mutes"   ? "player_id = " + player + " OR muted_id = " + player
                                      : "player_id = " + player;
      rows[table] = count("SELECT COUNT(*) FROM " + table + " WHERE " + where);
    }
    return rows;
  }

  TempDir dir;
  std::string db_path;
  std::unique_ptr<ServerProcess> server;
  int port = 0;
  Account alice, bob, carol;
  WsClient a, b, c;
};

TEST_F(Leaving, TheExportHoldsHisGamesAndChatLinesAndNothingPrivateOfTheOthers) {
  const std::int64_t id = finished_rated_game();
  chat(a, id, "well played, Bob");
  chat(b, id, "a line of Bob's own");
  exec("INSERT INTO player_emails(player_id, address, verified, created) VALUES(" + bob.player_id +
       ", 'bob@example.org', 1, 0), (" + alice.player_id + ", 'alice@example.org', 1, 0)");

  const HttpReply reply = get("/api/account/export", alice.token);
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_EQ(reply.content_disposition,
            "attachment; filename=\"viktory-account-" + alice.player_id + ".json\"");
  const json doc = reply.json();
  EXPECT_EQ(doc["account"]["player_id"], alice.player_id);
  EXPECT_EQ(doc["account"]["name"], "Alice");
  EXPECT_EQ(doc["account"]["email"]["address"], "alice@example.org");
  ASSERT_EQ(doc["games"].size(), 1u);
  EXPECT_EQ(doc["games"][0]["game_id"], id);
  EXPECT_EQ(doc["games"][0]["status"], "finished");
  EXPECT_EQ(doc["games"][0]["rated"], true);
  EXPECT_TRUE(doc["games"][0]["place"].is_number());
  EXPECT_EQ(doc["games"][0]["players"].size(), 2u);
  EXPECT_EQ(doc["ratings"].size(), 1u);
  EXPECT_EQ(doc["rating_history"].size(), 1u);
  ASSERT_EQ(doc["chat"].size(), 1u);
  EXPECT_EQ(doc["chat"][0]["text"], "well played, Bob");
  EXPECT_EQ(doc["chat"][0]["game_id"], id);
  // Of Bob: his name in the seats, as everyone sees it; nothing else.
  EXPECT_EQ(reply.body.find("bob@example.org"), std::string::npos);
  EXPECT_EQ(reply.body.find("a line of Bob's own"), std::string::npos);
  EXPECT_EQ(reply.body.find(bob.token), std::string::npos);
  EXPECT_EQ(reply.body.find(alice.token), std::string::npos);

  // The budget: one export per player every 10 minutes; the others keep theirs.
  const HttpReply again = get("/api/account/export", alice.token);
  EXPECT_EQ(again.status, 429);
  EXPECT_EQ(get("/api/account/export", bob.token).status, 200);
  EXPECT_EQ(get("/api/account/export").status, 401);
}

TEST_F(Leaving, AWrongConfirmationChangesNothing) {
  const std::int64_t id = finished_rated_game();
  chat(a, id, "still here");
  const auto before = personal_rows(alice.player_id);
  for (const char* confirm : {"alice", "Bob", ""}) {
    EXPECT_EQ(delete_account(alice, confirm).status, 400) << confirm;
  }
  EXPECT_EQ(http_request(port, "POST", "/api/account/delete", "not json", alice.token).status, 400);
  EXPECT_EQ(delete_account(bob, "Alice").status, 400);  // Bob cannot delete Alice
  EXPECT_EQ(http_request(port, "GET", "/api/account/delete", "", alice.token).status, 405);
  EXPECT_EQ(personal_rows(alice.player_id), before);
  EXPECT_EQ(get("/api/account", alice.token).status, 200);
  EXPECT_EQ(count("SELECT COUNT(*) FROM former_players"), 0);
}

TEST_F(Leaving, DeletionConcedesErasesAndKeepsReplaysAndRecordsValid) {
  const std::int64_t finished = finished_rated_game();
  chat(a, finished, "my line");
  const std::string game_path = "/api/games/" + std::to_string(finished);
  const HttpReply record_before = get(game_path + "/record", bob.token);
  ASSERT_EQ(record_before.status, 200);
  ASSERT_TRUE(protocol::verify_record(protocol::parse_record(record_before.body)).verified);
  const json bob_ratings_before = get("/api/players/" + bob.player_id).json()["ratings"];
  ASSERT_EQ(get("/api/ladder?players=2").json()["entries"].size(), 2u);

  // A running game of three: Alice's seat will concede, Bob and Carol play on.
  std::vector<WsClient*> three{&a, &b, &c};
  std::vector<Seen> seen;
  const std::int64_t running = start_game(three, seen, json{{"seats", 3}});

  // Something in every personal table, as the account's features would write it.
  const std::string me = alice.player_id;
  exec("INSERT INTO player_emails(player_id, address, verified, created) VALUES(" + me +
       ", 'alice@example.org', 1, 0);"
       "INSERT INTO device_tokens VALUES('" +
       std::string(64, 'a') + "', " + me +
       ", 0);"
       "INSERT INTO sign_in_codes VALUES('" +
       std::string(64, 'b') + "', " + me +
       ", 'recovery', 0, NULL);"
       "INSERT INTO push_subscriptions VALUES('https://push.example/1', " +
       me +
       ", 'k', 'a', 0);"
       "INSERT INTO notify_settings VALUES(" +
       me +
       ", 1, 1);"
       "INSERT INTO notify_preferences(player_id, time_zone) VALUES(" +
       me +
       ", 'Europe/Berlin');"
       "INSERT INTO game_mutes VALUES(" +
       me + ", " + std::to_string(running) +
       ");"
       "INSERT INTO game_webhooks(game_id, url, format, set_by) VALUES(" +
       std::to_string(running) + ", 'https://hook.example/x', 'json', " + me +
       ");"
       "INSERT INTO standing_orders VALUES(" +
       me +
       ", '{}');"
       "INSERT INTO game_standing_orders VALUES(" +
       std::to_string(running) + ", " + me +
       ", '{}');"
       "INSERT INTO profile_privacy VALUES(" +
       me + ", 'everyone');");
  // Friends both ways (friends.h): she follows Bob, Carol follows her; an invitation each way.
  exec("INSERT INTO follows VALUES(" + me + ", " + bob.player_id + ", 0);" +
       "INSERT INTO follows VALUES(" + carol.player_id + ", " + me + ", 0);" +
       "INSERT INTO friend_invites VALUES(" + std::to_string(running) + ", " + bob.player_id +
       ", " + me + ", 0);" + "INSERT INTO friend_invites VALUES(" + std::to_string(running) + ", " +
       me + ", " + carol.player_id + ", 0);");
  // Chat comforts (chat_comforts.h): a read mark; she muted Bob, Carol muted her.
  exec("INSERT INTO chat_read VALUES(" + me + ", " + std::to_string(running) + ", 0);" +
       "INSERT INTO player_mutes VALUES(" + me + ", " + bob.player_id + ", 0);" +
       "INSERT INTO player_mutes VALUES(" + carol.player_id + ", " + me + ", 0);");
  for (const auto& [table, rows] : personal_rows(me)) EXPECT_GT(rows, 0) << table;
  const std::int64_t actions_before =
      count("SELECT COUNT(*) FROM actions WHERE game_id = " + std::to_string(finished));
  const std::int64_t chat_lines = count("SELECT COUNT(*) FROM chat");

  const HttpReply deleted = delete_account(alice, "Alice");
  ASSERT_EQ(deleted.status, 200) << deleted.body;

  // Every personal table is empty of her; the row stays, with the marker.
  for (const auto& [table, rows] : personal_rows(me)) EXPECT_EQ(rows, 0) << table;
  EXPECT_EQ(count("SELECT COUNT(*) FROM players WHERE id = " + me), 1);
  EXPECT_EQ(count("SELECT COUNT(*) FROM former_players WHERE player_id = " + me), 1);
  EXPECT_EQ(count("SELECT COUNT(*) FROM chat"), chat_lines);  // lines kept, blanked
  EXPECT_EQ(count("SELECT COUNT(*) FROM actions WHERE game_id = " + std::to_string(finished)),
            actions_before);

  // Her running seat conceded [5.1]; Bob and Carol play on.
  const json summary = get("/api/games/" + std::to_string(running), bob.token).json();
  EXPECT_EQ(summary["status"], "running");
  const json state = [&] {
    b.send(json{{"type", "game.watch"}, {"game_id", running}});
    return b.wait_for(
        [&](const json& m) { return m["type"] == "game.state" && m["game_id"] == running; });
  }();
  EXPECT_EQ(state["view"]["players"][0]["conceded"], true) << state["view"]["players"].dump();
  EXPECT_EQ(summary["seats"][0]["former"], true);
  EXPECT_TRUE(summary["seats"][0]["name"].is_null());
  EXPECT_EQ(summary["seats"][1]["name"], "Bob");

  // Her old token opens nothing; her profile is gone; the ladder no longer lists her and Bob's
  // rating is as it was.
  EXPECT_EQ(get("/api/account", alice.token).status, 401);
  EXPECT_EQ(get("/api/my-games", alice.token).status, 401);
  const HttpReply profile = get("/api/players/" + me);
  EXPECT_EQ(profile.status, 404);
  EXPECT_EQ(profile.json()["error"]["code"], "player_deleted");
  const json ladder = get("/api/ladder?players=2").json();
  ASSERT_EQ(ladder["entries"].size(), 1u);
  EXPECT_EQ(ladder["entries"][0]["player_id"], bob.player_id);
  EXPECT_EQ(get("/api/players/" + bob.player_id).json()["ratings"], bob_ratings_before);

  // The finished game: its summary names a former player, its replay loads, its record still
  // verifies (names are in no hash: docs/fair-play.md) and differs only in her name.
  const json finished_summary = get(game_path).json();
  EXPECT_EQ(finished_summary["seats"][0]["former"], true);
  EXPECT_EQ(finished_summary["creator"]["former"], true);
  EXPECT_EQ(get(game_path + "/replay", bob.token).status, 200);
  const HttpReply record_after = get(game_path + "/record", bob.token);
  ASSERT_EQ(record_after.status, 200);
  const protocol::GameRecord after = protocol::parse_record(record_after.body);
  const protocol::VerifyReport report = protocol::verify_record(after);
  EXPECT_TRUE(report.verified) << report.failure;
  EXPECT_EQ(after.seats.at(0).name, "");
  EXPECT_EQ(record_after.body.find("Alice"), std::string::npos);
  protocol::GameRecord renamed = protocol::parse_record(record_before.body);
  renamed.seats.at(0).name = "";
  EXPECT_EQ(renamed, after);

  // Her chat line: kept in its place, without name or text.
  b.send(json{{"type", "game.watch"}, {"game_id", finished}});
  const json finished_state = b.wait_for(
      [&](const json& m) { return m["type"] == "game.state" && m["game_id"] == finished; });
  ASSERT_EQ(finished_state["chat"].size(), 1u);
  EXPECT_EQ(finished_state["chat"][0]["former"], true);
  EXPECT_EQ(finished_state["chat"][0]["deleted"], true);
  EXPECT_EQ(finished_state["chat"][0]["text"], "");
  EXPECT_EQ(finished_state.dump().find("my line"), std::string::npos);
  EXPECT_EQ(finished_state.dump().find("Alice"), std::string::npos);
}

}  // namespace
}  // namespace viktory::server::testing
