#include "display_name.h"

namespace viktory::server {
namespace {

// Decodes one UTF-8 code point at `i` (the text is valid UTF-8: it came through the JSON
// parser) and advances `i`.
char32_t next_code_point(const std::string& s, std::size_t& i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char lead = byte(i);
  int extra = lead < 0x80 ? 0 : lead < 0xE0 ? 1 : lead < 0xF0 ? 2 : 3;
  char32_t cp = extra == 0   ? lead
                : extra == 1 ? lead & 0x1F
                : extra == 2 ? lead & 0x0F
                             : lead & 0x07;
  ++i;
  for (; extra > 0 && i < s.size(); --extra, ++i) cp = (cp << 6) | (byte(i) & 0x3F);
  return cp;
}

// Characters a name may not hold: controls, and everything that is invisible or changes the
// direction of the text around it, with which one name could be made to look like another.
bool refused_in_name(char32_t cp, char32_t previous) {
  if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) return true;  // C0, DEL, C1 controls
  switch (cp) {
    case 0x00A0:  // no-break space
    case 0x00AD:  // soft hyphen
    case 0x034F:  // combining grapheme joiner
    case 0x061C:  // Arabic letter mark
    case 0x115F:
    case 0x1160:  // Hangul fillers
    case 0x1680:  // Ogham space mark
    case 0x17B4:
    case 0x17B5:  // Khmer inherent vowels (invisible)
    case 0x2028:
    case 0x2029:  // line and paragraph separators
    case 0x202F:  // narrow no-break space
    case 0x205F:  // medium mathematical space
    case 0x3000:  // ideographic space
    case 0x3164:  // Hangul filler
    case 0xFEFF:  // zero-width no-break space (BOM)
    case 0xFFA0:  // halfwidth Hangul filler
      return true;
    default:
      break;
  }
  if (cp >= 0x180B && cp <= 0x180F) return true;    // Mongolian selectors and vowel separator
  if (cp >= 0x2000 && cp <= 0x200F) return true;    // odd spaces, zero-width chars, LRM/RLM
  if (cp >= 0x202A && cp <= 0x202E) return true;    // bidi embeddings and overrides
  if (cp >= 0x2060 && cp <= 0x206F) return true;    // word joiner, invisible operators, isolates
  if (cp >= 0xFFF9 && cp <= 0xFFFB) return true;    // interlinear annotation
  if (cp >= 0x1D173 && cp <= 0x1D17A) return true;  // musical formatting
  if (cp >= 0xE0000 && cp <= 0xE007F) return true;  // tags
  // Variation selectors change nothing after a letter; emoji (and other symbols) use them.
  const bool selector = (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xE0100 && cp <= 0xE01EF);
  if (selector && previous < 0x2000) return true;
  return false;
}

}  // namespace

// A display name: 1..32 code points after trimming spaces; no controls, no invisible or
// direction-changing characters (so nobody can make his name look like someone else's).
std::optional<std::string> clean_name(const std::string& raw) {
  const auto first = raw.find_first_not_of(' ');
  if (first == std::string::npos) return std::nullopt;
  const std::string name = raw.substr(first, raw.find_last_not_of(' ') - first + 1);
  std::size_t points = 0;
  char32_t previous = 0;
  for (std::size_t i = 0; i < name.size();) {
    const char32_t cp = next_code_point(name, i);
    if (refused_in_name(cp, previous)) return std::nullopt;
    previous = cp;
    ++points;
  }
  if (points == 0 || points > 32) return std::nullopt;
  return name;
}

}  // namespace viktory::server
