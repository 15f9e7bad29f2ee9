// Telltales of a language in the server's texts: the words of its catalog's entries
// (web-client/i18n/<language>.json) under some key prefixes, each entry (each plural form) cut at
// its placeholders. A message in another language that contains one of them has a piece of
// this language left in it ("Your turn in" in a German push).
#pragma once

#include <algorithm>
#include <cctype>
#include <fstream>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#ifndef VIKTORY_CATALOG_DIR
#error "VIKTORY_CATALOG_DIR must name web-client/i18n"
#endif

namespace viktory::notify::testing {

inline std::vector<std::string> pieces_of(std::string_view language,
                                          std::initializer_list<std::string_view> prefixes) {
  std::ifstream file(std::string(VIKTORY_CATALOG_DIR) + "/" + std::string(language) + ".json");
  const nlohmann::json catalog = nlohmann::json::parse(file);
  const std::regex placeholder(R"(\{[a-zA-Z]+\})");
  // A piece is a telltale when it has a word of four letters or more: "VIKTORY II online",
  // " UTC" and the hex's "(" are shared by the languages.
  const std::regex word(R"([a-z]{4,})", std::regex::icase);
  std::vector<std::string> out;
  for (const auto& [key, entry] : catalog.items()) {
    if (std::none_of(prefixes.begin(), prefixes.end(),
                     [&](std::string_view p) { return key.rfind(p, 0) == 0; })) {
      continue;
    }
    std::vector<std::string> forms;
    if (entry.is_string()) forms.push_back(entry.get<std::string>());
    if (entry.is_object()) {
      for (const auto& [form, value] : entry.items()) forms.push_back(value.get<std::string>());
    }
    for (const std::string& form : forms) {
      for (std::sregex_token_iterator it(form.begin(), form.end(), placeholder, -1), end; it != end;
           ++it) {
        // Each line of the piece on its own (a mail's lines may be joined differently).
        std::string piece = *it;
        std::size_t start = 0;
        while (start <= piece.size()) {
          const std::size_t stop = std::min(piece.find('\n', start), piece.size());
          std::string line = piece.substr(start, stop - start);
          const auto edge = [](char c) {
            return std::string_view(" .,:;()").find(c) != std::string_view::npos;
          };
          while (!line.empty() && edge(line.back())) line.pop_back();
          while (!line.empty() && edge(line.front())) line.erase(0, 1);
          if (std::regex_search(line, word) && line != "VIKTORY II online") out.push_back(line);
          start = stop + 1;
        }
      }
    }
  }
  return out;
}

// The pieces of `language` that `other` does not have too (the months April, August,
// September and November are the same in English and German).
inline std::vector<std::string> telltales(std::string_view language, std::string_view other,
                                          std::initializer_list<std::string_view> prefixes) {
  const std::vector<std::string> theirs = pieces_of(other, prefixes);
  std::vector<std::string> out;
  for (std::string& piece : pieces_of(language, prefixes)) {
    if (std::find(theirs.begin(), theirs.end(), piece) == theirs.end()) out.push_back(piece);
  }
  return out;
}

// The telltales of a language found in `text` as words of their own ("Januar" is not in
// "January").
inline std::vector<std::string> telltales_in(const std::string& text,
                                             const std::vector<std::string>& telltales) {
  const auto letter = [](char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || static_cast<unsigned char>(c) >= 0x80;
  };
  std::vector<std::string> found;
  for (const std::string& t : telltales) {
    for (std::size_t at = text.find(t); at != std::string::npos; at = text.find(t, at + 1)) {
      const std::size_t end = at + t.size();
      if ((at == 0 || !letter(text[at - 1])) && (end == text.size() || !letter(text[end]))) {
        found.push_back(t);
        break;
      }
    }
  }
  return found;
}

}  // namespace viktory::notify::testing
