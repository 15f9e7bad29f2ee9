// The message catalogs on the server: the same files the browser reads (web-client/i18n/
// <language>.json, docs/client.md "Languages"), for the texts the server writes itself in a
// reader's language (e-mails, pushes, webhooks, the English text of log lines). The catalogs of
// the source tree are built into the binary, so a server without a web root still writes its
// texts; those of the web root it serves are read at start and win, so that a third language is
// one new file there and nothing else.
//
// A key used by the server is written out as a `_key` literal ("mail.signIn.subject"_key):
// tests/browser/i18n_catalog.test.js finds them in the server's sources, as it finds the
// client's t('...') calls, and fails when one is missing in a catalog.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace viktory::text {

// A catalog key, written as a literal so the catalog test can find it.
struct Key {
  std::string_view name;
};
constexpr Key operator""_key(const char* text, std::size_t size) { return Key{{text, size}}; }

// The plural category ("one", "few", "many", "other") of a whole number in a language, as
// Intl.PluralRules gives it for whole numbers (CLDR). Languages without rules here answer
// "one" for 1 and "other" otherwise.
std::string_view plural_category(std::string_view language, std::int64_t n);

// A whole number written the language's way: 1,200 (en), 1.200 (de), 1 200 (fr).
std::string format_count(std::string_view language, std::int64_t n);

class Catalogs {
 public:
  // The catalogs built in from the source tree's web-client/i18n/.
  static Catalogs builtin();

  // Adds (or replaces) a language. `catalog` maps keys to strings or to plural forms.
  void add(std::string language, nlohmann::json catalog);
  // Adds each <dir>/<language>.json; a file that is not a JSON object is left out and named in
  // the returned list of problems (the built-in catalog of that language stays).
  std::vector<std::string> add_directory(const std::filesystem::path& dir);

  bool has(std::string_view language) const;
  std::vector<std::string> languages() const;
  // The language to write in for a reader who asked for `wanted` ("de-AT", "de", or an
  // Accept-Language list "de-CH,de;q=0.9,en;q=0.8"): the first that has a catalog, by its exact
  // tag or its base ("de-AT" finds "de"); else English.
  std::string choose(std::string_view wanted) const;

  // `key`'s text in `language`, else in English, else the key itself; {placeholders} filled
  // from `params` (a JSON object). A value is written as it is, except: {count} (a number)
  // chooses the plural form and is written the language's way; a value that is itself a
  // message, {"key": "...", "params": {...}}, is that message's text in the same language (so
  // "{unit}" may be {"key": "unit.infantry"}); a moment, {"time": <ms since 1970>}, is written
  // "2026-11-26 02:00 UTC" (a browser writes it in the reader's time zone).
  std::string text(std::string_view language, Key key,
                   const nlohmann::json& params = nlohmann::json::object()) const;
  // The same for a key that came as data (a stored or nested message).
  std::string text_of(std::string_view language, std::string_view key,
                      const nlohmann::json& params = nlohmann::json::object()) const;

 private:
  const nlohmann::json* entry(std::string_view language, std::string_view key) const;
  std::map<std::string, nlohmann::json, std::less<>> catalogs_;
};

// The process's catalogs: the built-in ones until the server installs those of its web root
// at start (server/main.cpp). Installed once, before any thread reads them.
const Catalogs& catalogs();
void install_catalogs(std::shared_ptr<const Catalogs> catalogs);

}  // namespace viktory::text
