// Writes seed inputs for the action, state and scenario harnesses from real games: random
// games (fuzz_support.h) with several option sets, and from their positions
//   state/game-<g>-<k>.json     the snapshot form (state_to_json),
//   scenario/game-<g>-<k>.json  the "state" scenario form and the actions the game went on with,
//   action/<kind>.json          one legal action of each kind met, as a client sends it.
// A state is kept after 200 actions and the first time a battle, a bombard or an elimination
// is pending; a scenario only for the latter. Usage (docs/fuzzing.md):
//
//   build-fuzz/tests/fuzz/fuzz_corpus_maker tests/fuzz/corpus
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <string>

#include "fuzz_support.h"
#include "json.h"

using nlohmann::json;
using namespace viktory;

namespace {

void write(const std::string& path, const json& value) {
  std::ofstream out(path, std::ios::binary);
  out << value.dump();
  if (!out) throw std::runtime_error("cannot write " + path);
}

const char* situation(const GameState& s) {
  if (s.elimination) return "elimination";
  if (s.bombard) return "bombard";
  if (s.battle) return "battle";
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: fuzz_corpus_maker CORPUS_DIR (with state/, scenario/, action/)\n";
    return 2;
  }
  const std::string dir = argv[1];
  struct Game {
    Options options;
    std::uint64_t seed;
  };
  std::vector<Game> games;
  {
    Options two;
    games.push_back({two, 101});
    Options three;
    three.players = 3;
    three.tile_mix = TileMix::kIslands;
    three.independent_exploration = true;
    games.push_back({three, 202});
    Options four;
    four.players = 4;
    four.tile_mix = TileMix::kLandRich;
    four.victory = VictoryCondition::kRace;
    games.push_back({four, 303});
    Options six;
    six.players = 6;
    six.victory = VictoryCondition::kDoomsday;
    games.push_back({six, 404});
  }
  std::set<ActionKind> kinds_written;
  int written = 0;
  for (std::size_t g = 0; g < games.size(); ++g) {
    GameState state = new_game(games[g].options, games[g].seed);
    std::uint64_t chooser = games[g].seed;
    std::set<std::string> situations_kept;
    for (int step = 0; step <= 600 && state.phase != Phase::kGameOver; ++step) {
      const std::vector<Action> legal = legal_actions(state, decider(state));
      if (legal.size() < 2) break;
      for (const Action& a : legal) {
        if (kinds_written.insert(a.kind).second) {
          write(dir + "/action/real-" + std::string(to_string(a.kind)) + ".json",
                protocol::action_to_json(a));
        }
      }
      const char* now = situation(state);
      const bool pending = now && situations_kept.insert(now).second;
      const std::string name = "game-" + std::to_string(g) + "-" + std::to_string(step) + ".json";
      if (pending || step == 200) {
        write(dir + "/state/" + name, protocol::state_to_json(state));
        ++written;
      }
      if (pending) {
        // The scenario: this position and the actions the game went on with.
        GameState ahead = state;
        std::uint64_t peek = chooser;
        json actions = json::array();
        for (int i = 0; i < 3 && ahead.phase != Phase::kGameOver; ++i) {
          const std::vector<Action> next = legal_actions(ahead, decider(ahead));
          if (next.size() < 2) break;
          const Action& pick = next[fuzz::splitmix64(peek) % (next.size() - 1)];
          actions.push_back(protocol::action_to_json(pick));
          if (apply_in_place(ahead, pick)) break;
        }
        write(dir + "/scenario/" + name,
              json{{"description", "position " + std::to_string(step) + " of a random game"},
                   {"state", protocol::state_to_json(state)},
                   {"actions", actions}});
      }
      const Action& pick = legal[fuzz::splitmix64(chooser) % (legal.size() - 1)];
      if (auto error = apply_in_place(state, pick)) {
        std::cerr << "a legal action was refused: " << error->code << "\n";
        return 1;
      }
    }
  }
  std::cout << "wrote " << written << " positions and " << kinds_written.size()
            << " action kinds\n";
  return 0;
}
