// One game's live state: seats while it is open, then the engine state, its seq (actions
// applied), the players and spectators watching it, and the rules for acting, undoing and
// chatting. Every change is committed to the Store before anyone is told about it.
//
// Not thread-safe by itself: whoever calls it holds its mutex() (the Hub does; one game's
// requests run one at a time, different games' at the same time). No sockets here:
// subscribers are an interface, so the room is tested with recorders.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "board_once.h"
#include "common.h"
#include "contributions.h"
#include "game.h"
#include "metrics.h"
#include "store.h"
#include "turn_hook.h"
#include "view.h"

namespace viktory::server {

class ChatMutes;

struct RoomLimits {
  int snapshot_every = 50;     // store a whole state every N actions
  int log_keep = 200;          // actions whose log lines a full view carries
  int chat_keep = 50;          // chat lines a full view carries
  int chat_max_chars = 500;    // per message, in Unicode code points
  TurnHook on_turn;            // after a commit that changes who must act (turn_notifications.h)
  ChatMutes* mutes = nullptr;  // whose chat each watcher muted (chat_comforts.h); null: none
  ContributionOptions contributions;  // fair play's reveal round (contributions.h)
};

class GameRoom;

enum class CommitPath { kWriter, kDirect };

// Told after every change of a running game's state (seat_controllers.h, game_clocks.h): the
// start, each committed action, an undo, a seat taken over, a load. Called under the room's
// mutex (maybe without the Hub's); must be cheap and must not call the Lobby or the Hub.
class RoomObserver {
 public:
  virtual ~RoomObserver() = default;
  virtual void on_room_changed(GameRoom& room) = 0;
  // A connection of `player_id` began or stopped watching the game (standing_orders.h: is
  // the decider there?). Under the room's mutex, like on_room_changed.
  virtual void on_watchers_changed(GameRoom& /*room*/, std::int64_t /*player_id*/) {}
};

class GameRoom {
 public:
  // A freshly created open game (already in the store).
  GameRoom(Store& store, Metrics& metrics, GameRecord record, RoomLimits limits);
  // Loads a game: the state from the latest snapshot and the action log after it. Returns
  // nullptr when there is no such game; throws DamagedGame when its stored data does not add
  // up (unreadable rows, a gap in the action log, an action the engine refuses).
  static std::unique_ptr<GameRoom> load(Store& store, Metrics& metrics, std::int64_t game_id,
                                        RoomLimits limits);
  ~GameRoom();

  std::int64_t id() const { return record_.id; }
  const GameRecord& record() const { return record_; }
  GameStatus status() const { return record_.status; }
  int seq() const { return record_.seq; }
  const GameState* state() const { return state_ ? &*state_ : nullptr; }
  const std::vector<ActionRecord>& actions() const { return log_; }
  void set_observer(RoomObserver* observer) { observer_ = observer; }
  std::optional<int> seat_of(std::int64_t player_id) const;
  // Private games are visible to seated players and to holders of the invite code (compared
  // by hash, in constant time). To anyone else they do not exist.
  bool may_view(std::int64_t player_id, const std::string& invite) const;
  static bool may_view(const GameRecord& record, std::int64_t player_id, const std::string& invite);
  // Whether a player who may view the game may also watch it now (spectators of a running
  // game need the creator's consent).
  Outcome may_watch(std::int64_t player_id) const;

  // --- open games ---
  // `commitment`: the player's contribution commitment (hex, checked; empty: an old client,
  // asked for one when the seats are final). Filling the last seat starts the reveal round.
  Outcome join(const PlayerRecord& player, std::optional<int> seat, const std::string& invite,
               const std::string& commitment = "");
  // Leaving during the reveal round ends the round (the others commit afresh).
  Outcome leave(std::int64_t player_id);
  // The creator starts early with >= 2 seated: the seats are final, the reveal round begins.
  Outcome start(std::int64_t player_id);
  // Starts the game (or its reveal round) when every seat is taken (a game created with
  // computer seats only).
  void start_if_full();

  // --- fair play's reveal round (game_room_reveal.cpp; docs/fair-play.md, "The scheme") ---
  // game.commit: a seated player's contribution commitment (hex, checked), for a seat that has
  // none (an old client's, or after a round that failed). Completes the commitments of a round.
  Outcome commit(std::int64_t player_id, const std::string& commitment);
  // game.contribute: the seat's contribution, checked against its commitment, once per round;
  // the last one starts the game with the seed from the secret and every contribution.
  Outcome contribute(std::int64_t player_id, const nlohmann::json& contribution);
  // Sends `player_id`'s connection (one that signed in, watching the game or not) what his
  // seat owes the round now, if anything.
  void ask_round_of(Subscriber* connection, std::int64_t player_id);
  // At the round's deadline: the seats that did not reveal are removed, the others' commitments
  // cleared (their contributions are known now) and the game is open again. Returns whether
  // it did so.
  bool expire_round(std::int64_t now);
  // The round's deadline (ms since the epoch); none while no round runs.
  std::optional<std::int64_t> reveal_deadline() const { return record_.reveal_deadline; }
  // A guided game (tutorial.h) starts from this position instead of new_game; call before
  // the start. Stored as the snapshot of seq 0.
  void set_start_position(GameState position) { start_position_ = std::move(position); }
  // Ends a running game without a result (a guided game replaced by a new one): cancelled,
  // as an open game its creator left; its computer's decision is dropped.
  void cancel_running();
  // A computer of `level` plays this seat from now on (an expelled player's; the caller
  // stores it); an empty level gives it back to its human.
  void take_over_seat(int seat, const std::string& level);
  // A new invite code for a private game (the creator only); the old one stops working.
  Outcome new_invite(std::int64_t player_id, std::string& code);

  // --- subscriptions (player_id 0: anonymous) ---
  void watch(Subscriber* subscriber, std::int64_t player_id);
  void unwatch(Subscriber* subscriber);
  // Whether a connection of this player watches the game (as his seat, if he has one).
  bool watched_by(std::int64_t player_id) const;
  // A room whose commit is in flight counts as watched: it is not evicted meanwhile.
  bool has_subscribers() const { return !subscribers_.empty() || commit_in_flight_; }
  // Whether anyone (a player or a spectator) watches the game now.
  bool watched() const { return !subscribers_.empty(); }
  // Every subscriber and his player id; the room forgets them and retires (before it is
  // reloaded or evicted). Waits for a commit in flight first (wait_idle).
  std::map<Subscriber*, std::int64_t> take_subscribers();
  // A retired room is no longer the game's room (the Lobby dropped it): a request that found
  // it before must look the game up again. act() on it fails with code "retired". Waits for
  // a commit in flight first: what the database holds is then what this room showed.
  void retire() {
    wait_idle();
    retired_ = true;
  }
  // Whether an action of act_async() waits for its group commit (docs/server.md, "Threads
  // and ordering"): reads are served from the committed state meanwhile; changes wait.
  bool commit_in_flight() const { return commit_in_flight_; }
  // Until no commit is in flight. The caller holds mutex(), which is released while waiting
  // (the completion runs on the writer thread and needs only this lock), and must hold no
  // lock a completion takes (the clocks', the database's): GameClocks waits before taking
  // its own. Every change of a running game (act, undo, take_over_seat) waits here.
  void wait_idle();
  bool retired() const { return retired_; }
  std::mutex& mutex() { return mutex_; }
  void broadcast(const Message& message);

  // --- running games ---
  // action.player is ignored: the seat of player_id acts. Waits for the commit: through the
  // writer thread's group commit, or (kDirect) in a transaction of its own, for callers that
  // hold a lock the writer's completions take (the clocks').
  // `source`: who decided for the seat when it was not its player (the log says so).
  Outcome act(std::int64_t player_id, int client_seq, Action action,
              CommitPath path = CommitPath::kWriter, ActionSource source = ActionSource::kPlayer);
  // The same without waiting for the commit (group commit started): returns a refusal at
  // once, or nullopt when the action went to the writer. Then `done` is called once, on the
  // writer thread after the group's COMMIT, without the room's lock: the new state is
  // installed and fanned out first (error: nothing changed; the caller reports the failure).
  using ActDone = std::function<void(const std::optional<DbError>& error)>;
  Outcome act_async(std::int64_t player_id, int client_seq, Action action, ActDone done);
  Outcome undo(std::int64_t player_id, int client_seq);
  bool can_undo(int seat) const;
  Outcome chat(const PlayerRecord& player, const std::string& text);
  // Leaving (account_deletion.h): the player deleted his account; his seat's name and his chat
  // lines (blanked in the store already) are shown as a former player's from now on.
  void forget_player(std::int64_t player_id);
  // An operator hid a chat line (chat_comforts.h, already in the store): the recent chat is
  // read again and every watcher is told to remove it (chat.hidden).
  void chat_line_hidden(std::int64_t line_id);

  // What the turn notifications are told (turn_hook.h), now (defined in turn_hook.cpp).
  TurnChange turn_change(TurnChange::Kind kind) const;

  // Sends the full state (game.state) to one subscriber, after the board if he has not been
  // sent it yet (board_once.h).
  void send_state(Subscriber* subscriber, std::int64_t player_id);
  // Sends the game's board (game.board) to a subscriber that asks for it again.
  Outcome send_board(Subscriber* subscriber);

  nlohmann::json summary() const { return summary_of(record_); }
  nlohmann::json seats_message() const;
  // The game summary of docs/protocol.md, from a record alone (e.g. read from the store).
  static nlohmann::json summary_of(const GameRecord& record);
  // How fast a game is played (the lobby's filter): "live" (minutes per move), "daily" (days
  // per move) or "untimed" (no clock).
  static const char* speed_of(const GameRecord& record);
  static nlohmann::json seats_json(const GameRecord& record);
  // An open game's reveal round (fair play): {deadline, waiting, committed, phase}; null when
  // none runs.
  static nlohmann::json reveal_json(const GameRecord& record);
  // The fair-play commitment as published: null for a game created before fair play.
  static nlohmann::json commitment_of(const GameRecord& record);

  // How many times a full view was built (for tests of the per-viewer cache).
  std::int64_t views_built() const { return views_built_; }

 private:
  struct Step {
    int seq = 0;
    std::vector<Event> events;  // unfiltered; filtered per viewer when sent
    ActionSource source = ActionSource::kPlayer;
    // Fog of war: the events each viewer (index viewer + 1, the spectator first) was told,
    // filtered with the state after the step, since sight changes (engine/sight.h).
    std::vector<std::vector<Event>> fogged = {};
  };
  // What one viewer (a seat, or kSpectator) sees at one seq, built once and shared by the
  // broadcast, game.watch and stale replies.
  struct ViewerCache {
    int seq = -1;
    // The view as a struct: live updates send the difference from the previous seq's (the
    // cache of seq - 1 is what every subscriber of this viewer holds, or he heals by a full
    // state), so the whole view is serialised only when a full state is asked for.
    std::shared_ptr<const GameView> view;
    std::string view_json;  // the view's JSON text (view_text.h); built on demand ("" until then)
    std::string legal;      // the legal actions, serialised
    bool can_undo = false;
    std::string log;  // the recent log lines, serialised, built on demand ("" until then)
    Message state;    // game.state, built on demand, for chat version `state_chat`
    std::uint64_t state_chat = 0;
  };
  // The recent chat a full state carries, serialised, per audience (players; spectators).
  struct ChatCache {
    std::uint64_t version = 0;
    bool spectators_hear_players = true;
    std::string text;
    std::vector<ChatRecord> lines;  // what `text` holds (a watcher's mutes filter them)
  };
  const std::string& recent_chat_json(bool spectator);
  // game.state with the given chat part (state_message: the audience's recent chat).
  Message build_state(int viewer, ViewerCache& c, const std::string& chat);
  // The full state for one watcher: state_message(viewer), unless he muted someone whose
  // lines are in the recent chat; then a copy without them (not cached).
  Message state_for(std::int64_t player_id);
  // Whether `player_id` muted the author of a chat line.
  bool muted_by(std::int64_t player_id, std::int64_t author) const;

  // An action validated and applied to a copy of the state, waiting for its commit. It owns
  // what the writer reads (commit.snapshot points into `next`).
  struct PendingAction {
    std::chrono::steady_clock::time_point received;
    int seat = 0;
    GameState next;
    std::vector<Event> events;
    ActionCommit commit;
    bool finished = false;
    // Built before the commit for the subscribers there were (prepare_updates): each
    // viewer's update and his view cache at the new seq.
    std::map<int, Message> updates;
    std::map<int, ViewerCache> caches;
  };
  Outcome prepare_action(std::int64_t player_id, int client_seq, Action action,
                         PendingAction& pending, ActionSource source = ActionSource::kPlayer);
  // Builds, before the commit, the update each current viewer will get (on the io thread).
  void prepare_updates(PendingAction& pending);
  // After the commit: the new state, its fan-out, the observers.
  void install(PendingAction& pending);
  ViewerCache build_cache(const GameState& s, int seq, int viewer, bool can_undo);
  Message update_message_with(int viewer, const GameView* before, ViewerCache& c,
                              const GameState& after, const Step& step);
  static bool undo_allowed(const GameState& s, const ActionRecord& last, int seat);

  void broadcast_seats();
  void broadcast_states();
  void broadcast_update(const Step& step, std::chrono::steady_clock::time_point received,
                        bool skip_spectators, std::map<int, Message>* prepared = nullptr);
  Message update_message(int viewer, const GameState& after, const Step& step);
  Message state_message(int viewer);
  ViewerCache& cached(int viewer);
  const std::string& view_json(ViewerCache& c);
  int viewer_for(std::int64_t player_id) const;
  bool is_spectator(std::int64_t player_id) const;
  // What spectators are shown: the live state, or the delayed one.
  const GameState& spectator_state() const;
  int spectator_seq() const;
  bool spectators_delayed() const;
  // Whether a computer holds a seat or ever decided for one (a takeover): the game is unrated.
  bool computer_played() const;
  // Brings the delayed spectators' state up to `delay` turns behind the live one.
  void advance_delayed();
  void rebuild_delayed();
  bool spectators_hear_players() const;
  void begin_game(std::vector<SeatRecord> seats);  // every human seat has revealed
  // All seats filled or an early start: the reveal round, or the game at once when no human
  // seat is there to contribute (computers only) or it is a guided game.
  void start_when_revealed(std::vector<SeatRecord> seats);
  void begin_round(std::vector<SeatRecord> seats);
  // Sends the round's request (game.commit_request or game.reveal_request) to every connection
  // of each seat that owes one: its watchers here, its others through ask_elsewhere.
  void ask_round();
  // What `seat` owes the round now (game.commit_request or game.reveal_request), or null.
  nlohmann::json round_request(const SeatRecord& seat) const;
  // Ends a round that cannot finish: `seats` stay, their commitments and contributions go.
  void reset_round(std::vector<SeatRecord> seats, const std::string& why);
  bool all_committed() const;
  int waiting_reveals() const;
  void remember(Step step, const GameState& after);
  void set_status(GameStatus status);
  // Hands who must act now to limits_.on_turn (defined in turn_hook.cpp).
  void notify_turn(TurnChange::Kind kind);
  void changed() {
    if (observer_ != nullptr) observer_->on_room_changed(*this);
  }

  std::mutex mutex_;
  std::condition_variable_any idle_;  // commit_in_flight_ became false
  bool commit_in_flight_ = false;
  bool retired_ = false;
  Store& store_;
  Metrics& metrics_;
  RoomLimits limits_;
  GameRecord record_;
  std::optional<GameState> state_;
  std::optional<GameState> start_position_;  // set_start_position
  std::vector<ActionRecord> log_;            // every action, for undo and replays
  std::deque<Step> recent_;                  // the last log_keep actions' events, for log lines
  std::map<Subscriber*, std::int64_t> subscribers_;
  std::map<int, ViewerCache> cache_;
  ChatCache chat_cache_[2];  // [0] players, [1] spectators
  std::uint64_t chat_version_ = 1;
  std::int64_t views_built_ = 0;
  // SpectatorMode::kDelayed: the position spectators see, and its seq.
  std::optional<GameState> delayed_;
  int delayed_seq_ = 0;
  RoomObserver* observer_ = nullptr;
  BoardOnce board_;  // the static board, sent once per subscriber
};

}  // namespace viktory::server
