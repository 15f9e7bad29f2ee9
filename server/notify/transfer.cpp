#include "transfer.h"

#include <curl/curl.h>
#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <mutex>
#include <stdexcept>

#include "address_filter.h"

namespace viktory::notify {
namespace {

constexpr std::size_t kMaxResponseBody = 64 * 1024;

// libcurl asks this for every socket it opens, with the address it will connect to (after DNS),
// so the check cannot be dodged with a name that resolves to a private address.
curl_socket_t open_public_socket(void* refused, curlsocktype purpose, curl_sockaddr* address) {
  if (purpose != CURLSOCKTYPE_IPCXN || !is_public_address(&address->addr)) {
    *static_cast<bool*>(refused) = true;
    return CURL_SOCKET_BAD;
  }
  return ::socket(address->family, address->socktype, address->protocol);
}

}  // namespace

void ensure_curl_initialised() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
      throw std::runtime_error("curl_global_init failed");
    }
  });
}

Transfer::Transfer(const Timeouts& timeouts) {
  ensure_curl_initialised();
  easy_ = curl_easy_init();
  if (easy_ == nullptr) throw std::runtime_error("curl_easy_init failed");
  curl_easy_setopt(easy_, CURLOPT_ERRORBUFFER, error_buffer_);
  // Signals are no way to time out in a threaded server.
  curl_easy_setopt(easy_, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(easy_, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(timeouts.connect.count()));
  curl_easy_setopt(easy_, CURLOPT_TIMEOUT_MS, static_cast<long>(timeouts.total.count()));
}

Transfer::~Transfer() { curl_easy_cleanup(easy_); }

DeliveryResult Transfer::perform() { return finish(curl_easy_perform(easy_)); }

std::string Transfer::error_text(int curl_code) const {
  if (error_buffer_[0] != '\0') return error_buffer_;
  return curl_easy_strerror(static_cast<CURLcode>(curl_code));
}

DeliveryResult classify_curl_error(int curl_code, std::string detail) {
  DeliveryResult result;
  result.detail = std::move(detail);
  switch (static_cast<CURLcode>(curl_code)) {
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_URL_MALFORMAT:
    case CURLE_LOGIN_DENIED:
    case CURLE_USE_SSL_FAILED:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_FILESIZE_EXCEEDED:
    case CURLE_BAD_FUNCTION_ARGUMENT:
      // Configuration problems: the same request fails the same way until someone fixes them.
      result.outcome = Outcome::failed;
      break;
    default:
      result.outcome = Outcome::retry_later;
      break;
  }
  return result;
}

HttpPost::HttpPost(const std::string& url, std::vector<std::string> headers, std::string body,
                   const Timeouts& timeouts, bool allow_private_addresses)
    : Transfer(timeouts), body_(std::move(body)) {
  if (!allow_private_addresses) {
    curl_easy_setopt(easy_, CURLOPT_OPENSOCKETFUNCTION, &open_public_socket);
    curl_easy_setopt(easy_, CURLOPT_OPENSOCKETDATA, &refused_address_);
    // A proxy from the environment would be checked as the peer instead: use none.
    curl_easy_setopt(easy_, CURLOPT_PROXY, "");
  }
  curl_easy_setopt(easy_, CURLOPT_URL, url.c_str());
  // Endpoints come from browsers and game settings: never let one turn into file:// or smtp://.
  curl_easy_setopt(easy_, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(easy_, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(easy_, CURLOPT_POST, 1L);
  curl_easy_setopt(easy_, CURLOPT_POSTFIELDS, body_.data());
  curl_easy_setopt(easy_, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body_.size()));
  // No "Expect: 100-continue" round trip for our small bodies.
  headers.emplace_back("Expect:");
  for (const std::string& header : headers) {
    header_list_ = curl_slist_append(header_list_, header.c_str());
  }
  curl_easy_setopt(easy_, CURLOPT_HTTPHEADER, header_list_);
  curl_easy_setopt(easy_, CURLOPT_USERAGENT, "viktory-notify/1");
  curl_easy_setopt(easy_, CURLOPT_WRITEFUNCTION, &HttpPost::on_body);
  curl_easy_setopt(easy_, CURLOPT_WRITEDATA, this);
  curl_easy_setopt(easy_, CURLOPT_HEADERFUNCTION, &HttpPost::on_header);
  curl_easy_setopt(easy_, CURLOPT_HEADERDATA, this);
}

HttpPost::~HttpPost() { curl_slist_free_all(header_list_); }

std::size_t HttpPost::on_body(char* data, std::size_t size, std::size_t count, void* self) {
  auto* post = static_cast<HttpPost*>(self);
  const std::size_t length = size * count;
  const std::size_t room =
      kMaxResponseBody - std::min(kMaxResponseBody, post->response_body_.size());
  post->response_body_.append(data, std::min(room, length));
  return length;  // the rest is read and discarded
}

std::size_t HttpPost::on_header(char* data, std::size_t size, std::size_t count, void* self) {
  auto* post = static_cast<HttpPost*>(self);
  const std::size_t length = size * count;
  const std::string_view line(data, length);
  constexpr std::string_view kName = "retry-after:";
  if (line.starts_with("HTTP/")) {
    post->retry_after_.clear();  // a new response (after a 1xx) starts
  } else if (line.size() > kName.size()) {
    bool match = true;
    for (std::size_t i = 0; i < kName.size() && match; ++i) {
      match = std::tolower(static_cast<unsigned char>(line[i])) == kName[i];
    }
    if (match) post->retry_after_ = std::string(line.substr(kName.size()));
  }
  return length;
}

DeliveryResult HttpPost::finish(int curl_code) {
  if (curl_code != CURLE_OK && refused_address_) {
    return DeliveryResult{Outcome::failed, 0, std::nullopt,
                          "refused: the endpoint is not a public address"};
  }
  if (curl_code != CURLE_OK) return classify_curl_error(curl_code, error_text(curl_code));
  long status = 0;
  curl_easy_getinfo(easy_, CURLINFO_RESPONSE_CODE, &status);
  return classify_http_status(status,
                              parse_retry_after(retry_after_, std::chrono::system_clock::now()));
}

}  // namespace viktory::notify
