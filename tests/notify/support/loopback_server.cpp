#include "support/loopback_server.h"

#include <curl/curl.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/read_until.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <cstdio>
#include <filesystem>
#include <istream>
#include <stdexcept>

#include "base64url.h"

namespace viktory::notify::testing {

namespace http = boost::beast::http;

// ---- LoopbackServer ----------------------------------------------------------------------------

LoopbackServer::LoopbackServer()
    : acceptor_(io_, tcp::endpoint(asio::ip::address_v4::loopback(), 0)) {
  port_ = acceptor_.local_endpoint().port();
}

LoopbackServer::~LoopbackServer() { stop(); }

void LoopbackServer::start() {
  accept_thread_ = std::thread([this] {
    for (;;) {
      boost::system::error_code ec;
      tcp::socket socket(io_);
      acceptor_.accept(socket, ec);
      std::lock_guard lock(mutex_);
      if (stopped_) return;
      if (ec) continue;
      open_fds_.push_back(socket.native_handle());
      connections_.emplace_back([this, s = std::move(socket)]() mutable {
        serve(s);
        // Forget the descriptor before it is closed: its number may be reused at once.
        std::lock_guard done_lock(mutex_);
        std::erase(open_fds_, s.native_handle());
        boost::system::error_code ignored;
        s.close(ignored);
      });
    }
  });
}

void LoopbackServer::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopped_) return;
    stopped_ = true;
    // shutdown() wakes a thread blocked in accept() or read(); close() would not.
    ::shutdown(acceptor_.native_handle(), SHUT_RDWR);
    for (const int fd : open_fds_) ::shutdown(fd, SHUT_RDWR);
  }
  if (accept_thread_.joinable()) accept_thread_.join();
  for (std::thread& connection : connections_) connection.join();
}

// ---- HttpReceiver ------------------------------------------------------------------------------

HttpReceiver::HttpReceiver(Responder responder) : responder_(std::move(responder)) { start(); }

HttpReceiver::~HttpReceiver() { stop(); }

std::string HttpReceiver::url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(port()) + path;
}

std::vector<ReceivedRequest> HttpReceiver::requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

bool HttpReceiver::wait_for(std::size_t count, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return arrived_.wait_for(lock, timeout, [&] { return requests_.size() >= count; });
}

void HttpReceiver::serve(tcp::socket& socket) {
  boost::beast::flat_buffer buffer;
  for (;;) {
    http::request<http::string_body> request;
    boost::system::error_code ec;
    http::read(socket, buffer, request, ec);
    if (ec) return;
    ReceivedRequest received;
    received.method = std::string(request.method_string());
    received.target = std::string(request.target());
    for (const auto& field : request) {
      std::string name(field.name_string());
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      received.headers[name] = std::string(field.value());
    }
    received.body = request.body();
    received.at = std::chrono::steady_clock::now();
    const Reply reply = responder_ ? responder_(received) : Reply{};
    {
      std::lock_guard lock(mutex_);
      requests_.push_back(received);
    }
    arrived_.notify_all();
    http::response<http::string_body> response(static_cast<http::status>(reply.status),
                                               request.version());
    for (const auto& [name, value] : reply.headers) response.set(name, value);
    response.body() = reply.body;
    response.keep_alive(request.keep_alive());
    response.prepare_payload();
    http::write(socket, response, ec);
    if (ec || !request.keep_alive()) return;
  }
}

// ---- Blackhole ---------------------------------------------------------------------------------

Blackhole::Blackhole() : acceptor_(io_, tcp::endpoint(asio::ip::address_v4::loopback(), 0)) {
  port_ = acceptor_.local_endpoint().port();
}

std::string Blackhole::url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + path;
}

// ---- SmtpSink ----------------------------------------------------------------------------------

SmtpSink::SmtpSink(SmtpSinkOptions options) : options_(std::move(options)) {
  if (!options_.cert_file.empty()) {
    tls_ = std::make_unique<asio::ssl::context>(asio::ssl::context::tls_server);
    tls_->use_certificate_chain_file(options_.cert_file);
    tls_->use_private_key_file(options_.key_file, asio::ssl::context::pem);
  }
  start();
}

SmtpSink::~SmtpSink() { stop(); }

std::vector<ReceivedMail> SmtpSink::mails() const {
  std::lock_guard lock(mutex_);
  return mails_;
}

std::vector<std::string> SmtpSink::commands() const {
  std::lock_guard lock(mutex_);
  return commands_;
}

void SmtpSink::serve(tcp::socket& socket) {
  std::unique_ptr<asio::ssl::stream<tcp::socket&>> tls;
  asio::streambuf input;
  boost::system::error_code ec;
  auto write = [&](const std::string& text) {
    if (tls) {
      asio::write(*tls, asio::buffer(text), ec);
    } else {
      asio::write(socket, asio::buffer(text), ec);
    }
  };
  auto read_line = [&]() -> std::optional<std::string> {
    if (tls) {
      asio::read_until(*tls, input, "\r\n", ec);
    } else {
      asio::read_until(socket, input, "\r\n", ec);
    }
    if (ec) return std::nullopt;
    std::istream stream(&input);
    std::string line;
    std::getline(stream, line);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return line;
  };
  auto start_tls = [&]() -> bool {
    if (!tls_) return false;
    tls = std::make_unique<asio::ssl::stream<tcp::socket&>>(socket, *tls_);
    tls->handshake(asio::ssl::stream_base::server, ec);
    return !ec;
  };
  auto upper = [](std::string text) {
    for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return text;
  };

  if (options_.implicit_tls && !start_tls()) return;
  write("220 sink.test ESMTP ready\r\n");
  ReceivedMail mail;
  bool authenticated = false;
  auto verify_auth = [&](const std::string& payload) {
    const auto decoded = base64url_decode(payload);
    if (!decoded || !options_.credentials) return false;
    // authzid NUL authcid NUL password
    const std::string text = to_string(*decoded);
    const auto first = text.find('\0');
    const auto second = text.find('\0', first + 1);
    if (first == std::string::npos || second == std::string::npos) return false;
    const std::string user = text.substr(first + 1, second - first - 1);
    const std::string password = text.substr(second + 1);
    if (user != options_.credentials->first || password != options_.credentials->second) {
      return false;
    }
    mail.auth_user = user;
    return true;
  };

  while (auto line = read_line()) {
    {
      std::lock_guard lock(mutex_);
      commands_.push_back(*line);
    }
    const std::string command = upper(line->substr(0, line->find(' ')));
    const std::string argument =
        line->find(' ') == std::string::npos ? std::string() : line->substr(line->find(' ') + 1);
    if (command == "EHLO" || command == "HELO") {
      mail.helo = argument;
      std::string reply = "250-sink.test\r\n";
      if (options_.offer_starttls && !tls) reply += "250-STARTTLS\r\n";
      if (options_.credentials && (tls || !options_.require_tls)) reply += "250-AUTH PLAIN\r\n";
      reply += "250 8BITMIME\r\n";
      write(reply);
    } else if (command == "STARTTLS" && options_.offer_starttls && !tls) {
      write("220 2.0.0 go ahead\r\n");
      if (!start_tls()) return;
      mail = ReceivedMail{};  // RFC 3207: forget everything said before the upgrade
      authenticated = false;
    } else if (command == "AUTH" && options_.credentials) {
      std::string payload = argument.size() > 6 ? argument.substr(6) : std::string();
      if (upper(argument.substr(0, 5)) != "PLAIN") {
        write("504 5.5.4 only PLAIN\r\n");
        continue;
      }
      if (payload.empty()) {
        write("334 \r\n");
        const auto response = read_line();
        if (!response) return;
        payload = *response;
      }
      authenticated = verify_auth(payload);
      write(authenticated ? "235 2.7.0 accepted\r\n" : "535 5.7.8 bad credentials\r\n");
    } else if (command == "MAIL") {
      if (options_.require_tls && !tls) {
        write("530 5.7.0 Must issue a STARTTLS command first\r\n");
      } else if (options_.credentials && !authenticated) {
        write("530 5.7.0 Authentication required\r\n");
      } else {
        mail.mail_from = argument;
        mail.tls = tls != nullptr;
        write("250 2.1.0 ok\r\n");
      }
    } else if (command == "RCPT") {
      if (options_.rcpt_reply == 250) mail.recipients.push_back(argument);
      write(std::to_string(options_.rcpt_reply) +
            (options_.rcpt_reply == 250 ? " 2.1.5 ok\r\n" : " recipient not taken\r\n"));
    } else if (command == "DATA") {
      if (mail.recipients.empty()) {
        write("554 5.5.1 no valid recipients\r\n");
        continue;
      }
      write("354 end with <CRLF>.<CRLF>\r\n");
      std::string data;
      while (auto data_line = read_line()) {
        if (*data_line == ".") break;
        // RFC 5321 4.5.2: undo the client's dot-stuffing.
        if (!data_line->empty() && data_line->front() == '.') data_line->erase(0, 1);
        data += *data_line + "\r\n";
      }
      mail.data = data;
      mail.at = std::chrono::steady_clock::now();
      {
        std::lock_guard lock(mutex_);
        mails_.push_back(mail);
      }
      mail.recipients.clear();
      write("250 2.0.0 queued\r\n");
    } else if (command == "RSET") {
      mail.recipients.clear();
      write("250 2.0.0 ok\r\n");
    } else if (command == "NOOP") {
      write("250 2.0.0 ok\r\n");
    } else if (command == "QUIT") {
      write("221 2.0.0 bye\r\n");
      return;
    } else {
      write("502 5.5.2 command not recognised\r\n");
    }
    if (ec) return;
  }
}

// ---- TestCertificate ---------------------------------------------------------------------------

TestCertificate::TestCertificate() {
  std::string pattern =
      (std::filesystem::temp_directory_path() / "viktory-notify-cert.XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  dir_ = pattern;
  cert_file_ = dir_ + "/cert.pem";
  key_file_ = dir_ + "/key.pem";

  EVP_PKEY* key = EVP_EC_gen("prime256v1");
  X509* cert = X509_new();
  if (key == nullptr || cert == nullptr) throw std::runtime_error("OpenSSL allocation failed");
  X509_set_version(cert, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert), -60);
  X509_gmtime_adj(X509_getm_notAfter(cert), 24 * 3600);
  X509_set_pubkey(cert, key);
  X509_NAME* name = X509_get_subject_name(cert);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
  X509_set_issuer_name(cert, name);
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
  X509_EXTENSION* san =
      X509V3_EXT_conf_nid(nullptr, &ctx, NID_subject_alt_name, "IP:127.0.0.1,DNS:localhost");
  X509_add_ext(cert, san, -1);
  X509_EXTENSION_free(san);
  if (X509_sign(cert, key, EVP_sha256()) == 0) throw std::runtime_error("X509_sign failed");

  FILE* out = std::fopen(cert_file_.c_str(), "w");
  PEM_write_X509(out, cert);
  std::fclose(out);
  out = std::fopen(key_file_.c_str(), "w");
  PEM_write_PrivateKey(out, key, nullptr, nullptr, 0, nullptr, nullptr);
  std::fclose(out);
  X509_free(cert);
  EVP_PKEY_free(key);
}

TestCertificate::~TestCertificate() {
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

// ---- ChildProcess ------------------------------------------------------------------------------

ChildProcess::ChildProcess(std::vector<std::string> argv, const std::string& working_dir) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    if (chdir(working_dir.c_str()) != 0) _exit(126);
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(fds[1]);
  out_fd_ = fds[0];
  reader_ = std::thread([this] {
    char buffer[4096];
    for (;;) {
      const ssize_t n = read(out_fd_, buffer, sizeof buffer);
      std::lock_guard lock(mutex_);
      if (n <= 0) {
        ended_ = true;
        changed_.notify_all();
        return;
      }
      output_.append(buffer, static_cast<std::size_t>(n));
      changed_.notify_all();
    }
  });
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    int status = 0;
    bool reaped = false;
    for (int i = 0; i < 500 && !reaped; ++i) {
      reaped = waitpid(pid_, &status, WNOHANG) == pid_;
      if (!reaped) usleep(10'000);
    }
    if (!reaped) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
    }
  }
  if (reader_.joinable()) reader_.join();
  if (out_fd_ >= 0) close(out_fd_);
}

std::optional<std::string> ChildProcess::wait_for_output(const std::string& text,
                                                         std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  const bool found = changed_.wait_for(
      lock, timeout, [&] { return output_.find(text) != std::string::npos || ended_; });
  if (!found || output_.find(text) == std::string::npos) return std::nullopt;
  return output_;
}

std::string ChildProcess::output() const {
  std::lock_guard lock(mutex_);
  return output_;
}

// ---- post_json ---------------------------------------------------------------------------------

std::pair<long, std::string> post_json(const std::string& url, const std::string& body) {
  CURL* curl = curl_easy_init();
  if (curl == nullptr) throw std::runtime_error("curl_easy_init failed");
  std::string response;
  curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.c_str());
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 10'000L);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response);
  curl_easy_setopt(
      curl, CURLOPT_WRITEFUNCTION,
      +[](char* data, std::size_t size, std::size_t count, void* out) -> std::size_t {
        static_cast<std::string*>(out)->append(data, size * count);
        return size * count;
      });
  const CURLcode code = curl_easy_perform(curl);
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  if (code != CURLE_OK)
    throw std::runtime_error(std::string("POST failed: ") + curl_easy_strerror(code));
  return {status, response};
}

}  // namespace viktory::notify::testing
