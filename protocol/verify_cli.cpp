// viktory-verify: checks a game record (docs/fair-play.md) and prints the report.
//
// Exit status: 0 verified; 1 not verified (the reason on stdout); 2 unreadable: bad command
// line, a file that cannot be read, or not a well-formed record (the message on stderr).
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "game_record.h"
#include "verify.h"

namespace {

using namespace viktory::protocol;

constexpr int kExitVerified = 0;
constexpr int kExitNotVerified = 1;
constexpr int kExitUnreadable = 2;

constexpr const char* kUsage = R"(usage: viktory-verify [options] RECORD.json

Checks a VIKTORY II game record: the revealed secret against the commitment published at the
start, the players' contributions against theirs, and every die and tile against a replay of
the actions with the rules engine from the seed they give. See docs/fair-play.md.

options:
  --witness FILE  also compare with what a player's client saw live (a witness file)
  --json          print the report as JSON
  --help          show this text

exit status: 0 verified, 1 not verified, 2 unreadable record or bad command line
)";

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot open " + path);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw UsageError("cannot read " + path);
  return text.str();
}

}  // namespace

int main(int argc, char** argv) {
  std::optional<std::string> record_path;
  std::optional<std::string> witness_path;
  bool as_json = false;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--help" || arg == "-h") {
        std::cout << kUsage;
        return kExitVerified;
      }
      if (arg == "--json") {
        as_json = true;
      } else if (arg == "--witness") {
        if (i + 1 >= argc) throw UsageError("--witness needs a file");
        witness_path = argv[++i];
      } else if (arg.size() > 1 && arg[0] == '-') {
        throw UsageError("unknown option " + arg);
      } else if (record_path) {
        throw UsageError("only one record at a time");
      } else {
        record_path = arg;
      }
    }
    if (!record_path) throw UsageError("no record given");

    const GameRecord record = parse_record(read_file(*record_path));
    std::optional<Witness> witness;
    if (witness_path) witness = parse_witness(read_file(*witness_path));
    const VerifyReport report = verify_record(record, witness ? &*witness : nullptr);
    if (as_json) {
      std::cout << report_to_json(report).dump(2) << '\n';
    } else {
      for (const std::string& note : report.notes) std::cout << "note: " << note << '\n';
      std::cout << report.summary() << '\n';
    }
    return report.verified ? kExitVerified : kExitNotVerified;
  } catch (const UsageError& e) {
    std::cerr << "viktory-verify: " << e.what() << "\n\n" << kUsage;
    return kExitUnreadable;
  } catch (const std::exception& e) {
    std::cerr << "viktory-verify: unreadable: " << e.what() << '\n';
    return kExitUnreadable;
  }
}
