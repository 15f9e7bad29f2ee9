// server/ is grouped by concern (server/README.md): each folder's README says, on its line "May
// include:", which other folders its files may include. This test reads those lines and every
// #include of the server's files, and fails on an include that a README does not allow, so the
// arrows between folders change only with their README.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

const fs::path kServer = VIKTORY_SERVER_DIR;
// The folders by concern (notify/ and text/ are libraries of their own, tutorial/ is data).
const std::set<std::string> kFolders = {"net",     "hub",       "games",   "seats",
                                        "players", "fair_play", "storage", "common"};

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The folders (and "." for the root's config.h) a README's "May include:" paragraph names.
std::set<std::string> allowed_by(const std::string& readme) {
  const auto at = readme.find("May include:");
  if (at == std::string::npos) return {};
  const auto end = readme.find("\n\n", at);
  const std::string paragraph = readme.substr(at, end == std::string::npos ? end : end - at);
  std::set<std::string> out;
  const std::regex folder("`([a-z_]+)/`");
  for (auto it = std::sregex_iterator(paragraph.begin(), paragraph.end(), folder);
       it != std::sregex_iterator(); ++it) {
    out.insert((*it)[1]);
  }
  if (paragraph.find("`config.h`") != std::string::npos) out.insert(".");
  return out;
}

// Every header of the server's folders and root, by name: which folder it lives in.
std::map<std::string, std::string> header_folders() {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::directory_iterator(kServer)) {
    if (e.path().extension() == ".h") out[e.path().filename().string()] = ".";
  }
  for (const std::string& folder : kFolders) {
    for (const auto& e : fs::directory_iterator(kServer / folder)) {
      if (e.path().extension() == ".h") out[e.path().filename().string()] = folder;
    }
  }
  return out;
}

TEST(ServerFolders, EveryFolderHasAReadmeThatSaysWhatItMayInclude) {
  ASSERT_TRUE(fs::exists(kServer / "README.md"));
  for (const std::string& folder : kFolders) {
    const fs::path readme = kServer / folder / "README.md";
    ASSERT_TRUE(fs::exists(readme)) << readme;
    EXPECT_NE(read(readme).find("May include:"), std::string::npos) << readme;
    // The map names every folder.
    EXPECT_NE(read(kServer / "README.md").find("`" + folder + "/`"), std::string::npos) << folder;
  }
}

TEST(ServerFolders, NoFileIncludesAFolderItsReadmeDoesNotAllow) {
  const auto headers = header_folders();
  ASSERT_GT(headers.size(), 40u);  // the folders were found
  const std::regex include("^#include \"([a-z_]+\\.h)\"");
  int checked = 0;
  for (const std::string& folder : kFolders) {
    std::set<std::string> allowed = allowed_by(read(kServer / folder / "README.md"));
    allowed.insert(folder);
    for (const auto& e : fs::directory_iterator(kServer / folder)) {
      const auto ext = e.path().extension();
      if (ext != ".h" && ext != ".cpp") continue;
      std::istringstream lines(read(e.path()));
      std::string line;
      while (std::getline(lines, line)) {
        std::smatch m;
        if (!std::regex_search(line, m, include)) continue;
        const auto it = headers.find(m[1]);
        if (it == headers.end()) continue;  // the engine's, protocol's or a library's
        ++checked;
        EXPECT_TRUE(allowed.count(it->second))
            << "server/" << folder << "/" << e.path().filename().string() << " includes " << m[1]
            << " from " << it->second << "/, which server/" << folder
            << "/README.md does not allow";
      }
    }
  }
  EXPECT_GT(checked, 100);
}

// A folder that leaves a README's arrow unused is allowed (the README says "may"); but no README
// names a folder that does not exist.
TEST(ServerFolders, TheReadmesNameOnlyFoldersThatExist) {
  for (const std::string& folder : kFolders) {
    for (const std::string& named : allowed_by(read(kServer / folder / "README.md"))) {
      EXPECT_TRUE(named == "." || kFolders.count(named)) << folder << " names " << named;
    }
  }
}

}  // namespace
