#include "static_files.h"

#include <spdlog/spdlog.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "gzip.h"
#include "http_session.h"
#include "notify/base64url.h"
#include "sha256.h"
#include "token.h"

namespace viktory::server {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kImportMapPlaceholder = "<!-- viktory:importmap -->";
constexpr std::size_t kMinGzipBytes = 256;
constexpr auto kReloadInterval = std::chrono::seconds(1);

bool worth_compressing(std::string_view type) {
  return type.substr(0, 5) == "text/" || type.substr(0, 16) == "application/json" ||
         type == "application/manifest+json" || type == "application/wasm" ||
         type == "image/svg+xml";
}

bool is_html(const std::string& path) { return path.ends_with(".html"); }
bool is_manifest(const std::string& path) { return path.ends_with(".webmanifest"); }
// What the import map names: ES modules, and what modules find with import.meta.resolve: the
// WebAssembly verifier (verify.js) and the message catalogs i18n/<language>.json (i18n.js,
// which also learns from the map which languages there are).
bool is_mapped(const std::string& path) {
  if (path.substr(0, 5) == "i18n/") return path.ends_with(".json");
  return (path.ends_with(".js") || path.ends_with(".mjs") || path.ends_with(".wasm")) &&
         path.substr(0, 4) != "dev/" && path != "sw.js";
}

std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

// The file a reference in a file at `from` names ("css/style.css", "/favicon.svg"), relative to
// the root; nothing for fragments, queries, other sites and "..".
std::optional<std::string> referenced_path(const std::string& from, std::string_view reference) {
  if (reference.empty() || reference.front() == '#' ||
      reference.find_first_of(":?#\\") != std::string_view::npos ||
      reference.substr(0, 2) == "//" || reference.find("..") != std::string_view::npos) {
    return std::nullopt;
  }
  std::string path = reference.front() == '/' ? std::string(reference.substr(1))
                                              : folder_of(from) + std::string(reference);
  while (path.substr(0, 2) == "./") path.erase(0, 2);
  return path;
}

void finish(StaticFile& file) {
  file.version = sha256_hex(file.body).substr(0, 16);
  if (worth_compressing(file.content_type) && file.body.size() >= kMinGzipBytes) {
    std::string packed = gzip_compress(file.body, 9);
    // Less than a tenth saved is not worth a second form.
    if (packed.size() * 10 < file.body.size() * 9) file.gzip = std::move(packed);
  }
}

using Loaded = std::unordered_map<std::string, std::shared_ptr<StaticFile>>;

std::string versioned(const Loaded& files, const std::string& from, std::string_view reference) {
  const auto path = referenced_path(from, reference);
  if (!path) return std::string(reference);
  const auto it = files.find(*path);
  if (it == files.end() || it->second->version.empty()) return std::string(reference);
  return std::string(reference) + "?v=" + it->second->version;
}

// The icons of a web app manifest get their versions (the manifest itself then changes with
// them). A manifest that is not JSON is served as it is.
void version_manifest(StaticFile& manifest, const Loaded& files) {
  auto json = nlohmann::json::parse(manifest.body, nullptr, false);
  if (json.is_discarded() || !json.is_object()) return;
  for (const char* list : {"icons", "screenshots", "shortcuts"}) {
    auto it = json.find(list);
    if (it == json.end() || !it->is_array()) continue;
    for (auto& item : *it) {
      if (item.is_object() && item.contains("src") && item["src"].is_string()) {
        item["src"] = versioned(files, manifest.path, item["src"].get<std::string>());
      }
    }
  }
  manifest.body = json.dump(2) + "\n";
}

// Every src="..." and href="..." that names a loaded file gets its version.
std::string version_references(const std::string& html, const std::string& from,
                               const Loaded& files) {
  std::string out;
  out.reserve(html.size() + 512);
  std::size_t at = 0;
  for (;;) {
    std::size_t best = std::string::npos;
    std::size_t attribute_size = 0;
    for (std::string_view attribute : {" src=\"", " href=\""}) {
      const std::size_t found = html.find(attribute, at);
      if (found < best) {
        best = found;
        attribute_size = attribute.size();
      }
    }
    if (best == std::string::npos) break;
    const std::size_t value_start = best + attribute_size;
    const std::size_t value_end = html.find('"', value_start);
    if (value_end == std::string::npos) break;
    out.append(html, at, value_start - at);
    out +=
        versioned(files, from, std::string_view(html).substr(value_start, value_end - value_start));
    at = value_end;
  }
  out.append(html, at);
  return out;
}

}  // namespace

std::string content_security_policy(std::string_view script_hashes) {
  // The only inline script allowed is the import map, by its hash. The client is one page
  // (index.html), so the policy is the same for every route of it. It compiles no WebAssembly:
  // the verifier runs in a worker of its own (worker_content_security_policy).
  std::string scripts = "'self'";
  if (!script_hashes.empty()) {
    scripts += ' ';
    scripts += script_hashes;
  }
  return "default-src 'self'; script-src " + scripts +
         "; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self' ws: wss:; "
         "manifest-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; "
         "frame-ancestors 'none'";
}

bool runs_webassembly(std::string_view path) { return path == kVerifierWorker; }

std::string worker_content_security_policy() {
  // A dedicated worker follows its own script's policy (CSP 3, "initialize a worker's policy
  // container"): 'wasm-unsafe-eval' lets it compile the fair-play verifier (verifier.wasm). It
  // allows WebAssembly only, no JavaScript eval, and only in this worker.
  return "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; "
         "object-src 'none'; base-uri 'none'";
}

StaticFiles::StaticFiles(fs::path root, StaticLimits limits)
    : root_(std::move(root)), limits_(limits) {
  const auto started = std::chrono::steady_clock::now();
  snapshot_ = load();
  loaded_at_ = std::chrono::steady_clock::now();
  loads_ = 1;
  spdlog::info("static_files loaded={} bytes={} ms={}", snapshot_->files.size(), snapshot_->bytes,
               std::chrono::duration_cast<std::chrono::milliseconds>(loaded_at_ - started).count());
}

std::shared_ptr<const StaticFiles::Snapshot> StaticFiles::load() const {
  auto snapshot = std::make_shared<Snapshot>();
  std::error_code ec;
  snapshot->root = fs::canonical(root_, ec);
  if (ec) return snapshot;

  Loaded files;
  std::size_t total = 0;
  fs::recursive_directory_iterator it(snapshot->root, fs::directory_options::none, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.empty() && name.front() == '.') {
      // Hidden files and folders are never served (resolve_static_path).
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(ec) || !is_web_file(it->path())) continue;  // http_session.h
    const std::string relative = it->path().lexically_relative(snapshot->root).generic_string();
    const auto size = it->file_size(ec);
    const auto modified = it->last_write_time(ec);
    if (ec) break;
    if (size > limits_.max_file_bytes || total + size > limits_.max_total_bytes ||
        files.size() >= limits_.max_files) {
      snapshot->skipped[relative] = {size, modified};
      continue;
    }
    std::ifstream in(it->path(), std::ios::binary);
    std::ostringstream content;
    content << in.rdbuf();
    if (!in) continue;
    auto file = std::make_shared<StaticFile>();
    file->path = relative;
    file->content_type = std::string(content_type_for(it->path()));
    file->body = std::move(content).str();
    file->modified = modified;
    file->disk_size = size;
    total += size;
    files.emplace(relative, std::move(file));
  }
  if (ec) spdlog::warn("static_files: cannot read {}: {}", snapshot->root.string(), ec.message());

  // Plain files first, then the manifests that name them, then the HTML that names both.
  for (auto& [path, file] : files) {
    if (!is_html(path) && !is_manifest(path)) finish(*file);
    if (runs_webassembly(path)) file->content_security_policy = worker_content_security_policy();
  }
  for (auto& [path, file] : files) {
    if (is_manifest(path)) {
      version_manifest(*file, files);
      finish(*file);
    }
  }
  std::map<std::string, std::string> imports;  // sorted: the same folder gives the same map
  for (const auto& [path, file] : files) {
    if (is_mapped(path)) imports["/" + path] = "/" + path + "?v=" + file->version;
  }
  const std::string import_map = nlohmann::json{{"imports", imports}}.dump();
  const std::string import_map_hash =
      "'sha256-" +
      notify::base64_encode(std::string_view(
          reinterpret_cast<const char*>(protocol::sha256(protocol::as_bytes(import_map)).data()),
          32)) +
      "'";
  for (auto& [path, file] : files) {
    if (!is_html(path)) continue;
    std::string html = version_references(file->body, path, files);
    const auto placeholder = html.find(kImportMapPlaceholder);
    if (placeholder != std::string::npos) {
      html.replace(placeholder, kImportMapPlaceholder.size(),
                   "<script type=\"importmap\">" + import_map + "</script>");
      file->content_security_policy = content_security_policy(import_map_hash);
    } else {
      file->content_security_policy = content_security_policy();
    }
    file->body = std::move(html);
    finish(*file);
  }
  for (auto& [path, file] : files) {
    snapshot->bytes += file->body.size() + file->gzip.size();
    snapshot->files.emplace(path, std::move(file));
  }
  return snapshot;
}

std::shared_ptr<const StaticFiles::Snapshot> StaticFiles::current() const {
  std::lock_guard lock(mutex_);
  return snapshot_;
}

std::shared_ptr<const StaticFile> StaticFiles::find(const fs::path& file) {
  std::error_code ec;
  const auto size = fs::file_size(file, ec);
  if (ec) return nullptr;
  const auto modified = fs::last_write_time(file, ec);
  if (ec) return nullptr;
  enum class Found { kCurrent, kStale, kSkipped };
  auto look = [&](const Snapshot& snapshot, std::shared_ptr<const StaticFile>& out) {
    const std::string relative = file.lexically_relative(snapshot.root).generic_string();
    if (auto it = snapshot.files.find(relative); it != snapshot.files.end()) {
      if (it->second->disk_size == size && it->second->modified == modified) {
        out = it->second;
        return Found::kCurrent;
      }
      return Found::kStale;
    }
    if (auto it = snapshot.skipped.find(relative); it != snapshot.skipped.end()) {
      if (it->second.first == size && it->second.second == modified) return Found::kSkipped;
    }
    return Found::kStale;
  };
  std::shared_ptr<const StaticFile> out;
  auto snapshot = current();
  const Found found = look(*snapshot, out);
  if (found != Found::kStale) return out;

  // Changed or new on disk: load the folder again, unless that was done a moment ago (then
  // the caller serves this file from disk).
  {
    std::lock_guard lock(mutex_);
    if (snapshot_ != snapshot) {
      snapshot = snapshot_;
    } else {
      const auto now = std::chrono::steady_clock::now();
      if (now - loaded_at_ < kReloadInterval) return nullptr;
      loaded_at_ = now;  // claims the reload: others serve from disk meanwhile
      snapshot = nullptr;
    }
  }
  if (snapshot == nullptr) {
    snapshot = load();
    std::lock_guard lock(mutex_);
    snapshot_ = snapshot;
    ++loads_;
    spdlog::info("static_files reloaded={} bytes={}", snapshot->files.size(), snapshot->bytes);
  }
  return look(*snapshot, out) == Found::kCurrent ? out : nullptr;
}

std::shared_ptr<const StaticFile> StaticFiles::loaded(const std::string& relative) const {
  const auto snapshot = current();
  const auto it = snapshot->files.find(relative);
  return it == snapshot->files.end() ? nullptr : it->second;
}

std::uint64_t StaticFiles::loads() const {
  std::lock_guard lock(mutex_);
  return loads_;
}

std::size_t StaticFiles::files() const { return current()->files.size(); }

std::size_t StaticFiles::bytes() const { return current()->bytes; }

}  // namespace viktory::server
