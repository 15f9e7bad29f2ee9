#include "hub.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <limits>
#include <set>

#include "json.h"
#include "token.h"

namespace viktory::server {
namespace {

using nlohmann::json;

// A message field of the wrong type or missing: answered with error "bad_message".
struct BadField : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::int64_t int_field(const json& m, const char* name) {
  auto it = m.find(name);
  if (it == m.end() || !it->is_number_integer()) {
    throw BadField(std::string("field '") + name + "' must be an integer");
  }
  return it->get<std::int64_t>();
}

int small_int_field(const json& m, const char* name) {
  const std::int64_t v = int_field(m, name);
  if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) {
    throw BadField(std::string("field '") + name + "' is out of range");
  }
  return static_cast<int>(v);
}

std::optional<int> optional_small_int(const json& m, const char* name) {
  if (!m.contains(name) || m[name].is_null()) return std::nullopt;
  return small_int_field(m, name);
}

std::string string_field(const json& m, const char* name) {
  auto it = m.find(name);
  if (it == m.end() || !it->is_string()) {
    throw BadField(std::string("field '") + name + "' must be a string");
  }
  return it->get<std::string>();
}

std::string optional_string(const json& m, const char* name) {
  if (!m.contains(name) || m[name].is_null()) return "";
  return string_field(m, name);
}

bool bool_field(const json& m, const char* name, bool fallback) {
  auto it = m.find(name);
  if (it == m.end() || it->is_null()) return fallback;
  if (!it->is_boolean()) throw BadField(std::string("field '") + name + "' must be true or false");
  return it->get<bool>();
}

// A display name: 1..32 code points after trimming, no control characters.
std::optional<std::string> clean_name(const std::string& raw) {
  const auto first = raw.find_first_not_of(' ');
  if (first == std::string::npos) return std::nullopt;
  const std::string name = raw.substr(first, raw.find_last_not_of(' ') - first + 1);
  std::size_t points = 0;
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return std::nullopt;
    if ((u & 0xC0) != 0x80) ++points;
  }
  if (points == 0 || points > 32) return std::nullopt;
  return name;
}

ApiResponse api_error(int status, const std::string& code, const std::string& message) {
  return ApiResponse{status, json{{"error", {{"code", code}, {"message", message}}}}.dump()};
}

ApiResponse api_json(const json& body) { return ApiResponse{200, body.dump()}; }

std::map<std::string, std::string> parse_query(std::string_view query) {
  std::map<std::string, std::string> out;
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    const auto eq = pair.find('=');
    if (eq != std::string_view::npos) {
      out[std::string(pair.substr(0, eq))] = std::string(pair.substr(eq + 1));
    }
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return out;
}

std::optional<std::int64_t> parse_id(std::string_view s) {
  std::int64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || v <= 0) return std::nullopt;
  return v;
}

}  // namespace

Hub::Hub(Store& store, Metrics& metrics, HubOptions options)
    : store_(store),
      metrics_(metrics),
      options_(std::move(options)),
      lobby_(store, metrics, options_.room) {}

void Hub::on_open(Client* client) {
  std::lock_guard lock(mutex_);
  ClientState state;
  state.bucket.tokens = options_.message_burst;
  state.bucket.last = std::chrono::steady_clock::now();
  clients_[client] = state;
}

void Hub::on_close(Client* client) {
  std::lock_guard lock(mutex_);
  lobby_.forget(client);
  clients_.erase(client);
  lobby_.evict_idle();
}

bool Hub::take_token(TokenBucket& bucket, double per_second, double burst) {
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - bucket.last).count();
  bucket.last = now;
  bucket.tokens = std::min(burst, bucket.tokens + elapsed * per_second);
  if (bucket.tokens < 1) return false;
  bucket.tokens -= 1;
  return true;
}

void Hub::send_error(Client* client, const Failure& failure, const json& req) {
  metrics_.count_error(failure.code);
  json out{{"type", "error"}, {"code", failure.code}, {"message", failure.message}};
  for (auto& [key, value] : failure.extra.items()) out[key] = value;
  if (!req.is_null()) out["req"] = req;
  client->deliver(make_message(out));
}

void Hub::on_message(Client* client, std::string_view text) {
  std::lock_guard lock(mutex_);
  ++metrics_.messages_in;
  auto found = clients_.find(client);
  if (found == clients_.end()) return;
  ClientState& state = found->second;

  if (!take_token(state.bucket, options_.messages_per_second, options_.message_burst)) {
    send_error(client, fail("rate_limited", "too many messages; slow down"), nullptr);
    return;
  }
  json msg = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (msg.is_discarded()) {
    send_error(client, fail("bad_json", "the message is not valid JSON"), nullptr);
    return;
  }
  if (!msg.is_object()) {
    send_error(client, fail("bad_message", "a message must be a JSON object"), nullptr);
    return;
  }
  json req = nullptr;
  if (msg.contains("req")) {
    if (!msg["req"].is_number_integer()) {
      send_error(client, fail("bad_message", "field 'req' must be an integer"), nullptr);
      return;
    }
    req = msg["req"];
  }
  if (!msg.contains("type") || !msg["type"].is_string()) {
    send_error(client, fail("bad_message", "field 'type' must be a string"), req);
    return;
  }
  const std::string type = msg["type"].get<std::string>();
  Outcome outcome;
  try {
    outcome = dispatch(client, state, msg, type);
  } catch (const BadField& e) {
    outcome = fail("bad_message", e.what());
  } catch (const protocol::JsonError& e) {
    outcome = fail("bad_message", std::string("bad action: ") + e.what());
  } catch (const std::exception& e) {
    // Details go to the log only; they may name internals the client has no business seeing.
    spdlog::error("request_failed type={} error={}", type, e.what());
    outcome = fail("internal", "the server could not handle this request");
  }
  if (outcome && outcome->code.empty()) return;  // answered already (stale: error + state)
  if (outcome) {
    send_error(client, *outcome, req);
    if (outcome->code == "auth_failed" && state.auth_failures >= options_.max_auth_failures) {
      client->close("too many failed sign-ins");
    }
  } else if (!req.is_null()) {
    client->deliver(make_message(json{{"type", "ack"}, {"req", req}}));
  }
}

Outcome Hub::require_room(std::int64_t game_id, GameRoom*& room) {
  room = lobby_.room(game_id);
  if (room == nullptr || room->status() == GameStatus::kCancelled) {
    return fail("not_found", "no such game");
  }
  return std::nullopt;
}

Outcome Hub::dispatch(Client* client, ClientState& state, const json& msg,
                      const std::string& type) {
  if (type == "ping") {
    client->deliver(make_message(json{{"type", "pong"}}));
    return std::nullopt;
  }
  if (type == "auth") {
    if (state.player) return fail("bad_message", "already signed in on this connection");
    const std::string token = string_field(msg, "token");
    std::optional<PlayerRecord> player;
    if (looks_like_hex_secret(token, 64)) player = store_.player_by_token_hash(token_hash(token));
    if (!player) {
      ++state.auth_failures;
      return fail("auth_failed", "unknown token");
    }
    state.player = player;
    spdlog::debug("signed_in player={}", player->id);
    client->deliver(make_message(json{
        {"type", "welcome"}, {"player_id", std::to_string(player->id)}, {"name", player->name}}));
    return std::nullopt;
  }
  if (!state.player) return fail("unauthenticated", "send {\"type\":\"auth\"} first");
  const PlayerRecord& me = *state.player;

  if (type == "lobby.subscribe") {
    lobby_.subscribe(client);
    return std::nullopt;
  }
  if (type == "lobby.unsubscribe") {
    lobby_.unsubscribe(client);
    return std::nullopt;
  }
  if (type == "my_games") {
    client->deliver(make_message(json{{"type", "my_games"}, {"games", my_games(me.id)}}));
    return std::nullopt;
  }
  if (type == "game.create") {
    CreateRequest req;
    req.options.players = small_int_field(msg, "seats");
    // The option fields sit beside the message's own fields; the engine's options reader
    // checks them (victory: one condition or a list [5.0]; the optional rules [15.x]).
    json option_fields = json::object();
    for (const char* key :
         {"victory", "tile_mix", "independent_exploration", "terrain_leveling", "no_exploration",
          "exploration_balancing", "luck_averaging", "town_relocation", "subjugation"}) {
      if (msg.contains(key)) option_fields[key] = msg[key];
    }
    try {
      const int seats = req.options.players;
      req.options = protocol::options_from_json(option_fields);
      req.options.players = seats;
    } catch (const protocol::JsonError& e) {
      return fail("bad_options", e.what());
    }
    req.is_private = bool_field(msg, "private", false);
    req.seat = optional_small_int(msg, "seat").value_or(0);
    auto created = lobby_.create(me, req);
    if (auto* f = std::get_if<Failure>(&created)) return *f;
    GameRoom* room = std::get<GameRoom*>(created);
    json reply{{"type", "game.created"}, {"game_id", room->id()}};
    if (room->record().is_private) {
      reply["invite"] = room->record().invite_code;
      if (!options_.public_url.empty()) {
        reply["invite_url"] = options_.public_url + "/#/game/" + std::to_string(room->id()) +
                              "?invite=" + room->record().invite_code;
      }
    }
    client->deliver(make_message(reply));
    room->watch(client, me.id);
    lobby_.changed();
    spdlog::info("game_created game={} player={} seats={} private={}", room->id(), me.id,
                 room->record().options.players, room->record().is_private);
    return std::nullopt;
  }

  static const std::set<std::string> kGameTypes = {"game.join",  "game.leave",   "game.start",
                                                   "game.watch", "game.unwatch", "game.action",
                                                   "game.undo",  "chat.send"};
  if (!kGameTypes.count(type)) return fail("unknown_type", "unknown message type");
  const std::int64_t game_id = int_field(msg, "game_id");
  GameRoom* room = nullptr;
  if (auto f = require_room(game_id, room)) return f;

  if (type == "game.join") {
    if (auto f = room->join(me, optional_small_int(msg, "seat"), optional_string(msg, "invite"))) {
      return f;
    }
    room->watch(client, me.id);
    lobby_.changed();
    return std::nullopt;
  }
  if (type == "game.leave") {
    if (auto f = room->leave(me.id)) return f;
    lobby_.changed();
    return std::nullopt;
  }
  if (type == "game.start") {
    if (auto f = room->start(me.id)) return f;
    lobby_.changed();
    return std::nullopt;
  }
  if (type == "game.watch") {
    if (!room->may_view(me.id, optional_string(msg, "invite"))) {
      return fail("forbidden", "this game needs an invite code");
    }
    room->watch(client, me.id);
    return std::nullopt;
  }
  if (type == "game.unwatch") {
    room->unwatch(client);
    return std::nullopt;
  }
  if (type == "game.action") {
    const int seq = small_int_field(msg, "seq");
    if (!msg.contains("action") || !msg["action"].is_object()) {
      return fail("bad_message", "field 'action' must be an object");
    }
    json action_json = msg["action"];
    action_json["player"] = 0;  // replaced by the sender's seat; a client never chooses it
    const Action action = protocol::action_from_json(action_json);
    Outcome outcome = room->act(me.id, seq, action);
    if (outcome && outcome->code == "stale") {
      send_error(client, *outcome, msg.value("req", json(nullptr)));
      room->send_state(client, me.id);
      return Failure{};  // answered already
    }
    return outcome;
  }
  if (type == "game.undo") {
    const int seq = small_int_field(msg, "seq");
    Outcome outcome = room->undo(me.id, seq);
    if (outcome && outcome->code == "stale") {
      send_error(client, *outcome, msg.value("req", json(nullptr)));
      room->send_state(client, me.id);
      return Failure{};
    }
    return outcome;
  }
  if (type == "chat.send") {
    if (!room->may_view(me.id, optional_string(msg, "invite"))) {
      return fail("forbidden", "this game needs an invite code");
    }
    return room->chat(me, string_field(msg, "text"));
  }
  return fail("unknown_type", "unknown message type");
}

json Hub::my_games(std::int64_t player_id) {
  json games = json::array();
  for (const GameRecord& stored : store_.games_of_player(player_id)) {
    if (stored.status == GameStatus::kCancelled) continue;
    std::optional<int> seat;
    for (const SeatRecord& s : stored.seats) {
      if (s.player_id == player_id) seat = s.seat;
    }
    const bool running = stored.status == GameStatus::kRunning;
    json g = GameRoom::summary_of(stored);
    g["your_seat"] = seat ? json(*seat) : json(nullptr);
    g["your_turn"] = running && seat && stored.current_seat == *seat;
    games.push_back(std::move(g));
  }
  return games;
}

std::optional<PlayerRecord> Hub::player_for_bearer(std::string_view authorization) {
  constexpr std::string_view kPrefix = "Bearer ";
  if (authorization.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  const std::string token(authorization.substr(kPrefix.size()));
  if (!looks_like_hex_secret(token, 64)) return std::nullopt;
  return store_.player_by_token_hash(token_hash(token));
}

ApiResponse Hub::handle_api(std::string_view method, std::string_view target, std::string_view body,
                            std::string_view authorization, std::string_view address) {
  std::lock_guard lock(mutex_);
  const auto question = target.find('?');
  const std::string_view path = target.substr(0, question);
  const auto query =
      parse_query(question == std::string_view::npos ? "" : target.substr(question + 1));
  try {
    if (path == "/api/session") {
      if (method != "POST") return api_error(405, "method", "use POST");
      // Sign-ups write to the database: limit them per address. Full buckets are forgotten
      // when the table grows, so it stays small.
      const double per_second = options_.signups_per_minute / 60.0;
      const double burst = 2 * options_.signups_per_minute;
      if (signup_buckets_.size() > 10000) {
        for (auto it = signup_buckets_.begin(); it != signup_buckets_.end();) {
          TokenBucket probe = it->second;
          take_token(probe, per_second, burst);
          it = probe.tokens >= burst - 1 ? signup_buckets_.erase(it) : std::next(it);
        }
      }
      auto [bucket, fresh] = signup_buckets_.try_emplace(std::string(address));
      if (fresh) bucket->second = TokenBucket{burst, std::chrono::steady_clock::now()};
      if (!take_token(bucket->second, per_second, burst)) {
        metrics_.count_error("rate_limited");
        return api_error(429, "rate_limited", "too many new players from this address");
      }
      json j = json::parse(body, nullptr, false);
      if (j.is_discarded() || !j.is_object() || !j.contains("name") || !j["name"].is_string()) {
        return api_error(400, "bad_message", "send {\"name\":\"...\"}");
      }
      auto name = clean_name(j["name"].get<std::string>());
      if (!name) return api_error(400, "bad_name", "a name has 1 to 32 characters");
      const std::string token = new_token();
      const PlayerRecord player = store_.create_player(*name, token_hash(token), now_ms());
      spdlog::info("player_created player={}", player.id);
      return api_json(
          json{{"player_id", std::to_string(player.id)}, {"name", player.name}, {"token", token}});
    }
    if (method != "GET") return api_error(405, "method", "use GET");
    if (path == "/api/games") return api_json(json{{"games", lobby_.open_games()}});
    if (path == "/api/my-games") {
      auto player = player_for_bearer(authorization);
      if (!player) return api_error(401, "auth_failed", "send Authorization: Bearer <token>");
      return api_json(json{{"games", my_games(player->id)}});
    }
    constexpr std::string_view kGames = "/api/games/";
    if (path.substr(0, kGames.size()) == kGames) {
      std::string_view rest = path.substr(kGames.size());
      const auto slash = rest.find('/');
      const auto id = parse_id(rest.substr(0, slash));
      const std::string_view what = slash == std::string_view::npos ? "" : rest.substr(slash);
      if (!id || (what != "" && what != "/replay"))
        return api_error(404, "not_found", "no such path");
      GameRoom* room = lobby_.room(*id);
      if (room == nullptr || room->status() == GameStatus::kCancelled) {
        return api_error(404, "not_found", "no such game");
      }
      auto player = player_for_bearer(authorization);
      const std::int64_t player_id = player ? player->id : 0;
      const auto invite = query.count("invite") ? query.at("invite") : std::string();
      if (!room->may_view(player_id, invite)) {
        return api_error(403, "forbidden", "this game needs an invite code");
      }
      if (what.empty()) return api_json(room->summary());
      if (room->status() != GameStatus::kFinished) {
        return api_error(409, "not_finished", "replays exist only for finished games");
      }
      int viewer = kSpectator;
      if (query.count("seat")) {
        // A seat's own view only for the player holding it; everyone else sees the spectator's.
        const std::optional<int> mine = room->seat_of(player_id);
        if (mine && query.at("seat") == std::to_string(*mine)) viewer = *mine;
      }
      const GameRecord record = room->record();
      json replay = GameRoom::replay(store_, record, viewer);
      lobby_.evict_idle();
      return api_json(replay);
    }
    return api_error(404, "not_found", "no such path");
  } catch (const std::exception& e) {
    spdlog::error("api_failed error={}", e.what());
    return api_error(500, "internal", "the server could not handle this request");
  }
}

}  // namespace viktory::server
