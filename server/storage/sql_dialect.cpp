// SQLite's SQL into PostgreSQL's, one statement at a time (sql_dialect.h says what and why).
// The statement is cut into tokens, so that nothing inside a string literal, a quoted name or a
// comment is ever rewritten; the rewrites then work on the tokens and join them again.
#include "sql_dialect.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <optional>
#include <set>

namespace viktory::server {
namespace {

enum class Kind { Space, Comment, Word, QuotedName, String, Number, Parameter, Symbol };

struct Token {
  Kind kind;
  std::string text;
};

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool is_word_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool is_word_char(char c) {
  return is_word_start(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '$';
}

std::vector<Token> tokenize(std::string_view sql) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  const std::size_t n = sql.size();
  auto take = [&](Kind kind, std::size_t end) {
    tokens.push_back({kind, std::string(sql.substr(i, end - i))});
    i = end;
  };
  while (i < n) {
    const char c = sql[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      std::size_t j = i;
      while (j < n && std::isspace(static_cast<unsigned char>(sql[j]))) ++j;
      take(Kind::Space, j);
    } else if (c == '-' && i + 1 < n && sql[i + 1] == '-') {
      const std::size_t j = sql.find('\n', i);
      take(Kind::Comment, j == std::string_view::npos ? n : j);
    } else if (c == '/' && i + 1 < n && sql[i + 1] == '*') {
      const std::size_t j = sql.find("*/", i + 2);
      if (j == std::string_view::npos) throw SqlDialectError("SQL: a comment is not closed");
      take(Kind::Comment, j + 2);
    } else if (c == '\'' || c == '"' || c == '`' || c == '[') {
      const char close = c == '[' ? ']' : c;
      std::size_t j = i + 1;
      for (;;) {
        j = sql.find(close, j);
        if (j == std::string_view::npos) {
          throw SqlDialectError(c == '\'' ? "SQL: a string is not closed"
                                          : "SQL: a quoted name is not closed");
        }
        // '' inside a string (and "" inside a name) is the quote itself.
        if (close != ']' && j + 1 < n && sql[j + 1] == close) {
          j += 2;
          continue;
        }
        break;
      }
      if (c == '\'') {
        take(Kind::String, j + 1);
      } else {
        // PostgreSQL quotes names with "" only.
        std::string name(sql.substr(i + 1, j - i - 1));
        tokens.push_back({Kind::QuotedName, "\"" + name + "\""});
        i = j + 1;
      }
    } else if (is_word_start(c)) {
      std::size_t j = i;
      while (j < n && is_word_char(sql[j])) ++j;
      take(Kind::Word, j);
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(sql[i + 1])))) {
      std::size_t j = i;
      while (j < n &&
             (std::isalnum(static_cast<unsigned char>(sql[j])) || sql[j] == '.' ||
              ((sql[j] == '+' || sql[j] == '-') && (sql[j - 1] == 'e' || sql[j - 1] == 'E'))))
        ++j;
      take(Kind::Number, j);
    } else if (c == '?' || c == ':' || c == '@' || c == '$') {
      std::size_t j = i + 1;
      while (j < n && is_word_char(sql[j])) ++j;
      if (c == ':' && j == i + 1) {
        take(Kind::Symbol, j);  // a lone ':' is not SQLite's, but not ours to judge
      } else {
        take(Kind::Parameter, j);
      }
    } else {
      static constexpr std::string_view kTwo[] = {
          "||", "<=", ">=", "<>", "!=", "==", "<<", ">>", "->"};
      std::size_t len = 1;
      for (std::string_view two : kTwo) {
        if (sql.substr(i, 2) == two) len = 2;
      }
      if (len == 2 && sql.substr(i, 3) == "->>") len = 3;
      take(Kind::Symbol, i + len);
    }
  }
  return tokens;
}

bool significant(const Token& t) { return t.kind != Kind::Space && t.kind != Kind::Comment; }

// The tokens without spaces and comments, and the statement they came from: the rewrites read
// the first and edit the second through the indexes.
struct Statement {
  std::vector<Token> tokens;
  std::vector<std::size_t> sig;  // indexes of the significant tokens

  explicit Statement(std::string_view sql) : tokens(tokenize(sql)) { index(); }

  void index() {
    sig.clear();
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      if (significant(tokens[i])) sig.push_back(i);
    }
  }
  const Token& at(std::size_t k) const { return tokens[sig[k]]; }
  Token& at(std::size_t k) { return tokens[sig[k]]; }
  std::size_t size() const { return sig.size(); }
  bool word(std::size_t k, std::string_view keyword) const {
    return k < size() && at(k).kind == Kind::Word && upper(at(k).text) == keyword;
  }
  bool symbol(std::size_t k, std::string_view s) const {
    return k < size() && at(k).kind == Kind::Symbol && at(k).text == s;
  }
  // Removes significant tokens [k, k + count) and the spaces before each of them.
  void erase(std::size_t k, std::size_t count) {
    for (std::size_t m = k + count; m-- > k;) {
      std::size_t first = sig[m];
      while (first > 0 && tokens[first - 1].kind == Kind::Space) --first;
      tokens.erase(tokens.begin() + static_cast<std::ptrdiff_t>(first),
                   tokens.begin() + static_cast<std::ptrdiff_t>(sig[m]) + 1);
      index();
    }
  }
  // Inserts text (with a space before it) before significant token k, or at the end (before a
  // closing ';') when k == size().
  void insert_before(std::size_t k, const std::string& text) {
    std::size_t at_token = k < size() ? sig[k] : tokens.size();
    if (k == size() && size() > 0 && symbol(size() - 1, ";")) at_token = sig[size() - 1];
    while (at_token > 0 && tokens[at_token - 1].kind == Kind::Space) --at_token;
    tokens.insert(tokens.begin() + static_cast<std::ptrdiff_t>(at_token),
                  Token{Kind::Word, " " + text});
    index();
  }
  std::string text() const {
    std::string out;
    for (const Token& t : tokens) out += t.text;
    return out;
  }
  // The first significant token at parenthesis depth 0 from k on that is the keyword.
  std::optional<std::size_t> top_level_word(std::size_t k, std::string_view keyword) const {
    int depth = 0;
    for (; k < size(); ++k) {
      if (symbol(k, "(")) ++depth;
      if (symbol(k, ")")) --depth;
      if (depth == 0 && word(k, keyword)) return k;
    }
    return std::nullopt;
  }
};

std::string name_of(const Token& t) {
  if (t.kind == Kind::QuotedName) return lower(t.text.substr(1, t.text.size() - 2));
  return lower(t.text);
}

bool is_name(const Token& t) { return t.kind == Kind::Word || t.kind == Kind::QuotedName; }

// The names in a parenthesised list that starts at significant token k ('('): the names and the
// index just past the ')'. Only plain lists of names (columns of a key or of an INSERT).
std::pair<std::vector<std::string>, std::size_t> name_list(const Statement& s, std::size_t k) {
  std::vector<std::string> names;
  if (!s.symbol(k, "(")) throw SqlDialectError("SQL: a list of columns in ( ) was expected");
  ++k;
  while (k < s.size() && !s.symbol(k, ")")) {
    if (is_name(s.at(k))) names.push_back(name_of(s.at(k)));
    // COLLATE x, ASC, DESC after a key column: skip to the next ',' or ')'.
    ++k;
    while (k < s.size() && !s.symbol(k, ",") && !s.symbol(k, ")")) ++k;
    if (s.symbol(k, ",")) ++k;
  }
  if (k >= s.size()) throw SqlDialectError("SQL: a list of columns is not closed");
  return {names, k + 1};
}

// Where the table's name is after CREATE TABLE [IF NOT EXISTS] or ALTER TABLE: its index.
std::size_t table_name_index(const Statement& s, std::size_t k) {
  if (s.word(k, "IF") && s.word(k + 1, "NOT") && s.word(k + 2, "EXISTS")) k += 3;
  // schema.table: the table is the last part.
  if (k + 2 < s.size() && s.symbol(k + 1, ".")) k += 2;
  if (k >= s.size() || !is_name(s.at(k))) throw SqlDialectError("SQL: a table name was expected");
  return k;
}

// The column definitions and table constraints of CREATE TABLE t ( ... ): each as the range of
// significant tokens [first, last).
std::vector<std::pair<std::size_t, std::size_t>> table_parts(const Statement& s, std::size_t open,
                                                             std::size_t* close) {
  std::vector<std::pair<std::size_t, std::size_t>> parts;
  int depth = 0;
  std::size_t start = open + 1;
  for (std::size_t k = open; k < s.size(); ++k) {
    if (s.symbol(k, "(")) {
      ++depth;
    } else if (s.symbol(k, ")")) {
      if (--depth == 0) {
        parts.emplace_back(start, k);
        *close = k;
        return parts;
      }
    } else if (depth == 1 && s.symbol(k, ",")) {
      parts.emplace_back(start, k);
      start = k + 1;
    }
  }
  throw SqlDialectError("SQL: the table's ( ) is not closed");
}

bool is_table_constraint(const Statement& s, std::size_t k) {
  return s.word(k, "PRIMARY") || s.word(k, "UNIQUE") || s.word(k, "CHECK") ||
         s.word(k, "FOREIGN") || s.word(k, "CONSTRAINT");
}

const std::set<std::string, std::less<>>& functions_without_twin() {
  static const std::set<std::string, std::less<>> names = {"JSON",
                                                           "JSON_ARRAY",
                                                           "JSON_ARRAY_LENGTH",
                                                           "JSON_GROUP_ARRAY",
                                                           "JSON_GROUP_OBJECT",
                                                           "JSON_INSERT",
                                                           "JSON_OBJECT",
                                                           "JSON_PATCH",
                                                           "JSON_QUOTE",
                                                           "JSON_REMOVE",
                                                           "JSON_REPLACE",
                                                           "JSON_SET",
                                                           "JSON_TREE",
                                                           "JSON_TYPE",
                                                           "JSON_VALID",
                                                           "CHANGES",
                                                           "TOTAL_CHANGES",
                                                           "LAST_INSERT_ROWID",
                                                           "STRFTIME",
                                                           "JULIANDAY",
                                                           "DATETIME",
                                                           "DATE",
                                                           "TIME",
                                                           "UNIXEPOCH",
                                                           "GROUP_CONCAT",
                                                           "PRINTF",
                                                           "FORMAT",
                                                           "INSTR",
                                                           "IIF",
                                                           "TYPEOF",
                                                           "RANDOM",
                                                           "RANDOMBLOB",
                                                           "ZEROBLOB",
                                                           "GLOB",
                                                           "TOTAL",
                                                           "SQLITE_VERSION",
                                                           "HEX",
                                                           "UNHEX",
                                                           "LIKELIHOOD",
                                                           "LIKELY",
                                                           "UNLIKELY",
                                                           "QUOTE",
                                                           "SOUNDEX"};
  return names;
}

// Types of SQLite's columns in PostgreSQL; the words appear only as types in CREATE and ALTER
// TABLE (and in CAST(x AS INTEGER), where BIGINT is right too).
void rewrite_types(Statement& s, std::size_t from, std::size_t to) {
  for (std::size_t k = from; k < to && k < s.size(); ++k) {
    if (s.at(k).kind != Kind::Word) continue;
    const std::string w = upper(s.at(k).text);
    if (w == "INTEGER" || w == "INT") {
      s.at(k).text = "BIGINT";
    } else if (w == "REAL" || w == "DOUBLE" || w == "FLOAT") {
      s.at(k).text = "DOUBLE PRECISION";
      if (s.word(k + 1, "PRECISION")) {
        s.erase(k + 1, 1);
        --to;
      }
    } else if (w == "BLOB") {
      s.at(k).text = "BYTEA";
    }
  }
}

void rewrite_create_table(Statement& s, std::size_t name_at) {
  if (s.word(name_at + 1, "AS")) return;  // CREATE TABLE t AS SELECT: no definitions
  std::size_t close = 0;
  const auto parts = table_parts(s, name_at + 1, &close);
  // Column by column, from the last, so that edits keep the earlier indexes.
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    auto [first, last] = *it;
    if (is_table_constraint(s, first)) {
      rewrite_types(s, first, last);
      continue;
    }
    // name INTEGER PRIMARY KEY [ASC|DESC] [AUTOINCREMENT]: SQLite's alias of the rowid.
    if (s.word(first + 1, "INTEGER") && s.word(first + 2, "PRIMARY") && s.word(first + 3, "KEY")) {
      std::size_t after = first + 4;
      if (s.word(after, "ASC") || s.word(after, "DESC")) s.erase(after, 1), --last;
      if (s.word(after, "AUTOINCREMENT")) s.erase(after, 1), --last;
      s.at(first + 1).text = "BIGINT GENERATED BY DEFAULT AS IDENTITY";
    }
    for (std::size_t k = first; k < last; ++k) {
      if (s.word(k, "AUTOINCREMENT")) {
        s.erase(k, 1);
        --last;
      }
    }
    rewrite_types(s, first + 1, last);
  }
  // The table options after the ')': WITHOUT ROWID, STRICT (comma-separated).
  std::size_t close_now = 0;
  table_parts(s, name_at + 1, &close_now);
  std::size_t k = close_now + 1;
  while (k < s.size() && !s.symbol(k, ";")) {
    if (s.word(k, "WITHOUT") && s.word(k + 1, "ROWID")) {
      s.erase(k, 2);
    } else if (s.word(k, "STRICT")) {
      s.erase(k, 1);
    } else if (s.symbol(k, ",")) {
      s.erase(k, 1);
    } else {
      throw SqlDialectError("SQL: unknown table option " + s.at(k).text);
    }
  }
}

// SQLite's IS and IS NOT compare any two values, NULL equal to NULL; PostgreSQL's take only NULL,
// TRUE, FALSE or UNKNOWN on the right, and call the general form IS [NOT] DISTINCT FROM.
void rewrite_is(Statement& s, std::size_t k) {
  const bool negated = s.word(k + 1, "NOT");
  const std::size_t operand = negated ? k + 2 : k + 1;
  for (const char* own : {"NULL", "TRUE", "FALSE", "UNKNOWN", "DISTINCT"}) {
    if (s.word(operand, own)) return;
  }
  if (negated) {
    s.at(k + 1).text = "DISTINCT FROM";
  } else {
    s.at(k).text = "IS NOT DISTINCT FROM";
  }
}

// name COLLATE NOCASE -> lower(name) COLLATE "C": SQLite's NOCASE folds ASCII letters only and
// then compares bytes, which is what lower() does under the "C" collation. Only a column's name
// (qualified or not) is rewritten; after any other expression it is refused, so that the
// statement says lower() itself. Gives the index of the last token of the rewrite.
std::size_t rewrite_collate_nocase(Statement& s, std::size_t k) {
  std::size_t start = k;
  if (start > 0 && is_name(s.at(start - 1))) {
    --start;
    while (start >= 2 && s.symbol(start - 1, ".") && is_name(s.at(start - 2))) start -= 2;
  }
  if (start == k) {
    throw SqlDialectError("SQL: COLLATE NOCASE after an expression; write lower() on it");
  }
  s.at(k).text = ")";
  s.at(k + 1).text = "COLLATE \"C\"";
  s.insert_before(start, "lower(");
  return k + 2;
}

// The call at significant token k (its name; k + 1 is the '('): MIN and MAX with two or more
// arguments are SQLite's scalar forms, PostgreSQL's LEAST and GREATEST (which skip a NULL argument
// where SQLite's return NULL: a statement whose arguments can be NULL says what it means with
// COALESCE). A comparison is an integer in SQLite and a boolean in PostgreSQL, so SUM and AVG
// of one (SUM(place = 1), a count of wins) get it cast: (place = 1)::int, NULL kept NULL.
void rewrite_aggregate_call(Statement& s, std::size_t k) {
  int depth = 0;
  int commas = 0;
  bool comparison = false;
  std::size_t close = 0;
  for (std::size_t m = k + 1; m < s.size(); ++m) {
    if (s.symbol(m, "(")) ++depth;
    if (s.symbol(m, ")") && --depth == 0) {
      close = m;
      break;
    }
    if (depth != 1) continue;
    if (s.symbol(m, ",")) ++commas;
    for (const char* op : {"=", "==", "!=", "<>", "<", ">", "<=", ">="}) {
      if (s.symbol(m, op)) comparison = true;
    }
    for (const char* op : {"IS", "LIKE", "IN", "BETWEEN", "AND", "OR", "NOT", "EXISTS"}) {
      if (s.word(m, op)) comparison = true;
    }
  }
  if (close == 0) return;  // unbalanced: PostgreSQL will say so
  const std::string name = upper(s.at(k).text);
  if ((name == "MIN" || name == "MAX") && commas > 0) {
    s.at(k).text = name == "MIN" ? "LEAST" : "GREATEST";
  } else if (name != "MIN" && name != "MAX" && comparison && commas == 0) {
    s.insert_before(close, ")::int");
    s.insert_before(k + 2, "(");
  }
}

// The significant index of the ')' that closes the '(' at k, and of the commas at its depth.
std::pair<std::size_t, std::vector<std::size_t>> call_parts(const Statement& s, std::size_t open) {
  int depth = 0;
  std::vector<std::size_t> commas;
  for (std::size_t m = open; m < s.size(); ++m) {
    if (s.symbol(m, "(")) ++depth;
    if (s.symbol(m, ")") && --depth == 0) return {m, commas};
    if (depth == 1 && s.symbol(m, ",")) commas.push_back(m);
  }
  throw SqlDialectError("SQL: a call's ( ) is not closed");
}

// json_extract(doc, '$.name') -> ((doc)::jsonb ->> 'name'): one member of an object, read as
// text in PostgreSQL where SQLite gives the member's own type; a statement that compares it with
// a number says so with CAST(... AS BIGINT) in both. Other paths are refused.
void rewrite_json_extract(Statement& s, std::size_t k) {
  const auto [close, commas] = call_parts(s, k + 1);
  const std::size_t path = commas.empty() ? 0 : commas[0] + 1;
  bool simple = commas.size() == 1 && path + 1 == close && s.at(path).kind == Kind::String;
  std::string member;
  if (simple) {
    const std::string& literal = s.at(path).text;  // '$.name', quotes included
    member = literal.size() > 4 ? literal.substr(3, literal.size() - 4) : "";
    simple = literal.starts_with("'$.") && !member.empty() && is_word_start(member[0]) &&
             std::all_of(member.begin(), member.end(),
                         [](char c) { return is_word_char(c) && c != '$'; });
  }
  if (!simple) {
    throw SqlDialectError(
        "SQL: SQLite's json_extract() has a PostgreSQL twin for one '$.name' path only");
  }
  // The tokens keep their kinds: the '(' at k + 1 and the ')' at close still pair up for the
  // rewrites that count parentheses; the new ones are in tokens they do not read as such.
  s.at(k).text = "(";
  s.at(commas[0]).text = ")::jsonb ->>";
  s.at(path).text = "'" + member + "'";
  s.at(close).text = ")";
}

// FROM json_each(array) [AS alias] -> jsonb_array_elements_text((array)::jsonb) AS
// alias(value): the array's elements as text in the column value (SQLite gives their own types,
// so a statement that compares them with numbers says CAST(value AS BIGINT)). SQLite's other
// columns (key, type, ...) have no twin here, and a path argument is refused.
void rewrite_json_each(Statement& s, std::size_t k) {
  const auto [close, commas] = call_parts(s, k + 1);
  if (!commas.empty()) {
    throw SqlDialectError("SQL: SQLite's json_each() with a path has no PostgreSQL twin here");
  }
  s.at(k).text = "jsonb_array_elements_text";
  s.at(k + 1).text = "((";         // neither this nor the ')' below reads as a parenthesis
  s.at(close).text = ")::jsonb)";  // to the rewrites that count them: the pair stays balanced
  if (s.word(close + 1, "AS") && close + 2 < s.size() && is_name(s.at(close + 2))) {
    s.at(close + 2).text += "(value)";
  } else if (close + 1 < s.size() && s.at(close + 1).kind == Kind::Word &&
             !s.word(close + 1, "WHERE") && !s.word(close + 1, "JOIN") &&
             !s.word(close + 1, "ON") && !s.word(close + 1, "GROUP") &&
             !s.word(close + 1, "ORDER") && !s.word(close + 1, "LIMIT") &&
             !s.word(close + 1, "CROSS") && !s.word(close + 1, "LEFT") &&
             !s.word(close + 1, "INNER") && !s.word(close + 1, "UNION")) {
    s.at(close + 1).text += "(value)";  // an alias without AS
  } else {
    s.insert_before(close + 1, "AS json_each(value)");
  }
}

// INSERT OR IGNORE / OR REPLACE / REPLACE INTO: the clause PostgreSQL needs at the end.
void rewrite_insert(Statement& s, const std::map<std::string, TableShape, std::less<>>& tables) {
  enum class Conflict { None, Ignore, Replace } conflict = Conflict::None;
  if (s.word(0, "REPLACE")) {
    s.at(0).text = "INSERT";
    conflict = Conflict::Replace;
  } else if (s.word(1, "OR")) {
    if (s.word(2, "IGNORE")) {
      conflict = Conflict::Ignore;
    } else if (s.word(2, "REPLACE")) {
      conflict = Conflict::Replace;
    } else {
      throw SqlDialectError("SQL: INSERT OR " + (s.size() > 2 ? upper(s.at(2).text) : "") +
                            " has no PostgreSQL form");
    }
    s.erase(1, 2);
  }
  if (conflict == Conflict::None) return;
  if (s.top_level_word(1, "CONFLICT")) {
    throw SqlDialectError("SQL: INSERT OR IGNORE/REPLACE with its own ON CONFLICT");
  }
  const std::size_t at = s.top_level_word(1, "RETURNING").value_or(s.size());
  if (conflict == Conflict::Ignore) {
    s.insert_before(at, "ON CONFLICT DO NOTHING");
    return;
  }
  // INSERT INTO t (columns): the key and the other columns from the schema.
  if (!s.word(1, "INTO")) throw SqlDialectError("SQL: INSERT OR REPLACE without INTO");
  std::size_t name_at = 2;
  if (name_at + 2 < s.size() && s.symbol(name_at + 1, ".")) name_at += 2;
  if (name_at >= s.size() || !is_name(s.at(name_at))) {
    throw SqlDialectError("SQL: INSERT OR REPLACE without a table");
  }
  const std::string table = name_of(s.at(name_at));
  if (!s.symbol(name_at + 1, "(")) {
    throw SqlDialectError("SQL: INSERT OR REPLACE INTO " + table +
                          " lists no columns; PostgreSQL's upsert needs them");
  }
  const auto found = tables.find(table);
  if (found == tables.end()) {
    throw SqlDialectError("SQL: INSERT OR REPLACE INTO " + table +
                          ": the table is not in the schema read so far");
  }
  const TableShape& shape = found->second;
  if (shape.key.empty()) {
    throw SqlDialectError("SQL: INSERT OR REPLACE INTO " + table +
                          ": the table has no primary key");
  }
  const std::vector<std::string> listed = name_list(s, name_at + 1).first;
  auto is_listed = [&](const std::string& c) {
    return std::find(listed.begin(), listed.end(), c) != listed.end();
  };
  for (const std::string& k : shape.key) {
    if (!is_listed(k)) {
      throw SqlDialectError("SQL: INSERT OR REPLACE INTO " + table + " does not give key column " +
                            k);
    }
  }
  std::string clause = "ON CONFLICT (";
  for (std::size_t i = 0; i < shape.key.size(); ++i) clause += (i ? ", " : "") + shape.key[i];
  clause += ")";
  std::string sets;
  for (const std::string& c : shape.columns) {
    if (std::find(shape.key.begin(), shape.key.end(), c) != shape.key.end()) continue;
    sets += (sets.empty() ? "" : ", ") + c + " = " + (is_listed(c) ? "excluded." + c : "DEFAULT");
  }
  clause += sets.empty() ? " DO NOTHING" : " DO UPDATE SET " + sets;
  s.insert_before(at, clause);
}

}  // namespace

std::vector<std::string> split_statements(std::string_view script) {
  std::vector<std::string> statements;
  const std::vector<Token> tokens = tokenize(script);
  std::string current;
  bool any = false;
  int trigger_depth = 0;  // inside CREATE TRIGGER ... BEGIN ... END
  bool in_trigger = false;
  std::vector<std::string> words;  // the statement's first words
  for (const Token& t : tokens) {
    current += t.text;
    if (!significant(t)) continue;
    any = true;
    if (t.kind == Kind::Word) {
      const std::string w = upper(t.text);
      if (words.size() < 4) words.push_back(w);
      if (words.size() >= 2 && words[0] == "CREATE" &&
          (words[1] == "TRIGGER" || (words.size() >= 3 && words[2] == "TRIGGER"))) {
        in_trigger = true;
      }
      // CASE ... END inside a trigger's body closes with END too.
      if (in_trigger && (w == "BEGIN" || w == "CASE")) ++trigger_depth;
      if (in_trigger && w == "END") --trigger_depth;
    }
    if (t.kind == Kind::Symbol && t.text == ";" && trigger_depth == 0) {
      statements.push_back(current);
      current.clear();
      any = false;
      in_trigger = false;
      words.clear();
    }
  }
  if (any) statements.push_back(current);
  // Drop the spaces around each statement.
  for (std::string& st : statements) {
    const auto first = st.find_first_not_of(" \t\r\n");
    const auto last = st.find_last_not_of(" \t\r\n");
    st = first == std::string::npos ? "" : st.substr(first, last - first + 1);
  }
  std::erase_if(statements, [](const std::string& st) { return st.empty() || st == ";"; });
  return statements;
}

void SqlDialect::learn(std::string_view statement) {
  const Statement s(statement);
  if (s.word(0, "CREATE") &&
      (s.word(1, "TABLE") ||
       (s.word(2, "TABLE") && (s.word(1, "TEMP") || s.word(1, "TEMPORARY"))))) {
    const std::size_t name_at = table_name_index(s, s.word(1, "TABLE") ? 2 : 3);
    if (s.word(name_at + 1, "AS")) return;
    TableShape shape;
    std::size_t close = 0;
    for (auto [first, last] : table_parts(s, name_at + 1, &close)) {
      if (is_table_constraint(s, first)) {
        std::size_t k = first;
        if (s.word(k, "CONSTRAINT")) k += 2;
        if (s.word(k, "PRIMARY") && s.word(k + 1, "KEY")) shape.key = name_list(s, k + 2).first;
        continue;
      }
      const std::string column = name_of(s.at(first));
      shape.columns.push_back(column);
      for (std::size_t k = first + 1; k + 1 < last; ++k) {
        if (s.word(k, "PRIMARY") && s.word(k + 1, "KEY")) shape.key = {column};
      }
    }
    tables_[name_of(s.at(name_at))] = std::move(shape);
    return;
  }
  if (s.word(0, "DROP") && s.word(1, "TABLE")) {
    std::size_t k = 2;
    if (s.word(k, "IF") && s.word(k + 1, "EXISTS")) k += 2;
    if (k + 2 < s.size() && s.symbol(k + 1, ".")) k += 2;
    if (k < s.size()) tables_.erase(name_of(s.at(k)));
    return;
  }
  if (!(s.word(0, "ALTER") && s.word(1, "TABLE"))) return;
  const std::size_t name_at = table_name_index(s, 2);
  const std::string table = name_of(s.at(name_at));
  const auto found = tables_.find(table);
  if (found == tables_.end()) return;
  TableShape& shape = found->second;
  std::size_t k = name_at + 1;
  auto column_at = [&](std::size_t at) {
    if (at >= s.size() || !is_name(s.at(at))) throw SqlDialectError("SQL: a column was expected");
    return name_of(s.at(at));
  };
  if (s.word(k, "ADD")) {
    if (s.word(k + 1, "COLUMN")) ++k;
    shape.columns.push_back(column_at(k + 1));
  } else if (s.word(k, "DROP")) {
    if (s.word(k + 1, "COLUMN")) ++k;
    std::erase(shape.columns, column_at(k + 1));
  } else if (s.word(k, "RENAME") && s.word(k + 1, "TO")) {
    TableShape moved = std::move(shape);
    tables_.erase(found);
    tables_[column_at(k + 2)] = std::move(moved);
  } else if (s.word(k, "RENAME")) {
    if (s.word(k + 1, "COLUMN")) ++k;
    const std::string from = column_at(k + 1);
    const std::string to = column_at(k + 3);
    std::replace(shape.columns.begin(), shape.columns.end(), from, to);
    std::replace(shape.key.begin(), shape.key.end(), from, to);
  }
}

const TableShape* SqlDialect::table(std::string_view name) const {
  const auto found = tables_.find(lower(name));
  return found == tables_.end() ? nullptr : &found->second;
}

// Whether the table joined from token `from` on has an ON of its own: the next ON at the same
// depth of parentheses, before the next join, clause or the end of the enclosing parentheses.
// SQLite lets a subquery in FROM go without a name; PostgreSQL (before 16) wants one. Each
// unnamed "FROM (SELECT ...)" gets "AS subquery_N".
static void name_subqueries(Statement& s) {
  int named = 0;
  for (std::size_t k = 0; k + 2 < s.size(); ++k) {
    if (!(s.word(k, "FROM") || s.word(k, "JOIN")) || !s.symbol(k + 1, "(") ||
        !s.word(k + 2, "SELECT")) {
      continue;
    }
    std::size_t close = k + 1;
    for (int depth = 0; close < s.size(); ++close) {
      if (s.symbol(close, "(")) ++depth;
      if (s.symbol(close, ")") && --depth == 0) break;
    }
    if (close >= s.size()) return;  // unbalanced: PostgreSQL will say so
    const std::size_t next = close + 1;
    bool unnamed = next >= s.size() || s.at(next).kind == Kind::Symbol;
    for (const char* word : {"WHERE", "ORDER", "GROUP", "LIMIT", "JOIN", "UNION", "INNER", "LEFT",
                             "CROSS", "ON", "HAVING", "EXCEPT", "INTERSECT", "OFFSET", "WINDOW"}) {
      unnamed = unnamed || s.word(next, word);
    }
    if (unnamed) s.insert_before(next, "AS subquery_" + std::to_string(++named));
  }
}

static bool cross_join_has_on(const Statement& s, std::size_t from) {
  int depth = 0;
  for (std::size_t k = from; k < s.size(); ++k) {
    if (s.symbol(k, "(")) ++depth;
    if (s.symbol(k, ")") && --depth < 0) return false;
    if (depth != 0) continue;
    if (s.symbol(k, ",")) return false;
    for (const char* word : {"JOIN", "WHERE", "GROUP", "ORDER", "LIMIT", "UNION", "USING"}) {
      if (s.word(k, word)) return false;
    }
    if (s.word(k, "ON")) return true;
  }
  return false;
}

std::string SqlDialect::to_postgresql(std::string_view sql) const {
  Statement s(sql);
  if (s.size() == 0) throw SqlDialectError("SQL: the statement is empty");
  for (std::size_t k = 0; k + 1 < s.size(); ++k) {
    if (s.symbol(k, ";")) throw SqlDialectError("SQL: one statement at a time (split_statements)");
  }
  const std::string first = upper(s.at(0).text);
  if (first == "PRAGMA" || first == "ATTACH" || first == "DETACH") {
    throw SqlDialectError("SQL: " + first + " is SQLite's own; PostgreSQL has no such statement");
  }
  if (first == "CREATE" && s.word(1, "VIRTUAL")) {
    throw SqlDialectError("SQL: a virtual table is SQLite's own");
  }
  if (first == "CREATE" && s.top_level_word(1, "TRIGGER") && *s.top_level_word(1, "TRIGGER") <= 3) {
    throw SqlDialectError("SQL: a trigger is written differently in PostgreSQL");
  }

  // Parameters: ?N keeps its number, a bare ? takes one more than the largest so far.
  int largest = 0;
  for (std::size_t k = 0; k < s.size(); ++k) {
    Token& t = s.at(k);
    if (t.kind != Kind::Parameter) continue;
    if (t.text[0] != '?') {
      throw SqlDialectError("SQL: the named parameter " + t.text + " is not supported; use ?N");
    }
    int number = 0;
    if (t.text.size() == 1) {
      number = largest + 1;
    } else {
      for (std::size_t i = 1; i < t.text.size(); ++i) {
        if (!std::isdigit(static_cast<unsigned char>(t.text[i]))) {
          throw SqlDialectError("SQL: the parameter " + t.text + " is not a number");
        }
        number = number * 10 + (t.text[i] - '0');
        if (number > 32766) throw SqlDialectError("SQL: the parameter " + t.text + " is too large");
      }
    }
    if (number < 1) throw SqlDialectError("SQL: parameters are numbered from 1");
    largest = std::max(largest, number);
    t.text = "$" + std::to_string(number);
  }

  // Word by word: functions, ==, INDEXED BY, GLOB.
  for (std::size_t k = 0; k < s.size(); ++k) {
    Token& t = s.at(k);
    if (t.kind == Kind::Symbol && t.text == "==") t.text = "=";
    if (t.kind == Kind::Symbol && (t.text == "->" || t.text == "->>")) {
      throw SqlDialectError("SQL: SQLite's JSON operator " + t.text + " is not supported");
    }
    if (t.kind != Kind::Word) continue;
    const std::string w = upper(t.text);
    if (w == "GLOB") throw SqlDialectError("SQL: GLOB has no PostgreSQL twin; use LIKE");
    const bool call = s.symbol(k + 1, "(");
    if (call && w == "IFNULL") t.text = "COALESCE";
    if (call && (w == "MIN" || w == "MAX" || w == "SUM" || w == "AVG")) {
      rewrite_aggregate_call(s, k);
    }
    if (call && w == "JSON_EXTRACT") rewrite_json_extract(s, k);
    if (call && w == "JSON_EACH") rewrite_json_each(s, k);
    if (call && functions_without_twin().contains(w)) {
      throw SqlDialectError("SQL: SQLite's " + lower(w) + "() has no PostgreSQL twin here");
    }
    if (w == "IS") rewrite_is(s, k);
    if (w == "COLLATE" && s.word(k + 1, "NOCASE")) {
      k = rewrite_collate_nocase(s, k);
      continue;
    }
    if (w == "CROSS" && s.word(k + 1, "JOIN") && cross_join_has_on(s, k + 2)) {
      // SQLite reads "CROSS JOIN ... ON" as an inner join in the order written; PostgreSQL
      // allows no ON after CROSS JOIN, and its inner join is the same rows.
      s.erase(k, 1);
      --k;
      continue;
    }
    if (w == "INDEXED" && s.word(k + 1, "BY") && k + 2 < s.size()) {
      s.erase(k, 3);
      --k;
    } else if (w == "NOT" && s.word(k + 1, "INDEXED")) {
      s.erase(k, 2);
      --k;
    }
  }

  name_subqueries(s);
  if (first == "BEGIN") {
    if (s.word(1, "DEFERRED") || s.word(1, "IMMEDIATE") || s.word(1, "EXCLUSIVE")) s.erase(1, 1);
  } else if (first == "INSERT" || first == "REPLACE") {
    rewrite_insert(s, tables_);
  } else if (first == "UPDATE" && s.word(1, "OR")) {
    throw SqlDialectError("SQL: UPDATE OR ... has no PostgreSQL form");
  } else if (first == "CREATE" && (s.word(1, "TABLE") || s.word(2, "TABLE"))) {
    rewrite_create_table(s, table_name_index(s, s.word(1, "TABLE") ? 2 : 3));
  } else if (first == "ALTER" && s.word(1, "TABLE")) {
    rewrite_types(s, 3, s.size());
  }
  return s.text();
}

}  // namespace viktory::server
