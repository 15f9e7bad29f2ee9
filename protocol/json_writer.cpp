#include "json_writer.h"

#include <nlohmann/json.hpp>

namespace viktory::protocol {

void JsonWriter::string(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  out_ += '"';
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      // Not ASCII: let nlohmann check the UTF-8 and write it (replacing what is invalid), from
      // the first such byte on, then drop its opening quote.
      const std::string rest = nlohmann::json(std::string(text.substr(i)))
                                   .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      out_.append(rest, 1, std::string::npos);
      return;
    }
    switch (c) {
      case '"':
        out_ += "\\\"";
        break;
      case '\\':
        out_ += "\\\\";
        break;
      case '\b':
        out_ += "\\b";
        break;
      case '\f':
        out_ += "\\f";
        break;
      case '\n':
        out_ += "\\n";
        break;
      case '\r':
        out_ += "\\r";
        break;
      case '\t':
        out_ += "\\t";
        break;
      default:
        if (c < 0x20) {
          out_ += "\\u00";
          out_ += kHex[c >> 4];
          out_ += kHex[c & 0xf];
        } else {
          out_ += static_cast<char>(c);
        }
    }
  }
  out_ += '"';
}

}  // namespace viktory::protocol
