#include "standing_order_service.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <stdexcept>

#include "decisions.h"
#include "game.h"
#include "view.h"

namespace viktory::server {
namespace {

using nlohmann::json;

constexpr std::int64_t kLiveClockMaxMs = 300 * 1000;  // 2 and 5 minutes per move are live
constexpr int kLiveGraceSeconds = 60;

const ai::OrderField* field_named(std::string_view name) {
  for (const ai::OrderField& f : ai::order_fields()) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::string choices_text(const ai::OrderField& f) {
  std::string out;
  for (std::string_view c : f.choices) {
    if (!out.empty()) out += ", ";
    out += c;
  }
  return out;
}

int default_grace(const ClockOptions& clock) {
  return clock.enabled() && clock.per_move_ms <= kLiveClockMaxMs ? kLiveGraceSeconds : 0;
}

json parse_object(const std::string& text) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  return j.is_object() ? j : json::object();
}

}  // namespace

const std::vector<int>& allowed_decision_grace() {
  static const std::vector<int> allowed = {0, 30, 60, 120};
  return allowed;
}

int decision_grace_from_json(const json& j, const ClockOptions& clock) {
  if (j.is_null()) return default_grace(clock);
  const auto& allowed = allowed_decision_grace();
  if (j.is_number_integer() &&
      std::find(allowed.begin(), allowed.end(), j.get<std::int64_t>()) != allowed.end()) {
    return static_cast<int>(j.get<std::int64_t>());
  }
  throw std::invalid_argument(
      "decision_grace_seconds must be 0 (always wait for a player who is there), 30, 60 or 120");
}

json orders_to_json(const ai::StandingOrders& orders) {
  json out = json::object();
  for (const ai::OrderField& f : ai::order_fields()) {
    out[std::string(f.name)] = std::string(*ai::order_choice(orders, f.name));
  }
  return out;
}

json order_choices_json() {
  json out = json::object();
  for (const ai::OrderField& f : ai::order_fields()) {
    json list = json::array();
    for (std::string_view c : f.choices) list.push_back(std::string(c));
    out[std::string(f.name)] = list;
  }
  return out;
}

std::optional<std::string> orders_json_problem(const json& changes, bool allow_null) {
  if (!changes.is_object()) return "orders must be an object of order -> choice";
  for (const auto& [name, value] : changes.items()) {
    const ai::OrderField* f = field_named(name);
    if (f == nullptr) {
      std::string known;
      for (const ai::OrderField& each : ai::order_fields()) {
        if (!known.empty()) known += ", ";
        known += each.name;
      }
      // The name is not echoed: it is the client's text, of any length.
      return "unknown order; the orders are " + known;
    }
    if (allow_null && value.is_null()) continue;
    const bool known_choice =
        value.is_string() && std::find(f->choices.begin(), f->choices.end(),
                                       value.get<std::string>()) != f->choices.end();
    if (!known_choice) {
      return "orders." + name + " must be one of " + choices_text(*f) +
             (allow_null ? " (or null: as on your account)" : "");
    }
  }
  return std::nullopt;
}

void apply_orders(ai::StandingOrders& orders, const json& object) {
  if (!object.is_object()) return;
  for (const auto& [name, value] : object.items()) {
    if (value.is_string()) ai::set_order(orders, name, value.get<std::string>());
  }
}

ai::StandingOrders account_orders(Database& db, std::int64_t player_id) {
  ai::StandingOrders orders;
  const auto lock = db.lock();
  Statement s = db.cached("SELECT orders FROM standing_orders WHERE player_id = ?");
  s.bind(1, player_id);
  if (s.step()) apply_orders(orders, parse_object(s.text(0)));
  return orders;
}

ApiResponse account_orders_api(Database& db, std::int64_t player_id, std::string_view method,
                               const json& body) {
  auto answer = [&](const ai::StandingOrders& orders) {
    return ApiResponse{
        200, json{{"orders", orders_to_json(orders)}, {"choices", order_choices_json()}}.dump()};
  };
  if (method == "GET") return answer(account_orders(db, player_id));
  if (method != "PUT") return api_error(405, "method", "use GET or PUT");
  const auto changes = body.find("orders");
  if (changes == body.end()) {
    return api_error(400, "bad_orders", "send {\"orders\": {\"casualties\": \"cheapest\", ...}}");
  }
  if (auto problem = orders_json_problem(*changes, /*allow_null=*/false)) {
    return api_error(400, "bad_orders", *problem);
  }
  const auto lock = db.lock();
  Transaction tx(db);
  ai::StandingOrders orders = account_orders(db, player_id);
  apply_orders(orders, *changes);
  db.prepare(
        "INSERT INTO standing_orders(player_id, orders) VALUES(?, ?) "
        "ON CONFLICT(player_id) DO UPDATE SET orders = excluded.orders")
      .bind(1, player_id)
      .bind(2, orders_to_json(orders).dump())
      .run();
  tx.commit();
  spdlog::info("standing_orders_set player={}", player_id);
  return answer(orders);
}

StandingOrderService::StandingOrderService(Store& store, Clock& clock)
    : store_(store), clock_(clock) {}

void StandingOrderService::set_due_changed(std::function<void(std::int64_t)> f) {
  std::lock_guard lock(mutex_);
  due_changed_ = std::move(f);
}

void StandingOrderService::create(GameRoom& room, int grace_seconds) {
  {
    const auto db_lock = store_.db().lock();
    store_.db()
        .prepare("INSERT OR REPLACE INTO game_decision_grace(game_id, grace_seconds) VALUES(?, ?)")
        .bind(1, room.id())
        .bind(2, grace_seconds)
        .run();
  }
  std::lock_guard lock(mutex_);
  grace_[room.id()] = grace_seconds;
}

int StandingOrderService::grace_seconds(const GameRoom& room) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = grace_.find(room.id()); it != grace_.end()) return it->second;
  }
  int grace = 0;
  {
    const auto db_lock = store_.db().lock();
    Statement s =
        store_.db().cached("SELECT grace_seconds FROM game_decision_grace WHERE game_id = ?");
    s.bind(1, room.id());
    if (s.step()) {
      grace = static_cast<int>(s.int64(0));
    } else {
      // A game created before grace periods: the default for its clock.
      Statement c = store_.db().cached("SELECT options FROM game_clocks WHERE game_id = ?");
      c.bind(1, room.id());
      ClockOptions clock;
      if (c.step()) {
        try {
          clock = clock_options_from_json(json::parse(c.text(0)));
        } catch (const std::exception&) {
          // An unreadable clock: no grace (the clock's own code reports it).
        }
      }
      grace = default_grace(clock);
    }
  }
  std::lock_guard lock(mutex_);
  grace_[room.id()] = grace;
  return grace;
}

void StandingOrderService::on_room_changed(GameRoom& room) { plan(room); }

void StandingOrderService::on_watchers_changed(GameRoom& room, std::int64_t) { plan(room); }

void StandingOrderService::connection_closed(std::int64_t player_id) {
  const std::int64_t now = clock_.now_ms();
  std::lock_guard lock(mutex_);
  // Entries past the debounce tell nothing more: forget them now and then.
  if (closed_at_.size() > 1024) {
    std::erase_if(closed_at_, [&](const auto& e) { return now - e.second > kReloadDebounceMs; });
  }
  closed_at_[player_id] = now;
}

void StandingOrderService::plan(GameRoom& room) {
  const std::int64_t game_id = room.id();
  const int seat = SeatControllers::seat_to_act(room);
  // A human's decision out of turn [10.1, 10.2, 15.4, 15.62] that standing orders settle.
  bool applies = seat >= 0 && !SeatControllers::computer_level(room, seat) &&
                 out_of_turn(*room.state()) &&
                 ai::covered_by_standing_orders(decision_kind(*room.state()));
  std::int64_t player_id = 0;
  for (const SeatRecord& s : room.record().seats) {
    if (s.seat == seat) player_id = s.player_id;
  }
  applies = applies && player_id != 0;
  const int grace = applies ? grace_seconds(room) : 0;  // the store, outside our mutex
  const bool connected = applies && room.watched_by(player_id);
  const std::int64_t now = clock_.now_ms();

  std::function<void(std::int64_t)> tell;
  std::int64_t told = 0;
  {
    std::lock_guard lock(mutex_);
    auto it = jobs_.find(game_id);
    if (!applies) {
      if (it != jobs_.end()) {
        it->second.cancel->store(true);
        jobs_.erase(it);
      }
      if (seat < 0) grace_.erase(game_id);  // over, or not running: nothing more to decide
      return;
    }
    const bool same_decision = it != jobs_.end() && it->second.seq == room.seq() &&
                               it->second.seat == seat && !it->second.taken;
    Job job;
    job.seq = room.seq();
    job.seat = seat;
    job.player_id = player_id;
    job.since = same_decision ? it->second.since : now;
    if (!connected) {
      job.due = now;
      if (auto closed = closed_at_.find(player_id);
          closed != closed_at_.end() && now - closed->second < kReloadDebounceMs) {
        job.due = closed->second + kReloadDebounceMs;  // a reload, perhaps: he may be back
      }
    } else if (grace > 0) {
      job.due = job.since + grace * 1000LL;
    }
    if (same_decision && it->second.due == job.due) return;  // nothing new
    if (it != jobs_.end()) it->second.cancel->store(true);
    job.cancel = std::make_shared<std::atomic<bool>>(false);
    jobs_[game_id] = job;
    if (job.due > 0) {
      tell = due_changed_;
      told = job.due;
    }
  }
  if (tell) tell(told);
}

std::vector<StandingOrderService::Due> StandingOrderService::take_due() {
  const std::int64_t now = clock_.now_ms();
  std::vector<Due> out;
  std::lock_guard lock(mutex_);
  for (auto& [game_id, job] : jobs_) {
    if (job.taken || job.due == 0 || job.due > now) continue;
    job.taken = true;
    out.push_back(Due{game_id, job.seq, job.seat, job.player_id, job.cancel});
  }
  return out;
}

std::int64_t StandingOrderService::next_due() {
  std::lock_guard lock(mutex_);
  std::int64_t next = 0;
  for (const auto& [game_id, job] : jobs_) {
    if (job.taken || job.due == 0) continue;
    if (next == 0 || job.due < next) next = job.due;
  }
  return next;
}

std::size_t StandingOrderService::scheduled() {
  std::lock_guard lock(mutex_);
  return static_cast<std::size_t>(std::count_if(jobs_.begin(), jobs_.end(), [](const auto& e) {
    return !e.second.taken && e.second.due > 0;
  }));
}

json StandingOrderService::game_overrides(std::int64_t game_id, std::int64_t player_id) {
  const auto db_lock = store_.db().lock();
  Statement s = store_.db().cached(
      "SELECT orders FROM game_standing_orders WHERE game_id = ? AND player_id = ?");
  s.bind(1, game_id).bind(2, player_id);
  return s.step() ? parse_object(s.text(0)) : json::object();
}

ai::StandingOrders StandingOrderService::orders_for(const GameRoom& room, int seat) {
  std::int64_t player_id = 0;
  for (const SeatRecord& s : room.record().seats) {
    if (s.seat == seat) player_id = s.player_id;
  }
  ai::StandingOrders orders = account_orders(store_.db(), player_id);
  apply_orders(orders, game_overrides(room.id(), player_id));
  return orders;
}

std::optional<Action> StandingOrderService::action_for(const GameRoom& room, int seat) {
  const GameState* state = room.state();
  if (state == nullptr || !ai::covered_by_standing_orders(decision_kind(*state))) {
    return std::nullopt;
  }
  // His view and legal actions only: the orders never look at hidden state.
  return ai::standing_order_action(view_for(*state, seat), legal_actions(*state, seat),
                                   orders_for(room, seat));
}

std::optional<ComputerDecision> StandingOrderService::decide(GameRoom& room, const Due& due) {
  if (due.cancel->load() || room.seq() != due.seq ||
      SeatControllers::seat_to_act(room) != due.seat) {
    return std::nullopt;  // he decided, or the game moved on, or he came back
  }
  const std::optional<Action> action = action_for(room, due.seat);
  if (!action) return std::nullopt;
  spdlog::info("standing_order game={} seq={} seat={} kind={}", room.id(), due.seq, due.seat,
               to_string(decision_kind(*room.state())));
  return ComputerDecision{room.id(), due.seq,    due.player_id,
                          *action,   due.cancel, ActionSource::kStandingOrder};
}

Outcome StandingOrderService::request(Subscriber* client, GameRoom& room, std::int64_t player_id,
                                      const json& msg) {
  const std::optional<int> seat = room.seat_of(player_id);
  if (!seat) return fail("not_seated", "only a seated player has standing orders in a game");
  json overrides = game_overrides(room.id(), player_id);
  if (msg.contains("orders")) {
    if (room.status() != GameStatus::kOpen && room.status() != GameStatus::kRunning) {
      return fail("not_running", "the game is over");
    }
    if (auto problem = orders_json_problem(msg["orders"], /*allow_null=*/true)) {
      return fail("bad_orders", *problem);
    }
    json changed = overrides;
    for (const auto& [name, value] : msg["orders"].items()) {
      if (value.is_null()) {
        changed.erase(name);
      } else {
        changed[name] = value;
      }
    }
    if (changed != overrides) {
      const auto db_lock = store_.db().lock();
      if (changed.empty()) {
        store_.db()
            .prepare("DELETE FROM game_standing_orders WHERE game_id = ? AND player_id = ?")
            .bind(1, room.id())
            .bind(2, player_id)
            .run();
      } else {
        store_.db()
            .prepare(
                "INSERT OR REPLACE INTO game_standing_orders(game_id, player_id, orders) "
                "VALUES(?, ?, ?)")
            .bind(1, room.id())
            .bind(2, player_id)
            .bind(3, changed.dump())
            .run();
      }
      overrides = changed;
      spdlog::info("standing_orders_set game={} player={}", room.id(), player_id);
    }
  }
  const ai::StandingOrders account = account_orders(store_.db(), player_id);
  ai::StandingOrders effective = account;
  apply_orders(effective, overrides);
  client->deliver(make_message(json{{"type", "game.standing_orders"},
                                    {"game_id", room.id()},
                                    {"seat", *seat},
                                    {"orders", orders_to_json(effective)},
                                    {"game_orders", overrides},
                                    {"account_orders", orders_to_json(account)},
                                    {"decision_grace_seconds", grace_seconds(room)},
                                    {"choices", order_choices_json()}}));
  return std::nullopt;
}

}  // namespace viktory::server
