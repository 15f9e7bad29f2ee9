// The web root in memory (server/net/static_files.h): versions, the import map and its hash in the
// policy, references rewritten in HTML and in the manifest, gzip forms, edits noticed, limits;
// gzip and Accept-Encoding (server/net/gzip.h); which API answers may be compressed (BREACH).

#include "static_files.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "gzip.h"
#include "http_session.h"
#include "hub.h"
#include "notify/base64url.h"
#include "sha256.h"
#include "store.h"
#include "test_support.h"
#include "token.h"

namespace viktory::server {
namespace {

using testing::TempDir;
namespace fs = std::filesystem;

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
}

std::string version_of(const std::string& text) { return sha256_hex(text).substr(0, 16); }

TEST(Gzip, RoundTripsAndShrinksText) {
  std::string text;
  for (int i = 0; i < 500; ++i) text += "{\"seq\":" + std::to_string(i) + ",\"kind\":\"move\"},";
  const std::string packed = gzip_compress(text, 9);
  EXPECT_LT(packed.size() * 5, text.size());
  ASSERT_GE(packed.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(packed[0]), 0x1f);  // the gzip magic
  EXPECT_EQ(static_cast<unsigned char>(packed[1]), 0x8b);
  EXPECT_EQ(gzip_decompress(packed, 1 << 20), text);
  EXPECT_EQ(gzip_decompress(packed.substr(0, packed.size() - 3), 1 << 20), std::nullopt);
  EXPECT_EQ(gzip_decompress(packed, 100), std::nullopt);  // would inflate past the bound
  EXPECT_EQ(gzip_decompress(gzip_compress("", 6), 10), "");
}

TEST(Gzip, AcceptEncoding) {
  EXPECT_TRUE(accepts_gzip("gzip"));
  EXPECT_TRUE(accepts_gzip("gzip, deflate, br, zstd"));
  EXPECT_TRUE(accepts_gzip("br;q=1.0, GZIP;q=0.5"));
  EXPECT_TRUE(accepts_gzip("x-gzip"));
  EXPECT_TRUE(accepts_gzip("*"));
  EXPECT_FALSE(accepts_gzip(""));
  EXPECT_FALSE(accepts_gzip("identity"));
  EXPECT_FALSE(accepts_gzip("br, deflate"));
  EXPECT_FALSE(accepts_gzip("gzip;q=0"));
  EXPECT_FALSE(accepts_gzip("gzip; q=0.000"));
  EXPECT_FALSE(accepts_gzip("*, gzip;q=0"));  // named wins over the wildcard
  EXPECT_FALSE(accepts_gzip("gzipped"));
}

class StaticFilesTest : public ::testing::Test {
 protected:
  StaticFilesTest() {
    write(root() / "index.html",
          "<!doctype html><head><link rel=\"stylesheet\" href=\"css/style.css\">"
          "<link rel=\"manifest\" href=\"manifest.webmanifest\">"
          "<link rel=\"icon\" href=\"https://elsewhere.example/x.svg\">"
          "<!-- viktory:importmap --></head><body><a href=\"#/account\">account</a>"
          "<img src=\"missing.png\"><script type=\"module\" src=\"js/app.js\"></script></body>");
    write(root() / "css" / "style.css", std::string(2000, 'a') + "\n");
    write(root() / "js" / "app.js", "import './util.js';\n" + std::string(1000, ' ') + "\n");
    write(root() / "js" / "util.js", "export const x = 1;\n");
    write(root() / "js" / "verify_worker.js", "import './util.js';\n");
    write(root() / "js" / "game" / "log.js", "export const y = 2;\n");
    write(root() / "dev" / "fixture.js", "export const dev = 3;\n");
    write(root() / "i18n" / "de.json", R"({"title.lobby":"Lobby"})");
    write(root() / "data" / "other.json", "{}");
    write(root() / "sw.js", "self.addEventListener('push', () => {});\n");
    write(root() / "icons" / "icon-192.png", std::string("\x89PNG\r\n\x1a\n", 8) + "pixels");
    write(root() / "manifest.webmanifest",
          R"({"name":"V","icons":[{"src":"icons/icon-192.png","sizes":"192x192"}]})");
    write(root() / ".secret" / "key.txt", "not served");
  }
  fs::path root() const { return dir.path() / "web"; }

  TempDir dir;
};

TEST_F(StaticFilesTest, VersionsEveryFileAndWritesTheImportMapIntoTheHtml) {
  StaticFiles files(root());
  EXPECT_EQ(files.loads(), 1u);
  EXPECT_EQ(files.loaded(".secret/key.txt"), nullptr);

  const auto util = files.loaded("js/util.js");
  ASSERT_NE(util, nullptr);
  EXPECT_EQ(util->version, version_of("export const x = 1;\n"));
  EXPECT_EQ(util->etag(false), "\"" + util->version + "\"");
  EXPECT_EQ(util->etag(true), "\"" + util->version + ".gz\"");
  EXPECT_TRUE(util->gzip.empty()) << "too small to be worth a second form";
  const auto style = files.loaded("css/style.css");
  ASSERT_NE(style, nullptr);
  ASSERT_FALSE(style->gzip.empty());
  EXPECT_EQ(gzip_decompress(style->gzip, 1 << 20), style->body);
  EXPECT_TRUE(files.loaded("icons/icon-192.png")->gzip.empty()) << "images are not compressed";

  // The manifest names its icons by their versions.
  const auto manifest = nlohmann::json::parse(files.loaded("manifest.webmanifest")->body);
  const std::string icon_version = files.loaded("icons/icon-192.png")->version;
  EXPECT_EQ(manifest["icons"][0]["src"], "icons/icon-192.png?v=" + icon_version);

  const auto index = files.loaded("index.html");
  ASSERT_NE(index, nullptr);
  const std::string& html = index->body;
  const std::string app_version = files.loaded("js/app.js")->version;
  EXPECT_NE(html.find("src=\"js/app.js?v=" + app_version + "\""), std::string::npos) << html;
  EXPECT_NE(html.find("href=\"css/style.css?v=" + style->version + "\""), std::string::npos);
  EXPECT_NE(html.find("href=\"manifest.webmanifest?v=" +
                      files.loaded("manifest.webmanifest")->version + "\""),
            std::string::npos);
  // Other sites, fragments and files that do not exist are left as they are.
  EXPECT_NE(html.find("href=\"https://elsewhere.example/x.svg\""), std::string::npos);
  EXPECT_NE(html.find("href=\"#/account\""), std::string::npos);
  EXPECT_NE(html.find("src=\"missing.png\""), std::string::npos);

  const auto open = html.find("<script type=\"importmap\">");
  ASSERT_NE(open, std::string::npos);
  const auto start = open + std::string_view("<script type=\"importmap\">").size();
  const std::string map_text = html.substr(start, html.find("</script>", start) - start);
  const auto map = nlohmann::json::parse(map_text)["imports"];
  EXPECT_EQ(map["/js/util.js"], "/js/util.js?v=" + util->version);
  EXPECT_EQ(map["/js/game/log.js"], "/js/game/log.js?v=" + files.loaded("js/game/log.js")->version);
  EXPECT_FALSE(map.contains("/dev/fixture.js")) << "developer pages are not versioned";
  EXPECT_FALSE(map.contains("/sw.js")) << "the service worker keeps its one URL";
  // The message catalogs, which js/i18n.js fetches by import.meta.resolve and lists as the
  // languages on offer; no other JSON.
  EXPECT_EQ(map["/i18n/de.json"], "/i18n/de.json?v=" + files.loaded("i18n/de.json")->version);
  EXPECT_FALSE(map.contains("/data/other.json"));
  // The policy allows this inline script, and no other, by its hash.
  const auto digest = protocol::sha256(protocol::as_bytes(map_text));
  const std::string hash = notify::base64_encode(
      std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));
  EXPECT_NE(index->content_security_policy.find("script-src 'self' 'sha256-" + hash + "'"),
            std::string::npos)
      << index->content_security_policy;
  // The page compiles no WebAssembly: only the verifier's worker may (docs/fair-play.md).
  EXPECT_EQ(index->content_security_policy.find("wasm-unsafe-eval"), std::string::npos);
  EXPECT_EQ(index->version, version_of(html));
}

// Only the verifier's worker script may compile WebAssembly (a dedicated worker follows its own
// script's policy); every other file, the page above all, may not.
TEST_F(StaticFilesTest, OnlyTheVerifiersWorkerScriptAllowsWebAssembly) {
  StaticFiles files(root());
  const auto worker = files.loaded("js/verify_worker.js");
  ASSERT_NE(worker, nullptr);
  EXPECT_NE(worker->content_security_policy.find("script-src 'self' 'wasm-unsafe-eval'"),
            std::string::npos)
      << worker->content_security_policy;
  for (const char* other : {"index.html", "js/app.js", "js/util.js"}) {
    EXPECT_EQ(files.loaded(other)->content_security_policy.find("wasm-unsafe-eval"),
              std::string::npos)
        << other;
  }
}

TEST_F(StaticFilesTest, AnEditOnDiskIsServedWithItsNewVersion) {
  StaticFiles files(root());
  const auto before = files.find(fs::canonical(root() / "js" / "util.js"));
  ASSERT_NE(before, nullptr);
  const std::string old_index = files.loaded("index.html")->body;

  // A second after the load the folder may be loaded again (file times can be coarse).
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  write(root() / "js" / "util.js", "export const x = 22;\n");
  const auto after = files.find(fs::canonical(root() / "js" / "util.js"));
  ASSERT_NE(after, nullptr);
  EXPECT_EQ(after->body, "export const x = 22;\n");
  EXPECT_EQ(after->version, version_of("export const x = 22;\n"));
  EXPECT_EQ(files.loads(), 2u);
  // The page's import map follows.
  const std::string& index = files.loaded("index.html")->body;
  EXPECT_NE(index, old_index);
  EXPECT_NE(index.find("/js/util.js?v=" + after->version), std::string::npos);
  // Nothing changed: no other load.
  EXPECT_NE(files.find(fs::canonical(root() / "js" / "util.js")), nullptr);
  EXPECT_EQ(files.loads(), 2u);
}

TEST_F(StaticFilesTest, FilesPastTheLimitsAreLeftOnDiskWithoutReloading) {
  write(root() / "big.txt", std::string(5000, 'b'));
  StaticLimits limits;
  limits.max_file_bytes = 4096;
  StaticFiles files(root(), limits);
  EXPECT_EQ(files.loaded("big.txt"), nullptr);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  EXPECT_EQ(files.find(fs::canonical(root() / "big.txt")), nullptr);
  EXPECT_EQ(files.loads(), 1u) << "a file left on disk is not taken for an edit";
  EXPECT_NE(files.find(fs::canonical(root() / "js" / "app.js")), nullptr);

  StaticLimits few;
  few.max_files = 3;
  StaticFiles some(root(), few);
  EXPECT_EQ(some.files(), 3u);
}

// A database in the web root (the tests put it there) is neither loaded nor served: reading it
// would drop the SQLite locks of this process (http_session.h, is_web_file).
TEST_F(StaticFilesTest, OnlyTheWebClientsKindsOfFilesAreLoaded) {
  write(root() / "game.db", "SQLite format 3");
  write(root() / "game.db-wal", "wal");
  write(root() / "notes", "no extension");
  StaticFiles files(root());
  EXPECT_EQ(files.loaded("game.db"), nullptr);
  EXPECT_EQ(files.loaded("game.db-wal"), nullptr);
  EXPECT_EQ(files.loaded("notes"), nullptr);
  EXPECT_NE(files.loaded("js/app.js"), nullptr);
  EXPECT_FALSE(is_web_file("game.db"));
  EXPECT_FALSE(is_web_file("game.db-shm"));
  EXPECT_TRUE(is_web_file("verify/verifier.wasm"));
  EXPECT_TRUE(is_web_file("manifest.webmanifest"));
}

// BREACH: an answer that holds a secret (a token, a sign-in code) next to text an attacker
// may choose must never be compressed; the game lists and replays hold none and may be.
TEST(ApiCompression, OnlyAnswersWithoutSecretsMayBeCompressed) {
  TempDir dir;
  Store store(dir.file("hub.db"));
  Metrics metrics;
  Hub hub(store, metrics, HubOptions{});
  const ApiResponse session =
      hub.handle_api("POST", "/api/session", R"({"name":"Eve"})", "", "192.0.2.1");
  ASSERT_EQ(session.status, 200) << session.body;
  EXPECT_FALSE(session.compressible);
  const std::string token = nlohmann::json::parse(session.body)["token"];
  EXPECT_TRUE(hub.handle_api("GET", "/api/games", "", "", "192.0.2.1").compressible);
  EXPECT_TRUE(
      hub.handle_api("GET", "/api/my-games", "", "Bearer " + token, "192.0.2.1").compressible);
  EXPECT_FALSE(hub.handle_api("GET", "/api/nothing", "", "", "192.0.2.1").compressible);
}

}  // namespace
}  // namespace viktory::server
