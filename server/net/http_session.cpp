#include "http_session.h"

#include <spdlog/spdlog.h>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include "client_address.h"
#include "gzip.h"
#include "ws_session.h"

namespace viktory::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
namespace fs = std::filesystem;

namespace {

std::string_view header(const http::request<http::string_body>& req, http::field name) {
  const auto value = req[name];
  return {value.data(), value.size()};
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<std::string> percent_decode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out.push_back(s[i]);
      continue;
    }
    if (i + 2 >= s.size()) return std::nullopt;
    const int hi = hex_value(s[i + 1]), lo = hex_value(s[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  return out;
}

constexpr std::size_t kMinCompressedAnswer = 1024;  // smaller JSON answers are sent as they are
constexpr const char* kImmutable = "public, max-age=31536000, immutable";

// The value of `name` in a target's query ("v" in "/js/app.js?v=0123"), or empty.
std::string_view query_value(std::string_view target, std::string_view name) {
  const auto question = target.find('?');
  if (question == std::string_view::npos) return {};
  std::string_view query = target.substr(question + 1);
  query = query.substr(0, query.find('#'));
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? "" : query.substr(amp + 1);
    const auto eq = pair.find('=');
    if (pair.substr(0, eq) == name) return eq == std::string_view::npos ? "" : pair.substr(eq + 1);
  }
  return {};
}

// Whether an If-None-Match header names the file's content in either of its forms ("v" or
// "v.gz", weak or strong: RFC 9110 compares weakly for If-None-Match), or is "*".
bool matches_etag(std::string_view if_none_match, const StaticFile& file) {
  if (if_none_match.empty()) return false;
  const std::string plain = file.etag(false), packed = file.etag(true);
  while (!if_none_match.empty()) {
    const auto comma = if_none_match.find(',');
    std::string_view tag = if_none_match.substr(0, comma);
    if_none_match = comma == std::string_view::npos ? "" : if_none_match.substr(comma + 1);
    while (!tag.empty() && tag.front() == ' ') tag.remove_prefix(1);
    while (!tag.empty() && tag.back() == ' ') tag.remove_suffix(1);
    if (tag.substr(0, 2) == "W/") tag.remove_prefix(2);
    if (tag == "*" || tag == plain || tag == packed) return true;
  }
  return false;
}

}  // namespace

std::optional<fs::path> resolve_static_path(const fs::path& root, std::string_view target) {
  const std::string_view path = target.substr(0, target.find_first_of("?#"));
  auto decoded = percent_decode(path);
  if (!decoded || decoded->empty() || decoded->front() != '/') return std::nullopt;
  std::string relative = decoded->substr(1);
  if (relative.empty() || relative.back() == '/') relative += "index.html";
  // Reject anything but plain names separated by '/': no "..", no hidden files, no NUL, no
  // backslashes, no empty segments.
  std::size_t start = 0;
  while (start <= relative.size()) {
    const std::size_t end = std::min(relative.find('/', start), relative.size());
    const std::string_view segment = std::string_view(relative).substr(start, end - start);
    if (segment.empty() || segment.front() == '.') return std::nullopt;
    for (char c : segment) {
      if (c == '\0' || c == '\\' || static_cast<unsigned char>(c) < 0x20) return std::nullopt;
    }
    start = end + 1;
  }
  std::error_code ec;
  const fs::path base = fs::canonical(root, ec);
  if (ec) return std::nullopt;
  const fs::path file = fs::canonical(base / relative, ec);
  if (ec || !fs::is_regular_file(file, ec)) return std::nullopt;
  // Symbolic links may not lead out of the root either.
  auto [root_end, file_it] = std::mismatch(base.begin(), base.end(), file.begin(), file.end());
  if (root_end != base.end()) return std::nullopt;
  return file;
}

bool is_dev_page(const fs::path& root, const fs::path& file) {
  std::error_code ec;
  const fs::path base = fs::canonical(root, ec);
  if (ec) return false;
  auto [root_end, file_it] = std::mismatch(base.begin(), base.end(), file.begin(), file.end());
  return root_end == base.end() && file_it != file.end() && *file_it == "dev";
}

std::string_view content_type_for(const fs::path& file) {
  const std::string ext = file.extension().string();
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json" || ext == ".map") return "application/json";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".jpg" || ext == ".jpeg") return "image/jpeg";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".webmanifest") return "application/manifest+json";
  if (ext == ".woff2") return "font/woff2";
  if (ext == ".txt" || ext == ".md") return "text/plain; charset=utf-8";
  if (ext == ".wasm") return "application/wasm";
  return "application/octet-stream";
}

bool is_web_file(const fs::path& file) {
  return content_type_for(file) != "application/octet-stream";
}

namespace {

class HttpSession : public Closable, public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(net::ip::tcp::socket socket, ServerContext& context,
              std::shared_ptr<ConnectionLimiter::Guard> guard)
      : stream_(std::move(socket)), context_(context), guard_(std::move(guard)) {}

  // The client's address: the TCP peer, or whom a trusted proxy's headers name.
  std::string client_of(const http::request<http::string_body>& req) const {
    if (context_.trusted_proxies.empty()) return guard_->address();
    // Several header lines of the same field are one comma-separated list.
    auto joined = [&](beast::string_view name) {
      std::string out;
      for (auto [it, end] = req.equal_range(name); it != end; ++it) {
        if (!out.empty()) out += ',';
        out.append(it->value().data(), it->value().size());
      }
      return out;
    };
    const std::string forwarded_for = joined("X-Forwarded-For");
    const std::string forwarded = joined("Forwarded");
    return client_address(guard_->address(), forwarded_for, forwarded, context_.trusted_proxies);
  }

  ~HttpSession() override { context_.registry.remove(this); }

  void run() {
    context_.registry.add(shared_from_this());
    read();
  }

  void shutdown() override {
    auto self = weak_from_this().lock();
    if (!self) return;
    net::post(stream_.get_executor(), [self] {
      beast::error_code ignored;
      self->stream_.socket().shutdown(net::ip::tcp::socket::shutdown_both, ignored);
      self->stream_.socket().close(ignored);
    });
  }

 private:
  void read() {
    parser_.emplace();
    parser_->body_limit(64 * 1024);
    parser_->header_limit(16 * 1024);
    stream_.expires_after(std::chrono::seconds(30));
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
  }

  void on_read(beast::error_code ec, std::size_t) {
    if (ec == http::error::end_of_stream) {
      beast::error_code ignored;
      stream_.socket().shutdown(net::ip::tcp::socket::shutdown_send, ignored);
      return;
    }
    if (ec) {
      if (ec == http::error::body_limit || ec == http::error::header_limit) {
        send(text_response(http::status::payload_too_large, "request too large\n", 11, false));
      }
      return;
    }
    ++context_.metrics.http_requests;
    http::request<http::string_body> req = parser_->release();
    const std::string_view target(req.target().data(), req.target().size());
    if (beast::websocket::is_upgrade(req)) {
      if (target.substr(0, target.find('?')) == "/ws") {
        std::shared_ptr<ConnectionLimiter::Guard> guard = guard_;
        if (context_.trusted_proxies.contains(guard_->address())) {
          // Through a proxy: the client behind it gets the per-address limit the proxy's own
          // connection is spared.
          guard = context_.limiter.try_acquire(client_of(req));
          if (!guard) {
            ++context_.metrics.connections_rejected;
            spdlog::warn("connection limit reached for an address; connection refused");
            send(text_response(http::status::too_many_requests,
                               "too many connections from your address\n", req.version(), false));
            return;
          }
        }
        context_.registry.remove(this);
        guard_.reset();
        start_ws_session(std::move(stream_), std::move(req), context_, std::move(guard));
        return;
      }
      send(text_response(http::status::not_found, "no websocket here\n", req.version(), false));
      return;
    }
    handle(std::move(req));
  }

  http::response<http::string_body> text_response(
      http::status status, std::string body, unsigned version, bool keep_alive,
      std::string_view type = "text/plain; charset=utf-8") {
    http::response<http::string_body> res{status, version};
    res.set(http::field::server, "viktory-server");
    res.set(http::field::content_type, beast::string_view(type.data(), type.size()));
    res.set(http::field::cache_control, "no-store");
    res.set("X-Content-Type-Options", "nosniff");
    res.keep_alive(keep_alive);
    res.body() = std::move(body);
    res.prepare_payload();
    return res;
  }

  void handle(http::request<http::string_body> req) {
    const std::string_view target(req.target().data(), req.target().size());
    const std::string_view path = target.substr(0, target.find('?'));
    const bool keep = req.keep_alive();
    const unsigned version = req.version();
    const bool head = req.method() == http::verb::head;

    if (path == "/healthz") {
      const Health health = context_.hub.health();
      if (health.ok) return send(text_response(http::status::ok, "ok\n", version, keep));
      return send(
          text_response(http::status::service_unavailable, health.detail + "\n", version, keep));
    }
    if (path == "/metrics") {
      std::string metrics = context_.metrics.render();
      if (context_.notifier != nullptr) metrics += context_.notifier->render_metrics();
      if (context_.store != nullptr) metrics += context_.store->group_commit_metrics();
      metrics += context_.hub.computer_metrics();
      return send(text_response(http::status::ok, std::move(metrics), version, keep,
                                "text/plain; version=0.0.4; charset=utf-8"));
    }
    if (path.substr(0, 7) == "/admin/") {
      // The operator's requests: only from this machine and never through a proxy (its
      // headers mean the request came from outside, even when the proxy runs here).
      const bool forwarded = req.count("X-Forwarded-For") > 0 || req.count("Forwarded") > 0 ||
                             req.count("X-Real-IP") > 0;
      if (!admin_request_allowed(guard_->address(), forwarded)) {
        spdlog::warn("admin_refused peer={} forwarded={}", guard_->address(), forwarded);
        return send(text_response(http::status::forbidden, "forbidden\n", version, keep));
      }
      const std::string_view method(req.method_string().data(), req.method_string().size());
      ApiResponse api = context_.hub.handle_admin(method, path, req.body());
      return send(text_response(static_cast<http::status>(api.status), std::move(api.body), version,
                                keep, api.content_type));
    }
    if (path.substr(0, 5) == "/api/") {
      const std::string_view method(req.method_string().data(), req.method_string().size());
      const auto auth = req[http::field::authorization];
      const std::string_view bearer(auth.data(), auth.size());
      ApiResponse api =
          context_.accounts != nullptr && Accounts::handles(path)
              ? context_.accounts->handle_api(method, path, req.body(), bearer, client_of(req),
                                              header(req, http::field::accept_language))
          : context_.turns != nullptr && TurnNotifications::handles(path)
              ? context_.turns->handle_api(method, target, req.body(), bearer)
          : context_.presence != nullptr && PresenceApi::handles(path)
              ? context_.presence->handle(method, target, bearer, client_of(req))
          : context_.mutes != nullptr && ChatMutes::handles(path)
              ? context_.mutes->handle_api(method, path, req.body(), bearer, client_of(req))
              : context_.hub.handle_api(method, target, req.body(), bearer, client_of(req));
      const bool gzipped = api.compressible && api.body.size() >= kMinCompressedAnswer &&
                           accepts_gzip(header(req, http::field::accept_encoding));
      if (gzipped) api.body = gzip_compress(api.body, 6);
      auto res = text_response(static_cast<http::status>(api.status), std::move(api.body), version,
                               keep, api.content_type);
      if (api.compressible) res.set(http::field::vary, "Accept-Encoding");
      if (!api.content_disposition.empty()) {
        res.set(http::field::content_disposition, api.content_disposition);
      }
      if (gzipped) res.set(http::field::content_encoding, "gzip");
      if (api.retry_after_seconds > 0) {
        res.set(http::field::retry_after, std::to_string(api.retry_after_seconds));
      }
      return send(std::move(res));
    }
    if (req.method() != http::verb::get && !head) {
      return send(text_response(http::status::method_not_allowed, "use GET\n", version, keep));
    }
    const auto file = resolve_static_path(context_.config.web_root, target);
    if (!file || !is_web_file(*file) ||
        (!context_.config.dev && is_dev_page(context_.config.web_root, *file))) {
      return send(text_response(http::status::not_found, "not found\n", version, keep));
    }
    if (context_.static_files != nullptr) {
      if (auto loaded = context_.static_files->find(*file)) {
        return send_loaded(req, std::move(loaded));
      }
    }

    // Not loaded (too large, or just changed on disk): from disk, as it is, revalidated each time.
    beast::error_code ec;
    http::file_body::value_type body;
    body.open(file->c_str(), beast::file_mode::scan, ec);
    if (ec) return send(text_response(http::status::not_found, "not found\n", version, keep));
    const auto size = body.size();
    const std::string_view type = content_type_for(*file);
    auto set_headers = [&](auto& res) {
      res.set(http::field::server, "viktory-server");
      res.set(http::field::content_type, beast::string_view(type.data(), type.size()));
      res.set("X-Content-Type-Options", "nosniff");
      res.set("Referrer-Policy", "no-referrer");
      res.set(http::field::cache_control, "no-cache");
      if (type.substr(0, 9) == "text/html")
        res.set("Content-Security-Policy", content_security_policy());
      if (file->generic_string().ends_with("/" + std::string(kVerifierWorker))) {
        res.set("Content-Security-Policy", worker_content_security_policy());
      }
      res.content_length(size);
      res.keep_alive(keep);
    };
    if (head) {
      http::response<http::empty_body> res{http::status::ok, version};
      set_headers(res);
      return send(std::move(res));
    }
    http::response<http::file_body> res{std::piecewise_construct, std::make_tuple(std::move(body)),
                                        std::make_tuple(http::status::ok, version)};
    set_headers(res);
    send(std::move(res));
  }

  // A file of the web root from memory: its gzip form when the client takes it, 304 when the
  // client has it already, and a year of caching when the URL names its current version
  // (docs/server.md, "Static files: versions, caching, compression").
  void send_loaded(const http::request<http::string_body>& req,
                   std::shared_ptr<const StaticFile> file) {
    const std::string_view target(req.target().data(), req.target().size());
    const bool versioned = query_value(target, "v") == file->version;
    const bool gzipped =
        !file->gzip.empty() && accepts_gzip(header(req, http::field::accept_encoding));
    const bool not_modified = matches_etag(header(req, http::field::if_none_match), *file);
    const std::string& body = gzipped ? file->gzip : file->body;
    http::response<http::span_body<const char>> res{
        not_modified ? http::status::not_modified : http::status::ok, req.version()};
    res.set(http::field::server, "viktory-server");
    res.set(http::field::etag, file->etag(gzipped));
    res.set(http::field::cache_control, versioned ? kImmutable : "no-cache");
    if (!file->gzip.empty()) res.set(http::field::vary, "Accept-Encoding");
    res.keep_alive(req.keep_alive());
    if (not_modified) return send(std::move(res), std::move(file));
    res.set(http::field::content_type, file->content_type);
    res.set("X-Content-Type-Options", "nosniff");
    res.set("Referrer-Policy", "no-referrer");
    if (!file->content_security_policy.empty()) {
      res.set("Content-Security-Policy", file->content_security_policy);
    }
    if (gzipped) res.set(http::field::content_encoding, "gzip");
    res.content_length(body.size());
    if (req.method() != http::verb::head) res.body() = {body.data(), body.size()};
    send(std::move(res), std::move(file));
  }

  // `keep`: what the response's body points into, held until it is written.
  template <class Body>
  void send(http::response<Body>&& response, std::shared_ptr<const void> keep = nullptr) {
    auto res = std::make_shared<http::response<Body>>(std::move(response));
    const bool close = res->need_eof();
    http::async_write(
        stream_, *res,
        [self = shared_from_this(), res, close, keep](beast::error_code ec, std::size_t) {
          (void)keep;  // alive until here
          if (ec || close) {
            beast::error_code ignored;
            self->stream_.socket().shutdown(net::ip::tcp::socket::shutdown_send, ignored);
            return;
          }
          self->read();
        });
  }

  ClientStream stream_;
  ServerContext& context_;
  std::shared_ptr<ConnectionLimiter::Guard> guard_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

}  // namespace

void start_http_session(net::ip::tcp::socket socket, ServerContext& context,
                        std::shared_ptr<ConnectionLimiter::Guard> guard) {
  std::make_shared<HttpSession>(std::move(socket), context, std::move(guard))->run();
}

}  // namespace viktory::server
