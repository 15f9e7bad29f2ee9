// One libcurl transfer (an HTTP POST or an SMTP submission): it owns the easy handle and every
// buffer the handle points into, so it can run blocking (`perform`) or inside the notifier's
// multi handle, many at a time on one thread.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "delivery_result.h"

typedef void CURL;
struct curl_slist;

namespace viktory::notify {

struct Timeouts {
  std::chrono::milliseconds connect{std::chrono::seconds(10)};  // TCP + TLS handshake
  std::chrono::milliseconds total{std::chrono::seconds(30)};    // the whole transfer
};

// What an endpoint chosen by a user (a browser's push endpoint, a player's webhook) may be.
struct EndpointPolicy {
  bool allow_plain_http = false;         // https only, unless set
  bool allow_private_addresses = false;  // public unicast addresses only (address_filter.h)
  // Both allowed: for services on loopback in tests.
  static EndpointPolicy local_testing() { return EndpointPolicy{true, true}; }
};

// curl_global_init, once per process, before the first handle.
void ensure_curl_initialised();

class Transfer {
 public:
  virtual ~Transfer();
  Transfer(const Transfer&) = delete;
  Transfer& operator=(const Transfer&) = delete;

  CURL* handle() const { return easy_; }
  // Reads the outcome once the transfer ended with curl's result code (a CURLcode).
  virtual DeliveryResult finish(int curl_code) = 0;
  // Runs the transfer on the calling thread (blocking; for tools and tests).
  DeliveryResult perform();

 protected:
  explicit Transfer(const Timeouts& timeouts);
  // curl's error text for a failed transfer: "Connection refused", "Operation timed out"...
  std::string error_text(int curl_code) const;

  CURL* easy_ = nullptr;
  char error_buffer_[256] = {};
};

// A POST over http(s): the body and headers given, the response status and Retry-After read
// back. Redirects are not followed; other protocols are refused; at most 64 KiB of the response
// body are kept. Unless `allow_private_addresses`, a connection to a non-public address is
// refused (the outcome is `failed`).
class HttpPost : public Transfer {
 public:
  HttpPost(const std::string& url, std::vector<std::string> headers, std::string body,
           const Timeouts& timeouts, bool allow_private_addresses);
  ~HttpPost() override;

  DeliveryResult finish(int curl_code) override;
  const std::string& response_body() const { return response_body_; }

 private:
  static std::size_t on_body(char* data, std::size_t size, std::size_t count, void* self);
  static std::size_t on_header(char* data, std::size_t size, std::size_t count, void* self);

  std::string body_;
  struct curl_slist* header_list_ = nullptr;
  std::string response_body_;
  std::string retry_after_;
  bool refused_address_ = false;
};

// A network-level failure (no HTTP status or SMTP reply): timeouts, refused connections, DNS
// errors and resets are worth retrying; a TLS certificate that does not verify is not.
DeliveryResult classify_curl_error(int curl_code, std::string detail);

}  // namespace viktory::notify
