#include "legal_text.h"

#include "json_detail.h"
#include "json_writer.h"

namespace viktory::protocol {

namespace {

// One action as action_to_json builds it, keys in byte order (as nlohmann keeps them):
// carrier, hex, kind, pairs, player, unit, unit_type.
void write_action(JsonWriter& w, const Action& a) {
  const detail::ActionFields f = detail::action_fields(a.kind);
  w.begin_object();
  if (f.carrier) {
    w.key("carrier");
    w.value(a.carrier);
  }
  if (f.hex) {
    w.key("hex");
    w.value(a.hex);
  }
  w.key("kind");
  w.value(to_string(a.kind));
  if (f.pairs) {
    w.key("pairs");
    w.value(a.pairs);
  }
  if (a.player != kNoPlayer) {
    w.key("player");
    w.value(a.player);
  }
  if (f.unit) {
    w.key("unit");
    w.value(a.unit);
  }
  if (f.unit_type) {
    w.key("unit_type");
    w.value(to_string(a.unit_type));
  }
  w.end_object();
}

}  // namespace

void append_actions_json(std::string& out, const std::vector<Action>& actions) {
  JsonWriter w(out);
  w.begin_array();
  for (const Action& a : actions) write_action(w, a);
  w.end_array();
}

std::string actions_json_text(const std::vector<Action>& actions) {
  std::string out;
  // About 40 bytes an action ({"hex":12,"kind":"move","player":0,"unit":3}).
  out.reserve(2 + 48 * actions.size());
  append_actions_json(out, actions);
  return out;
}

}  // namespace viktory::protocol
