#include "board.h"

#include "json.h"
#include "sha256.h"

namespace viktory::protocol {

using nlohmann::json;

namespace {

// The first 8 bytes of the SHA-256 of the hexes' text: enough to tell two boards apart.
std::string board_digest(const json& hexes) {
  const std::string text = hexes.dump();
  const Sha256Digest digest = sha256(as_bytes(text));
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < 8; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 0xF];
  }
  return out;
}

}  // namespace

json board_to_json(const GameView& view) {
  json hexes = json::array();
  for (const HexView& h : view.hexes) {
    hexes.push_back({{"hex", h.hex},
                     {"q", h.coord.q},
                     {"r", h.coord.r},
                     {"label", h.label},
                     {"perimeter", h.perimeter}});
  }
  const std::string id = board_digest(hexes);
  return json{{"id", id}, {"hexes", std::move(hexes)}};
}

json view_with_board(json view, const json& board) {
  const json& cells = board.at("hexes");
  json& hexes = view.at("hexes");
  if (!cells.is_array() || !hexes.is_array() || cells.size() != hexes.size()) {
    throw JsonError("the board does not fit the view: another number of hexes");
  }
  for (json& h : hexes) {
    const int index = h.at("hex").get<int>();
    if (index < 0 || index >= static_cast<int>(cells.size())) {
      throw JsonError("the board does not fit the view: hex out of range");
    }
    const json& cell = cells[static_cast<std::size_t>(index)];
    for (const char* key : {"q", "r", "label", "perimeter"}) h[key] = cell.at(key);
  }
  return view;
}

}  // namespace viktory::protocol
