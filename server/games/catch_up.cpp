#include "catch_up.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <limits>

#include "game.h"
#include "json.h"
#include "log_text.h"
#include "stored_walk.h"
#include "view.h"

namespace viktory::server {
namespace {

using nlohmann::json;

// One read transaction: the game row, the snapshot and the actions all come from the same
// moment of the database, even if an action or an undo is committed meanwhile.
class ReadSnapshot {
 public:
  // SQLite's read transaction sees one moment; PostgreSQL's only at REPEATABLE READ (its
  // default, READ COMMITTED, takes a new snapshot for each statement).
  explicit ReadSnapshot(Database& db) : db_(db), lock_(db.lock()) {
    db_.exec(db_.postgresql() ? "BEGIN ISOLATION LEVEL REPEATABLE READ" : "BEGIN");
  }
  ~ReadSnapshot() {
    try {
      db_.exec("COMMIT");
    } catch (const DbError&) {
      // A read transaction has nothing to lose; the connection is reopened on the next error.
    }
  }
  ReadSnapshot(const ReadSnapshot&) = delete;
  ReadSnapshot& operator=(const ReadSnapshot&) = delete;

 private:
  Database& db_;
  std::unique_lock<std::recursive_mutex> lock_;
};

// A field that is absent (or null) or an integer; `ok` turns false for anything else.
std::optional<std::int64_t> integer(const json& request, const char* name, bool& ok) {
  auto it = request.find(name);
  if (it == request.end() || it->is_null()) return std::nullopt;
  if (!it->is_number_integer()) {
    ok = false;
    return std::nullopt;
  }
  return it->get<std::int64_t>();
}

}  // namespace

CatchUps::CatchUps(std::string db_path, CatchUpLimits limits)
    : db_path_(std::move(db_path)), limits_(limits) {}

int CatchUps::last_action_of(Store& store, std::int64_t game_id, int seat) {
  // Stored actions carry the acting seat as "player" (protocol::action_to_json); an action the
  // computer, a standing order or the clock took for the seat has a source (NULL: the player).
  // The CAST says the member is a number, which PostgreSQL's twin (text) needs (sql_dialect.h).
  Statement s = store.db().prepare(
      "SELECT max(seq) FROM actions WHERE game_id = ? AND "
      "CAST(json_extract(action, '$.player') AS BIGINT) = ? AND source IS NULL");
  s.bind(1, game_id).bind(2, seat);
  if (!s.step() || s.is_null(0)) return 0;
  return static_cast<int>(s.int64(0));
}

json CatchUps::clock_lines_of(Store& store, std::int64_t game_id, int seat, int from, int to) {
  json out = json::array();
  Statement s = store.db().prepare("SELECT log FROM game_clocks WHERE game_id = ?");
  s.bind(1, game_id);
  if (!s.step()) return out;  // a game without a clock
  const json log = json::parse(s.text(0), nullptr, /*allow_exceptions=*/false);
  if (!log.is_array()) return out;  // damaged: the steps are still worth having
  for (const json& line : log) {
    // Lines said while the game could not be opened have no seq; lines of clocks stored
    // before lines named their seat have no seat: neither can be placed, both are left out.
    const auto integer_at = [&line](const char* key) {
      return line.is_object() && line.contains(key) && line[key].is_number_integer();
    };
    if (!integer_at("seq") || !integer_at("seat") || line["seat"] != seat) continue;
    const int seq = line["seq"];
    if (seq < from || seq > to) continue;
    out.push_back(line);
  }
  return out;
}

json CatchUps::build(Store& store, const GameRecord& record, int seat, std::optional<int> since,
                     int max_steps) {
  const int last = record.seq;
  const int asked = std::clamp(since ? *since : last_action_of(store, record.id, seat), 0, last);
  // The latest steps when there are too many: the most recent matter most to a returning
  // player, and the count of the others is told.
  const int from = std::max(asked, last - std::max(0, max_steps));

  StoredWalk walk(store, record, from);
  const GameState& state = walk.state();

  json steps = json::array();
  while (walk.seq() < last) {
    // Who acted, and for his own seat too when it was not he himself (the computer after an
    // expulsion, a standing order, the clock's skip): his own seat's story when he comes back.
    const int player = walk.next_action().player;
    const ActionSource source = walk.next_source();
    std::vector<Event> events;
    walk.step(&events);
    const int seq = walk.seq();
    // Exactly what the live update of this step told this seat (GameRoom::update_message):
    // the events filtered with the state after the step, and the log lines made from them.
    const std::vector<Event> mine = filter_events_for(state, events, seat);
    json events_json = json::array();
    for (const Event& e : mine) events_json.push_back(protocol::event_to_json(e));
    json log = json::array();
    append_log_json(log, seq, state, mine, seat, source);
    json step{{"seq", seq},
              {"player", player},
              {"events", std::move(events_json)},
              {"log", std::move(log)}};
    if (source != ActionSource::kPlayer) step["by"] = to_string(source);
    steps.push_back(std::move(step));
  }
  return json{{"type", "game.since"},
              {"game_id", record.id},
              {"seat", seat},
              {"since", asked},
              {"from", from},
              {"to", last},
              {"skipped", from - asked},
              {"steps", std::move(steps)},
              {"clock", clock_lines_of(store, record.id, seat, from, last)}};
}

std::variant<json, Failure> CatchUps::answer(std::int64_t player_id, const json& request) {
  bool ok = true;
  const std::optional<std::int64_t> game_id = integer(request, "game_id", ok);
  if (!game_id || !ok) return fail("bad_message", "field 'game_id' must be an integer");
  const std::optional<std::int64_t> since = integer(request, "seq", ok);
  if (!ok || (since && (*since < 0 || *since > std::numeric_limits<int>::max()))) {
    return fail("bad_message", "field 'seq' must be an integer >= 0");
  }
  std::lock_guard lock(mutex_);
  try {
    if (!store_) store_.emplace(db_path_, Store::ReadOnly{});
    ReadSnapshot snapshot(store_->db());
    std::optional<GameRecord> record;
    try {
      record = store_->game(*game_id);
    } catch (const DamagedGame& e) {
      spdlog::error("game_damaged game={} reason=\"{}\"", *game_id, e.what());
      return fail("game_damaged", "this game's stored data is damaged; it cannot be opened");
    }
    if (!record || record->status == GameStatus::kCancelled) {
      return fail("not_found", "no such game");
    }
    std::optional<int> seat;
    for (const SeatRecord& s : record->seats) {
      if (s.player_id == player_id) seat = s.seat;
    }
    // A private game is invisible to anyone without a seat in it (like every other request).
    if (!seat && record->is_private) return fail("not_found", "no such game");
    if (!seat) return fail("not_seated", "only a seated player catches up on his game");
    if (record->status == GameStatus::kOpen) return fail("not_running", "the game has not started");
    try {
      return build(*store_, *record, *seat,
                   since ? std::optional<int>(static_cast<int>(*since)) : std::nullopt,
                   limits_.max_steps);
    } catch (const DamagedGame& e) {
      spdlog::error("game_damaged game={} reason=\"{}\"", *game_id, e.what());
      return fail("game_damaged", "this game's stored data is damaged; it cannot be opened");
    }
  } catch (const std::exception& e) {
    // Details go to the log only.
    spdlog::error("catch_up_failed game={} error=\"{}\"", *game_id, e.what());
    store_.reset();  // a fresh connection next time
    return fail("internal", "the server could not build this catch-up");
  }
}

}  // namespace viktory::server
