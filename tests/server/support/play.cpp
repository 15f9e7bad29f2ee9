#include "support/play.h"

#include <stdexcept>

#include "view_delta.h"

namespace viktory::server::testing {

using nlohmann::json;

Account sign_up(int port, const std::string& name) {
  const HttpReply reply = http_request(port, "POST", "/api/session", json{{"name", name}}.dump());
  if (reply.status != 200) throw std::runtime_error("sign up failed: " + reply.body);
  const json j = reply.json();
  return Account{j.at("player_id"), j.at("name"), j.at("token")};
}

void sign_in(WsClient& ws, const Account& account) {
  ws.send(json{{"type", "auth"}, {"token", account.token}});
  const json welcome = ws.wait_type("welcome");
  if (welcome.at("player_id") != account.player_id) throw std::runtime_error("wrong player");
}

bool Seen::absorb(const json& m) {
  const std::string type = m.value("type", "");
  if (type != "game.state" && type != "game.update") return false;
  if (type == "game.update" && m.contains("delta")) {
    // A live update carries the change from the view of the seq before (docs/protocol.md).
    if (m.at("seq") != seq + 1) throw std::runtime_error("a delta after a gap: " + m.dump());
    view = protocol::apply_view_delta(std::move(view), m.at("delta"));
  } else {
    view = m.at("view");
  }
  seq = m.at("seq");
  legal = m.at("legal");
  can_undo = m.at("can_undo");
  if (type == "game.state") seat = m.at("you").at("seat").is_null() ? -1 : int(m["you"]["seat"]);
  return true;
}

std::int64_t start_game(const std::vector<WsClient*>& clients, std::vector<Seen>& seen,
                        json fields) {
  json create{{"type", "game.create"}, {"seats", clients.size()}, {"req", 1}};
  for (auto& [k, v] : fields.items()) create[k] = v;
  clients[0]->send(create);
  const json created = clients[0]->wait_type("game.created");
  const std::int64_t game_id = created.at("game_id");
  clients[0]->wait_type("ack");
  for (std::size_t i = 1; i < clients.size(); ++i) {
    json join{{"type", "game.join"}, {"game_id", game_id}, {"seat", i}};  // seat == index
    if (created.contains("invite")) join["invite"] = created["invite"];
    clients[i]->send(join);
  }
  seen.assign(clients.size(), Seen{});
  for (std::size_t i = 0; i < clients.size(); ++i) {
    const json state = clients[i]->wait_type("game.state");
    seen[i].absorb(state);
  }
  return game_id;
}

json act_and_wait(WsClient& actor, std::int64_t game_id, const json& action,
                  const std::vector<WsClient*>& watchers, std::vector<Seen>& seen,
                  std::size_t actor_index) {
  const int seq = seen[actor_index].seq;
  actor.send(json{{"type", "game.action"}, {"game_id", game_id}, {"seq", seq}, {"action", action}});
  json mine;
  for (std::size_t i = 0; i < watchers.size(); ++i) {
    const json update = watchers[i]->wait_for([&](const json& m) {
      if (m.value("type", "") == "error") {
        throw std::runtime_error("action refused: " + m.dump());
      }
      return m.value("type", "") == "game.update" && m.value("seq", -1) == seq + 1;
    });
    seen[i].absorb(update);
    if (i == actor_index) mine = update;
  }
  return mine;
}

void play_actions(const std::vector<WsClient*>& clients, std::vector<Seen>& seen,
                  std::int64_t game_id, int actions) {
  for (int i = 0; i < actions; ++i) {
    if (seen[0].view["phase"] == "game_over") return;
    const auto who = static_cast<std::size_t>(int(seen[0].view.at("decider")));
    json pick;
    for (const json& a : seen[who].legal) {
      if (a["kind"] != "concede") {
        pick = a;
        break;
      }
    }
    if (pick.is_null()) throw std::runtime_error("no legal action but a concession");
    act_and_wait(*clients[who], game_id, pick, clients, seen, who);
  }
}

}  // namespace viktory::server::testing
