#include "turn_summary.h"

#include <algorithm>
#include <map>

#include "catch_up.h"
#include "game_clock.h"
#include "stored_walk.h"
#include "view.h"

namespace viktory::server {

namespace {

using notify::Happening;

class Collector {
 public:
  Collector(const GameRecord& record, int viewer) : viewer_(viewer) {
    for (const SeatRecord& seat : record.seats) names_[seat.seat] = seat.name;
  }

  void add(const GameState& state, const Event& e) {
    switch (e.kind) {
      case EventKind::kBattleStarted:
        battles_[e.hex] = {e.player, e.other_player};
        break;
      case EventKind::kBattleEnded: {
        int winner = e.player;
        int loser = e.other_player;
        const auto fought = battles_.find(e.hex);
        if (winner == kNoPlayer && fought != battles_.end()) {  // the defender held
          winner = fought->second.second;
          loser = fought->second.first;
        }
        if (winner != kNoPlayer && loser != kNoPlayer) {
          push(Happening::Kind::battle, winner, loser, label(state, e.hex));
        }
        break;
      }
      case EventKind::kTownCaptured:
        push(e.value == 1 ? Happening::Kind::city_taken : Happening::Kind::town_taken, e.player,
             e.other_player, label(state, e.hex));
        break;
      case EventKind::kCapitalLost: {
        // The capture of a Capital is also a Town or City captured there: one line, not two.
        const std::string hex = label(state, e.hex);
        if (!out_.empty() && out_.back().hex == hex &&
            (out_.back().kind == Happening::Kind::town_taken ||
             out_.back().kind == Happening::Kind::city_taken)) {
          out_.pop_back();
        }
        push(Happening::Kind::capital_taken, e.other_player, e.player, hex);
        break;
      }
      case EventKind::kPlayerEliminated:
        push(Happening::Kind::eliminated, e.player, kNoPlayer, "");
        break;
      case EventKind::kPlayerConceded:
        push(Happening::Kind::conceded, e.player, kNoPlayer, "");
        break;
      default:
        break;
    }
  }
  std::vector<Happening> take() { return std::move(out_); }

 private:
  static std::string label(const GameState& state, int hex) {
    if (hex < 0 || hex >= static_cast<int>(state.hexes.size())) return "?";
    return state.board().label(hex);
  }
  std::string name(int seat) const {
    const auto it = names_.find(seat);
    return it == names_.end() ? "" : it->second;
  }
  void push(Happening::Kind kind, int actor, int other, std::string hex) {
    Happening h;
    h.kind = kind;
    h.actor = name(actor);
    h.other = other == kNoPlayer ? "" : name(other);
    h.hex = std::move(hex);
    h.actor_is_you = viewer_ != kSpectator && actor == viewer_;
    h.other_is_you = viewer_ != kSpectator && other != kNoPlayer && other == viewer_;
    out_.push_back(std::move(h));
  }

  int viewer_;
  std::map<int, std::string> names_;
  std::map<int, std::pair<int, int>> battles_;  // hex -> (attacker, defender)
  std::vector<Happening> out_;
};

}  // namespace

Summary summarize(Store& reader, const GameRecord& record, int viewer, int since, int until) {
  until = std::min(until, record.seq);
  const int from = std::max(std::clamp(since, 0, until), until - kMaxSummarySteps);
  StoredWalk walk(reader, record, from);
  Collector collector(record, viewer);
  while (walk.seq() < until) {
    std::vector<Event> events;
    walk.step(&events);
    // Exactly what this viewer's live update of the step carried.
    for (const Event& e : filter_events_for(walk.state(), events, viewer)) {
      collector.add(walk.state(), e);
    }
  }
  const GameState& state = walk.state();
  const int players = std::max(1, record.options.players);
  return Summary{collector.take(), state.turn <= 0 ? 0 : (state.turn - 1) / players + 1,
                 state.current};
}

int last_action_of(Store& reader, std::int64_t game_id, int seat) {
  return CatchUps::last_action_of(reader, game_id, seat);
}

std::optional<std::int64_t> clock_deadline(Store& reader, std::int64_t game_id, int seat) {
  Statement s = reader.db().cached("SELECT state FROM game_clocks WHERE game_id = ?");
  s.bind(1, game_id);
  if (!s.step()) return std::nullopt;
  try {
    const nlohmann::json j = nlohmann::json::parse(s.text(0));
    if (j.is_null()) return std::nullopt;
    const ClockState state = clock_state_from_json(j);
    if (state.seat != seat || state.deadline <= 0) return std::nullopt;
    return state.deadline;
  } catch (const std::exception&) {
    return std::nullopt;  // a damaged clock: no deadline in the message
  }
}

}  // namespace viktory::server
