// Test servers on 127.0.0.1, started by the tests themselves: a base that accepts connections on
// a free port and serves each one on its own thread, an HTTP receiver (push service stub and
// webhook receiver), a blackhole that accepts TCP but never answers, and an SMTP sink.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace viktory::notify::testing {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

class LoopbackServer {
 public:
  LoopbackServer();
  virtual ~LoopbackServer();
  LoopbackServer(const LoopbackServer&) = delete;
  LoopbackServer& operator=(const LoopbackServer&) = delete;

  int port() const { return port_; }

 protected:
  // Starts accepting; call at the end of the derived constructor.
  void start();
  // Stops accepting, unblocks every connection and joins; call first in the derived destructor.
  void stop();
  virtual void serve(tcp::socket& socket) = 0;

 private:
  asio::io_context io_;
  tcp::acceptor acceptor_;
  int port_ = 0;
  std::thread accept_thread_;
  std::mutex mutex_;
  std::vector<std::thread> connections_;
  std::vector<int> open_fds_;
  bool stopped_ = false;
};

struct ReceivedRequest {
  std::string method;
  std::string target;
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;
  std::chrono::steady_clock::time_point at;
};

struct Reply {
  int status = 201;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

class HttpReceiver : public LoopbackServer {
 public:
  using Responder = std::function<Reply(const ReceivedRequest&)>;
  explicit HttpReceiver(Responder responder = {});
  ~HttpReceiver() override;

  std::string url(const std::string& path) const;
  std::vector<ReceivedRequest> requests() const;
  // Waits until at least `count` requests arrived; false on timeout.
  bool wait_for(std::size_t count, std::chrono::milliseconds timeout) const;

 private:
  void serve(tcp::socket& socket) override;
  Responder responder_;
  mutable std::mutex mutex_;
  mutable std::condition_variable arrived_;
  std::vector<ReceivedRequest> requests_;
};

// Listens but never accepts: connections complete in the kernel's backlog, requests are never
// read and never answered. What a hung endpoint looks like to a client.
class Blackhole {
 public:
  Blackhole();
  int port() const { return port_; }
  std::string url(const std::string& path) const;

 private:
  asio::io_context io_;
  tcp::acceptor acceptor_;
  int port_ = 0;
};

struct SmtpSinkOptions {
  bool offer_starttls = false;
  bool implicit_tls = false;                                       // smtps: TLS from the first byte
  bool require_tls = false;                                        // 530 to MAIL before STARTTLS
  std::optional<std::pair<std::string, std::string>> credentials;  // AUTH PLAIN required
  int rcpt_reply = 250;  // e.g. 450 (try later) or 550 (refused)
  std::string cert_file;
  std::string key_file;
};

struct ReceivedMail {
  std::string helo;
  std::string mail_from;
  std::vector<std::string> recipients;
  std::string data;  // the message as the client sent it, dot-stuffing undone, CRLF kept
  bool tls = false;
  std::string auth_user;
  std::chrono::steady_clock::time_point at;  // when the sink accepted the message
};

class SmtpSink : public LoopbackServer {
 public:
  explicit SmtpSink(SmtpSinkOptions options);
  ~SmtpSink() override;

  std::vector<ReceivedMail> mails() const;
  // Every command line received (AUTH payloads included), for checking the dialogue.
  std::vector<std::string> commands() const;

 private:
  void serve(tcp::socket& socket) override;
  SmtpSinkOptions options_;
  std::unique_ptr<asio::ssl::context> tls_;
  mutable std::mutex mutex_;
  std::vector<ReceivedMail> mails_;
  std::vector<std::string> commands_;
};

// A self-signed certificate for 127.0.0.1 and localhost (P-256, SHA-256, one day), written as
// PEM files into a fresh temporary folder that is removed again.
class TestCertificate {
 public:
  TestCertificate();
  ~TestCertificate();
  const std::string& cert_file() const { return cert_file_; }
  const std::string& key_file() const { return key_file_; }

 private:
  std::string dir_;
  std::string cert_file_;
  std::string key_file_;
};

// A child process whose standard output is read on a thread (for the local push service).
class ChildProcess {
 public:
  ChildProcess(std::vector<std::string> argv, const std::string& working_dir);
  ~ChildProcess();  // SIGTERM, then SIGKILL after 5 s
  // Waits until the output contains `text`; returns the output so far, or nullopt on timeout
  // or when the process ended.
  std::optional<std::string> wait_for_output(const std::string& text,
                                             std::chrono::milliseconds timeout);
  std::string output() const;

 private:
  int pid_ = -1;
  int out_fd_ = -1;
  std::thread reader_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::string output_;
  bool ended_ = false;
};

// A blocking JSON POST with libcurl for talking to the test services: {status, body}.
std::pair<long, std::string> post_json(const std::string& url, const std::string& body);

}  // namespace viktory::notify::testing
