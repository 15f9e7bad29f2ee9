// viktory-record-sample: writes the game record of a finished random game for the browser
// tests of the WebAssembly verifier; with --witness, what one seat's client saw (the witness
// the C++ side builds), and with --updates, the {seq, events} of every action as that seat's
// game.update messages carry them (events filtered for him), for the client's witness.js.
//
//   viktory-record-sample SEED PLAYERS RECORD.json [--witness SEAT WITNESS.json UPDATES.json]
#include <fstream>
#include <iostream>
#include <string>

#include "record_fixture.h"

int main(int argc, char** argv) {
  using namespace viktory;
  if (argc != 4 && argc != 8) {
    std::cerr << "usage: viktory-record-sample SEED PLAYERS RECORD.json "
                 "[--witness SEAT WITNESS.json UPDATES.json]\n";
    return 2;
  }
  Options options;
  options.players = std::stoi(argv[2]);
  const auto game = record_testing::play_recorded_game(std::stoull(argv[1]), options);
  std::ofstream(argv[3]) << protocol::record_to_json(game.record).dump() << '\n';
  if (argc == 8) {
    const int seat = std::stoi(argv[5]);
    std::ofstream(argv[6])
        << protocol::witness_to_json(game.witnesses.at(static_cast<std::size_t>(seat))).dump()
        << '\n';
    // Replay to get each action's events as the server would send them to this seat.
    GameState state =
        new_game(game.record.options, *protocol::record_seed(game.record), game.record.scheme);
    nlohmann::json updates = nlohmann::json::array();
    for (std::size_t i = 0; i < game.actions.size(); ++i) {
      std::vector<Event> events;
      apply_in_place(state, game.actions[i], &events);
      updates.push_back(
          {{"type", "game.update"},
           {"seq", i + 1},
           {"events", protocol::events_to_json(filter_events_for(state, events, seat))}});
    }
    std::ofstream(argv[7]) << updates.dump() << '\n';
  }
  return 0;
}
