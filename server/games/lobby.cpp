#include "lobby.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "bot.h"
#include "game_leases.h"
#include "token.h"

namespace viktory::server {

using nlohmann::json;

namespace {

// A burst of changes (a game filling up, a flood of creations) makes one message.
constexpr auto kCoalesce = std::chrono::milliseconds(250);

template <typename Map, typename Key>
int count_in(const Map& map, const Key& key) {
  auto it = map.find(key);
  return it == map.end() ? 0 : it->second;
}

template <typename Map, typename Key>
void add_to(Map& map, const Key& key, int delta) {
  auto it = map.try_emplace(key, 0).first;
  it->second += delta;
  if (it->second <= 0) map.erase(it);
}

}  // namespace

Outcome make_lobby_page(const LobbyLimits& limits, const std::string& speed,
                        std::optional<std::int64_t> offset, std::optional<std::int64_t> limit,
                        LobbyPage& page) {
  if (!speed.empty() && speed != "live" && speed != "daily" && speed != "untimed") {
    return fail("bad_page", "speed is \"live\", \"daily\", \"untimed\" or absent (all)");
  }
  if (offset && (*offset < 0 || *offset > limits.open_games)) {
    return fail("bad_page", "offset is 0 to " + std::to_string(limits.open_games));
  }
  if (limit && (*limit < 1 || *limit > limits.max_page_size)) {
    return fail("bad_page", "limit is 1 to " + std::to_string(limits.max_page_size));
  }
  page.speed = speed;
  page.offset = static_cast<int>(offset.value_or(0));
  page.limit = static_cast<int>(limit.value_or(limits.page_size));
  return std::nullopt;
}

Lobby::Lobby(Store& store, Metrics& metrics, RoomLimits limits, LobbyLimits lobby_limits,
             GameLeases* leases)
    : store_(store),
      metrics_(metrics),
      limits_(limits),
      lobby_limits_(lobby_limits),
      leases_(leases) {
  // Open games make up the lobby list, so they are always in memory. One whose row cannot be
  // read stays out (and says why in the log); the others are served.
  Store::DamagedList damaged;
  for (GameRecord& g : store_.games_with_status(GameStatus::kOpen, &damaged)) {
    const std::int64_t id = g.id;
    if (!take_lease(id)) continue;  // another server lists it
    auto& room =
        rooms_.emplace(id, std::make_unique<GameRoom>(store_, metrics_, std::move(g), limits_))
            .first->second;
    room->set_observer(&observers_);
    std::lock_guard lock(room->mutex());
    note(room);
  }
  for (auto& [id, why] : damaged) {
    spdlog::error("game_damaged game={} reason=\"{}\"", id, why);
    damaged_[id] = why;
  }
  changes_thread_ = std::thread([this] { run_changes(); });
}

Lobby::~Lobby() {
  {
    std::lock_guard lock(list_mutex_);
    stopping_ = true;
  }
  changes_wanted_.notify_all();
  changes_thread_.join();
}

Outcome Lobby::may_take_open_seat(std::int64_t player_id) const {
  // Several servers: his seats in the open games of all of them (the database's).
  const int everywhere = leases_ != nullptr ? store_.open_seats_of(player_id) : 0;
  std::lock_guard lock(list_mutex_);
  const int cap = lobby_limits_.open_games_per_player;
  if (std::max(count_in(open_seats_, player_id), everywhere) +
          count_in(pending_players_, player_id) >=
      cap) {
    return fail("too_many_open_games", "you have a seat in " + std::to_string(cap) +
                                           " open games already: start, leave or cancel one first");
  }
  return std::nullopt;
}

int Lobby::open_count() const {
  std::lock_guard lock(list_mutex_);
  return static_cast<int>(open_.size());
}

int Lobby::open_seats_of(std::int64_t player_id) const {
  std::lock_guard lock(list_mutex_);
  return count_in(open_seats_, player_id);
}

std::variant<GameRoom*, Failure> Lobby::create(const PlayerRecord& creator,
                                               const CreateRequest& req, std::string* invite_code) {
  auto made = make_game(creator, req, invite_code);
  if (auto* f = std::get_if<Failure>(&made)) return *f;
  return add_game(std::move(std::get<std::unique_ptr<GameRoom>>(made))).get();
}

std::variant<std::unique_ptr<GameRoom>, Failure> Lobby::make_game(const PlayerRecord& creator,
                                                                  const CreateRequest& req,
                                                                  std::string* invite_code) {
  if (req.options.players < 2 || req.options.players > kMaxPlayers) {
    return fail("bad_options", "a game has 2 to 8 seats");
  }
  // The options were read before the seat count was known: check them with it (a board
  // too small for 7 or 8 players [3.2]).
  if (auto problem = options_problem(req.options)) return fail("bad_options", *problem);
  if (req.seat < 0 || req.seat >= req.options.players) return fail("bad_seat", "no such seat");
  for (const auto& [seat, level] : req.computers) {
    if (seat < 0 || seat >= req.options.players) return fail("bad_seat", "no such seat");
    if (req.creator_plays && seat == req.seat) {
      return fail("bad_seat", "the creator's seat cannot be a computer's");
    }
    // The passive computer is the guided first game's only (server/games/tutorial.h).
    if (!ai::level_from_string(level) || level == ai::to_string(ai::Level::kPassive)) {
      return fail("bad_options", "a computer's level is \"random\", \"heuristic\" or \"search\"");
    }
  }
  if (!req.creator_plays && static_cast<int>(req.computers.size()) != req.options.players) {
    return fail("bad_options", "a creator who does not play fills every seat with computers");
  }
  if (!req.creator_plays && req.spectators == SpectatorMode::kNone) {
    return fail("bad_options", "a creator who does not play watches: spectators cannot be none");
  }
  if (req.rated.value_or(false) && !req.computers.empty()) {
    return fail("bad_options", "a game with computer seats cannot be rated");
  }
  const bool delayed = req.spectators == SpectatorMode::kDelayed;
  if (delayed ? req.spectator_delay < 1 || req.spectator_delay > kMaxSpectatorDelay
              : req.spectator_delay != 0) {
    return fail("bad_options", "a spectator delay is 1 to " + std::to_string(kMaxSpectatorDelay) +
                                   " turns, and only with delayed spectators");
  }
  // The caps on open games (LobbyLimits), checked and reserved at once, until add_game counts
  // the game itself: the store is written meanwhile, with no lock held.
  const std::int64_t seated = req.creator_plays ? creator.id : 0;
  // Several servers: the open games of all of them count (read first, with no lock held; this
  // server's own are among them, its creations in flight are not yet).
  const int open_everywhere = leases_ != nullptr ? store_.open_games_count() : 0;
  const int seats_everywhere = leases_ != nullptr && seated != 0 ? store_.open_seats_of(seated) : 0;
  {
    std::lock_guard lock(list_mutex_);
    if (std::max(static_cast<int>(open_.size()), open_everywhere) + pending_total_ >=
        lobby_limits_.open_games) {
      return fail("too_many_open_games",
                  "the server has too many open games now: join one, or try again later");
    }
    if (!req.address.empty() &&
        count_in(open_by_address_, req.address) + count_in(pending_addresses_, req.address) >=
            lobby_limits_.open_games_per_address) {
      return fail("too_many_open_games",
                  "too many open games were created from your address: join one, or start, "
                  "leave or cancel one first");
    }
    if (seated != 0 && std::max(count_in(open_seats_, seated), seats_everywhere) +
                               count_in(pending_players_, seated) >=
                           lobby_limits_.open_games_per_player) {
      return fail("too_many_open_games",
                  "you have a seat in " + std::to_string(lobby_limits_.open_games_per_player) +
                      " open games already: start, leave or cancel one first");
    }
    ++pending_total_;
    if (seated != 0) add_to(pending_players_, seated, 1);
    if (!req.address.empty()) add_to(pending_addresses_, req.address, 1);
  }
  struct Release {
    Lobby* lobby;
    std::int64_t player;
    std::string address;
    bool armed = true;
    ~Release() {
      if (armed) lobby->release_pending(player, address);
    }
  } release{this, seated, req.address};
  // Caps on computer games: held until the game is written, so that the count stays exact.
  std::unique_lock<std::mutex> admitted;
  if (computer_caps_ != nullptr && !req.computers.empty()) {
    if (Outcome refused = computer_caps_->admit(creator.id, req.address, admitted)) return *refused;
  }
  GameRecord g;
  g.options = req.options;
  g.clock = req.clock;
  g.status = GameStatus::kOpen;
  g.created = now_ms();
  g.creator = creator;
  g.is_private = req.is_private;
  g.spectators = req.spectators;
  g.spectator_delay = req.spectator_delay;
  g.rated = req.rated.value_or(req.computers.empty());
  if (req.is_private) {
    const std::string code = new_invite_code();
    g.invite_hash = invite_hash(code);
    if (invite_code != nullptr) *invite_code = code;
  }
  if (req.creator_plays) {
    SeatRecord mine{req.seat, creator.id, creator.name, ""};
    mine.contribution_commitment = req.commitment;
    mine.host = is_operator(limits_.contributions, creator.name);
    g.seats.push_back(std::move(mine));
  }
  for (const auto& [seat, level] : req.computers) {
    // A player of its own per seat, whom nobody can sign in as (nobody knows its token).
    const PlayerRecord computer =
        store_.create_player("Computer (" + level + ")", token_hash(new_token()), g.created);
    g.seats.push_back(SeatRecord{seat, computer.id, computer.name, level});
  }
  std::sort(g.seats.begin(), g.seats.end(), [](auto& a, auto& b) { return a.seat < b.seat; });
  g.random_scheme = RandomScheme::kStreams;  // fair play v2: separate streams (docs/fair-play.md)
  store_.create_game(g);
  if (admitted.owns_lock()) computer_caps_->created(g.id, req.address);
  ++metrics_.games_created;
  {
    std::lock_guard lock(list_mutex_);
    new_games_[g.id] = Pending{seated, req.address};  // add_game releases the reservation
  }
  release.armed = false;
  return std::make_unique<GameRoom>(store_, metrics_, std::move(g), limits_);
}

void Lobby::release_pending(std::int64_t player, const std::string& address) {
  std::lock_guard lock(list_mutex_);
  release_pending_locked(player, address);
}

void Lobby::release_pending_locked(std::int64_t player, const std::string& address) {
  --pending_total_;
  if (player != 0) add_to(pending_players_, player, -1);
  if (!address.empty()) add_to(pending_addresses_, address, -1);
}

std::shared_ptr<GameRoom> Lobby::add_game(std::unique_ptr<GameRoom> made) {
  const std::int64_t id = made->id();
  // A new game: nobody else can hold its lease yet (no other process has loaded it).
  take_lease(id);
  // Someone may have loaded the new game from the store meanwhile (its id is no secret): then
  // that room is the game's, and the one made here is dropped unused.
  auto [it, inserted] = rooms_.emplace(id, std::move(made));
  std::lock_guard lock(it->second->mutex());
  if (inserted) it->second->set_observer(&observers_);
  it->second->start_if_full();  // every seat a computer's but the creator's
  {
    // Counted by note() below from now on, with its creator's address.
    std::lock_guard list_lock(list_mutex_);
    if (auto pending = new_games_.find(id); pending != new_games_.end()) {
      release_pending_locked(pending->second.player, pending->second.address);
      const std::string& address = pending->second.address;
      if (!address.empty()) {
        // count_open (in note) takes the address over from this entry.
        Open& open = open_[id];
        if (open.address.empty()) {
          open.address = address;
          add_to(open_by_address_, address, 1);
        }
      }
      new_games_.erase(pending);
    }
  }
  note(it->second);
  return it->second;
}

bool Lobby::take_lease(std::int64_t game_id) {
  if (leases_ == nullptr) return true;
  return leases_->take(game_id, now_ms()).owner == leases_->owner();
}

std::optional<std::string> Lobby::elsewhere(std::int64_t game_id) {
  if (leases_ == nullptr || rooms_.count(game_id) != 0) return std::nullopt;
  const std::optional<Lease> lease = leases_->lease(game_id);
  if (!lease || lease->owner == leases_->owner() || lease->expires <= now_ms()) {
    return std::nullopt;
  }
  return lease->url;
}

GameRoom* Lobby::room(std::int64_t game_id) {
  auto it = rooms_.find(game_id);
  if (it != rooms_.end()) return it->second.get();
  if (damaged_.count(game_id) || unavailable_.count(game_id)) return nullptr;
  // Before loading: the state another process serves would be stale here at once. A game
  // that does not exist gets no lease (take() writes none), so asking costs no row.
  if (!take_lease(game_id)) return nullptr;
  std::unique_ptr<GameRoom> loaded;
  try {
    loaded = GameRoom::load(store_, metrics_, game_id, limits_);
  } catch (const DamagedGame& e) {
    // Refuse this game, clearly and for good (until a restart); every other game goes on.
    spdlog::error("game_damaged game={} reason=\"{}\"", game_id, e.what());
    damaged_[game_id] = e.what();
    if (leases_ != nullptr) leases_->release(game_id);
    return nullptr;
  }
  if (!loaded) return nullptr;
  const std::shared_ptr<GameRoom>& room = rooms_.emplace(game_id, std::move(loaded)).first->second;
  room->set_observer(&observers_);
  {
    std::lock_guard lock(room->mutex());
    observers_.on_room_changed(*room);  // e.g. a computer's turn, a clock
    note(room);
  }
  return room.get();
}

std::shared_ptr<GameRoom> Lobby::shared_room(std::int64_t game_id) {
  if (room(game_id) == nullptr) return nullptr;
  return rooms_.at(game_id);
}

std::optional<std::string> Lobby::damaged(std::int64_t game_id) const {
  auto it = damaged_.find(game_id);
  if (it == damaged_.end()) return std::nullopt;
  return it->second;
}

void Lobby::set_unavailable(std::int64_t game_id, std::map<Subscriber*, std::int64_t>* dropped) {
  if (auto it = rooms_.find(game_id); it != rooms_.end()) {
    // Kept alive past the erase: the lock below must not outlive the room it locks.
    const std::shared_ptr<GameRoom> held = it->second;
    std::lock_guard lock(held->mutex());
    std::map<Subscriber*, std::int64_t> watchers = held->take_subscribers();
    if (dropped != nullptr) *dropped = std::move(watchers);
    rooms_.erase(game_id);
  }
  unavailable_.insert(game_id);
  std::lock_guard list_lock(list_mutex_);
  if (auto it = listed_.find(game_id); it != listed_.end()) unlist(it);
  forget_open(game_id);
}

GameRoom* Lobby::reload(std::int64_t game_id, std::map<Subscriber*, std::int64_t>* dropped) {
  std::map<Subscriber*, std::int64_t> watchers;
  if (auto it = rooms_.find(game_id); it != rooms_.end()) {
    // Kept alive past the erase: the lock below must not outlive the room it locks.
    const std::shared_ptr<GameRoom> held = it->second;
    std::lock_guard lock(held->mutex());
    watchers = held->take_subscribers();  // retires it: a request holding it retries
    rooms_.erase(game_id);
  }
  {
    std::lock_guard list_lock(list_mutex_);
    // The fresh room notes itself (its open_ entry stays: it keeps the creator's address).
    if (auto it = listed_.find(game_id); it != listed_.end()) unlist(it);
  }
  GameRoom* fresh = nullptr;
  try {
    fresh = room(game_id);
  } catch (const std::exception& e) {
    spdlog::error("game_reload_failed game={} error=\"{}\"", game_id, e.what());
  }
  if (fresh == nullptr) {
    if (dropped != nullptr) *dropped = std::move(watchers);
    return nullptr;
  }
  std::lock_guard lock(fresh->mutex());
  for (auto& [subscriber, player] : watchers) fresh->watch(subscriber, player);
  return fresh;
}

void Lobby::subscribe(Subscriber* subscriber, const LobbyPage& page) {
  std::lock_guard lock(list_mutex_);
  const Time now = std::chrono::steady_clock::now();
  auto [it, fresh] = subscribers_.try_emplace(subscriber);
  Subscription& sub = it->second;
  if (fresh) {
    sub.tokens = lobby_limits_.subscriber_bytes_per_minute / 4.0;
    sub.refilled = now;
  }
  sub.page = page;
  const Built built = build_page(page);
  json games = json::array();
  sub.sent.clear();
  for (const Listed* l : built.games) {
    games.push_back(l->summary);
    sub.sent.emplace_back(l->summary["game_id"].get<std::int64_t>(), l->version);
  }
  sub.sent_count = built.count;
  sub.dirty = false;
  subscriber->deliver(make_message(json{{"type", "lobby"},
                                        {"games", std::move(games)},
                                        {"count", built.count},
                                        {"offset", page.offset},
                                        {"limit", page.limit},
                                        {"speed", page.speed}}));
}

void Lobby::unsubscribe(Subscriber* subscriber) {
  std::lock_guard lock(list_mutex_);
  subscribers_.erase(subscriber);
}

void Lobby::note(const std::shared_ptr<GameRoom>& room) {
  std::lock_guard lock(list_mutex_);
  auto it = listed_.find(room->id());
  if (room->retired()) {
    // No longer the game's room: the one that replaced it notes itself.
    if (it != listed_.end() && it->second.room.lock() == room) unlist(it);
    return;
  }
  count_open(room->id(), room.get());
  if (room->status() == GameStatus::kOpen && !room->record().is_private) {
    json summary = room->summary();
    std::string text = summary.dump();
    if (it != listed_.end() && !it->second.server.empty()) {
      unlist(it);  // another server listed it last: this one serves it now
      it = listed_.end();
    }
    if (it == listed_.end()) {
      const std::string speed = GameRoom::speed_of(room->record());
      ++speed_counts_[speed];
      if (listing_sink_) listing_sink_(room->id(), &text);
      listed_.emplace(room->id(), Listed{room, "", std::move(summary), std::move(text), speed,
                                         next_version_++});
      ++generation_;
    } else {
      it->second.room = room;
      if (it->second.text != text) {
        if (listing_sink_) listing_sink_(room->id(), &text);
        it->second.summary = std::move(summary);
        it->second.text = std::move(text);
        it->second.version = next_version_++;
        ++generation_;
      }
    }
  } else if (it != listed_.end()) {
    unlist(it);
  }
}

void Lobby::unlist(std::map<std::int64_t, Listed>::iterator it) {
  if (it->second.server.empty() && listing_sink_) listing_sink_(it->first, nullptr);
  add_to(speed_counts_, it->second.speed, -1);
  listed_.erase(it);
  ++generation_;
}

void Lobby::set_listing_sink(std::function<void(std::int64_t, const std::string*)> sink) {
  std::lock_guard lock(list_mutex_);
  listing_sink_ = std::move(sink);
  if (!listing_sink_) return;
  for (const auto& [id, listed] : listed_) {
    if (listed.server.empty()) listing_sink_(id, &listed.text);
  }
}

void Lobby::list_remote(const std::string& server, std::int64_t game_id, const json* summary) {
  std::lock_guard lock(list_mutex_);
  auto it = listed_.find(game_id);
  if (it != listed_.end() && it->second.server.empty()) return;  // ours: we know better
  if (summary == nullptr) {
    // Only the server that listed it takes it back: a late word from the game's previous
    // server does not hide it from the list of the one that serves it now.
    if (it != listed_.end() && it->second.server == server) unlist(it);
    return;
  }
  if (!summary->is_object()) return;
  auto id = summary->find("game_id");
  auto speed = summary->find("speed");
  if (id == summary->end() || !id->is_number_integer() || id->get<std::int64_t>() != game_id ||
      speed == summary->end() || !speed->is_string()) {
    return;
  }
  std::string text = summary->dump();
  if (it != listed_.end() && it->second.server == server && it->second.text == text) return;
  if (it != listed_.end()) unlist(it);
  ++speed_counts_[speed->get<std::string>()];
  listed_.emplace(
      game_id,
      Listed{{}, server, *summary, std::move(text), speed->get<std::string>(), next_version_++});
  ++generation_;
}

void Lobby::drop_remote(const std::string& server) {
  std::lock_guard lock(list_mutex_);
  for (auto it = listed_.begin(); it != listed_.end();) {
    if (it->second.server == server) {
      unlist(it++);
    } else {
      ++it;
    }
  }
}

void Lobby::count_open(std::int64_t id, const GameRoom* room) {
  std::string address;
  if (auto it = open_.find(id); it != open_.end()) {
    for (std::int64_t p : it->second.players) add_to(open_seats_, p, -1);
    if (!it->second.address.empty()) add_to(open_by_address_, it->second.address, -1);
    address = std::move(it->second.address);
    open_.erase(it);
  }
  if (room == nullptr || room->status() != GameStatus::kOpen) return;
  Open open;
  open.address = std::move(address);
  for (const SeatRecord& seat : room->record().seats) {
    if (seat.computer.empty()) open.players.push_back(seat.player_id);
  }
  for (std::int64_t p : open.players) add_to(open_seats_, p, 1);
  if (!open.address.empty()) add_to(open_by_address_, open.address, 1);
  open_.emplace(id, std::move(open));
}
void Lobby::forget(Subscriber* subscriber, std::mutex& lobby_mutex) {
  unsubscribe(subscriber);
  // The rooms are unwatched without the Lobby lock. A reload meanwhile (a storage failure)
  // hands a room's subscribers to a fresh room, so the rooms are looked at again until no
  // room is new.
  std::set<std::shared_ptr<GameRoom>> done;  // kept alive, so no new room reuses an address
  for (;;) {
    std::vector<std::shared_ptr<GameRoom>> todo;
    {
      std::lock_guard lock(lobby_mutex);
      for (auto& [id, room] : rooms_) {
        if (!done.count(room)) todo.push_back(room);
      }
    }
    if (todo.empty()) return;
    for (auto& room : todo) {
      std::lock_guard lock(room->mutex());
      room->unwatch(subscriber);
      done.insert(room);
    }
  }
}

Lobby::Built Lobby::build_page(const LobbyPage& page) const {
  Built built;
  built.count = page.speed.empty() ? listed_.size()
                                   : static_cast<std::size_t>(count_in(speed_counts_, page.speed));
  int skipped = 0;
  for (const auto& entry : listed_) {
    const Listed& listed = entry.second;
    if (static_cast<int>(built.games.size()) >= page.limit) break;
    if (!page.speed.empty() && listed.speed != page.speed) continue;
    if (skipped++ < page.offset) continue;
    built.games.push_back(&listed);
  }
  return built;
}

json Lobby::open_games(const LobbyPage& page) const {
  std::lock_guard lock(list_mutex_);
  const Built built = build_page(page);
  json games = json::array();
  for (const Listed* l : built.games) games.push_back(l->summary);
  return json{{"games", std::move(games)},
              {"count", built.count},
              {"offset", page.offset},
              {"limit", page.limit},
              {"speed", page.speed}};
}

void Lobby::changed() {
  {
    std::lock_guard lock(list_mutex_);
    if (generation_ == marked_generation_) return;
    marked_generation_ = generation_;
    const Time due = std::chrono::steady_clock::now() + kCoalesce;
    for (auto& [subscriber, sub] : subscribers_) {
      if (sub.dirty) continue;
      sub.dirty = true;
      sub.due = due;
    }
  }
  changes_wanted_.notify_one();
}

void Lobby::flush(Subscriber* subscriber, Subscription& sub, Time now) {
  const double per_second = lobby_limits_.subscriber_bytes_per_minute / 60.0;
  const double burst = lobby_limits_.subscriber_bytes_per_minute / 4.0;
  sub.tokens = std::min(
      burst, sub.tokens + per_second * std::chrono::duration<double>(now - sub.refilled).count());
  sub.refilled = now;
  const Built built = build_page(sub.page);
  std::map<std::int64_t, std::uint64_t> had(sub.sent.begin(), sub.sent.end());
  json games = json::array();
  for (const Listed* l : built.games) {
    const std::int64_t id = l->summary["game_id"].get<std::int64_t>();
    auto it = had.find(id);
    if (it == had.end() || it->second != l->version) games.push_back(l->summary);
    if (it != had.end()) had.erase(it);
  }
  json removed = json::array();
  for (const auto& [id, version] : had) removed.push_back(id);
  if (games.empty() && removed.empty() && built.count == sub.sent_count) {
    sub.dirty = false;
    return;
  }
  const Message message = make_message(json{{"type", "lobby.changes"},
                                            {"removed", std::move(removed)},
                                            {"games", std::move(games)},
                                            {"count", built.count}});
  const double size = static_cast<double>(message->size());
  if (size > sub.tokens && sub.tokens < burst) {
    // Over his budget: look again when it has refilled enough (a message larger than the burst
    // goes once the bucket is full). What changes meanwhile joins this message.
    const double wait = (std::min(size, burst) - sub.tokens) / per_second;
    sub.due = now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                        std::chrono::duration<double>(wait));
    return;
  }
  sub.tokens -= size;
  sub.sent.clear();
  for (const Listed* l : built.games) {
    sub.sent.emplace_back(l->summary["game_id"].get<std::int64_t>(), l->version);
  }
  sub.sent_count = built.count;
  sub.dirty = false;
  subscriber->deliver(message);
}

void Lobby::run_changes() {
  std::unique_lock lock(list_mutex_);
  while (!stopping_) {
    const Time now = std::chrono::steady_clock::now();
    Time next = Time::max();
    for (auto& [subscriber, sub] : subscribers_) {
      if (!sub.dirty) continue;
      if (sub.due <= now) flush(subscriber, sub, now);
      if (sub.dirty) next = std::min(next, sub.due);
    }
    if (next == Time::max()) {
      changes_wanted_.wait(lock);
    } else {
      changes_wanted_.wait_until(lock, next);
    }
  }
}

std::vector<std::shared_ptr<GameRoom>> Lobby::rooms() const {
  std::vector<std::shared_ptr<GameRoom>> out;
  out.reserve(rooms_.size());
  for (const auto& [id, room] : rooms_) out.push_back(room);
  return out;
}

void Lobby::evict_idle() {
  for (auto it = rooms_.begin(); it != rooms_.end();) {
    // Only tried: a room whose lock is held is in use (and the Lobby lock is not held while
    // waiting for a room).
    std::unique_lock lock(it->second->mutex(), std::try_to_lock);
    if (lock.owns_lock() && it->second->status() != GameStatus::kOpen &&
        !it->second->has_subscribers()) {
      // A request that found it before looks the game up again (and loads it afresh).
      it->second->retire();
      lock.unlock();
      // Handed over at once: a player who comes back through another server is served there.
      if (leases_ != nullptr) leases_->release(it->first);
      it = rooms_.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace viktory::server
