// viktory-scenario: loads a scenario (docs/scenario-format.md), applies its actions and prints
// {"state", "view", "events", "results"} as JSON on stdout.
//
// Exit status: 0 every action was applied; 1 some action was refused or malformed; 2 the
// command line or the scenario itself is bad (message on stderr, nothing on stdout).
#include <charconv>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "board.h"
#include "game.h"
#include "json.h"
#include "json_detail.h"
#include "scenario.h"
#include "view.h"

namespace {

using nlohmann::json;
using namespace viktory;
using namespace viktory::protocol;

constexpr int kExitOk = 0;
constexpr int kExitActionRefused = 1;
constexpr int kExitBadInput = 2;

constexpr const char* kUsage = R"(usage: viktory-scenario [options] SCENARIO.json [ACTIONS.json]

Loads a game position from SCENARIO.json ("-" reads standard input), applies its "actions"
(or, when given, those of ACTIONS.json instead: an array of actions or an object with
"actions"), and prints {"state", "view", "events", "results"} as JSON.
See docs/scenario-format.md.

options:
  --view N|spectator  whose view to print: a player index or "spectator" (default)
  --seed S            seed for the generator, overriding the scenario's "seed"
  --stop-on-error     stop at the first refused action
  --compact           print the JSON on one line
  --help              show this text

exit status: 0 all actions applied, 1 an action was refused, 2 bad command line or scenario
)";

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Arguments {
  std::string scenario_path;
  std::optional<std::string> actions_path;
  std::optional<std::string> view;
  std::optional<std::uint64_t> seed;
  bool stop_on_error = false;
  bool compact = false;
  bool help = false;
};

std::uint64_t parse_seed(const std::string& text) {
  const auto value = protocol::detail::parse_u64(text);
  if (!value) {
    throw UsageError("--seed expects an unsigned 64-bit integer (decimal or 0x-hex), got \"" +
                     text + "\"");
  }
  return *value;
}

Arguments parse_arguments(int argc, char** argv) {
  Arguments args;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw UsageError(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      args.help = true;
    } else if (arg == "--view") {
      args.view = value();
    } else if (arg == "--seed") {
      args.seed = parse_seed(value());
    } else if (arg == "--stop-on-error") {
      args.stop_on_error = true;
    } else if (arg == "--compact") {
      args.compact = true;
    } else if (arg.size() > 1 && arg[0] == '-') {
      throw UsageError("unknown option " + arg);
    } else {
      files.push_back(arg);
    }
  }
  if (args.help) return args;
  if (files.empty()) throw UsageError("no scenario file given");
  if (files.size() > 2) throw UsageError("too many files: expected SCENARIO.json [ACTIONS.json]");
  args.scenario_path = files[0];
  if (files.size() == 2) args.actions_path = files[1];
  return args;
}

json read_json_file(const std::string& path) {
  std::string text;
  if (path == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UsageError("cannot open " + path);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    throw UsageError(path + ": not valid JSON: " + e.what());
  }
}

int parse_viewer(const std::optional<std::string>& text, const GameState& state) {
  if (!text || *text == "spectator") return kSpectator;
  int viewer = -1;
  const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), viewer);
  if (ec != std::errc() || end != text->data() + text->size() || viewer < 0 ||
      viewer >= state.options.players) {
    throw UsageError("--view expects a player index 0.." +
                     std::to_string(state.options.players - 1) + " or \"spectator\", got \"" +
                     *text + "\"");
  }
  return viewer;
}

json actions_from_file(const std::string& path) {
  json j = read_json_file(path);
  if (j.is_object() && j.contains("actions")) j = j["actions"];
  if (!j.is_array()) {
    throw UsageError(path + ": expected an array of actions or {\"actions\": [...]}");
  }
  return j;
}

int run(const Arguments& args) {
  Scenario scenario;
  try {
    scenario = scenario_from_json(read_json_file(args.scenario_path), args.seed);
  } catch (const JsonError& e) {
    throw UsageError(args.scenario_path + ": " + e.what());
  } catch (const std::invalid_argument& e) {  // new_game refusing the options
    throw UsageError(args.scenario_path + ": " + e.what());
  }
  const json actions = args.actions_path ? actions_from_file(*args.actions_path) : scenario.actions;
  const int viewer = parse_viewer(args.view, scenario.state);

  GameState& state = scenario.state;
  json all_events = json::array();
  json results = json::array();
  bool refused = false;
  for (std::size_t i = 0; i < actions.size(); ++i) {
    json result = json::object();
    Action action;
    try {
      action = scenario_action(actions[i], state, scenario.unit_names);
    } catch (const JsonError& e) {
      result["input"] = actions[i];
      result["ok"] = false;
      result["error"] = {{"code", "bad_action"}, {"message", e.what()}};
      results.push_back(result);
      refused = true;
      if (args.stop_on_error) break;
      continue;
    }
    result["action"] = action_to_json(action);
    std::vector<Event> events;
    if (auto error = apply_in_place(state, action, &events)) {
      result["ok"] = false;
      result["error"] = error_to_json(*error);
      refused = true;
    } else {
      result["ok"] = true;
      result["events"] = events_to_json(events);
      for (const Event& e : events) all_events.push_back(event_to_json(e));
    }
    results.push_back(result);
    if (refused && args.stop_on_error) break;
  }

  // The tool is read by people and scenario tests: its view keeps each hex's coordinates and
  // label in place (the server sends those once, as the board).
  const GameView view = view_for(state, viewer);
  const json out = {{"state", state_to_json(state)},
                    {"view", view_with_board(view_to_json(view), board_to_json(view))},
                    {"events", all_events},
                    {"results", results}};
  std::cout << out.dump(args.compact ? -1 : 2, ' ', false, json::error_handler_t::replace) << '\n';
  return refused ? kExitActionRefused : kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Arguments args = parse_arguments(argc, argv);
    if (args.help) {
      std::cout << kUsage;
      return kExitOk;
    }
    return run(args);
  } catch (const UsageError& e) {
    std::cerr << "viktory-scenario: " << e.what() << "\n";
    if (argc <= 1) std::cerr << kUsage;
    return kExitBadInput;
  } catch (const std::exception& e) {  // a bug, not bad input: say so rather than abort
    std::cerr << "viktory-scenario: internal error: " << e.what() << "\n";
    return kExitBadInput;
  }
}
