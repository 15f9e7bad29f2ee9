// The message catalogs on the server (server/text/catalog.h): the browser's files, read by the
// server for the texts it writes in a reader's language.
#include "catalog.h"

#include <gtest/gtest.h>

#include <fstream>

#include "test_support.h"

namespace viktory::text {
namespace {

TEST(CatalogTest, TheBuiltInCatalogsAreTheBrowsersFiles) {
  const Catalogs built = Catalogs::builtin();
  EXPECT_TRUE(built.has("en"));
  EXPECT_TRUE(built.has("de"));
  EXPECT_EQ(built.text("en", "title.lobby"_key), "Lobby");
  EXPECT_EQ(built.text("de", "lobby.game"_key, {{"id", 1200}}), "Partie 1200")
      << "a number other than {count} stays as it is";
  EXPECT_EQ(built.text("de", "lobby.games"_key, {{"count", 1}}), "1 Partie");
  EXPECT_EQ(built.text("de", "lobby.games"_key, {{"count", 1200}}), "1.200 Partien");
  EXPECT_EQ(built.text("en", "lobby.games"_key, {{"count", 1200}}), "1,200 games");
}

TEST(CatalogTest, AMissingTextIsEnglishAndAnUnknownKeyIsTheKey) {
  Catalogs c;
  c.add("en", {{"greet", "Hello {name}"}, {"only.en", "Only English"}});
  c.add("de", {{"greet", "Hallo {name}"}});
  EXPECT_EQ(c.text("de", "greet"_key, {{"name", "Ann"}}), "Hallo Ann");
  EXPECT_EQ(c.text("de", "only.en"_key), "Only English");
  EXPECT_EQ(c.text("fr", "greet"_key, {{"name", "Ann"}}), "Hello Ann") << "no French: English";
  EXPECT_EQ(c.text("de", "no.such"_key), "no.such");
  EXPECT_EQ(c.text("de", "greet"_key), "Hallo {name}") << "a placeholder without a value stays";
}

TEST(CatalogTest, AParameterMayBeAMessageInTheSameLanguage) {
  Catalogs c;
  c.add("en", {{"moves", "{unit} moves to {hex}."}, {"unit.infantry", "Infantry"}});
  c.add("de", {{"moves", "{unit} zieht nach {hex}."}, {"unit.infantry", "Infanterie"}});
  const nlohmann::json params{{"unit", {{"key", "unit.infantry"}}}, {"hex", "C4"}};
  EXPECT_EQ(c.text("de", "moves"_key, params), "Infanterie zieht nach C4.");
  EXPECT_EQ(c.text("en", "moves"_key, params), "Infantry moves to C4.");
  // A moment: the same for every reader on the server (a browser writes it in his time zone).
  c.add("en", {{"until", "until {at}."}});
  EXPECT_EQ(c.text("en", "until"_key, {{"at", {{"time", 1795924260000}}}}),
            "until 2026-11-29 03:51 UTC.");
}

TEST(CatalogTest, PluralFormsFollowTheLanguagesRules) {
  // CLDR's categories of whole numbers, as Intl.PluralRules gives them.
  EXPECT_EQ(plural_category("en", 1), "one");
  EXPECT_EQ(plural_category("en", 0), "other");
  EXPECT_EQ(plural_category("de", 2), "other");
  EXPECT_EQ(plural_category("fr", 0), "one");
  EXPECT_EQ(plural_category("fr", 1000000), "many");
  EXPECT_EQ(plural_category("pl", 1), "one");
  EXPECT_EQ(plural_category("pl", 3), "few");
  EXPECT_EQ(plural_category("pl", 13), "many");
  EXPECT_EQ(plural_category("pl", 22), "few");
  EXPECT_EQ(plural_category("ru", 21), "one");
  EXPECT_EQ(plural_category("ru", 11), "many");
  EXPECT_EQ(plural_category("ja", 1), "other");

  Catalogs c;
  c.add("en", {{"units", {{"one", "{count} unit"}, {"other", "{count} units"}}}});
  c.add("pl", {{"units",
                {{"one", "{count} jednostka"},
                 {"few", "{count} jednostki"},
                 {"many", "{count} jednostek"},
                 {"other", "{count} jednostki"}}}});
  EXPECT_EQ(c.text("pl", "units"_key, {{"count", 3}}), "3 jednostki");
  EXPECT_EQ(c.text("pl", "units"_key, {{"count", 5}}), "5 jednostek");
  EXPECT_EQ(c.text("pl", "units"_key, {{"count", 12000}}), "12\u00a0000 jednostek");
  EXPECT_EQ(c.text("en", "units"_key, {{"count", 1}}), "1 unit");
  // English's own rules for an English text shown to a reader of another language.
  EXPECT_EQ(c.text("ja", "units"_key, {{"count", 1}}), "1 unit");
}

TEST(CatalogTest, CountsAreWrittenTheLanguagesWay) {
  EXPECT_EQ(format_count("en", 1234567), "1,234,567");
  EXPECT_EQ(format_count("de", 1200), "1.200");
  EXPECT_EQ(format_count("de", 999), "999");
  EXPECT_EQ(format_count("fr", 1200), "1\u202f200");
  EXPECT_EQ(format_count("es", 1200), "1200");
  EXPECT_EQ(format_count("es", 12000), "12.000");
  EXPECT_EQ(format_count("en", -1200), "-1,200");
}

TEST(CatalogTest, TheLanguageOfAReaderIsTheFirstHeAsksForThatHasACatalog) {
  Catalogs c;
  c.add("en", nlohmann::json::object());
  c.add("de", nlohmann::json::object());
  c.add("pt-BR", nlohmann::json::object());
  EXPECT_EQ(c.choose("de"), "de");
  EXPECT_EQ(c.choose("de-AT"), "de");
  EXPECT_EQ(c.choose("fr-FR,fr;q=0.9,de;q=0.8,en;q=0.5"), "de");
  EXPECT_EQ(c.choose("pt-br"), "pt-BR");
  EXPECT_EQ(c.choose("fr"), "en");
  EXPECT_EQ(c.choose(""), "en");
  EXPECT_EQ(c.choose("*"), "en");
}

TEST(CatalogTest, TheWebRootsFilesAddLanguagesAndWinOverTheBuiltInOnes) {
  server::testing::TempDir dir;
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir.path() / name) << text;
  };
  write("de.json", R"({"title.lobby": "Spielhalle"})");
  write("nl.json", R"json({"title.lobby": "Lobby (nl)"})json");
  write("broken.json", "{");
  write("xx-1.json", "[]");
  write("notes.txt", "not a catalog");
  Catalogs c = Catalogs::builtin();
  const auto problems = c.add_directory(dir.path());
  EXPECT_EQ(c.text("de", "title.lobby"_key), "Spielhalle");
  EXPECT_EQ(c.text("nl", "title.lobby"_key), "Lobby (nl)");
  EXPECT_EQ(c.choose("nl-BE"), "nl");
  EXPECT_FALSE(c.has("broken"));
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(c.add_directory(dir.path() / "missing").size(), 0u);
}

TEST(CatalogTest, TheProcessesCatalogsAreTheBuiltInOnesUntilOthersAreInstalled) {
  EXPECT_EQ(catalogs().text("de", "lobby.games"_key, {{"count", 2}}), "2 Partien");
  auto mine = std::make_shared<Catalogs>();
  mine->add("en", {{"title.lobby", "Hall"}});
  install_catalogs(mine);
  EXPECT_EQ(catalogs().text("de", "title.lobby"_key), "Hall");
  install_catalogs(std::make_shared<const Catalogs>(Catalogs::builtin()));
  EXPECT_EQ(catalogs().text("en", "title.lobby"_key), "Lobby");
}

}  // namespace
}  // namespace viktory::text
