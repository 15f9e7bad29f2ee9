#include "catalog.h"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <fstream>
#include <sstream>

namespace viktory::text {

// Built from web-client/i18n/*.json by CMake (catalogs_builtin.cpp.in).
extern const std::vector<std::pair<std::string_view, std::vector<std::string_view>>>
    kBuiltinCatalogs;

namespace {

constexpr std::string_view kFallback = "en";

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string_view base_of(std::string_view tag) {
  const auto dash = tag.find_first_of("-_");
  return dash == std::string_view::npos ? tag : tag.substr(0, dash);
}

bool is_language_code(std::string_view code) {
  // As js/i18n.js reads them: "de", "pt-BR".
  const auto base = base_of(code);
  if (base.size() < 2 || base.size() > 3) return false;
  return std::all_of(code.begin(), code.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-';
  });
}

// A moment for every reader alike: "2026-11-26 02:00 UTC" (a browser writes it in the reader's
// own time zone and language instead).
std::string utc_text(std::int64_t ms) {
  const std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm parts{};
  gmtime_r(&t, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &parts);
  return text;
}

std::string trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return "";
  const auto last = s.find_last_not_of(" \t");
  return std::string(s.substr(first, last - first + 1));
}

}  // namespace

std::string_view plural_category(std::string_view language, std::int64_t n) {
  const std::string base = lower(base_of(language));
  const std::int64_t a = n < 0 ? -n : n;
  const std::int64_t mod10 = a % 10;
  const std::int64_t mod100 = a % 100;
  if (base == "ja" || base == "zh" || base == "ko" || base == "vi" || base == "th" ||
      base == "id" || base == "ms") {
    return "other";
  }
  if (base == "fr" || base == "pt") {
    if (lower(language) == "pt-pt") return a == 1 ? "one" : "other";
    if (a == 0 || a == 1) return "one";
    if (a % 1000000 == 0) return "many";
    return "other";
  }
  if (base == "pl") {
    if (a == 1) return "one";
    if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return "few";
    return "many";
  }
  if (base == "ru" || base == "uk") {
    if (mod10 == 1 && mod100 != 11) return "one";
    if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return "few";
    return "many";
  }
  if (base == "cs" || base == "sk") {
    if (a == 1) return "one";
    if (a >= 2 && a <= 4) return "few";
    return "other";
  }
  if (base == "it" || base == "es") {
    if (a == 1) return "one";
    if (a != 0 && a % 1000000 == 0) return "many";
    return "other";
  }
  return a == 1 ? "one" : "other";
}

std::string format_count(std::string_view language, std::int64_t n) {
  const std::string base = lower(base_of(language));
  std::string separator = ",";
  if (base == "de" || base == "nl" || base == "da" || base == "it" || base == "es" ||
      base == "pt" || base == "id" || base == "tr" || base == "el") {
    separator = ".";
  } else if (base == "fr") {
    separator = "\u202f";  // narrow no-break space
  } else if (base == "pl" || base == "ru" || base == "uk" || base == "cs" || base == "sk" ||
             base == "sv" || base == "nb" || base == "fi") {
    separator = "\u00a0";  // no-break space
  }
  const std::string digits = std::to_string(n < 0 ? -n : n);
  // Spanish and Polish (CLDR's minimum grouping of 2) group only from five digits: 1000, 12.000.
  const bool group = digits.size() > 3 && !((base == "es" || base == "pl") && digits.size() < 5);
  std::string out = n < 0 ? "-" : "";
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (group && i > 0 && (digits.size() - i) % 3 == 0) out += separator;
    out += digits[i];
  }
  return out;
}

Catalogs Catalogs::builtin() {
  Catalogs out;
  for (const auto& [language, pieces] : kBuiltinCatalogs) {
    std::string source;
    for (const auto piece : pieces) source += piece;
    auto parsed = nlohmann::json::parse(source, nullptr, false);
    if (parsed.is_object()) out.add(std::string(language), std::move(parsed));
  }
  return out;
}

void Catalogs::add(std::string language, nlohmann::json catalog) {
  catalogs_[std::move(language)] = std::move(catalog);
}

std::vector<std::string> Catalogs::add_directory(const std::filesystem::path& dir) {
  std::vector<std::string> problems;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return problems;
  for (const auto& item : std::filesystem::directory_iterator(dir, ec)) {
    const auto& path = item.path();
    if (path.extension() != ".json" || !item.is_regular_file(ec)) continue;
    const std::string language = path.stem().string();
    if (!is_language_code(language)) {
      problems.push_back(path.filename().string() + ": not a language code");
      continue;
    }
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    auto parsed = nlohmann::json::parse(text.str(), nullptr, false);
    if (!in || !parsed.is_object()) {
      problems.push_back(path.filename().string() + ": not a JSON object");
      continue;
    }
    add(language, std::move(parsed));
  }
  return problems;
}

bool Catalogs::has(std::string_view language) const { return catalogs_.contains(language); }

std::vector<std::string> Catalogs::languages() const {
  std::vector<std::string> out;
  for (const auto& [language, catalog] : catalogs_) out.push_back(language);
  return out;
}

std::string Catalogs::choose(std::string_view wanted) const {
  // An Accept-Language list: its tags in the order given (their weights are, in practice,
  // falling), each without its ";q=".
  std::size_t start = 0;
  while (start <= wanted.size()) {
    const auto comma = wanted.find(',', start);
    const auto item = wanted.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    const std::string tag = lower(trim(item.substr(0, item.find(';'))));
    if (!tag.empty() && tag != "*") {
      for (const auto& [language, catalog] : catalogs_) {
        if (lower(language) == tag) return language;
      }
      for (const auto& [language, catalog] : catalogs_) {
        if (lower(language) == base_of(tag)) return language;
      }
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return std::string(kFallback);
}

const nlohmann::json* Catalogs::entry(std::string_view language, std::string_view key) const {
  for (const std::string_view lang : {language, kFallback}) {
    const auto catalog = catalogs_.find(lang);
    if (catalog == catalogs_.end()) continue;
    const auto it = catalog->second.find(key);
    if (it != catalog->second.end() && (it->is_string() || it->is_object())) return &*it;
  }
  return nullptr;
}

std::string Catalogs::text(std::string_view language, Key key, const nlohmann::json& params) const {
  return text_of(language, key.name, params);
}

std::string Catalogs::text_of(std::string_view language, std::string_view key,
                              const nlohmann::json& params) const {
  // The language the text is in (English when this language lacks the key): its plural rules
  // and number format.
  std::string_view written_in = language;
  const nlohmann::json* found = nullptr;
  if (const auto catalog = catalogs_.find(language); catalog != catalogs_.end()) {
    const auto it = catalog->second.find(key);
    if (it != catalog->second.end() && (it->is_string() || it->is_object())) found = &*it;
  }
  if (!found) {
    found = entry(kFallback, key);
    written_in = kFallback;
  }
  if (!found) return std::string(key);

  std::string pattern;
  if (found->is_object()) {
    const auto count = params.is_object() ? params.find("count") : params.end();
    const std::int64_t n = params.is_object() && count != params.end() && count->is_number()
                               ? count->get<std::int64_t>()
                               : 0;
    auto form = found->find(std::string(plural_category(written_in, n)));
    if (form == found->end() || !form->is_string()) form = found->find("other");
    if (form == found->end() || !form->is_string()) return std::string(key);
    pattern = form->get<std::string>();
  } else {
    pattern = found->get<std::string>();
  }
  if (!params.is_object() || params.empty()) return pattern;

  std::string out;
  out.reserve(pattern.size() + 32);
  std::size_t i = 0;
  while (i < pattern.size()) {
    const auto open = pattern.find('{', i);
    if (open == std::string::npos) break;
    const auto close = pattern.find('}', open);
    if (close == std::string::npos) break;
    const std::string name = pattern.substr(open + 1, close - open - 1);
    const auto value = params.find(name);
    out.append(pattern, i, open - i);
    if (value == params.end()) {
      out.append(pattern, open, close - open + 1);  // as js/i18n.js: left as it is
    } else if (value->is_string()) {
      out += value->get<std::string>();
    } else if (name == "count" && value->is_number_integer()) {
      out += format_count(written_in, value->get<std::int64_t>());
    } else if (value->is_object() && value->contains("time") && (*value)["time"].is_number()) {
      out += utc_text((*value)["time"].get<std::int64_t>());
    } else if (value->is_object() && value->contains("key") && (*value)["key"].is_string()) {
      const auto nested = value->find("params");
      out += text_of(language, (*value)["key"].get<std::string>(),
                     nested != value->end() ? *nested : nlohmann::json::object());
    } else {
      out += value->dump();
    }
    i = close + 1;
  }
  out.append(pattern, i, std::string::npos);
  return out;
}

namespace {
std::shared_ptr<const Catalogs>& installed() {
  static std::shared_ptr<const Catalogs> catalogs =
      std::make_shared<const Catalogs>(Catalogs::builtin());
  return catalogs;
}
}  // namespace

const Catalogs& catalogs() { return *installed(); }

void install_catalogs(std::shared_ptr<const Catalogs> catalogs) {
  if (catalogs) installed() = std::move(catalogs);
}

}  // namespace viktory::text
