#include <gtest/gtest.h>

#include <fstream>

#include "http_session.h"
#include "test_support.h"

namespace viktory::server {
namespace {

namespace fs = std::filesystem;

class StaticPath : public ::testing::Test {
 protected:
  void SetUp() override {
    root = dir.path() / "web";
    fs::create_directories(root / "js");
    std::ofstream(root / "index.html") << "<html></html>";
    std::ofstream(root / "js" / "app.js") << "export {};";
    std::ofstream(root / ".secret") << "no";
    std::ofstream(dir.path() / "outside.txt") << "no";
    fs::create_symlink(dir.path() / "outside.txt", root / "link.txt");
  }
  testing::TempDir dir;
  fs::path root;
};

TEST_F(StaticPath, ServesFilesUnderTheRoot) {
  EXPECT_EQ(resolve_static_path(root, "/")->filename(), "index.html");
  EXPECT_EQ(resolve_static_path(root, "/js/app.js?v=3")->filename(), "app.js");
  EXPECT_EQ(resolve_static_path(root, "/js/%61pp.js")->filename(), "app.js");
  EXPECT_FALSE(resolve_static_path(root, "/js/"));  // no index.html in js/
}

TEST_F(StaticPath, RefusesTraversalHiddenFilesAndEscapes) {
  for (const char* bad :
       {"/../outside.txt", "/js/../../outside.txt", "/%2e%2e/outside.txt",
        "/js/%2E%2E/%2E%2E/outside.txt", "/.secret", "/js\\..\\index.html", "/index.html%00.js",
        "//etc/passwd", "/%zz", "/missing.html", "/link.txt", "/js", "relative"}) {
    EXPECT_FALSE(resolve_static_path(root, bad)) << bad;
  }
}

TEST(ContentType, ByExtension) {
  EXPECT_EQ(content_type_for("a/index.html"), "text/html; charset=utf-8");
  EXPECT_EQ(content_type_for("a/app.js"), "text/javascript; charset=utf-8");
  EXPECT_EQ(content_type_for("a/style.css"), "text/css; charset=utf-8");
  EXPECT_EQ(content_type_for("a/map.svg"), "image/svg+xml");
  EXPECT_EQ(content_type_for("a/blob.bin"), "application/octet-stream");
}

}  // namespace
}  // namespace viktory::server
