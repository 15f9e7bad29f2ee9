// viktory-record-sample: writes the game record of a finished random game (and, with
// --witness, what one seat's client saw) for the browser tests of the WebAssembly verifier.
//
//   viktory-record-sample SEED PLAYERS RECORD.json [--witness SEAT WITNESS.json]
#include <fstream>
#include <iostream>
#include <string>

#include "record_fixture.h"

int main(int argc, char** argv) {
  using namespace viktory;
  if (argc != 4 && argc != 7) {
    std::cerr << "usage: viktory-record-sample SEED PLAYERS RECORD.json [--witness SEAT FILE]\n";
    return 2;
  }
  Options options;
  options.players = std::stoi(argv[2]);
  const auto game = record_testing::play_recorded_game(std::stoull(argv[1]), options);
  std::ofstream(argv[3]) << protocol::record_to_json(game.record).dump() << '\n';
  if (argc == 7) {
    const auto seat = static_cast<std::size_t>(std::stoi(argv[5]));
    std::ofstream(argv[6]) << protocol::witness_to_json(game.witnesses.at(seat)).dump() << '\n';
  }
  return 0;
}
