// The web client's static files, loaded into memory once: each with its version (from the
// SHA-256 of what is served), its strong validator (ETag) and, when that saves bytes, its gzip
// form, compressed once here rather than per request. HTML files are rewritten as they are
// loaded so that every file they name carries its version in its URL ("js/app.js?v=<version>"),
// and an import map (written into the `<!-- viktory:importmap -->` placeholder) gives every ES
// module its versioned URL, so that the browser may keep versioned files for a year
// (docs/server.md, "Static files: versions, caching, compression").
//
// Edits on disk are noticed: a request for a file whose size or time changed (or that appeared)
// loads the whole folder again, at most once a second; until then that file is served from disk
// without a version.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace viktory::server {

struct StaticFile {
  std::string path;          // relative to the web root, '/'-separated: "js/app.js"
  std::string content_type;  // content_type_for(path)
  std::string body;          // what is served (HTML: rewritten)
  std::string gzip;          // `body` gzipped, or empty when that saves too little
  std::string version;       // 16 hex digits of the SHA-256 of `body`
  // HTML: the Content-Security-Policy, which allows its inline import map by its hash; the
  // verifier's worker script: its own policy (worker_content_security_policy).
  std::string content_security_policy;
  std::filesystem::file_time_type modified;  // of the file on disk, to notice edits
  std::uintmax_t disk_size = 0;

  std::string etag(bool gzipped) const {
    return gzipped ? "\"" + version + ".gz\"" : "\"" + version + "\"";
  }
};

struct StaticLimits {
  std::size_t max_file_bytes = 16 * 1024 * 1024;  // larger files are served from disk
  std::size_t max_total_bytes = 64 * 1024 * 1024;
  std::size_t max_files = 4096;
};

// The policy of the client's HTML: `script_hashes` ("'sha256-...'") names inline scripts it
// allows (the import map). It allows no WebAssembly.
std::string content_security_policy(std::string_view script_hashes = "");
// The script of the verifier's worker (web-client/js/verify_worker.js) and its own policy, the
// only one with 'wasm-unsafe-eval' (docs/fair-play.md, "Implementation").
inline constexpr std::string_view kVerifierWorker = "js/verify_worker.js";
bool runs_webassembly(std::string_view path);
std::string worker_content_security_policy();

class StaticFiles {
 public:
  explicit StaticFiles(std::filesystem::path root, StaticLimits limits = {});

  // The loaded file that `file` (a path from resolve_static_path) names, or nothing: then the
  // caller serves it from disk (not loaded: too large, past the budget, or changed on disk
  // less than a second after the last load).
  std::shared_ptr<const StaticFile> find(const std::filesystem::path& file);
  // The loaded file at `relative` ("js/app.js"), as loaded; for tests.
  std::shared_ptr<const StaticFile> loaded(const std::string& relative) const;

  std::uint64_t loads() const;  // how often the folder was loaded (1 after construction)
  std::size_t files() const;
  std::size_t bytes() const;  // loaded bodies and their gzip forms

 private:
  struct Snapshot {
    std::filesystem::path root;  // canonical
    std::unordered_map<std::string, std::shared_ptr<const StaticFile>> files;
    // Files left on disk (past a limit), with their size and time, so that asking for one of
    // them does not look like an edit.
    std::unordered_map<std::string, std::pair<std::uintmax_t, std::filesystem::file_time_type>>
        skipped;
    std::size_t bytes = 0;
  };
  std::shared_ptr<const Snapshot> load() const;
  std::shared_ptr<const Snapshot> current() const;

  const std::filesystem::path root_;
  const StaticLimits limits_;
  mutable std::mutex mutex_;
  std::shared_ptr<const Snapshot> snapshot_;
  std::chrono::steady_clock::time_point loaded_at_;
  std::uint64_t loads_ = 0;
};

}  // namespace viktory::server
