// Replay pages are written as text (Replays::build_page: the views and deltas by the one view
// writer, protocol/view_text.h, spliced in). Here each page of a few random stored games, for
// every seat and the spectator, is held byte for byte to the page as one nlohmann tree, made
// here from the seed and the stored actions alone: the view and the deltas parsed from their
// text, the board, actions, events and log lines as their tree forms, all dumped at once as the
// server dumps (error_handler_t::replace). nlohmann sorts keys, so this also holds every
// object's keys (the page's, the steps', and those of every view part) to byte order, without
// duplicates, and each spliced part to whole values.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "../engine/random_play.h"
#include "board.h"
#include "game.h"
#include "json.h"
#include "log_text.h"
#include "replay.h"
#include "store.h"
#include "support/stored_games.h"
#include "test_support.h"
#include "view.h"
#include "view_delta.h"

namespace viktory::server {
namespace {

using nlohmann::json;
using testing::TempDir;

constexpr int kSnapshotEvery = 50;  // as the server stores them

std::string dumped(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// The page as one tree. `states[s]` is the position after action s.
std::string page_as_one_tree(const GameRecord& record, const std::vector<GameState>& states,
                             const std::vector<ActionRecord>& actions, int viewer, int from,
                             int to) {
  GameView before = view_for(states[static_cast<std::size_t>(from)], viewer);
  json steps = json::array();
  for (int seq = from + 1; seq <= to; ++seq) {
    GameState at = states[static_cast<std::size_t>(seq - 1)];
    std::vector<Event> events;
    EXPECT_FALSE(apply_in_place(at, actions[static_cast<std::size_t>(seq - 1)].action, &events));
    const std::vector<Event> mine = filter_events_for(at, events, viewer);
    json log = json::array();
    append_log_json(log, seq, at, mine, viewer);
    GameView after = view_for(at, viewer);
    steps.push_back(json{{"seq", seq},
                         {"action", protocol::action_to_json(actions[seq - 1].action)},
                         {"events", protocol::events_to_json(mine)},
                         {"log", std::move(log)},
                         {"delta", protocol::view_delta_to_json(before, after)}});
    before = std::move(after);
  }
  const GameView first = view_for(states[static_cast<std::size_t>(from)], viewer);
  return dumped(json{{"game_id", record.id},
                     {"viewer", viewer >= 0 ? json(viewer) : json(nullptr)},
                     {"last_seq", record.seq},
                     {"from", from},
                     {"to", to},
                     {"view", protocol::view_to_json(first)},
                     {"board", protocol::board_to_json(first)},
                     {"steps", std::move(steps)}});
}

struct Case {
  int players;
  bool independent_exploration;
  bool subjugation;
  std::uint64_t seed;
};

class ReplayText : public ::testing::TestWithParam<Case> {};

TEST_P(ReplayText, EveryPageForEveryViewerIsThePageAsOneTreeByteForByte) {
  const Case c = GetParam();
  TempDir dir;
  Store store(dir.file("replays.db"));
  Options options;
  options.players = c.players;
  options.independent_exploration = c.independent_exploration;
  options.subjugation = c.subjugation;
  const GameRecord record =
      viktory::test::store_random_game(store, options, c.seed, 400, kSnapshotEvery);
  const std::vector<ActionRecord> actions = store.actions(record.id);
  ASSERT_EQ(static_cast<int>(actions.size()), record.seq);
  std::vector<GameState> states{new_game(record.options, record.seed, record.random_scheme)};
  for (const ActionRecord& r : actions) {
    states.push_back(states.back());
    ASSERT_FALSE(apply_in_place(states.back(), r.action));
  }
  std::vector<int> viewers{kSpectator};
  for (int p = 0; p < c.players; ++p) viewers.push_back(p);
  int pages = 0;
  for (int viewer : viewers) {
    // Pages of 60 steps: their first views fall before and after snapshots (every 50).
    for (int from = 0; from < record.seq; from += 60) {
      const int to = std::min(from + 60, record.seq);
      const std::string page = Replays::build_page(store, record, viewer, from, to);
      ASSERT_EQ(page, page_as_one_tree(record, states, actions, viewer, from, to))
          << "seed " << c.seed << " viewer " << viewer << " from " << from;
      ++pages;
    }
    // An empty page (from == to) too.
    ASSERT_EQ(Replays::build_page(store, record, viewer, record.seq, record.seq),
              page_as_one_tree(record, states, actions, viewer, record.seq, record.seq));
  }
  EXPECT_GE(pages, static_cast<int>(viewers.size()));
}

INSTANTIATE_TEST_SUITE_P(RandomGames, ReplayText,
                         ::testing::Values(Case{2, false, false, 11}, Case{3, true, false, 23},
                                           Case{4, false, true, 37}, Case{6, true, true, 41}));

}  // namespace
}  // namespace viktory::server
