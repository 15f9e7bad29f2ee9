#include "sql_in_source.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace viktory::test {
namespace {
namespace fs = std::filesystem;

void skip_space(const std::string& text, std::size_t& i) {
  while (i < text.size()) {
    if (std::isspace(static_cast<unsigned char>(text[i]))) {
      ++i;
    } else if (text.compare(i, 2, "//") == 0) {
      i = text.find('\n', i);
      if (i == std::string::npos) i = text.size();
    } else {
      break;
    }
  }
}

// One C++ string literal at i ("..." with escapes, or R"delim(...)delim"); false if none.
bool read_literal(const std::string& text, std::size_t& i, std::string& out) {
  if (text.compare(i, 2, "R\"") == 0) {
    const std::size_t open = text.find('(', i + 2);
    if (open == std::string::npos) return false;
    const std::string close = ")" + text.substr(i + 2, open - i - 2) + "\"";
    const std::size_t end = text.find(close, open + 1);
    if (end == std::string::npos) return false;
    out += text.substr(open + 1, end - open - 1);
    i = end + close.size();
    return true;
  }
  if (i >= text.size() || text[i] != '"') return false;
  for (++i; i < text.size() && text[i] != '"'; ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      const char next = text[++i];
      out += next == 'n' ? '\n' : next == 't' ? '\t' : next;
    } else {
      out += text[i];
    }
  }
  ++i;
  return true;
}

}  // namespace

SqlScan scan_sql(const std::string& server_folder) {
  SqlScan scan;
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(server_folder)) {
    if (entry.path().extension() != ".cpp") continue;
    const std::string name = fs::relative(entry.path(), server_folder).generic_string();
    if (name == "storage/sql_dialect.cpp" || name == "storage/store_schema.cpp") continue;
    files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    std::ifstream in(file);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    const std::string name = fs::relative(file, server_folder).generic_string();
    for (const char* call : {".prepare(", ".cached(", ".exec(", "->prepare(", "->exec("}) {
      for (std::size_t at = text.find(call); at != std::string::npos;
           at = text.find(call, at + 1)) {
        const std::string where =
            name + ":" + std::to_string(1 + std::count(text.begin(), text.begin() + at, '\n'));
        std::size_t i = at + std::string(call).size();
        std::string sql;
        bool any = false;
        for (;;) {
          skip_space(text, i);
          if (!read_literal(text, i, sql)) break;
          any = true;
        }
        skip_space(text, i);
        if (any && i < text.size() && text[i] == ')') {
          scan.literal.push_back({where, sql});
        } else {
          scan.built_at_run_time.push_back(where);
        }
      }
    }
  }
  return scan;
}

}  // namespace viktory::test
