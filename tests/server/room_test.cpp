// The lobby and game rooms without sockets: subscribers are recorders.
#include <gtest/gtest.h>

#include <random>

#include "game.h"
#include "game_room.h"
#include "json.h"
#include "lobby.h"
#include "replay.h"
#include "reveal_round.h"
#include "test_support.h"
#include "view.h"

namespace viktory::server {
namespace {

using nlohmann::json;
using testing::Recorder;
using testing::TempDir;

// A random legal action of `seat`, never concede (games should go on).
std::optional<Action> random_action(const GameState& s, int seat, std::mt19937& rng) {
  std::vector<Action> moves;
  for (const Action& a : legal_actions(s, seat)) {
    if (a.kind != ActionKind::kConcede) moves.push_back(a);
  }
  if (moves.empty()) return std::nullopt;
  return moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)];
}

struct ApplyProbe {
  bool sealed = false;
  GameState after;
};
ApplyProbe probe(const GameState& s, const Action& a) {
  ApplyResult r = apply(s, a);
  EXPECT_TRUE(r.ok());
  return ApplyProbe{seals_turn(r.events), r.state};
}

class RoomTest : public ::testing::Test {
 protected:
  void SetUp() override { open_store(); }

  void open_store(RoomLimits limits = {}) {
    lobby.reset();
    store.reset();
    store = std::make_unique<Store>(dir.file("room.db"));
    lobby = std::make_unique<Lobby>(*store, metrics, limits);
    if (alice.id == 0) {
      alice = store->create_player("Alice", "ha", 1);
      bob = store->create_player("Bob", "hb", 1);
      carol = store->create_player("Carol", "hc", 1);
    }
  }

  GameRoom* create(int seats, bool is_private = false) {
    CreateRequest req;
    req.options.players = seats;
    req.is_private = is_private;
    auto created = lobby->create(alice, req, &last_invite);
    EXPECT_TRUE(std::holds_alternative<GameRoom*>(created));
    return std::get<GameRoom*>(created);
  }

  // Alice (seat 0) and Bob (seat 1), each watching: the game is running.
  GameRoom* two_player_game() {
    GameRoom* room = create(2);
    room->watch(&alice_rec, alice.id);
    EXPECT_FALSE(room->join(bob, std::nullopt, ""));
    room->watch(&bob_rec, bob.id);
    testing::complete_reveal_round(*room);
    EXPECT_EQ(room->status(), GameStatus::kRunning);
    return room;
  }

  std::int64_t player_in_seat(GameRoom* room, int seat) {
    for (const SeatRecord& s : room->record().seats) {
      if (s.seat == seat) return s.player_id;
    }
    return 0;
  }

  // Plays random legal actions for whoever decides until `want` accepts the decider's next
  // candidate action; returns that action (not applied), or nothing after `limit` actions.
  template <class Want>
  std::optional<Action> play_until(GameRoom* room, Want want, int limit = 400) {
    std::mt19937 rng(12345);
    for (int i = 0; i < limit && room->status() == GameStatus::kRunning; ++i) {
      const GameState& s = *room->state();
      const int seat = decider(s);
      for (const Action& a : legal_actions(s, seat)) {
        if (a.kind != ActionKind::kConcede && want(s, a)) return a;
      }
      auto a = random_action(s, seat, rng);
      if (!a) return std::nullopt;
      EXPECT_FALSE(room->act(player_in_seat(room, seat), room->seq(), *a));
    }
    return std::nullopt;
  }

  TempDir dir;
  Metrics metrics;
  std::unique_ptr<Store> store;
  std::unique_ptr<Lobby> lobby;
  PlayerRecord alice, bob, carol;
  Recorder alice_rec, bob_rec, carol_rec, lobby_rec;
  std::string last_invite;  // of the last private game created
};

TEST_F(RoomTest, GameStartsWhenTheLastSeatIsFilled) {
  GameRoom* room = create(2);
  lobby->changed();
  ASSERT_EQ(lobby->open_games()["games"].size(), 1u);
  room->watch(&alice_rec, alice.id);
  EXPECT_EQ(alice_rec.last("game.seats")["status"], "open");
  EXPECT_TRUE(alice_rec.last("game.state").is_null());

  ASSERT_FALSE(room->join(bob, std::nullopt, ""));
  // The seats are final: the game waits for every seat's contribution (fair play), then starts.
  EXPECT_EQ(room->status(), GameStatus::kOpen);
  EXPECT_TRUE(room->reveal_deadline());
  testing::complete_reveal_round(*room);
  {
    // As the Hub does after a join: the list is kept from what the rooms note.
    std::lock_guard lock(room->mutex());
    lobby->note(lobby->shared_room(room->id()));
  }
  lobby->changed();
  room->watch(&bob_rec, bob.id);
  EXPECT_EQ(room->status(), GameStatus::kRunning);
  EXPECT_EQ(lobby->open_games()["games"].size(), 0u);  // no longer open
  const json a = alice_rec.last("game.state");
  const json b = bob_rec.last("game.state");
  ASSERT_FALSE(a.is_null());
  ASSERT_FALSE(b.is_null());
  EXPECT_EQ(a["you"]["seat"], 0);
  EXPECT_EQ(b["you"]["seat"], 1);
  EXPECT_EQ(a["view"]["viewer"], 0);
  EXPECT_EQ(b["view"]["viewer"], 1);
  EXPECT_EQ(a["seq"], 0);
  EXPECT_EQ(store->game(room->id())->status, GameStatus::kRunning);
  EXPECT_EQ(alice_rec.last("game.seats")["seats"][1]["name"], "Bob");
  EXPECT_EQ(alice_rec.last("game.seats")["seats"][1]["color"], "yellow");
}

TEST_F(RoomTest, CommittedActionReachesEveryViewerWithHisOwnView) {
  GameRoom* room = two_player_game();
  room->watch(&carol_rec, carol.id);  // a spectator
  const int seat = decider(*room->state());
  const Action a = legal_actions(*room->state(), seat).front();
  alice_rec.clear();
  bob_rec.clear();
  carol_rec.clear();
  ASSERT_FALSE(room->act(player_in_seat(room, seat), 0, a));
  EXPECT_EQ(room->seq(), 1);
  EXPECT_EQ(store->actions(room->id()).size(), 1u);  // committed
  for (Recorder* r : {&alice_rec, &bob_rec, &carol_rec}) {
    const json u = r->last("game.update");
    ASSERT_FALSE(u.is_null());
    EXPECT_EQ(u["seq"], 1);
    EXPECT_TRUE(u["events"].is_array());
    EXPECT_FALSE(u["log"].empty());
  }
  // Each update carries the change of its viewer's own view, not the whole view.
  for (Recorder* r : {&alice_rec, &bob_rec, &carol_rec}) {
    EXPECT_FALSE(r->last("game.update").contains("view"));
    EXPECT_TRUE(r->last("game.update")["delta"].is_object());
  }
  EXPECT_EQ(alice_rec.views.view(room->id())["viewer"], 0);
  EXPECT_EQ(bob_rec.views.view(room->id())["viewer"], 1);
  EXPECT_EQ(carol_rec.views.view(room->id())["viewer"], kSpectator);
  EXPECT_TRUE(carol_rec.last("game.update")["legal"].empty());
  // Each view, with the delta applied, is exactly the engine's view for that viewer.
  EXPECT_EQ(alice_rec.views.view(room->id()), protocol::view_to_json(view_for(*room->state(), 0)));
  EXPECT_EQ(bob_rec.views.view(room->id()), protocol::view_to_json(view_for(*room->state(), 1)));
  EXPECT_EQ(carol_rec.views.view(room->id()),
            protocol::view_to_json(view_for(*room->state(), kSpectator)));
}

TEST_F(RoomTest, BadActionsChangeNothing) {
  GameRoom* room = two_player_game();
  const GameState before = *room->state();
  const int seat = decider(before);
  const int other = 1 - seat;
  const Action good = legal_actions(before, seat).front();

  auto stale = room->act(player_in_seat(room, seat), 3, good);
  ASSERT_TRUE(stale);
  EXPECT_EQ(stale->code, "stale");
  EXPECT_EQ(stale->extra["seq"], 0);

  auto out_of_turn = room->act(player_in_seat(room, other), 0, good);
  ASSERT_TRUE(out_of_turn);
  EXPECT_EQ(out_of_turn->code, "not_your_turn");

  auto foreign = room->act(carol.id, 0, good);
  ASSERT_TRUE(foreign);
  EXPECT_EQ(foreign->code, "not_seated");

  Action nonsense = act::move(seat, 999, 0);
  auto illegal = room->act(player_in_seat(room, seat), 0, nonsense);
  ASSERT_TRUE(illegal);
  EXPECT_EQ(illegal->code, "illegal_action");
  EXPECT_TRUE(illegal->extra.contains("reason"));

  EXPECT_EQ(*room->state(), before);
  EXPECT_EQ(room->seq(), 0);
  EXPECT_TRUE(store->actions(room->id()).empty());
  EXPECT_TRUE(alice_rec.last("game.update").is_null());
}

TEST_F(RoomTest, ThePlayerFieldComesFromTheSeat) {
  GameRoom* room = two_player_game();
  const int seat = decider(*room->state());
  Action a = legal_actions(*room->state(), seat).front();
  a.player = 1 - seat;  // a client pretending to be the other player is ignored
  ASSERT_FALSE(room->act(player_in_seat(room, seat), 0, a));
  EXPECT_EQ(store->actions(room->id())[0].action.player, seat);
}

TEST_F(RoomTest, UndoRestoresThePositionBeforeAnUnsealedAction) {
  GameRoom* room = two_player_game();
  auto found = play_until(room, [](const GameState& s, const Action& a) {
    const ApplyProbe p = probe(s, a);
    return !p.sealed && p.after.turn == s.turn && p.after.current == a.player &&
           decider(p.after) == a.player;
  });
  ASSERT_TRUE(found) << "no unsealed action found to undo";
  const GameState before = *room->state();
  const int seq = room->seq();
  const std::int64_t me = player_in_seat(room, found->player);
  ASSERT_FALSE(room->act(me, seq, *found));
  EXPECT_TRUE(room->can_undo(found->player));
  EXPECT_FALSE(room->can_undo(1 - found->player));
  auto not_mine = room->undo(player_in_seat(room, 1 - found->player), seq + 1);
  ASSERT_TRUE(not_mine);
  EXPECT_EQ(not_mine->code, "cannot_undo");

  alice_rec.clear();
  bob_rec.clear();
  ASSERT_FALSE(room->undo(me, seq + 1));
  EXPECT_EQ(room->seq(), seq);
  EXPECT_EQ(*room->state(), before);
  EXPECT_EQ(static_cast<int>(store->actions(room->id()).size()), seq);
  // Everyone gets a fresh full state.
  EXPECT_EQ(alice_rec.last("game.state")["seq"], seq);
  EXPECT_EQ(bob_rec.last("game.state")["seq"], seq);
}

TEST_F(RoomTest, ASealedActionCannotBeUndone) {
  GameRoom* room = two_player_game();
  auto found =
      play_until(room, [](const GameState& s, const Action& a) { return probe(s, a).sealed; });
  ASSERT_TRUE(found) << "no sealing action found";
  const std::int64_t me = player_in_seat(room, found->player);
  ASSERT_FALSE(room->act(me, room->seq(), *found));
  EXPECT_FALSE(room->can_undo(found->player));
  auto refused = room->undo(me, room->seq());
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->code, "cannot_undo");
}

TEST_F(RoomTest, AReloadedGameHasTheSameStateAndLog) {
  RoomLimits limits;
  limits.snapshot_every = 7;
  limits.log_keep = 10;
  open_store(limits);
  GameRoom* room = two_player_game();
  std::mt19937 rng(7);
  for (int i = 0; i < 60 && room->status() == GameStatus::kRunning; ++i) {
    const int seat = decider(*room->state());
    auto a = random_action(*room->state(), seat, rng);
    if (!a) break;
    ASSERT_FALSE(room->act(player_in_seat(room, seat), room->seq(), *a));
  }
  ASSERT_GT(room->seq(), 7);
  const GameState state = *room->state();
  const std::int64_t id = room->id();
  Recorder before;
  room->watch(&before, alice.id);

  open_store(limits);  // a fresh lobby: the room is rebuilt from snapshot + log
  GameRoom* again = lobby->room(id);
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(*again->state(), state);
  EXPECT_EQ(again->seq(), static_cast<int>(store->actions(id).size()));
  Recorder after;
  again->watch(&after, alice.id);
  EXPECT_EQ(after.last("game.state")["view"], before.last("game.state")["view"]);
  EXPECT_EQ(after.last("game.state")["log"], before.last("game.state")["log"]);
}

TEST_F(RoomTest, ConcedeEndsTheGameAndItBecomesReadOnly) {
  GameRoom* room = two_player_game();
  ASSERT_FALSE(room->act(bob.id, /*any seq*/ 42, act::concede(0)));
  EXPECT_EQ(room->status(), GameStatus::kFinished);
  const auto stored = store->game(room->id());
  EXPECT_EQ(stored->status, GameStatus::kFinished);
  ASSERT_TRUE(stored->result);
  EXPECT_EQ((*stored->result)["winners"], json::array({0}));
  auto after = room->act(alice.id, room->seq(), act::end_phase(0));
  ASSERT_TRUE(after);
  EXPECT_EQ(after->code, "game_over");
  EXPECT_EQ(room->undo(alice.id, room->seq())->code, "game_over");

  const json replay = json::parse(Replays::build_page(*store, *stored, 1, 0, stored->seq));
  EXPECT_EQ(replay["view"]["viewer"], 1);
  ASSERT_EQ(replay["steps"].size(), 1u);
  EXPECT_EQ(replay["steps"][0]["seq"], 1);
  EXPECT_EQ(replay["steps"][0]["action"]["kind"], "concede");
  const json spectator =
      json::parse(Replays::build_page(*store, *stored, kSpectator, 0, stored->seq));
  EXPECT_TRUE(spectator["viewer"].is_null());
}

// [5.1] A game stored while the engine did not yet end it on a concession that left one
// player: its log replays to the end, but its row still says running. Loading settles it.
TEST_F(RoomTest, R5_1_AGameWhoseLogEndsItIsFinishedOnLoadEvenIfItsRowSaysRunning) {
  GameRoom* room = two_player_game();
  ASSERT_FALSE(room->act(bob.id, room->seq(), act::concede(0)));
  ASSERT_EQ(room->status(), GameStatus::kFinished);
  const std::int64_t id = room->id();
  store->db()
      .prepare("UPDATE games SET status = 'running', result = NULL WHERE id = ?")
      .bind(1, id)
      .run();
  ASSERT_EQ(store->game(id)->status, GameStatus::kRunning);

  open_store();  // a fresh lobby loads the game from its row and log
  GameRoom* again = lobby->room(id);
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(again->status(), GameStatus::kFinished);
  const auto stored = store->game(id);
  EXPECT_EQ(stored->status, GameStatus::kFinished);
  ASSERT_TRUE(stored->result);
  EXPECT_EQ((*stored->result)["winners"], json::array({0}));
  EXPECT_EQ(again->act(alice.id, again->seq(), act::end_phase(0))->code, "game_over");
}

TEST_F(RoomTest, ChatIsCheckedStoredAndDelivered) {
  GameRoom* room = two_player_game();
  EXPECT_EQ(room->chat(alice, "   ")->code, "chat_empty");
  EXPECT_EQ(room->chat(alice, std::string(501, 'x'))->code, "chat_too_long");
  std::string accents;
  for (int i = 0; i < 500; ++i) accents += "\xC3\xA9";  // 500 code points, 1000 bytes
  EXPECT_FALSE(room->chat(alice, accents));
  EXPECT_FALSE(room->chat(bob, "gg <b>bold</b>\x01"));
  const json last = alice_rec.last("chat");
  EXPECT_EQ(last["text"], "gg <b>bold</b>");  // stored as text; control characters dropped
  EXPECT_EQ(last["from_seat"], 1);
  EXPECT_EQ(last["name"], "Bob");
  EXPECT_EQ(store->recent_chat(room->id(), 10).size(), 2u);
  Recorder late;
  room->watch(&late, carol.id);
  EXPECT_EQ(late.last("game.state")["chat"].size(), 2u);
}

TEST_F(RoomTest, CreatorMayStartEarlyAndSeatsShrink) {
  GameRoom* room = create(4);
  ASSERT_FALSE(room->join(carol, 3, ""));
  EXPECT_EQ(room->start(carol.id)->code, "not_creator");
  ASSERT_FALSE(room->start(alice.id));
  testing::complete_reveal_round(*room);
  EXPECT_EQ(room->status(), GameStatus::kRunning);
  EXPECT_EQ(room->record().options.players, 2);
  EXPECT_EQ(room->seat_of(carol.id), 1);
  EXPECT_EQ(room->state()->players.size(), 2u);
  EXPECT_EQ(store->game(room->id())->options.players, 2);
  EXPECT_EQ(room->join(bob, std::nullopt, "")->code, "not_open");
}

TEST_F(RoomTest, StartNeedsTwoPlayers) {
  GameRoom* room = create(3);
  EXPECT_EQ(room->start(alice.id)->code, "too_few_players");
  EXPECT_EQ(room->status(), GameStatus::kOpen);
}

TEST_F(RoomTest, JoinAndLeaveRules) {
  GameRoom* room = create(3);
  EXPECT_EQ(room->join(alice, std::nullopt, "")->code, "already_seated");
  EXPECT_EQ(room->join(bob, 0, "")->code, "seat_taken");
  EXPECT_EQ(room->join(bob, 7, "")->code, "bad_seat");
  ASSERT_FALSE(room->join(bob, 2, ""));
  EXPECT_EQ(room->leave(carol.id)->code, "not_seated");
  ASSERT_FALSE(room->leave(bob.id));
  EXPECT_FALSE(room->seat_of(bob.id));
  EXPECT_EQ(store->game(room->id())->seats.size(), 1u);
  ASSERT_FALSE(room->leave(alice.id));  // the creator leaving cancels the game
  EXPECT_EQ(room->status(), GameStatus::kCancelled);
  EXPECT_EQ(store->game(room->id())->status, GameStatus::kCancelled);
}

TEST_F(RoomTest, PrivateGamesNeedTheInvite) {
  GameRoom* room = create(2, /*is_private=*/true);
  lobby->changed();
  EXPECT_TRUE(lobby->open_games()["games"].empty());
  const std::string invite = last_invite;
  EXPECT_EQ(invite.size(), 32u);
  // Without the invite the game does not exist: the same answer as for a missing game.
  EXPECT_EQ(room->join(bob, std::nullopt, "")->code, "not_found");
  EXPECT_EQ(room->join(bob, std::nullopt, std::string(32, '0'))->code, "not_found");
  EXPECT_FALSE(room->may_view(carol.id, ""));
  EXPECT_TRUE(room->may_view(alice.id, ""));
  ASSERT_FALSE(room->join(bob, std::nullopt, invite));
  testing::complete_reveal_round(*room);
  EXPECT_EQ(room->status(), GameStatus::kRunning);
}

TEST_F(RoomTest, OptionsOutOfRangeAreRefused) {
  CreateRequest req;
  req.options.players = 9;
  auto created = lobby->create(alice, req);
  ASSERT_TRUE(std::holds_alternative<Failure>(created));
  EXPECT_EQ(std::get<Failure>(created).code, "bad_options");
  req.options.players = 1;
  EXPECT_TRUE(std::holds_alternative<Failure>(lobby->create(alice, req)));
  // [3.2] 8 players on a board too small for them (the options were read before the seat
  // count was known, so the lobby checks them again with it).
  req.options.players = 8;
  req.options.board_hexes = 127;
  created = lobby->create(alice, req);
  ASSERT_TRUE(std::holds_alternative<Failure>(created));
  EXPECT_EQ(std::get<Failure>(created).code, "bad_options");
  EXPECT_NE(std::get<Failure>(created).message.find("169 or 217"), std::string::npos);
  req.options.board_hexes = 169;
  EXPECT_FALSE(std::holds_alternative<Failure>(lobby->create(alice, req)));
}

}  // namespace
}  // namespace viktory::server
