// Plays random games over real WebSockets, records every byte each player and a spectator
// receive, and checks that nothing hidden got out: no terrain of a hex the receiver did not know
// at that point (compared with the server-side state replayed from the database), and never the
// seed, the generator words, the players' contributions or (while the game runs) its fair-play
// secret and salt. The server's log must not contain tokens or seeds either.
#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <iomanip>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <thread>
#include <unordered_set>

#include "fair_play.h"
#include "game.h"
#include "json.h"
#include "log_text.h"
#include "sight.h"
#include "store.h"
#include "support/play.h"
#include "support/server_process.h"
#include "test_support.h"
#include "view.h"
#include "view_delta.h"

namespace viktory::server::testing {
namespace {

using nlohmann::json;

std::set<std::string> secret_spellings(std::uint64_t word) {
  std::ostringstream lower, upper, padded;
  lower << std::hex << word;
  upper << std::hex << std::uppercase << word;
  padded << std::hex << std::setw(16) << std::setfill('0') << word;
  return {std::to_string(word), std::to_string(static_cast<std::int64_t>(word)), lower.str(),
          upper.str(), padded.str()};
}

struct GamePlan {
  int players;
  bool independent;
  std::string tile_mix;
  json rules = json::object();  // optional rules [15.x] and victory conditions [5.0]
};

struct Client {
  Account account;
  std::unique_ptr<WsClient> ws;
  int seat = -1;  // in the current game; -1 for the spectator
};

// Answers to the requests that compute from a seat's position (game.reach, game.preview_battle)
// go through the same byte checks as views; these count what was asked and answered.
struct SideRequests {
  int reach_answers = 0;  // with at least one hex
  int previews = 0;       // battle.preview answers
};

// The decider asks how far one of the units he may move can go, and what a Battle on a hex of
// another player's units that he knows would look like. Every answer lands in his history.
void ask_side_requests(WsClient& ws, std::int64_t game_id, const Seen& mine, std::mt19937& rng,
                       SideRequests& counts) {
  std::vector<int> movable;
  for (const json& a : mine.legal) {
    if (a["kind"] == "move" && a.contains("unit")) movable.push_back(a["unit"]);
  }
  if (movable.empty()) return;
  const int unit = movable[std::uniform_int_distribution<std::size_t>(0, movable.size() - 1)(rng)];
  ws.send(json{{"type", "game.reach"}, {"game_id", game_id}, {"unit", unit}});
  const json reach = ws.wait_for([](const json& m) {
    return m.value("type", "") == "game.reach" || m.value("type", "") == "error";
  });
  ASSERT_EQ(reach["type"], "game.reach") << reach.dump();
  if (!reach["hexes"].empty()) ++counts.reach_answers;

  std::set<int> known;
  for (const json& h : mine.view["hexes"]) {
    if (h["known"].get<bool>()) known.insert(h["hex"].get<int>());
  }
  std::vector<int> targets;
  for (const json& u : mine.view["units"]) {
    const int hex = u["hex"];
    if (u["owner"] != mine.seat && hex >= 0 && known.count(hex)) targets.push_back(hex);
  }
  if (targets.empty()) return;
  const int hex = targets[std::uniform_int_distribution<std::size_t>(0, targets.size() - 1)(rng)];
  ws.send(
      json{{"type", "game.preview_battle"}, {"game_id", game_id}, {"hex", hex}, {"units", {unit}}});
  const json preview = ws.wait_for([](const json& m) {
    return m.value("type", "") == "battle.preview" || m.value("type", "") == "error";
  });
  if (preview["type"] == "battle.preview") {
    ++counts.previews;
    EXPECT_EQ(preview["hex"], hex);
  } else {
    // Only "nothing to fight" may be refused: the hex is one he knows.
    EXPECT_EQ(preview["code"], "no_battle") << preview.dump();
  }
}

// Plays one game with random legal actions for the decider; returns its id.
std::int64_t play_random_game(std::vector<Client>& players, Client& spectator, const GamePlan& plan,
                              int max_actions, std::mt19937& rng, SideRequests& side) {
  std::vector<WsClient*> clients;
  for (Client& c : players) clients.push_back(c.ws.get());
  std::vector<Seen> seen;
  json fields = plan.rules;
  if (!plan.rules.empty()) {  // every game with optional rules plays the house rules too
    fields["defender_prefire"] = true;
    fields["redeployment"] = true;
  }
  fields["independent_exploration"] = plan.independent;
  fields["tile_mix"] = plan.tile_mix;
  const std::int64_t id = start_game(clients, seen, fields);
  if (!plan.rules.empty()) {  // they reached the engine
    EXPECT_EQ(seen[0].view["options"]["defender_prefire"], true);
    EXPECT_EQ(seen[0].view["options"]["redeployment"], true);
  }
  spectator.ws->send(json{{"type", "game.watch"}, {"game_id", id}});
  spectator.ws->wait_type("game.state");
  // Each seat reads its standing orders for the game, and the first changes one: the answer
  // is for him alone (checked with every other byte below).
  for (std::size_t seat = 0; seat < clients.size(); ++seat) {
    json ask{{"type", "game.standing_orders"}, {"game_id", id}};
    if (seat == 0) ask["orders"] = {{"averaging", "always"}};
    clients[seat]->send(ask);
    clients[seat]->wait_type("game.standing_orders");
  }
  spectator.ws->send(json{{"type", "game.standing_orders"}, {"game_id", id}});
  EXPECT_EQ(spectator.ws->wait_type("error")["code"], "not_seated");
  std::vector<WsClient*> watchers = clients;
  for (int i = 0; i < max_actions; ++i) {
    if (seen[0].view["phase"] == "game_over") break;
    const int who = seen[0].view["decider"];
    std::vector<json> options;
    for (const json& a : seen[who].legal) {
      if (a["kind"] != "concede") options.push_back(a);
    }
    if (options.empty()) break;
    if (i % 6 == 0) ask_side_requests(*clients[who], id, seen[who], rng, side);
    const json pick =
        options[std::uniform_int_distribution<std::size_t>(0, options.size() - 1)(rng)];
    act_and_wait(*clients[who], id, pick, watchers, seen, who);
  }
  // Every player catches up on the whole game (game.since, at most 200 steps): those steps go
  // through the same checks as the live messages.
  for (std::size_t seat = 0; seat < clients.size(); ++seat) {
    clients[seat]->send(json{{"type", "game.since"}, {"game_id", id}, {"seq", 0}});
    const json reply = clients[seat]->wait_type("game.since");
    EXPECT_EQ(reply.value("to", -1), seen[0].seq);
  }
  // Make sure the spectator got everything up to the last update before we stop listening.
  spectator.ws->wait_for([&](const json& m) {
    return m.value("type", "") == "game.update" && m.value("seq", -1) == seen[0].seq;
  });
  spectator.ws->send(json{{"type", "game.unwatch"}, {"game_id", id}});
  return id;
}

class LeakCheck {
 public:
  LeakCheck(Store& store, std::int64_t game_id) : game_id_(game_id) {
    const GameRecord record = *store.game(game_id);
    // A guided game (server/games/tutorial.h) starts from the scenario's position, its snapshot of
    // seq 0; every other game from new_game.
    std::optional<std::pair<int, GameState>> start = store.latest_snapshot(game_id, 0);
    GameState s = start ? std::move(start->second)
                        : new_game(record.options, record.seed, record.random_scheme);
    secrets_ = secret_spellings(record.seed);
    // Random scheme 2: the keys of the three streams (engine/rng.h) are as secret as the seed.
    for (RandomStream stream : {RandomStream::kSetup, RandomStream::kTiles, RandomStream::kDice}) {
      auto more = secret_spellings(stream_key(record.seed, stream));
      secrets_.insert(more.begin(), more.end());
    }
    // Fair play: the secret and salt stay on the server until the game is over (then
    // game.reveal tells them to everyone).
    if (auto fair = load_fair_secrets(store.db(), game_id);
        fair && record.status != GameStatus::kFinished) {
      for (const std::string& hex :
           {protocol::fair::to_hex(fair->secret), protocol::fair::to_hex(fair->salt)}) {
        std::string upper = hex;
        for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        secrets_.insert(hex);
        secrets_.insert(upper);
      }
      ++fair_secrets_checked;
    }
    // Fair play: a seat's contribution reaches nobody over the WebSocket, at no time (not the
    // other seats, who could choose theirs knowing it, not a spectator), nor the log.
    for (const SeatRecord& seat : record.seats) {
      if (seat.contribution.empty()) continue;
      std::string upper = seat.contribution;
      for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      secrets_.insert(seat.contribution);
      secrets_.insert(upper);
      ++contributions_checked;
    }
    auto remember = [&](const GameState& st) {
      states_.push_back(st);
      for (std::uint64_t w : st.rng.words()) {
        auto more = secret_spellings(w);
        secrets_.insert(more.begin(), more.end());
      }
    };
    remember(s);
    for (const ActionRecord& r : store.actions(game_id)) {
      std::vector<Event> events;
      EXPECT_FALSE(apply_in_place(s, r.action, &events));
      remember(s);
      actors_.push_back(r.action.player);
      events_.push_back(std::move(events));
    }
    fog_ = record.options.fog_of_war;
  }

  const std::set<std::string>& secrets() const { return secrets_; }
  int checked_hexes() const { return checked_hexes_; }
  int checked_views() const { return checked_views_; }
  int checked_deltas() const { return checked_deltas_; }
  int checked_messages() const { return checked_messages_; }
  std::map<std::string, int> event_counts;  // by kind; "tile_revealed/hidden" for filtered ones
  int fair_secrets_checked = 0;             // 1 when the game's secret and salt are looked for
  int contributions_checked = 0;            // the players' contributions looked for
  int checked_catch_ups = 0;                // game.since replies looked at
  int checked_orders = 0;                   // game.standing_orders answers looked at
  int fog_units_checked = 0;                // fog of war: units and unit events looked at for sight
  int fog_hidden_units = 0;                 // other players' units on the map a view left out

  // Before the messages one connection received: each connection gets the board once.
  void begin_history() { boards_in_history_ = 0; }
  // After them: a connection that was sent views of this game was sent its board exactly once.
  void end_history(const std::string& who) {
    if (views_in_history_ > 0) {
      EXPECT_EQ(boards_in_history_, 1) << who << ", game " << game_id_;
    }
    views_in_history_ = 0;
  }
  int checked_boards() const { return checked_boards_; }

  // The static board (game.board): only what never changes and is no secret, the same for
  // every receiver, before any view of the game on that connection.
  void check_board(const json& m, const std::string& raw) {
    ++boards_in_history_;
    ++checked_boards_;
    EXPECT_EQ(views_in_history_, 0) << "a view of game " << game_id_ << " came before its board";
    const json& board = m.at("board");
    if (first_board_.is_null()) first_board_ = board;
    EXPECT_EQ(board, first_board_) << "another board for another receiver, game " << game_id_;
    const Board& b = states_.front().board();
    ASSERT_EQ(board.at("hexes").size(), static_cast<std::size_t>(b.size()));
    for (const json& cell : board["hexes"]) {
      EXPECT_EQ(cell.size(), 5u) << "more than hex, q, r, label, perimeter: " << cell.dump();
      EXPECT_FALSE(cell.contains("terrain")) << cell.dump();
      const int hex = cell.at("hex");
      EXPECT_EQ(cell.at("label"), b.label(hex));
    }
    // No terrain word anywhere in it: not of a face-down hex, not of a face-up one.
    for (const char* terrain : {"water", "plains", "grassland", "forest", "mountain"}) {
      EXPECT_EQ(raw.find(terrain), std::string::npos) << terrain << " in the board";
    }
  }

  // Checks one received message of this game for `viewer`.
  void check(const json& m, int viewer, const std::string& raw = "") {
    if (m.value("game_id", std::int64_t{-1}) != game_id_) return;
    if (m.value("type", "") == "game.board") {
      check_board(m, raw);
      return;
    }
    if (m.contains("view")) ++views_in_history_;
    if (m.value("type", "") == "game.standing_orders") {
      // A seat's standing orders are his own business: sent to him alone.
      ++checked_orders;
      EXPECT_EQ(m.value("seat", -2), viewer) << "another seat's standing orders: " << m.dump();
      return;
    }
    if (m.value("type", "") == "game.since") {
      // A catch-up: each step is checked like the live update of that seq.
      ++checked_catch_ups;
      // Games without a clock: no clock lines. Each step names who acted (public: the live
      // updates show whose turn and decision it was), and every action here was a player's.
      EXPECT_EQ(m.value("clock", json()), json::array()) << m.dump();
      for (const json& step : m["steps"]) {
        const int seq = step["seq"];
        ASSERT_TRUE(seq >= 1 && seq <= static_cast<int>(actors_.size()));
        EXPECT_EQ(step["player"], actors_[static_cast<std::size_t>(seq - 1)]);
        EXPECT_FALSE(step.contains("by")) << step.dump();
        EXPECT_EQ(step.size(), 4u) << "more than seq, player, events, log: " << step.dump();
        check(json{{"game_id", game_id_},
                   {"seq", step["seq"]},
                   {"events", step["events"]},
                   {"log", step["log"]}},
              viewer);
      }
      return;
    }
    if (!m.contains("seq")) return;
    const int seq = m["seq"];
    ASSERT_GE(seq, 0);
    ASSERT_LT(seq, static_cast<int>(states_.size()));
    const GameState& at = states_[static_cast<std::size_t>(seq)];
    // Byte by byte: a whole view is exactly the engine's view of this viewer at that seq, and a
    // delta exactly the change between his views at seq - 1 and seq, so neither can carry
    // anything else. The hexes they carry are then checked against the state itself.
    if (m.contains("view")) {
      ++checked_views_;
      EXPECT_EQ(m["view"], protocol::view_to_json(view_for(at, viewer)))
          << "a view that is not the viewer's own, seq " << seq << " viewer " << viewer;
    }
    if (m.contains("delta")) {
      ASSERT_GE(seq, 1);
      ++checked_deltas_;
      const GameState& before = states_[static_cast<std::size_t>(seq - 1)];
      EXPECT_EQ(m["delta"],
                protocol::view_delta_to_json(view_for(before, viewer), view_for(at, viewer)))
          << "a delta that is not the change of the viewer's own view, seq " << seq << " viewer "
          << viewer;
    }
    if (fog_) check_fog(m, viewer, seq);
    for (const char* part : {"view", "delta"}) {
      if (!m.contains(part) || !m[part].contains("hexes")) continue;
      for (const json& h : m[part]["hexes"]) {
        const int hex = h["hex"];
        const bool knows = viewer_knows(at, viewer, hex);
        EXPECT_EQ(h["known"].get<bool>(), knows) << "hex " << hex << " viewer " << viewer;
        if (h.contains("terrain")) {
          ++checked_hexes_;
          EXPECT_TRUE(knows) << "terrain of unknown hex " << hex << " sent to viewer " << viewer;
          EXPECT_EQ(h["terrain"], std::string(to_string(at.hexes[hex].terrain)));
        }
      }
    }
    if (m.contains("events")) {
      for (const json& e : m["events"]) {
        const std::string kind = e.value("kind", "");
        ++event_counts[kind == "tile_revealed" && !e.contains("terrain") ? kind + "/hidden" : kind];
        if (e.contains("terrain") && e.contains("hex")) {
          EXPECT_TRUE(viewer_knows(at, viewer, e["hex"]))
              << "event names the terrain of an unknown hex: " << e.dump();
        }
      }
    }
    if (m.contains("log")) {
      static const std::regex terrain_at(
          "(Water|Plains|Grassland|Forest|Mountain) (?:hex |City at |Town at |at )([A-Z]+[0-9]+)");
      for (const json& line : m["log"]) {
        const std::string text = line["text"];
        // The hexes a line carries are the ones its text names, nothing more.
        for (const json& hex : line.value("hexes", json::array())) {
          ASSERT_TRUE(hex.is_number_integer() && hex >= 0 && hex < int(at.hexes.size()));
          EXPECT_NE(text.find(at.board().label(hex)), std::string::npos)
              << "a log line carries a hex it does not name: " << line.dump();
        }
        for (std::sregex_iterator it(text.begin(), text.end(), terrain_at), end; it != end; ++it) {
          const int hex = at.board().from_label((*it)[2]);
          EXPECT_TRUE(hex >= 0 && viewer_knows(at, viewer, hex))
              << "log line names unknown terrain: " << text;
        }
        // The line's message (each reader's language words it) holds what the text says and
        // nothing more: it is the text, written in English, and each of its parameters shows
        // in it; so the checks of the text above cover the message too.
        ASSERT_TRUE(line.contains("msg")) << line.dump();
        ++checked_messages_;
        EXPECT_EQ(english(line["msg"]), text) << line.dump();
        check_message(line["msg"], line.dump());
      }
    }
  }

  // Fog of war: a unit is named, counted or hinted to a viewer only while in his sight or in
  // a Battle he takes part in. The whole view must not change when every unit outside his
  // sight is taken away (engine/sight.h seen_world); the views' and deltas' units stand in his
  // sight; the events are exactly the engine's filtered ones for him at that seq, and each
  // unit they name (not his own) is in his view at that seq or the one before (seen leaving).
  void check_fog(const json& m, int viewer, int seq) {
    const GameState& at = states_[static_cast<std::size_t>(seq)];
    if (at.phase == Phase::kGameOver) return;  // then everything is shown
    const std::vector<bool> seen = sight_of(at, viewer);
    const GameView view = view_for(at, viewer);
    if ((m.contains("view") || m.contains("delta")) && viewer >= 0 &&
        at.players[static_cast<std::size_t>(viewer)].in_game()) {
      EXPECT_EQ(view, view_for(seen_world(at, viewer), viewer))
          << "the view depends on units outside his sight, seq " << seq << " viewer " << viewer;
      for (const Unit& u : at.units) {
        if (u.owner != viewer && u.place == UnitPlace::kMap &&
            !seen[static_cast<std::size_t>(u.hex)]) {
          ++fog_hidden_units;
        }
      }
    }
    for (const char* part : {"view", "delta"}) {
      if (!m.contains(part) || !m[part].contains("units")) continue;
      for (const json& u : m[part]["units"]) {
        ++fog_units_checked;
        if (u["owner"] == viewer || u["place"] != "map") continue;
        EXPECT_TRUE(seen[u["hex"].get<std::size_t>()])
            << "a unit outside his sight, seq " << seq << " viewer " << viewer << ": " << u.dump();
      }
    }
    if (!m.contains("events") || seq < 1) return;
    const auto mine = filter_events_for(at, events_[static_cast<std::size_t>(seq - 1)], viewer);
    json expected = json::array();
    for (const Event& e : mine) expected.push_back(protocol::event_to_json(e));
    EXPECT_EQ(m["events"], expected) << "events not filtered for him, seq " << seq;
    const GameView before = view_for(states_[static_cast<std::size_t>(seq - 1)], viewer);
    auto in_view = [](const GameView& v, int id) {
      return std::any_of(v.units.begin(), v.units.end(),
                         [&](const UnitView& u) { return u.id == id; });
    };
    for (const Event& e : mine) {
      if (viewer >= 0 && e.player == viewer) continue;
      for (int id : {e.unit, e.other_unit}) {
        if (id < 0 || e.kind == EventKind::kUnitGained) continue;  // the Reserve is public
        ++fog_units_checked;
        EXPECT_TRUE(in_view(view, id) || in_view(before, id))
            << "an event names a unit he does not see, seq " << seq << " viewer " << viewer << ": "
            << protocol::event_to_json(e).dump();
      }
    }
  }

  // Each parameter of a message (and of the messages among them) is written in its English
  // text: replaced by a marker, the marker shows. Only {count}, the number a plural form is
  // chosen by, may be left unwritten ("Game over: Red and Blue win.").
  void check_message(const json& msg, const std::string& line) {
    ASSERT_TRUE(msg.is_object() && msg.contains("key") && msg["key"].is_string()) << line;
    const json params = msg.value("params", json::object());
    for (const auto& [name, value] : params.items()) {
      if (value.is_object() && !value.contains("time")) check_message(value, line);
      if (name == "count") {
        EXPECT_TRUE(value.is_number_integer()) << line;
        continue;
      }
      json marked = msg;
      marked["params"][name] = "\x01";
      EXPECT_NE(english(marked).find('\x01'), std::string::npos)
          << "a parameter the text does not show: " << name << " in " << line;
    }
  }

 private:
  std::int64_t game_id_;
  std::vector<GameState> states_;
  std::vector<int> actors_;                 // the seat of each stored action, by seq - 1
  std::vector<std::vector<Event>> events_;  // the unfiltered events of each action, by seq - 1
  bool fog_ = false;
  std::set<std::string> secrets_;
  int checked_hexes_ = 0;
  int checked_views_ = 0;
  int checked_deltas_ = 0;
  int checked_messages_ = 0;
  int checked_boards_ = 0;
  int boards_in_history_ = 0;
  int views_in_history_ = 0;
  json first_board_;
};

TEST(Leak, NoHiddenTerrainSeedOrGeneratorStateReachesAnyClient) {
  TempDir dir;
  const std::string db = dir.file("leak.db");
  auto server = std::make_unique<ServerProcess>(db, dir.path().string());
  std::mt19937 rng(77);

  // Two of the games also play the optional rules that bring choices and hidden draws of their
  // own (Exploration Balancing's land tile, Luck Averaging, Subjugation, Relocation).
  const json with_rules_shared = {{"exploration_balancing", true},
                                  {"luck_averaging", true},
                                  {"town_relocation", true},
                                  {"victory", {"standard", "subjugation"}}};
  const json with_rules_independent = {{"luck_averaging", true},
                                       {"subjugation", true},
                                       {"terrain_leveling", true},
                                       {"victory", {"race", "doomsday"}}};
  // Fog of war (engine/sight.h) with every optional rule [15.1-15.6] among three games and
  // every City sight.
  json fog_shared = with_rules_shared;
  fog_shared["fog_of_war"] = true;
  fog_shared["fog_city_sight"] = 1;
  fog_shared["terrain_leveling"] = true;
  json fog_independent = with_rules_independent;
  fog_independent["fog_of_war"] = true;
  fog_independent["fog_city_sight"] = 3;
  fog_independent["town_relocation"] = true;
  const json fog_face_up = {
      {"fog_of_war", true}, {"no_exploration", true}, {"luck_averaging", true}};
  const std::vector<GamePlan> plans = {{2, false, "standard"},
                                       {2, true, "standard"},
                                       {3, true, "islands", with_rules_independent},
                                       {4, true, "land_rich"},
                                       {3, false, "standard", with_rules_shared},
                                       {2, true, "islands"},
                                       {6, true, "standard"},
                                       {5, false, "land_rich"},
                                       {3, false, "standard", fog_shared},
                                       {4, true, "land_rich", fog_independent},
                                       {2, false, "islands", fog_face_up}};
  const int max_actions = 150;
  constexpr int kAccounts = 6;

  std::vector<Client> everyone(kAccounts);
  const char* names[] = {"Ann", "Ben", "Cid", "Dee", "Eli", "Fay"};
  for (int i = 0; i < kAccounts; ++i) {
    everyone[i].account = sign_up(server->port(), names[i]);
    everyone[i].ws = std::make_unique<WsClient>();
    everyone[i].ws->connect(server->port());
    sign_in(*everyone[i].ws, everyone[i].account);
  }
  Client spectator;
  spectator.account = sign_up(server->port(), "Spectator");
  spectator.ws = std::make_unique<WsClient>();
  spectator.ws->connect(server->port());
  sign_in(*spectator.ws, spectator.account);

  struct Played {
    std::int64_t id;
    std::vector<int> clients;  // indexes into `everyone`, by seat
  };
  std::vector<Played> played;
  SideRequests side;
  for (const GamePlan& plan : plans) {
    std::vector<Client> seated;
    std::vector<int> indexes;
    // Rotate who sits where so every client plays several seats.
    for (int s = 0; s < plan.players; ++s) {
      const int idx = (s + static_cast<int>(played.size())) % kAccounts;
      indexes.push_back(idx);
      seated.push_back(Client{everyone[idx].account, std::move(everyone[idx].ws), s});
    }
    const std::int64_t id = play_random_game(seated, spectator, plan, max_actions, rng, side);
    for (std::size_t s = 0; s < seated.size(); ++s) {
      everyone[indexes[s]].ws = std::move(seated[s].ws);
    }
    played.push_back(Played{id, indexes});
  }
  // The players' records (player_records.h): profiles (with the games under way), the lists
  // of finished games and the ladders, as each player and as a stranger; scanned below.
  std::vector<std::pair<std::string, std::string>> record_answers;
  const auto records_get = [&](const std::string& target, const std::string& token) {
    HttpReply reply;
    for (int attempt = 0; attempt < 100; ++attempt) {  // a 429 is asked again a little later
      reply = http_request(server->port(), "GET", target, "", token);
      if (reply.status != 429) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_EQ(reply.status, 200) << target << ": " << reply.body;
    record_answers.emplace_back(target, reply.body);
  };
  for (const Client& asker : everyone) {
    for (const Client& owner : everyone) {
      records_get("/api/players/" + owner.account.player_id, asker.account.token);
      records_get("/api/finished?player=" + owner.account.player_id, asker.account.token);
    }
  }
  for (const char* target : {"/api/finished", "/api/ladder?players=2", "/api/ladder?players=3"}) {
    records_get(target, "");
  }
  for (Client& c : everyone) c.ws->close();
  spectator.ws->close();
  ASSERT_EQ(server->terminate(), 0);
  const std::string server_log = server->log();

  Store store(db);
  int messages = 0, hexes = 0, fair_games = 0, views = 0, deltas = 0, boards = 0, log_msgs = 0;
  int fog_units = 0, fog_hidden = 0, contributions = 0;
  std::map<std::string, int> events;
  std::set<std::string> all_secrets;
  for (const Played& game : played) {
    LeakCheck check(store, game.id);
    all_secrets.insert(check.secrets().begin(), check.secrets().end());
    for (std::size_t seat = 0; seat < game.clients.size(); ++seat) {
      check.begin_history();
      for (const std::string& raw : everyone[game.clients[seat]].ws->history()) {
        check.check(json::parse(raw), static_cast<int>(seat), raw);
        ++messages;
      }
      check.end_history("seat " + std::to_string(seat));
    }
    check.begin_history();
    for (const std::string& raw : spectator.ws->history()) {
      check.check(json::parse(raw), kSpectator, raw);
      ++messages;
    }
    check.end_history("the spectator");
    // Every seat and the spectator got the board (and, checked above, the same one).
    EXPECT_EQ(check.checked_boards(), int(game.clients.size()) + 1) << "game " << game.id;
    boards += check.checked_boards();
    EXPECT_EQ(check.checked_catch_ups, int(game.clients.size())) << "game " << game.id;
    EXPECT_EQ(check.checked_orders, int(game.clients.size())) << "game " << game.id;
    hexes += check.checked_hexes();
    fair_games += check.fair_secrets_checked;
    contributions += check.contributions_checked;
    views += check.checked_views();
    deltas += check.checked_deltas();
    log_msgs += check.checked_messages();
    for (auto& [kind, n] : check.event_counts) events[kind] += n;
    fog_units += check.fog_units_checked;
    fog_hidden += check.fog_hidden_units;
    EXPECT_GT(store.game(game.id)->seq, 10) << "game " << game.id << " barely moved";
  }
  EXPECT_GT(hexes, 1000) << "the check looked at too little";
  EXPECT_GE(fair_games, 4) << "too few running games to look for their fair-play secrets";
  EXPECT_GE(contributions, 8) << "too few players' contributions looked for";
  // Live updates travel as deltas; whole views only in the full states.
  EXPECT_GT(deltas, 1000) << "the deltas were not checked";
  EXPECT_GT(views, 10) << "the full states were not checked";
  EXPECT_GT(log_msgs, 1000) << "too few log lines' messages checked";
  // The filter was exercised both ways: reveals with terrain for those who know the hex, and
  // reveals without it for those who do not (independent exploration).
  EXPECT_GT(events["tile_revealed"], 0);
  EXPECT_GT(events["tile_revealed/hidden"], 0);
  // The position-computed answers were asked for and are part of the byte scan below.
  EXPECT_GT(side.reach_answers, 5) << "too few game.reach answers";
  EXPECT_GT(side.previews, 5) << "too few game.preview_battle answers";
  // Fog of war: units and unit events were looked at, and views did leave units out.
  // Random games: about 1,200 on most runs, 980 on one run in 40; half that still checks a lot.
  EXPECT_GT(fog_units, 500) << "too few units checked against the receivers' sight";
  EXPECT_GT(fog_hidden, 100) << "the fog games hid too few units to test anything";

  // Not a single received byte spells the seed or a generator word. Every substring of every
  // run of letters, digits and '-' with a secret's length is looked up (fast, and exhaustive:
  // a secret's spelling is such a run or lies inside one).
  const std::unordered_set<std::string> secret_set(all_secrets.begin(), all_secrets.end());
  std::set<std::size_t> lengths;
  for (const std::string& secret : all_secrets) lengths.insert(secret.size());
  auto spells_a_secret = [&](const std::string& raw) {
    std::size_t i = 0;
    while (i < raw.size()) {
      auto in_run = [&](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-'; };
      if (!in_run(raw[i])) {
        ++i;
        continue;
      }
      std::size_t end = i;
      while (end < raw.size() && in_run(raw[end])) ++end;
      for (std::size_t len : lengths) {
        for (std::size_t at = i; at + len <= end; ++at) {
          if (secret_set.count(raw.substr(at, len))) return true;
        }
      }
      i = end;
    }
    return false;
  };
  ASSERT_TRUE(spells_a_secret("x\"" + *all_secrets.begin() + "\"")) << "the scan must work";
  std::vector<const WsClient*> clients;
  for (const Client& c : everyone) clients.push_back(c.ws.get());
  clients.push_back(spectator.ws.get());
  for (const WsClient* c : clients) {
    for (const std::string& raw : c->history()) {
      ASSERT_FALSE(spells_a_secret(raw)) << "a secret reached a client";
    }
  }
  // The players' records fetched above (profiles with the games under way, lists of
  // finished games, ladders) spell no secret either.
  for (const auto& [target, body] : record_answers) {
    ASSERT_FALSE(spells_a_secret(body)) << "a secret reached " << target;
  }
  for (const std::string& secret : all_secrets) {
    EXPECT_EQ(server_log.find(secret), std::string::npos) << "a secret reached the log";
  }
  for (const Client& c : everyone) {
    EXPECT_EQ(server_log.find(c.account.token), std::string::npos) << "a token reached the log";
  }
  std::cout << "leak check: " << played.size() << " games, " << messages << " messages, " << hexes
            << " known hexes checked, " << views << " views and " << deltas
            << " deltas compared with the viewer's own, " << boards << " boards, "
            << side.reach_answers << " reach answers, " << side.previews << " battle previews, "
            << fog_units << " units checked against fog of war sight, " << fog_hidden
            << " units hidden by it\n";
  for (auto& [kind, n] : events) std::cout << "  events " << kind << ": " << n << "\n";
}

// The guided first game (server/games/tutorial.h) starts from a scenario that holds every secret of
// the game (face-down tiles, scripted dice): its player gets his own view only. He plays random
// legal actions against the passive computer; every byte he receives is checked as above.
TEST(Leak, AGuidedGameSendsThePlayerHisViewOnly) {
  TempDir dir;
  const std::string db = dir.file("leak.db");
  auto server = std::make_unique<ServerProcess>(db, dir.path().string());
  const Account ada = sign_up(server->port(), "Ada");
  WsClient ws;
  ws.connect(server->port());
  sign_in(ws, ada);
  std::mt19937 rng(21);
  std::vector<std::int64_t> games;
  for (int round = 0; round < 6; ++round) {
    ws.send(json{{"type", "tutorial.start"}, {"restart", true}});
    const std::int64_t id = ws.wait_type("tutorial.started")["game_id"];
    games.push_back(id);
    ws.send(json{{"type", "game.watch"}, {"game_id", id}});
    Seen me;
    int sent_for = -1;
    for (int guard = 0; guard < 4000; ++guard) {
      std::optional<json> m = ws.receive(std::chrono::seconds(20));
      ASSERT_TRUE(m) << "the guided game stalled at seq " << me.seq;
      ASSERT_NE((*m)["type"], "error") << m->dump();
      if (!me.absorb(*m) || me.view["phase"] == "game_over" || me.seq >= 120) {
        if (me.seq >= 120 || (me.view.is_object() && me.view["phase"] == "game_over")) break;
        continue;
      }
      if (me.view["decider"] != 0 || sent_for == me.seq) continue;
      std::vector<json> choices;
      for (const json& a : me.legal) {
        if (a["kind"] != "concede") choices.push_back(a);
      }
      ASSERT_FALSE(choices.empty());
      const json pick =
          choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(rng)];
      ws.send(json{{"type", "game.action"}, {"game_id", id}, {"seq", me.seq}, {"action", pick}});
      sent_for = me.seq;
    }
    ws.send(json{{"type", "game.unwatch"}, {"game_id", id}});
  }
  ws.close();
  ASSERT_EQ(server->terminate(), 0);
  const std::string server_log = server->log();
  Store store(db);
  int hexes = 0, views = 0, deltas = 0;
  std::set<std::string> secrets;
  for (const std::int64_t id : games) {
    LeakCheck check(store, id);
    check.begin_history();
    for (const std::string& raw : ws.history()) check.check(json::parse(raw), 0, raw);
    check.end_history("the guided game's player");
    hexes += check.checked_hexes();
    views += check.checked_views();
    deltas += check.checked_deltas();
    secrets.insert(check.secrets().begin(), check.secrets().end());
    EXPECT_GT(store.game(id)->seq, 3) << "game " << id << " barely moved";
  }
  EXPECT_GT(hexes, 100) << "the check looked at too little";
  EXPECT_GE(views, int(games.size()));
  EXPECT_GT(deltas, 50);
  // The scenario's generator words and the stored seed never reach him nor the log.
  for (const std::string& raw : ws.history()) {
    for (const std::string& secret : secrets) {
      if (secret.size() < 8) continue;  // short decimal spellings of small words: not secrets
      ASSERT_EQ(raw.find(secret), std::string::npos) << "a secret reached the player";
    }
  }
  for (const std::string& secret : secrets) {
    if (secret.size() < 8) continue;
    EXPECT_EQ(server_log.find(secret), std::string::npos) << "a secret reached the log";
  }
}

}  // namespace
}  // namespace viktory::server::testing
